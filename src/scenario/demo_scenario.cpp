// The embedded demo scenario: the text comes from data/demo/demo.scenario,
// written into the build tree as a raw string literal when CMake configures
// (src/scenario/CMakeLists.txt; a change to the data file re-runs it).

#include "dereth/scenario/demo_scenario.hpp"

namespace dereth::scenario {

namespace {
#include "dereth_demo_scenario_text.inc"  // constexpr std::string_view kDemoScenarioText
}  // namespace

std::string_view demo_scenario_text() noexcept {
  return kDemoScenarioText;
}

Result<Scenario> demo_scenario() {
  return parse_scenario(kDemoScenarioText, kDemoScenarioName);
}

}  // namespace dereth::scenario
