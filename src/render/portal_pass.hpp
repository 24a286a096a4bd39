#pragma once
// The portal pass (private header): portal space's tunnel over the whole
// frame, and the black veil of the world's fades, each one full-screen
// triangle with no vertex buffer (docs/render.md "Portal space"). Its program
// is built at the first portal frame, so the other programs' GL names stay
// as they were.

#include <glad/gl.h>

#include "dereth/core/error.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::render {

class PortalPass {
 public:
  PortalPass() = default;
  PortalPass(const PortalPass&) = delete;
  PortalPass& operator=(const PortalPass&) = delete;

  // The tunnel at the portal's time and heading, `brightness` 0..1, over the
  // whole bound target of `width` x `height` (depth neither read nor written).
  core::Result<void> draw_tunnel(const sim::PortalSpace& portal, float brightness, int width, int height);
  // Black at `opacity` 0..1 over what is drawn (destination alpha kept).
  core::Result<void> draw_veil(float opacity);
  void release();

 private:
  core::Result<void> ensure_program();
  GLuint program_ = 0;
  GLuint vao_ = 0;
  GLint u_mode_ = -1;
  GLint u_time_ = -1;
  GLint u_heading_ = -1;
  GLint u_level_ = -1;
  GLint u_aspect_ = -1;
  GLint u_pixel_ = -1;
  core::Result<void> ensure_veil_program();
  GLuint veil_program_ = 0;
  GLint u_veil_level_ = -1;
};

}  // namespace dereth::render
