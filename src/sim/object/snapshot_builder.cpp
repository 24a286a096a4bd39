#include "dereth/sim/object/snapshot_builder.hpp"

#include <algorithm>

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
  out.palette = {};
  if (desc.palettes.empty()) return;
  out.palette.base_palette = desc.base_palette.value_or(0);
  std::vector<dat::Subpalette> list;
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

SnapshotPtr build_render_snapshot(const SmartBox& box, const EffectsSink& effects, std::uint64_t tick,
                                  std::span<PhysicsObj* const> statics,
                                  std::shared_ptr<const LandscapeSnapshot> landscape, std::optional<SkyTime> sky,
                                  const GmSmartBoxUi* portal) {
  auto snapshot = std::make_shared<RenderSnapshot>();
  snapshot->tick = tick;
  snapshot->time = box.context().now();
  if (const PhysicsObj* player = box.player()) snapshot->player = player->local_id();
  const auto& objects = box.objects().objects();
  snapshot->objects.reserve(objects.size());
  // What a server object and a static object publish alike.
  const auto publish = [&](const PhysicsObj& object) -> ObjectSnapshot& {
    ObjectSnapshot& o = snapshot->objects.emplace_back();
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
  snapshot->landscape = std::move(landscape);
  snapshot->sky = sky;
  if (portal != nullptr) snapshot->portal = publish_portal_space(*portal, snapshot->time.count());
  effects.publish(*snapshot);
  return snapshot;
}

}  // namespace dereth::sim
