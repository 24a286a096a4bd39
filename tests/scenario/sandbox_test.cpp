// The sandbox (include/dereth/scenario/sandbox.hpp): the demo world without
// its script, and a server that answers the player as ACE does: speech,
// emotes and tells echoed, a tell to a name not online refused with
// WeenieError CharacterNotAvailable, unknown @commands answered, and
// creatures that can be attacked, evade, take damage, die and come back.
// Driven by hand-made clients on simulated time.
#include "dereth/scenario/sandbox.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <type_traits>

#include "dereth/core/byte_reader.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/scenario_server.hpp"

#include "test_client.hpp"

using namespace dereth::scenario;
using scenario_test::ClientOptions;
using scenario_test::TestClient;
namespace protocol = dereth::protocol;
namespace lo = dereth::protocol::login_opcode;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;  // the demo's "Demo Player"
constexpr std::uint32_t kDrudge = 0x80000011;  // the demo's "Drudge Skulker"
constexpr std::uint32_t kActionCancelled = 0x36;

ServerConfig sandbox_config(SandboxRules rules = {}) {
  ServerConfig c;
  c.sandbox = true;
  c.sandbox_rules = rules;
  return c;
}

// One server and any number of clients on simulated time; client i logs in
// with `options[i]` from port 50123 + i.
struct World {
  explicit World(Scenario s, ServerConfig config, std::vector<ClientOptions> options)
      : server(std::move(s), std::move(config)) {
    for (auto& o : options) clients.push_back(std::make_unique<TestClient>(std::move(o)));
  }
  ScenarioServer server;
  std::vector<std::unique_ptr<TestClient>> clients;
  std::vector<bool> started = std::vector<bool>(8, false);
  double now = 10.0;

  Endpoint endpoint(std::size_t i) const { return Endpoint{0x7F000001, static_cast<std::uint16_t>(50123 + i)}; }

  void step(double dt = 0.01) {
    now += dt;
    for (std::size_t i = 0; i < clients.size(); ++i) {
      if (!started[i]) continue;
      clients[i]->tick(now);
      for (auto& d : clients[i]->take_outgoing()) server.receive(d.bytes, endpoint(i), d.to_port, now);
    }
    server.tick(now);
    for (auto& d : server.take_outgoing()) {
      for (std::size_t i = 0; i < clients.size(); ++i) {
        if (started[i] && d.peer == endpoint(i)) clients[i]->receive(d.bytes, d.local_port, now);
      }
    }
  }
  template <class Pred>
  bool run_until(Pred&& done, double seconds) {
    const double end = now + seconds;
    while (now < end) {
      step();
      if (done()) return true;
    }
    return false;
  }
  void run_for(double seconds) {
    run_until([] { return false; }, seconds);
  }
  // Client i logs in and enters the world (its LoginComplete sent).
  void enter(std::size_t i) {
    clients[i]->start(now);
    started[i] = true;
    TestClient& c = *clients[i];
    REQUIRE(run_until([&] { return c.phase == TestClient::Phase::InWorld && c.login_completes_sent >= 1; }, 20.0));
    run_for(0.5);
  }
  // A game action from client i.
  void act(std::size_t i, const std::vector<std::uint8_t>& action) {
    clients[i]->send(action, protocol::queue::Weenie);
  }
};

ClientOptions demo_login() {
  ClientOptions o;
  o.account = "demo";
  o.password = "demo";
  return o;
}

// The messages client `c` received since index `from`.
std::vector<std::vector<std::uint8_t>> since(const TestClient& c, std::size_t from) {
  return {c.messages.begin() + static_cast<std::ptrdiff_t>(std::min(from, c.messages.size())), c.messages.end()};
}

using Messages = std::vector<std::vector<std::uint8_t>>;

// The messages `picked` chooses, each through its decoder (one that does
// not decode fails the test).
template <class Pick, class Decode>
auto decoded(const Messages& ms, Pick picked, Decode decode) {
  std::vector<typename std::invoke_result_t<Decode, const std::vector<std::uint8_t>&>::value_type> out;
  for (const auto& m : ms) {
    if (!picked(m)) continue;
    auto d = decode(m);
    REQUIRE(d.has_value());
    out.push_back(std::move(*d));
  }
  return out;
}

auto opcode_is(std::uint32_t opcode) {
  return [opcode](const std::vector<std::uint8_t>& m) { return protocol::peek_opcode(m) == opcode; };
}

auto event_is(std::uint32_t type) {
  return [type](const std::vector<std::uint8_t>& m) {
    return protocol::peek_opcode(m) == lo::GameEvent && protocol::peek_wrapped_type(m) == type;
  };
}

std::vector<protocol::HearSpeech> speech(const Messages& ms) {
  return decoded(ms, opcode_is(protocol::chat_opcode::HearSpeech),
                 [](const auto& m) { return protocol::decode_hear_speech(m); });
}

std::vector<protocol::ServerMessage> system_lines(const Messages& ms) {
  return decoded(ms, opcode_is(lo::ServerMessage), [](const auto& m) { return protocol::decode_server_message(m); });
}

// The game events of one type, as (guid the event is addressed to, payload reader position) pairs
// decoded by `read`.
template <class T, class Read>
std::vector<T> events(const std::vector<std::vector<std::uint8_t>>& ms, std::uint32_t type, Read read) {
  std::vector<T> out;
  for (const auto& m : ms) {
    if (!event_is(type)(m)) continue;
    dereth::core::ByteReader r(m, "test");
    REQUIRE(protocol::expect_game_event(r, type).has_value());
    out.push_back(read(r));
  }
  return out;
}

std::vector<std::uint32_t> attack_dones(const Messages& ms) {
  std::vector<std::uint32_t> out;
  for (const auto& d : decoded(ms, event_is(protocol::combat_event::AttackDone),
                               [](const auto& m) { return protocol::decode_attack_done(m); })) {
    out.push_back(d.error);
  }
  return out;
}

struct Hit {
  std::string defender;
  std::uint32_t damage_type = 0;
  double fraction = 0;
  std::uint32_t damage = 0;
};
std::vector<Hit> hits(const std::vector<std::vector<std::uint8_t>>& ms) {
  return events<Hit>(ms, sandbox_event::AttackerNotification, [](dereth::core::ByteReader& r) {
    Hit h;
    h.defender = r.string16l("name").value();
    h.damage_type = r.u32("type").value();
    h.fraction = r.f64("fraction").value();
    h.damage = r.u32("damage").value();
    CHECK(r.u32("critical").value() == 0);
    CHECK(r.u64("conditions").value() == 0);
    CHECK(r.remaining() == 0);
    return h;
  });
}
std::vector<std::string> string_events(const std::vector<std::vector<std::uint8_t>>& ms, std::uint32_t type) {
  return events<std::string>(ms, type, [](dereth::core::ByteReader& r) { return r.string16l("text").value(); });
}

std::vector<protocol::MovementEvent> movements_of(const std::vector<std::vector<std::uint8_t>>& ms,
                                                  std::uint32_t guid) {
  std::vector<protocol::MovementEvent> out;
  for (const auto& m : ms) {
    if (protocol::peek_opcode(m) != protocol::opcode::Movement) continue;
    auto d = protocol::decode_movement_event(m);
    REQUIRE(d.has_value());
    if (d->guid == guid) out.push_back(*d);
  }
  return out;
}

std::size_t count_opcode(const std::vector<std::vector<std::uint8_t>>& ms, std::uint32_t opcode) {
  return static_cast<std::size_t>(
      std::ranges::count_if(ms, [&](const auto& m) { return protocol::peek_opcode(m) == opcode; }));
}

Scenario sandbox() {
  auto s = sandbox_scenario();
  if (!s) FAIL(s.error().message());
  return *s;
}

// Two characters on one account, both at the scenario's player position,
// and one Attackable creature; made a sandbox.
Scenario two_players(std::string_view second_account_pos = "") {
  std::string text =
      "account Tester password=secret\n"
      "character 0x50000001 Aerin\n"
      "character 0x50000002 Borin\n"
      "seeds server=0x12345678 client=0x99E77855 cookie=0x1122334455667788\n"
      "player pos=0xA9B4001F,84,148,66\n"
      "at 0 create guid=0x80000011 setup=0x02000001 name=\"Drudge Skulker\" type=0x10 "
      "pos=0xA9B4001F,86,150,66\n";
  text += second_account_pos;
  auto s = parse_scenario(text, "two.scenario");
  if (!s) FAIL(s.error().message());
  return sandbox_of(std::move(*s));
}

ClientOptions tester(std::size_t character) {
  ClientOptions o;
  o.character_index = character;
  return o;
}

// Attacks `target` in melee at full power and waits for the swing's AttackDone.
void swing(World& w, std::size_t i, std::uint32_t target) {
  TestClient& c = *w.clients[i];
  const std::size_t before = attack_dones(c.messages).size();
  w.act(i, protocol::encode(protocol::TargetedAttack{c.next_stamp(), protocol::combat_action::TargetedMeleeAttack,
                                                     target, 2, 1.0F}));
  REQUIRE(w.run_until([&] { return attack_dones(c.messages).size() > before; }, 3.0));
}

void enter_melee(World& w, std::size_t i) {
  w.act(i, protocol::encode_change_combat_mode(w.clients[i]->next_stamp(), 2));
  w.run_for(0.1);
}

}  // namespace

TEST_CASE("Sandbox: the world is the demo's without its recall, teleport, walk or projectile loop",
          "[scenario][sandbox]") {
  const Scenario s = sandbox();
  auto demo = demo_scenario();
  REQUIRE(demo.has_value());
  CHECK(s.name == "sandbox");
  CHECK(s.accounts == demo->accounts);
  CHECK(s.player == demo->player);
  CHECK(s.inputs.empty());
  CHECK_FALSE(s.loop_period.has_value());
  REQUIRE_FALSE(s.stream.empty());
  std::size_t creatures = 0;
  for (const auto& e : s.stream) {
    CHECK(e.time <= 0.0);
    CHECK_FALSE(std::holds_alternative<TeleportSpec>(e.message));
    CHECK_FALSE(std::holds_alternative<protocol::MovementEvent>(e.message));
    if (const auto* c = std::get_if<protocol::CreateObject>(&e.message)) {
      if ((c->weenie.item_type & 0x10U) != 0) {
        ++creatures;
        CHECK((c->weenie.object_description_flags & 0x10U) != 0);  // Attackable
      }
    }
  }
  // Every creature the demo creates at world entry is there.
  std::size_t demo_creatures = 0;
  for (const auto& e : demo->stream) {
    const auto* c = std::get_if<protocol::CreateObject>(&e.message);
    if (e.time <= 0.0 && c != nullptr && (c->weenie.item_type & 0x10U) != 0) ++demo_creatures;
  }
  CHECK(creatures == demo_creatures);
  CHECK(creatures >= 1);
}

TEST_CASE("Sandbox: no recall drags the player away: it stays where it entered for a minute", "[scenario][sandbox]") {
  World w(sandbox(), sandbox_config(), {demo_login()});
  w.enter(0);
  const std::size_t from = w.clients[0]->world_entry_index;
  w.run_for(60.0);
  const auto got = since(*w.clients[0], from);
  CHECK(count_opcode(got, protocol::opcode::PlayerTeleport) == 0);
  CHECK(movements_of(got, kPlayer).empty());
  CHECK(w.clients[0]->phase == TestClient::Phase::InWorld);
  CHECK(w.server.sessions().back().state == SessionState::InWorld);
}

TEST_CASE("Sandbox: speech comes back to the speaker as HearSpeech", "[scenario][sandbox][chat]") {
  World w(sandbox(), sandbox_config(), {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  const std::size_t from = c.messages.size();
  w.act(0, protocol::encode_talk(c.next_stamp(), "Hello, Dereth"));
  REQUIRE(w.run_until([&] { return !speech(since(c, from)).empty(); }, 2.0));
  const auto heard = speech(since(c, from));
  REQUIRE(heard.size() == 1);
  CHECK(heard[0].text == "Hello, Dereth");
  CHECK(heard[0].sender == "Demo Player");
  CHECK(heard[0].sender_id == kPlayer);
  CHECK(heard[0].chat_type == protocol::chat_type::Speech);
  CHECK_FALSE(heard[0].range.has_value());
}

TEST_CASE("Sandbox: off (the scripted servers), a Talk is only recorded", "[scenario][sandbox][chat]") {
  World w(sandbox(), ServerConfig{}, {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  const std::size_t from = c.messages.size();
  w.act(0, protocol::encode_talk(c.next_stamp(), "Hello, Dereth"));
  w.run_for(1.0);
  CHECK(speech(since(c, from)).empty());
  const auto& recorded = w.server.client_messages();
  CHECK(
      std::ranges::any_of(recorded, [](const ClientMessage& m) { return m.chat && m.chat->text == "Hello, Dereth"; }));
}

TEST_CASE("Sandbox: speech and emotes reach the other players in range, not those beyond it",
          "[scenario][sandbox][chat]") {
  World w(two_players(), sandbox_config(), {tester(0), tester(1)});
  w.enter(0);
  w.enter(1);
  TestClient& a = *w.clients[0];
  TestClient& b = *w.clients[1];
  std::size_t fa = a.messages.size();
  std::size_t fb = b.messages.size();
  w.act(0, protocol::encode_talk(a.next_stamp(), "anyone here?"));
  w.act(0, protocol::encode_emote(a.next_stamp(), "waves."));
  w.act(0, protocol::encode_emote(a.next_stamp(), "grins.", true));
  w.run_for(1.0);
  for (const TestClient* c : {&a, &b}) {
    const auto got = since(*c, c == &a ? fa : fb);
    const auto heard = speech(got);
    REQUIRE(heard.size() == 1);
    CHECK(heard[0].text == "anyone here?");
    CHECK(heard[0].sender == "Aerin");
    std::vector<protocol::HearEmote> emotes;
    for (const auto& m : got) {
      const auto op = protocol::peek_opcode(m);
      if (op != protocol::chat_opcode::HearEmote && op != protocol::chat_opcode::HearSoulEmote) continue;
      auto e = protocol::decode_hear_emote(m);
      REQUIRE(e.has_value());
      emotes.push_back(*e);
    }
    REQUIRE(emotes.size() == 2);
    CHECK(emotes[0] == protocol::HearEmote{0x50000001, "Aerin", "waves.", false});
    CHECK(emotes[1] == protocol::HearEmote{0x50000001, "Aerin", "grins.", true});
  }

  // Borin walks 150 m away (beyond ACE's 96 m): Aerin's speech no longer reaches him.
  protocol::AutonomousPosition far;
  far.sequence = b.next_stamp();
  far.position.cell_id = 0xAAB4001F;  // one landblock east
  far.position.origin = {150.0F, 148.0F, 66.0F};
  w.act(1, protocol::encode(far));
  w.run_for(0.5);
  fa = a.messages.size();
  fb = b.messages.size();
  w.act(0, protocol::encode_talk(a.next_stamp(), "hello?"));
  w.run_for(1.0);
  CHECK(speech(since(a, fa)).size() == 1);
  CHECK(speech(since(b, fb)).empty());
}

TEST_CASE("Sandbox: a tell to a name not online is answered with WeenieError CharacterNotAvailable",
          "[scenario][sandbox][chat]") {
  World w(sandbox(), sandbox_config(), {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  const std::size_t from = c.messages.size();
  w.act(0, protocol::encode_tell(c.next_stamp(), "are you there?", "Nobody Here"));
  std::vector<protocol::WeenieError> errors;
  REQUIRE(w.run_until(
      [&] {
        errors.clear();
        for (const auto& m : since(c, from)) {
          if (protocol::peek_opcode(m) == lo::GameEvent &&
              protocol::peek_wrapped_type(m) == protocol::chat_event::WeenieError) {
            auto e = protocol::decode_weenie_error(m);
            REQUIRE(e.has_value());
            errors.push_back(*e);
          }
        }
        return !errors.empty();
      },
      2.0));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].code == 0x052B);  // ACE's WeenieError.CharacterNotAvailable
  CHECK_FALSE(errors[0].text.has_value());
  // Nothing else answers it: no tell, no system line.
  CHECK(count_opcode(since(c, from), lo::ServerMessage) == 0);
}

TEST_CASE("Sandbox: a tell to a player online reaches them, and the teller sees what they said",
          "[scenario][sandbox][chat]") {
  World w(two_players(), sandbox_config(), {tester(0), tester(1)});
  w.enter(0);
  w.enter(1);
  TestClient& a = *w.clients[0];
  TestClient& b = *w.clients[1];
  const std::size_t fa = a.messages.size();
  const std::size_t fb = b.messages.size();
  // Names match without case and around spaces, as ACE's lookup does.
  w.act(0, protocol::encode_tell(a.next_stamp(), "meet at the house", " borin "));
  w.run_for(1.0);
  const auto lines = system_lines(since(a, fa));
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].text == "You tell Borin, \"meet at the house\"");
  CHECK(lines[0].chat_type == protocol::chat_type::OutgoingTell);
  const auto tells = decoded(since(b, fb), event_is(protocol::chat_event::HearDirectSpeech),
                             [](const auto& m) { return protocol::decode_hear_direct_speech(m); });
  REQUIRE(tells.size() == 1);
  CHECK(tells[0].text == "meet at the house");
  CHECK(tells[0].sender == "Aerin");
  CHECK(tells[0].sender_id == 0x50000001);
  CHECK(tells[0].target_id == 0x50000002);
  CHECK(tells[0].chat_type == protocol::chat_type::Tell);
}

TEST_CASE("Sandbox: an unknown @command is answered in a help line naming it, and is not spoken",
          "[scenario][sandbox][chat]") {
  World w(sandbox(), sandbox_config(), {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  std::size_t from = c.messages.size();
  w.act(0, protocol::encode_talk(c.next_stamp(), "@frobnicate the lever"));
  REQUIRE(w.run_until([&] { return !system_lines(since(c, from)).empty(); }, 2.0));
  auto lines = system_lines(since(c, from));
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].chat_type == protocol::chat_type::Help);
  CHECK_THAT(lines[0].text, Catch::Contains("@frobnicate"));
  CHECK_THAT(lines[0].text, Catch::Contains("@help"));
  CHECK(speech(since(c, from)).empty());

  from = c.messages.size();
  w.act(0, protocol::encode_talk(c.next_stamp(), "@HELP"));
  REQUIRE(w.run_until([&] { return !system_lines(since(c, from)).empty(); }, 2.0));
  lines = system_lines(since(c, from));
  REQUIRE(lines.size() == 1);
  CHECK_THAT(lines[0].text, Catch::Contains("sandbox"));
  CHECK_THAT(lines[0].text, !Catch::Contains("no @help"));
}

TEST_CASE("Sandbox: an attack on a creature lands or is evaded, then AttackDone ends it",
          "[scenario][sandbox][combat]") {
  World w(sandbox(), sandbox_config(), {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  enter_melee(w, 0);
  const std::size_t from = c.messages.size();
  const double sent = w.now;
  swing(w, 0, kDrudge);
  const auto got = since(c, from);
  const auto landed = hits(got);
  const auto evaded = string_events(got, sandbox_event::EvasionAttackerNotification);
  CHECK(landed.size() + evaded.size() == 1);
  for (const auto& h : landed) {
    CHECK(h.defender == "Drudge Skulker");
    CHECK(h.damage_type == 0x4);  // Bludgeon: unarmed
    CHECK(h.damage >= 1);
    CHECK(h.fraction == Approx(static_cast<double>(h.damage) / 20.0));
  }
  for (const auto& e : evaded) CHECK(e == "Drudge Skulker");
  // The swing ends with ACE's OnAttackDone (ActionCancelled), about a second after the attack.
  CHECK(attack_dones(got) == std::vector<std::uint32_t>{kActionCancelled});
  CHECK(w.now - sent == Approx(1.0).margin(0.1));
}

TEST_CASE("Sandbox: strikes add up until the creature dies, falls, goes, and comes back",
          "[scenario][sandbox][combat]") {
  SandboxRules rules;
  rules.evade_chance = 0.0;  // every strike lands
  World w(sandbox(), sandbox_config(rules), {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  enter_melee(w, 0);
  const std::size_t from = c.messages.size();
  std::uint32_t dealt = 0;
  int swings = 0;
  while (string_events(since(c, from), sandbox_event::KillerNotification).empty()) {
    REQUIRE(swings < 20);
    swing(w, 0, kDrudge);
    ++swings;
  }
  for (const auto& h : hits(since(c, from))) dealt += h.damage;
  CHECK(dealt < 20);  // the killing blow is not an AttackerNotification
  CHECK(swings >= 2);
  const auto killed = string_events(since(c, from), sandbox_event::KillerNotification);
  REQUIRE(killed.size() == 1);
  CHECK_THAT(killed[0], Catch::Contains("Drudge Skulker"));
  // It falls dead (MotionCommand Dead) where it stands.
  const auto falls = movements_of(since(c, from), kDrudge);
  REQUIRE(falls.size() == 1);
  const auto* im = std::get_if<protocol::InterpretedMovement>(&falls[0].data.payload);
  REQUIRE(im != nullptr);
  CHECK(im->state.forward_command == std::optional<std::uint16_t>(0x0011));

  // Dead, it cannot be attacked: AttackDone at once, nothing else.
  std::size_t mark = c.messages.size();
  swing(w, 0, kDrudge);
  CHECK(hits(since(c, mark)).empty());
  CHECK(attack_dones(since(c, mark)) == std::vector<std::uint32_t>{kActionCancelled});

  // Its body goes after the corpse time, and it comes back, whole, after the respawn time.
  mark = c.messages.size();
  w.run_for(rules.respawn_time);
  const auto after = since(c, mark);
  std::vector<protocol::DeleteObject> deletes;
  std::vector<protocol::CreateObject> creates;
  for (const auto& m : after) {
    if (protocol::peek_opcode(m) == protocol::opcode::DeleteObject) {
      auto d = protocol::decode_delete_object(m);
      REQUIRE(d.has_value());
      if (d->guid == kDrudge) deletes.push_back(*d);
    } else if (protocol::peek_opcode(m) == protocol::opcode::CreateObject) {
      auto d = protocol::decode_create_object(m);
      REQUIRE(d.has_value());
      if (d->guid == kDrudge) creates.push_back(*d);
    }
  }
  REQUIRE(deletes.size() == 1);
  REQUIRE(creates.size() == 1);
  CHECK(creates[0].weenie.name == "Drudge Skulker");
  CHECK((creates[0].weenie.object_description_flags & 0x10U) != 0);
  // The new CreateObject carries a newer instance stamp than the one the body was deleted under.
  CHECK(creates[0].physics.timestamps[8] == static_cast<std::uint16_t>(deletes[0].instance_ts + 1));

  // Back, it takes blows again from full health.
  mark = c.messages.size();
  swing(w, 0, kDrudge);
  const auto again = hits(since(c, mark));
  REQUIRE(again.size() == 1);
}

TEST_CASE("Sandbox: attacks ACE refuses end at once with AttackDone ActionCancelled", "[scenario][sandbox][combat]") {
  World w(two_players(), sandbox_config(), {tester(0), tester(1)});
  w.enter(0);
  w.enter(1);
  TestClient& a = *w.clients[0];

  SECTION("outside melee combat mode") {
    const std::size_t from = a.messages.size();
    swing(w, 0, kDrudge);
    CHECK(hits(since(a, from)).empty());
    CHECK(attack_dones(since(a, from)) == std::vector<std::uint32_t>{kActionCancelled});
    // The server says why in its events.
    CHECK(std::ranges::any_of(w.server.events(),
                              [](const ServerEvent& e) { return e.text.find("combat mode 1") != std::string::npos; }));
  }
  SECTION("an object that is no creature") {
    enter_melee(w, 0);
    const std::size_t from = a.messages.size();
    swing(w, 0, 0x80000999);
    CHECK(hits(since(a, from)).empty());
    CHECK(attack_dones(since(a, from)) == std::vector<std::uint32_t>{kActionCancelled});
  }
  SECTION("another player, with ACE's \"You cannot attack\" transient line") {
    enter_melee(w, 0);
    const std::size_t from = a.messages.size();
    swing(w, 0, 0x50000002);
    CHECK(hits(since(a, from)).empty());
    CHECK(attack_dones(since(a, from)) == std::vector<std::uint32_t>{kActionCancelled});
    const auto said = decoded(since(a, from), event_is(protocol::chat_event::TransientString),
                              [](const auto& m) { return protocol::decode_status_string(m); });
    REQUIRE(said.size() == 1);
    CHECK(said[0].text == "You cannot attack Borin");
    CHECK_FALSE(said[0].popup);
  }
}

TEST_CASE("Sandbox: two players fight one creature, and its death and return reach both",
          "[scenario][sandbox][combat]") {
  SandboxRules rules;
  rules.evade_chance = 0.0;
  rules.min_damage = 100;  // one blow kills
  rules.max_damage = 100;
  World w(two_players(), sandbox_config(rules), {tester(0), tester(1)});
  w.enter(0);
  w.enter(1);
  TestClient& a = *w.clients[0];
  TestClient& b = *w.clients[1];
  enter_melee(w, 0);
  const std::size_t fa = a.messages.size();
  const std::size_t fb = b.messages.size();
  swing(w, 0, kDrudge);
  CHECK(string_events(since(a, fa), sandbox_event::KillerNotification).size() == 1);
  CHECK(string_events(since(b, fb), sandbox_event::KillerNotification).empty());  // only the killer is told
  CHECK(movements_of(since(a, fa), kDrudge).size() == 1);
  CHECK(movements_of(since(b, fb), kDrudge).size() == 1);
  w.run_for(rules.respawn_time);
  for (const TestClient* c : {&a, &b}) {
    const auto got = since(*c, c == &a ? fa : fb);
    CHECK(count_opcode(got, protocol::opcode::DeleteObject) == 1);
    CHECK(count_opcode(got, protocol::opcode::CreateObject) == 1);
  }
}

TEST_CASE("Sandbox: QueryHealth is answered with UpdateHealth, the creature's health as a fraction",
          "[scenario][sandbox][combat]") {
  SandboxRules rules;
  rules.evade_chance = 0.0;
  rules.min_damage = 4;
  rules.max_damage = 4;
  World w(sandbox(), sandbox_config(rules), {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  auto query = [&](std::uint32_t guid) {
    auto action = protocol::encode_game_action(c.next_stamp(), kQueryHealthAction);
    for (int i = 0; i < 4; ++i) action.push_back(static_cast<std::uint8_t>(guid >> (8 * i)));
    const std::size_t from = c.messages.size();
    w.act(0, action);
    w.run_for(0.5);
    return events<std::pair<std::uint32_t, float>>(since(c, from), sandbox_event::UpdateHealth,
                                                   [](dereth::core::ByteReader& r) {
                                                     return std::pair{r.u32("guid").value(), r.f32("health").value()};
                                                   });
  };
  auto full = query(kDrudge);
  REQUIRE(full.size() == 1);
  CHECK(full[0] == std::pair<std::uint32_t, float>{kDrudge, 1.0F});
  enter_melee(w, 0);
  swing(w, 0, kDrudge);  // 4 x (0.5 + 1.0) = 6 of 20
  auto hurt = query(kDrudge);
  REQUIRE(hurt.size() == 1);
  CHECK(hurt[0].second == Approx(14.0F / 20.0F));
  CHECK(query(0x80000999).empty());  // no such object: no answer
}

TEST_CASE("Sandbox: the scripted demo is unchanged with the sandbox off: the recall still comes",
          "[scenario][sandbox]") {
  auto demo = demo_scenario();
  REQUIRE(demo.has_value());
  World w(std::move(*demo), ServerConfig{}, {demo_login()});
  w.enter(0);
  const std::size_t from = w.clients[0]->world_entry_index;
  w.run_for(40.0);
  CHECK(count_opcode(since(*w.clients[0], from), protocol::opcode::PlayerTeleport) >= 1);
}

TEST_CASE("Sandbox: a player entering while a creature lies dead is shown it only when it comes back",
          "[scenario][sandbox][combat]") {
  SandboxRules rules;
  rules.evade_chance = 0.0;
  rules.min_damage = 100;
  rules.max_damage = 100;
  World w(two_players(), sandbox_config(rules), {tester(0), tester(1)});
  w.enter(0);
  enter_melee(w, 0);
  swing(w, 0, kDrudge);
  REQUIRE(string_events(w.clients[0]->messages, sandbox_event::KillerNotification).size() == 1);
  w.enter(1);
  auto drudge_creates = [&] {
    std::size_t n = 0;
    for (const auto& m : w.clients[1]->messages) {
      if (protocol::peek_opcode(m) != protocol::opcode::CreateObject) continue;
      auto d = protocol::decode_create_object(m);
      REQUIRE(d.has_value());
      n += d->guid == kDrudge ? 1U : 0U;
    }
    return n;
  };
  CHECK(drudge_creates() == 0);
  w.run_for(rules.respawn_time);
  CHECK(drudge_creates() == 1);
}

namespace {

// Casts `spell` at `target` and waits for the cast's UseDone.
std::vector<std::uint32_t> use_dones(const Messages& ms) {
  std::vector<std::uint32_t> out;
  for (const auto& d : decoded(ms, event_is(protocol::player_event::UseDone),
                               [](const auto& m) { return protocol::decode_use_done(m); })) {
    out.push_back(d.error);
  }
  return out;
}

void cast(World& w, std::size_t i, std::uint32_t target, std::uint32_t spell = 27) {
  TestClient& c = *w.clients[i];
  const std::size_t before = use_dones(c.messages).size();
  w.act(i, protocol::encode(protocol::CastTargetedSpell{c.next_stamp(), target, spell}));
  REQUIRE(w.run_until([&] { return use_dones(c.messages).size() > before; }, 5.0));
}

// The kind of each message, in order, for the order ACE sends them in.
std::string kinds(const Messages& ms, std::uint32_t bolt) {
  std::string out;
  for (const auto& m : ms) {
    const std::uint32_t op = protocol::peek_opcode(m);
    if (op == protocol::opcode::Movement) {
      auto d = protocol::decode_movement_event(m);
      REQUIRE(d.has_value());
      const auto* im = std::get_if<protocol::InterpretedMovement>(&d->data.payload);
      REQUIRE(im != nullptr);
      out += d->guid == kPlayer && im->state.forward_command == std::optional<std::uint16_t>(0x002B) ? "gesture "
             : d->guid == kPlayer                                                                    ? "ready "
                                                                                                     : "motion ";
    } else if (op == protocol::quality_opcode::PrivateUpdateAttribute2ndLevel) {
      out += "mana ";
    } else if (op == protocol::opcode::CreateObject) {
      out += "create ";
    } else if (op == protocol::opcode::PlayScriptType) {
      auto d = protocol::decode_play_script_type(m);
      REQUIRE(d.has_value());
      out += d->guid == bolt && d->script_type == 4   ? "launch "
             : d->guid == bolt && d->script_type == 5 ? "explode "
                                                      : "script ";
    } else if (op == protocol::opcode::SetState) {
      out += "state ";
    } else if (op == protocol::opcode::VectorUpdate) {
      out += "stop ";
    } else if (op == lo::ServerMessage) {
      out += "text ";
    } else if (event_is(sandbox_event::UpdateHealth)(m)) {
      out += "health ";
    } else if (event_is(protocol::player_event::UseDone)(m)) {
      out += "done ";
    } else if (op == protocol::opcode::DeleteObject) {
      out += "delete ";
    }
  }
  return out;
}

}  // namespace

TEST_CASE("Sandbox: a Flame Bolt is cast as ACE plays it: gesture, mana, the bolt's flight, impact and damage",
          "[scenario][sandbox][magic]") {
  World w(sandbox(), sandbox_config(), {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  // Out of magic mode, ACE ends the cast with UseDone and nothing else.
  std::size_t mark = c.messages.size();
  cast(w, 0, kDrudge);
  CHECK(use_dones(since(c, mark)) == std::vector<std::uint32_t>{0});
  CHECK(movements_of(since(c, mark), kPlayer).empty());
  w.act(0, protocol::encode_change_combat_mode(c.next_stamp(), 8));
  w.run_for(0.1);

  mark = c.messages.size();
  cast(w, 0, kDrudge);
  w.run_for(3.0);  // the flight, the impact, the bolt's removal
  const auto got = since(c, mark);
  std::vector<protocol::CreateObject> bolts;
  for (const auto& m : got) {
    if (protocol::peek_opcode(m) != protocol::opcode::CreateObject) continue;
    auto d = protocol::decode_create_object(m);
    REQUIRE(d.has_value());
    bolts.push_back(*d);
  }
  REQUIRE(bolts.size() == 1);
  const protocol::CreateObject& bolt = bolts[0];
  CHECK(bolt.weenie.name == "Flame Bolt");
  CHECK(bolt.physics.setup_id == std::optional<std::uint32_t>(0x0200040D));
  CHECK(bolt.physics.physics_script_table_id == std::optional<std::uint32_t>(0x34000005));
  CHECK(bolt.physics.state == 0x00000B48U);
  REQUIRE(bolt.physics.velocity.has_value());
  // Toward the drudge, south of the player, at the spell's 22 m/s.
  CHECK(bolt.physics.velocity->y < -15.0F);
  CHECK(std::hypot(bolt.physics.velocity->x, bolt.physics.velocity->y, bolt.physics.velocity->z) ==
        Approx(22.0F).epsilon(0.001));
  // ACE's order: the gesture, then (after it) the mana, the bolt and its Launch, the caster's
  // Ready; UseDone a second after the launch (the bolt flies 31 m: 1.4 s); the impact (struck
  // state, Explode, stopped), the caster's line and the target's health; the bolt's removal a
  // second after the impact.
  CHECK(kinds(got, bolt.guid) == "gesture mana create launch ready done state explode stop text health delete ");
  const auto gesture = movements_of(got, kPlayer);
  REQUIRE(gesture.size() == 2);
  CHECK(gesture[0].data.current_style == 0x0049);  // the magic stance
  const auto mana = decoded(got, opcode_is(protocol::quality_opcode::PrivateUpdateAttribute2ndLevel),
                            [](const auto& m) { return protocol::decode_private_update_stat_level(m); });
  REQUIRE(mana.size() == 1);
  CHECK(mana[0].stype == 6);
  CHECK(mana[0].value == 90);  // Self 100, Flame Bolt 10
  const auto lines = system_lines(got);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].chat_type == protocol::chat_type::Magic);
  CHECK_THAT(lines[0].text,
             Catch::Matches("You (singe|scorch|burn|incinerate) Drudge Skulker for [789] points of fire damage!"));
  const auto health = events<float>(got, sandbox_event::UpdateHealth, [](dereth::core::ByteReader& r) {
    CHECK(r.u32("guid").value() == kDrudge);
    return r.f32("health").value();
  });
  REQUIRE(health.size() == 1);
  CHECK(health[0] < 1.0F);
  CHECK(health[0] >= 0.5F);
}

TEST_CASE("Sandbox: three Flame Bolts kill a creature, and too little mana is refused with UseDone",
          "[scenario][sandbox][magic]") {
  SandboxRules rules;
  rules.spells[0].mana = 30;  // three casts out of 100
  World w(sandbox(), sandbox_config(rules), {demo_login()});
  w.enter(0);
  TestClient& c = *w.clients[0];
  w.act(0, protocol::encode_change_combat_mode(c.next_stamp(), 8));
  w.run_for(0.1);
  const std::size_t from = c.messages.size();
  for (int i = 0; i < 3; ++i) {
    cast(w, 0, kDrudge);
    w.run_for(2.0);
  }
  const auto got = since(c, from);
  const auto lines = system_lines(got);
  REQUIRE(lines.size() == 3);
  CHECK(lines[2].text == "You have killed Drudge Skulker!");
  CHECK(lines[2].chat_type == protocol::chat_type::Broadcast);
  const auto falls = movements_of(got, kDrudge);
  REQUIRE(falls.size() == 1);
  const auto* im = std::get_if<protocol::InterpretedMovement>(&falls[0].data.payload);
  REQUIRE(im != nullptr);
  CHECK(im->state.forward_command == std::optional<std::uint16_t>(0x0011));
  CHECK(use_dones(got) == std::vector<std::uint32_t>{0, 0, 0});
  // 10 mana left: the fourth, at another creature, is refused (WeenieError 0x0401), and nothing is cast.
  const std::size_t mark = c.messages.size();
  cast(w, 0, 0x80000010);
  CHECK(use_dones(since(c, mark)) == std::vector<std::uint32_t>{0x0401});
  CHECK(count_opcode(since(c, mark), protocol::opcode::CreateObject) == 0);
  bool recorded = false;
  for (const auto& e : w.server.events())
    recorded |= e.text.find("killed by Demo Player's Flame Bolt") != std::string::npos;
  CHECK(recorded);
}
