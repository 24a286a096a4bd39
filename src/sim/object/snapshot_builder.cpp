#include "dereth/sim/object/snapshot_builder.hpp"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <utility>
#include <vector>

#include "dereth/dat/palette.hpp"
#include "dereth/sim/effects/effects_sink.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/player/gm_smart_box_ui.hpp"

namespace dereth::sim {

namespace ps = protocol::physics_state;

void publish_obj_desc(const protocol::ObjDesc& desc, ObjectSnapshot& out) {
  for (const auto& c : desc.texture_changes) {
    if (c.part_index < out.parts.size()) {
      out.parts[c.part_index].texture_changes.push_back({c.old_texture, c.new_texture});
    }
  }
  // Emptied in place: a recycled snapshot's list keeps its storage.
  out.palette.base_palette = 0;
  out.palette.subpalettes.clear();
  if (desc.palettes.empty()) return;
  out.palette.base_palette = desc.base_palette.value_or(0);
  // The composed list, in storage kept between calls (this thread's).
  static thread_local std::vector<dat::Subpalette> list;
  list.clear();
  list.reserve(desc.palettes.size());
  for (const auto& s : desc.palettes) {
    dat::add_subpalette(list, dat::unpack_subpalette(s.palette_id, s.offset, s.num_colors));
  }
  out.palette.subpalettes.reserve(list.size());
  for (const auto& s : list) out.palette.subpalettes.push_back({s.palette, s.offset, s.num_colors});
}

PortalSpace publish_portal_space(const GmSmartBoxUi& ui, double now) noexcept {
  PortalSpace p;
  p.state = ui.state();
  p.visible = ui.portal_space_visible();
  p.fade = static_cast<float>(ui.view_distance());
  p.tunnel_seconds = p.visible ? std::max(0.0, now - ui.portal_anim_start()) : 0.0;
  p.heading_degrees = static_cast<float>(ui.rotation_angle());
  p.enter_sounds = ui.enter_portal_sounds();
  p.exit_sounds = ui.exit_portal_sounds();
  return p;
}

namespace {

// `o` (an object of a recycled snapshot) emptied to a new ObjectSnapshot,
// its part list and subpalette list keeping their storage.
void reset_keeping_storage(ObjectSnapshot& o) {
  std::vector<PartPose> parts = std::move(o.parts);
  parts.clear();
  std::vector<SubpaletteChange> subpalettes = std::move(o.palette.subpalettes);
  subpalettes.clear();
  o = ObjectSnapshot{};
  o.parts = std::move(parts);
  o.palette.subpalettes = std::move(subpalettes);
}

}  // namespace

std::shared_ptr<RenderSnapshot> SnapshotRecycler::acquire() {
  for (const std::shared_ptr<RenderSnapshot>& kept : kept_) {
    // Held only here: whoever held it last has dropped it, and nobody can
    // take a new hold but through this recycler. The fence orders their
    // reads (their release of it) before the writes of this build.
    if (kept.use_count() != 1) continue;
    std::atomic_thread_fence(std::memory_order_acquire);
    RenderSnapshot& s = *kept;
    std::vector<ObjectSnapshot> objects = std::move(s.objects);
    std::vector<EmitterSnapshot> emitters = std::move(s.emitters);
    std::vector<LightSnapshot> lights = std::move(s.lights);
    std::vector<SoundEvent> sounds = std::move(s.sounds);
    lights.clear();
    sounds.clear();
    s = RenderSnapshot{};
    s.objects = std::move(objects);
    s.emitters = std::move(emitters);
    s.lights = std::move(lights);
    s.sounds = std::move(sounds);
    ++reused_;
    return kept;
  }
  auto made = std::make_shared<RenderSnapshot>();
  ++made_;
  if (kept_.size() < keep_) kept_.push_back(made);
  return made;
}

SnapshotPtr build_render_snapshot(const SmartBox& box, const EffectsSink& effects, std::uint64_t tick,
                                  std::span<PhysicsObj* const> statics,
                                  std::shared_ptr<const LandscapeSnapshot> landscape, std::optional<SkyTime> sky,
                                  const GmSmartBoxUi* portal, SnapshotRecycler* recycler) {
  const std::shared_ptr<RenderSnapshot> snapshot =
      recycler != nullptr ? recycler->acquire() : std::make_shared<RenderSnapshot>();
  snapshot->tick = tick;
  snapshot->time = box.context().now();
  if (const PhysicsObj* player = box.player()) snapshot->player = player->local_id();
  const auto& objects = box.objects().objects();
  // A recycled snapshot's objects are written over in order (keeping their
  // storage), then the ones past this build's last are dropped.
  std::vector<ObjectSnapshot>& published = snapshot->objects;
  published.reserve(objects.size());
  std::size_t used = 0;
  // What a server object and a static object publish alike.
  const auto publish = [&](const PhysicsObj& object) -> ObjectSnapshot& {
    if (used == published.size()) {
      published.emplace_back();
    } else {
      reset_keeping_storage(published[used]);
    }
    ObjectSnapshot& o = published[used++];
    o.setup_id = object.setup_id();
    o.cell_id = object.position().objcell_id;
    o.root = global_frame(object.position());
    o.scale = object.scale();
    o.translucency = object.translucency();
    o.hidden = (object.state() & ps::Hidden) != 0;
    o.no_draw = (object.state() & ps::NoDraw) != 0;
    if (const PartArray* parts = object.part_array()) parts->publish_parts(o.root, o.parts);
    publish_obj_desc(object.visual_desc(), o);
    return o;
  };
  // Lights have one home: the part array that InitLights turned on; a light
  // in a cell (CPartArray::AddLightsToCell 0x00517EA0) is one the frame can use.
  const auto publish_lights = [&](const PhysicsObj& object, const ObjectSnapshot& o) {
    const PartArray* parts = object.part_array();
    if (parts == nullptr || !object.in_cell()) return;
    const std::size_t first = snapshot->lights.size();
    parts->publish_lights(o.root, o.id, snapshot->lights);
    const bool is_static = (object.state() & ps::Static) != 0;
    for (std::size_t i = first; i < snapshot->lights.size(); ++i) snapshot->lights[i].is_static = is_static;
  };
  for (const PhysicsObj* object : objects) {
    ObjectSnapshot& o = publish(*object);
    o.id = object->local_id();
    o.guid = object->id();
    o.is_player = object == box.player();
    publish_lights(*object, o);
  }
  for (const auto& object : statics) {
    if (!object->in_cell()) continue;
    ObjectSnapshot& o = publish(*object);
    o.id = LocalId::None;
    o.guid = 0;
    publish_lights(*object, o);
  }
  published.erase(published.begin() + static_cast<std::ptrdiff_t>(used), published.end());
  snapshot->landscape = std::move(landscape);
  snapshot->sky = sky;
  if (portal != nullptr) snapshot->portal = publish_portal_space(*portal, snapshot->time.count());
  effects.publish(*snapshot);
  return snapshot;
}

}  // namespace dereth::sim
