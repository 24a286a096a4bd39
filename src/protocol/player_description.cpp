#include "dereth/protocol/player_description.hpp"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "dereth/protocol/login.hpp"

#include "quality_codec.hpp"

namespace dereth::protocol {

namespace {

constexpr std::uint32_t kTableLimit = 0x10000;

// PackableHashTable<K, V>::UnPack (e.g. 0x00592B20 for Skill): u16 count,
// u16 bucket count; buckets 0 holds nothing; a bucket count or a count above
// 0x10000, or a key seen twice, refuses the table. Each entry's bytes are
// checked by its own reader before it is kept, so nothing is allocated
// for entries the message does not hold.
template <typename V, typename ReadValue>
Result<void> read_table(ByteReader& r, std::string_view field, std::vector<std::pair<std::uint32_t, V>>& out,
                        ReadValue read_value, std::uint16_t* buckets_out = nullptr) {
  const std::size_t at = r.position();
  DERETH_TRY(const std::uint16_t count, r.u16(field));
  DERETH_TRY(const std::uint16_t buckets, r.u16(field));
  if (buckets_out != nullptr) *buckets_out = buckets;
  if (buckets == 0) {
    if (count == 0) return {};
    return std::unexpected(
        r.error_at(at, core::ErrorKind::Invalid, field, fmt::format("{} entries in a table of no buckets", count)));
  }
  if (buckets > kTableLimit || count > kTableLimit) {
    return std::unexpected(r.error_at(at, core::ErrorKind::TooLarge, field, "more than 0x10000 buckets or entries"));
  }
  out.clear();
  for (std::uint16_t i = 0; i < count; ++i) {
    const std::size_t key_at = r.position();
    DERETH_TRY(const std::uint32_t key, r.u32(field));
    DERETH_TRY(V value, read_value(r));
    if (std::any_of(out.begin(), out.end(), [&](const auto& e) { return e.first == key; })) {
      return std::unexpected(
          r.error_at(key_at, core::ErrorKind::Invalid, field, fmt::format("key 0x{:X} appears twice", key)));
    }
    out.emplace_back(key, std::move(value));
  }
  return {};
}

template <typename V, typename WriteValue>
void write_table(ByteWriter& w, const std::vector<std::pair<std::uint32_t, V>>& table, std::uint16_t buckets,
                 WriteValue write_value) {
  w.u16(static_cast<std::uint16_t>(table.size()));
  w.u16(buckets);
  for (const auto& [key, value] : table) {
    w.u32(key);
    write_value(w, value);
  }
}

bool same_double(double a, double b) noexcept {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
bool same_float(float a, float b) noexcept {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}

// SpellBookPage::UnPack 0x005CC260: f32 v; from 2 up the likelihood is
// v - 2, below it the legacy page (a u32 skipped, the likelihood after).
Result<float> read_spell_book_page(ByteReader& r) {
  DERETH_TRY(const float v, r.f32("spells.page"));
  if (v >= 2.0f) return v - 2.0f;
  DERETH_CHECK(r.skip(4, "spells.page.legacy"));
  return r.f32("spells.page.casting_likelihood");
}

constexpr std::uint32_t kMultiplicative = 0x1;
constexpr std::uint32_t kAdditive = 0x2;
constexpr std::uint32_t kVitae = 0x4;
constexpr std::uint32_t kCooldown = 0x8;

// CEnchantmentRegistry::UnPack 0x00593FF0: the mask, then the
// multiplicative, additive and cooldown lists (PackableList::UnPack
// 0x004B7CF0: a signed count, none at or below 0), then the vitae.
Result<void> read_enchantment_registry(ByteReader& r, std::vector<EnchantmentWire>& out) {
  DERETH_TRY(const std::uint32_t mask, r.u32("enchantments.mask"));
  const std::pair<std::uint32_t, EnchantmentList> lists[] = {{kMultiplicative, EnchantmentList::Multiplicative},
                                                             {kAdditive, EnchantmentList::Additive},
                                                             {kCooldown, EnchantmentList::Cooldown}};
  for (const auto& [bit, list] : lists) {
    if ((mask & bit) == 0) continue;
    DERETH_TRY(const std::int32_t count, r.i32("enchantments.count"));
    // Each record is at least 60 bytes: a count the message cannot hold
    // is refused before anything is kept.
    DERETH_CHECK(r.checked_count(static_cast<std::uint64_t>(std::max(count, 0)), 60, "enchantments.count"));
    for (std::int32_t i = 0; i < count; ++i) {
      DERETH_TRY(EnchantmentWire e, read_enchantment(r, list));
      out.push_back(e);
    }
  }
  if ((mask & kVitae) != 0) {
    DERETH_TRY(EnchantmentWire e, read_enchantment(r, EnchantmentList::Vitae));
    out.push_back(e);
  }
  return {};
}

// PackableList<unsigned long>::UnPack: a signed count (none at or below
// 0), then the ids; a count the message cannot hold is refused first.
Result<std::vector<std::uint32_t>> read_id_list(ByteReader& r) {
  DERETH_TRY(const std::int32_t count, r.i32("spell_lists.count"));
  DERETH_CHECK(r.checked_count(static_cast<std::uint64_t>(std::max(count, 0)), 4, "spell_lists.count"));
  std::vector<std::uint32_t> ids;
  ids.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (std::int32_t i = 0; i < count; ++i) ids.push_back(*r.u32("spell_lists.spell"));
  return ids;
}

// The number of favourites lists after list 0 (PlayerModule::UnPack 0x005D49D0).
std::size_t extra_spell_lists(std::uint32_t flags) {
  if ((flags & option_data_flag::MultiSpellList) != 0) return 4;
  if ((flags & option_data_flag::ExtendedMultiSpellLists) != 0) return 6;
  if ((flags & option_data_flag::SpellLists8) != 0) return 7;
  return 0;
}

Result<SpellListsWire> read_spell_lists(ByteReader& r, std::uint32_t flags) {
  SpellListsWire out;
  if ((flags & option_data_flag::Shortcut) != 0) {
    // ShortCutManager::UnPack: a count, then StatMod::UnPack's 12 bytes each.
    DERETH_TRY(const std::int32_t count, r.i32("shortcuts.count"));
    DERETH_CHECK(r.checked_count(static_cast<std::uint64_t>(std::max(count, 0)), 12, "shortcuts.count"));
    for (std::int32_t i = 0; i < count; ++i) {
      ShortcutWire s;
      s.index = *r.u32("shortcuts.index");
      s.object_id = *r.u32("shortcuts.object_id");
      s.spell_id = *r.u16("shortcuts.spell_id");
      s.layer = *r.u16("shortcuts.layer");
      out.shortcuts.push_back(s);
    }
  }
  const std::size_t lists = 1 + extra_spell_lists(flags);
  for (std::size_t i = 0; i < lists; ++i) {
    DERETH_TRY(std::vector<std::uint32_t> ids, read_id_list(r));
    out.favorite_spells.push_back(std::move(ids));
  }
  return out;
}

}  // namespace

Result<AttributeWire> read_attribute(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(12, field));
  AttributeWire a;
  a.level_from_cp = *r.u32(field);
  a.init_level = *r.u32(field);
  a.cp_spent = *r.u32(field);
  return a;
}

Result<SkillWire> read_skill(ByteReader& r) {
  DERETH_CHECK(r.require(28, "skills.skill"));
  SkillWire s;
  const std::uint32_t word = *r.u32("skills.skill.level_from_pp");
  s.level_from_pp = static_cast<std::uint16_t>(word & 0xFFFFu);
  s.adjusted = static_cast<std::uint16_t>(word >> 16);
  s.sac = *r.u32("skills.skill.sac");
  s.pp = *r.u32("skills.skill.pp");
  s.init_level = *r.u32("skills.skill.init_level");
  s.resistance_of_last_check = *r.u32("skills.skill.resistance_of_last_check");
  s.last_used = *r.f64("skills.skill.last_used");
  return s;
}

// Enchantment::UnPack 0x005CB040: 60 bytes, 64 with a spell set id.
Result<EnchantmentWire> read_enchantment(ByteReader& r, EnchantmentList list) {
  DERETH_CHECK(r.require(60, "enchantments.enchantment"));
  EnchantmentWire e;
  e.list = list;
  e.spell_id = *r.u16("enchantments.spell_id");
  e.layer = *r.u16("enchantments.layer");
  e.category = *r.u16("enchantments.category");
  e.has_spell_set_id = *r.u16("enchantments.has_spell_set_id");
  e.power_level = *r.u32("enchantments.power_level");
  e.start_time = *r.f64("enchantments.start_time");
  e.duration = *r.f64("enchantments.duration");
  e.caster = *r.u32("enchantments.caster");
  e.degrade_modifier = *r.f32("enchantments.degrade_modifier");
  e.degrade_limit = *r.f32("enchantments.degrade_limit");
  e.last_time_degraded = *r.f64("enchantments.last_time_degraded");
  e.stat_mod_type = *r.u32("enchantments.stat_mod.type");
  e.stat_mod_key = *r.u32("enchantments.stat_mod.key");
  e.stat_mod_value = *r.f32("enchantments.stat_mod.value");
  if (e.has_spell_set_id != 0) {
    DERETH_TRY(e.spell_set_id, r.u32("enchantments.spell_set_id"));
  }
  return e;
}

void write_enchantment(ByteWriter& w, const EnchantmentWire& e) {
  w.u16(e.spell_id);
  w.u16(e.layer);
  w.u16(e.category);
  w.u16(e.has_spell_set_id);
  w.u32(e.power_level);
  w.f64(e.start_time);
  w.f64(e.duration);
  w.u32(e.caster);
  w.f32(e.degrade_modifier);
  w.f32(e.degrade_limit);
  w.f64(e.last_time_degraded);
  w.u32(e.stat_mod_type);
  w.u32(e.stat_mod_key);
  w.f32(e.stat_mod_value);
  if (e.has_spell_set_id != 0) w.u32(e.spell_set_id);
}

void write_skill(ByteWriter& w, const SkillWire& s) {
  w.u16(s.level_from_pp);
  w.u16(s.adjusted);
  w.u32(s.sac);
  w.u32(s.pp);
  w.u32(s.init_level);
  w.u32(s.resistance_of_last_check);
  w.f64(s.last_used);
}

bool EnchantmentWire::operator==(const EnchantmentWire& o) const noexcept {
  return list == o.list && spell_id == o.spell_id && layer == o.layer && category == o.category &&
         has_spell_set_id == o.has_spell_set_id && power_level == o.power_level &&
         same_double(start_time, o.start_time) && same_double(duration, o.duration) && caster == o.caster &&
         same_float(degrade_modifier, o.degrade_modifier) && same_float(degrade_limit, o.degrade_limit) &&
         same_double(last_time_degraded, o.last_time_degraded) && stat_mod_type == o.stat_mod_type &&
         stat_mod_key == o.stat_mod_key && same_float(stat_mod_value, o.stat_mod_value) &&
         spell_set_id == o.spell_set_id;
}

bool SkillWire::operator==(const SkillWire& o) const noexcept {
  return level_from_pp == o.level_from_pp && adjusted == o.adjusted && sac == o.sac && pp == o.pp &&
         init_level == o.init_level && resistance_of_last_check == o.resistance_of_last_check &&
         same_double(last_used, o.last_used);
}

bool PlayerDescription::operator==(const PlayerDescription& o) const noexcept {
  const auto same_floats = [](const auto& a, const auto& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
             return x.first == y.first && same_double(x.second, y.second);
           });
  };
  return property_flags == o.property_flags && weenie_type == o.weenie_type && ints == o.ints && int64s == o.int64s &&
         bools == o.bools && same_floats(floats, o.floats) && strings == o.strings && data_ids == o.data_ids &&
         instance_ids == o.instance_ids && positions == o.positions && vector_flags == o.vector_flags &&
         has_health == o.has_health && attributes == o.attributes && vitals == o.vitals &&
         skill_buckets == o.skill_buckets && skills == o.skills && spell_buckets == o.spell_buckets &&
         std::equal(
             spells.begin(), spells.end(), o.spells.begin(), o.spells.end(),
             [](const auto& a, const auto& b) { return a.first == b.first && same_float(a.second, b.second); }) &&
         enchantments == o.enchantments && options == o.options && spell_lists == o.spell_lists;
}

Result<PlayerDescription> decode_player_description(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0/0013 PlayerDescription");
  DERETH_CHECK(expect_game_event(r, login_opcode::PlayerDescriptionEvent));

  PlayerDescription m;
  // CBaseQualities::UnPack 0x00595F10: flags, weenie type, the tables.
  DERETH_TRY(m.property_flags, r.u32("property_flags"));
  DERETH_TRY(m.weenie_type, r.u32("weenie_type"));
  namespace qf = quality_flag;
  const std::uint32_t f = m.property_flags;
  const auto i32 = [](ByteReader& rr) { return rr.i32("ints.value"); };
  if ((f & qf::Int) != 0) DERETH_CHECK(read_table(r, "ints", m.ints, i32));
  if ((f & qf::Int64) != 0) {
    DERETH_CHECK(read_table(r, "int64s", m.int64s, [](ByteReader& rr) -> Result<std::int64_t> {
      DERETH_TRY(const std::uint64_t v, rr.u64("int64s.value"));
      return static_cast<std::int64_t>(v);
    }));
  }
  if ((f & qf::Bool) != 0)
    DERETH_CHECK(read_table(r, "bools", m.bools, [](ByteReader& rr) { return rr.i32("bools.value"); }));
  if ((f & qf::Float) != 0)
    DERETH_CHECK(read_table(r, "floats", m.floats, [](ByteReader& rr) { return rr.f64("floats.value"); }));
  if ((f & qf::String) != 0) {
    DERETH_CHECK(read_table(r, "strings", m.strings, [](ByteReader& rr) { return rr.string16l("strings.value"); }));
  }
  if ((f & qf::DataId) != 0) {
    DERETH_CHECK(read_table(r, "data_ids", m.data_ids, [](ByteReader& rr) { return rr.u32("data_ids.value"); }));
  }
  if ((f & qf::InstanceId) != 0) {
    DERETH_CHECK(
        read_table(r, "instance_ids", m.instance_ids, [](ByteReader& rr) { return rr.u32("instance_ids.value"); }));
  }
  if ((f & qf::Position) != 0) {
    DERETH_CHECK(
        read_table(r, "positions", m.positions, [](ByteReader& rr) { return read_position(rr, "positions.value"); }));
  }

  // CACQualities::UnPack 0x00593420: vector flags, has_health, attributes, skills.
  DERETH_TRY(m.vector_flags, r.u32("vector_flags"));
  DERETH_TRY(m.has_health, r.u32("has_health"));
  if ((m.vector_flags & quality_vector_flag::Attribute) != 0) {
    DERETH_TRY(const std::uint32_t mask, r.u32("attributes.mask"));
    for (std::size_t i = 0; i < m.attributes.size(); ++i) {
      if ((mask & (1u << i)) == 0) continue;
      DERETH_TRY(m.attributes[i], read_attribute(r, "attributes.attribute"));
    }
    for (std::size_t i = 0; i < m.vitals.size(); ++i) {
      if ((mask & (0x40u << i)) == 0) continue;
      DERETH_TRY(const AttributeWire a, read_attribute(r, "attributes.vital"));
      DERETH_TRY(const std::uint32_t current, r.u32("attributes.vital.current_level"));
      m.vitals[i] = SecondaryAttributeWire{a.level_from_cp, a.init_level, a.cp_spent, current};
    }
  }
  if ((m.vector_flags & quality_vector_flag::Skill) != 0) {
    DERETH_CHECK(read_table(r, "skills", m.skills, read_skill, &m.skill_buckets));
  }
  namespace qv = quality_vector_flag;
  // Blocks dereth does not read come before the options: they stay unknown.
  if ((m.vector_flags & qv::NotRead) != 0) return m;
  // Nothing after the skills (a sender of the qualities alone): no options.
  if ((m.vector_flags & (qv::Spell | qv::Enchantment)) == 0 && r.remaining() == 0) return m;
  if ((m.vector_flags & qv::Spell) != 0) {
    // CSpellBook::UnPack 0x00595BB0
    DERETH_CHECK(read_table(r, "spells", m.spells, read_spell_book_page, &m.spell_buckets));
  }
  if ((m.vector_flags & qv::Enchantment) != 0) DERETH_CHECK(read_enchantment_registry(r, m.enchantments));
  // CPlayerSystem::Handle_PlayerDescription 0x005636A0 -> PlayerModule::UnPack
  // 0x005D49D0 (at least 8 bytes): the option flags, CharacterOptions1.
  DERETH_CHECK(r.require(8, "options"));
  m.options = PlayerOptionsWire{*r.u32("options.option_flags"), *r.u32("options.options1")};
  if (r.remaining() == 0) return m;
  DERETH_TRY(m.spell_lists, read_spell_lists(r, m.options->option_flags));
  return m;
}

std::vector<std::uint8_t> encode_player_description_qualities(const PlayerDescription& m) {
  ByteWriter w;
  namespace qf = quality_flag;
  const std::uint32_t f = m.property_flags;
  w.u32(f);
  w.u32(m.weenie_type);
  // A property table of entries gets 32 buckets, an empty one none.
  const auto buckets = [](const auto& table) { return table.empty() ? std::uint16_t{0} : std::uint16_t{32}; };
  if ((f & qf::Int) != 0) write_table(w, m.ints, buckets(m.ints), [](ByteWriter& ww, std::int32_t v) { ww.i32(v); });
  if ((f & qf::Int64) != 0) {
    write_table(w, m.int64s, buckets(m.int64s),
                [](ByteWriter& ww, std::int64_t v) { ww.u64(static_cast<std::uint64_t>(v)); });
  }
  if ((f & qf::Bool) != 0) write_table(w, m.bools, buckets(m.bools), [](ByteWriter& ww, std::int32_t v) { ww.i32(v); });
  if ((f & qf::Float) != 0) write_table(w, m.floats, buckets(m.floats), [](ByteWriter& ww, double v) { ww.f64(v); });
  if ((f & qf::String) != 0) {
    write_table(w, m.strings, buckets(m.strings), [](ByteWriter& ww, const std::string& v) { ww.string16l(v); });
  }
  if ((f & qf::DataId) != 0)
    write_table(w, m.data_ids, buckets(m.data_ids), [](ByteWriter& ww, std::uint32_t v) { ww.u32(v); });
  if ((f & qf::InstanceId) != 0) {
    write_table(w, m.instance_ids, buckets(m.instance_ids), [](ByteWriter& ww, std::uint32_t v) { ww.u32(v); });
  }
  if ((f & qf::Position) != 0) {
    write_table(w, m.positions, buckets(m.positions), [](ByteWriter& ww, const Position& p) { write_position(ww, p); });
  }
  w.u32(m.vector_flags);
  w.u32(m.has_health);
  if ((m.vector_flags & quality_vector_flag::Attribute) != 0) {
    std::uint32_t mask = 0;
    for (std::size_t i = 0; i < m.attributes.size(); ++i) {
      if (m.attributes[i]) mask |= 1u << i;
    }
    for (std::size_t i = 0; i < m.vitals.size(); ++i) {
      if (m.vitals[i]) mask |= 0x40u << i;
    }
    w.u32(mask);
    for (const auto& a : m.attributes) {
      if (!a) continue;
      w.u32(a->level_from_cp);
      w.u32(a->init_level);
      w.u32(a->cp_spent);
    }
    for (const auto& v : m.vitals) {
      if (!v) continue;
      w.u32(v->level_from_cp);
      w.u32(v->init_level);
      w.u32(v->cp_spent);
      w.u32(v->current_level);
    }
  }
  if ((m.vector_flags & quality_vector_flag::Skill) != 0) {
    write_table(w, m.skills, m.skill_buckets, [](ByteWriter& ww, const SkillWire& s) { write_skill(ww, s); });
  }
  if ((m.vector_flags & quality_vector_flag::Spell) != 0) {
    // SpellBookPage::Pack: the likelihood plus 2.
    write_table(w, m.spells, m.spell_buckets, [](ByteWriter& ww, float likelihood) { ww.f32(likelihood + 2.0f); });
  }
  if ((m.vector_flags & quality_vector_flag::Enchantment) != 0) {
    const auto in = [&m](EnchantmentList list) {
      std::vector<const EnchantmentWire*> out;
      for (const EnchantmentWire& e : m.enchantments) {
        if (e.list == list) out.push_back(&e);
      }
      return out;
    };
    const auto mult = in(EnchantmentList::Multiplicative);
    const auto add = in(EnchantmentList::Additive);
    const auto cooldown = in(EnchantmentList::Cooldown);
    const auto vitae = in(EnchantmentList::Vitae);
    std::uint32_t mask = 0;
    if (!mult.empty()) mask |= kMultiplicative;
    if (!add.empty()) mask |= kAdditive;
    if (!cooldown.empty()) mask |= kCooldown;
    if (!vitae.empty()) mask |= kVitae;
    w.u32(mask);
    for (const auto* list : {&mult, &add, &cooldown}) {
      if (list->empty()) continue;
      w.u32(static_cast<std::uint32_t>(list->size()));
      for (const EnchantmentWire* e : *list) write_enchantment(w, *e);
    }
    if (!vitae.empty()) write_enchantment(w, *vitae.front());
  }
  if (m.options) {
    w.u32(m.options->option_flags);
    w.u32(m.options->options1);
    if (m.spell_lists) {
      if ((m.options->option_flags & option_data_flag::Shortcut) != 0) {
        w.u32(static_cast<std::uint32_t>(m.spell_lists->shortcuts.size()));
        for (const ShortcutWire& s : m.spell_lists->shortcuts) {
          w.u32(s.index);
          w.u32(s.object_id);
          w.u16(s.spell_id);
          w.u16(s.layer);
        }
      }
      // As many lists as the flags say; a list not given is written empty.
      const std::size_t lists = 1 + extra_spell_lists(m.options->option_flags);
      for (std::size_t i = 0; i < lists; ++i) {
        const auto& ids = m.spell_lists->favorite_spells;
        if (i >= ids.size()) {
          w.u32(0);
          continue;
        }
        w.u32(static_cast<std::uint32_t>(ids[i].size()));
        for (const std::uint32_t id : ids[i]) w.u32(id);
      }
    }
  }
  return std::move(w).take();
}

}  // namespace dereth::protocol
