#pragma once
// The outdoor cells the transition walks through (retail CLandCell, and
// LScape's cell lookup): each loaded landblock's 64 land cells over its
// LandBlockStruct terrain, and the CellSource the world gives its objects.
// Buildings (CSortCell's building physics BSP) and EnvCells are not here yet.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

#include "dereth/sim/land_block_struct.hpp"
#include "dereth/sim/transition.hpp"

namespace dereth::sim {

// CLandCell: one 24 m outdoor cell of a loaded landblock.
class LandCell final : public ObjCell {
 public:
  LandCell(const LandBlockStruct& block, std::size_t cell_index);

  // CLandCell::find_env_collisions 0x00532F20: the terrain under the foot
  // sphere's low point, through OBJECTINFO::validate_walkable.
  TransitionState find_env_collisions(Transition& t) override;
  // CLandCell::find_collisions 0x00532D60: the terrain, then the building
  // (not ported), then the shadow objects.
  TransitionState find_collisions(Transition& t) override;
  // CLandCell::point_in_cell 0x00532D40
  [[nodiscard]] bool point_in_cell(const glm::vec3& block_local) const override;
  // CObjCell::get_water_depth 0x0052B8A0
  [[nodiscard]] float get_water_depth(const glm::vec3& point) const noexcept;
  [[nodiscard]] WaterType water_type() const noexcept { return block_->cell_water_type(index_); }

 private:
  const LandBlockStruct* block_;
  std::size_t index_;
};

// LScape: the loaded landblocks' land cells, and CObjCell::find_cell_list.
class Landscape final : public CellSource {
 public:
  // Reads a landblock's terrain on demand (0xXXYYFFFF); none when the block
  // is absent or refused (the loader reports why).
  using BlockLoader = std::function<std::optional<LandBlockStruct>(std::uint32_t block_id)>;

  Landscape() = default;
  // With a loader, get_cell loads a block the first time one of its cells
  // is asked for (LScape's landblock loading); a block that fails to load is
  // not asked for again. Loaded blocks stay loaded.
  explicit Landscape(BlockLoader loader) : loader_(std::move(loader)) {}
  // Adds (or replaces, when no object stands in it) a landblock's terrain.
  // Returns false when the block is loaded and still holds shadows.
  bool add_block(LandBlockStruct block);
  [[nodiscard]] std::size_t block_count() const noexcept { return blocks_.size(); }

  // LScape::get_landcell: a land cell of a loaded block, else null.
  [[nodiscard]] ObjCell* get_cell(std::uint32_t cell_id) override;
  // CObjCell::find_cell_list 0x0052B4E0 for outdoor positions.
  void find_cell_list(const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres, CellArray& out,
                      ObjCell*& curr) override;

  // CLandCell::add_all_outside_cells 0x00533630: each sphere's cell and the
  // neighbours its radius reaches.
  void add_all_outside_cells(const Position& p, std::uint32_t num_sphere, const CollisionSphere* spheres,
                             CellArray& out);
  // CLandCell::add_outside_cell 0x00532EC0 (lcoords; off the world: nothing)
  void add_outside_cell(CellArray& out, int x, int y);
  // CLandCell::check_add_cell_boundary 0x00533260
  void check_add_cell_boundary(CellArray& out, const glm::vec2& pt, int x, int y, float in_max, float in_min);

 private:
  struct Block {
    std::unique_ptr<LandBlockStruct> terrain;
    std::vector<std::unique_ptr<LandCell>> cells;
  };
  std::map<std::uint32_t, Block> blocks_;  // by landblock id (0xXXYY0000)
  BlockLoader loader_;
  std::set<std::uint32_t> unavailable_;  // blocks the loader could not give
};

// CELLARRAY::add_cell: once per cell id.
void add_cell(CellArray& out, std::uint32_t cell_id, ObjCell* cell);

}  // namespace dereth::sim
