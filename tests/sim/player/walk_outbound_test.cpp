// What the walking player tells the server, and what it takes back (seed
// portal-completion section 3; issue 13 section 4): a MoveToState on every
// raw-state change, AutonomousPositions by ShouldSendPositionEvent carrying
// the cell and frame the transition resolved (outdoors canonicalised, indoors
// the EnvCell id with its landblock frame), and retail's echo rule.
#include <catch2/catch.hpp>

#include <map>

#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/smart_box.hpp"

#include "cells/house_support.hpp"
#include "fakes.hpp"
#include "player/walk_support.hpp"

using namespace dereth;
using namespace dereth::sim;
using namespace dereth::sim::test;
namespace mc = motion_command;

namespace {

// A floor at z 10 under every cell, tested as a land cell tests its terrain.
class FloorCell final : public ObjCell {
 public:
  explicit FloorCell(std::uint32_t id) : ObjCell(id) {}
  TransitionState find_env_collisions(Transition& t) override {
    const Plane floor{glm::vec3(0.0f, 0.0f, 1.0f), -kGroundZ};
    return t.object_info.validate_walkable(t.sphere_path.global_sphere[0], floor, false, 0.0f, t, id());
  }
};

// An outdoor cell 0xA9B40013 and, north of y = 66 (a doorway line), an
// EnvCell 0xA9B40100: the cell holding the sphere centre is the current one.
class IndoorCells final : public CellSource {
 public:
  static constexpr std::uint32_t kOutside = 0xA9B40013;
  static constexpr std::uint32_t kRoom = 0xA9B40100;
  static constexpr float kDoorY = 66.0f;
  ObjCell* get_cell(std::uint32_t id) override {
    if (id == kOutside) return &outside_;
    if (id == kRoom) return &room_;
    return nullptr;
  }
  void find_cell_list(const Position& p, std::uint32_t /*num_sphere*/, const CollisionSphere* /*spheres*/,
                      CellArray& out, ObjCell*& curr, SpherePath* /*path*/ = nullptr) override {
    out.cells.push_back(CellArrayEntry{kOutside, &outside_});
    out.cells.push_back(CellArrayEntry{kRoom, &room_});
    curr = p.frame.origin.y >= kDoorY ? static_cast<ObjCell*>(&room_) : &outside_;
  }

 private:
  FloorCell outside_{kOutside};
  FloorCell room_{kRoom};
};

}  // namespace

TEST_CASE(
    "CommandInterpreter::SendMovementEvent 0x006B4680 goes out on every raw-state change with the player's "
    "resolved position (CommandInterpreter::HandleKeyboardCommand 0x006B3690)",
    "[retail][sim][walk]") {
  WalkWorld w;
  w.ci->handle_keyboard_command(command::WalkForward, true);
  auto states = w.move_to_states();
  REQUIRE(states.size() == 1);
  CHECK(states[0].raw.forward_command == mc::WalkForward);
  CHECK(states[0].contact_long_jump == 1);  // on the ground
  CHECK(states[0].position == to_wire(w.player->position()));
  w.run(30);
  CHECK(w.move_to_states().size() == 1);  // holding a key changes nothing
  w.ci->handle_keyboard_command(command::HoldRun, true);
  w.run(10);
  w.ci->handle_keyboard_command(command::TurnRight, true);
  const Position turning_at = w.player->position();
  w.ci->handle_keyboard_command(command::WalkForward, false);
  states = w.move_to_states();
  REQUIRE(states.size() == 4);
  CHECK(states[1].raw.current_hold_key == static_cast<std::uint32_t>(HoldKey::Run));
  CHECK(states[1].raw.forward_command == mc::WalkForward);  // the raw state keeps the key, not the run
  CHECK(states[2].raw.turn_command == mc::TurnRight);
  CHECK(states[2].position == to_wire(turning_at));
  CHECK_FALSE(states[3].raw.forward_command.has_value());  // Ready is the default, left out
  CHECK(states[3].raw.turn_command == mc::TurnRight);
  // Each one carries where the player stood when it was sent: after walking
  // and running, no longer the start.
  CHECK(states[2].position.origin.y > states[0].position.origin.y + 3.0f);
}

TEST_CASE(
    "CommandInterpreter::ShouldSendPositionEvent 0x006B45E0 sends the transition's resolved cell at once "
    "when the walk crosses a cell (CommandInterpreter::SendPositionEvent 0x006B4770, CPhysicsObj::SetPositionInternal "
    "0x00515330)",
    "[retail][sim][walk]") {
  WalkWorld w({60.0f, 70.0f, kGroundZ});
  w.ci->handle_keyboard_command(command::WalkForward, true);
  // Every AutonomousPosition is the player's position at the tick it was sent.
  std::vector<std::pair<protocol::AutonomousPosition, protocol::Position>> pairs;
  for (int i = 0; i < 90; ++i) {
    const std::size_t before = w.autonomous_positions().size();
    w.tick();
    const auto aps = w.autonomous_positions();
    if (aps.size() > before) pairs.emplace_back(aps.back(), to_wire(w.player->position()));
  }
  REQUIRE(pairs.size() >= 3);
  for (const auto& [ap, at] : pairs) {
    CHECK(ap.position == at);
    CHECK(ap.contact == 1);
  }
  CHECK(pairs[0].first.position.cell_id == 0xA9B40013);  // the first event: nothing sent yet
  // Crossing y = 72 (cell 0x13 to 0x14) is sent on the tick it happens, within
  // the 1 s interval; the origin stays block-relative.
  const auto crossed =
      std::find_if(pairs.begin(), pairs.end(), [](const auto& p) { return p.first.position.cell_id == 0xA9B40014; });
  REQUIRE(crossed != pairs.end());
  CHECK(crossed->first.position.origin.y >= 72.0f);
  CHECK(crossed->first.position.origin.y < 72.0f + 3.12f / 30.0f + 1e-4f);
}

TEST_CASE(
    "Walking over a landblock seam: the AutonomousPosition carries the canonical outdoor cell and frame "
    "(LandDefs::adjust_to_outside 0x005A9BC0, CommandInterpreter::SendPositionEvent 0x006B4770)",
    "[retail][sim][walk]") {
  WalkWorld w({60.0f, 191.5f, kGroundZ}, 0xA9B40018);
  REQUIRE(w.landscape.add_block(flat_block(0xA9B5FFFF)));
  w.ci->handle_keyboard_command(command::WalkForward, true);
  w.run(20);
  // North of y = 192 the player is in landblock A9B5, cell (2, 0).
  CHECK(w.player->position().objcell_id == 0xA9B50011);
  CHECK(w.origin().y == Approx(191.5f - 192.0f + 20.0f * 3.12f / 30.0f).margin(1e-3));
  const auto aps = w.autonomous_positions();
  REQUIRE_FALSE(aps.empty());
  CHECK(aps.back().position.cell_id == 0xA9B50011);
  CHECK(aps.back().position.origin.y < 24.0f);
}

TEST_CASE(
    "Walking through a doorway: MoveToState and AutonomousPosition carry the EnvCell id and its frame "
    "(CPhysicsObj::SetPositionInternal 0x00515330, CommandInterpreter::SendMovementEvent 0x006B4680, "
    "CommandInterpreter::SendPositionEvent 0x006B4770)",
    "[retail][sim][walk]") {
  IndoorCells cells;
  WalkWorld w({60.0f, 62.0f, kGroundZ}, IndoorCells::kOutside, &cells);
  REQUIRE(w.grounded());
  w.ci->handle_keyboard_command(command::WalkForward, true);
  w.run(60);
  const Position& p = w.player->position();
  CHECK(p.objcell_id == IndoorCells::kRoom);  // the cell the transition resolved
  CHECK(p.frame.origin.y == Approx(62.0f + 2.0f * 3.12f).margin(1e-3));
  const auto aps = w.autonomous_positions();
  REQUIRE_FALSE(aps.empty());
  const auto indoors =
      std::find_if(aps.begin(), aps.end(), [](const auto& ap) { return ap.position.cell_id == IndoorCells::kRoom; });
  REQUIRE(indoors != aps.end());
  CHECK(indoors->position.origin.y >= IndoorCells::kDoorY);  // the frame kept as resolved, not re-homed
  w.ci->handle_keyboard_command(command::WalkForward, false);
  const auto states = w.move_to_states();
  REQUIRE(states.size() == 2);
  CHECK(states[1].position == to_wire(p));
  CHECK(states[1].position.cell_id == IndoorCells::kRoom);
}

TEST_CASE(
    "Walking in by a building's door in the landscape: the transition resolves the room, and MoveToState and "
    "AutonomousPosition carry it (CObjCell::find_cell_list 0x0052B4E0, CEnvCell::find_env_collisions 0x0052C130, "
    "CPhysicsObj::SetPositionInternal 0x00515330, CommandInterpreter::SendPositionEvent 0x006B4770)",
    "[retail][sim][walk]") {
  // The house turned a quarter left: its room's local +x runs north, so the
  // doorway (x 59 to 61) is in the room's south wall at y 66.
  const core::Frame frame(glm::vec3(62.0f, 66.0f, kGroundZ), glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1)));
  WalkWorld w({60.0f, 62.0f, kGroundZ});
  std::vector<Building> buildings;
  buildings.push_back(house_building(frame));
  Landscape cells;
  REQUIRE(cells.add_block(flat_block(), std::move(buildings)));
  REQUIRE(cells.add_env_cell(room(frame)));
  w.player->leave_world();
  w.context.cells = &cells;
  REQUIRE(w.player->enter_world(Position{0xA9B40013, core::Frame({60.0f, 62.0f, kGroundZ}, glm::quat(1, 0, 0, 0))}));
  REQUIRE(w.grounded());
  const float standing_z = w.player->position().frame.origin.z;  // the foot sphere's low point on the ground
  w.ci->handle_keyboard_command(command::WalkForward, true);
  w.run(60);  // 6.24 m north: through the door at y 66, stopped by the room's north wall at y 70
  const Position& p = w.player->position();
  CHECK(p.objcell_id == kRoom);
  CHECK(p.frame.origin.x == Approx(60.0f).margin(1e-3));
  CHECK(p.frame.origin.y <= 70.0f - 0.45f + 1e-3f);            // the human's 0.45 m spheres short of the far wall
  CHECK(p.frame.origin.z == Approx(standing_z).margin(1e-3));  // on the room's floor, level with the ground
  const auto aps = w.autonomous_positions();
  const auto indoors =
      std::find_if(aps.begin(), aps.end(), [](const auto& ap) { return ap.position.cell_id == kRoom; });
  REQUIRE(indoors != aps.end());
  CHECK(indoors->position.origin.y >= 66.0f);  // the landblock frame, as resolved
  w.ci->handle_keyboard_command(command::WalkForward, false);
  const auto states = w.move_to_states();
  REQUIRE(states.size() == 2);
  CHECK(states[1].position == to_wire(p));
  CHECK(states[1].position.cell_id == kRoom);
}

TEST_CASE(
    "CMotionInterp::apply_current_movement 0x00528870: the player's own motion is rebuilt from its raw state "
    "(CMotionInterp::move_to_interpreted_state 0x005289C0)",
    "[retail][sim][walk]") {
  WalkWorld w;
  w.ci->handle_keyboard_command(command::WalkForward, true);
  MotionInterp& m = w.minterp();
  InterpretedMotionState standing;  // what an echo of an older state would say
  REQUIRE(m.move_to_interpreted_state(standing));
  CHECK(m.interpreted_state().forward_command == mc::WalkForward);  // the raw state won
  auto* parts = dynamic_cast<DatPartArray*>(w.player->part_array());
  CHECK(parts->motion_table_manager()->state().substate == mc::WalkForward);
  SECTION("a server-controlled move applies the interpreted state") {
    w.player->set_last_move_was_autonomous(false);
    REQUIRE(m.move_to_interpreted_state(standing));
    CHECK(m.interpreted_state().forward_command == mc::Ready);
    CHECK(parts->motion_table_manager()->state().substate == mc::Ready);
  }
}

namespace {

// The local player made by the SmartBox from its CreateObject (the demo
// humanoid, a player weenie) on flat terrain, with its CommandInterpreter.
struct BoxWorld {
  static constexpr std::uint32_t kPlayer = 0x50000001;
  BoxWorld() : records(&demo_portal()), factory(records) {
    REQUIRE(landscape.add_block(flat_block()));
    context.set_factory(&factory);
    context.cells = &landscape;
    context.set_controller(&ci);
    box.handle(protocol::PlayerCreate{kPlayer});
    protocol::CreateObject m = create(kPlayer, 1, protocol::physics_state::Gravity, {60.0f, 60.0f, kGroundZ});
    m.physics.position->cell_id = 0xA9B40013;
    m.weenie.item_type = 0x10;
    m.weenie.object_description_flags = 0x8;  // a player
    m.physics.setup_id = demo::kHumanSetup;
    m.physics.motion_table_id = demo::kHumanMotionTable;
    REQUIRE(box.handle(m).verdict == Verdict::Applied);
    player = box.get_object(kPlayer);
    REQUIRE(player != nullptr);
    REQUIRE(player->motion_interp() != nullptr);
    context.player_qualities = qualities.get();  // its PlayerDescription came (a jump needs it)
  }
  ~BoxWorld() { context.set_controller(nullptr); }
  void tick() {
    clock.advance(core::Seconds{1.0 / 30.0});
    box.use_time();
    ci.use_time();
  }
  std::vector<protocol::AutonomousPosition> autonomous_positions() const {
    std::vector<protocol::AutonomousPosition> out;
    for (const auto& m : sent) {
      if (action_of(m) != 0xF753) continue;
      auto d = protocol::decode_autonomous_position(m);
      REQUIRE(d);
      out.push_back(*d);
    }
    return out;
  }

  core::ManualClock clock{core::Seconds{5.0}};
  SimContext context{clock};
  dat::RecordCache records;
  DatObjectFactory factory;
  Landscape landscape;
  SmartBox box{context};
  std::vector<std::vector<std::uint8_t>> sent;
  std::uint32_t stamp = 0;
  CommandInterpreter ci{context, [this](std::vector<std::uint8_t> m, std::uint16_t) { sent.push_back(std::move(m)); },
                        [this] { return ++stamp; }};
  PhysicsObj* player = nullptr;
  std::unique_ptr<Qualities> qualities = movement_qualities(MovementStats{});
};

}  // namespace

TEST_CASE(
    "CPhysics::SetObjectMovement 0x00509690: the server's echo of the player's autonomous motion is not "
    "unpacked, its own server-controlled motion is (CMotionInterp::apply_current_movement 0x00528870)",
    "[retail][sim][walk]") {
  BoxWorld w;
  PhysicsObj* player = w.player;
  CommandInterpreter& ci = w.ci;
  constexpr std::uint32_t kPlayer = BoxWorld::kPlayer;
  ci.handle_keyboard_command(command::WalkForward, true);
  REQUIRE(player->motion_interp()->interpreted_state().forward_command == mc::WalkForward);

  protocol::MovementEvent echo;
  echo.guid = kPlayer;
  echo.instance_ts = 1;
  echo.movement_ts = 1;
  echo.is_autonomous = 1;
  echo.data.current_style = 0x003D;
  protocol::InterpretedMovement ready;  // the server's idea of the player, a step behind
  echo.data.payload = ready;
  CHECK(w.box.handle(wire(echo)).verdict == Verdict::Ignored);
  CHECK(player->motion_interp()->interpreted_state().forward_command == mc::WalkForward);
  CHECK(player->last_move_was_autonomous());
  CHECK_FALSE(ci.controlled_by_server());

  // A server-controlled Movement (not autonomous) takes the player over.
  protocol::MovementEvent server = echo;
  server.movement_ts = 2;
  server.server_control_ts = 1;
  server.is_autonomous = 0;
  CHECK(w.box.handle(wire(server)).verdict == Verdict::Applied);
  CHECK_FALSE(player->last_move_was_autonomous());
  CHECK(player->motion_interp()->interpreted_state().forward_command == mc::Ready);
  CHECK(ci.controlled_by_server());  // LoseControlToServer
}

TEST_CASE(
    "SmartBox::HandleReceivedPosition 0x00453FD0: a ForcePosition blip moves the walking player, which walks "
    "on from there and reports it (CommandInterpreter::SendPositionEvent 0x006B4770)",
    "[retail][sim][walk]") {
  BoxWorld w;
  w.ci.handle_keyboard_command(command::WalkForward, true);
  for (int i = 0; i < 15; ++i) w.tick();
  const float walked_to = w.player->position().frame.origin.y;
  REQUIRE(walked_to > 61.0f);
  const std::size_t before = w.autonomous_positions().size();
  // Newer ForcePosition, the stored Teleport: the blip.
  protocol::UpdatePosition blip = position(BoxWorld::kPlayer, 1, 1, {60.0f, 50.0f, kGroundZ - 0.05f}, 0, 1);
  blip.position.cell_id = 0xA9B40013;
  REQUIRE(w.box.handle(wire(blip)).verdict == Verdict::Applied);
  CHECK(w.player->position().frame.origin.y == 50.0f);
  // SendPositionEvent at once, from the blip position.
  const auto aps = w.autonomous_positions();
  REQUIRE(aps.size() == before + 1);
  CHECK(aps.back().position.origin.y == 50.0f);
  // The key is still down: the player walks on from the blip position.
  for (int i = 0; i < 30; ++i) w.tick();
  CHECK(w.player->position().frame.origin.y > 52.5f);
  CHECK(w.player->position().frame.origin.y < walked_to);
  CHECK(w.player->motion_interp()->interpreted_state().forward_command == mc::WalkForward);
}

TEST_CASE(
    "Without a collision cell only (N4): in a collision cell an airborne client-controlled player is not put down at "
    "the "
    "server's grounded Position",
    "[deviation][sim][walk]") {
  BoxWorld w;
  w.ci.handle_keyboard_command(command::WalkForward, true);  // the client controls the player
  w.tick();
  REQUIRE(w.ci.charge_jump() == 0);
  int stamina_cost = 0;
  REQUIRE(w.ci.jump(0.5f, stamina_cost) == 0);
  w.tick();
  REQUIRE((w.player->transient_state() & transient_state::OnWalkable) == 0);
  const glm::vec3 in_the_air = w.player->position().frame.origin;
  // The server's Position for the player: on the ground, elsewhere.
  protocol::UpdatePosition grounded = position(BoxWorld::kPlayer, 1, 1, {60.0f, 40.0f, kGroundZ - 0.05f});
  grounded.position.cell_id = 0xA9B40013;
  grounded.position.flags |= protocol::position_flag::IsGrounded;
  REQUIRE(w.box.handle(wire(grounded)).verdict == Verdict::Applied);
  // Retail: the server's Position only constrains a client-controlled player;
  // the transition lands it where it comes down.
  CHECK(w.player->position().frame.origin == in_the_air);
  CHECK((w.player->transient_state() & transient_state::OnWalkable) == 0);
  for (int i = 0; i < 90 && (w.player->transient_state() & transient_state::OnWalkable) == 0; ++i) w.tick();
  CHECK((w.player->transient_state() & transient_state::OnWalkable) != 0);
  CHECK(w.player->position().frame.origin.y > in_the_air.y);  // it came down ahead, not at y 40
}
