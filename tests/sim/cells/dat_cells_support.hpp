// The cells wing over DAT bytes, wired as app::World::use_terrain wires it:
// one RecordCache, the DatObjectFactory, a SmartBox (the object table), and
// a Landscape over a DatLandscapeLoader that a CellManager moves. For the
// tests of the loader's static objects and cell records with DATs built by
// our writer.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/environment.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/sim/cells/cell_manager.hpp"
#include "dereth/sim/cells/dat_landscape_loader.hpp"
#include "dereth/sim/cells/landscape.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"

#include "support/fake_part_array.hpp"

namespace dereth::sim::test {

// The records as an in-memory DAT file of `kind`.
inline std::unique_ptr<dat::DatFile> make_dat(const std::vector<dat::DatRecord>& records, dat::DatKind kind,
                                              const std::string& name) {
  auto bytes = dat::build_dat(records, dat::DatWriterOptions{kind});
  REQUIRE(bytes);
  auto file = dat::DatFile::from_bytes(std::move(*bytes), name);
  REQUIRE(file);
  return std::make_unique<dat::DatFile>(std::move(*file));
}

// A Region (0x13000000) whose land height table is 2 m a step.
inline std::vector<std::uint8_t> linear_region() {
  dat::Region region;
  region.id = 0x13000000;
  for (std::size_t i = 0; i < region.land_defs.land_height_table.size(); ++i) {
    region.land_defs.land_height_table[i] = 2.0f * static_cast<float>(i);
  }
  return dat::write_region(region);
}

// Environment `id` with one CellStruct: a 20 x 20 m floor at z 0 as its one
// physics polygon (no UVs), its physics BSP one leaf, its cell BSP one leaf.
inline dat::Environment floor_room_environment(dat::Did id) {
  dat::CellStruct cs;
  dat::EnvPolygon floor;
  for (const glm::vec3& c : {glm::vec3(0, 0, 0), glm::vec3(20, 0, 0), glm::vec3(20, 20, 0), glm::vec3(0, 20, 0)}) {
    dat::EnvVertex v;
    v.id = static_cast<std::uint16_t>(cs.vertices.size());
    v.origin = c;
    cs.vertices.push_back(v);
    floor.vertex_ids.push_back(static_cast<decltype(floor.vertex_ids)::value_type>(v.id));
  }
  floor.stippling = 0x04;  // no UVs
  cs.physics_polygons = {floor};
  dat::EnvBspNode leaf;
  leaf.tag = dat::bsp_tag::kLeaf;
  leaf.sphere = dat::Sphere{glm::vec3(10, 10, 0), 15.0f};
  leaf.polygons = {0};
  cs.physics_bsp.nodes = {leaf};
  dat::EnvBspNode end;
  end.tag = dat::bsp_tag::kLeaf;
  cs.cell_bsp.nodes = {end};
  dat::Environment env;
  env.id = id;
  env.cells = {cs};
  return env;
}

class DatCells {
 public:
  DatCells(const core::Clock& clock, const dat::DatFile* portal)
      : records_(portal), context_(clock), factory_(records_), box_(context_) {
    context_.set_factory(&factory_);
    box_.set_cell_manager(&cell_manager_);
  }
  DatCells(const DatCells&) = delete;
  DatCells& operator=(const DatCells&) = delete;

  // The landscape over `cell` with the portal's Region (as World::use_terrain),
  // its records built on `executor` (null: inline).
  bool use_terrain(const dat::DatFile* cell, std::unique_ptr<StreamExecutor> executor = nullptr) {
    const auto region = records_.region();
    REQUIRE(region);
    loader_.reset();
    cells_ = std::make_unique<dat::CellRecordCache>(cell);
    auto loader = std::make_unique<DatLandscapeLoader>(*cells_, region->land_defs, dat::kRegionId, records_, factory_,
                                                       context_, std::move(executor));
    landscape_ = std::make_unique<Landscape>(loader.get());
    loader->set_landscape(*landscape_);
    loader_ = std::move(loader);
    landscape_->set_obj_maint(context_.obj_maint);
    cell_manager_.set_landscape(landscape_.get());
    context_.cells = landscape_.get();
    return true;
  }
  bool set_mid_radius(int radius) noexcept { return landscape_ && landscape_->set_mid_radius(radius); }
  // CellManager::ChangePosition 0x004559B0, not blocking.
  void change_position(const Position& p) { cell_manager_.change_position(p, false); }
  [[nodiscard]] const std::vector<PhysicsObj*>& static_objects() const noexcept { return loader_->static_objects(); }
  [[nodiscard]] const std::shared_ptr<const LandscapeSnapshot>& landscape_view() const noexcept {
    return loader_->view();
  }
  [[nodiscard]] SimContext& context() noexcept { return context_; }
  [[nodiscard]] dat::RecordCache& records() noexcept { return records_; }
  [[nodiscard]] SmartBox& box() noexcept { return box_; }
  [[nodiscard]] Landscape* landscape() noexcept { return landscape_.get(); }
  [[nodiscard]] DatLandscapeLoader& loader() noexcept { return *loader_; }
  [[nodiscard]] CellManager& cell_manager() noexcept { return cell_manager_; }

 private:
  dat::RecordCache records_;
  SimContext context_;
  std::unique_ptr<Landscape> landscape_;
  CellManager cell_manager_;
  DatObjectFactory factory_;
  SmartBox box_;
  std::unique_ptr<dat::CellRecordCache> cells_;  // outlives the loader, which reads through it
  // Goes first: the statics' shadows leave the cells.
  std::unique_ptr<DatLandscapeLoader> loader_;
};

// A walker entered at `at` in `cell`. It stands in for the player: its
// position is the load point first (CellManager::ChangePosition, as
// SmartBox::UseTime does with the player's), so the grid around it is loaded.
inline std::unique_ptr<PhysicsObj> walker(DatCells& world, std::uint32_t guid, std::uint32_t cell, glm::vec3 at) {
  world.change_position(Position{cell, core::Frame(at, glm::quat(1, 0, 0, 0))});
  auto obj = std::make_unique<PhysicsObj>(world.context(), guid, LocalId{guid});
  obj->set_part_array(dereth::test::FakePartArray::sphere(0.5f, 0.4f));  // one 0.5 m sphere 0.5 m up, 0.4 m steps
  obj->set_state(protocol::physics_state::Gravity | protocol::physics_state::EdgeSlide, false);
  obj->store_position(Position{cell, core::Frame(at, glm::quat(1, 0, 0, 0))});
  REQUIRE(obj->enter_world(obj->position()));
  return obj;
}

// The grid around `cell` as a player standing there has it:
// CellManager::ChangePosition (SmartBox::UseTime's), the grid moved and
// then the cell's grab pass (the full blocks' statics and lost objects).
inline void load_grid(DatCells& world, std::uint32_t cell) {
  world.change_position(Position{cell, core::Frame(glm::vec3(12, 12, 0), glm::quat(1, 0, 0, 0))});
}

// Moves `w` by `delta` in `moves` moves, committing each transition.
inline void walk(PhysicsObj& w, int moves, glm::vec3 delta) {
  for (int i = 0; i < moves; ++i) {
    Position p = w.position();
    Position next = p;
    next.frame.origin += delta;
    if (auto t = w.transition(&p, next, false)) w.set_position_internal(*t);
  }
}

}  // namespace dereth::sim::test
