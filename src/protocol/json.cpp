#include "dereth/protocol/json.hpp"

#include <fmt/format.h>

namespace dereth::protocol {

using core::JsonWriter;

namespace {

void vec3(JsonWriter& j, const Vec3& v) {
  j.begin_object();
  j.key("x").f32(v.x);
  j.key("y").f32(v.y);
  j.key("z").f32(v.z);
  j.end_object();
}

void quat(JsonWriter& j, const Quat& q) {
  j.begin_object();
  j.key("w").f32(q.w);
  j.key("x").f32(q.x);
  j.key("y").f32(q.y);
  j.key("z").f32(q.z);
  j.end_object();
}

void position(JsonWriter& j, const Position& p) {
  j.begin_object();
  j.key("cell_id").hex(p.cell_id);
  j.key("origin");
  vec3(j, p.origin);
  j.key("orientation");
  quat(j, p.orientation);
  j.end_object();
}

void origin(JsonWriter& j, const Origin& o) {
  j.begin_object();
  j.key("cell_id").hex(o.cell_id);
  j.key("origin");
  vec3(j, o.origin);
  j.end_object();
}

void hex_bytes(JsonWriter& j, std::span<const std::uint8_t> bytes) {
  std::string text;
  text.reserve(bytes.size() * 2);
  for (const auto b : bytes) text += fmt::format("{:02x}", b);
  j.string(text);
}

template <class T>
void opt_hex(JsonWriter& j, std::string_view key, const std::optional<T>& v) {
  if (v) j.key(key).hex(static_cast<std::uint32_t>(*v));
}

template <class T>
void opt_num(JsonWriter& j, std::string_view key, const std::optional<T>& v) {
  if (v) j.key(key).number(*v);
}

void opt_f32(JsonWriter& j, std::string_view key, const std::optional<float>& v) {
  if (v) j.key(key).f32(*v);
}

void opt_vec3(JsonWriter& j, std::string_view key, const std::optional<Vec3>& v) {
  if (v) {
    j.key(key);
    vec3(j, *v);
  }
}

void motion_items(JsonWriter& j, const std::vector<MotionItem>& items) {
  j.begin_array();
  for (const auto& it : items) {
    j.begin_object();
    j.key("command").hex(it.command);
    j.key("packed_sequence").number(it.packed_sequence);
    j.key("speed").f32(it.speed);
    j.end_object();
  }
  j.end_array();
}

void interpreted_state(JsonWriter& j, const InterpretedMotionState& s) {
  j.begin_object();
  j.key("flags").hex(s.flags());
  opt_hex(j, "current_style", s.current_style);
  opt_hex(j, "forward_command", s.forward_command);
  opt_hex(j, "sidestep_command", s.sidestep_command);
  opt_hex(j, "turn_command", s.turn_command);
  opt_f32(j, "forward_speed", s.forward_speed);
  opt_f32(j, "sidestep_speed", s.sidestep_speed);
  opt_f32(j, "turn_speed", s.turn_speed);
  j.key("commands");
  motion_items(j, s.commands);
  j.end_object();
}

void move_to_parameters(JsonWriter& j, const MoveToParameters& p) {
  j.begin_object();
  j.key("bitfield").hex(p.bitfield);
  j.key("distance_to_object").f32(p.distance_to_object);
  j.key("min_distance").f32(p.min_distance);
  j.key("fail_distance").f32(p.fail_distance);
  j.key("speed").f32(p.speed);
  j.key("walk_run_threshold").f32(p.walk_run_threshold);
  j.key("desired_heading").f32(p.desired_heading);
  j.end_object();
}

void turn_to_parameters(JsonWriter& j, const TurnToParameters& p) {
  j.begin_object();
  j.key("bitfield").hex(p.bitfield);
  j.key("speed").f32(p.speed);
  j.key("desired_heading").f32(p.desired_heading);
  j.end_object();
}

void movement_data(JsonWriter& j, const MovementData& m) {
  j.begin_object();
  j.key("movement_type").number(static_cast<std::uint8_t>(m.type()));
  j.key("motion_flags").hex(m.motion_flags);
  j.key("current_style").hex(m.current_style);
  std::visit(
      [&](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, InterpretedMovement>) {
          j.key("interpreted_motion_state");
          interpreted_state(j, p.state);
          opt_hex(j, "sticky_object", p.sticky_object);
        } else if constexpr (std::is_same_v<T, MoveToObject>) {
          j.key("target_guid").hex(p.target_guid);
          j.key("origin");
          origin(j, p.origin);
          j.key("move_to_parameters");
          move_to_parameters(j, p.params);
          j.key("run_rate").f32(p.run_rate);
        } else if constexpr (std::is_same_v<T, MoveToPosition>) {
          j.key("origin");
          origin(j, p.origin);
          j.key("move_to_parameters");
          move_to_parameters(j, p.params);
          j.key("run_rate").f32(p.run_rate);
        } else if constexpr (std::is_same_v<T, TurnToObject>) {
          j.key("target_guid").hex(p.target_guid);
          j.key("desired_heading").f32(p.desired_heading);
          j.key("turn_to_parameters");
          turn_to_parameters(j, p.params);
        } else {
          j.key("turn_to_parameters");
          turn_to_parameters(j, p.params);
        }
      },
      m.payload);
  j.end_object();
}

void obj_desc(JsonWriter& j, const ObjDesc& d) {
  j.begin_object();
  j.key("version").hex(d.version);
  opt_hex(j, "base_palette", d.base_palette);
  j.key("palettes").begin_array();
  for (const auto& p : d.palettes) {
    j.begin_object();
    j.key("palette_id").hex(p.palette_id);
    j.key("offset").number(p.offset);
    j.key("num_colors").number(p.num_colors);
    j.end_object();
  }
  j.end_array();
  j.key("texture_changes").begin_array();
  for (const auto& t : d.texture_changes) {
    j.begin_object();
    j.key("part_index").number(t.part_index);
    j.key("old_texture").hex(t.old_texture);
    j.key("new_texture").hex(t.new_texture);
    j.end_object();
  }
  j.end_array();
  j.key("anim_part_changes").begin_array();
  for (const auto& a : d.anim_part_changes) {
    j.begin_object();
    j.key("part_index").number(a.part_index);
    j.key("gfx_obj_id").hex(a.gfx_obj_id);
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

void physics_desc(JsonWriter& j, const PhysicsDesc& d) {
  j.begin_object();
  j.key("bitfield").hex(d.bitfield);
  j.key("state").hex(d.state);
  if (d.movement) {
    j.key("movement").begin_object();
    j.key("length").number(static_cast<std::uint64_t>(d.movement->bytes.size()));
    j.key("bytes");
    hex_bytes(j, d.movement->bytes);
    if (!d.movement->bytes.empty()) {
      if (auto decoded = decode_movement_buffer(d.movement->bytes)) {
        j.key("movement_data");
        movement_data(j, *decoded);
      } else {
        j.key("movement_data_error").string(decoded.error().message());
      }
    }
    opt_num(j, "autonomous", d.movement->autonomous);
    j.end_object();
  }
  opt_hex(j, "animation_frame", d.animation_frame);
  if (d.position) {
    j.key("position");
    position(j, *d.position);
  }
  opt_hex(j, "motion_table_id", d.motion_table_id);
  opt_hex(j, "sound_table_id", d.sound_table_id);
  opt_hex(j, "physics_script_table_id", d.physics_script_table_id);
  opt_hex(j, "setup_id", d.setup_id);
  if (d.parent) {
    j.key("parent").begin_object();
    j.key("guid").hex(d.parent->parent_guid);
    j.key("location_id").number(d.parent->location_id);
    j.end_object();
  }
  if (d.children) {
    j.key("children").begin_array();
    for (const auto& c : *d.children) {
      j.begin_object();
      j.key("guid").hex(c.guid);
      j.key("location_id").number(c.location_id);
      j.end_object();
    }
    j.end_array();
  }
  opt_f32(j, "object_scale", d.object_scale);
  opt_f32(j, "friction", d.friction);
  opt_f32(j, "elasticity", d.elasticity);
  opt_f32(j, "translucency", d.translucency);
  opt_vec3(j, "velocity", d.velocity);
  opt_vec3(j, "acceleration", d.acceleration);
  opt_vec3(j, "omega", d.omega);
  opt_hex(j, "default_script_type", d.default_script_type);
  opt_f32(j, "default_script_intensity", d.default_script_intensity);
  j.key("timestamps").begin_object();
  for (std::size_t i = 0; i < kTimestampCount; ++i) {
    j.key(kTimestampNames[i]).number(d.timestamps[i]);
  }
  j.end_object();
  j.end_object();
}

void weenie_desc(JsonWriter& j, const WeenieDesc& d) {
  j.begin_object();
  j.key("weenie_flags").hex(d.weenie_flags);
  j.key("name").string(d.name);
  j.key("weenie_class_id").number(d.weenie_class_id);
  j.key("icon_id").hex(d.icon_id);
  j.key("item_type").hex(d.item_type);
  j.key("object_description_flags").hex(d.object_description_flags);
  opt_hex(j, "weenie_flags2", d.weenie_flags2);
  if (d.plural_name) j.key("plural_name").string(*d.plural_name);
  opt_num(j, "items_capacity", d.items_capacity);
  opt_num(j, "containers_capacity", d.containers_capacity);
  opt_num(j, "ammo_type", d.ammo_type);
  opt_num(j, "value", d.value);
  opt_hex(j, "usable", d.usable);
  opt_f32(j, "use_radius", d.use_radius);
  opt_hex(j, "target_type", d.target_type);
  opt_hex(j, "ui_effects", d.ui_effects);
  opt_num(j, "combat_use", d.combat_use);
  opt_num(j, "structure", d.structure);
  opt_num(j, "max_structure", d.max_structure);
  opt_num(j, "stack_size", d.stack_size);
  opt_num(j, "max_stack_size", d.max_stack_size);
  opt_hex(j, "container_id", d.container_id);
  opt_hex(j, "wielder_id", d.wielder_id);
  opt_hex(j, "valid_locations", d.valid_locations);
  opt_hex(j, "currently_wielded_location", d.currently_wielded_location);
  opt_hex(j, "priority", d.priority);
  opt_num(j, "radar_blip_color", d.radar_blip_color);
  opt_num(j, "radar_behavior", d.radar_behavior);
  opt_hex(j, "pscript", d.pscript);
  opt_f32(j, "workmanship", d.workmanship);
  opt_num(j, "burden", d.burden);
  opt_num(j, "spell", d.spell);
  opt_hex(j, "house_owner", d.house_owner);
  if (d.house_restrictions) {
    const auto& h = *d.house_restrictions;
    j.key("house_restrictions").begin_object();
    j.key("version").hex(h.version);
    j.key("open_status").number(h.open_status);
    j.key("monarch_guid").hex(h.monarch_guid);
    j.key("buckets").number(h.buckets);
    j.key("entries").begin_array();
    for (const auto& e : h.entries) {
      j.begin_object();
      j.key("guid").hex(e.guid);
      j.key("value").number(e.value);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  opt_hex(j, "hook_item_types", d.hook_item_types);
  opt_hex(j, "monarch", d.monarch);
  opt_hex(j, "hook_type", d.hook_type);
  opt_hex(j, "icon_overlay", d.icon_overlay);
  opt_hex(j, "icon_underlay", d.icon_underlay);
  opt_num(j, "material_type", d.material_type);
  opt_num(j, "cooldown_id", d.cooldown_id);
  if (d.cooldown_duration) j.key("cooldown_duration").f64(*d.cooldown_duration);
  opt_hex(j, "pet_owner", d.pet_owner);
  j.end_object();
}

void position_pack(JsonWriter& j, const PositionPack& p) {
  j.begin_object();
  j.key("flags").hex(p.flags);
  j.key("cell_id").hex(p.cell_id);
  j.key("origin");
  vec3(j, p.origin);
  opt_f32(j, "qw", p.qw);
  opt_f32(j, "qx", p.qx);
  opt_f32(j, "qy", p.qy);
  opt_f32(j, "qz", p.qz);
  opt_vec3(j, "velocity", p.velocity);
  opt_hex(j, "placement_id", p.placement_id);
  j.key("instance_ts").number(p.instance_ts);
  j.key("position_ts").number(p.position_ts);
  j.key("teleport_ts").number(p.teleport_ts);
  j.key("force_position_ts").number(p.force_position_ts);
  j.end_object();
}

void header(JsonWriter& j, std::uint32_t op) {
  j.key("opcode").hex(op);
  j.key("name").string(message_name(op));
}

struct Writer {
  JsonWriter& j;

  void object(std::uint32_t op, const CreateObject& m) const {
    header(j, op);
    j.key("guid").hex(m.guid);
    j.key("model");
    obj_desc(j, m.model);
    j.key("physics");
    physics_desc(j, m.physics);
    j.key("weenie");
    weenie_desc(j, m.weenie);
  }
  void operator()(const CreateObject& m) const { object(opcode::CreateObject, m); }
  void operator()(const UpdateObject& m) const { object(opcode::UpdateObject, m); }
  void operator()(const PlayerCreate& m) const {
    header(j, opcode::PlayerCreate);
    j.key("guid").hex(m.guid);
  }
  void operator()(const DeleteObject& m) const {
    header(j, opcode::DeleteObject);
    j.key("guid").hex(m.guid);
    j.key("instance_ts").number(m.instance_ts);
  }
  void operator()(const UpdatePosition& m) const {
    header(j, opcode::UpdatePosition);
    j.key("guid").hex(m.guid);
    j.key("position");
    position_pack(j, m.position);
  }
  void operator()(const ParentEvent& m) const {
    header(j, opcode::ParentEvent);
    j.key("parent_guid").hex(m.parent_guid);
    j.key("child_guid").hex(m.child_guid);
    j.key("parent_location").number(m.parent_location);
    j.key("placement").number(m.placement);
    j.key("parent_instance_ts").number(m.parent_instance_ts);
    j.key("child_position_ts").number(m.child_position_ts);
  }
  void operator()(const PickupEvent& m) const {
    header(j, opcode::PickupEvent);
    j.key("guid").hex(m.guid);
    j.key("instance_ts").number(m.instance_ts);
    j.key("position_ts").number(m.position_ts);
  }
  void operator()(const SetState& m) const {
    header(j, opcode::SetState);
    j.key("guid").hex(m.guid);
    j.key("state").hex(m.state);
    j.key("instance_ts").number(m.instance_ts);
    j.key("state_ts").number(m.state_ts);
  }
  void operator()(const MovementEvent& m) const {
    header(j, opcode::Movement);
    j.key("guid").hex(m.guid);
    j.key("instance_ts").number(m.instance_ts);
    j.key("movement_ts").number(m.movement_ts);
    j.key("server_control_ts").number(m.server_control_ts);
    j.key("is_autonomous").number(m.is_autonomous);
    j.key("movement_data");
    movement_data(j, m.data);
  }
  void operator()(const VectorUpdate& m) const {
    header(j, opcode::VectorUpdate);
    j.key("guid").hex(m.guid);
    j.key("velocity");
    vec3(j, m.velocity);
    j.key("omega");
    vec3(j, m.omega);
    j.key("instance_ts").number(m.instance_ts);
    j.key("vector_ts").number(m.vector_ts);
  }
  void operator()(const Sound& m) const {
    header(j, opcode::Sound);
    j.key("guid").hex(m.guid);
    j.key("sound_type").hex(m.sound_type);
    j.key("volume").f32(m.volume);
  }
  void operator()(const PlayerTeleport& m) const {
    header(j, opcode::PlayerTeleport);
    j.key("teleport_ts").number(m.teleport_ts);
  }
  void operator()(const PlayScriptId& m) const {
    header(j, opcode::PlayScriptId);
    j.key("guid").hex(m.guid);
    j.key("script_id").hex(m.script_id);
  }
  void operator()(const PlayScriptType& m) const {
    header(j, opcode::PlayScriptType);
    j.key("guid").hex(m.guid);
    j.key("script_type").hex(m.script_type);
    j.key("intensity").f32(m.intensity());
    j.key("intensity_bits").hex(m.intensity_bits);
  }
  void operator()(const ObjDescEvent& m) const {
    header(j, opcode::ObjDescEvent);
    j.key("guid").hex(m.guid);
    j.key("model");
    obj_desc(j, m.model);
    j.key("instance_ts").number(m.instance_ts);
    j.key("visual_desc_ts").number(m.visual_desc_ts);
  }
  void operator()(const Unknown& m) const {
    j.key("opcode").hex(m.opcode);
    j.key("name").string("Unknown");
    j.key("size").number(static_cast<std::uint64_t>(m.bytes.size()));
  }
};

void echoed(JsonWriter& j, const EchoedTimestamps& t) {
  j.key("instance_ts").number(t.instance_ts);
  j.key("server_control_ts").number(t.server_control_ts);
  j.key("teleport_ts").number(t.teleport_ts);
  j.key("force_position_ts").number(t.force_position_ts);
}

}  // namespace

void write_json(JsonWriter& j, const Message& m) {
  j.begin_object();
  std::visit(Writer{j}, m);
  j.end_object();
}

void write_json(JsonWriter& j, const MoveToState& m) {
  j.begin_object();
  j.key("opcode").hex(opcode::GameAction);
  j.key("action_type").hex(opcode::MoveToState);
  j.key("name").string("MoveToState");
  j.key("sequence").number(m.sequence);
  const auto& s = m.raw;
  j.key("raw_motion_state").begin_object();
  j.key("flags").hex(s.flags());
  opt_hex(j, "current_hold_key", s.current_hold_key);
  opt_hex(j, "current_style", s.current_style);
  opt_hex(j, "forward_command", s.forward_command);
  opt_hex(j, "forward_hold_key", s.forward_hold_key);
  opt_f32(j, "forward_speed", s.forward_speed);
  opt_hex(j, "sidestep_command", s.sidestep_command);
  opt_hex(j, "sidestep_hold_key", s.sidestep_hold_key);
  opt_f32(j, "sidestep_speed", s.sidestep_speed);
  opt_hex(j, "turn_command", s.turn_command);
  opt_hex(j, "turn_hold_key", s.turn_hold_key);
  opt_f32(j, "turn_speed", s.turn_speed);
  j.key("commands");
  motion_items(j, s.commands);
  j.end_object();
  j.key("position");
  position(j, m.position);
  echoed(j, m.timestamps);
  j.key("contact_long_jump").number(m.contact_long_jump);
  j.end_object();
}

void write_json(JsonWriter& j, const AutonomousPosition& m) {
  j.begin_object();
  j.key("opcode").hex(opcode::GameAction);
  j.key("action_type").hex(opcode::AutonomousPosition);
  j.key("name").string("AutonomousPosition");
  j.key("sequence").number(m.sequence);
  j.key("position");
  position(j, m.position);
  echoed(j, m.timestamps);
  j.key("contact").number(m.contact);
  j.end_object();
}

std::string to_json(const Message& m) {
  JsonWriter j;
  write_json(j, m);
  return j.str();
}

}  // namespace dereth::protocol
