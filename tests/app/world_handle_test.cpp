// World::handle over the one inbound table: each message counted as it was
// before the table (messages, not_object, handled, decode_errors), each
// decoded one to its handler.
#include <catch2/catch.hpp>

#include "dereth/app/world.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/player/client_combat_system.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;

namespace {
constexpr std::uint32_t kPlayer = 0x50000001;
}  // namespace

TEST_CASE("World::handle: a body too short for an opcode is no message, not a malformed one", "[app][world]") {
  core::ManualClock clock{core::Seconds{0.0}};
  app::World world(clock, nullptr);
  const std::vector<std::uint8_t> two{0xB0, 0xF7};
  world.handle(two);
  CHECK(world.stats().messages == 1);
  CHECK(world.stats().not_object == 1);
  CHECK(world.stats().decode_errors == 0);
  CHECK(world.stats().handled == 0);
}

TEST_CASE("World::handle: game events and chat to their handlers, malformed ones counted", "[app][world]") {
  core::ManualClock clock{core::Seconds{0.0}};
  app::World world(clock, nullptr);

  // An F7B0 no row names: nothing but the counts and the first event's guid.
  const std::vector<std::uint8_t> payload{1, 2, 3, 4};
  world.handle(protocol::encode_game_event(kPlayer, 1, 0x0999, payload));
  CHECK(world.stats().not_object == 1);
  CHECK(world.stats().decode_errors == 0);
  CHECK(world.game_event_guid() == kPlayer);

  // AttackDone and CombatCommenceAttack go to the player's combat system as
  // they are handled (ClientCombatSystem::HandleCommenceAttackEvent
  // 0x0056AD20, HandleAttackDoneEvent 0x0056C500); a malformed one does not.
  sim::SimContext context(clock, 1);
  sim::CommandInterpreter interpreter(context, nullptr, nullptr);
  sim::ClientCombatSystem combat(interpreter);
  world.set_combat_system(&combat);
  world.handle(protocol::encode_commence_attack(kPlayer, 2));
  CHECK(combat.attack_in_progress);
  CHECK(combat.attack_server_response_pending);
  auto done = protocol::encode_attack_done(kPlayer, 4, protocol::AttackDone{0});
  done.resize(done.size() - 1);
  world.handle(done);  // malformed: counted, dropped
  CHECK(combat.attack_server_response_pending);
  world.handle(protocol::encode_attack_done(kPlayer, 3, protocol::AttackDone{0x36}));
  CHECK_FALSE(combat.attack_in_progress);
  CHECK_FALSE(combat.attack_server_response_pending);
  world.set_combat_system(nullptr);
  world.handle(protocol::encode_commence_attack(kPlayer, 5));  // no combat system: dropped
  CHECK_FALSE(combat.attack_in_progress);
  CHECK(world.stats().decode_errors == 1);
  CHECK(world.stats().not_object == 5);

  // A chat line to the chat panel; a cut one counted.
  const auto speech =
      protocol::encode(protocol::HearSpeech{"hello", "Bob", 0x50000002, std::nullopt, protocol::chat_type::Speech});
  world.handle(speech);
  world.handle(std::span(speech).first(speech.size() - 6));
  const auto chat = world.take_chat();
  REQUIRE(chat.size() == 1);
  CHECK(chat[0].text == "hello");
  CHECK(world.stats().decode_errors == 2);

  // An object message cut short: a decode error, not a not-object message.
  const auto before = world.stats().not_object;
  const auto sound = protocol::encode(protocol::Sound{0x80000001, 3, 1.0F});
  world.handle(std::span(sound).first(sound.size() - 1));
  CHECK(world.stats().decode_errors == 3);
  CHECK(world.stats().not_object == before);
  CHECK(world.stats().handled == 0);
  world.handle(sound);
  CHECK(world.stats().handled == 1);
  CHECK(world.stats().messages == 9);
}
