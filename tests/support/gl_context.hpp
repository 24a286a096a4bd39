#pragma once
// The GL tests' one headless context (EGL, llvmpipe where no GPU): made on
// first use and never destroyed (tearing EGL down during static destruction
// is fragile). DERETH_GL_OR_RETURN() makes it current, or, without one,
// passes the test with a warning (fails it under DERETH_REQUIRE_GL=1).
// For test programs that link dereth::render.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <string>

#include "dereth/render/headless_context.hpp"

namespace dereth::test {

inline bool gl_required() {
  const char* v = std::getenv("DERETH_REQUIRE_GL");
  return v != nullptr && std::string(v) == "1";
}

inline const core::Result<render::HeadlessContext>& gl_context() {
  static const auto* context = new core::Result<render::HeadlessContext>(render::HeadlessContext::create());
  return *context;
}

}  // namespace dereth::test

#define DERETH_GL_OR_RETURN()                                                                       \
  do {                                                                                              \
    const auto& dereth_ctx_ = ::dereth::test::gl_context();                                         \
    if (!dereth_ctx_) {                                                                             \
      const std::string why = "no headless OpenGL context: " + dereth_ctx_.error().message();       \
      if (::dereth::test::gl_required()) FAIL(why + " (DERETH_REQUIRE_GL=1)");                      \
      WARN(why + "; the GL test passes without drawing (set DERETH_REQUIRE_GL=1 to make it fail)"); \
      return;                                                                                       \
    }                                                                                               \
    REQUIRE(dereth_ctx_->make_current());                                                           \
  } while (false)
