#pragma once
// Animation (0x03) and AnimationFrame (spec/dat-format.md 3.3).
//
// Animation: u32 DID, u32 flags (0x1 = has pos frames), u32 numParts,
// u32 numFrames, [numFrames x Frame pos frames], numFrames x AnimationFrame.
// AnimationFrame: numParts x Frame, u32 numHooks, numHooks x AnimationHook
// (each hook re-aligned to four bytes from the record's DID).

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/animation_hook.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct AnimationFrame {
  // One absolute object-space frame per part (CPartArray::UpdateParts).
  std::vector<Frame> part_frames;
  std::vector<AnimationHook> hooks;
  bool operator==(const AnimationFrame&) const = default;
};

// Reads numParts frames, the hook count and the hooks. `r` must have been
// built over the whole record (hook alignment is relative to its first byte).
Result<AnimationFrame> read_animation_frame(ByteReader& r, std::uint32_t num_parts);
// Writes exactly num_parts part frames (missing ones as the identity frame,
// extra ones dropped), then the hooks.
void write_animation_frame(ByteWriter& w, const AnimationFrame& frame, std::uint32_t num_parts);
void write_json(core::JsonWriter& j, const AnimationFrame& frame);

struct Animation {
  Did id = 0;
  std::uint32_t flags = 0;  // 0x1: pos_frames present
  std::uint32_t num_parts = 0;
  // Root motion, one per frame; written only when flags & 0x1.
  std::vector<Frame> pos_frames;
  std::vector<AnimationFrame> frames;

  static constexpr std::uint32_t kHasPosFrames = 0x1;

  bool operator==(const Animation&) const = default;
};

Result<Animation> read_animation(std::span<const std::uint8_t> bytes, Did id);
// numFrames = frames.size(); with kHasPosFrames, exactly that many pos frames
// are written (identity for missing ones).
std::vector<std::uint8_t> write_animation(const Animation& anim);
void write_json(core::JsonWriter& j, const Animation& anim);

}  // namespace dereth::dat
