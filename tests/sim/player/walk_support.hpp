#pragma once
// The local player on flat terrain, driven by its CommandInterpreter: the
// demo humanoid (Setup 0x02000001, MotionTable 0x09000001, two spheres of
// 0.45 m) equipped by the DatObjectFactory, a Landscape holding one flat
// landblock (0xA9B4 at z 10), and the outbound messages captured decoded.
// Used by walk_*_test.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <vector>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/dat_part_array.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

#include "motion/anim_support.hpp"
#include "player/qualities_support.hpp"

namespace dereth::sim::test {

inline constexpr std::uint32_t kWalkBlock = 0xA9B4FFFF;
inline constexpr float kGroundZ = 10.0f;

// A landblock flat at z 10 (every vertex at height index 5 of a table that
// doubles the index).
inline LandBlockStruct flat_block(std::uint32_t id = kWalkBlock) {
  dat::LandDefs defs;
  for (std::size_t i = 0; i < defs.land_height_table.size(); ++i) {
    defs.land_height_table[i] = 2.0f * static_cast<float>(i);
  }
  dat::LandBlock b;
  b.id = id;
  b.height.fill(5);
  auto s = LandBlockStruct::build(b, defs, 0x13000000);
  REQUIRE(s);
  return std::move(*s);
}

// One outbound message, decoded.
struct Outbound {
  std::uint32_t action = 0;  // 0xF61C MoveToState, 0xF753 AutonomousPosition, ...
  std::vector<std::uint8_t> bytes;
};

inline std::uint32_t action_of(const std::vector<std::uint8_t>& m) {
  if (m.size() < 12) return 0;
  return static_cast<std::uint32_t>(m[8]) | (static_cast<std::uint32_t>(m[9]) << 8) |
         (static_cast<std::uint32_t>(m[10]) << 16) | (static_cast<std::uint32_t>(m[11]) << 24);
}

struct WalkWorld {
  // `cells` overrides the landscape (an indoor test's own cell source).
  explicit WalkWorld(glm::vec3 start = {60.0f, 60.0f, kGroundZ}, std::uint32_t cell = 0xA9B40013,
                     CellSource* cells = nullptr)
      : records(&demo_portal()), factory(records) {
    context.set_factory(&factory);
    REQUIRE(landscape.add_block(flat_block()));
    context.cells = cells != nullptr ? cells : &landscape;
    player = std::make_unique<PhysicsObj>(context, 0x50000001, LocalId{1});
    PhysicsObj& o = *player;
    o.set_state(protocol::physics_state::Gravity | protocol::physics_state::EdgeSlide, false);
    o.set_part_array(factory.make_part_array(o, demo::kHumanSetup));
    o.init_defaults(*factory.setup_defaults(demo::kHumanSetup));
    WeenieTraits w;
    w.is_creature = true;
    w.is_player = true;
    o.set_weenie(w);
    context.player = &o;
    // The player's PlayerDescription: Quickness, Strength and Coordination
    // 100, stamina, untrained Run and Jump (run rate 1.9167, a full jump ~5.66 m/s).
    context.player_qualities = qualities.get();
    REQUIRE(o.enter_world(Position{cell, core::Frame(start, glm::quat(1, 0, 0, 0))}));
    ci = std::make_unique<CommandInterpreter>(
        context,
        [this](std::vector<std::uint8_t> m, std::uint16_t) {
          sent.push_back({action_of(m), std::move(m)});
        },
        [this] { return ++stamp; });
    context.set_controller(ci.get());
  }
  ~WalkWorld() { context.set_controller(nullptr); }

  [[nodiscard]] MotionInterp& minterp() const { return *player->motion_interp(); }
  [[nodiscard]] const glm::vec3& origin() const { return player->position().frame.origin; }
  [[nodiscard]] bool grounded() const {
    constexpr std::uint32_t kGrounded = transient_state::Contact | transient_state::OnWalkable;
    return (player->transient_state() & kGrounded) == kGrounded;
  }
  [[nodiscard]] const dat::MotionData& cycle(std::uint32_t motion) {
    auto table = factory.get_motion_table(demo::kHumanMotionTable);
    const dat::MotionData* d = table->cycle((motion_command::NonCombat << 16) | (motion & 0xFFFFFF));
    REQUIRE(d != nullptr);
    return *d;
  }

  // One physics tick of 1/30 s: the player's update, then the interpreter's
  // use_time (as the frame loop runs them).
  void tick() {
    clock.advance(core::Seconds{1.0 / 30.0});
    player->update_object();
    ci->use_time();
  }
  void run(int ticks) {
    for (int i = 0; i < ticks; ++i) tick();
  }
  std::vector<protocol::MoveToState> move_to_states() const {
    std::vector<protocol::MoveToState> out;
    for (const Outbound& m : sent) {
      if (m.action != 0xF61C) continue;
      auto d = protocol::decode_move_to_state(m.bytes);
      REQUIRE(d);
      out.push_back(*d);
    }
    return out;
  }
  std::vector<protocol::AutonomousPosition> autonomous_positions() const {
    std::vector<protocol::AutonomousPosition> out;
    for (const Outbound& m : sent) {
      if (m.action != 0xF753) continue;
      auto d = protocol::decode_autonomous_position(m.bytes);
      REQUIRE(d);
      out.push_back(*d);
    }
    return out;
  }

  core::ManualClock clock{core::Seconds{10.0}};
  dat::RecordCache records;
  DatObjectFactory factory;
  SimContext context{clock};
  std::unique_ptr<Qualities> qualities = movement_qualities(MovementStats{});
  Landscape landscape;
  std::unique_ptr<PhysicsObj> player;
  std::vector<Outbound> sent;
  std::uint32_t stamp = 0;
  std::unique_ptr<CommandInterpreter> ci;
};

}  // namespace dereth::sim::test
