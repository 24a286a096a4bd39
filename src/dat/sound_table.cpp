#include "dereth/dat/sound_table.hpp"

#include <string>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

// Smallest SoundTableData: hashKey, n = 0, numChildren = 0.
constexpr std::size_t kMinDataSize = 12;
constexpr std::size_t kEntrySize = 16;

Result<void> read_data(ByteReader& r, SoundTableData& out, int depth) {
  if (depth > kMaxSoundTableDepth) {
    return std::unexpected(r.error(core::ErrorKind::Invalid, "children",
                                   fmt::format("sound table nested deeper than {} levels", kMaxSoundTableDepth)));
  }
  DERETH_TRY(out.hash_key, r.u32("hash_key"));
  DERETH_TRY(const std::size_t n, read_count(r, kEntrySize, "entries.count"));
  out.entries.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    DERETH_CHECK(r.require(kEntrySize, "entries"));
    SoundEntry e;
    e.wave = *r.u32("entries.wave");
    e.priority = *r.f32("entries.priority");
    e.probability = *r.f32("entries.probability");
    e.volume = *r.f32("entries.volume");
    out.entries.push_back(e);
  }
  DERETH_TRY(const std::size_t children, read_count(r, kMinDataSize, "children.count"));
  out.children.resize(children);
  for (auto& child : out.children) {
    DERETH_CHECK(read_data(r, child, depth + 1));
  }
  return {};
}

void write_data(ByteWriter& w, const SoundTableData& d) {
  w.u32(d.hash_key);
  w.u32(static_cast<std::uint32_t>(d.entries.size()));
  for (const auto& e : d.entries) {
    w.u32(e.wave);
    w.f32(e.priority);
    w.f32(e.probability);
    w.f32(e.volume);
  }
  w.u32(static_cast<std::uint32_t>(d.children.size()));
  for (const auto& c : d.children) write_data(w, c);
}

void json_data(core::JsonWriter& j, const SoundTableData& d) {
  j.begin_object();
  j.key("hash_key").hex(d.hash_key);
  j.key("entries").begin_array();
  for (const auto& e : d.entries) {
    j.begin_object();
    j.key("wave").hex(e.wave);
    j.key("priority").f32(e.priority);
    j.key("probability").f32(e.probability);
    j.key("volume").f32(e.volume);
    j.end_object();
  }
  j.end_array();
  if (!d.children.empty()) {
    j.key("children").begin_array();
    for (const auto& c : d.children) json_data(j, c);
    j.end_array();
  }
  j.end_object();
}

}  // namespace

Result<SoundTable> read_sound_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "SoundTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  SoundTable t;
  t.id = id;
  DERETH_CHECK(read_data(r, t.root, 0));
  DERETH_CHECK(r.align4("padding"));
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_sound_table(const SoundTable& table) {
  ByteWriter w;
  w.u32(table.id);
  write_data(w, table.root);
  w.align4();
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const SoundTable& table) {
  j.begin_object();
  j.key("type").string("SoundTable");
  j.key("id").hex(table.id);
  j.key("root");
  json_data(j, table.root);
  j.end_object();
}

const SoundTableData* find_sound(const SoundTable& table, std::uint32_t sound) noexcept {
  for (const auto& c : table.root.children) {
    if (c.hash_key == sound) return &c;
  }
  return nullptr;
}

}  // namespace dereth::dat
