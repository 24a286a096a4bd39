#include "dereth/protocol/obj_desc.hpp"

#include "read_if.hpp"

namespace dereth::protocol {

Result<ObjDesc> read_obj_desc(ByteReader& r) {
  ObjDesc d;
  DERETH_CHECK(read_obj_desc(r, d));
  return d;
}

namespace {

// The three lists, their longest form known to be there.
DERETH_READ_INLINE void read_lists(detail::Unchecked& u, ObjDesc& d, std::uint8_t num_palettes,
                                   std::uint8_t num_texture_changes, std::uint8_t num_anim_part_changes) {
  if (num_palettes > 0) {
    d.base_palette = u.take_packed_did(kPaletteBase);
    d.palettes.resize(num_palettes);
    for (auto& p : d.palettes) {
      p.palette_id = u.take_packed_did(kPaletteBase);
      p.offset = u.take<std::uint8_t>();
      p.num_colors = u.take<std::uint8_t>();
    }
  } else {
    d.base_palette.reset();
    d.palettes.clear();
  }
  d.texture_changes.resize(num_texture_changes);
  for (auto& t : d.texture_changes) {
    t.part_index = u.take<std::uint8_t>();
    t.old_texture = u.take_packed_did(kTextureBase);
    t.new_texture = u.take_packed_did(kTextureBase);
  }
  d.anim_part_changes.resize(num_anim_part_changes);
  for (auto& a : d.anim_part_changes) {
    a.part_index = u.take<std::uint8_t>();
    a.gfx_obj_id = u.take_packed_did(kGfxObjBase);
  }
}

DERETH_READ_INLINE ReadResult<void> read_obj_desc_body(ByteReader& r, ObjDesc& d) {
  DERETH_CHECK(r.require(4, "ObjDesc.header"));
  d.version = *r.u8("ObjDesc.version");
  const std::uint8_t num_palettes = *r.u8("ObjDesc.num_palettes");
  const std::uint8_t num_texture_changes = *r.u8("ObjDesc.num_texture_changes");
  const std::uint8_t num_anim_part_changes = *r.u8("ObjDesc.num_anim_part_changes");

  // The lists' longest form (every PackedDWORD in its four bytes) and the
  // padding: when that many bytes remain, no read below can fail, and the
  // lists are read with no check each (read_if.hpp, Unchecked).
  const std::size_t longest = (num_palettes > 0 ? 4 + 6 * std::size_t{num_palettes} : 0) +
                              9 * std::size_t{num_texture_changes} + 5 * std::size_t{num_anim_part_changes} + 3;
  if (longest <= r.remaining()) [[likely]] {
    detail::Unchecked u(r.data().data() + r.position());
    read_lists(u, d, num_palettes, num_texture_changes, num_anim_part_changes);
    DERETH_CHECK(r.skip(static_cast<std::size_t>(u.at() - (r.data().data() + r.position())), "ObjDesc.lists"));
    return r.align4("ObjDesc.align");
  }

  // Resized, not cleared first: every element of the new size is written
  // below, and a list of the same length needs no call.
  d.base_palette.reset();
  if (num_palettes == 0) d.palettes.clear();
  if (num_palettes > 0) {
    DERETH_TRY(d.base_palette, r.packed_did(kPaletteBase, "ObjDesc.base_palette"));
    DERETH_TRY(const std::size_t n, r.checked_count(num_palettes, 4, "ObjDesc.num_palettes"));
    d.palettes.resize(n);
    for (auto& p : d.palettes) {
      DERETH_TRY(p.palette_id, r.packed_did(kPaletteBase, "ObjDesc.palettes.palette_id"));
      DERETH_CHECK(r.require(2, "ObjDesc.palettes.range"));
      p.offset = *r.u8("ObjDesc.palettes.offset");
      p.num_colors = *r.u8("ObjDesc.palettes.num_colors");
    }
  }
  {
    DERETH_TRY(const std::size_t n, r.checked_count(num_texture_changes, 5, "ObjDesc.num_texture_changes"));
    d.texture_changes.resize(n);
    for (auto& t : d.texture_changes) {
      DERETH_TRY(t.part_index, r.u8("ObjDesc.texture_changes.part_index"));
      DERETH_TRY(t.old_texture, r.packed_did(kTextureBase, "ObjDesc.texture_changes.old_texture"));
      DERETH_TRY(t.new_texture, r.packed_did(kTextureBase, "ObjDesc.texture_changes.new_texture"));
    }
  }
  {
    DERETH_TRY(const std::size_t n, r.checked_count(num_anim_part_changes, 3, "ObjDesc.num_anim_part_changes"));
    d.anim_part_changes.resize(n);
    for (auto& a : d.anim_part_changes) {
      DERETH_TRY(a.part_index, r.u8("ObjDesc.anim_part_changes.part_index"));
      DERETH_TRY(a.gfx_obj_id, r.packed_did(kGfxObjBase, "ObjDesc.anim_part_changes.gfx_obj_id"));
    }
  }
  return r.align4("ObjDesc.align");
}

}  // namespace

ReadResult<void> read_obj_desc(ByteReader& r, ObjDesc& d) {
  // The body reads a copy of the reader whose address is never taken, so its
  // cursor can stay in registers: a store to one of d's byte fields could
  // otherwise alias r, and make every later read load the cursor again.
  ByteReader local = r;
  auto result = read_obj_desc_body(local, d);
  r = local;
  return result;
}

void write_obj_desc(ByteWriter& w, const ObjDesc& d) {
  w.u8(d.version);
  w.u8(static_cast<std::uint8_t>(d.palettes.size()));
  w.u8(static_cast<std::uint8_t>(d.texture_changes.size()));
  w.u8(static_cast<std::uint8_t>(d.anim_part_changes.size()));
  if (!d.palettes.empty()) {
    w.packed_did(d.base_palette.value_or(kPaletteBase), kPaletteBase);
    for (const auto& p : d.palettes) {
      w.packed_did(p.palette_id, kPaletteBase);
      w.u8(p.offset);
      w.u8(p.num_colors);
    }
  }
  for (const auto& t : d.texture_changes) {
    w.u8(t.part_index);
    w.packed_did(t.old_texture, kTextureBase);
    w.packed_did(t.new_texture, kTextureBase);
  }
  for (const auto& a : d.anim_part_changes) {
    w.u8(a.part_index);
    w.packed_did(a.gfx_obj_id, kGfxObjBase);
  }
  w.align4();
}

}  // namespace dereth::protocol
