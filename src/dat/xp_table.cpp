#include "dereth/dat/xp_table.hpp"

#include <array>
#include <string>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

constexpr std::array<std::string_view, 5> kMaxFields = {"max_attribute", "max_vital", "max_trained_skill",
                                                        "max_specialized_skill", "max_level"};

template <class T>
void read_entries(ByteReader& r, std::vector<T>& out, std::size_t n) {
  // The caller has checked that every table fits.
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (sizeof(T) == 8) {
      out.push_back(*r.u64("level"));
    } else {
      out.push_back(*r.u32("table"));
    }
  }
}

template <class T>
void write_entries(ByteWriter& w, const std::vector<T>& v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    const T value = i < v.size() ? v[i] : T{0};
    if constexpr (sizeof(T) == 8) {
      w.u64(value);
    } else {
      w.u32(value);
    }
  }
}

template <class T>
void json_table(core::JsonWriter& j, std::string_view name, const std::vector<T>& v) {
  j.key(name).begin_object();
  j.key("count").number(static_cast<std::uint64_t>(v.size()));
  if (!v.empty()) {
    j.key("first").number(static_cast<std::uint64_t>(v.front()));
    j.key("last").number(static_cast<std::uint64_t>(v.back()));
  }
  j.end_object();
}

}  // namespace

Result<XpTable> read_xp_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "XpTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  XpTable t;
  t.id = id;
  std::array<std::uint64_t, 5> counts{};
  std::array<std::size_t, 5> offsets{};
  for (std::size_t i = 0; i < counts.size(); ++i) {
    offsets[i] = r.position();
    DERETH_TRY(const std::uint32_t max, r.u32(kMaxFields[i]));
    counts[i] = std::uint64_t{max} + 1;
  }
  // Bound every table before allocating any: the running total of bytes the
  // maxima read so far need must fit in what remains.
  const std::uint64_t remaining = r.remaining();
  std::uint64_t needed = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    needed += counts[i] * (i == 4 ? 12U : 4U);  // the level maximum sizes the u64 XP and u32 credit tables
    if (needed > remaining) {
      return std::unexpected(
          r.error_at(offsets[i], core::ErrorKind::TooLarge, kMaxFields[i],
                     fmt::format("{} entries need {} bytes, {} remain", counts[i], needed, remaining)));
    }
  }
  read_entries(r, t.attribute, static_cast<std::size_t>(counts[0]));
  read_entries(r, t.vital, static_cast<std::size_t>(counts[1]));
  read_entries(r, t.trained_skill, static_cast<std::size_t>(counts[2]));
  read_entries(r, t.specialized_skill, static_cast<std::size_t>(counts[3]));
  read_entries(r, t.level, static_cast<std::size_t>(counts[4]));
  read_entries(r, t.skill_credits, static_cast<std::size_t>(counts[4]));
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_xp_table(const XpTable& table) {
  auto stored = [](std::size_t size) { return size == 0 ? std::size_t{1} : size; };
  const std::array<std::size_t, 5> n = {stored(table.attribute.size()), stored(table.vital.size()),
                                        stored(table.trained_skill.size()), stored(table.specialized_skill.size()),
                                        stored(table.level.size())};
  ByteWriter w;
  w.u32(table.id);
  for (const std::size_t count : n) w.u32(static_cast<std::uint32_t>(count - 1));
  write_entries(w, table.attribute, n[0]);
  write_entries(w, table.vital, n[1]);
  write_entries(w, table.trained_skill, n[2]);
  write_entries(w, table.specialized_skill, n[3]);
  write_entries(w, table.level, n[4]);
  write_entries(w, table.skill_credits, n[4]);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const XpTable& table) {
  j.begin_object();
  j.key("type").string("XpTable");
  j.key("id").hex(table.id);
  json_table(j, "attribute", table.attribute);
  json_table(j, "vital", table.vital);
  json_table(j, "trained_skill", table.trained_skill);
  json_table(j, "specialized_skill", table.specialized_skill);
  json_table(j, "level", table.level);
  json_table(j, "skill_credits", table.skill_credits);
  j.end_object();
}

}  // namespace dereth::dat
