// SnapshotRecycler (snapshot_builder.hpp): a snapshot built in the storage of
// one that nobody holds any more shows exactly what a new one shows, a
// snapshot still held is never written, and a steady world builds its
// snapshots without allocating.
#include <catch2/catch.hpp>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/digest.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"

#include "alloc_counter.hpp"
#include "bench/bench_world.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kCell = 0xA9B40021;

// Walking humanoids of the demo world (their parts posed every tick, some
// with an ObjDesc's texture changes and subpalettes) and floating owners of
// the many-particle emitter, ticked at 30 Hz.
struct Scene {
  Scene()
      : demo(std::move(*demo::build_demo_world())),
        portal(std::move(*dat::DatFile::from_bytes(std::move(demo.portal), "demo portal"))),
        emitter_portal(bench::emitter_portal(bench::dense_emitter_info())),
        records(&portal),
        emitter_records(&emitter_portal),
        factory(records),
        context(clock),
        effects(&emitter_records),
        box(context) {
    context.set_effects(&effects);
    context.set_factory(&factory);
    box.handle(protocol::PlayerCreate{kPlayer});
    box.handle(bench::humanoid(kPlayer, kCell, {96.0f, 96.0f, 20.0f}));
  }

  void add_humanoid(std::uint32_t guid, bool dressed) {
    const float x = 70.0f + static_cast<float>(guid % 16) * 1.5f;
    const float y = 70.0f + static_cast<float>((guid / 16) % 16) * 1.5f;
    protocol::CreateObject m = bench::humanoid(guid, kCell, {x, y, 20.0f});
    if (dressed) {
      m.model.texture_changes = {{0, 0x05000010, 0x05000011}, {2, 0x05000012, 0x05000013}};
      m.model.base_palette = 0x04000001;
      m.model.palettes = {{0x04000002, 0, 4}, {0x04000003, 2, 1}};
    }
    box.handle(m);
    bench::start_walking(box, guid, kCell, {x, y, 20.0f});
  }

  // A floating owner of `emitters` many-particle emitters; their ids.
  std::vector<std::uint32_t> add_emitters(std::uint32_t guid, int emitters) {
    box.handle(
        bench::floating_object(guid, kCell, {90.0f, 90.0f + static_cast<float>(guid % 8), 40.0f}, {0.5f, 0.0f, 0.0f}));
    std::vector<std::uint32_t> ids;
    PhysicsObj* owner = box.get_object(guid);
    REQUIRE(owner != nullptr);
    for (int i = 0; i < emitters; ++i) {
      ids.push_back(effects.create_particle_emitter(*owner, bench::kDenseEmitter, kRootPart, dat::Frame{}, 0));
    }
    return ids;
  }

  void tick() {
    t += core::exact_frame_step(30.0);
    clock.set(core::Seconds{t});
    box.use_time();
  }

  SnapshotPtr build(SnapshotRecycler* recycler) const {
    return build_render_snapshot(box, effects, box.physics().tick_count(), {}, {}, std::nullopt, nullptr, recycler);
  }

  demo::DemoWorld demo;
  dat::DatFile portal;
  dat::DatFile emitter_portal;
  dat::RecordCache records;
  dat::RecordCache emitter_records;
  DatObjectFactory factory;
  core::ManualClock clock;
  SimContext context;
  Effects effects;
  SmartBox box;
  double t = 0.0;
};

bool same_frame(const core::Frame& a, const core::Frame& b) {
  return a.origin == b.origin && a.orientation() == b.orientation();
}

// Everything a snapshot shows, field by field.
void check_same(const RenderSnapshot& recycled, const RenderSnapshot& fresh) {
  CHECK(recycled.tick == fresh.tick);
  CHECK(recycled.time == fresh.time);
  CHECK(recycled.player == fresh.player);
  REQUIRE(recycled.objects.size() == fresh.objects.size());
  for (std::size_t i = 0; i < fresh.objects.size(); ++i) {
    const ObjectSnapshot& a = recycled.objects[i];
    const ObjectSnapshot& b = fresh.objects[i];
    CHECK(a.id == b.id);
    CHECK(a.guid == b.guid);
    CHECK(a.setup_id == b.setup_id);
    CHECK(a.cell_id == b.cell_id);
    CHECK(same_frame(a.root, b.root));
    CHECK(a.palette == b.palette);
    CHECK(a.scale == b.scale);
    CHECK(a.translucency == b.translucency);
    CHECK(a.hidden == b.hidden);
    CHECK(a.no_draw == b.no_draw);
    CHECK(a.is_player == b.is_player);
    REQUIRE(a.parts.size() == b.parts.size());
    for (std::size_t k = 0; k < b.parts.size(); ++k) {
      CHECK(a.parts[k].gfx_obj == b.parts[k].gfx_obj);
      CHECK(same_frame(a.parts[k].frame, b.parts[k].frame));
      CHECK(a.parts[k].scale == b.parts[k].scale);
      CHECK(a.parts[k].translucency == b.parts[k].translucency);
      CHECK(a.parts[k].no_draw == b.parts[k].no_draw);
      CHECK(a.parts[k].texture_changes == b.parts[k].texture_changes);
    }
  }
  REQUIRE(recycled.emitters.size() == fresh.emitters.size());
  for (std::size_t i = 0; i < fresh.emitters.size(); ++i) {
    const EmitterSnapshot& a = recycled.emitters[i];
    const EmitterSnapshot& b = fresh.emitters[i];
    CHECK(a.owner == b.owner);
    CHECK(a.emitter_info_id == b.emitter_info_id);
    CHECK(a.logical_id == b.logical_id);
    CHECK(a.gfx_obj == b.gfx_obj);
    CHECK(a.world_space == b.world_space);
    REQUIRE(a.particles.size() == b.particles.size());
    for (std::size_t k = 0; k < b.particles.size(); ++k) {
      CHECK(a.particles[k].position == b.particles[k].position);
      CHECK(a.particles[k].scale == b.particles[k].scale);
      CHECK(a.particles[k].alpha == b.particles[k].alpha);
      CHECK(a.particles[k].orientation == b.particles[k].orientation);
    }
  }
  CHECK(recycled.lights.size() == fresh.lights.size());
  CHECK(recycled.sounds == fresh.sounds);
  CHECK(snapshot_digest(recycled) == snapshot_digest(fresh));
}

}  // namespace

TEST_CASE(
    "SnapshotRecycler: a snapshot built in a dropped one shows what a new snapshot shows while objects and emitters "
    "come and go, and one still held is never written",
    "[sim][snapshot]") {
  Scene scene;
  for (std::uint32_t i = 0; i < 12; ++i) scene.add_humanoid(0x80000000u + i, i % 3 == 0);
  std::vector<std::uint32_t> emitters = scene.add_emitters(0x81000000u, 4);
  SnapshotRecycler recycler;
  SnapshotPtr held;  // the last one, held as World holds it while the next is built
  std::uint64_t held_digest = 0;
  for (int n = 1; n <= 60; ++n) {
    scene.tick();
    // Fewer and more objects and emitters than the recycled snapshots held.
    if (n == 15) {
      for (std::uint32_t i = 0; i < 12; i += 2) scene.box.handle(protocol::DeleteObject{0x80000000u + i, 1});
      PhysicsObj* owner = scene.box.get_object(0x81000000u);
      REQUIRE(owner != nullptr);
      CHECK(scene.effects.destroy_particle_emitter(*owner, emitters[1]));
      CHECK(scene.effects.destroy_particle_emitter(*owner, emitters[2]));
    }
    if (n == 30) {
      for (std::uint32_t i = 12; i < 30; ++i) scene.add_humanoid(0x80000000u + i, i % 2 == 0);
      (void)scene.add_emitters(0x81000001u, 6);
    }
    if (n == 45) {
      for (std::uint32_t i = 12; i < 30; i += 3) scene.box.handle(protocol::DeleteObject{0x80000000u + i, 1});
    }
    INFO("tick " << n);
    const SnapshotPtr fresh = scene.build(nullptr);
    const SnapshotPtr recycled = scene.build(&recycler);
    CHECK(recycled != held);
    if (held) CHECK(snapshot_digest(*held) == held_digest);  // not written while held
    check_same(*recycled, *fresh);
    held = recycled;
    held_digest = snapshot_digest(*held);
  }
  // The scene really published what the comparison covers.
  CHECK(held->objects.size() > 20);
  CHECK(held->emitters.size() == 8);
  bool dressed = false;
  for (const ObjectSnapshot& o : held->objects) dressed = dressed || !o.palette.subpalettes.empty();
  CHECK(dressed);
  // Two snapshots alternate: the one held and the one being built.
  CHECK(recycler.made() == 2);
  CHECK(recycler.reused() == 58);
}

TEST_CASE("SnapshotRecycler: a world whose snapshots are all held gets new ones beyond the ones it keeps",
          "[sim][snapshot]") {
  Scene scene;
  (void)scene.add_emitters(0x81000000u, 1);
  SnapshotRecycler recycler(2);
  std::vector<SnapshotPtr> held;
  for (int n = 1; n <= 5; ++n) {
    scene.tick();
    held.push_back(scene.build(&recycler));
    for (std::size_t i = 0; i + 1 < held.size(); ++i) CHECK(held[i] != held.back());
  }
  CHECK(recycler.made() == 5);
  CHECK(recycler.reused() == 0);
  // The two it kept come back once dropped; the other three were never kept.
  const RenderSnapshot* first = held[0].get();
  held.clear();
  scene.tick();
  const SnapshotPtr next = scene.build(&recycler);
  CHECK(next.get() == first);
  CHECK(recycler.reused() == 1);
  CHECK(next->emitters.size() == 1);
  CHECK(next->tick == scene.box.physics().tick_count());
}

TEST_CASE(
    "build_render_snapshot with a SnapshotRecycler allocates nothing in steady state (100 emitters x 200 particles, "
    "50 walking humanoids)",
    "[sim][snapshot][alloc]") {
  Scene scene;
  for (std::uint32_t i = 0; i < 50; ++i) scene.add_humanoid(0x80000000u + i, false);
  for (std::uint32_t i = 0; i < 10; ++i) (void)scene.add_emitters(0x81000000u + i, 10);
  SnapshotRecycler recycler;
  SnapshotPtr held;
  for (int n = 1; n <= 60; ++n) {  // warm up: slots die and are reborn, the lists reach their size
    scene.tick();
    held = scene.build(&recycler);
    scene.effects.clear_sound_events();
  }
  std::size_t particles = 0;
  for (const EmitterSnapshot& e : held->emitters) particles += e.particles.size();
  CHECK(particles > 15000);
  CHECK(held->objects.size() == 61);  // the player, the humanoids, the emitters' owners
  long allocations = 0;
  for (int n = 61; n <= 90; ++n) {
    scene.tick();
    sim::test::start_counting_allocations();
    held = scene.build(&recycler);
    allocations += sim::test::stop_counting_allocations();
    scene.effects.clear_sound_events();
  }
  if (sim::test::kCountingAllocations) {
    CHECK(allocations == 0);
  } else {
    WARN("allocations are not counted under AddressSanitizer");
  }
  CHECK(recycler.made() == 2);
}
