#include "dereth/dat/quality_filter.hpp"

#include <array>
#include <string>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

using List = std::vector<std::uint32_t>;

template <std::size_t N>
Result<void> read_group(ByteReader& r, const std::array<List*, N>& lists,
                        const std::array<std::string_view, N>& names) {
  std::array<std::uint64_t, N> counts{};
  std::array<std::size_t, N> offsets{};
  for (std::size_t i = 0; i < N; ++i) {
    offsets[i] = r.position();
    DERETH_TRY(counts[i], r.u32(names[i]));
  }
  const std::uint64_t remaining = r.remaining();
  std::uint64_t needed = 0;
  for (std::size_t i = 0; i < N; ++i) {
    needed += counts[i] * 4;
    if (needed > remaining) {
      return std::unexpected(r.error_at(
          offsets[i], core::ErrorKind::TooLarge, names[i],
          fmt::format("{} ids need {} bytes with the lists before, {} remain", counts[i], needed, remaining)));
    }
  }
  for (std::size_t i = 0; i < N; ++i) {
    lists[i]->reserve(static_cast<std::size_t>(counts[i]));
    for (std::uint64_t k = 0; k < counts[i]; ++k) lists[i]->push_back(*r.u32(names[i]));
  }
  return {};
}

void write_group(ByteWriter& w, std::initializer_list<const List*> lists) {
  for (const List* l : lists) w.u32(static_cast<std::uint32_t>(l->size()));
  for (const List* l : lists) {
    for (const std::uint32_t v : *l) w.u32(v);
  }
}

void json_list(core::JsonWriter& j, std::string_view name, const List& l) {
  j.key(name).begin_array();
  for (const std::uint32_t v : l) j.number(v);
  j.end_array();
}

}  // namespace

Result<QualityFilter> read_quality_filter(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "QualityFilter");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  QualityFilter f;
  f.id = id;
  DERETH_CHECK(read_group<8>(r,
                             {&f.int_stats, &f.int64_stats, &f.bool_stats, &f.float_stats, &f.did_stats, &f.iid_stats,
                              &f.string_stats, &f.position_stats},
                             {"int.count", "int64.count", "bool.count", "float.count", "did.count", "iid.count",
                              "string.count", "position.count"}));
  DERETH_CHECK(read_group<3>(r, {&f.attribute_stats, &f.attribute2nd_stats, &f.skill_stats},
                             {"attribute.count", "attribute2nd.count", "skill.count"}));
  DERETH_CHECK(r.expect_end());
  return f;
}

std::vector<std::uint8_t> write_quality_filter(const QualityFilter& f) {
  ByteWriter w;
  w.u32(f.id);
  write_group(w, {&f.int_stats, &f.int64_stats, &f.bool_stats, &f.float_stats, &f.did_stats, &f.iid_stats,
                  &f.string_stats, &f.position_stats});
  write_group(w, {&f.attribute_stats, &f.attribute2nd_stats, &f.skill_stats});
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const QualityFilter& f) {
  j.begin_object();
  j.key("type").string("QualityFilter");
  j.key("id").hex(f.id);
  json_list(j, "int", f.int_stats);
  json_list(j, "int64", f.int64_stats);
  json_list(j, "bool", f.bool_stats);
  json_list(j, "float", f.float_stats);
  json_list(j, "did", f.did_stats);
  json_list(j, "iid", f.iid_stats);
  json_list(j, "string", f.string_stats);
  json_list(j, "position", f.position_stats);
  json_list(j, "attribute", f.attribute_stats);
  json_list(j, "attribute2nd", f.attribute2nd_stats);
  json_list(j, "skill", f.skill_stats);
  j.end_object();
}

}  // namespace dereth::dat
