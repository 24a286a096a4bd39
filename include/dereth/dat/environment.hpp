#pragma once
// Environment (0x0Dxxxxxx), the library of cell geometry an EnvCell names, and
// its CellStructs (CEnvironment::UnPack, CCellStruct::UnPack,
// RE:src/PORTAL/ccell/). Layout, validation, and the private Env* vertex /
// polygon / BSP types that twin GfxObj's: docs/dat.md "Environment and
// CellStruct".

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

inline constexpr int kMaxBspDepth = 256;

// BSP node tags (u32 whose bytes read as reversed ASCII).
namespace bsp_tag {
inline constexpr std::uint32_t kLeaf = 0x4C454146;  // "LEAF"
inline constexpr std::uint32_t kPort = 0x504F5254;  // "PORT"
inline constexpr std::uint32_t kBPnn = 0x42506E6E;  // pos child only
inline constexpr std::uint32_t kBPIn = 0x4250496E;  // pos child only
inline constexpr std::uint32_t kBpIN = 0x4270494E;  // neg child only
inline constexpr std::uint32_t kBpnN = 0x42706E4E;  // neg child only
inline constexpr std::uint32_t kBPIN = 0x4250494E;  // pos then neg
inline constexpr std::uint32_t kBPnN = 0x42506E4E;  // pos then neg
// Any other tag: an internal node without children.
// Children: BPnn/BPIn pos only, BpIN/BpnN neg only, BPIN/BPnN pos then neg,
// PORT pos then neg, LEAF none.
}  // namespace bsp_tag

struct EnvUv {
  float u = 0;
  float v = 0;
  bool operator==(const EnvUv&) const = default;
};

// SWVertex: u16 vertexId, u16 numUVs, Vector3 origin, Vector3 normal, UVs.
struct EnvVertex {
  std::uint16_t id = 0;  // should equal the array index (retail ignores it)
  glm::vec3 origin{0.0F};
  glm::vec3 normal{0.0F};
  std::vector<EnvUv> uvs;
  bool operator==(const EnvVertex&) const = default;
};

// Polygon: u16 polyId, u8 numPts, u8 stippling, i32 sidesType, i16 posSurface,
// i16 negSurface, numPts x i16 vertexId, numPts x u8 posUV unless stippling &
// 0x04, numPts x u8 negUV only if sidesType == 2 and !(stippling & 0x08).
struct EnvPolygon {
  std::uint16_t id = 0;
  std::uint8_t stippling = 0;   // 0x01 Positive, 0x02 Negative, 0x04 NoPos, 0x08 NoNeg
  std::int32_t sides_type = 0;  // 0 single, 1 both same, 2 both separate, 3 CCW
  std::int16_t pos_surface = 0;
  std::int16_t neg_surface = 0;              // as stored (retail copies pos_surface when sides_type == 1)
  std::vector<std::uint16_t> vertex_ids;     // numPts = size (at most 255)
  std::vector<std::uint8_t> pos_uv_indices;  // numPts entries when on disk, else empty
  std::vector<std::uint8_t> neg_uv_indices;  // numPts entries when on disk, else empty
  [[nodiscard]] bool has_pos_uvs() const noexcept { return (stippling & 0x04U) == 0; }
  [[nodiscard]] bool has_neg_uvs() const noexcept { return sides_type == 2 && (stippling & 0x08U) == 0; }
  bool operator==(const EnvPolygon&) const = default;
};

struct EnvBspPortalRef {
  std::uint16_t polygon_index = 0;  // read first (retail order)
  std::uint16_t portal_index = 0;
  bool operator==(const EnvBspPortalRef&) const = default;
};

// One BSP node. Which fields are on disk depends on the tag and the tree type:
// * internal (any tag but LEAF/PORT): plane; children per tag; then DRAWING:
//   sphere + polygons, PHYSICS: sphere, CELL: nothing.
// * LEAF: leaf_index; PHYSICS also solid, sphere, polygons.
// * PORT: plane, pos and neg children; DRAWING also sphere, polygons, portals.
// Fields that are not on disk read back as their defaults.
struct EnvBspNode {
  std::uint32_t tag = bsp_tag::kLeaf;
  Plane plane;
  std::int32_t pos = -1;  // index into EnvBspTree::nodes, -1 = none
  std::int32_t neg = -1;
  std::int32_t leaf_index = 0;
  std::int32_t solid = 0;
  Sphere sphere;
  std::vector<std::uint16_t> polygons;  // polygon indices
  std::vector<EnvBspPortalRef> portals;
  bool operator==(const EnvBspNode&) const = default;
};

// A tree flattened in pre-order: nodes[0] is the root. A node's children are
// whatever its tag says; pos/neg must point at them (the writer follows pos
// and neg for the tags that have them).
struct EnvBspTree {
  std::vector<EnvBspNode> nodes;
  bool operator==(const EnvBspTree&) const = default;
};

struct CellStruct {
  std::uint32_t id = 0;             // cellStructId (EnvCell::cell_struct refers to it)
  std::vector<EnvVertex> vertices;  // vertex type 1 (CSWVertex)
  std::vector<EnvPolygon> polygons;
  std::vector<std::uint16_t> portals;  // indices into polygons
  EnvBspTree cell_bsp;                 // tree type CELL
  std::vector<EnvPolygon> physics_polygons;
  EnvBspTree physics_bsp;                 // tree type PHYSICS, indexes physics_polygons
  std::optional<EnvBspTree> drawing_bsp;  // tree type DRAWING, indexes polygons
  bool operator==(const CellStruct&) const = default;
};

struct Environment {
  Did id = 0;
  std::vector<CellStruct> cells;
  bool operator==(const Environment&) const = default;
};

Result<Environment> read_environment(std::span<const std::uint8_t> bytes, Did id);
// Trees must be non-empty (a record always holds a cell and a physics BSP);
// an empty tree is written as a single LEAF.
std::vector<std::uint8_t> write_environment(const Environment& env);
// Per cell struct: id and element / node counts, not the geometry.
void write_json(core::JsonWriter& j, const Environment& env);

[[nodiscard]] const CellStruct* find_cell_struct(const Environment& env, std::uint32_t id) noexcept;

}  // namespace dereth::dat
