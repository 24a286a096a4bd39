#include "dereth/dat/animation.hpp"

namespace dereth::dat {

namespace {

constexpr std::size_t kFrameSize = 28;
constexpr std::size_t kHookMinSize = 8;

using core::JsonWriter;

}  // namespace

Result<AnimationFrame> read_animation_frame(ByteReader& r, std::uint32_t num_parts) {
  AnimationFrame frame;
  DERETH_TRY(const std::size_t parts, r.checked_count(num_parts, kFrameSize, "AnimationFrame.part_frames"));
  frame.part_frames.reserve(parts);
  for (std::size_t i = 0; i < parts; ++i) {
    DERETH_TRY(const Frame part, read_frame(r, "AnimationFrame.part_frames"));
    frame.part_frames.push_back(part);
  }
  DERETH_TRY(const std::size_t hooks, read_count(r, kHookMinSize, "AnimationFrame.num_hooks"));
  frame.hooks.reserve(hooks);
  for (std::size_t i = 0; i < hooks; ++i) {
    DERETH_TRY(AnimationHook hook, read_animation_hook(r));
    frame.hooks.push_back(std::move(hook));
  }
  return frame;
}

void write_animation_frame(ByteWriter& w, const AnimationFrame& frame, std::uint32_t num_parts) {
  for (std::uint32_t i = 0; i < num_parts; ++i) {
    write_frame(w, i < frame.part_frames.size() ? frame.part_frames[i] : Frame{});
  }
  w.u32(static_cast<std::uint32_t>(frame.hooks.size()));
  for (const auto& hook : frame.hooks) write_animation_hook(w, hook);
}

void write_json(JsonWriter& j, const AnimationFrame& frame) {
  j.begin_object();
  j.key("part_frames").begin_array();
  for (const auto& f : frame.part_frames) json_frame(j, f);
  j.end_array();
  j.key("hooks").begin_array();
  for (const auto& hook : frame.hooks) write_json(j, hook);
  j.end_array();
  j.end_object();
}

Result<Animation> read_animation(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "Animation");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  Animation anim;
  anim.id = id;
  DERETH_TRY(anim.flags, r.u32("flags"));
  DERETH_TRY(anim.num_parts, r.u32("num_parts"));
  const bool has_pos = (anim.flags & Animation::kHasPosFrames) != 0;
  // Each frame holds at least its part frames, its hook count and, with
  // pos frames, one more Frame.
  const std::size_t min_frame = 4 + kFrameSize * static_cast<std::size_t>(anim.num_parts) + (has_pos ? kFrameSize : 0);
  DERETH_TRY(const std::size_t num_frames, read_count(r, min_frame, "num_frames"));
  if (has_pos) {
    anim.pos_frames.reserve(num_frames);
    for (std::size_t i = 0; i < num_frames; ++i) {
      DERETH_TRY(const Frame f, read_frame(r, "pos_frames"));
      anim.pos_frames.push_back(f);
    }
  }
  anim.frames.reserve(num_frames);
  for (std::size_t i = 0; i < num_frames; ++i) {
    DERETH_TRY(AnimationFrame frame, read_animation_frame(r, anim.num_parts));
    anim.frames.push_back(std::move(frame));
  }
  DERETH_CHECK(r.expect_end());
  return anim;
}

std::vector<std::uint8_t> write_animation(const Animation& anim) {
  ByteWriter w;
  w.u32(anim.id);
  w.u32(anim.flags);
  w.u32(anim.num_parts);
  w.u32(static_cast<std::uint32_t>(anim.frames.size()));
  if ((anim.flags & Animation::kHasPosFrames) != 0) {
    for (std::size_t i = 0; i < anim.frames.size(); ++i) {
      write_frame(w, i < anim.pos_frames.size() ? anim.pos_frames[i] : Frame{});
    }
  }
  for (const auto& frame : anim.frames) write_animation_frame(w, frame, anim.num_parts);
  return std::move(w).take();
}

void write_json(JsonWriter& j, const Animation& anim) {
  j.begin_object();
  j.key("id").hex(anim.id);
  j.key("flags").hex(anim.flags);
  j.key("num_parts").number(anim.num_parts);
  if ((anim.flags & Animation::kHasPosFrames) != 0) {
    j.key("pos_frames").begin_array();
    for (const auto& f : anim.pos_frames) json_frame(j, f);
    j.end_array();
  }
  j.key("frames").begin_array();
  for (const auto& frame : anim.frames) write_json(j, frame);
  j.end_array();
  j.end_object();
}

}  // namespace dereth::dat
