#include "dereth/dat/gfx_obj.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

using core::ErrorKind;
using core::JsonWriter;

constexpr std::size_t kSwVertexMinSize = 2 + 2 + 12 + 12;
constexpr std::size_t kPolygonMinSize = 2 + 1 + 1 + 4 + 2 + 2;
constexpr std::size_t kMaxPolygonPoints = 255;

// ---- BSP walk --------------------------------------------------------------

// Reads `count` u16 polygon indices into `out`, or skips them when out is null.
Result<void> read_poly_indices(ByteReader& r, std::size_t count, std::vector<std::uint16_t>* out,
                               std::string_view field) {
  if (out == nullptr) return r.skip(2 * count, field);
  DERETH_CHECK(r.require(2 * count, field));
  out->reserve(count);
  for (std::size_t i = 0; i < count; ++i) out->push_back(*r.u16(field));
  return {};
}

// The whole tree, in file order. With out == nullptr nothing is kept.
Result<void> walk_bsp(ByteReader& r, BspTreeType type, std::string_view field, BspTree* out) {
  struct Open {
    std::uint32_t tag;
    std::int32_t node;   // index in out->nodes, -1 when skipping
    std::uint8_t stage;  // 0: pos child next, 1: neg child next, 2: trailing data next
  };
  std::vector<Open> open;
  BspNode scratch;  // receives the fields of a skipped node

  auto node_at = [&](std::int32_t index) -> BspNode& {
    return index < 0 ? scratch : out->nodes[static_cast<std::size_t>(index)];
  };

  // Reads a node's tag and leading fields. A LEAF is read whole; any other
  // node is left open until its children and trailing data are read.
  auto begin_node = [&](std::int32_t parent, bool neg_side) -> Result<void> {
    DERETH_TRY(const std::uint32_t tag, r.u32(field));
    std::int32_t index = -1;
    if (out != nullptr) {
      index = static_cast<std::int32_t>(out->nodes.size());
      out->nodes.emplace_back();
      if (parent >= 0) {
        auto& p = out->nodes[static_cast<std::size_t>(parent)];
        (neg_side ? p.neg : p.pos) = index;
      }
    } else {
      scratch = BspNode{};
    }
    BspNode& node = node_at(index);
    node.tag = tag;
    if (tag == kBspLeaf) {
      DERETH_TRY(node.leaf_index, r.i32(field));
      if (type == BspTreeType::Physics) {
        DERETH_TRY(node.solid, r.i32(field));
        DERETH_TRY(node.sphere, read_sphere(r, field));
        DERETH_TRY(const std::size_t n, read_count(r, 2, field));
        DERETH_CHECK(read_poly_indices(r, n, out != nullptr ? &node.polys : nullptr, field));
      }
      return {};
    }
    DERETH_TRY(node.plane, read_plane(r, field));
    open.push_back(Open{tag, index, 0});
    return {};
  };

  // The data after an internal or PORT node's children.
  auto finish_node = [&](const Open& o) -> Result<void> {
    BspNode& node = node_at(o.node);
    std::vector<std::uint16_t>* polys = out != nullptr ? &node.polys : nullptr;
    if (o.tag == kBspPort) {
      if (type != BspTreeType::Drawing) return {};
      DERETH_TRY(node.sphere, read_sphere(r, field));
      const std::size_t counts_at = r.position();
      DERETH_TRY(const std::uint32_t num_polys, r.u32(field));
      DERETH_TRY(const std::uint32_t num_portals, r.u32(field));
      const std::uint64_t need = 2ULL * num_polys + 4ULL * num_portals;
      if (need > r.remaining()) {
        return std::unexpected(r.error_at(counts_at, ErrorKind::TooLarge, field,
                                          fmt::format("{} polys and {} portals exceed the {} bytes remaining",
                                                      num_polys, num_portals, r.remaining())));
      }
      DERETH_CHECK(read_poly_indices(r, num_polys, polys, field));
      if (out == nullptr) return r.skip(4ULL * num_portals, field);
      node.portals.reserve(num_portals);
      for (std::uint32_t i = 0; i < num_portals; ++i) {
        BspPortalRef ref;
        ref.poly_index = *r.u16(field);
        ref.portal_index = *r.u16(field);
        node.portals.push_back(ref);
      }
      return {};
    }
    if (type == BspTreeType::Cell) return {};
    DERETH_TRY(node.sphere, read_sphere(r, field));
    if (type == BspTreeType::Physics) return {};
    DERETH_TRY(const std::size_t n, read_count(r, 2, field));
    return read_poly_indices(r, n, polys, field);
  };

  DERETH_CHECK(begin_node(-1, false));
  while (!open.empty()) {
    const std::size_t top = open.size() - 1;
    const Open current = open[top];
    if (current.stage == 0) {
      open[top].stage = 1;
      if (bsp_tag_has_pos(current.tag)) DERETH_CHECK(begin_node(current.node, false));
    } else if (current.stage == 1) {
      open[top].stage = 2;
      if (bsp_tag_has_neg(current.tag)) DERETH_CHECK(begin_node(current.node, true));
    } else {
      DERETH_CHECK(finish_node(current));
      open.pop_back();
    }
  }
  return {};
}

void write_poly_indices(ByteWriter& w, const std::vector<std::uint16_t>& polys) {
  for (const auto p : polys) w.u16(p);
}

std::string tag_text(std::uint32_t tag) {
  std::string text;
  for (int shift = 24; shift >= 0; shift -= 8) {
    const auto c = static_cast<char>((tag >> shift) & 0xFFU);
    if (c < 0x20 || c > 0x7E) return fmt::format("0x{:08X}", tag);
    text.push_back(c);
  }
  return text;
}

// ---- polygons and vertices -------------------------------------------------

Result<Polygon> read_polygon(ByteReader& r, std::string_view field) {
  Polygon p;
  DERETH_TRY(p.id, r.u16(field));
  DERETH_TRY(const std::uint8_t num_pts, r.u8(field));
  DERETH_TRY(p.stippling, r.u8(field));
  DERETH_TRY(p.sides_type, r.i32(field));
  DERETH_TRY(const std::uint16_t pos_surface, r.u16(field));
  DERETH_TRY(const std::uint16_t neg_surface, r.u16(field));
  p.pos_surface = static_cast<std::int16_t>(pos_surface);
  p.neg_surface = static_cast<std::int16_t>(neg_surface);
  DERETH_CHECK(r.require(2U * num_pts, field));
  p.vertex_ids.reserve(num_pts);
  for (std::size_t i = 0; i < num_pts; ++i) p.vertex_ids.push_back(static_cast<std::int16_t>(*r.u16(field)));
  if (p.has_pos_uvs()) {
    DERETH_TRY(const auto uvs, r.bytes(num_pts, field));
    p.pos_uv_indices.assign(uvs.begin(), uvs.end());
  }
  if (p.has_neg_uvs()) {
    DERETH_TRY(const auto uvs, r.bytes(num_pts, field));
    p.neg_uv_indices.assign(uvs.begin(), uvs.end());
  }
  return p;
}

void write_uv_indices(ByteWriter& w, const std::vector<std::uint8_t>& uvs, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) w.u8(i < uvs.size() ? uvs[i] : std::uint8_t{0});
}

void write_polygon(ByteWriter& w, const Polygon& p) {
  const std::size_t n = std::min(p.vertex_ids.size(), kMaxPolygonPoints);
  w.u16(p.id);
  w.u8(static_cast<std::uint8_t>(n));
  w.u8(p.stippling);
  w.i32(p.sides_type);
  w.u16(static_cast<std::uint16_t>(p.pos_surface));
  w.u16(static_cast<std::uint16_t>(p.neg_surface));
  for (std::size_t i = 0; i < n; ++i) w.u16(static_cast<std::uint16_t>(p.vertex_ids[i]));
  if (p.has_pos_uvs()) write_uv_indices(w, p.pos_uv_indices, n);
  if (p.has_neg_uvs()) write_uv_indices(w, p.neg_uv_indices, n);
}

Result<std::vector<Polygon>> read_polygons(ByteReader& r, std::string_view count_field, std::string_view field) {
  const std::size_t count_at = r.position();
  DERETH_TRY(const std::uint32_t raw, read_compressed_uint(r, count_field));
  auto checked = r.checked_count(raw, kPolygonMinSize, count_field);
  if (!checked) {
    auto e = std::move(checked.error());
    e.offset = count_at;
    return std::unexpected(std::move(e));
  }
  std::vector<Polygon> polys;
  polys.reserve(*checked);
  for (std::size_t i = 0; i < *checked; ++i) {
    DERETH_TRY(Polygon p, read_polygon(r, field));
    polys.push_back(std::move(p));
  }
  return polys;
}

void write_polygons(ByteWriter& w, const std::vector<Polygon>& polys) {
  write_compressed_uint(w, static_cast<std::uint32_t>(polys.size()));
  for (const auto& p : polys) write_polygon(w, p);
}

// ---- JSON ------------------------------------------------------------------

void json_polygons(JsonWriter& j, const std::vector<Polygon>& polys) {
  j.begin_array();
  for (const auto& p : polys) {
    j.begin_object();
    j.key("id").number(p.id);
    j.key("stippling").number(p.stippling);
    j.key("sides_type").number(p.sides_type);
    j.key("pos_surface").number(static_cast<std::int32_t>(p.pos_surface));
    j.key("neg_surface").number(static_cast<std::int32_t>(p.neg_surface));
    j.key("vertex_ids").begin_array();
    for (const auto v : p.vertex_ids) j.number(static_cast<std::int32_t>(v));
    j.end_array();
    if (p.has_pos_uvs()) {
      j.key("pos_uv_indices").begin_array();
      for (const auto v : p.pos_uv_indices) j.number(v);
      j.end_array();
    }
    if (p.has_neg_uvs()) {
      j.key("neg_uv_indices").begin_array();
      for (const auto v : p.neg_uv_indices) j.number(v);
      j.end_array();
    }
    j.end_object();
  }
  j.end_array();
}

}  // namespace

bool bsp_tag_has_pos(std::uint32_t tag) noexcept {
  return tag == kBspPort || tag == kBspBPnn || tag == kBspBPIn || tag == kBspBPIN || tag == kBspBPnN;
}

bool bsp_tag_has_neg(std::uint32_t tag) noexcept {
  return tag == kBspPort || tag == kBspBpIN || tag == kBspBpnN || tag == kBspBPIN || tag == kBspBPnN;
}

Result<BspTree> read_bsp_tree(ByteReader& r, BspTreeType type, std::string_view field) {
  BspTree tree;
  DERETH_CHECK(walk_bsp(r, type, field, &tree));
  return tree;
}

Result<void> skip_bsp_tree(ByteReader& r, BspTreeType type, std::string_view field) {
  return walk_bsp(r, type, field, nullptr);
}

void write_bsp_tree(ByteWriter& w, const BspTree& tree, BspTreeType type) {
  const std::size_t size = tree.nodes.size();
  std::vector<bool> written(size, false);
  struct Open {
    std::size_t node;
    std::uint8_t stage;
  };
  std::vector<Open> open;

  auto write_bare_leaf = [&]() {
    w.u32(kBspLeaf);
    w.i32(0);
    if (type == BspTreeType::Physics) {
      w.i32(0);
      write_sphere(w, Sphere{});
      w.u32(0);
    }
  };

  // Writes a node's tag and leading fields; a child index that is absent,
  // not after its parent, or already written becomes a bare LEAF.
  auto begin_node = [&](std::int64_t index, std::int64_t parent) {
    if (index < 0 || index <= parent || static_cast<std::size_t>(index) >= size ||
        written[static_cast<std::size_t>(index)]) {
      write_bare_leaf();
      return;
    }
    const auto at = static_cast<std::size_t>(index);
    written[at] = true;
    const BspNode& node = tree.nodes[at];
    w.u32(node.tag);
    if (node.tag == kBspLeaf) {
      w.i32(node.leaf_index);
      if (type == BspTreeType::Physics) {
        w.i32(node.solid);
        write_sphere(w, node.sphere);
        w.u32(static_cast<std::uint32_t>(node.polys.size()));
        write_poly_indices(w, node.polys);
      }
      return;
    }
    write_plane(w, node.plane);
    open.push_back(Open{at, 0});
  };

  auto finish_node = [&](const BspNode& node) {
    if (node.tag == kBspPort) {
      if (type != BspTreeType::Drawing) return;
      write_sphere(w, node.sphere);
      w.u32(static_cast<std::uint32_t>(node.polys.size()));
      w.u32(static_cast<std::uint32_t>(node.portals.size()));
      write_poly_indices(w, node.polys);
      for (const auto& ref : node.portals) {
        w.u16(ref.poly_index);
        w.u16(ref.portal_index);
      }
      return;
    }
    if (type == BspTreeType::Cell) return;
    write_sphere(w, node.sphere);
    if (type == BspTreeType::Physics) return;
    w.u32(static_cast<std::uint32_t>(node.polys.size()));
    write_poly_indices(w, node.polys);
  };

  begin_node(size == 0 ? -1 : 0, -1);
  while (!open.empty()) {
    const std::size_t top = open.size() - 1;
    const Open current = open[top];
    const BspNode& node = tree.nodes[current.node];
    const auto parent = static_cast<std::int64_t>(current.node);
    if (current.stage == 0) {
      open[top].stage = 1;
      if (bsp_tag_has_pos(node.tag)) begin_node(node.pos, parent);
    } else if (current.stage == 1) {
      open[top].stage = 2;
      if (bsp_tag_has_neg(node.tag)) begin_node(node.neg, parent);
    } else {
      finish_node(node);
      open.pop_back();
    }
  }
}

void write_json(JsonWriter& j, const BspTree& tree) {
  j.begin_array();
  for (const auto& node : tree.nodes) {
    j.begin_object();
    j.key("tag").string(tag_text(node.tag));
    if (node.tag == kBspLeaf) {
      j.key("leaf_index").number(node.leaf_index);
      j.key("solid").number(node.solid);
    } else {
      j.key("plane").begin_object();
      j.key("normal");
      json_vec3(j, node.plane.normal);
      j.key("d").f32(node.plane.d);
      j.end_object();
      j.key("pos").number(node.pos);
      j.key("neg").number(node.neg);
    }
    j.key("sphere").begin_object();
    j.key("center");
    json_vec3(j, node.sphere.center);
    j.key("radius").f32(node.sphere.radius);
    j.end_object();
    j.key("polys").begin_array();
    for (const auto p : node.polys) j.number(p);
    j.end_array();
    if (!node.portals.empty()) {
      j.key("portals").begin_array();
      for (const auto& ref : node.portals) {
        j.begin_object();
        j.key("poly_index").number(ref.poly_index);
        j.key("portal_index").number(ref.portal_index);
        j.end_object();
      }
      j.end_array();
    }
    j.end_object();
  }
  j.end_array();
}

Result<GfxObj> read_gfx_obj(std::span<const std::uint8_t> bytes, Did id, BspMode bsp) {
  const std::string context = record_context(id, "GfxObj");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  GfxObj obj;
  obj.id = id;
  DERETH_TRY(obj.flags, r.u32("flags"));

  const std::size_t surfaces_at = r.position();
  DERETH_TRY(const std::uint32_t num_surfaces, read_compressed_uint(r, "num_surfaces"));
  if (auto fits = r.checked_count(num_surfaces, 4, "num_surfaces"); !fits) {
    auto e = std::move(fits.error());
    e.offset = surfaces_at;
    return std::unexpected(std::move(e));
  }
  obj.surfaces.reserve(num_surfaces);
  for (std::uint32_t i = 0; i < num_surfaces; ++i) obj.surfaces.push_back(*r.u32("surfaces"));

  // CVertexArray::UnPack: only vertex type 1 (CSWVertex) exists.
  const std::size_t type_at = r.position();
  DERETH_TRY(const std::int32_t vertex_type, r.i32("vertex_type"));
  if (vertex_type != 1) {
    return std::unexpected(r.error_at(type_at, ErrorKind::Unsupported, "vertex_type",
                                      fmt::format("vertex type {} (only 1 = CSWVertex exists)", vertex_type)));
  }
  DERETH_TRY(const std::size_t num_vertices, read_count(r, kSwVertexMinSize, "num_vertices"));
  obj.vertices.reserve(num_vertices);
  for (std::size_t i = 0; i < num_vertices; ++i) {
    SwVertex v;
    DERETH_TRY(v.id, r.u16("vertices.id"));
    const std::size_t uvs_at = r.position();
    DERETH_TRY(const std::uint16_t num_uvs, r.u16("vertices.num_uvs"));
    DERETH_TRY(v.origin, read_vec3(r, "vertices.origin"));
    DERETH_TRY(v.normal, read_vec3(r, "vertices.normal"));
    if (auto fits = r.checked_count(num_uvs, 8, "vertices.num_uvs"); !fits) {
      auto e = std::move(fits.error());
      e.offset = uvs_at;
      return std::unexpected(std::move(e));
    }
    v.uvs.reserve(num_uvs);
    for (std::uint16_t k = 0; k < num_uvs; ++k) {
      UvCoord uv;
      uv.u = *r.f32("vertices.uvs");
      uv.v = *r.f32("vertices.uvs");
      v.uvs.push_back(uv);
    }
    obj.vertices.push_back(std::move(v));
  }

  const bool keep = bsp == BspMode::Keep;
  if ((obj.flags & GfxObj::kHasPhysics) != 0) {
    DERETH_TRY(obj.physics_polygons, read_polygons(r, "num_physics_polygons", "physics_polygons"));
    if (keep) {
      DERETH_TRY(obj.physics_bsp, read_bsp_tree(r, BspTreeType::Physics, "physics_bsp"));
    } else {
      DERETH_CHECK(skip_bsp_tree(r, BspTreeType::Physics, "physics_bsp"));
    }
  }
  DERETH_TRY(obj.sort_center, read_vec3(r, "sort_center"));
  if ((obj.flags & GfxObj::kHasDrawing) != 0) {
    DERETH_TRY(obj.polygons, read_polygons(r, "num_polygons", "polygons"));
    if (keep) {
      DERETH_TRY(obj.drawing_bsp, read_bsp_tree(r, BspTreeType::Drawing, "drawing_bsp"));
    } else {
      DERETH_CHECK(skip_bsp_tree(r, BspTreeType::Drawing, "drawing_bsp"));
    }
  }
  if ((obj.flags & GfxObj::kHasDidDegrade) != 0) {
    DERETH_TRY(obj.degrade_id, r.u32("degrade_id"));
  }
  DERETH_CHECK(r.expect_end());
  return obj;
}

std::vector<std::uint8_t> write_gfx_obj(const GfxObj& obj) {
  ByteWriter w;
  w.u32(obj.id);
  w.u32(obj.flags);
  write_compressed_uint(w, static_cast<std::uint32_t>(obj.surfaces.size()));
  for (const Did s : obj.surfaces) w.u32(s);
  w.i32(1);
  w.u32(static_cast<std::uint32_t>(obj.vertices.size()));
  for (const auto& v : obj.vertices) {
    const std::size_t num_uvs = std::min<std::size_t>(v.uvs.size(), std::numeric_limits<std::uint16_t>::max());
    w.u16(v.id);
    w.u16(static_cast<std::uint16_t>(num_uvs));
    write_vec3(w, v.origin);
    write_vec3(w, v.normal);
    for (std::size_t k = 0; k < num_uvs; ++k) {
      w.f32(v.uvs[k].u);
      w.f32(v.uvs[k].v);
    }
  }
  if ((obj.flags & GfxObj::kHasPhysics) != 0) {
    write_polygons(w, obj.physics_polygons);
    write_bsp_tree(w, obj.physics_bsp, BspTreeType::Physics);
  }
  write_vec3(w, obj.sort_center);
  if ((obj.flags & GfxObj::kHasDrawing) != 0) {
    write_polygons(w, obj.polygons);
    write_bsp_tree(w, obj.drawing_bsp, BspTreeType::Drawing);
  }
  if ((obj.flags & GfxObj::kHasDidDegrade) != 0) w.u32(obj.degrade_id);
  return std::move(w).take();
}

void write_json(JsonWriter& j, const GfxObj& obj) {
  j.begin_object();
  j.key("id").hex(obj.id);
  j.key("flags").hex(obj.flags);
  j.key("surfaces").begin_array();
  for (const Did s : obj.surfaces) j.hex(s);
  j.end_array();
  j.key("vertices").begin_array();
  for (const auto& v : obj.vertices) {
    j.begin_object();
    j.key("id").number(v.id);
    j.key("origin");
    json_vec3(j, v.origin);
    j.key("normal");
    json_vec3(j, v.normal);
    j.key("uvs").begin_array();
    for (const auto& uv : v.uvs) {
      j.begin_object();
      j.key("u").f32(uv.u);
      j.key("v").f32(uv.v);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  if ((obj.flags & GfxObj::kHasPhysics) != 0) {
    j.key("physics_polygons");
    json_polygons(j, obj.physics_polygons);
    j.key("physics_bsp");
    write_json(j, obj.physics_bsp);
  }
  j.key("sort_center");
  json_vec3(j, obj.sort_center);
  if ((obj.flags & GfxObj::kHasDrawing) != 0) {
    j.key("polygons");
    json_polygons(j, obj.polygons);
    j.key("drawing_bsp");
    write_json(j, obj.drawing_bsp);
  }
  if ((obj.flags & GfxObj::kHasDidDegrade) != 0) j.key("degrade_id").hex(obj.degrade_id);
  j.end_object();
}

}  // namespace dereth::dat
