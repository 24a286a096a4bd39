#pragma once
// AnimationHook (CAnimHook::UnPackHook, RE:src/PORTAL/canim/CAnimHook.c): the
// events an Animation frame or a PhysicsScript fires. The payload is a
// std::variant whose alternative index is the hook type (0..26), so
// `hook.type()` is `payload.index()`. Wire form and the retail quirks kept
// (AnimationDone read but dropped by retail, ReplaceObject's packed DID,
// unknown types rejected): docs/dat.md "AnimationHook".

#include <cstdint>
#include <string_view>
#include <variant>

#include <glm/vec3.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

enum class HookType : std::uint32_t {
  NoOp = 0,
  Sound = 1,
  SoundTable = 2,
  Attack = 3,
  AnimationDone = 4,
  ReplaceObject = 5,
  Ethereal = 6,
  TransparentPart = 7,
  Luminous = 8,
  LuminousPart = 9,
  Diffuse = 10,
  DiffusePart = 11,
  Scale = 12,
  CreateParticle = 13,
  DestroyParticle = 14,
  StopParticle = 15,
  NoDraw = 16,
  DefaultScript = 17,
  DefaultScriptPart = 18,
  CallPES = 19,
  Transparent = 20,
  SoundTweaked = 21,
  SetOmega = 22,
  TextureVelocity = 23,
  TextureVelocityPart = 24,
  SetLight = 25,
  CreateBlockingParticle = 26,
};

inline constexpr std::uint32_t kHookTypeCount = 27;

// "CreateBlockingParticle", or "" for a value outside 0..26.
[[nodiscard]] std::string_view hook_type_name(HookType type) noexcept;

// AnimHookDir: any i32 is kept as stored (retail does not validate it).
enum class HookDirection : std::int32_t {
  Unknown = -2,  // the constructor default; not expected on disk
  Backward = -1,
  Both = 0,
  Forward = 1,
};

struct NoOpHook {
  bool operator==(const NoOpHook&) const = default;
};
struct SoundHook {
  Did wave = 0;  // 0x0A...
  bool operator==(const SoundHook&) const = default;
};
struct SoundTableHook {
  std::uint32_t sound = 0;  // Sound enum looked up in the object's SoundTable
  bool operator==(const SoundTableHook&) const = default;
};
struct AttackHook {
  std::uint32_t part_index = 0;
  float left_x = 0, left_y = 0, right_x = 0, right_y = 0;
  float radius = 0, height = 0;
  bool operator==(const AttackHook&) const = default;
};
struct AnimationDoneHook {
  bool operator==(const AnimationDoneHook&) const = default;
};
struct ReplaceObjectHook {
  std::uint8_t part_index = 0;
  // A GfxObj DID (0x01000000 + offset, offset < 0x40000000); stored packed.
  Did gfx_obj = 0x01000000;
  bool operator==(const ReplaceObjectHook&) const = default;
};
struct EtherealHook {
  std::int32_t ethereal = 0;  // bool
  bool operator==(const EtherealHook&) const = default;
};
struct TransparentPartHook {
  std::uint32_t part_index = 0;
  float start = 0, end = 0, time = 0;
  bool operator==(const TransparentPartHook&) const = default;
};
struct LuminousHook {
  float start = 0, end = 0, time = 0;
  bool operator==(const LuminousHook&) const = default;
};
struct LuminousPartHook {
  std::uint32_t part_index = 0;
  float start = 0, end = 0, time = 0;
  bool operator==(const LuminousPartHook&) const = default;
};
struct DiffuseHook {
  float start = 0, end = 0, time = 0;
  bool operator==(const DiffuseHook&) const = default;
};
struct DiffusePartHook {
  std::uint32_t part_index = 0;
  float start = 0, end = 0, time = 0;
  bool operator==(const DiffusePartHook&) const = default;
};
struct ScaleHook {
  float end = 0, time = 0;
  bool operator==(const ScaleHook&) const = default;
};
struct CreateParticleHook {
  Did emitter_info = 0;                   // ParticleEmitterInfo 0x32...
  std::uint32_t part_index = 0xFFFFFFFF;  // 0xFFFFFFFF = the whole object
  Frame offset;                           // retail emission uses only its origin
  std::uint32_t emitter_id = 0;           // logical id; 0 = a new anonymous emitter
  bool operator==(const CreateParticleHook&) const = default;
};
// Same payload as CreateParticle (retail subclass with the same UnPack);
// executing it creates nothing when emitter_id names a live emitter.
struct CreateBlockingParticleHook : CreateParticleHook {
  bool operator==(const CreateBlockingParticleHook&) const = default;
};
struct DestroyParticleHook {
  std::uint32_t emitter_id = 0;
  bool operator==(const DestroyParticleHook&) const = default;
};
struct StopParticleHook {
  std::uint32_t emitter_id = 0;
  bool operator==(const StopParticleHook&) const = default;
};
struct NoDrawHook {
  std::uint32_t no_draw = 0;  // bool
  bool operator==(const NoDrawHook&) const = default;
};
struct DefaultScriptHook {
  bool operator==(const DefaultScriptHook&) const = default;
};
struct DefaultScriptPartHook {
  std::uint32_t part_index = 0;
  bool operator==(const DefaultScriptPartHook&) const = default;
};
struct CallPESHook {
  Did script = 0;  // PhysicsScript 0x33...
  float pause = 0;
  bool operator==(const CallPESHook&) const = default;
};
struct TransparentHook {
  float start = 0, end = 0, time = 0;
  bool operator==(const TransparentHook&) const = default;
};
struct SoundTweakedHook {
  Did wave = 0;
  float probability = 0;  // retail order: probability, then priority
  float priority = 0;
  float volume = 0;
  bool operator==(const SoundTweakedHook&) const = default;
};
struct SetOmegaHook {
  glm::vec3 axis{0.0F};
  bool operator==(const SetOmegaHook&) const = default;
};
struct TextureVelocityHook {
  float u_speed = 0, v_speed = 0;
  bool operator==(const TextureVelocityHook&) const = default;
};
struct TextureVelocityPartHook {
  std::uint32_t part_index = 0;
  float u_speed = 0, v_speed = 0;
  bool operator==(const TextureVelocityPartHook&) const = default;
};
struct SetLightHook {
  std::int32_t lights_on = 0;  // bool
  bool operator==(const SetLightHook&) const = default;
};

// Alternative index == HookType value.
using HookPayload =
    std::variant<NoOpHook, SoundHook, SoundTableHook, AttackHook, AnimationDoneHook, ReplaceObjectHook, EtherealHook,
                 TransparentPartHook, LuminousHook, LuminousPartHook, DiffuseHook, DiffusePartHook, ScaleHook,
                 CreateParticleHook, DestroyParticleHook, StopParticleHook, NoDrawHook, DefaultScriptHook,
                 DefaultScriptPartHook, CallPESHook, TransparentHook, SoundTweakedHook, SetOmegaHook,
                 TextureVelocityHook, TextureVelocityPartHook, SetLightHook, CreateBlockingParticleHook>;

static_assert(std::variant_size_v<HookPayload> == kHookTypeCount);

struct AnimationHook {
  HookDirection direction = HookDirection::Both;
  HookPayload payload;

  [[nodiscard]] HookType type() const noexcept { return static_cast<HookType>(payload.index()); }
  bool operator==(const AnimationHook&) const = default;
};

// Reads one hook including its trailing alignment. `r` must have been built
// over the whole record (its first byte is the record's DID), because the
// alignment is relative to that byte. Unknown types are an Invalid error at
// the type field; a cut payload or pad is Truncated.
Result<AnimationHook> read_animation_hook(ByteReader& r);
// Writes type, direction, payload and zero padding (relative to w's start).
void write_animation_hook(ByteWriter& w, const AnimationHook& hook);
// {"type":"CreateParticle","direction":"Forward",...payload fields}
void write_json(core::JsonWriter& j, const AnimationHook& hook);

}  // namespace dereth::dat
