// F7B0 0x0013 PlayerDescription through the skills: CBaseQualities::UnPack
// 0x00595F10 (the property tables in retail's order), CACQualities::UnPack
// 0x00593420 (vector flags, attributes, skills), AttributeCache::UnPack
// 0x005CCFB0, Skill::UnPack 0x005CAAC0 and PackableHashTable::UnPack's refusals.

#include "dereth/protocol/player_description.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>

#include "dereth/core/byte_writer.hpp"
#include "dereth/protocol/login.hpp"

#include "support/hex.hpp"

using namespace dereth;
using namespace dereth::protocol;

namespace {

std::vector<std::uint8_t> message(const PlayerDescription& d) {
  return encode_game_event(0x50000001, 3, login_opcode::PlayerDescriptionEvent, encode_player_description_qualities(d));
}

PlayerDescription sample() {
  PlayerDescription d;
  d.property_flags = quality_flag::Int | quality_flag::Int64 | quality_flag::Bool | quality_flag::Float |
                     quality_flag::String | quality_flag::DataId | quality_flag::InstanceId | quality_flag::Position;
  d.weenie_type = 1;
  d.ints = {{5, 1200}, {0x16D, 2}};
  d.int64s = {{1, 123456789012LL}};
  d.bools = {{1, 1}};
  d.floats = {{2, 0.5}};
  d.strings = {{1, "Lyra"}};
  d.data_ids = {{1, 0x02000001}};
  d.instance_ids = {{2, 0x80000002}};
  d.positions = {{14, Position{0xA9B4001F, {84, 148, 66}, {}}}};
  d.vector_flags = quality_vector_flag::Attribute | quality_vector_flag::Skill;
  d.attributes[0] = AttributeWire{10, 100, 5000};         // Strength
  d.attributes[2] = AttributeWire{0, 90, 0};              // Quickness
  d.vitals[1] = SecondaryAttributeWire{3, 50, 100, 140};  // Stamina
  d.skills = {{0x18, SkillWire{12, 1, 2, 4000, 10, 0, 30.0}}, {0x16, SkillWire{0, 1, 1, 0, 0, 0, 0.0}}};
  return d;
}

// The option words, two shortcuts and eight favourites lists of the
// spell-lists test, as bytes written by hand.
std::vector<std::uint8_t> test_tail_hex() {
  return dereth::test::from_hex(
      "41040000 02000002 | 02000000 00000000 23010080 0000 0000 03000000 00000000 E905 0100 |"
      "02000000 E9050000 01040000 | 00000000 | 01000000 02040000 | 00000000 | 00000000 | 00000000 | 00000000 |"
      "01000000 01000000");
}

}  // namespace

TEST_CASE(
    "CACQualities::UnPack 0x00593420 reads a PlayerDescription through the skills (CBaseQualities::UnPack 0x00595F10, "
    "AttributeCache::UnPack 0x005CCFB0, Skill::UnPack 0x005CAAC0)",
    "[retail]") {
  const PlayerDescription d = sample();
  const auto bytes = message(d);
  auto back = decode_player_description(bytes);
  REQUIRE(back);
  CHECK(*back == d);
  // Retail's table order: int, int64, bool, float, string, data id, instance id, position.
  // The int table begins right after the 16-byte F7B0 header, the flags and the weenie type.
  CHECK(bytes[24] == 2);     // u16 count
  CHECK(bytes[26] == 32);    // u16 buckets
  CHECK(bytes[28] == 5);     // the first key
  CHECK(bytes[36] == 0x6D);  // the second key, 0x16D
  // The attribute mask: Strength 0x01, Quickness 0x04, Stamina 0x80.
  const std::vector<std::uint8_t> mask{0x85, 0x00, 0x00, 0x00};
  CHECK(std::search(bytes.begin(), bytes.end(), mask.begin(), mask.end()) != bytes.end());
}

TEST_CASE("Skill::UnPack 0x005CAAC0 keeps the level word's high half as the adjusted flag", "[retail]") {
  PlayerDescription d;
  d.vector_flags = quality_vector_flag::Skill;
  d.skills = {{0x18, SkillWire{7, 0, 2, 100, 35, 4, 1.5}}};
  const auto bytes = message(d);
  // u16 count 1, u16 buckets 32, key 0x18, then level 7 | 0 << 16.
  REQUIRE(bytes.size() == 16 + 8 + 8 + 4 + 4 + 28);
  CHECK(bytes[36] == 0x18);
  CHECK(bytes[40] == 7);
  CHECK(bytes[42] == 0);
  auto back = decode_player_description(bytes);
  REQUIRE(back);
  CHECK(back->skills[0].second.adjusted == 0);
  CHECK(back->skills[0].second.init_level == 35);
}

TEST_CASE("A PlayerDescription cut anywhere is refused with the field named, never read past") {
  const auto bytes = message(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = decode_player_description(std::span(bytes).first(n));
    REQUIRE_FALSE(r);
    CHECK_FALSE(r.error().message().empty());
  }
}

TEST_CASE("Property tables refuse entries without buckets and a repeated key") {
  PlayerDescription d;
  d.property_flags = quality_flag::Int;
  d.ints = {{5, 1}, {6, 2}};
  auto bytes = message(d);
  // The int table's header sits at offset 24 (u16 count, u16 buckets).
  SECTION("a count without buckets") {
    bytes[26] = 0;
    bytes[27] = 0;
    auto r = decode_player_description(bytes);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message(), Catch::Contains("ints"));
  }
  SECTION("a key twice") {
    bytes[36] = 5;  // the second key
    auto r = decode_player_description(bytes);
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message(), Catch::Contains("twice"));
  }
  SECTION("no buckets and no entries is an empty table") {
    PlayerDescription e;
    e.property_flags = quality_flag::Int;
    auto empty = message(e);
    auto r = decode_player_description(empty);
    REQUIRE(r);
    CHECK(r->ints.empty());
  }
}

TEST_CASE("decode_player_description refuses another event or opcode") {
  auto bytes = message(sample());
  bytes[12] = 0x14;  // the event type's low byte
  auto r = decode_player_description(bytes);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message(), Catch::Contains("event_type"));
  bytes[0] = 0xB1;
  CHECK_FALSE(decode_player_description(bytes));
}

TEST_CASE("PackableHashTable<unsigned long,Skill>::UnPack 0x00592B20 refuses a repeated skill", "[retail]") {
  PlayerDescription d;
  d.vector_flags = quality_vector_flag::Skill;
  d.skills = {{0x18, SkillWire{}}, {0x16, SkillWire{}}};
  auto bytes = message(d);
  REQUIRE(decode_player_description(bytes));
  bytes[36 + 4 + 28] = 0x18;  // the second key
  auto r = decode_player_description(bytes);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message(), Catch::Contains("skills"));
}

namespace {

EnchantmentWire enchantment(EnchantmentList list, std::uint16_t spell, std::uint16_t has_set) {
  EnchantmentWire e;
  e.list = list;
  e.spell_id = spell;
  e.layer = 1;
  e.category = 0x00AB;
  e.has_spell_set_id = has_set;
  e.power_level = 150;
  e.start_time = -12.5;
  e.duration = 1800.0;
  e.caster = 0x50000002;
  e.degrade_modifier = 0.25f;
  e.degrade_limit = -1.0f;
  e.last_time_degraded = -3.0;
  e.stat_mod_type = 0x2001;
  e.stat_mod_key = 7;
  e.stat_mod_value = 10.0f;
  e.spell_set_id = has_set != 0 ? 0x11u : 0u;
  return e;
}

// The sample through the enchantments, and the options.
PlayerDescription with_options() {
  PlayerDescription d = sample();
  d.vector_flags |= quality_vector_flag::Spell | quality_vector_flag::Enchantment;
  d.spells = {{0x3E1, 0.0f}, {0x0F, 0.5f}};
  d.enchantments = {enchantment(EnchantmentList::Multiplicative, 0x3E1, 1),
                    enchantment(EnchantmentList::Additive, 0x0F, 0), enchantment(EnchantmentList::Cooldown, 0x8001, 1),
                    enchantment(EnchantmentList::Vitae, 666, 1)};
  d.options = PlayerOptionsWire{0x48, character_options1::DisableHouseRestrictionEffects | 0x2};
  return d;
}

// The bytes after the skills of `d`'s message (the sample's skills end the
// qualities-only message).
std::size_t tail_offset() {
  return message(sample()).size();
}

void put_enchantment(dereth::core::ByteWriter& w, std::uint16_t spell, std::uint16_t has_set) {
  w.u16(spell);
  w.u16(0);
  w.u16(0x22);
  w.u16(has_set);
  w.u32(1);
  w.f64(0.0);
  w.f64(60.0);
  w.u32(0);
  w.f32(0.0f);
  w.f32(0.0f);
  w.f64(0.0);
  w.u32(0);
  w.u32(0);
  w.f32(1.0f);
  if (has_set != 0) w.u32(0x5u);
}

}  // namespace

TEST_CASE(
    "PlayerModule::UnPack 0x005D49D0's option words follow the spell book (CSpellBook::UnPack 0x00595BB0) and "
    "the enchantments (CEnchantmentRegistry::UnPack 0x00593FF0, Enchantment::UnPack 0x005CB040) (SpellBookPage::UnPack "
    "0x005CC260, CPlayerSystem::Handle_PlayerDescription 0x005636A0)",
    "[retail]") {
  const PlayerDescription d = with_options();
  const auto bytes = message(d);
  auto back = decode_player_description(bytes);
  REQUIRE(back);
  CHECK(*back == d);
  REQUIRE(back->options);
  CHECK(back->options->option_flags == 0x48);
  CHECK((back->options->options1 & 0x02000000u) != 0);
  // The spell book's header (u16 count, u16 buckets), then the first page:
  // its likelihood plus 2.
  const std::size_t at = tail_offset();
  CHECK(bytes[at] == 2);
  CHECK(bytes[at + 2] == 64);
  const float page = std::bit_cast<float>(std::uint32_t{bytes[at + 8]} | std::uint32_t{bytes[at + 9]} << 8 |
                                          std::uint32_t{bytes[at + 10]} << 16 | std::uint32_t{bytes[at + 11]} << 24);
  CHECK(page == 2.0f);
  // The registry's mask has all four lists.
  CHECK(bytes[at + 4 + 2 * 8] == 0x0F);
}

TEST_CASE(
    "CEnchantmentRegistry::UnPack 0x00593FF0 reads the cooldown list before the vitae, a signed count, and a "
    "record's spell set id only when its flag is set (Enchantment::UnPack 0x005CB040) (0x004B7CF0, "
    "SpellBookPage::UnPack 0x005CC260)",
    "[retail]") {
  PlayerDescription d = sample();
  d.vector_flags |= quality_vector_flag::Spell | quality_vector_flag::Enchantment;
  auto bytes = message(d);
  // Drop the empty tail the encoder wrote (spell book header and mask) and
  // write one by hand.
  bytes.resize(tail_offset());
  dereth::core::ByteWriter w;
  // The spell book: one legacy page (1.0, a word skipped, then 0.25).
  w.u16(1);
  w.u16(64);
  w.u32(0x3E1);
  w.f32(1.0f);
  w.u32(0xDEADBEEF);
  w.f32(0.25f);
  // Mask 0xF: multiplicative (count -1: none), additive (one record with
  // no set id: 60 bytes), cooldown (one), then the vitae (no count).
  w.u32(0x0F);
  w.u32(0xFFFFFFFFu);
  w.u32(1);
  put_enchantment(w, 0x0F, 0);
  w.u32(1);
  put_enchantment(w, 0x8001, 1);
  put_enchantment(w, 666, 1);
  w.u32(0);           // option flags
  w.u32(0x02000000);  // CharacterOptions1
  const auto tail = std::move(w).take();
  bytes.insert(bytes.end(), tail.begin(), tail.end());
  auto back = decode_player_description(bytes);
  REQUIRE(back);
  REQUIRE(back->spells.size() == 1);
  CHECK(back->spells[0].second == 0.25f);
  REQUIRE(back->enchantments.size() == 3);
  CHECK(back->enchantments[0].list == EnchantmentList::Additive);
  CHECK(back->enchantments[0].spell_id == 0x0F);
  CHECK(back->enchantments[0].spell_set_id == 0);
  CHECK(back->enchantments[1].list == EnchantmentList::Cooldown);
  CHECK(back->enchantments[1].spell_id == 0x8001);
  CHECK(back->enchantments[1].spell_set_id == 5);
  CHECK(back->enchantments[2].list == EnchantmentList::Vitae);
  CHECK(back->enchantments[2].spell_id == 666);
  REQUIRE(back->options);
  CHECK(back->options->options1 == 0x02000000u);
}

TEST_CASE(
    "A PlayerDescription's spell book, enchantments and options cut anywhere are refused, a count the message "
    "cannot hold refused before anything is kept") {
  const auto bytes = message(with_options());
  for (std::size_t n = tail_offset(); n < bytes.size(); ++n) {
    auto r = decode_player_description(std::span(bytes).first(n));
    REQUIRE_FALSE(r);
    CHECK_FALSE(r.error().message().empty());
  }
  PlayerDescription d = sample();
  d.vector_flags |= quality_vector_flag::Enchantment;
  auto huge = message(d);
  huge.resize(tail_offset());
  const std::uint8_t count[] = {0x01, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x7F};  // mask 1, 2^31 - 1 records
  huge.insert(huge.end(), std::begin(count), std::end(count));
  auto r = decode_player_description(huge);
  REQUIRE_FALSE(r);
  CHECK(r.error().message().find("enchantments") != std::string::npos);
}

TEST_CASE("A PlayerDescription without the options: the qualities alone, or blocks dereth does not read before them") {
  auto alone = decode_player_description(message(sample()));
  REQUIRE(alone);
  CHECK_FALSE(alone->options);
  // The body block (0x4) comes before the spell book: the rest is not read,
  // the qualities through the skills still are.
  PlayerDescription d = with_options();
  d.vector_flags |= 0x4;
  auto bytes = message(d);
  auto body = decode_player_description(bytes);
  REQUIRE(body);
  CHECK_FALSE(body->options);
  CHECK(body->skills == d.skills);
  CHECK(body->spells.empty());
}

TEST_CASE("PlayerModule::UnPack 0x005D49D0 reads the shortcuts and the eight favourites lists after CharacterOptions1",
          "[retail]") {
  PlayerDescription d = with_options();
  d.options->option_flags = option_data_flag::Shortcut | option_data_flag::SpellLists8 | 0x40;
  SpellListsWire lists;
  lists.shortcuts = {{0, 0x80000123, 0, 0}, {3, 0, 0x05E9, 1}};
  lists.favorite_spells = {{0x05E9, 0x0401}, {}, {0x0402}, {}, {}, {}, {}, {0x0001}};
  d.spell_lists = lists;
  const auto bytes = message(d);
  const auto back = decode_player_description(bytes);
  REQUIRE(back);
  REQUIRE(back->spell_lists);
  CHECK(*back->spell_lists == lists);
  CHECK(*back == d);
  // The options, the shortcuts and the lists, written by hand: flags 0x441,
  // options1, 2 shortcuts of 12 bytes, then eight lists.
  const auto tail = test_tail_hex();
  CHECK(std::search(bytes.begin(), bytes.end(), tail.begin(), tail.end()) != bytes.end());
  // Every cut inside the shortcuts and the lists is refused (a message that
  // ends right after CharacterOptions1 has none: a sender of the options alone).
  const std::size_t lists_at = bytes.size() - (4 + 2 * 12 + 8 * 4 + 4 * 4);
  const auto options_only = decode_player_description(std::span(bytes).first(lists_at));
  REQUIRE(options_only);
  CHECK_FALSE(options_only->spell_lists);
  for (std::size_t n = lists_at + 1; n < bytes.size(); ++n) {
    INFO("cut at " << n);
    CHECK_FALSE(decode_player_description(std::span(bytes).first(n)));
  }
}

TEST_CASE("The favourites lists a PlayerDescription carries follow its option flags: one, five or seven more") {
  for (const auto& [flag, count] :
       {std::pair{0U, 1U}, std::pair{option_data_flag::MultiSpellList, 5U},
        std::pair{option_data_flag::ExtendedMultiSpellLists, 7U}, std::pair{option_data_flag::SpellLists8, 8U},
        std::pair{option_data_flag::MultiSpellList | option_data_flag::SpellLists8, 5U}}) {
    INFO("flags 0x" << std::hex << flag);
    PlayerDescription d = with_options();
    d.options->option_flags = flag;
    d.spell_lists = SpellListsWire{{}, std::vector<std::vector<std::uint32_t>>(count, std::vector<std::uint32_t>{7})};
    const auto back = decode_player_description(message(d));
    REQUIRE(back);
    REQUIRE(back->spell_lists);
    CHECK(back->spell_lists->favorite_spells.size() == count);
  }
  // Inventory after the lists (as ACE sends it) is left unread.
  PlayerDescription d = with_options();
  d.options->option_flags = 0;
  d.spell_lists = SpellListsWire{{}, {{1, 2}}};
  auto bytes = message(d);
  const std::uint8_t inventory[] = {0, 0, 0, 0, 0, 0, 0, 0};
  bytes.insert(bytes.end(), std::begin(inventory), std::end(inventory));
  const auto back = decode_player_description(bytes);
  REQUIRE(back);
  CHECK(back->spell_lists->favorite_spells == std::vector<std::vector<std::uint32_t>>{{1, 2}});
}

TEST_CASE("A PlayerDescription's hostile shortcut or spell list count is refused before anything is kept") {
  PlayerDescription d = with_options();
  d.options->option_flags = option_data_flag::Shortcut;
  d.spell_lists = SpellListsWire{{{1, 2, 3, 4}}, {{}}};
  auto bytes = message(d);
  // The shortcut count sits 4 + 12 + 4 bytes from the end.
  const std::size_t shortcut_count = bytes.size() - (4 + 12 + 4);
  auto hostile = bytes;
  hostile[shortcut_count + 3] = 0x40;
  auto r = decode_player_description(hostile);
  REQUIRE_FALSE(r);
  CHECK(r.error().message().find("shortcuts") != std::string::npos);
  hostile = bytes;
  hostile[bytes.size() - 4 + 2] = 0x01;  // list 0: 65536 ids in no bytes
  r = decode_player_description(hostile);
  REQUIRE_FALSE(r);
  CHECK(r.error().message().find("spell_lists") != std::string::npos);
}
