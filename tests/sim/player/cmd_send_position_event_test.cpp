// CommandInterpreter::SendPositionEvent 0x006B4770: the F7B1/F753
// AutonomousPosition from the canonical m_position, sent only when grounded
// (Contact and OnWalkable) at a valid position, recording time, position and
// contact plane. Also the SmartBox's ForcePosition blip reaching it.

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "dereth/core/byte_writer.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"
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
  core::ManualClock clock{core::Seconds{10.0}};
  SimContext context{clock};
  PhysicsObj player{context, 0x50000001, LocalId{1}};
  std::vector<Sent> sent;
  std::uint32_t next_stamp = 280;
  CommandInterpreter ci{context,
                        [this](std::vector<std::uint8_t> b, std::uint16_t q) {
                          sent.push_back({std::move(b), q});
                        },
                        [this] { return next_stamp++; }};

  World() {
    context.player = &player;
    // A quarter turn about +Z: w = x... the canonical frame goes out as stored.
    player.store_position(
        Position{0xA9B4001F, core::Frame({84.5f, 148.25f, 66.0f}, glm::quat(0.70710677f, 0, 0, 0.70710677f))});
    player.set_transient_state(transient_state::Contact | transient_state::OnWalkable);
    player.set_contact_plane(Plane{{0.0f, 0.0f, 1.0f}, -66.0f});
    player.set_update_time(TI::Instance, 0x0101);
    player.set_update_time(TI::ServerControlledMove, 0x0202);
    player.set_update_time(TI::Teleport, 0x0303);
    player.set_update_time(TI::ForcePosition, 0x0404);
  }
};

std::vector<std::uint8_t> expected_message(const World& w, std::uint32_t stamp) {
  const glm::quat& q = w.player.position().frame.orientation();
  core::ByteWriter e;
  e.u32(0xF7B1);
  e.u32(stamp);
  e.u32(0xF753);
  e.u32(0xA9B4001F);
  e.f32(84.5f);
  e.f32(148.25f);
  e.f32(66.0f);
  e.f32(q.w);
  e.f32(q.x);
  e.f32(q.y);
  e.f32(q.z);
  e.u16(0x0101);  // instance       update_times[8]
  e.u16(0x0202);  // server control update_times[5]
  e.u16(0x0303);  // teleport       update_times[4]
  e.u16(0x0404);  // force position update_times[6]
  e.u8(1);        // contact
  e.u8(0);
  e.u8(0);
  e.u8(0);
  return std::move(e).take();
}

}  // namespace

TEST_CASE("CommandInterpreter::SendPositionEvent 0x006B4770 sends the 56-byte AutonomousPosition and records it",
          "[retail]") {
  World w;
  w.clock.set(core::Seconds{12.25});
  w.ci.send_position_event();
  REQUIRE(w.sent.size() == 1);
  CHECK(w.sent[0].queue == 3);
  CHECK(w.sent[0].bytes.size() == 56);
  CHECK(w.sent[0].bytes == expected_message(w, 280));
  CHECK(w.ci.last_sent_position_time() == core::Seconds{12.25});
  CHECK(w.ci.last_sent_position().objcell_id == 0xA9B4001Fu);
  CHECK(w.ci.last_sent_position().frame.origin == glm::vec3(84.5f, 148.25f, 66.0f));
  CHECK(w.ci.last_sent_contact_plane().d == -66.0f);
  CHECK(w.ci.last_sent_contact_plane().normal == glm::vec3(0, 0, 1));
}

TEST_CASE("CommandInterpreter::SendPositionEvent 0x006B4770 needs Contact and OnWalkable", "[retail]") {
  World w;
  for (const std::uint32_t ts : {0u, transient_state::Contact, transient_state::OnWalkable}) {
    w.player.set_transient_state(ts | transient_state::Active);
    w.ci.send_position_event();
  }
  CHECK(w.sent.empty());
  CHECK(w.next_stamp == 280);  // no stamp drawn for a refused event
  CHECK(w.ci.last_sent_position().objcell_id == 0u);
}

TEST_CASE("CommandInterpreter::SendPositionEvent 0x006B4770 refuses an invalid Position (Position::IsValid 0x005A9480)",
          "[retail]") {
  World w;
  SECTION("cell 0") {
    w.player.store_position(Position{0, core::Frame({1, 1, 1}, glm::quat(1, 0, 0, 0))});
    w.ci.send_position_event();
    CHECK(w.sent.empty());
  }
  SECTION("a NaN origin") {
    core::Frame f({84.0f, 148.0f, 66.0f}, glm::quat(1, 0, 0, 0));
    f.origin.z = std::numeric_limits<float>::quiet_NaN();
    w.player.store_position(Position{0xA9B4001F, f});
    w.ci.send_position_event();
    CHECK(w.sent.empty());
  }
}

TEST_CASE(
    "CommandInterpreter::SendPositionEvent 0x006B4770 after a ForcePosition blip (SmartBox::HandleReceivedPosition "
    "0x00453FD0)",
    "[retail]") {
  core::ManualClock clock{core::Seconds{5.0}};
  SimContext context{clock};
  std::vector<std::vector<std::uint8_t>> sent;
  std::uint32_t stamp = 1;
  CommandInterpreter ci{context, [&](std::vector<std::uint8_t> b, std::uint16_t) { sent.push_back(std::move(b)); },
                        [&] { return stamp++; }};
  context.set_controller(&ci);
  SmartBox box(context);

  box.handle(protocol::Message{protocol::PlayerCreate{0x50000001}});
  protocol::CreateObject create;
  create.guid = 0x50000001;
  create.physics.position = protocol::Position{0xA9B4001F, {84.0f, 148.0f, 66.0f}, {}};
  create.physics.timestamps = {0, 0, 0, 0, 3, 0, 1, 0, 1};  // teleport 3, force position 1, instance 1
  create.weenie.item_type = 0x10;
  create.weenie.object_description_flags = 0x8;
  box.handle(protocol::Message{create});
  PhysicsObj* player = context.player;
  REQUIRE(player != nullptr);
  player->set_transient_state(transient_state::Contact | transient_state::OnWalkable);
  // The creation's PlayerPositionUpdated(1) ran CommandInterpreter::PlayerTeleported
  // 0x006B32B0: one MoveToState, and no AutonomousPosition.
  REQUIRE(sent.size() == 1);
  CHECK(protocol::peek_wrapped_type(sent[0]) == 0xF61Cu);
  sent.clear();

  // A newer ForcePosition with the same Teleport stamp: blip, then an AutonomousPosition.
  protocol::UpdatePosition up;
  up.guid = 0x50000001;
  up.position.cell_id = 0xA9B4001F;
  up.position.origin = {80.0f, 140.0f, 66.0f};
  up.position.qw = 1.0f;
  up.position.instance_ts = 1;
  up.position.position_ts = 1;
  up.position.teleport_ts = 3;
  up.position.force_position_ts = 2;
  box.handle(protocol::Message{up});
  REQUIRE(sent.size() == 1);
  auto m = protocol::decode_autonomous_position(sent[0]);
  REQUIRE(m);
  // The canonical m_position: (80, 140) is re-homed from the message's cell 0x1F to 0x1E.
  CHECK(m->position.cell_id == 0xA9B4001Eu);
  CHECK(m->position.origin == protocol::Vec3{80.0f, 140.0f, 66.0f});
  CHECK(m->timestamps == protocol::EchoedTimestamps{1, 0, 3, 2});
  CHECK(m->contact == 1);
}
