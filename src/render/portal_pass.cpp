#include "portal_pass.hpp"

#include <algorithm>
#include <cmath>

#include "dereth/render/portal.hpp"

#include "gl_program.hpp"
#include "shaders.hpp"

namespace dereth::render {

namespace {

float unit(float v) noexcept {
  if (!(v == v)) return 0.0F;  // NaN
  return std::clamp(v, 0.0F, 1.0F);
}

constexpr float kRadiansPerDegree = 3.14159265F / 180.0F;

}  // namespace

PortalFrame portal_frame(const sim::PortalSpace& portal) noexcept {
  PortalFrame f;
  const float fade = unit(portal.fade);
  if (portal.visible) {
    f.tunnel = true;
    f.tunnel_brightness = fade;
  } else {
    f.veil = 1.0F - fade;
  }
  return f;
}

core::Result<void> PortalPass::ensure_program() {
  if (program_ != 0) return {};
  DERETH_TRY(program_, gl::build_program("OpenGL", "portal space", {shaders::kVersion, shaders::kPortalVertex},
                                         {shaders::kVersion, shaders::kPortalFragment}));
  u_mode_ = glGetUniformLocation(program_, "u_mode");
  u_time_ = glGetUniformLocation(program_, "u_time");
  u_heading_ = glGetUniformLocation(program_, "u_heading");
  u_level_ = glGetUniformLocation(program_, "u_level");
  u_aspect_ = glGetUniformLocation(program_, "u_aspect");
  u_pixel_ = glGetUniformLocation(program_, "u_pixel");
  glGenVertexArrays(1, &vao_);
  return {};
}

// The veil's program, built at the first fade (after the tunnel's, so the
// programs keep the GL names they had).
core::Result<void> PortalPass::ensure_veil_program() {
  if (veil_program_ != 0) return {};
  DERETH_TRY(veil_program_, gl::build_program("OpenGL", "portal veil", {shaders::kVersion, shaders::kPortalVertex},
                                              {shaders::kVersion, shaders::kPortalVeilFragment}));
  u_veil_level_ = glGetUniformLocation(veil_program_, "u_level");
  return {};
}

core::Result<void> PortalPass::draw_tunnel(const sim::PortalSpace& portal, float brightness, int width, int height) {
  DERETH_CHECK(ensure_program());
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
  glDepthMask(GL_FALSE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glUseProgram(program_);
  // The time wraps every hour so a float keeps its fractions (a tunnel lasts seconds).
  const double time =
      std::isfinite(portal.tunnel_seconds) ? std::fmod(std::max(portal.tunnel_seconds, 0.0), 3600.0) : 0.0;
  const float heading = std::isfinite(portal.heading_degrees) ? portal.heading_degrees : 0.0F;
  glUniform1i(u_mode_, 0);
  glUniform1f(u_time_, static_cast<float>(time));
  glUniform1f(u_heading_, heading * kRadiansPerDegree);
  glUniform1f(u_level_, unit(brightness));
  glUniform1f(u_aspect_, static_cast<float>(width) / static_cast<float>(std::max(height, 1)));
  glUniform1f(u_pixel_, 2.0F / static_cast<float>(std::max(height, 1)));
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  return {};
}

core::Result<void> PortalPass::draw_veil(float opacity) {
  DERETH_CHECK(ensure_program());
  DERETH_CHECK(ensure_veil_program());
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_FALSE);  // destination alpha stays 1
  glUseProgram(veil_program_);
  glUniform1f(u_veil_level_, unit(opacity));
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  glDepthMask(GL_TRUE);
  return {};
}

void PortalPass::release() {
  if (program_ != 0) glDeleteProgram(program_);
  if (veil_program_ != 0) glDeleteProgram(veil_program_);
  veil_program_ = 0;
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  program_ = 0;
  vao_ = 0;
}

}  // namespace dereth::render
