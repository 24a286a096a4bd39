#pragma once
// An OpenGL context with no display and no window (EGL on Mesa's surfaceless
// platform; llvmpipe where there is no GPU), for tests and screenshots. It has
// no default framebuffer: draw into a framebuffer object. No EGL header leaks
// from here. docs/render.md "Headless rendering".

#include <memory>
#include <string>

#include "dereth/core/error.hpp"
#include "dereth/render/gl_loader.hpp"

namespace dereth::render {

class HeadlessContext {
 public:
  // Creates a core-profile context of at least major.minor and makes it
  // current on this thread, then loads the GL entry points (glad). The
  // error names the EGL call that failed and the EGL error code, for
  // example "EGL: eglInitialize: unsupported (EGL_NOT_INITIALIZED 0x3001)".
  [[nodiscard]] static core::Result<HeadlessContext> create(int major = 3, int minor = 3);

  HeadlessContext(HeadlessContext&&) noexcept;
  HeadlessContext& operator=(HeadlessContext&&) noexcept;
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;
  ~HeadlessContext();

  // Makes the context current on the calling thread again.
  [[nodiscard]] bool make_current() const noexcept;
  // eglGetProcAddress, for load_gl_functions and the Renderer.
  [[nodiscard]] static GlProcLoader loader() noexcept;
  // What the driver reports: "4.5 (Core Profile) Mesa 22.3.6", "llvmpipe (LLVM 15.0.6, 256 bits)".
  [[nodiscard]] const std::string& version() const noexcept;
  [[nodiscard]] const std::string& renderer() const noexcept;

 private:
  struct State;
  explicit HeadlessContext(std::unique_ptr<State> state) noexcept;
  std::unique_ptr<State> state_;
};

}  // namespace dereth::render
