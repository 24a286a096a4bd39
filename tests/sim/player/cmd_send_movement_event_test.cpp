// CommandInterpreter::SendMovementEvent 0x006B4680: the F7B1/F61C
// MoveToState built from the raw motion state, the player's canonical
// m_position, update_times [8], [5], [4], [6] and the contact/long-jump byte.

#include <catch2/catch.hpp>

#include "dereth/core/byte_writer.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;
using TI = protocol::TimestampIndex;

namespace {

struct Sent {
  std::vector<std::uint8_t> bytes;
  std::uint16_t queue = 0;
};

struct World {
  core::ManualClock clock{core::Seconds{100.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  std::vector<Sent> sent;
  std::uint32_t next_stamp = 0x11F;
  CommandInterpreter ci{context,
                        [this](std::vector<std::uint8_t> b, std::uint16_t q) {
                          sent.push_back({std::move(b), q});
                        },
                        [this] { return next_stamp++; }};

  World() {
    context.player = &player;
    player.store_position(Position{0xA9B4001F, core::Frame({84.0f, 148.0f, 66.0f}, glm::quat(1, 0, 0, 0))});
    player.set_transient_state(transient_state::Contact | transient_state::OnWalkable | transient_state::Active);
    player.set_update_time(TI::Instance, 0x0008);
    player.set_update_time(TI::ServerControlledMove, 0x0005);
    player.set_update_time(TI::Teleport, 0x0004);
    player.set_update_time(TI::ForcePosition, 0x0006);
    player.set_update_time(TI::Position, 0x7777);  // never echoed
  }
};

}  // namespace

TEST_CASE("CommandInterpreter::SendMovementEvent 0x006B4680 writes the raw state, m_position and stamps 8,5,4,6",
          "[retail]") {
  World w;
  w.ci.send_movement_event();
  REQUIRE(w.sent.size() == 1);
  CHECK(w.sent[0].queue == 3);

  // Built by hand: F7B1, stamp, F61C, raw flags 0 (defaults), Position,
  // instance 8, server control 5, teleport 4, force position 6, contact 1, pad.
  core::ByteWriter e;
  e.u32(0xF7B1);
  e.u32(0x11F);
  e.u32(0xF61C);
  e.u32(0);  // RawMotionState: nothing differs from the defaults
  e.u32(0xA9B4001F);
  e.f32(84.0f);
  e.f32(148.0f);
  e.f32(66.0f);
  e.f32(1.0f);
  e.f32(0.0f);
  e.f32(0.0f);
  e.f32(0.0f);
  e.u16(0x0008);
  e.u16(0x0005);
  e.u16(0x0004);
  e.u16(0x0006);
  e.u8(1);
  e.u8(0);
  e.u8(0);
  e.u8(0);
  CHECK(w.sent[0].bytes == std::move(e).take());
}

TEST_CASE("CommandInterpreter::SendMovementEvent 0x006B4680 carries what the keys put in the raw state", "[retail]") {
  World w;
  w.ci.set_hold_run(true);
  w.ci.handle_keyboard_command(command::WalkForward, true);
  REQUIRE_FALSE(w.sent.empty());
  auto m = protocol::decode_move_to_state(w.sent.back().bytes);
  REQUIRE(m);
  // Walk, with running expressed by the current hold key (spec 5.14).
  CHECK(m->raw.current_hold_key == 2u);
  CHECK(m->raw.forward_command == 0x45000005u);
  CHECK_FALSE(m->raw.forward_hold_key.has_value());
  CHECK_FALSE(m->raw.forward_speed.has_value());
  CHECK(m->raw.flags() == 0x005u);
}

TEST_CASE("CommandInterpreter::SendMovementEvent 0x006B4680 contact needs Contact and OnWalkable, long jump is bit 1",
          "[retail]") {
  World w;
  SECTION("Contact alone is not contact") {
    w.player.set_transient_state(transient_state::Contact);
    w.ci.send_movement_event();
    auto m = protocol::decode_move_to_state(w.sent.back().bytes);
    REQUIRE(m);
    CHECK(m->contact_long_jump == 0);
  }
  SECTION("OnWalkable alone is not contact") {
    w.player.set_transient_state(transient_state::OnWalkable);
    w.ci.send_movement_event();
    auto m = protocol::decode_move_to_state(w.sent.back().bytes);
    REQUIRE(m);
    CHECK(m->contact_long_jump == 0);
  }
  SECTION("a standing long jump in the air") {
    w.player.set_transient_state(0);
    w.ci.set_standing_longjump(true);
    w.ci.send_movement_event();
    auto m = protocol::decode_move_to_state(w.sent.back().bytes);
    REQUIRE(m);
    CHECK(m->contact_long_jump == 2);
  }
  SECTION("grounded and charging") {
    w.ci.set_standing_longjump(true);
    w.ci.send_movement_event();
    auto m = protocol::decode_move_to_state(w.sent.back().bytes);
    REQUIRE(m);
    CHECK(m->contact_long_jump == 3);
  }
}

TEST_CASE("CommandInterpreter::SendMovementEvent 0x006B4680 sends even airborne or off-cell, and moves only the time",
          "[retail]") {
  World w;
  // Unlike SendPositionEvent, no contact and no valid position are needed.
  w.player.set_transient_state(0);
  w.player.store_position(Position{0, core::Frame({1.0f, 2.0f, 3.0f}, glm::quat(1, 0, 0, 0))});
  w.clock.set(core::Seconds{123.5});
  w.ci.send_movement_event();
  REQUIRE(w.sent.size() == 1);
  CHECK(w.ci.last_sent_position_time() == core::Seconds{123.5});
  // The position the schedule compares against is untouched (cell 0, identity).
  CHECK(w.ci.last_sent_position().objcell_id == 0u);
  CHECK(w.ci.last_sent_position().frame.origin == glm::vec3(0.0f));
}

TEST_CASE("CommandInterpreter::SendMovementEvent 0x006B4680 sends nothing at autonomy 0 or without a player",
          "[retail]") {
  World w;
  SECTION("autonomy level 0") {
    REQUIRE(w.ci.set_autonomy_level(0));  // F752 AutonomyLevel goes out
    w.sent.clear();
    const auto stamp = w.next_stamp;
    w.ci.send_movement_event();
    CHECK(w.sent.empty());
    CHECK(w.next_stamp == stamp);  // no stamp was drawn
  }
  SECTION("no player") {
    w.context.player = nullptr;
    w.ci.send_movement_event();
    CHECK(w.sent.empty());
  }
}
