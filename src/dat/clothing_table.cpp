#include "dereth/dat/clothing_table.hpp"

#include <string>

namespace dereth::dat {

namespace {

// Smallest encodings, the bounds for the counts below.
constexpr std::size_t kMinBaseEffect = 4 + 4;  // key, object count
constexpr std::size_t kMinObjectEffect = 12;   // part, GfxObj, texture count
constexpr std::size_t kTextureEffect = 8;
constexpr std::size_t kMinSubPalEffect = 4 + 4 + 4;  // key, icon, subpalette count
constexpr std::size_t kMinSubPalette = 8;            // range count, PaletteSet
constexpr std::size_t kRange = 8;

Result<void> read_object_effect(ByteReader& r, CloObjectEffect& o) {
  DERETH_CHECK(r.require(8, "base_effects.objects"));
  o.part = *r.u32("base_effects.objects.part");
  o.gfx_obj = *r.u32("base_effects.objects.gfx_obj");
  DERETH_TRY(const std::size_t n, read_count(r, kTextureEffect, "base_effects.objects.textures.count"));
  o.textures.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    CloTextureEffect t;
    t.old_texture = *r.u32("base_effects.objects.textures.old");
    t.new_texture = *r.u32("base_effects.objects.textures.new");
    o.textures.push_back(t);
  }
  return {};
}

Result<void> read_subpalette(ByteReader& r, CloSubPalette& s) {
  DERETH_TRY(const std::size_t n, read_count(r, kRange, "subpal_effects.subpalettes.ranges.count"));
  s.ranges.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    CloSubPaletteRange range;
    range.offset = *r.u32("subpal_effects.subpalettes.ranges.offset");
    range.num_colors = *r.u32("subpal_effects.subpalettes.ranges.num_colors");
    s.ranges.push_back(range);
  }
  DERETH_TRY(s.palette_set, r.u32("subpal_effects.subpalettes.palette_set"));
  return {};
}

}  // namespace

Result<ClothingTable> read_clothing_table(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "ClothingTable");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  ClothingTable t;
  t.id = id;
  DERETH_TRY(const HashTableHeader base, read_hash_table_header(r, kMinBaseEffect, "base_effects.count"));
  t.base_buckets = base.buckets;
  t.base_effects.reserve(base.count);
  for (std::size_t i = 0; i < base.count; ++i) {
    ClothingBaseEffect e;
    DERETH_TRY(e.setup, r.u32("base_effects.key"));
    DERETH_TRY(const std::size_t n, read_count(r, kMinObjectEffect, "base_effects.objects.count"));
    e.objects.reserve(n);
    for (std::size_t j = 0; j < n; ++j) {
      CloObjectEffect o;
      DERETH_CHECK(read_object_effect(r, o));
      e.objects.push_back(std::move(o));
    }
    t.base_effects.push_back(std::move(e));
  }
  DERETH_TRY(const HashTableHeader subpal, read_hash_table_header(r, kMinSubPalEffect, "subpal_effects.count"));
  t.subpal_buckets = subpal.buckets;
  t.subpal_effects.reserve(subpal.count);
  for (std::size_t i = 0; i < subpal.count; ++i) {
    CloSubPalEffect e;
    DERETH_CHECK(r.require(8, "subpal_effects"));
    e.palette_template = *r.u32("subpal_effects.key");
    e.icon = *r.u32("subpal_effects.icon");
    DERETH_TRY(const std::size_t n, read_count(r, kMinSubPalette, "subpal_effects.subpalettes.count"));
    e.subpalettes.reserve(n);
    for (std::size_t j = 0; j < n; ++j) {
      CloSubPalette s;
      DERETH_CHECK(read_subpalette(r, s));
      e.subpalettes.push_back(std::move(s));
    }
    t.subpal_effects.push_back(std::move(e));
  }
  DERETH_CHECK(r.expect_end());
  return t;
}

std::vector<std::uint8_t> write_clothing_table(const ClothingTable& table) {
  ByteWriter w;
  w.u32(table.id);
  write_hash_table_header(w, table.base_effects.size(), table.base_buckets);
  for (const auto& e : table.base_effects) {
    w.u32(e.setup);
    w.u32(static_cast<std::uint32_t>(e.objects.size()));
    for (const auto& o : e.objects) {
      w.u32(o.part);
      w.u32(o.gfx_obj);
      w.u32(static_cast<std::uint32_t>(o.textures.size()));
      for (const auto& t : o.textures) {
        w.u32(t.old_texture);
        w.u32(t.new_texture);
      }
    }
  }
  write_hash_table_header(w, table.subpal_effects.size(), table.subpal_buckets);
  for (const auto& e : table.subpal_effects) {
    w.u32(e.palette_template);
    w.u32(e.icon);
    w.u32(static_cast<std::uint32_t>(e.subpalettes.size()));
    for (const auto& s : e.subpalettes) {
      w.u32(static_cast<std::uint32_t>(s.ranges.size()));
      for (const auto& range : s.ranges) {
        w.u32(range.offset);
        w.u32(range.num_colors);
      }
      w.u32(s.palette_set);
    }
  }
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const ClothingTable& table) {
  j.begin_object();
  j.key("type").string("ClothingTable");
  j.key("id").hex(table.id);
  j.key("base_effects").begin_array();
  for (const auto& e : table.base_effects) {
    j.begin_object();
    j.key("setup").hex(e.setup);
    j.key("objects").begin_array();
    for (const auto& o : e.objects) {
      j.begin_object();
      j.key("part").number(o.part);
      j.key("gfx_obj").hex(o.gfx_obj);
      j.key("textures").begin_array();
      for (const auto& t : o.textures) {
        j.begin_object();
        j.key("old").hex(t.old_texture);
        j.key("new").hex(t.new_texture);
        j.end_object();
      }
      j.end_array();
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("subpal_effects").begin_array();
  for (const auto& e : table.subpal_effects) {
    j.begin_object();
    j.key("palette_template").number(e.palette_template);
    j.key("icon").hex(e.icon);
    j.key("subpalettes").begin_array();
    for (const auto& s : e.subpalettes) {
      j.begin_object();
      j.key("ranges").begin_array();
      for (const auto& range : s.ranges) {
        j.begin_object();
        j.key("offset").number(range.offset);
        j.key("num_colors").number(range.num_colors);
        j.end_object();
      }
      j.end_array();
      j.key("palette_set").hex(s.palette_set);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

const ClothingBaseEffect* find_base_effect(const ClothingTable& table, Did setup) noexcept {
  for (const auto& e : table.base_effects) {
    if (e.setup == setup) return &e;
  }
  return nullptr;
}

const CloSubPalEffect* find_subpal_effect(const ClothingTable& table, std::uint32_t palette_template) noexcept {
  for (const auto& e : table.subpal_effects) {
    if (e.palette_template == palette_template) return &e;
  }
  return nullptr;
}

}  // namespace dereth::dat
