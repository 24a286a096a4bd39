// The sandbox's world (sandbox_scenario) and the wire side of its combat
// answers; the answers themselves are ScenarioServer's (scenario_server.cpp,
// "The sandbox").

#include "dereth/scenario/sandbox.hpp"

#include <algorithm>
#include <utility>

#include "dereth/core/byte_writer.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/scenario/demo_scenario.hpp"

namespace dereth::scenario {

namespace {
constexpr std::uint32_t kItemTypeCreature = 0x10;
constexpr std::uint32_t kAttackable = 0x10;  // ObjectDescriptionFlags
}  // namespace

Scenario sandbox_of(Scenario scenario) {
  scenario.name = std::string(kSandboxScenarioName);
  // Only the world as it stands at entry: the objects and the player's
  // grounded position of time 0; nothing scripted afterwards.
  std::erase_if(scenario.stream, [](const StreamEvent& e) { return e.time > 0.0; });
  for (auto& e : scenario.stream) {
    if (auto* create = std::get_if<protocol::CreateObject>(&e.message)) {
      if ((create->weenie.item_type & kItemTypeCreature) != 0) create->weenie.object_description_flags |= kAttackable;
    }
  }
  scenario.loop_period.reset();
  scenario.loop_count.reset();
  scenario.loop_from = 0;
  scenario.inputs.clear();
  // Whether the server answers is ServerConfig::sandbox's to say, not the
  // scripted scenario's `sandbox` line (the demo has one).
  scenario.sandbox = false;
  return scenario;
}

Result<Scenario> sandbox_scenario() {
  auto demo = demo_scenario();
  if (!demo) return std::unexpected(demo.error());
  return sandbox_of(std::move(*demo));
}

std::vector<std::uint8_t> encode_update_health(std::uint32_t guid, float fraction, std::uint32_t target,
                                               std::uint32_t sequence) {
  core::ByteWriter w;
  w.u32(guid);
  w.f32(fraction);
  return protocol::encode_game_event(target, sequence, sandbox_event::UpdateHealth, std::move(w).take());
}

}  // namespace dereth::scenario
