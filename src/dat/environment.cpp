#include "dereth/dat/environment.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace dereth::dat {

// Private readers for CellStruct's vertex array, polygons and BSP trees. They
// duplicate the GfxObj ones (spec 3.1) on purpose, to be merged later.
namespace {

using core::ErrorKind;

enum class TreeType : std::uint8_t { Drawing = 0, Physics = 1, Cell = 2 };

// Which children an internal-node tag carries (PORT is handled separately).
bool has_pos_child(std::uint32_t tag) noexcept {
  return tag == bsp_tag::kBPnn || tag == bsp_tag::kBPIn || tag == bsp_tag::kBPIN || tag == bsp_tag::kBPnN;
}

bool has_neg_child(std::uint32_t tag) noexcept {
  return tag == bsp_tag::kBpIN || tag == bsp_tag::kBpnN || tag == bsp_tag::kBPIN || tag == bsp_tag::kBPnN;
}

constexpr std::size_t kMinVertexSize = 2 + 2 + 12 + 12;
constexpr std::size_t kMinPolygonSize = 2 + 1 + 1 + 4 + 2 + 2;
constexpr std::size_t kMinBspNodeSize = 8;  // LEAF tag + leaf index
// Lower bound of one CellStruct: id, three counts, vertex type and count, a
// CELL tree (8), a PHYSICS tree (a bare LEAF is 32), hasDrawingBSP.
constexpr std::size_t kMinCellStructSize = 4 + 12 + 8 + 8 + 32 + 4;

Result<EnvVertex> read_vertex(ByteReader& r) {
  DERETH_CHECK(r.require(kMinVertexSize, "vertices"));
  EnvVertex v;
  v.id = *r.u16("vertices.id");
  const std::uint16_t num_uvs = *r.u16("vertices.num_uvs");
  v.origin = *read_vec3(r, "vertices.origin");
  v.normal = *read_vec3(r, "vertices.normal");
  DERETH_TRY(const std::size_t n, r.checked_count(num_uvs, 8, "vertices.num_uvs"));
  v.uvs.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    EnvUv uv;
    uv.u = *r.f32("vertices.uvs");
    uv.v = *r.f32("vertices.uvs");
    v.uvs.push_back(uv);
  }
  return v;
}

void write_vertex(ByteWriter& w, const EnvVertex& v) {
  w.u16(v.id);
  w.u16(static_cast<std::uint16_t>(v.uvs.size()));
  write_vec3(w, v.origin);
  write_vec3(w, v.normal);
  for (const auto& uv : v.uvs) {
    w.f32(uv.u);
    w.f32(uv.v);
  }
}

Result<EnvPolygon> read_polygon(ByteReader& r, std::string_view field, std::size_t num_vertices) {
  DERETH_CHECK(r.require(kMinPolygonSize, field));
  EnvPolygon p;
  p.id = *r.u16(field);
  const std::uint8_t num_pts = *r.u8(field);
  p.stippling = *r.u8(field);
  p.sides_type = *r.i32(field);
  p.pos_surface = static_cast<std::int16_t>(*r.u16(field));
  p.neg_surface = static_cast<std::int16_t>(*r.u16(field));
  DERETH_TRY(const std::size_t n, r.checked_count(num_pts, 2, field));
  p.vertex_ids.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t at = r.position();
    const std::uint16_t vid = *r.u16(field);
    if (vid >= num_vertices) {
      return std::unexpected(
          r.error_at(at, ErrorKind::Invalid, field,
                     fmt::format("vertex id {} of polygon {} past the {} vertices", vid, p.id, num_vertices)));
    }
    p.vertex_ids.push_back(vid);
  }
  if (p.has_pos_uvs()) {
    DERETH_TRY(const auto uvs, r.bytes(n, field));
    p.pos_uv_indices.assign(uvs.begin(), uvs.end());
  }
  if (p.has_neg_uvs()) {
    DERETH_TRY(const auto uvs, r.bytes(n, field));
    p.neg_uv_indices.assign(uvs.begin(), uvs.end());
  }
  return p;
}

void write_polygon(ByteWriter& w, const EnvPolygon& p) {
  // numPts is a u8: at most 255 points; UV lists are written with exactly
  // numPts entries (missing ones as 0) so the output always parses.
  const std::size_t n = std::min<std::size_t>(p.vertex_ids.size(), 255);
  w.u16(p.id);
  w.u8(static_cast<std::uint8_t>(n));
  w.u8(p.stippling);
  w.i32(p.sides_type);
  w.u16(static_cast<std::uint16_t>(p.pos_surface));
  w.u16(static_cast<std::uint16_t>(p.neg_surface));
  for (std::size_t i = 0; i < n; ++i) w.u16(p.vertex_ids[i]);
  const auto uv_list = [&](const std::vector<std::uint8_t>& uvs) {
    for (std::size_t i = 0; i < n; ++i) w.u8(i < uvs.size() ? uvs[i] : std::uint8_t{0});
  };
  if (p.has_pos_uvs()) uv_list(p.pos_uv_indices);
  if (p.has_neg_uvs()) uv_list(p.neg_uv_indices);
}

Result<std::vector<EnvPolygon>> read_polygons(ByteReader& r, std::uint32_t count, std::string_view field,
                                              std::size_t num_vertices) {
  DERETH_TRY(const std::size_t n, r.checked_count(count, kMinPolygonSize, field));
  std::vector<EnvPolygon> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    DERETH_TRY(auto p, read_polygon(r, field, num_vertices));
    out.push_back(std::move(p));
  }
  return out;
}

Result<std::vector<std::uint16_t>> read_u16_list(ByteReader& r, std::uint64_t count, std::string_view field) {
  DERETH_TRY(const std::size_t n, r.checked_count(count, 2, field));
  std::vector<std::uint16_t> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(*r.u16(field));
  return out;
}

struct BspReader {
  ByteReader& r;
  TreeType type;
  std::string_view field;
  std::vector<EnvBspNode> nodes;

  // Reads one node (tag first) and its subtree; returns its index.
  Result<std::int32_t> node(int depth) {
    if (depth > kMaxBspDepth) {
      return std::unexpected(
          r.error(ErrorKind::Invalid, field, fmt::format("BSP tree deeper than {} levels", kMaxBspDepth)));
    }
    DERETH_CHECK(r.require(kMinBspNodeSize, field));
    // The bound above keeps nodes.size() below the record size / 8.
    const auto index = static_cast<std::int32_t>(nodes.size());
    const auto at = static_cast<std::size_t>(index);
    nodes.emplace_back();
    const std::uint32_t tag = *r.u32(field);
    nodes[at].tag = tag;
    if (tag == bsp_tag::kLeaf) {
      DERETH_TRY(nodes[at].leaf_index, r.i32(field));
      if (type == TreeType::Physics) {
        DERETH_TRY(nodes[at].solid, r.i32(field));
        DERETH_TRY(nodes[at].sphere, read_sphere(r, field));
        DERETH_TRY(const std::size_t n, read_count(r, 2, field));
        DERETH_TRY(nodes[at].polygons, read_u16_list(r, n, field));
      }
      return index;
    }
    DERETH_TRY(nodes[at].plane, read_plane(r, field));
    const bool port = tag == bsp_tag::kPort;
    if (port || has_pos_child(tag)) {
      DERETH_TRY(const std::int32_t child, node(depth + 1));
      nodes[at].pos = child;
    }
    if (port || has_neg_child(tag)) {
      DERETH_TRY(const std::int32_t child, node(depth + 1));
      nodes[at].neg = child;
    }
    if (port) {
      if (type == TreeType::Drawing) {
        DERETH_TRY(nodes[at].sphere, read_sphere(r, field));
        DERETH_CHECK(r.require(8, field));
        const std::uint32_t num_polys = *r.u32(field);
        const std::uint32_t num_portals = *r.u32(field);
        DERETH_TRY(nodes[at].polygons, read_u16_list(r, num_polys, field));
        DERETH_TRY(const std::size_t np, r.checked_count(num_portals, 4, field));
        nodes[at].portals.reserve(np);
        for (std::size_t i = 0; i < np; ++i) {
          EnvBspPortalRef ref;
          ref.polygon_index = *r.u16(field);
          ref.portal_index = *r.u16(field);
          nodes[at].portals.push_back(ref);
        }
      }
      return index;
    }
    if (type == TreeType::Drawing) {
      DERETH_TRY(nodes[at].sphere, read_sphere(r, field));
      DERETH_TRY(const std::size_t n, read_count(r, 2, field));
      DERETH_TRY(nodes[at].polygons, read_u16_list(r, n, field));
    } else if (type == TreeType::Physics) {
      DERETH_TRY(nodes[at].sphere, read_sphere(r, field));
    }
    return index;
  }
};

Result<EnvBspTree> read_bsp(ByteReader& r, TreeType type, std::string_view field) {
  BspReader reader{r, type, field, {}};
  DERETH_CHECK(reader.node(0));
  return EnvBspTree{std::move(reader.nodes)};
}

void write_bsp_node(ByteWriter& w, const EnvBspTree& tree, std::size_t index, TreeType type, int depth);

void write_child(ByteWriter& w, const EnvBspTree& tree, std::int32_t child, TreeType type, int depth) {
  if (child >= 0 && static_cast<std::size_t>(child) < tree.nodes.size() && depth <= kMaxBspDepth) {
    write_bsp_node(w, tree, static_cast<std::size_t>(child), type, depth);
  } else {
    // A missing child: write a bare LEAF so the output still parses.
    EnvBspTree leaf{{EnvBspNode{}}};
    write_bsp_node(w, leaf, 0, type, depth);
  }
}

void write_bsp_node(ByteWriter& w, const EnvBspTree& tree, std::size_t index, TreeType type, int depth) {
  const EnvBspNode& n = tree.nodes[index];
  w.u32(n.tag);
  if (n.tag == bsp_tag::kLeaf) {
    w.i32(n.leaf_index);
    if (type == TreeType::Physics) {
      w.i32(n.solid);
      write_sphere(w, n.sphere);
      w.u32(static_cast<std::uint32_t>(n.polygons.size()));
      for (const auto p : n.polygons) w.u16(p);
    }
    return;
  }
  write_plane(w, n.plane);
  const bool port = n.tag == bsp_tag::kPort;
  if (port || has_pos_child(n.tag)) write_child(w, tree, n.pos, type, depth + 1);
  if (port || has_neg_child(n.tag)) write_child(w, tree, n.neg, type, depth + 1);
  if (port) {
    if (type == TreeType::Drawing) {
      write_sphere(w, n.sphere);
      w.u32(static_cast<std::uint32_t>(n.polygons.size()));
      w.u32(static_cast<std::uint32_t>(n.portals.size()));
      for (const auto p : n.polygons) w.u16(p);
      for (const auto& ref : n.portals) {
        w.u16(ref.polygon_index);
        w.u16(ref.portal_index);
      }
    }
    return;
  }
  if (type == TreeType::Drawing) {
    write_sphere(w, n.sphere);
    w.u32(static_cast<std::uint32_t>(n.polygons.size()));
    for (const auto p : n.polygons) w.u16(p);
  } else if (type == TreeType::Physics) {
    write_sphere(w, n.sphere);
  }
}

void write_bsp(ByteWriter& w, const EnvBspTree& tree, TreeType type) {
  if (tree.nodes.empty()) {
    write_child(w, tree, -1, type, 0);
    return;
  }
  write_bsp_node(w, tree, 0, type, 0);
}

Result<CellStruct> read_cell_struct(ByteReader& r) {
  CellStruct c;
  DERETH_CHECK(r.require(16, "cells"));
  c.id = *r.u32("cells.id");
  const std::uint32_t num_polygons = *r.u32("cells.num_polygons");
  const std::uint32_t num_physics = *r.u32("cells.num_physics_polygons");
  const std::uint32_t num_portals = *r.u32("cells.num_portals");

  const std::size_t type_at = r.position();
  DERETH_TRY(const std::int32_t vertex_type, r.i32("cells.vertex_type"));
  if (vertex_type != 1) {
    return std::unexpected(r.error_at(type_at, ErrorKind::Unsupported, "cells.vertex_type",
                                      fmt::format("vertex type {} (only 1, CSWVertex, exists)", vertex_type)));
  }
  DERETH_TRY(const std::size_t num_vertices, read_count(r, kMinVertexSize, "cells.num_vertices"));
  c.vertices.reserve(num_vertices);
  for (std::size_t i = 0; i < num_vertices; ++i) {
    DERETH_TRY(auto v, read_vertex(r));
    c.vertices.push_back(std::move(v));
  }
  DERETH_TRY(c.polygons, read_polygons(r, num_polygons, "cells.polygons", num_vertices));
  DERETH_TRY(c.portals, read_u16_list(r, num_portals, "cells.portals"));
  DERETH_CHECK(r.align4("cells.portals.padding"));
  DERETH_TRY(c.cell_bsp, read_bsp(r, TreeType::Cell, "cells.cell_bsp"));
  DERETH_TRY(c.physics_polygons, read_polygons(r, num_physics, "cells.physics_polygons", num_vertices));
  DERETH_TRY(c.physics_bsp, read_bsp(r, TreeType::Physics, "cells.physics_bsp"));
  DERETH_TRY(const std::uint32_t has_drawing, r.u32("cells.has_drawing_bsp"));
  if (has_drawing != 0) {
    DERETH_TRY(auto tree, read_bsp(r, TreeType::Drawing, "cells.drawing_bsp"));
    c.drawing_bsp = std::move(tree);
  }
  DERETH_CHECK(r.align4("cells.padding"));
  return c;
}

void write_cell_struct(ByteWriter& w, const CellStruct& c) {
  w.u32(c.id);
  w.u32(static_cast<std::uint32_t>(c.polygons.size()));
  w.u32(static_cast<std::uint32_t>(c.physics_polygons.size()));
  w.u32(static_cast<std::uint32_t>(c.portals.size()));
  w.i32(1);  // CSWVertex
  w.u32(static_cast<std::uint32_t>(c.vertices.size()));
  for (const auto& v : c.vertices) write_vertex(w, v);
  for (const auto& p : c.polygons) write_polygon(w, p);
  for (const auto p : c.portals) w.u16(p);
  w.align4();
  write_bsp(w, c.cell_bsp, TreeType::Cell);
  for (const auto& p : c.physics_polygons) write_polygon(w, p);
  write_bsp(w, c.physics_bsp, TreeType::Physics);
  w.u32(c.drawing_bsp ? 1U : 0U);
  if (c.drawing_bsp) write_bsp(w, *c.drawing_bsp, TreeType::Drawing);
  w.align4();
}

}  // namespace

Result<Environment> read_environment(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "Environment");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  Environment env;
  env.id = id;
  DERETH_TRY(const std::size_t num_cells, read_count(r, kMinCellStructSize, "num_cells"));
  env.cells.reserve(num_cells);
  for (std::size_t i = 0; i < num_cells; ++i) {
    DERETH_TRY(auto cell, read_cell_struct(r));
    env.cells.push_back(std::move(cell));
  }
  DERETH_CHECK(r.expect_end());
  return env;
}

std::vector<std::uint8_t> write_environment(const Environment& env) {
  ByteWriter w;
  w.u32(env.id);
  w.u32(static_cast<std::uint32_t>(env.cells.size()));
  for (const auto& c : env.cells) write_cell_struct(w, c);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const Environment& env) {
  j.begin_object();
  j.key("type").string("Environment");
  j.key("id").hex(env.id);
  j.key("cells").begin_array();
  for (const auto& c : env.cells) {
    j.begin_object();
    j.key("id").number(c.id);
    j.key("vertices").number(static_cast<std::uint64_t>(c.vertices.size()));
    j.key("polygons").number(static_cast<std::uint64_t>(c.polygons.size()));
    j.key("portals").begin_array();
    for (const auto p : c.portals) j.number(p);
    j.end_array();
    j.key("cell_bsp_nodes").number(static_cast<std::uint64_t>(c.cell_bsp.nodes.size()));
    j.key("physics_polygons").number(static_cast<std::uint64_t>(c.physics_polygons.size()));
    j.key("physics_bsp_nodes").number(static_cast<std::uint64_t>(c.physics_bsp.nodes.size()));
    if (c.drawing_bsp) {
      j.key("drawing_bsp_nodes").number(static_cast<std::uint64_t>(c.drawing_bsp->nodes.size()));
    } else {
      j.key("drawing_bsp_nodes").null();
    }
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

const CellStruct* find_cell_struct(const Environment& env, std::uint32_t id) noexcept {
  for (const auto& c : env.cells) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

}  // namespace dereth::dat
