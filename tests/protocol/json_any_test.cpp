// write_any_json: every message dereth decodes anywhere is written as its
// fields (dereth-cap --json), through the protocol's own decoders: chat,
// movement, combat, the PlayerDescription, login; a message dereth does not
// read is "not decoded" (false), and a malformed one is the decoder's error,
// with nothing written, at every length it can be cut to.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/json.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/protocol/player_description.hpp"
#include "dereth/protocol/player_updates.hpp"

using namespace dereth;
using namespace dereth::protocol;

namespace {

// The JSON of `body`, or "" when dereth does not decode it; fails the test on an error.
std::string any_json(const std::vector<std::uint8_t>& body) {
  core::JsonWriter j;
  auto written = write_any_json(j, body);
  REQUIRE(written.has_value());
  CHECK(*written == is_json_decoded(body));
  return *written ? j.str() : std::string();
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::vector<std::uint8_t>> samples() {
  std::vector<std::vector<std::uint8_t>> all;
  all.push_back(encode(ServerMessage{"Celdon Sleeves cast Piercing Resistance on you", chat_type::Magic}));
  all.push_back(encode(HearSpeech{"hello", "Lyra", 0x50000002, std::nullopt, chat_type::Speech}));
  all.push_back(encode_talk(4, "hello there"));
  all.push_back(encode_tell(5, "psst", "Lyra"));
  all.push_back(encode(HearDirectSpeech{"psst", "Lyra", 0x50000002, 0x50000001, chat_type::Tell, 0}, 0x50000001, 9));
  all.push_back(encode(TargetedAttack{7, combat_action::TargetedMeleeAttack, 0x80000A01, 2, 0.75f}));
  all.push_back(encode_change_combat_mode(6, 2));
  all.push_back(encode_attack_done(0x50000001, 10, AttackDone{0x36}));
  all.push_back(encode_commence_attack(0x50000001, 11));
  MoveToState mts;
  mts.sequence = 8;
  mts.raw.forward_command = 0x45000005;
  mts.position = Position{0xA9B4001F, {84, 148, 66}, {}};
  all.push_back(encode(mts));
  AutonomousPosition ap;
  ap.sequence = 9;
  ap.position = Position{0xA9B4001F, {84, 148, 66}, {}};
  ap.contact = 1;
  all.push_back(encode(ap));
  PlayerDescription d;
  d.property_flags = quality_flag::Int | quality_flag::String;
  d.weenie_type = 1;
  d.ints = {{25, 12}};
  d.strings = {{1, "Lyra"}};
  d.vector_flags = quality_vector_flag::Attribute | quality_vector_flag::Skill;
  d.attributes[0] = AttributeWire{10, 100, 5000};
  d.skills = {{0x18, SkillWire{12, 1, 2, 4000, 10, 0, 30.0}}};
  all.push_back(
      encode_game_event(0x50000001, 3, login_opcode::PlayerDescriptionEvent, encode_player_description_qualities(d)));
  CharacterList list;
  list.characters = {{0x50000001, "Lyra", 0}};
  list.max_slots = 11;
  list.account = "tester";
  all.push_back(encode(list));
  all.push_back(encode_game_action(12, login_opcode::LoginCompleteAction));
  // 14..16: the casting actions a play session sends (seen undecoded in a capture against ACE).
  all.push_back(encode(CastTargetedSpell{13, 0x80000001, 27}));
  all.push_back(encode(CastUntargetedSpell{14, 27}));
  all.push_back(encode(QueryHealth{15, 0x80000001}));
  // 17: a PlayerDescription's end as ACE writes it (GameEventPlayerDescription): option
  // flags 0x460 (SpellLists8, CharacterOptions2, SpellbookFilters), CharacterOptions1,
  // no shortcuts, eight spell bars (the first holding 27 and 28), then the spellbook
  // filters, CharacterOptions2, an empty inventory and one wielded item.
  PlayerDescription tail;
  tail.property_flags = quality_flag::Int;
  tail.weenie_type = 11;
  tail.ints = {{25, 1}};
  std::vector<std::uint8_t> pd = encode_player_description_qualities(tail);
  pd.resize(pd.size() - 8);  // the encoder's vector flags and has_health (0, 0): ACE's follow
  // vector_flags Spell, has_health, an empty spellbook (u16 count 0, u16 buckets 64), the options.
  const std::vector<std::uint32_t> words = {0x100, 1,      0x00400000, 0x460, 0x50C4A54A, 2,          27,
                                            28,    0,      0,          0,     0,          0,          0,
                                            0,     0x3FFF, 0x02948700, 0,     1,          0x80000000, 0x01000000};
  for (const std::uint32_t v : words) {
    for (int b = 0; b < 4; ++b) pd.push_back(static_cast<std::uint8_t>(v >> (8 * b)));
  }
  all.push_back(encode_game_event(0x50000001, 1, login_opcode::PlayerDescriptionEvent, pd));
  // 18..21: the spell bar's actions (the spellbook's double-click, a favourite the book
  // lacks taken off) and the spell book's events.
  all.push_back(encode(AddSpellFavorite{16, 27, 1, 0}));
  all.push_back(encode(RemoveSpellFavorite{17, 99, 0}));
  all.push_back(encode(MagicUpdateSpell{27}, 0x50000001, 4));
  all.push_back(encode(MagicRemoveSpell{27}, 0x50000001, 5));
  return all;
}

}  // namespace

TEST_CASE("dereth-cap's JSON decodes chat: ServerMessage, speech, a tell, the Talk and Tell actions",
          "[protocol][json]") {
  const auto all = samples();
  const std::string server = any_json(all[0]);
  CHECK(server ==
        R"({"opcode":"0x0000F7E0","name":"ServerMessage","text":"Celdon Sleeves cast Piercing Resistance on you",)"
        R"("chat_type":"0x00000007","channel":"magic"})");
  const std::string speech = any_json(all[1]);
  CHECK(has(speech, R"("name":"HearSpeech","text":"hello","sender":"Lyra","sender_id":"0x50000002")"));
  CHECK(any_json(all[2]) ==
        R"({"opcode":"0x0000F7B1","action_type":"0x00000015","name":"Talk","sequence":4,"text":"hello there"})");
  CHECK(has(any_json(all[3]), R"("name":"Tell","sequence":5,"text":"psst","target":"Lyra")"));
  CHECK(has(any_json(all[4]),
            R"("event_type":"0x000002BD","name":"HearDirectSpeech","target":"0x50000001","sequence":9,"text":"psst")"));
}

TEST_CASE("dereth-cap's JSON decodes attacks: TargetedMeleeAttack, ChangeCombatMode, AttackDone, CombatCommenceAttack",
          "[protocol][json]") {
  const auto all = samples();
  CHECK(any_json(all[5]) ==
        R"({"opcode":"0x0000F7B1","action_type":"0x00000008","name":"TargetedMeleeAttack","sequence":7,)"
        R"("target":"0x80000A01","height":2,"power":0.75})");
  CHECK(
      any_json(all[6]) ==
      R"({"opcode":"0x0000F7B1","action_type":"0x00000053","name":"ChangeCombatMode","sequence":6,"mode":"0x00000002"})");
  CHECK(any_json(all[7]) == R"({"opcode":"0x0000F7B0","event_type":"0x000001A7","name":"AttackDone",)"
                            R"("target":"0x50000001","sequence":10,"error":"0x00000036"})");
  CHECK(has(any_json(all[8]), R"("name":"CombatCommenceAttack","target":"0x50000001","sequence":11})"));
}

TEST_CASE("dereth-cap's JSON decodes movement actions, the PlayerDescription, login and the object messages",
          "[protocol][json]") {
  const auto all = samples();
  CHECK(has(any_json(all[9]), R"("action_type":"0x0000F61C","name":"MoveToState","sequence":8)"));
  CHECK(has(any_json(all[9]), R"("forward_command":"0x45000005")"));
  CHECK(has(any_json(all[10]), R"("name":"AutonomousPosition","sequence":9,"position":{"cell_id":"0xA9B4001F")"));
  const std::string pd = any_json(all[11]);
  CHECK(has(pd, R"("event_type":"0x00000013","name":"PlayerDescription","target":"0x50000001","sequence":3)"));
  CHECK(has(pd, R"("ints":{"25":12})"));
  CHECK(has(pd, R"("strings":{"1":"Lyra"})"));
  CHECK(has(pd, R"("attributes":{"strength":{"level_from_cp":10,"init_level":100,"cp_spent":5000}})"));
  CHECK(has(pd, R"("skills":{"24":{"level_from_pp":12,)"));
  CHECK(
      has(any_json(all[12]), R"("name":"CharacterList","status":0,"characters":[{"guid":"0x50000001","name":"Lyra")"));
  CHECK(any_json(all[13]) ==
        R"({"opcode":"0x0000F7B1","action_type":"0x000000A1","name":"LoginComplete","sequence":12})");
  // The object messages keep their decode_message view.
  const auto sound = encode(Sound{0x80000A01, 0x10, 0.5f});
  CHECK(any_json(sound) == to_json(*decode_message(sound)));
}

TEST_CASE("dereth-cap's JSON decodes character creation and deletion: F656, F643, F655", "[protocol][json]") {
  CharacterCreate c;
  c.account = "tester";
  c.heritage = 1;
  c.gender = 2;
  c.appearance.hair_style = 3;
  c.appearance.headgear_style = 0xFFFFFFFF;
  c.appearance.skin_shade = 0.5;
  c.abilities = {60, 60, 50, 50, 50, 60};
  c.skills.assign(kCharacterCreateSkillCount, skill_advancement::Inactive);
  c.skills[34] = skill_advancement::Specialized;
  c.name = "Fen Rowan";
  const std::string create = any_json(encode(c));
  CHECK(has(create, R"("name":"CharacterCreate","account":"tester","heritage":1,"gender":2)"));
  CHECK(has(create, R"("hair_style":3,"headgear_style":4294967295)"));
  CHECK(has(create, R"("abilities":[60,60,50,50,50,60])"));
  CHECK(has(create, R"("specialized":[34])"));
  CHECK(has(create, R"("character_name":"Fen Rowan")"));
  CHECK(has(
      any_json(encode(CharacterCreateResponse{create_response::Ok, 0x50000002, "Fen Rowan", 0})),
      R"("name":"CharacterCreateResponse","response":1,"description":"The character was created.","guid":"0x50000002","character_name":"Fen Rowan")"));
  CHECK(has(any_json(encode(CharacterCreateResponse{create_response::NameInUse, 0, "", 0})),
            R"("response":3,"description":"Another character already has that name; choose a different one.")"));
  CHECK(has(any_json(encode(CharacterDelete{"tester", 1})), R"("name":"CharacterDelete","account":"tester","slot":1)"));
  for (const auto& body : {encode(c), encode(CharacterDelete{"tester", 1})}) {
    for (std::size_t n = 4; n < body.size(); ++n) {
      core::JsonWriter j;
      CHECK_FALSE(write_any_json(j, std::span(body).first(n)).has_value());
      CHECK(j.str().empty());
    }
  }
}

TEST_CASE("dereth-cap's JSON: a message dereth does not read is not decoded, and writes nothing", "[protocol][json]") {
  // F7B0 0x00C9 (an appraisal answer dereth does not read), F7B1 0x00C8
  // (appraise) and 0x02CF (PrivateUpdateInt64, not read).
  const std::vector<std::uint8_t> event = {0xB0, 0xF7, 0, 0, 1, 0, 0, 0x50, 2, 0, 0, 0, 0xC9, 0x00, 0, 0, 1, 2, 3, 4};
  const std::vector<std::uint8_t> action = {0xB1, 0xF7, 0, 0, 2, 0, 0, 0, 0xC8, 0, 0, 0, 1, 0, 0, 0x80};
  const std::vector<std::uint8_t> top = {0xCF, 0x02, 0, 0, 1, 2, 3, 4};
  for (const auto* body : {&event, &action, &top}) {
    core::JsonWriter j;
    auto written = write_any_json(j, *body);
    REQUIRE(written.has_value());
    CHECK_FALSE(*written);
    CHECK(j.str().empty());
    CHECK_FALSE(is_json_decoded(*body));
  }
}

TEST_CASE("dereth-cap's JSON decodes casting: CastTargetedSpell, CastUntargetedSpell, QueryHealth, the spell bars",
          "[protocol][json][magic]") {
  const auto all = samples();
  CHECK(any_json(all[14]) == R"({"opcode":"0x0000F7B1","action_type":"0x0000004A","name":"CastTargetedSpell",)"
                             R"("sequence":13,"target":"0x80000001","spell":27})");
  CHECK(any_json(all[15]) ==
        R"({"opcode":"0x0000F7B1","action_type":"0x00000048","name":"CastUntargetedSpell","sequence":14,"spell":27})");
  CHECK(
      any_json(all[16]) ==
      R"({"opcode":"0x0000F7B1","action_type":"0x000001BF","name":"QueryHealth","sequence":15,"target":"0x80000001"})");
  // ACE's PlayerDescription end: the eight spell bars are written, the first with its two spells.
  const std::string pd = any_json(all[17]);
  CHECK(has(pd, R"("options":{"option_flags":"0x00000460","options1":"0x50C4A54A"})"));
  CHECK(has(pd, R"("shortcuts":[],"favorite_spells":[[27,28],[],[],[],[],[],[],[]])"));
}

TEST_CASE("dereth-cap's JSON decodes the spell bar's actions and the spell book's events", "[protocol][json][magic]") {
  const auto all = samples();
  CHECK(any_json(all[18]) == R"({"opcode":"0x0000F7B1","action_type":"0x000001E3","name":"AddSpellFavorite",)"
                             R"("sequence":16,"spell":27,"index":1,"list":0})");
  CHECK(any_json(all[19]) == R"({"opcode":"0x0000F7B1","action_type":"0x000001E4","name":"RemoveSpellFavorite",)"
                             R"("sequence":17,"spell":99,"list":0})");
  CHECK(has(any_json(all[20]), R"("name":"MagicUpdateSpell")"));
  CHECK(has(any_json(all[20]), R"("spell":27)"));
  CHECK(has(any_json(all[21]), R"("name":"MagicRemoveSpell")"));
}

TEST_CASE("dereth-cap's JSON: every decoded message cut at every length is the decoder's error, nothing written",
          "[protocol][json][hostile]") {
  for (const auto& body : samples()) {
    for (std::size_t n = 12; n < body.size(); ++n) {
      const std::vector<std::uint8_t> cut(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(n));
      if (!is_json_decoded(cut)) continue;  // the opcode or wrapped type is cut away
      core::JsonWriter j;
      auto written = write_any_json(j, cut);
      INFO("opcode " << std::hex << peek_opcode(body) << " cut to " << std::dec << n << " of " << body.size());
      // The PlayerDescription stops early at its documented points; anything else is an error.
      if (written.has_value()) {
        CHECK(peek_wrapped_type(body) == login_opcode::PlayerDescriptionEvent);
        continue;
      }
      CHECK(j.str().empty());
    }
    // And bytes left over are refused where the decoder refuses them.
    std::vector<std::uint8_t> longer = body;
    longer.push_back(0);
    core::JsonWriter j;
    auto written = write_any_json(j, longer);
    if (!written) CHECK(j.str().empty());
  }
}

TEST_CASE("dereth-cap's JSON decodes the combat notifications with the sentence the chat window shows",
          "[protocol][json]") {
  CombatNotification hit;
  hit.event = combat_event::AttackerNotification;
  hit.name = "Drudge";
  hit.damage_type = 0x4;
  hit.health_fraction = 0.5;
  hit.damage = 7;
  hit.conditions = 0;
  const auto bytes = encode(hit, 0x50000001, 12);
  CHECK(any_json(bytes) == R"({"opcode":"0x0000F7B0","event_type":"0x000001B1","name":"AttackerNotification",)"
                           R"("target":"0x50000001","sequence":12,"who":"Drudge","damage_type":"0x00000004",)"
                           R"("health_fraction":0.5,"damage":7,"critical":false,"conditions":0,)"
                           R"("sentence":"You smash Drudge for 7 points of bludgeoning damage!"})");
  CombatNotification evaded;
  evaded.event = combat_event::EvasionDefenderNotification;
  evaded.name = "Drudge";
  CHECK(has(any_json(encode(evaded, 0x50000001, 13)),
            R"("name":"EvasionDefenderNotification","target":"0x50000001","sequence":13,"who":"Drudge",)"
            R"("sentence":"You evaded Drudge!"})"));
  for (std::size_t n = 16; n < bytes.size(); ++n) {
    core::JsonWriter j;
    CHECK_FALSE(write_any_json(j, std::span(bytes).first(n)));
    CHECK(j.str().empty());
  }
}

TEST_CASE("dereth-cap's JSON: the player's stat, health and death messages are written as their fields",
          "[protocol][json]") {
  PrivateUpdateAttribute2nd vital;
  vital.wts = 3;
  vital.stype = 2;  // health
  vital.value.current_level = 55;
  const std::string v = any_json(encode(vital));
  CHECK(has(v, R"("name":"PrivateUpdateAttribute2nd")"));
  PrivateUpdateStatLevel current;
  current.stype = 6;  // mana
  current.value = 17;
  CHECK(has(any_json(encode(current)), R"("name":"PrivateUpdateStatLevel")"));
  const std::string health = any_json(encode(QueryHealthResponse{0x80000A01, 0.5F}, 0x50000001, 4));
  CHECK(has(health, R"("name":"QueryHealthResponse")"));
  CHECK(has(health, R"(0x80000A01)"));
  CHECK(has(any_json(encode(PlayerKilled{"Drudge Skulker was killed by Fen.", 0x80000A01, 0x50000001})),
            R"("name":"PlayerKilled")"));
  // Cut short, each is its decoder's error with nothing written.
  for (const auto& body : {encode(vital), encode(current)}) {
    for (std::size_t n = 4; n < body.size(); ++n) {
      core::JsonWriter j;
      CHECK_FALSE(write_any_json(j, std::span(body).first(n)).has_value());
      CHECK(j.str().empty());
    }
  }
}
