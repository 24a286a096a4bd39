#include "dereth/dat/animation_hook.hpp"

#include <array>
#include <utility>

#include <fmt/format.h>

namespace dereth::dat {

namespace {

constexpr std::array<std::string_view, kHookTypeCount> kHookNames = {
    "NoOp",
    "Sound",
    "SoundTable",
    "Attack",
    "AnimationDone",
    "ReplaceObject",
    "Ethereal",
    "TransparentPart",
    "Luminous",
    "LuminousPart",
    "Diffuse",
    "DiffusePart",
    "Scale",
    "CreateParticle",
    "DestroyParticle",
    "StopParticle",
    "NoDraw",
    "DefaultScript",
    "DefaultScriptPart",
    "CallPES",
    "Transparent",
    "SoundTweaked",
    "SetOmega",
    "TextureVelocity",
    "TextureVelocityPart",
    "SetLight",
    "CreateBlockingParticle",
};

constexpr Did kGfxObjBase = 0x01000000;

// ---- field readers ---------------------------------------------------------

Result<void> get(ByteReader& r, std::uint32_t& out, std::string_view field) {
  DERETH_TRY(out, r.u32(field));
  return {};
}
Result<void> get(ByteReader& r, std::int32_t& out, std::string_view field) {
  DERETH_TRY(out, r.i32(field));
  return {};
}
Result<void> get(ByteReader& r, float& out, std::string_view field) {
  DERETH_TRY(out, r.f32(field));
  return {};
}

Result<void> read_fields(ByteReader&, NoOpHook&) {
  return {};
}
Result<void> read_fields(ByteReader&, AnimationDoneHook&) {
  return {};
}
Result<void> read_fields(ByteReader&, DefaultScriptHook&) {
  return {};
}

Result<void> read_fields(ByteReader& r, SoundHook& h) {
  return get(r, h.wave, "Sound.wave");
}
Result<void> read_fields(ByteReader& r, SoundTableHook& h) {
  return get(r, h.sound, "SoundTable.sound");
}

Result<void> read_fields(ByteReader& r, AttackHook& h) {
  DERETH_CHECK(get(r, h.part_index, "Attack.part_index"));
  DERETH_CHECK(get(r, h.left_x, "Attack.left_x"));
  DERETH_CHECK(get(r, h.left_y, "Attack.left_y"));
  DERETH_CHECK(get(r, h.right_x, "Attack.right_x"));
  DERETH_CHECK(get(r, h.right_y, "Attack.right_y"));
  DERETH_CHECK(get(r, h.radius, "Attack.radius"));
  return get(r, h.height, "Attack.height");
}

// AnimPartChange::UnPack: one byte of part index, then a packed GfxObj DID.
Result<void> read_fields(ByteReader& r, ReplaceObjectHook& h) {
  DERETH_TRY(h.part_index, r.u8("ReplaceObject.part_index"));
  DERETH_TRY(h.gfx_obj, read_packed_did(r, kGfxObjBase, "ReplaceObject.gfx_obj"));
  return {};
}

Result<void> read_fields(ByteReader& r, EtherealHook& h) {
  return get(r, h.ethereal, "Ethereal.ethereal");
}

template <class T>
Result<void> read_ramp(ByteReader& r, T& h, std::string_view start, std::string_view end, std::string_view time) {
  DERETH_CHECK(get(r, h.start, start));
  DERETH_CHECK(get(r, h.end, end));
  return get(r, h.time, time);
}

Result<void> read_fields(ByteReader& r, TransparentPartHook& h) {
  DERETH_CHECK(get(r, h.part_index, "TransparentPart.part_index"));
  return read_ramp(r, h, "TransparentPart.start", "TransparentPart.end", "TransparentPart.time");
}
Result<void> read_fields(ByteReader& r, LuminousHook& h) {
  return read_ramp(r, h, "Luminous.start", "Luminous.end", "Luminous.time");
}
Result<void> read_fields(ByteReader& r, LuminousPartHook& h) {
  DERETH_CHECK(get(r, h.part_index, "LuminousPart.part_index"));
  return read_ramp(r, h, "LuminousPart.start", "LuminousPart.end", "LuminousPart.time");
}
Result<void> read_fields(ByteReader& r, DiffuseHook& h) {
  return read_ramp(r, h, "Diffuse.start", "Diffuse.end", "Diffuse.time");
}
Result<void> read_fields(ByteReader& r, DiffusePartHook& h) {
  DERETH_CHECK(get(r, h.part_index, "DiffusePart.part_index"));
  return read_ramp(r, h, "DiffusePart.start", "DiffusePart.end", "DiffusePart.time");
}
Result<void> read_fields(ByteReader& r, TransparentHook& h) {
  return read_ramp(r, h, "Transparent.start", "Transparent.end", "Transparent.time");
}

Result<void> read_fields(ByteReader& r, ScaleHook& h) {
  DERETH_CHECK(get(r, h.end, "Scale.end"));
  return get(r, h.time, "Scale.time");
}

// CreateParticleHook::UnPack; CreateBlockingParticleHook binds here too.
Result<void> read_fields(ByteReader& r, CreateParticleHook& h) {
  DERETH_CHECK(get(r, h.emitter_info, "CreateParticle.emitter_info"));
  DERETH_CHECK(get(r, h.part_index, "CreateParticle.part_index"));
  DERETH_TRY(h.offset, read_frame(r, "CreateParticle.offset"));
  return get(r, h.emitter_id, "CreateParticle.emitter_id");
}

Result<void> read_fields(ByteReader& r, DestroyParticleHook& h) {
  return get(r, h.emitter_id, "DestroyParticle.emitter_id");
}
Result<void> read_fields(ByteReader& r, StopParticleHook& h) {
  return get(r, h.emitter_id, "StopParticle.emitter_id");
}
Result<void> read_fields(ByteReader& r, NoDrawHook& h) {
  return get(r, h.no_draw, "NoDraw.no_draw");
}
Result<void> read_fields(ByteReader& r, DefaultScriptPartHook& h) {
  return get(r, h.part_index, "DefaultScriptPart.part_index");
}
Result<void> read_fields(ByteReader& r, CallPESHook& h) {
  DERETH_CHECK(get(r, h.script, "CallPES.script"));
  return get(r, h.pause, "CallPES.pause");
}

// SoundTweakedHook::UnPack: gid, probability, priority, volume.
Result<void> read_fields(ByteReader& r, SoundTweakedHook& h) {
  DERETH_CHECK(get(r, h.wave, "SoundTweaked.wave"));
  DERETH_CHECK(get(r, h.probability, "SoundTweaked.probability"));
  DERETH_CHECK(get(r, h.priority, "SoundTweaked.priority"));
  return get(r, h.volume, "SoundTweaked.volume");
}

Result<void> read_fields(ByteReader& r, SetOmegaHook& h) {
  DERETH_TRY(h.axis, read_vec3(r, "SetOmega.axis"));
  return {};
}
Result<void> read_fields(ByteReader& r, TextureVelocityHook& h) {
  DERETH_CHECK(get(r, h.u_speed, "TextureVelocity.u_speed"));
  return get(r, h.v_speed, "TextureVelocity.v_speed");
}
Result<void> read_fields(ByteReader& r, TextureVelocityPartHook& h) {
  DERETH_CHECK(get(r, h.part_index, "TextureVelocityPart.part_index"));
  DERETH_CHECK(get(r, h.u_speed, "TextureVelocityPart.u_speed"));
  return get(r, h.v_speed, "TextureVelocityPart.v_speed");
}
Result<void> read_fields(ByteReader& r, SetLightHook& h) {
  return get(r, h.lights_on, "SetLight.lights_on");
}

using PayloadReader = Result<HookPayload> (*)(ByteReader&);

template <std::size_t I>
Result<HookPayload> read_alternative(ByteReader& r) {
  std::variant_alternative_t<I, HookPayload> value{};
  DERETH_CHECK(read_fields(r, value));
  return HookPayload(std::in_place_index<I>, std::move(value));
}

template <std::size_t... I>
constexpr std::array<PayloadReader, sizeof...(I)> make_readers(std::index_sequence<I...>) {
  return {&read_alternative<I>...};
}

constexpr auto kPayloadReaders = make_readers(std::make_index_sequence<kHookTypeCount>{});

// ---- field writers ---------------------------------------------------------

void write_fields(ByteWriter&, const NoOpHook&) {}
void write_fields(ByteWriter&, const AnimationDoneHook&) {}
void write_fields(ByteWriter&, const DefaultScriptHook&) {}
void write_fields(ByteWriter& w, const SoundHook& h) {
  w.u32(h.wave);
}
void write_fields(ByteWriter& w, const SoundTableHook& h) {
  w.u32(h.sound);
}
void write_fields(ByteWriter& w, const AttackHook& h) {
  w.u32(h.part_index);
  w.f32(h.left_x);
  w.f32(h.left_y);
  w.f32(h.right_x);
  w.f32(h.right_y);
  w.f32(h.radius);
  w.f32(h.height);
}
void write_fields(ByteWriter& w, const ReplaceObjectHook& h) {
  w.u8(h.part_index);
  write_packed_did(w, h.gfx_obj, kGfxObjBase);
}
void write_fields(ByteWriter& w, const EtherealHook& h) {
  w.i32(h.ethereal);
}
template <class T>
void write_ramp(ByteWriter& w, const T& h) {
  w.f32(h.start);
  w.f32(h.end);
  w.f32(h.time);
}
void write_fields(ByteWriter& w, const TransparentPartHook& h) {
  w.u32(h.part_index);
  write_ramp(w, h);
}
void write_fields(ByteWriter& w, const LuminousHook& h) {
  write_ramp(w, h);
}
void write_fields(ByteWriter& w, const LuminousPartHook& h) {
  w.u32(h.part_index);
  write_ramp(w, h);
}
void write_fields(ByteWriter& w, const DiffuseHook& h) {
  write_ramp(w, h);
}
void write_fields(ByteWriter& w, const DiffusePartHook& h) {
  w.u32(h.part_index);
  write_ramp(w, h);
}
void write_fields(ByteWriter& w, const TransparentHook& h) {
  write_ramp(w, h);
}
void write_fields(ByteWriter& w, const ScaleHook& h) {
  w.f32(h.end);
  w.f32(h.time);
}
void write_fields(ByteWriter& w, const CreateParticleHook& h) {
  w.u32(h.emitter_info);
  w.u32(h.part_index);
  write_frame(w, h.offset);
  w.u32(h.emitter_id);
}
void write_fields(ByteWriter& w, const DestroyParticleHook& h) {
  w.u32(h.emitter_id);
}
void write_fields(ByteWriter& w, const StopParticleHook& h) {
  w.u32(h.emitter_id);
}
void write_fields(ByteWriter& w, const NoDrawHook& h) {
  w.u32(h.no_draw);
}
void write_fields(ByteWriter& w, const DefaultScriptPartHook& h) {
  w.u32(h.part_index);
}
void write_fields(ByteWriter& w, const CallPESHook& h) {
  w.u32(h.script);
  w.f32(h.pause);
}
void write_fields(ByteWriter& w, const SoundTweakedHook& h) {
  w.u32(h.wave);
  w.f32(h.probability);
  w.f32(h.priority);
  w.f32(h.volume);
}
void write_fields(ByteWriter& w, const SetOmegaHook& h) {
  write_vec3(w, h.axis);
}
void write_fields(ByteWriter& w, const TextureVelocityHook& h) {
  w.f32(h.u_speed);
  w.f32(h.v_speed);
}
void write_fields(ByteWriter& w, const TextureVelocityPartHook& h) {
  w.u32(h.part_index);
  w.f32(h.u_speed);
  w.f32(h.v_speed);
}
void write_fields(ByteWriter& w, const SetLightHook& h) {
  w.i32(h.lights_on);
}

// ---- JSON ------------------------------------------------------------------

using core::JsonWriter;

template <class T>
void json_ramp(JsonWriter& j, const T& h) {
  j.key("start").f32(h.start);
  j.key("end").f32(h.end);
  j.key("time").f32(h.time);
}

void json_fields(JsonWriter&, const NoOpHook&) {}
void json_fields(JsonWriter&, const AnimationDoneHook&) {}
void json_fields(JsonWriter&, const DefaultScriptHook&) {}
void json_fields(JsonWriter& j, const SoundHook& h) {
  j.key("wave").hex(h.wave);
}
void json_fields(JsonWriter& j, const SoundTableHook& h) {
  j.key("sound").number(h.sound);
}
void json_fields(JsonWriter& j, const AttackHook& h) {
  j.key("part_index").number(h.part_index);
  j.key("left_x").f32(h.left_x);
  j.key("left_y").f32(h.left_y);
  j.key("right_x").f32(h.right_x);
  j.key("right_y").f32(h.right_y);
  j.key("radius").f32(h.radius);
  j.key("height").f32(h.height);
}
void json_fields(JsonWriter& j, const ReplaceObjectHook& h) {
  j.key("part_index").number(h.part_index);
  j.key("gfx_obj").hex(h.gfx_obj);
}
void json_fields(JsonWriter& j, const EtherealHook& h) {
  j.key("ethereal").number(h.ethereal);
}
void json_fields(JsonWriter& j, const TransparentPartHook& h) {
  j.key("part_index").number(h.part_index);
  json_ramp(j, h);
}
void json_fields(JsonWriter& j, const LuminousHook& h) {
  json_ramp(j, h);
}
void json_fields(JsonWriter& j, const LuminousPartHook& h) {
  j.key("part_index").number(h.part_index);
  json_ramp(j, h);
}
void json_fields(JsonWriter& j, const DiffuseHook& h) {
  json_ramp(j, h);
}
void json_fields(JsonWriter& j, const DiffusePartHook& h) {
  j.key("part_index").number(h.part_index);
  json_ramp(j, h);
}
void json_fields(JsonWriter& j, const TransparentHook& h) {
  json_ramp(j, h);
}
void json_fields(JsonWriter& j, const ScaleHook& h) {
  j.key("end").f32(h.end);
  j.key("time").f32(h.time);
}
void json_fields(JsonWriter& j, const CreateParticleHook& h) {
  j.key("emitter_info").hex(h.emitter_info);
  j.key("part_index").hex(h.part_index);
  j.key("offset");
  json_frame(j, h.offset);
  j.key("emitter_id").number(h.emitter_id);
}
void json_fields(JsonWriter& j, const DestroyParticleHook& h) {
  j.key("emitter_id").number(h.emitter_id);
}
void json_fields(JsonWriter& j, const StopParticleHook& h) {
  j.key("emitter_id").number(h.emitter_id);
}
void json_fields(JsonWriter& j, const NoDrawHook& h) {
  j.key("no_draw").number(h.no_draw);
}
void json_fields(JsonWriter& j, const DefaultScriptPartHook& h) {
  j.key("part_index").number(h.part_index);
}
void json_fields(JsonWriter& j, const CallPESHook& h) {
  j.key("script").hex(h.script);
  j.key("pause").f32(h.pause);
}
void json_fields(JsonWriter& j, const SoundTweakedHook& h) {
  j.key("wave").hex(h.wave);
  j.key("probability").f32(h.probability);
  j.key("priority").f32(h.priority);
  j.key("volume").f32(h.volume);
}
void json_fields(JsonWriter& j, const SetOmegaHook& h) {
  j.key("axis");
  json_vec3(j, h.axis);
}
void json_fields(JsonWriter& j, const TextureVelocityHook& h) {
  j.key("u_speed").f32(h.u_speed);
  j.key("v_speed").f32(h.v_speed);
}
void json_fields(JsonWriter& j, const TextureVelocityPartHook& h) {
  j.key("part_index").number(h.part_index);
  j.key("u_speed").f32(h.u_speed);
  j.key("v_speed").f32(h.v_speed);
}
void json_fields(JsonWriter& j, const SetLightHook& h) {
  j.key("lights_on").number(h.lights_on);
}

}  // namespace

std::string_view hook_type_name(HookType type) noexcept {
  const auto index = static_cast<std::uint32_t>(type);
  return index < kHookTypeCount ? kHookNames[index] : std::string_view{};
}

Result<AnimationHook> read_animation_hook(ByteReader& r) {
  const std::size_t type_at = r.position();
  DERETH_TRY(const std::uint32_t type, r.u32("hook.type"));
  if (type >= kHookTypeCount) {
    return std::unexpected(
        r.error_at(type_at, core::ErrorKind::Invalid, "hook.type", fmt::format("unknown hook type {}", type)));
  }
  AnimationHook hook;
  DERETH_TRY(const std::int32_t direction, r.i32("hook.direction"));
  hook.direction = static_cast<HookDirection>(direction);
  DERETH_TRY(hook.payload, kPayloadReaders[type](r));
  // PackObj::ALIGN_PTR after every hook (only ReplaceObject ever needs it).
  DERETH_CHECK(r.align4("hook.pad"));
  return hook;
}

void write_animation_hook(ByteWriter& w, const AnimationHook& hook) {
  w.u32(static_cast<std::uint32_t>(hook.payload.index()));
  w.i32(static_cast<std::int32_t>(hook.direction));
  std::visit([&w](const auto& payload) { write_fields(w, payload); }, hook.payload);
  w.align4();
}

void write_json(core::JsonWriter& j, const AnimationHook& hook) {
  j.begin_object();
  j.key("type").string(hook_type_name(hook.type()));
  j.key("direction");
  switch (hook.direction) {
    case HookDirection::Unknown: j.string("Unknown"); break;
    case HookDirection::Backward: j.string("Backward"); break;
    case HookDirection::Both: j.string("Both"); break;
    case HookDirection::Forward: j.string("Forward"); break;
    default: j.number(static_cast<std::int32_t>(hook.direction)); break;
  }
  std::visit([&j](const auto& payload) { json_fields(j, payload); }, hook.payload);
  j.end_object();
}

}  // namespace dereth::dat
