// The window's controls (docs/controls.md): retail's default key map and its
// rebinding from the settings file, what the attack keys send through the
// ClientCombatSystem, which keys cancel a repeat attack, and target
// selection (Tab by distance, a click by bounding sphere).
#include "dereth/app/controls.hpp"

#include <catch2/catch.hpp>

#include <SDL.h>

#include "dereth/app/config.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/key_map.hpp"
#include "dereth/app/targeting.hpp"
#include "dereth/app/world.hpp"
#include "dereth/core/byte_writer.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/net/inbox.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/protocol/player_updates.hpp"
#include "dereth/render/camera.hpp"

using namespace dereth;
using namespace dereth::app;
namespace cmd = dereth::sim::command;

TEST_CASE("KeyMap::retail_default has retail's movement, combat, selection and chat keys", "[app][controls]") {
  const KeyMap m = KeyMap::retail_default();
  CHECK(m.action_for(SDLK_w) == KeyAction::Forward);
  CHECK(m.action_for(SDLK_UP) == KeyAction::Forward);
  CHECK(m.action_for(SDLK_x) == KeyAction::Backward);
  CHECK(m.action_for(SDLK_DOWN) == KeyAction::Backward);
  CHECK(m.action_for(SDLK_a) == KeyAction::TurnLeft);
  CHECK(m.action_for(SDLK_LEFT) == KeyAction::TurnLeft);
  CHECK(m.action_for(SDLK_d) == KeyAction::TurnRight);
  CHECK(m.action_for(SDLK_RIGHT) == KeyAction::TurnRight);
  CHECK(m.action_for(SDLK_z) == KeyAction::StrafeLeft);
  CHECK(m.action_for(SDLK_c) == KeyAction::StrafeRight);
  CHECK(m.action_for(SDLK_LSHIFT) == KeyAction::Walk);
  CHECK(m.action_for(SDLK_q) == KeyAction::AutoRun);
  CHECK(m.action_for(SDLK_SPACE) == KeyAction::Jump);
  CHECK(m.action_for(SDLK_BACKQUOTE) == KeyAction::CombatToggle);
  CHECK(m.action_for(SDLK_PAGEDOWN) == KeyAction::AttackHigh);
  CHECK(m.action_for(SDLK_END) == KeyAction::AttackMedium);
  CHECK(m.action_for(SDLK_DELETE) == KeyAction::AttackLow);
  CHECK(m.action_for(SDLK_RETURN) == KeyAction::Chat);
  CHECK(m.action_for(SDLK_TAB) == KeyAction::SelectNextMonster);
  CHECK(m.action_for(SDLK_QUOTE) == KeyAction::SelectClosestMonster);
  CHECK(m.action_for(SDLK_ESCAPE) == KeyAction::ClearSelection);
  CHECK(m.action_for(SDLK_BACKSLASH) == KeyAction::MagicMode);
  CHECK(m.keys_for(KeyAction::CastCurrentSpell).empty());  // End casts in magic mode
  CHECK(parse_key_action("cast_spell") == KeyAction::CastCurrentSpell);
  CHECK(key_action_info(KeyAction::CastCurrentSpell).retail_name == "CombatCastCurrentSpell");
  CHECK_FALSE(m.action_for(SDLK_s).has_value());  // retail's MovementStop: not bound in dereth
  CHECK(motion_command_for(KeyAction::Forward) == cmd::WalkForward);
  CHECK(motion_command_for(KeyAction::Backward) == cmd::WalkBackwards);
  CHECK(motion_command_for(KeyAction::StrafeRight) == cmd::SideStepRight);
  CHECK(motion_command_for(KeyAction::Walk) == cmd::HoldRun);
  CHECK_FALSE(motion_command_for(KeyAction::AttackHigh).has_value());
}

TEST_CASE("Key names and rebinding: a rebound key leaves its old action, bad names are refused", "[app][controls]") {
  CHECK(parse_key_name("w") == SDLK_w);
  CHECK(parse_key_name("PAGEDOWN") == SDLK_PAGEDOWN);
  CHECK(parse_key_name("F12") == SDLK_F12);
  CHECK_FALSE(parse_key_name("F13").has_value());
  CHECK_FALSE(parse_key_name("Wub").has_value());
  CHECK(key_name(SDLK_PAGEDOWN) == "PageDown");
  CHECK(key_name(SDLK_w) == "W");
  for (const auto& a : key_actions()) CHECK(parse_key_action(a.name) == a.action);

  auto r = parse_key_rebind("attack_medium", "Home, W");
  REQUIRE(r);
  KeyMap m = KeyMap::retail_default();
  m.rebind(*r);
  CHECK(m.action_for(SDLK_HOME) == KeyAction::AttackMedium);
  CHECK(m.action_for(SDLK_w) == KeyAction::AttackMedium);
  CHECK_FALSE(m.action_for(SDLK_END).has_value());  // the old key is gone
  CHECK(m.keys_for(KeyAction::Forward) == std::vector<std::int32_t>{SDLK_UP});

  auto bad_action = parse_key_rebind("fly", "W");
  REQUIRE_FALSE(bad_action);
  CHECK_THAT(bad_action.error().detail, Catch::Contains("unknown action \"fly\""));
  auto bad_key = parse_key_rebind("forward", "W, Wub");
  REQUIRE_FALSE(bad_key);
  CHECK_THAT(bad_key.error().detail, Catch::Contains("unknown key \"Wub\""));
  auto none = parse_key_rebind("jump", "");
  REQUIRE(none);
  CHECK(none->keys.empty());
}

TEST_CASE("The settings file rebinds keys with key.<action> and names a bad line", "[app][controls][config]") {
  Config c;
  REQUIRE(apply_config_text(c, "hud = false\nkey.attack_high = Insert\nkey.forward = W, Up\n", "dereth.conf"));
  REQUIRE(c.key_bindings.size() == 2);
  CHECK(c.key_bindings[0] == KeyRebind{KeyAction::AttackHigh, {SDLK_INSERT}});
  const auto bad = apply_config_text(c, "key.attack_sideways = End\n", "dereth.conf");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message(), Catch::Contains("dereth.conf:1"));
  CHECK_THAT(bad.error().message(), Catch::Contains("attack_sideways"));
  const auto bad_key = apply_config_text(c, "\nkey.jump = Spacebar\n", "dereth.conf");
  REQUIRE_FALSE(bad_key);
  CHECK_THAT(bad_key.error().message(), Catch::Contains("dereth.conf:2"));
  CHECK(c.key_bindings.size() == 2);  // a failed file changes nothing
  // The settings file written back keeps the rebindings, and --set takes them too.
  Config again;
  REQUIRE(apply_config_text(again, format_config(c), "written"));
  CHECK(again.key_bindings == c.key_bindings);
  const std::vector<std::string> set{"key.jump=J"};
  REQUIRE(apply_overrides(again, set));
  CHECK(again.key_bindings.back() == KeyRebind{KeyAction::Jump, {SDLK_j}});
  const std::vector<std::string> bad_set{"key.jump=Wub"};
  CHECK_FALSE(apply_overrides(again, bad_set));
}

TEST_CASE("pick_object takes the sphere the ray meets first", "[app][controls]") {
  const PickRay ray{{0.0F, 0.0F, 1.0F}, {0.0F, 1.0F, 0.0F}};
  const std::vector<PickSphere> spheres = {
      {1, {0.0F, 10.0F, 1.0F}, 1.0F},  // met at 9
      {2, {0.0F, 5.0F, 1.0F}, 0.5F},   // met at 4.5: the nearest
      {3, {3.0F, 5.0F, 1.0F}, 1.0F},   // beside the ray: missed
      {4, {0.0F, -5.0F, 1.0F}, 2.0F},  // behind: missed
  };
  CHECK(pick_object(ray, spheres) == 2u);
  CHECK(pick_object(ray, std::span(spheres).subspan(2)) == std::nullopt);
  // A ray starting inside a sphere meets it at once.
  const std::vector<PickSphere> around = {{7, {0.0F, 10.0F, 1.0F}, 1.0F}, {8, {0.0F, 0.5F, 1.0F}, 1.0F}};
  CHECK(pick_object(ray, around) == 8u);
  // Degenerate spheres never hit.
  const std::vector<PickSphere> bad = {{9, {0.0F, 5.0F, 1.0F}, 0.0F},
                                       {10, {0.0F, 5.0F, 1.0F}, std::numeric_limits<float>::quiet_NaN()}};
  CHECK(pick_object(ray, bad) == std::nullopt);
}

TEST_CASE("camera_ray goes through the pixel: the view's centre looks at the camera target", "[app][controls]") {
  render::Camera camera;
  camera.target = {100.0F, 200.0F, 10.0F};
  const PickRay ray = camera_ray(camera, 160.0F, 120.0F, 320, 240);
  const glm::vec3 to_target = glm::normalize(camera.target - camera.eye());
  CHECK(glm::dot(ray.direction, to_target) == Approx(1.0F).margin(1e-4));
  const std::vector<PickSphere> at_target = {{5, camera.target, 0.5F}};
  CHECK(pick_object(ray, at_target) == 5u);
  // A pixel at the left edge misses it.
  CHECK(pick_object(camera_ray(camera, 0.0F, 120.0F, 320, 240), at_target) == std::nullopt);
}

TEST_CASE("cycle_target steps through creatures by distance and wraps", "[app][controls]") {
  const std::vector<TargetCandidate> c = {{0x30, {30, 0, 0}}, {0x10, {10, 0, 0}}, {0x20, {0, 20, 0}}};
  const glm::vec3 from{0.0F};
  CHECK(cycle_target(c, from, 0, 1) == 0x10u);
  CHECK(cycle_target(c, from, 0x10, 1) == 0x20u);
  CHECK(cycle_target(c, from, 0x20, 1) == 0x30u);
  CHECK(cycle_target(c, from, 0x30, 1) == 0x10u);  // wraps
  CHECK(cycle_target(c, from, 0x10, -1) == 0x30u);
  CHECK(cycle_target(c, from, 0, -1) == 0x30u);
  CHECK(cycle_target(c, from, 0x999, 1) == 0x10u);  // not a candidate: the nearest
  CHECK(cycle_target(c, from, 0x30, 0) == 0x10u);   // closest
  CHECK(cycle_target({}, from, 0, 1) == std::nullopt);
}

namespace {

struct NoInbox final : net::MessageInbox {
  std::vector<net::SessionMessage> drain(double) override { return {}; }
  [[nodiscard]] bool finished() const override { return false; }
};

constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kNear = 0x80000101;
constexpr std::uint32_t kFar = 0x80000102;
constexpr std::uint32_t kRock = 0x80000103;
constexpr std::uint32_t kCell = 0xA9B40021;

protocol::CreateObject creature(std::uint32_t guid, glm::vec3 at, std::string name, bool creature_type,
                                bool player = false) {
  protocol::CreateObject m;
  m.guid = guid;
  m.physics.state = 0x00400C08;
  m.physics.position = protocol::Position{kCell, {at.x, at.y, at.z}, {1, 0, 0, 0}};
  m.weenie.name = std::move(name);
  m.weenie.item_type = creature_type ? 0x10 : 0x20;
  m.weenie.object_description_flags = player ? 0x8 : (creature_type ? 0x10 : 0);
  return m;
}

struct Session {
  core::ManualClock clock{core::Seconds{1.0}};
  World world{clock, nullptr};
  NoInbox inbox;
  FrameLoop loop{world, inbox, &clock, nullptr, nullptr, LoopOptions{}};
  std::vector<std::vector<std::uint8_t>> sent;
  std::uint32_t stamp = 100;
  Controls controls{world, loop, nullptr,
                    [this](std::vector<std::uint8_t> m, std::uint16_t) { sent.push_back(std::move(m)); },
                    [this] { return stamp++; }};

  // `options1`: a PlayerDescription with these CharacterOptions1 comes
  // first, as the server sends it at login.
  explicit Session(std::optional<std::uint32_t> options1 = std::nullopt) {
    if (options1) {
      protocol::PlayerDescription d;
      d.weenie_type = 1;
      d.vector_flags = protocol::quality_vector_flag::Attribute;
      for (auto& a : d.attributes) a = protocol::AttributeWire{0, 100, 0};
      d.options = protocol::PlayerOptionsWire{0, *options1};
      world.handle(protocol::encode_game_event(kPlayer, 1, protocol::login_opcode::PlayerDescriptionEvent,
                                               protocol::encode_player_description_qualities(d)));
    }
    world.handle(protocol::encode(creature(kPlayer, {10, 10, 0}, "Tester", true, true)));
    world.handle(protocol::encode(protocol::PlayerCreate{kPlayer}));
    world.handle(protocol::encode(creature(kFar, {10, 40, 0}, "Far Drudge", true)));
    world.handle(protocol::encode(creature(kNear, {10, 15, 0}, "Near Drudge", true)));
    world.handle(protocol::encode(creature(kRock, {11, 10, 0}, "Rock", false)));
    // The client moves the player (autonomy 2, not controlled by the server).
    controls.interpreter().take_control_from_server();
    sent.clear();
    stamp = 100;
  }
  void outbound() { loop.run_outbound(clock.now().count()); }
  std::vector<std::uint32_t> actions() const {
    std::vector<std::uint32_t> out;
    for (const auto& b : sent) out.push_back(protocol::peek_wrapped_type(b));
    return out;
  }
  void clear() { sent.clear(); }
};

}  // namespace

TEST_CASE("Tab selects the nearest creature, then the next by distance, and Escape clears", "[app][controls]") {
  Session s;
  REQUIRE(s.world.box().player() != nullptr);
  CHECK(s.controls.selected() == 0);
  CHECK(s.controls.key_action(KeyAction::SelectNextMonster, true));
  CHECK(s.controls.selected() == kNear);  // the rock is not a creature, the player not a target
  CHECK(s.controls.selected_name() == "Near Drudge");
  s.controls.key_action(KeyAction::SelectNextMonster, true);
  CHECK(s.controls.selected() == kFar);
  s.controls.key_action(KeyAction::SelectNextMonster, true);
  CHECK(s.controls.selected() == kNear);
  s.controls.key_action(KeyAction::SelectPreviousMonster, true);
  CHECK(s.controls.selected() == kFar);
  s.controls.key_action(KeyAction::SelectClosestMonster, true);
  CHECK(s.controls.selected() == kNear);
  CHECK(s.controls.key_action(KeyAction::ClearSelection, true));
  CHECK(s.controls.selected() == 0);
  CHECK_FALSE(s.controls.key_action(KeyAction::ClearSelection, true));  // nothing to clear: the window quits
}

TEST_CASE("A click picks the object under the pointer by its sphere", "[app][controls]") {
  Session s;
  // From above the rock, looking down at it: a 1 m sphere a metre up (no DAT).
  const PickRay down{{11.0F + 0xA9 * 192.0F, 10.0F + 0xB4 * 192.0F, 10.0F}, {0.0F, 0.0F, -1.0F}};
  CHECK(s.controls.pick(down) == kRock);
  CHECK(s.controls.selected() == kRock);
  const PickRay away{{11.0F + 0xA9 * 192.0F, 10.0F + 0xB4 * 192.0F, 10.0F}, {0.0F, 0.0F, 1.0F}};
  CHECK(s.controls.pick(away) == std::nullopt);
  CHECK(s.controls.selected() == kRock);  // a miss keeps the selection
}

TEST_CASE(
    "Selecting sends QueryHealth and the answer fills the meter (gmToolbarUI::RecvNotice_SelectionChanged 0x004BF380)",
    "[app][controls][retail]") {
  Session s;
  s.controls.key_action(KeyAction::SelectNextMonster, true);  // the near drudge
  REQUIRE(s.sent.size() == 1);
  CHECK(s.sent[0] == protocol::encode(protocol::QueryHealth{100, kNear}));
  CHECK_FALSE(s.world.toolbar().health());
  // The server's answer for another object is not the meter's; the selected one's is.
  s.world.handle(protocol::encode(protocol::QueryHealthResponse{kFar, 0.5F}, kPlayer, 1));
  CHECK_FALSE(s.world.toolbar().health());
  s.world.handle(protocol::encode(protocol::QueryHealthResponse{kNear, 0.75F}, kPlayer, 2));
  REQUIRE(s.world.toolbar().health());
  CHECK(*s.world.toolbar().health() == 0.75F);
  // The next selection takes the shown meter down (QueryHealth 0), then asks for the far drudge.
  s.clear();
  s.controls.key_action(KeyAction::SelectNextMonster, true);
  REQUIRE(s.sent.size() == 2);
  CHECK(s.sent[0] == protocol::encode(protocol::QueryHealth{101, 0}));
  CHECK(s.sent[1] == protocol::encode(protocol::QueryHealth{102, kFar}));
  CHECK_FALSE(s.world.toolbar().health());
  // Clearing the selection asks nothing (no meter shown); a rock has no health to ask for.
  s.clear();
  s.controls.key_action(KeyAction::ClearSelection, true);
  CHECK(s.sent.empty());
}

TEST_CASE("The attack key sends TargetedMeleeAttack through the ClientCombatSystem", "[app][controls][combat]") {
  Session s;
  s.controls.key_action(KeyAction::SelectNextMonster, true);
  s.clear();  // the selection's QueryHealth
  s.stamp = 100;
  s.controls.key_action(KeyAction::CombatToggle, true);
  REQUIRE(s.actions() == std::vector<std::uint32_t>{protocol::combat_action::ChangeCombatMode});
  CHECK(s.sent[0] == protocol::encode_change_combat_mode(100, 2));
  s.clear();
  s.controls.key_action(KeyAction::AttackHigh, true);
  CHECK(s.sent.empty());                // the bar builds while the key is held
  s.clock.advance(core::Seconds{1.0});  // a full bar
  s.controls.key_action(KeyAction::AttackHigh, false);
  REQUIRE(s.sent.size() == 1);
  // F7B1, stamp 101, TargetedMeleeAttack, the near drudge, high, full power.
  CHECK(s.sent[0] == std::vector<std::uint8_t>{0xB1, 0xF7, 0, 0,    101,  0, 0, 0, 0x08, 0,    0,    0,
                                               0x01, 0x01, 0, 0x80, 0x01, 0, 0, 0, 0x00, 0x00, 0x80, 0x3F});
  CHECK(s.controls.combat().attack_server_response_pending);
  // The server's AttackDone ends it as it is handled (ClientCombatSystem::
  // HandleAttackDoneEvent from the message's dispatch: the frame's inbound
  // step), not in the frame's outbound step.
  s.world.handle(protocol::encode_attack_done(kPlayer, 5, protocol::AttackDone{0}));
  CHECK_FALSE(s.controls.combat().attack_server_response_pending);
  s.outbound();
  SECTION("without a target nothing is sent") {
    s.clear();
    s.controls.key_action(KeyAction::ClearSelection, true);
    s.controls.key_action(KeyAction::AttackLow, true);
    s.clock.advance(core::Seconds{1.0});
    s.outbound();
    s.controls.key_action(KeyAction::AttackLow, false);
    CHECK(s.sent.empty());
  }
}

TEST_CASE("During a repeat attack forward and backward send CancelAttack, but autorun, turning and sidestepping do not",
          "[app][controls][combat]") {
  Session s;
  s.controls.key_action(KeyAction::SelectNextMonster, true);
  s.controls.key_action(KeyAction::CombatToggle, true);
  s.controls.combat().auto_repeat_attack = true;
  s.controls.key_action(KeyAction::AttackMedium, true);
  s.clock.advance(core::Seconds{1.0});
  s.controls.key_action(KeyAction::AttackMedium, false);
  REQUIRE(s.controls.combat().repeat_attacking);
  s.clear();
  const auto cancels = [&] {
    std::size_t n = 0;
    for (auto a : s.actions()) n += a == protocol::combat_action::CancelAttack;
    return n;
  };
  SECTION("turn and sidestep: none") {
    s.controls.key_action(KeyAction::TurnLeft, true);
    s.controls.key_action(KeyAction::TurnLeft, false);
    s.controls.key_action(KeyAction::StrafeRight, true);
    s.controls.key_action(KeyAction::StrafeRight, false);
    CHECK(cancels() == 0);
    CHECK(s.controls.combat().repeat_attacking);
  }
  SECTION("forward") {
    s.controls.key_action(KeyAction::Forward, true);
    CHECK(cancels() == 1);
    CHECK_FALSE(s.controls.combat().repeat_attacking);
  }
  SECTION("backward") {
    s.controls.key_action(KeyAction::Backward, true);
    CHECK(cancels() == 1);
  }
  SECTION("autorun: not by the binary (docs/deviations.md), and forward after it still does") {
    s.controls.key_action(KeyAction::AutoRun, true);
    CHECK(s.controls.interpreter().auto_run());
    CHECK(cancels() == 0);
    CHECK(s.controls.combat().repeat_attacking);
    s.controls.key_action(KeyAction::Forward, true);
    CHECK(cancels() == 1);
  }
}

TEST_CASE("CommandInterpreter::HandleKeyboardCommand 0x006B3690: the walk key sends a MoveToState while moving",
          "[retail][app][controls]") {
  Session s;
  const auto move_to_states = [&] {
    std::vector<protocol::MoveToState> out;
    for (const auto& b : s.sent) {
      if (protocol::peek_wrapped_type(b) != protocol::opcode::MoveToState) continue;
      auto m = protocol::decode_move_to_state(b);
      REQUIRE(m);
      out.push_back(*m);
    }
    return out;
  };
  SECTION("standing still: the raw hold key changes, nothing is sent (retail returns when standing still)") {
    s.controls.key_action(KeyAction::Walk, true);
    s.outbound();
    CHECK(move_to_states().empty());
  }
  SECTION("running forward: pressing and releasing walk each send the new hold key") {
    s.controls.key_action(KeyAction::Forward, true);
    s.outbound();
    auto first = move_to_states();
    REQUIRE(first.size() == 1);
    const auto running_key = first[0].raw.current_hold_key;
    s.clear();
    s.controls.key_action(KeyAction::Walk, true);
    s.outbound();
    auto walking = move_to_states();
    REQUIRE(walking.size() == 1);
    CHECK(walking[0].raw.current_hold_key != running_key);
    s.clear();
    s.controls.key_action(KeyAction::Walk, false);
    s.outbound();
    auto again = move_to_states();
    REQUIRE(again.size() == 1);
    CHECK(again[0].raw.current_hold_key == running_key);
  }
}

TEST_CASE(
    "A failed attack says why in the chat window, not only in the log (ClientCombatSystem::StartAttackRequest "
    "0x0056C040, ExecuteAttack 0x0056BB70: ClientSystem::AddTextToScroll, log text type 0x1A)",
    "[retail][app][controls][combat][chat]") {
  Session s;
  const auto said = [&] {
    std::vector<std::string> out;
    for (const auto& line : s.world.take_chat()) {
      CHECK(line.channel == "transient");
      CHECK(line.chat_type == protocol::chat_type::Transient);
      CHECK(line.sender.empty());
      out.push_back(line.text);
    }
    return out;
  };
  const std::vector<std::string> no_target{"You must select a valid combat target before attacking"};
  SECTION("an attack with nothing selected") {
    s.controls.key_action(KeyAction::CombatToggle, true);
    s.controls.key_action(KeyAction::AttackLow, true);
    s.outbound();
    CHECK(said() == no_target);
    for (auto a : s.actions()) CHECK(a != protocol::combat_action::TargetedMeleeAttack);
  }
  SECTION("combat mode with a target that cannot be attacked: retail drops the selection, the attack says why") {
    s.controls.select(kRock);
    s.controls.key_action(KeyAction::CombatToggle, true);
    CHECK(s.controls.selected() == 0);  // SetCombatMode 0x0056BE30
    s.controls.key_action(KeyAction::AttackHigh, true);
    s.outbound();
    CHECK(said() == no_target);
  }
  SECTION("a target that cannot be attacked, selected in combat mode") {
    s.controls.key_action(KeyAction::CombatToggle, true);
    s.controls.select(kRock);
    s.controls.key_action(KeyAction::AttackMedium, true);
    s.outbound();
    CHECK(said() == no_target);
  }
  SECTION("an attack on a creature says nothing") {
    s.controls.key_action(KeyAction::SelectNextMonster, true);
    s.controls.key_action(KeyAction::CombatToggle, true);
    s.controls.key_action(KeyAction::AttackHigh, true);
    s.outbound();
    CHECK(said().empty());
  }
}

TEST_CASE(
    "CharacterOptions1 ToggleRun (bit 10) makes running the default: CommandInterpreter::SetHoldRun 0x006B3370 "
    "reads ACCmdInterp::UITogglesRun 0x0058B180 (PlayerModule::ToggleRun 0x005D2DA0)",
    "[retail][app][controls]") {
  const auto hold_keys = [](Session& s) {
    std::vector<std::optional<std::uint32_t>> out;
    for (const auto& b : s.sent) {
      if (protocol::peek_wrapped_type(b) != protocol::opcode::MoveToState) continue;
      auto m = protocol::decode_move_to_state(b);
      REQUIRE(m);
      out.push_back(m->raw.current_hold_key);
    }
    s.clear();
    return out;
  };
  constexpr std::uint32_t kRun = 2;  // HoldKey::Run; None is the default and not sent
  SECTION("with the option (GDLE's and ACE's default options), W runs and the walk key walks") {
    Session s(protocol::character_options1::ToggleRun | 0x50C4A142u);
    CHECK(s.world.context().toggle_run);
    s.controls.key_action(KeyAction::Forward, true);
    CHECK(hold_keys(s) == std::vector<std::optional<std::uint32_t>>{kRun});
    s.controls.key_action(KeyAction::Walk, true);
    CHECK(hold_keys(s) == std::vector<std::optional<std::uint32_t>>{std::nullopt});
    s.controls.key_action(KeyAction::Walk, false);
    CHECK(hold_keys(s) == std::vector<std::optional<std::uint32_t>>{kRun});
  }
  SECTION("without it, W walks and the run key runs") {
    Session s(0x50C4A142u & ~protocol::character_options1::ToggleRun);
    CHECK_FALSE(s.world.context().toggle_run);
    s.controls.key_action(KeyAction::Forward, true);
    CHECK(hold_keys(s) == std::vector<std::optional<std::uint32_t>>{std::nullopt});
    s.controls.key_action(KeyAction::Walk, true);
    CHECK(hold_keys(s) == std::vector<std::optional<std::uint32_t>>{kRun});
  }
}

TEST_CASE("A movement key released without its press through the controls sends nothing", "[app][controls]") {
  Session s;
  s.controls.key_action(KeyAction::Forward, false);
  s.controls.key_action(KeyAction::TurnLeft, false);
  s.controls.key_action(KeyAction::Walk, false);
  CHECK(s.sent.empty());
  // A press and its release still send one MoveToState each.
  s.controls.key_action(KeyAction::Forward, true);
  s.controls.key_action(KeyAction::Forward, false);
  CHECK(s.actions() == std::vector<std::uint32_t>{protocol::opcode::MoveToState, protocol::opcode::MoveToState});
}

TEST_CASE("A chat command written wrongly sends nothing and says in the chat window how it is written",
          "[app][controls][chat]") {
  Session s;
  CHECK_FALSE(s.controls.say("/tell Nobody hi"));  // no comma: the name has no end
  CHECK_FALSE(s.controls.say("/e"));
  CHECK_FALSE(s.controls.say("   "));
  s.outbound();
  std::vector<std::string> said;
  for (const auto& line : s.world.take_chat()) {
    CHECK(line.channel == "transient");
    said.push_back(line.text);
  }
  CHECK(said == std::vector<std::string>{"To tell someone something, type /tell NAME, what to say",
                                         "To emote, type /e and what your character does"});
  for (auto a : s.actions()) CHECK(a != protocol::chat_action::Tell);
  CHECK(s.controls.say("/tell Nobody, hi"));
}

namespace {

// The PlayerDescription's spell bar: favourites list 0 holds `spells`, the
// spell book the same (a favourite the book lacks is taken off).
void give_spell_bar(Session& s, const std::vector<std::uint32_t>& spells) {
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  d.vector_flags = protocol::quality_vector_flag::Attribute | protocol::quality_vector_flag::Spell;
  for (const std::uint32_t id : spells) d.spells.emplace_back(id, 0.0F);
  for (auto& a : d.attributes) a = protocol::AttributeWire{0, 100, 0};
  d.options = protocol::PlayerOptionsWire{0, 0};
  core::ByteWriter w;
  w.bytes(protocol::encode_player_description_qualities(d));
  w.u32(static_cast<std::uint32_t>(spells.size()));
  for (const std::uint32_t id : spells) w.u32(id);
  w.u32(0);  // inventory
  w.u32(0);  // equipped
  s.world.handle(
      protocol::encode_game_event(kPlayer, 2, protocol::login_opcode::PlayerDescriptionEvent, std::move(w).take()));
}

}  // namespace

TEST_CASE(
    "ClientMagicSystem::CastSpell 0x00568040: in magic mode End casts the spell bar's first spell at the selection, "
    "or untargeted with none",
    "[app][controls][magic][retail]") {
  Session s;
  give_spell_bar(s, {27, 28});
  CHECK(s.controls.current_spell() == 27);
  s.controls.key_action(KeyAction::SelectNextMonster, true);  // the near drudge
  s.clear();
  s.stamp = 100;
  // Out of magic mode the cast key sends nothing (retail binds it in the MagicCombat map only).
  CHECK_FALSE(s.controls.cast_current_spell());
  s.controls.key_action(KeyAction::CastCurrentSpell, true);
  CHECK(s.sent.empty());
  // The magic mode key: ChangeCombatMode 8.
  s.controls.key_action(KeyAction::MagicMode, true);
  REQUIRE(s.sent.size() == 1);
  CHECK(s.sent[0] == protocol::encode_change_combat_mode(100, 8));
  CHECK(s.controls.combat().combat_mode == sim::CombatMode::Magic);
  s.clear();
  // End (attack_medium's key) is CombatCastCurrentSpell now: CastTargetedSpell at the selection.
  s.controls.key_action(KeyAction::AttackMedium, true);
  s.controls.key_action(KeyAction::AttackMedium, false);
  REQUIRE(s.sent.size() == 1);
  CHECK(s.sent[0] == protocol::encode(protocol::CastTargetedSpell{101, kNear, 27}));
  // The high and low attack keys step the spell bar in magic mode: no melee attack goes out.
  s.clear();
  s.controls.key_action(KeyAction::AttackHigh, true);
  s.clock.advance(core::Seconds{1.0});
  s.outbound();
  s.controls.key_action(KeyAction::AttackHigh, false);
  for (const std::uint32_t a : s.actions()) CHECK(a != protocol::combat_action::TargetedMeleeAttack);
  // With nothing selected the spell goes untargeted.
  s.controls.key_action(KeyAction::ClearSelection, true);
  s.clear();
  s.stamp = 110;
  s.controls.key_action(KeyAction::CastCurrentSpell, true);
  REQUIRE(s.sent.size() == 1);
  CHECK(s.sent[0] == protocol::encode(protocol::CastUntargetedSpell{110, 27}));
  CHECK(s.controls.casts_sent() == 2);
  // The key again: back to peace.
  s.clear();
  s.controls.key_action(KeyAction::MagicMode, true);
  REQUIRE(s.sent.size() == 1);
  CHECK(s.sent[0] == protocol::encode_change_combat_mode(111, 1));
}

TEST_CASE(
    "ACCWeenieObject::Remove 0x0058DD20: the selected object the server deletes is deselected, and the next cast "
    "does not go at it",
    "[app][controls][magic][retail]") {
  Session s;
  give_spell_bar(s, {27});
  s.controls.key_action(KeyAction::MagicMode, true);
  s.controls.key_action(KeyAction::SelectNextMonster, true);
  REQUIRE(s.controls.selected() == kNear);
  // Another object going leaves the selection alone.
  s.world.handle(protocol::encode(protocol::DeleteObject{kFar, 0}));
  s.outbound();
  CHECK(s.controls.selected() == kNear);
  // The drudge dies and the server deletes it.
  s.world.handle(protocol::encode(protocol::DeleteObject{kNear, 0}));
  REQUIRE(s.world.box().get_object(kNear) == nullptr);
  s.outbound();
  CHECK(s.controls.selected() == 0);
  CHECK(s.controls.selected_name().empty());
  s.clear();
  s.stamp = 120;
  s.controls.key_action(KeyAction::CastCurrentSpell, true);
  REQUIRE(s.sent.size() == 1);
  CHECK(s.sent[0] == protocol::encode(protocol::CastUntargetedSpell{120, 27}));
}

TEST_CASE("No spell on the spell bar: the cast key sends nothing", "[app][controls][magic]") {
  Session s;
  CHECK(s.controls.current_spell() == 0);
  s.controls.key_action(KeyAction::MagicMode, true);
  s.controls.key_action(KeyAction::SelectNextMonster, true);
  s.clear();
  s.controls.key_action(KeyAction::AttackMedium, true);
  CHECK(s.sent.empty());
}
