#include "dereth/protocol/player_description.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "dereth/protocol/login.hpp"

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
    return std::unexpected(r.error_at(at, core::ErrorKind::Invalid, field,
                                      fmt::format("{} entries in a table of no buckets", count)));
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

bool same_double(double a, double b) noexcept { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

}  // namespace

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
  return property_flags == o.property_flags && weenie_type == o.weenie_type && ints == o.ints &&
         int64s == o.int64s && bools == o.bools && same_floats(floats, o.floats) && strings == o.strings &&
         data_ids == o.data_ids && instance_ids == o.instance_ids && positions == o.positions &&
         vector_flags == o.vector_flags && has_health == o.has_health && attributes == o.attributes &&
         vitals == o.vitals && skill_buckets == o.skill_buckets && skills == o.skills;
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
  if ((f & qf::Bool) != 0) DERETH_CHECK(read_table(r, "bools", m.bools, [](ByteReader& rr) { return rr.i32("bools.value"); }));
  if ((f & qf::Float) != 0) DERETH_CHECK(read_table(r, "floats", m.floats, [](ByteReader& rr) { return rr.f64("floats.value"); }));
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
    write_table(w, m.int64s, buckets(m.int64s), [](ByteWriter& ww, std::int64_t v) { ww.u64(static_cast<std::uint64_t>(v)); });
  }
  if ((f & qf::Bool) != 0) write_table(w, m.bools, buckets(m.bools), [](ByteWriter& ww, std::int32_t v) { ww.i32(v); });
  if ((f & qf::Float) != 0) write_table(w, m.floats, buckets(m.floats), [](ByteWriter& ww, double v) { ww.f64(v); });
  if ((f & qf::String) != 0) {
    write_table(w, m.strings, buckets(m.strings), [](ByteWriter& ww, const std::string& v) { ww.string16l(v); });
  }
  if ((f & qf::DataId) != 0) write_table(w, m.data_ids, buckets(m.data_ids), [](ByteWriter& ww, std::uint32_t v) { ww.u32(v); });
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
    write_table(w, m.skills, m.skill_buckets, [](ByteWriter& ww, const SkillWire& s) {
      ww.u32(static_cast<std::uint32_t>(s.level_from_pp) | (static_cast<std::uint32_t>(s.adjusted) << 16));
      ww.u32(s.sac);
      ww.u32(s.pp);
      ww.u32(s.init_level);
      ww.u32(s.resistance_of_last_check);
      ww.f64(s.last_used);
    });
  }
  return std::move(w).take();
}

}  // namespace dereth::protocol
