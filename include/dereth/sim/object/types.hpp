#pragma once
// Shared simulation vocabulary: the canonical local id, float quanta, and the
// retail constants the object loop uses (seed retail-projectile-vfx sections
// 3 and 9, spec/physics.md section 0.1).

#include <chrono>
#include <cstdint>

#include "dereth/core/clock.hpp"
#include "dereth/core/frame.hpp"
#include "dereth/snapshot/local_id.hpp"

namespace dereth::sim {

// A physics quantum. Retail passes quanta as 32-bit floats into
// UpdateObjectInternal and below while it keeps clocks in doubles
// (core::Seconds).
using FloatSeconds = std::chrono::duration<float>;

// CPhysicsObj::update_object 0x00515D10 and CPhysics::UseTime 0x00509950
// globals, resolved from the matching executable (seed section 9, decisions 3).
inline constexpr core::Seconds kMaxQuantum{0.2};
inline constexpr core::Seconds kMinQuantum{1.0 / 30.0};
inline constexpr core::Seconds kHugeQuantum{2.0};
// PhysicsGlobals EPSILON as update_object compares it (0.00019999999).
inline constexpr core::Seconds kTinyQuantum{core::kEpsilonDouble};

// PhysicsGlobals.
inline constexpr float kGravity = -9.8f;        // PhysicsGlobals::gravity
inline constexpr float kMaxVelocity = 50.0f;    // UpdatePhysicsInternal clamp
inline constexpr float kSmallVelocity = 0.25f;  // near-stop speed
inline constexpr float kPhysicsEpsilon = core::kEpsilon;
inline constexpr float kActivityRadius = 96.0f;            // update_object / MoveOrTeleport
inline constexpr float kDefaultFriction = 0.94999999f;     // DEFAULT_FRICTION
inline constexpr float kDefaultElasticity = 0.050000001f;  // DEFAULT_ELASTICITY
inline constexpr float kMaxElasticity = 0.1f;              // set_elasticity clamp
inline constexpr float kDefaultTranslucency = 0.0f;        // DEFAULT_TRANSLUCENCY
// PhysicsGlobals::floor_z = (float)cos(3437.746770784939) (acclient.c 800527):
// retail meant 60 degrees and took radians for degrees, so the walkable limit
// is about 48.4 degrees (spec/physics.md 0.1 and 6.5).
inline constexpr float kFloorZ = 0.66417414f;
// The landing allowance, sin(5 degrees), that CTransition::transitional_insert
// 0x0050B6F0 passes to check_walkable and find_placement_position 0x0050C170
// to step_down (literal 0.0871557 in the binary).
inline constexpr float kLandingZ = 0.0871557f;

// CPhysicsObj::is_valid_walkable 0x0050F530: a surface normal is walkable iff
// its z is at least floor_z (compared in double; NaN is not walkable).
[[nodiscard]] constexpr bool is_valid_walkable(float normal_z) noexcept {
  return static_cast<double>(normal_z) >= static_cast<double>(kFloorZ);
}

// CPhysicsObj::CPhysicsObj 0x005123F0 (assignment at 0x00512508):
// EdgeSlide | Lighting | Gravity | ReportCollisions, no Hidden.
inline constexpr std::uint32_t kInitialState = 0x00400C08;

// TransientState (retail enum TransientState).
namespace transient_state {
inline constexpr std::uint32_t Contact = 0x1;
inline constexpr std::uint32_t OnWalkable = 0x2;
inline constexpr std::uint32_t Sliding = 0x4;
inline constexpr std::uint32_t WaterContact = 0x8;
inline constexpr std::uint32_t StationaryFall = 0x10;
inline constexpr std::uint32_t StationaryStop = 0x20;
inline constexpr std::uint32_t StationaryStuck = 0x40;
inline constexpr std::uint32_t Active = 0x80;
inline constexpr std::uint32_t CheckEthereal = 0x100;
}  // namespace transient_state

// OBJECTINFO state bits (retail enum ObjectInfoEnum), the transition flags
// get_object_info returns.
namespace object_info_state {
inline constexpr std::uint32_t Contact = 0x1;
inline constexpr std::uint32_t OnWalkable = 0x2;
inline constexpr std::uint32_t IsViewer = 0x4;
inline constexpr std::uint32_t PathClipped = 0x8;
inline constexpr std::uint32_t FreeRotate = 0x10;
inline constexpr std::uint32_t PerfectClip = 0x40;
inline constexpr std::uint32_t IsImpenetrable = 0x80;
inline constexpr std::uint32_t IsPlayer = 0x100;
inline constexpr std::uint32_t EdgeSlide = 0x200;
inline constexpr std::uint32_t IgnoreCreatures = 0x400;
inline constexpr std::uint32_t IsPk = 0x800;
inline constexpr std::uint32_t IsPkLite = 0x1000;
}  // namespace object_info_state

// PScriptType values the physics object itself plays (retail enum PScriptType).
namespace script_type {
inline constexpr std::uint32_t UnHide = 0x75;  // PS_UnHide
inline constexpr std::uint32_t Hidden = 0x76;  // PS_Hidden
}  // namespace script_type

}  // namespace dereth::sim
