#include "dereth/protocol/json.hpp"

#include <array>
#include <limits>

#include <fmt/format.h>

#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/protocol/combat.hpp"
#include "dereth/protocol/house.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/magic.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/protocol/player_description.hpp"

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

void house_restrictions(JsonWriter& j, const HouseRestrictions& h) {
  j.begin_object();
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
    j.key("house_restrictions");
    house_restrictions(j, *d.house_restrictions);
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
  // The game events and chat as the dispatcher keeps them; their whole
  // view comes from write_any_json over their bytes.
  void event(std::uint32_t type, std::string_view name) const {
    j.key("opcode").hex(opcode::GameEvent);
    j.key("event_type").hex(type);
    j.key("name").string(name);
  }
  void operator()(const PlayerDescription&) const { event(login_opcode::PlayerDescriptionEvent, "PlayerDescription"); }
  void operator()(const UpdateRestrictions& m) const {
    event(house_event::UpdateRestrictions, "UpdateRestrictions");
    j.key("object").hex(m.object);
  }
  void operator()(const AttackDone& m) const {
    event(combat_event::AttackDone, "AttackDone");
    j.key("error").hex(m.error);
  }
  void operator()(const CombatCommenceAttack&) const {
    event(combat_event::CombatCommenceAttack, "CombatCommenceAttack");
  }
  void stat(std::uint32_t op, std::string_view name, std::uint8_t wts, std::uint32_t stype) const {
    j.key("opcode").hex(op);
    j.key("name").string(name);
    j.key("wts").number(wts);
    j.key("stype").number(stype);
  }
  void operator()(const PrivateUpdateAttribute& m) const {
    stat(quality_opcode::PrivateUpdateAttribute, "PrivateUpdateAttribute", m.wts, m.stype);
    j.key("level_from_cp").number(m.value.level_from_cp);
    j.key("init_level").number(m.value.init_level);
    j.key("cp_spent").number(m.value.cp_spent);
  }
  void operator()(const PrivateUpdateAttribute2nd& m) const {
    stat(quality_opcode::PrivateUpdateAttribute2nd, "PrivateUpdateAttribute2nd", m.wts, m.stype);
    j.key("level_from_cp").number(m.value.level_from_cp);
    j.key("init_level").number(m.value.init_level);
    j.key("cp_spent").number(m.value.cp_spent);
    j.key("current_level").number(m.value.current_level);
  }
  void operator()(const PrivateUpdateSkill& m) const {
    stat(quality_opcode::PrivateUpdateSkill, "PrivateUpdateSkill", m.wts, m.stype);
    j.key("level_from_pp").number(m.value.level_from_pp);
    j.key("sac").number(m.value.sac);
    j.key("pp").number(m.value.pp);
    j.key("init_level").number(m.value.init_level);
  }
  void operator()(const PrivateUpdateStatLevel& m) const {
    stat(m.opcode, "PrivateUpdateStatLevel", m.wts, m.stype);
    j.key("value").number(m.value);
  }
  void operator()(const QueryHealthResponse& m) const {
    event(player_event::QueryHealthResponse, "QueryHealthResponse");
    j.key("target").hex(m.target);
    j.key("health").f32(m.health);
  }
  void operator()(const MagicUpdateEnchantments& m) const {
    event(m.event, "MagicUpdateEnchantment");
    j.key("count").number(static_cast<std::uint64_t>(m.enchantments.size()));
  }
  void operator()(const MagicRemoveEnchantments& m) const {
    event(m.event, "MagicRemoveEnchantment");
    j.key("count").number(static_cast<std::uint64_t>(m.spells.size()));
  }
  void operator()(const MagicPurgeEnchantments& m) const {
    event(m.bad_only ? magic_event::PurgeBadEnchantments : magic_event::PurgeEnchantments, "MagicPurgeEnchantments");
  }
  void operator()(const MagicUpdateSpell& m) const {
    event(magic_event::UpdateSpell, "MagicUpdateSpell");
    j.key("spell").number(m.spell);
  }
  void operator()(const MagicRemoveSpell& m) const {
    event(magic_event::RemoveSpell, "MagicRemoveSpell");
    j.key("spell").number(m.spell);
  }
  void operator()(const UseDone& m) const {
    event(player_event::UseDone, "UseDone");
    j.key("error").hex(m.error);
  }
  void operator()(const PlayerKilled& m) const {
    j.key("opcode").hex(quality_opcode::PlayerKilled);
    j.key("name").string("PlayerKilled");
    j.key("text").string(sanitize_server_text(m.text));
    j.key("victim").hex(m.victim);
    j.key("killer").hex(m.killer);
  }
  void operator()(const ChatMessage& m) const {
    j.key("opcode").hex(m.opcode);
    j.key("name").string("ChatLine");
    j.key("channel").string(m.line.channel);
    j.key("sender").string(m.line.sender);
    j.key("text").string(m.line.text);
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

// ---- Every other message dereth decodes: login, chat, combat, movement, the
// PlayerDescription. Each writer decodes with the protocol's own decoder
// first and writes nothing when it fails.

namespace {

using Body = std::span<const std::uint8_t>;

// Strings travel as CP1252: JSON carries them as UTF-8, control characters
// dropped (the chat window's rule), never cut.
void text(JsonWriter& j, std::string_view key, std::string_view cp1252) {
  j.key(key).string(sanitize_chat_text(cp1252, cp1252.size() * 3 + 1));
}

// The wrappers' headers, read after the decoder has accepted the body.
void event_header(JsonWriter& j, Body body, std::string_view name) {
  ByteReader r(body, "F7B0 GameEvent");
  const std::uint32_t op = r.u32("opcode").value_or(0);
  const std::uint32_t target = r.u32("target").value_or(0);
  const std::uint32_t sequence = r.u32("sequence").value_or(0);
  const std::uint32_t type = r.u32("event_type").value_or(0);
  j.key("opcode").hex(op);
  j.key("event_type").hex(type);
  j.key("name").string(name);
  j.key("target").hex(target);
  j.key("sequence").number(sequence);
}

void action_header(JsonWriter& j, Body body, std::string_view name) {
  ByteReader r(body, "F7B1 GameAction");
  const std::uint32_t op = r.u32("opcode").value_or(0);
  const std::uint32_t sequence = r.u32("sequence").value_or(0);
  const std::uint32_t type = r.u32("action_type").value_or(0);
  j.key("opcode").hex(op);
  j.key("action_type").hex(type);
  j.key("name").string(name);
  j.key("sequence").number(sequence);
}

void top_header(JsonWriter& j, Body body, std::string_view name) {
  j.key("opcode").hex(peek_opcode(body));
  j.key("name").string(name);
}

// A message whose whole body is its opcode (and wrapper header): anything
// after it is an error.
Result<void> expect_only_header(Body body, std::size_t header, std::string_view what) {
  ByteReader r(body, what);
  DERETH_CHECK(r.skip(header, "header"));
  return r.expect_end();
}

template <class V>
void table(JsonWriter& j, std::string_view key, const std::vector<std::pair<std::uint32_t, V>>& rows,
           void (*value)(JsonWriter&, const V&)) {
  j.key(key).begin_object();
  for (const auto& [k, v] : rows) {
    j.key(std::to_string(k));
    value(j, v);
  }
  j.end_object();
}

void enchantment(JsonWriter& j, const EnchantmentWire& e) {
  static constexpr std::array<std::string_view, 4> kLists = {"multiplicative", "additive", "cooldown", "vitae"};
  j.begin_object();
  j.key("list").string(kLists[static_cast<std::size_t>(e.list) % kLists.size()]);
  j.key("spell_id").number(e.spell_id);
  j.key("layer").number(e.layer);
  j.key("category").number(e.category);
  j.key("has_spell_set_id").number(e.has_spell_set_id);
  j.key("power_level").number(e.power_level);
  j.key("start_time").f64(e.start_time);
  j.key("duration").f64(e.duration);
  j.key("caster").hex(e.caster);
  j.key("degrade_modifier").f32(e.degrade_modifier);
  j.key("degrade_limit").f32(e.degrade_limit);
  j.key("last_time_degraded").f64(e.last_time_degraded);
  j.key("stat_mod_type").hex(e.stat_mod_type);
  j.key("stat_mod_key").number(e.stat_mod_key);
  j.key("stat_mod_value").f32(e.stat_mod_value);
  if (e.has_spell_set_id != 0) j.key("spell_set_id").number(e.spell_set_id);
  j.end_object();
}

Result<void> player_description(JsonWriter& j, Body body) {
  DERETH_TRY(const PlayerDescription m, decode_player_description(body));
  j.begin_object();
  event_header(j, body, "PlayerDescription");
  j.key("property_flags").hex(m.property_flags);
  j.key("weenie_type").number(m.weenie_type);
  table<std::int32_t>(j, "ints", m.ints, [](JsonWriter& w, const std::int32_t& v) { w.number(v); });
  table<std::int64_t>(j, "int64s", m.int64s, [](JsonWriter& w, const std::int64_t& v) { w.number(v); });
  table<std::int32_t>(j, "bools", m.bools, [](JsonWriter& w, const std::int32_t& v) { w.number(v); });
  table<double>(j, "floats", m.floats, [](JsonWriter& w, const double& v) { w.f64(v); });
  j.key("strings").begin_object();
  for (const auto& [k, v] : m.strings) text(j, std::to_string(k), v);
  j.end_object();
  table<std::uint32_t>(j, "data_ids", m.data_ids, [](JsonWriter& w, const std::uint32_t& v) { w.hex(v); });
  table<std::uint32_t>(j, "instance_ids", m.instance_ids, [](JsonWriter& w, const std::uint32_t& v) { w.hex(v); });
  table<Position>(j, "positions", m.positions, [](JsonWriter& w, const Position& v) { position(w, v); });
  j.key("vector_flags").hex(m.vector_flags);
  j.key("has_health").number(m.has_health);
  static constexpr std::array<std::string_view, 6> kAttributes = {"strength",     "endurance", "quickness",
                                                                  "coordination", "focus",     "self"};
  j.key("attributes").begin_object();
  for (std::size_t i = 0; i < m.attributes.size(); ++i) {
    if (!m.attributes[i]) continue;
    const AttributeWire& a = *m.attributes[i];
    j.key(kAttributes[i]).begin_object();
    j.key("level_from_cp").number(a.level_from_cp);
    j.key("init_level").number(a.init_level);
    j.key("cp_spent").number(a.cp_spent);
    j.end_object();
  }
  j.end_object();
  static constexpr std::array<std::string_view, 3> kVitals = {"health", "stamina", "mana"};
  j.key("vitals").begin_object();
  for (std::size_t i = 0; i < m.vitals.size(); ++i) {
    if (!m.vitals[i]) continue;
    const SecondaryAttributeWire& v = *m.vitals[i];
    j.key(kVitals[i]).begin_object();
    j.key("level_from_cp").number(v.level_from_cp);
    j.key("init_level").number(v.init_level);
    j.key("cp_spent").number(v.cp_spent);
    j.key("current_level").number(v.current_level);
    j.end_object();
  }
  j.end_object();
  j.key("skill_buckets").number(m.skill_buckets);
  table<SkillWire>(j, "skills", m.skills, [](JsonWriter& w, const SkillWire& s) {
    w.begin_object();
    w.key("level_from_pp").number(s.level_from_pp);
    w.key("adjusted").number(s.adjusted);
    w.key("sac").number(s.sac);
    w.key("pp").number(s.pp);
    w.key("init_level").number(s.init_level);
    w.key("resistance_of_last_check").number(s.resistance_of_last_check);
    w.key("last_used").f64(s.last_used);
    w.end_object();
  });
  j.key("spell_buckets").number(m.spell_buckets);
  table<float>(j, "spells", m.spells, [](JsonWriter& w, const float& v) { w.f32(v); });
  j.key("enchantments").begin_array();
  for (const auto& e : m.enchantments) enchantment(j, e);
  j.end_array();
  if (m.options) {
    j.key("options").begin_object();
    j.key("option_flags").hex(m.options->option_flags);
    j.key("options1").hex(m.options->options1);
    j.end_object();
  }
  if (m.spell_lists) {
    // The shortcut bar, then the spell bar's favourites lists (one array a tab).
    j.key("shortcuts").begin_array();
    for (const ShortcutWire& sc : m.spell_lists->shortcuts) {
      j.begin_object();
      j.key("index").number(sc.index);
      j.key("object_id").hex(sc.object_id);
      j.key("spell_id").number(sc.spell_id);
      j.key("layer").number(sc.layer);
      j.end_object();
    }
    j.end_array();
    j.key("favorite_spells").begin_array();
    for (const auto& list : m.spell_lists->favorite_spells) {
      j.begin_array();
      for (const std::uint32_t spell : list) j.number(spell);
      j.end_array();
    }
    j.end_array();
  }
  j.end_object();
  return {};
}

Result<void> hear_direct_speech(JsonWriter& j, Body body) {
  DERETH_TRY(const HearDirectSpeech m, decode_hear_direct_speech(body));
  j.begin_object();
  event_header(j, body, "HearDirectSpeech");
  text(j, "text", m.text);
  text(j, "sender", m.sender);
  j.key("sender_id").hex(m.sender_id);
  j.key("target_id").hex(m.target_id);
  j.key("chat_type").hex(m.chat_type);
  j.key("channel").string(chat_channel_name(m.chat_type));
  j.key("secret_flags").hex(m.secret_flags);
  j.end_object();
  return {};
}

Result<void> channel_broadcast(JsonWriter& j, Body body) {
  DERETH_TRY(const ChannelBroadcast m, decode_channel_broadcast(body));
  j.begin_object();
  event_header(j, body, "ChannelBroadcast");
  j.key("channel").hex(m.channel);
  text(j, "sender", m.sender);
  text(j, "text", m.text);
  j.end_object();
  return {};
}

Result<void> weenie_error(JsonWriter& j, Body body) {
  DERETH_TRY(const WeenieError m, decode_weenie_error(body));
  j.begin_object();
  event_header(j, body, m.text ? "WeenieErrorWithString" : "WeenieError");
  j.key("code").hex(m.code);
  if (m.text) text(j, "text", *m.text);
  j.end_object();
  return {};
}

Result<void> status_string(JsonWriter& j, Body body) {
  DERETH_TRY(const StatusString m, decode_status_string(body));
  j.begin_object();
  event_header(j, body, m.popup ? "PopupString" : "TransientString");
  text(j, "text", m.text);
  j.end_object();
  return {};
}

Result<void> attack_done(JsonWriter& j, Body body) {
  DERETH_TRY(const AttackDone m, decode_attack_done(body));
  j.begin_object();
  event_header(j, body, "AttackDone");
  j.key("error").hex(m.error);
  j.end_object();
  return {};
}

Result<void> combat_notification(JsonWriter& j, Body body) {
  DERETH_TRY(const CombatNotification m, decode_combat_notification(body));
  j.begin_object();
  event_header(j, body, combat_notification_name(m.event));
  const bool told = m.event == combat_event::KillerNotification || m.event == combat_event::VictimNotification;
  text(j, told ? "text" : "who", m.name);  // the server's sentence, or the other side of the strike
  if (combat_notification_has_damage(m.event)) {
    j.key("damage_type").hex(m.damage_type);
    j.key("health_fraction").f64(m.health_fraction);
    j.key("damage").number(m.damage);
    if (m.event == combat_event::DefenderNotification) j.key("location").number(m.location);
    j.key("critical").boolean(m.critical);
    j.key("conditions").number(m.conditions);
  }
  text(j, "sentence", combat_notification_text(m));
  j.end_object();
  return {};
}

Result<void> commence_attack(JsonWriter& j, Body body) {
  DERETH_CHECK(expect_only_header(body, 16, "F7B0/01B8 CombatCommenceAttack"));
  j.begin_object();
  event_header(j, body, "CombatCommenceAttack");
  j.end_object();
  return {};
}

Result<void> update_restrictions(JsonWriter& j, Body body) {
  DERETH_TRY(const UpdateRestrictions m, decode_update_restrictions(body));
  j.begin_object();
  event_header(j, body, "UpdateRestrictions");
  j.key("timestamp").number(m.timestamp);
  j.key("object").hex(m.object);
  j.key("restrictions");
  house_restrictions(j, m.db);
  j.end_object();
  return {};
}

Result<void> move_to_state(JsonWriter& j, Body body) {
  DERETH_TRY(const MoveToState m, decode_move_to_state(body));
  write_json(j, m);
  return {};
}

Result<void> autonomous_position(JsonWriter& j, Body body) {
  DERETH_TRY(const AutonomousPosition m, decode_autonomous_position(body));
  write_json(j, m);
  return {};
}

Result<void> jump(JsonWriter& j, Body body) {
  DERETH_TRY(const Jump m, decode_jump(body));
  j.begin_object();
  action_header(j, body, "Jump");
  j.key("extent").f32(m.extent);
  j.key("velocity");
  vec3(j, m.velocity);
  j.key("position");
  position(j, m.position);
  echoed(j, m.timestamps);
  j.end_object();
  return {};
}

Result<void> autonomy_level(JsonWriter& j, Body body) {
  DERETH_TRY(const AutonomyLevel m, decode_autonomy_level(body));
  j.begin_object();
  action_header(j, body, "AutonomyLevel");
  j.key("level").number(m.level);
  j.end_object();
  return {};
}

Result<void> jump_non_autonomous(JsonWriter& j, Body body) {
  DERETH_TRY(const JumpNonAutonomous m, decode_jump_non_autonomous(body));
  j.begin_object();
  action_header(j, body, "JumpNonAutonomous");
  j.key("extent").f32(m.extent);
  j.end_object();
  return {};
}

Result<void> do_movement_command(JsonWriter& j, Body body) {
  DERETH_TRY(const DoMovementCommand m, decode_do_movement_command(body));
  j.begin_object();
  action_header(j, body, "DoMovementCommand");
  j.key("motion").hex(m.motion);
  j.key("speed").f32(m.speed);
  j.key("hold_key").hex(m.hold_key);
  j.end_object();
  return {};
}

Result<void> stop_movement_command(JsonWriter& j, Body body) {
  DERETH_TRY(const StopMovementCommand m, decode_stop_movement_command(body));
  j.begin_object();
  action_header(j, body, "StopMovementCommand");
  j.key("motion").hex(m.motion);
  j.key("hold_key").hex(m.hold_key);
  j.end_object();
  return {};
}

Result<void> chat_action_json(JsonWriter& j, Body body) {
  DERETH_TRY(const ChatAction m, decode_chat_action(body));
  static constexpr std::array<std::pair<std::uint32_t, std::string_view>, 4> kNames = {
      {{chat_action::Talk, "Talk"},
       {chat_action::Tell, "Tell"},
       {chat_action::Emote, "Emote"},
       {chat_action::SoulEmote, "SoulEmote"}}};
  std::string_view name;
  for (const auto& [action, n] : kNames) {
    if (action == m.action) name = n;
  }
  j.begin_object();
  action_header(j, body, name);
  text(j, "text", m.text);
  if (m.action == chat_action::Tell) text(j, "target", m.target);
  j.end_object();
  return {};
}

Result<void> targeted_attack(JsonWriter& j, Body body) {
  DERETH_TRY(const TargetedAttack m, decode_targeted_attack(body));
  j.begin_object();
  action_header(j, body,
                m.action == combat_action::TargetedMeleeAttack ? "TargetedMeleeAttack" : "TargetedMissileAttack");
  j.key("target").hex(m.target);
  j.key("height").number(m.height);
  j.key(m.action == combat_action::TargetedMeleeAttack ? "power" : "accuracy").f32(m.power);
  j.end_object();
  return {};
}

Result<void> cast_targeted_spell(JsonWriter& j, Body body) {
  DERETH_TRY(const CastTargetedSpell m, decode_cast_targeted_spell(body));
  j.begin_object();
  action_header(j, body, "CastTargetedSpell");
  j.key("target").hex(m.target);
  j.key("spell").number(m.spell);
  j.end_object();
  return {};
}

Result<void> cast_untargeted_spell(JsonWriter& j, Body body) {
  DERETH_TRY(const CastUntargetedSpell m, decode_cast_untargeted_spell(body));
  j.begin_object();
  action_header(j, body, "CastUntargetedSpell");
  j.key("spell").number(m.spell);
  j.end_object();
  return {};
}

Result<void> add_spell_favorite(JsonWriter& j, Body body) {
  DERETH_TRY(const AddSpellFavorite m, decode_add_spell_favorite(body));
  j.begin_object();
  action_header(j, body, "AddSpellFavorite");
  j.key("spell").number(m.spell);
  j.key("index").number(m.index);
  j.key("list").number(m.list);
  j.end_object();
  return {};
}

Result<void> remove_spell_favorite(JsonWriter& j, Body body) {
  DERETH_TRY(const RemoveSpellFavorite m, decode_remove_spell_favorite(body));
  j.begin_object();
  action_header(j, body, "RemoveSpellFavorite");
  j.key("spell").number(m.spell);
  j.key("list").number(m.list);
  j.end_object();
  return {};
}

Result<void> query_health(JsonWriter& j, Body body) {
  DERETH_TRY(const QueryHealth m, decode_query_health(body));
  j.begin_object();
  action_header(j, body, "QueryHealth");
  j.key("target").hex(m.target);
  j.end_object();
  return {};
}

Result<void> change_combat_mode(JsonWriter& j, Body body) {
  DERETH_TRY(const ChangeCombatMode m, decode_change_combat_mode(body));
  j.begin_object();
  action_header(j, body, "ChangeCombatMode");
  j.key("mode").hex(m.mode);
  j.end_object();
  return {};
}

template <std::size_t Header>
Result<void> header_only_action(JsonWriter& j, Body body, std::string_view name) {
  DERETH_CHECK(expect_only_header(body, Header, name));
  j.begin_object();
  action_header(j, body, name);
  j.end_object();
  return {};
}

Result<void> cancel_attack(JsonWriter& j, Body body) {
  return header_only_action<12>(j, body, "CancelAttack");
}
Result<void> login_complete(JsonWriter& j, Body body) {
  return header_only_action<12>(j, body, "LoginComplete");
}

// Top-level messages.
Result<void> server_message(JsonWriter& j, Body body) {
  DERETH_TRY(const ServerMessage m, decode_server_message(body));
  j.begin_object();
  top_header(j, body, "ServerMessage");
  text(j, "text", m.text);
  j.key("chat_type").hex(m.chat_type);
  j.key("channel").string(chat_channel_name(m.chat_type));
  j.end_object();
  return {};
}

Result<void> hear_speech(JsonWriter& j, Body body) {
  DERETH_TRY(const HearSpeech m, decode_hear_speech(body));
  j.begin_object();
  top_header(j, body, m.range ? "HearRangedSpeech" : "HearSpeech");
  text(j, "text", m.text);
  text(j, "sender", m.sender);
  j.key("sender_id").hex(m.sender_id);
  opt_f32(j, "range", m.range);
  j.key("chat_type").hex(m.chat_type);
  j.key("channel").string(chat_channel_name(m.chat_type));
  j.end_object();
  return {};
}

Result<void> hear_emote(JsonWriter& j, Body body) {
  DERETH_TRY(const HearEmote m, decode_hear_emote(body));
  j.begin_object();
  top_header(j, body, m.soul ? "HearSoulEmote" : "HearEmote");
  j.key("sender_id").hex(m.sender_id);
  text(j, "sender", m.sender);
  text(j, "text", m.text);
  j.end_object();
  return {};
}

Result<void> character_list(JsonWriter& j, Body body) {
  DERETH_TRY(const CharacterList m, decode_character_list(body));
  j.begin_object();
  top_header(j, body, "CharacterList");
  j.key("status").number(m.status);
  j.key("characters").begin_array();
  for (const auto& c : m.characters) {
    j.begin_object();
    j.key("guid").hex(c.guid);
    text(j, "name", c.name);
    j.key("seconds_greyed_out").number(c.seconds_greyed_out);
    j.end_object();
  }
  j.end_array();
  j.key("deleted_count").number(m.deleted_count);
  j.key("max_slots").number(m.max_slots);
  text(j, "account", m.account);
  j.key("use_turbine_chat").number(m.use_turbine_chat);
  j.key("has_throne_of_destiny").number(m.has_throne_of_destiny);
  j.end_object();
  return {};
}

Result<void> server_name(JsonWriter& j, Body body) {
  DERETH_TRY(const ServerName m, decode_server_name(body));
  j.begin_object();
  top_header(j, body, "ServerName");
  j.key("current_connections").number(m.current_connections);
  j.key("max_connections").number(m.max_connections);
  text(j, "world_name", m.world_name);
  j.end_object();
  return {};
}

Result<void> character_error(JsonWriter& j, Body body) {
  DERETH_TRY(const CharacterError m, decode_character_error(body));
  j.begin_object();
  top_header(j, body, "CharacterError");
  j.key("code").hex(m.code);
  j.key("description").string(describe_character_error(m.code));
  j.end_object();
  return {};
}

Result<void> account_boot(JsonWriter& j, Body body) {
  DERETH_TRY(const AccountBoot m, decode_account_boot(body));
  j.begin_object();
  top_header(j, body, "AccountBoot");
  text(j, "reason", m.reason);
  j.end_object();
  return {};
}

Result<void> character_enter_world(JsonWriter& j, Body body) {
  DERETH_TRY(const CharacterEnterWorld m, decode_character_enter_world(body));
  j.begin_object();
  top_header(j, body, "CharacterEnterWorld");
  j.key("guid").hex(m.guid);
  text(j, "account", m.account);
  j.end_object();
  return {};
}

// The skill ids F656 gives one advancement class (index = skill id).
void skills_of_class(JsonWriter& j, std::string_view key, const std::vector<std::uint32_t>& skills,
                     std::uint32_t advancement) {
  j.key(key).begin_array();
  for (std::size_t i = 0; i < skills.size(); ++i) {
    if (skills[i] == advancement) j.number(static_cast<std::uint64_t>(i));
  }
  j.end_array();
}

Result<void> character_create(JsonWriter& j, Body body) {
  DERETH_TRY(const CharacterCreate m, decode_character_create(body));
  const CharacterAppearance& a = m.appearance;
  j.begin_object();
  top_header(j, body, "CharacterCreate");
  text(j, "account", m.account);
  j.key("heritage").number(m.heritage);
  j.key("gender").number(m.gender);
  j.key("appearance").begin_object();
  const std::pair<const char*, std::uint32_t> indices[] = {{"eyes", a.eyes},
                                                           {"nose", a.nose},
                                                           {"mouth", a.mouth},
                                                           {"hair_color", a.hair_color},
                                                           {"eye_color", a.eye_color},
                                                           {"hair_style", a.hair_style},
                                                           {"headgear_style", a.headgear_style},
                                                           {"headgear_color", a.headgear_color},
                                                           {"shirt_style", a.shirt_style},
                                                           {"shirt_color", a.shirt_color},
                                                           {"pants_style", a.pants_style},
                                                           {"pants_color", a.pants_color},
                                                           {"footwear_style", a.footwear_style},
                                                           {"footwear_color", a.footwear_color}};
  for (const auto& [k, v] : indices) j.key(k).number(v);
  const std::pair<const char*, double> shades[] = {
      {"skin_shade", a.skin_shade},   {"hair_shade", a.hair_shade},   {"headgear_shade", a.headgear_shade},
      {"shirt_shade", a.shirt_shade}, {"pants_shade", a.pants_shade}, {"footwear_shade", a.footwear_shade}};
  for (const auto& [k, v] : shades) j.key(k).f64(v);
  j.end_object();
  j.key("template").number(m.template_option);
  j.key("abilities").begin_array();
  for (const std::uint32_t v : m.abilities) j.number(v);
  j.end_array();
  j.key("slot").number(m.slot);
  j.key("class_id").number(m.class_id);
  j.key("skill_count").number(static_cast<std::uint64_t>(m.skills.size()));
  skills_of_class(j, "trained", m.skills, skill_advancement::Trained);
  skills_of_class(j, "specialized", m.skills, skill_advancement::Specialized);
  text(j, "character_name", m.name);
  j.key("start_area").number(m.start_area);
  j.key("is_admin").number(m.is_admin);
  j.key("is_sentinel").number(m.is_sentinel);
  j.end_object();
  return {};
}

Result<void> character_create_response(JsonWriter& j, Body body) {
  DERETH_TRY(const CharacterCreateResponse m, decode_character_create_response(body));
  j.begin_object();
  top_header(j, body, "CharacterCreateResponse");
  j.key("response").number(m.response);
  j.key("description").string(describe_create_response(m.response));
  if (m.response == create_response::Ok) {
    j.key("guid").hex(m.guid);
    text(j, "character_name", m.name);
    j.key("seconds_greyed_out").number(m.seconds_greyed_out);
  }
  j.end_object();
  return {};
}

Result<void> character_delete(JsonWriter& j, Body body) {
  DERETH_TRY(const CharacterDelete m, decode_character_delete(body));
  j.begin_object();
  top_header(j, body, "CharacterDelete");
  text(j, "account", m.account);
  j.key("slot").number(m.slot);
  j.end_object();
  return {};
}

template <std::uint32_t Opcode>
Result<void> opcode_only(JsonWriter& j, Body body) {
  const std::string_view name = opcode_name(Opcode);
  DERETH_CHECK(expect_only_header(body, 4, name));
  j.begin_object();
  top_header(j, body, name);
  j.end_object();
  return {};
}

using AnyWriter = Result<void> (*)(JsonWriter&, Body);
constexpr std::uint32_t kTopLevel = 0xFFFFFFFF;  // an entry for the opcode itself, not a wrapped type

struct AnyEntry {
  std::uint32_t opcode;
  std::uint32_t type;  // the F7B0 event or F7B1 action type; kTopLevel otherwise
  AnyWriter write;
};

constexpr std::array kAnyEntries = {
    // Game events.
    AnyEntry{login_opcode::GameEvent, login_opcode::PlayerDescriptionEvent, &player_description},
    AnyEntry{login_opcode::GameEvent, chat_event::HearDirectSpeech, &hear_direct_speech},
    AnyEntry{login_opcode::GameEvent, chat_event::ChannelBroadcast, &channel_broadcast},
    AnyEntry{login_opcode::GameEvent, chat_event::WeenieError, &weenie_error},
    AnyEntry{login_opcode::GameEvent, chat_event::WeenieErrorWithString, &weenie_error},
    AnyEntry{login_opcode::GameEvent, chat_event::TransientString, &status_string},
    AnyEntry{login_opcode::GameEvent, chat_event::PopupString, &status_string},
    AnyEntry{login_opcode::GameEvent, combat_event::AttackDone, &attack_done},
    AnyEntry{login_opcode::GameEvent, combat_event::CombatCommenceAttack, &commence_attack},
    AnyEntry{login_opcode::GameEvent, combat_event::VictimNotification, &combat_notification},
    AnyEntry{login_opcode::GameEvent, combat_event::KillerNotification, &combat_notification},
    AnyEntry{login_opcode::GameEvent, combat_event::AttackerNotification, &combat_notification},
    AnyEntry{login_opcode::GameEvent, combat_event::DefenderNotification, &combat_notification},
    AnyEntry{login_opcode::GameEvent, combat_event::EvasionAttackerNotification, &combat_notification},
    AnyEntry{login_opcode::GameEvent, combat_event::EvasionDefenderNotification, &combat_notification},
    AnyEntry{login_opcode::GameEvent, house_event::UpdateRestrictions, &update_restrictions},
    // Game actions.
    AnyEntry{login_opcode::GameAction, opcode::MoveToState, &move_to_state},
    AnyEntry{login_opcode::GameAction, opcode::AutonomousPosition, &autonomous_position},
    AnyEntry{login_opcode::GameAction, opcode::Jump, &jump},
    AnyEntry{login_opcode::GameAction, opcode::AutonomyLevel, &autonomy_level},
    AnyEntry{login_opcode::GameAction, opcode::JumpNonAutonomous, &jump_non_autonomous},
    AnyEntry{login_opcode::GameAction, opcode::DoMovementCommand, &do_movement_command},
    AnyEntry{login_opcode::GameAction, opcode::StopMovementCommand, &stop_movement_command},
    AnyEntry{login_opcode::GameAction, chat_action::Talk, &chat_action_json},
    AnyEntry{login_opcode::GameAction, chat_action::Tell, &chat_action_json},
    AnyEntry{login_opcode::GameAction, chat_action::Emote, &chat_action_json},
    AnyEntry{login_opcode::GameAction, chat_action::SoulEmote, &chat_action_json},
    AnyEntry{login_opcode::GameAction, combat_action::TargetedMeleeAttack, &targeted_attack},
    AnyEntry{login_opcode::GameAction, combat_action::TargetedMissileAttack, &targeted_attack},
    AnyEntry{login_opcode::GameAction, combat_action::CancelAttack, &cancel_attack},
    AnyEntry{login_opcode::GameAction, combat_action::ChangeCombatMode, &change_combat_mode},
    AnyEntry{login_opcode::GameAction, opcode::QueryHealth, &query_health},
    AnyEntry{login_opcode::GameAction, magic_action::CastTargetedSpell, &cast_targeted_spell},
    AnyEntry{login_opcode::GameAction, magic_action::CastUntargetedSpell, &cast_untargeted_spell},
    AnyEntry{login_opcode::GameAction, magic_action::AddSpellFavorite, &add_spell_favorite},
    AnyEntry{login_opcode::GameAction, magic_action::RemoveSpellFavorite, &remove_spell_favorite},
    AnyEntry{login_opcode::GameAction, login_opcode::LoginCompleteAction, &login_complete},
    // Chat, login and world entry.
    AnyEntry{login_opcode::ServerMessage, kTopLevel, &server_message},
    AnyEntry{chat_opcode::HearSpeech, kTopLevel, &hear_speech},
    AnyEntry{chat_opcode::HearRangedSpeech, kTopLevel, &hear_speech},
    AnyEntry{chat_opcode::HearEmote, kTopLevel, &hear_emote},
    AnyEntry{chat_opcode::HearSoulEmote, kTopLevel, &hear_emote},
    AnyEntry{login_opcode::CharacterList, kTopLevel, &character_list},
    AnyEntry{login_opcode::ServerName, kTopLevel, &server_name},
    AnyEntry{login_opcode::CharacterError, kTopLevel, &character_error},
    AnyEntry{login_opcode::AccountBoot, kTopLevel, &account_boot},
    AnyEntry{login_opcode::CharacterEnterWorld, kTopLevel, &character_enter_world},
    AnyEntry{login_opcode::CharacterCreate, kTopLevel, &character_create},
    AnyEntry{login_opcode::CharacterCreateResponse, kTopLevel, &character_create_response},
    AnyEntry{login_opcode::CharacterDelete, kTopLevel, &character_delete},
    AnyEntry{login_opcode::CharacterEnterWorldRequest, kTopLevel,
             &opcode_only<login_opcode::CharacterEnterWorldRequest>},
    AnyEntry{login_opcode::CharacterEnterWorldServerReady, kTopLevel,
             &opcode_only<login_opcode::CharacterEnterWorldServerReady>},
    AnyEntry{login_opcode::EndDdd, kTopLevel, &opcode_only<login_opcode::EndDdd>},
    AnyEntry{login_opcode::CharacterLogOff, kTopLevel, &opcode_only<login_opcode::CharacterLogOff>},
};

const AnyEntry* find_any(Body body) {
  const std::uint32_t op = peek_opcode(body);
  const bool wrapped = op == login_opcode::GameEvent || op == login_opcode::GameAction;
  const std::uint32_t type = wrapped ? peek_wrapped_type(body) : kTopLevel;
  for (const auto& e : kAnyEntries) {
    if (e.opcode == op && e.type == type) return &e;
  }
  return nullptr;
}

}  // namespace

bool is_json_decoded(std::span<const std::uint8_t> body) {
  return find_any(body) != nullptr || is_dispatched(body);
}

// The table's full view where it has one; anything else the dispatcher
// decodes (the object messages, the player's stat, health and enchantment
// updates, deaths) as its Message.
Result<bool> write_any_json(JsonWriter& j, std::span<const std::uint8_t> body) {
  if (const AnyEntry* e = find_any(body)) {
    DERETH_CHECK(e->write(j, body));
    return true;
  }
  if (!is_dispatched(body)) return false;
  DERETH_TRY(const Message m, decode_message(body));
  write_json(j, m);
  return true;
}

std::string to_json(const Message& m) {
  JsonWriter j;
  write_json(j, m);
  return j.str();
}

}  // namespace dereth::protocol
