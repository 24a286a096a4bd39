// The overlay's GL half: Overlay uploads the triangles layout_overlay
// (overlay.cpp, GL-free) placed and draws them over the bound framebuffer,
// restoring the GL state it touched.
#include <cstddef>
#include <string>
#include <utility>

#include <glad/gl.h>

#include "dereth/render/overlay.hpp"

#include "gl_program.hpp"

namespace dereth::render {

namespace {

constexpr int kMaxTargetSize = 8192;

constexpr const char* kVertexShader = R"GLSL(#version 330 core
layout(location = 0) in vec2 a_position;
layout(location = 1) in vec4 a_color;
uniform vec2 u_viewport;
out vec4 v_color;
void main() {
  vec2 ndc = vec2(a_position.x / u_viewport.x * 2.0 - 1.0, 1.0 - a_position.y / u_viewport.y * 2.0);
  gl_Position = vec4(ndc, 0.0, 1.0);
  v_color = a_color;
}
)GLSL";

constexpr const char* kFragmentShader = R"GLSL(#version 330 core
in vec4 v_color;
out vec4 o_color;
void main() { o_color = v_color; }
)GLSL";

core::Error overlay_error(std::string field, std::string detail) {
  return core::Error{core::ErrorKind::Unsupported, "OpenGL overlay", std::move(field), 0, std::move(detail)};
}

// The GL state draw changes, put back afterwards.
struct SavedState {
  GLint program = 0;
  GLint vertex_array = 0;
  GLint array_buffer = 0;
  GLint viewport[4] = {};
  GLboolean blend = GL_FALSE;
  GLboolean depth_test = GL_FALSE;
  GLboolean cull_face = GL_FALSE;
  GLboolean scissor_test = GL_FALSE;
  GLint blend_src_rgb = GL_ONE;
  GLint blend_dst_rgb = GL_ZERO;
  GLint blend_src_alpha = GL_ONE;
  GLint blend_dst_alpha = GL_ZERO;
  GLint blend_equation_rgb = GL_FUNC_ADD;
  GLint blend_equation_alpha = GL_FUNC_ADD;

  void save() {
    glGetIntegerv(GL_CURRENT_PROGRAM, &program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vertex_array);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &array_buffer);
    glGetIntegerv(GL_VIEWPORT, viewport);
    blend = glIsEnabled(GL_BLEND);
    depth_test = glIsEnabled(GL_DEPTH_TEST);
    cull_face = glIsEnabled(GL_CULL_FACE);
    scissor_test = glIsEnabled(GL_SCISSOR_TEST);
    glGetIntegerv(GL_BLEND_SRC_RGB, &blend_src_rgb);
    glGetIntegerv(GL_BLEND_DST_RGB, &blend_dst_rgb);
    glGetIntegerv(GL_BLEND_SRC_ALPHA, &blend_src_alpha);
    glGetIntegerv(GL_BLEND_DST_ALPHA, &blend_dst_alpha);
    glGetIntegerv(GL_BLEND_EQUATION_RGB, &blend_equation_rgb);
    glGetIntegerv(GL_BLEND_EQUATION_ALPHA, &blend_equation_alpha);
  }

  void restore() const {
    const auto set = [](GLenum cap, GLboolean on) {
      if (on == GL_TRUE) {
        glEnable(cap);
      } else {
        glDisable(cap);
      }
    };
    glUseProgram(static_cast<GLuint>(program));
    glBindVertexArray(static_cast<GLuint>(vertex_array));
    glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(array_buffer));
    glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
    set(GL_BLEND, blend);
    set(GL_DEPTH_TEST, depth_test);
    set(GL_CULL_FACE, cull_face);
    set(GL_SCISSOR_TEST, scissor_test);
    glBlendFuncSeparate(static_cast<GLenum>(blend_src_rgb), static_cast<GLenum>(blend_dst_rgb),
                        static_cast<GLenum>(blend_src_alpha), static_cast<GLenum>(blend_dst_alpha));
    glBlendEquationSeparate(static_cast<GLenum>(blend_equation_rgb), static_cast<GLenum>(blend_equation_alpha));
  }
};

}  // namespace

struct Overlay::Impl {
  OverlayOptions options;
  OverlayLayout layout;
  GLuint program = 0;
  GLuint vao = 0;
  GLuint vbo = 0;
  GLint u_viewport = -1;

  Impl() = default;
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    if (vbo != 0) glDeleteBuffers(1, &vbo);
    if (vao != 0) glDeleteVertexArrays(1, &vao);
    if (program != 0) glDeleteProgram(program);
  }

  core::Result<void> build() {
    DERETH_TRY(program, gl::build_program("OpenGL overlay", "overlay", {kVertexShader}, {kFragmentShader}));
    u_viewport = glGetUniformLocation(program, "u_viewport");

    GLint previous_vao = 0;
    GLint previous_buffer = 0;
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &previous_vao);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &previous_buffer);
    glGenVertexArrays(1, &vao);
    glGenBuffers(1, &vbo);
    glBindVertexArray(vao);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    constexpr auto stride = static_cast<GLsizei>(sizeof(OverlayVertex));
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, stride, reinterpret_cast<const void*>(offsetof(OverlayVertex, x)));
    glEnableVertexAttribArray(1);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, stride,
                          reinterpret_cast<const void*>(offsetof(OverlayVertex, color)));
    glBindVertexArray(static_cast<GLuint>(previous_vao));
    glBindBuffer(GL_ARRAY_BUFFER, static_cast<GLuint>(previous_buffer));
    if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
      return std::unexpected(overlay_error("setup", "GL error " + std::to_string(e)));
    }
    return {};
  }
};

Overlay::Overlay(std::unique_ptr<Impl> impl) noexcept : impl_(std::move(impl)) {}
Overlay::~Overlay() = default;

core::Result<std::unique_ptr<Overlay>> Overlay::create(GlProcLoader loader, OverlayOptions options) {
  if (loader != nullptr) {
    const GlVersion version = load_gl_functions(loader);
    if (version.major < 3 || (version.major == 3 && version.minor < 3)) {
      return std::unexpected(
          overlay_error("load_gl_functions", "OpenGL 3.3 core is not available in the current context"));
    }
  } else if (GLAD_GL_VERSION_3_3 == 0) {
    return std::unexpected(overlay_error("create", "no loader given and the GL 3.3 entry points are not loaded"));
  }
  auto impl = std::make_unique<Impl>();
  impl->options = options;
  DERETH_CHECK(impl->build());
  return std::unique_ptr<Overlay>(new Overlay(std::move(impl)));
}

core::Result<void> Overlay::draw(const OverlayFrame& frame, int width, int height) {
  if (width < 1 || height < 1 || width > kMaxTargetSize || height > kMaxTargetSize) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "Overlay", "size", 0,
                                       std::to_string(width) + "x" + std::to_string(height) + " is outside 1..8192"});
  }
  Impl& s = *impl_;
  s.layout = layout_overlay(frame, width, height, s.options);
  if (s.layout.vertices.empty()) return {};

  // Errors left by earlier calls are not the overlay's: drop them so the check below is ours
  // (bounded: a lost context may report an error on every call).
  for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
  }
  SavedState saved;
  saved.save();
  glViewport(0, 0, width, height);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glDisable(GL_SCISSOR_TEST);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  // Colour blends over the frame; destination alpha is kept (screenshots stay opaque).
  glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ZERO, GL_ONE);
  glUseProgram(s.program);
  glUniform2f(s.u_viewport, static_cast<float>(width), static_cast<float>(height));
  glBindVertexArray(s.vao);
  glBindBuffer(GL_ARRAY_BUFFER, s.vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(s.layout.vertices.size() * sizeof(OverlayVertex)),
               s.layout.vertices.data(), GL_STREAM_DRAW);
  glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(s.layout.vertices.size()));
  saved.restore();
  if (const GLenum e = glGetError(); e != GL_NO_ERROR) {
    return std::unexpected(overlay_error("draw", "GL error " + std::to_string(e)));
  }
  return {};
}

const OverlayLayout& Overlay::last_layout() const noexcept {
  return impl_->layout;
}
const OverlayOptions& Overlay::options() const noexcept {
  return impl_->options;
}
OverlayOptions& Overlay::options() noexcept {
  return impl_->options;
}

}  // namespace dereth::render
