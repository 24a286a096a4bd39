#pragma once
// The headless demo for a GL test, or a skip: on a machine without EGL the
// test passes with a warning saying what was not checked (a failure under
// DERETH_REQUIRE_GL=1, as the render tests do).
#include <catch2/catch.hpp>

#include <memory>
#include <string_view>

#include "dereth/app/demo.hpp"

#include "support/gl_context.hpp"

namespace dereth::test {

// Null after the warning (or the failure) when the demo cannot be made.
inline std::unique_ptr<app::HeadlessDemo> headless_demo_or_skip(app::HeadlessDemoOptions options,
                                                                std::string_view not_checked) {
  auto demo = app::HeadlessDemo::create(std::move(options));
  if (!demo) {
    if (gl_required()) FAIL(demo.error().message());
    WARN("no headless GL here, " << not_checked << " not checked: " << demo.error().message());
    return nullptr;
  }
  return std::move(*demo);
}

}  // namespace dereth::test
