#pragma once
// MotionTable (0x09xxxxxx): a creature's styles, cycles, modifiers and the
// links between motions (CMotionTable::UnPack, MotionData::UnPack). Layout and
// how the keys are built: docs/dat.md "MotionTable".

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// AnimData (16 bytes).
struct AnimData {
  Did anim_id = 0;  // 0x03...
  std::int32_t low_frame = 0;
  std::int32_t high_frame = -1;  // inclusive; -1 = the last frame
  float framerate = 30.0F;       // negative plays reversed
  bool operator==(const AnimData&) const = default;
};

struct MotionData {
  // bit0: entering clears modifiers; bit1: only from the style's default substate.
  std::uint8_t bitfield = 0;
  std::uint8_t flags = 0;       // kHasVelocity / kHasOmega say which vectors follow
  std::vector<AnimData> anims;  // at most 255
  glm::vec3 velocity{0.0F};     // on disk only with kHasVelocity
  glm::vec3 omega{0.0F};        // on disk only with kHasOmega

  static constexpr std::uint8_t kHasVelocity = 0x1;
  static constexpr std::uint8_t kHasOmega = 0x2;

  bool operator==(const MotionData&) const = default;
};

struct MotionStyleDefault {
  std::uint32_t style = 0;
  std::uint32_t substate = 0;
  bool operator==(const MotionStyleDefault&) const = default;
};

struct MotionEntry {
  std::uint32_t key = 0;
  MotionData data;
  bool operator==(const MotionEntry&) const = default;
};

struct MotionLinks {
  std::uint32_t outer_key = 0;
  std::vector<MotionEntry> links;  // key = the full destination motion
  bool operator==(const MotionLinks&) const = default;
};

struct MotionTable {
  Did id = 0;
  std::uint32_t default_style = 0;  // e.g. 0x8000003D NonCombat
  std::vector<MotionStyleDefault> style_defaults;
  std::vector<MotionEntry> cycles;
  std::vector<MotionEntry> modifiers;
  std::vector<MotionLinks> links;
  bool operator==(const MotionTable&) const = default;
};

Result<MotionTable> read_motion_table(std::span<const std::uint8_t> bytes, Did id);
// A MotionData's anims are cut to 255; its vectors are written per its flags.
std::vector<std::uint8_t> write_motion_table(const MotionTable& table);
void write_json(core::JsonWriter& j, const MotionTable& table);

}  // namespace dereth::dat
