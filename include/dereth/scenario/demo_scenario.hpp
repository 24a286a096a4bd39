#pragma once
// The demo scenario (data/demo/demo.scenario, docs/scenario.md), embedded in
// the executable: the build turns the data file into a raw string literal
// (src/scenario/CMakeLists.txt), so `dereth demo` needs no file beside it.

#include <string_view>

#include "dereth/scenario/scenario.hpp"

namespace dereth::scenario {

// The name errors and traces give the embedded scenario.
inline constexpr std::string_view kDemoScenarioName = "demo.scenario";

// The text of data/demo/demo.scenario as it was when the library was built.
[[nodiscard]] std::string_view demo_scenario_text() noexcept;

// The embedded text, parsed.
Result<Scenario> demo_scenario();

}  // namespace dereth::scenario
