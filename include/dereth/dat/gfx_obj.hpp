#pragma once
// GfxObj (0x01xxxxxx), CGfxObj::Serialize: a model part's surfaces, vertices,
// polygons and BSP trees. BSP trees are walked iteratively (an explicit stack),
// so a hostile, deeply nested tree cannot exhaust the call stack. Layout:
// docs/dat.md "GfxObj and BSP trees".

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// ---- BSP trees -------------------------------------------------------------

// BSPNODE::pack_tree_type: GfxObj physics = Physics, GfxObj drawing = Drawing;
// CellStruct cell BSP = Cell, physics = Physics, drawing = Drawing.
enum class BspTreeType : std::uint8_t { Drawing = 0, Physics = 1, Cell = 2 };

// Node tags: the u32 reads as reversed ASCII ("LEAF" = 0x4C454146).
inline constexpr std::uint32_t kBspLeaf = 0x4C454146;  // LEAF
inline constexpr std::uint32_t kBspPort = 0x504F5254;  // PORT
inline constexpr std::uint32_t kBspBPnn = 0x42506E6E;  // positive child only
inline constexpr std::uint32_t kBspBPIn = 0x4250496E;  // positive child only
inline constexpr std::uint32_t kBspBpIN = 0x4270494E;  // negative child only
inline constexpr std::uint32_t kBspBpnN = 0x42706E4E;  // negative child only
inline constexpr std::uint32_t kBspBPIN = 0x4250494E;  // both children
inline constexpr std::uint32_t kBspBPnN = 0x42506E4E;  // both children
// Any other tag (BPOL, BPFL, ...) is an internal node without children.

// Which children a tag's node carries (PORT: both; LEAF: none).
[[nodiscard]] bool bsp_tag_has_pos(std::uint32_t tag) noexcept;
[[nodiscard]] bool bsp_tag_has_neg(std::uint32_t tag) noexcept;

// A portal reference in a drawing-tree PORT node: polygon index first, as
// retail reads it.
struct BspPortalRef {
  std::uint16_t poly_index = 0;
  std::uint16_t portal_index = 0;
  bool operator==(const BspPortalRef&) const = default;
};

// One node; which fields are on disk depends on tag and tree type:
// * internal: plane, children, then Drawing: sphere + polys; Physics: sphere;
//   Cell: nothing.
// * LEAF: leaf_index; Physics adds solid, sphere, polys.
// * PORT: plane, pos, neg; Drawing adds sphere, polys, portals.
struct BspNode {
  std::uint32_t tag = kBspLeaf;
  Plane plane;
  // Child node indices into BspTree::nodes, -1 when absent. Nodes are stored
  // in file (pre-)order, so a child's index is always greater than its parent's.
  std::int32_t pos = -1;
  std::int32_t neg = -1;
  std::int32_t leaf_index = 0;
  std::int32_t solid = 0;
  Sphere sphere;
  std::vector<std::uint16_t> polys;  // polygon array indices
  std::vector<BspPortalRef> portals;
  bool operator==(const BspNode&) const = default;
};

struct BspTree {
  std::vector<BspNode> nodes;  // nodes[0] is the root; empty when skipped
  bool operator==(const BspTree&) const = default;
};

// Reads one whole tree (no length prefix).
Result<BspTree> read_bsp_tree(ByteReader& r, BspTreeType type, std::string_view field);
// Walks one whole tree with the same checks, keeping nothing.
Result<void> skip_bsp_tree(ByteReader& r, BspTreeType type, std::string_view field);
// Writes the tree in pre-order. The tag decides which children are written;
// a missing or out-of-order child index (and an empty tree) is written as a
// bare LEAF, so the output always parses.
void write_bsp_tree(ByteWriter& w, const BspTree& tree, BspTreeType type);
void write_json(core::JsonWriter& j, const BspTree& tree);

// ---- GfxObj ----------------------------------------------------------------

struct UvCoord {
  float u = 0;
  float v = 0;
  bool operator==(const UvCoord&) const = default;
};

// SWVertex: u16 id, u16 numUVs, origin, normal, numUVs x (u, v). Polygons
// index vertices by array position, so ids are 0..n-1 in order in valid data
// (kept as stored, not checked).
struct SwVertex {
  std::uint16_t id = 0;
  glm::vec3 origin{0.0F};
  glm::vec3 normal{0.0F};
  std::vector<UvCoord> uvs;
  bool operator==(const SwVertex&) const = default;
};

// CPolygon::UnPack layout: u16 id, u8 numPts, u8 stippling, i32 sidesType,
// i16 posSurface, i16 negSurface, numPts x i16 vertex id, then numPts x u8
// pos UV index unless stippling & NoPos, then numPts x u8 neg UV index only
// when sidesType == 2 and !(stippling & NoNeg). The plane is not stored.
struct Polygon {
  std::uint16_t id = 0;
  std::uint8_t stippling = 0;
  std::int32_t sides_type = 0;  // 0 single, 1 both same, 2 both separate, 3 CCW
  std::int16_t pos_surface = 0;
  std::int16_t neg_surface = 0;
  std::vector<std::int16_t> vertex_ids;  // numPts = size (at most 255)
  std::vector<std::uint8_t> pos_uv_indices;
  std::vector<std::uint8_t> neg_uv_indices;

  static constexpr std::uint8_t kPositive = 0x01;
  static constexpr std::uint8_t kNegative = 0x02;
  static constexpr std::uint8_t kNoPos = 0x04;
  static constexpr std::uint8_t kNoNeg = 0x08;

  [[nodiscard]] bool has_pos_uvs() const noexcept { return (stippling & kNoPos) == 0; }
  [[nodiscard]] bool has_neg_uvs() const noexcept { return sides_type == 2 && (stippling & kNoNeg) == 0; }
  bool operator==(const Polygon&) const = default;
};

struct GfxObj {
  Did id = 0;
  std::uint32_t flags = 0;
  std::vector<Did> surfaces;       // Surface DIDs (0x08...); polygons index this list
  std::vector<SwVertex> vertices;  // VertexArray type 1 (CSWVertex)
  // Present with kHasPhysics.
  std::vector<Polygon> physics_polygons;
  BspTree physics_bsp;          // tree type Physics
  glm::vec3 sort_center{0.0F};  // always present
  // Present with kHasDrawing.
  std::vector<Polygon> polygons;
  BspTree drawing_bsp;  // tree type Drawing
  Did degrade_id = 0;   // GfxObjDegradeInfo (0x11...), present with kHasDidDegrade

  static constexpr std::uint32_t kHasPhysics = 0x1;
  static constexpr std::uint32_t kHasDrawing = 0x2;
  static constexpr std::uint32_t kUnknown4 = 0x4;
  static constexpr std::uint32_t kHasDidDegrade = 0x8;

  bool operator==(const GfxObj&) const = default;
};

enum class BspMode : std::uint8_t {
  Keep,  // store every node
  Skip,  // walk and check the trees, leave physics_bsp/drawing_bsp empty
};

Result<GfxObj> read_gfx_obj(std::span<const std::uint8_t> bytes, Did id, BspMode bsp = BspMode::Keep);
// Sections follow the flags (not the vectors): physics with kHasPhysics,
// drawing with kHasDrawing, degrade_id with kHasDidDegrade. A polygon's
// vertex ids are cut to 255; its UV index lists are written with exactly
// numPts entries (0 for missing ones).
std::vector<std::uint8_t> write_gfx_obj(const GfxObj& obj);
void write_json(core::JsonWriter& j, const GfxObj& obj);

}  // namespace dereth::dat
