#pragma once
// Builders shared by the anim_* tests: in-memory Animations and an
// AnimationSource over them, and readers for the hooks a Sequence stages.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/dat/animation.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/motion/dat_movement_manager.hpp"
#include "dereth/sim/motion/motion_interp.hpp"
#include "dereth/sim/motion/motion_table.hpp"
#include "dereth/sim/motion/motion_table_manager.hpp"
#include "dereth/sim/motion/movement_error.hpp"
#include "dereth/sim/motion/sequence.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

namespace dereth::sim::test {

// The marker staged_hooks() reports for an AnimDone hook.
inline constexpr std::uint32_t kAnimDone = 0xA0D0A0D0u;

// An Animation of `frames` frames and `parts` parts. Part 0 of frame f sits
// at (f, 0, 0) so a pose names its frame; with `step`, every frame carries a
// pos frame moving `step` along +Y. Every frame holds one SoundTable hook
// whose sound is `hook_base + f`, in direction `dir` (none when hook_base is 0).
inline dat::Animation make_animation(std::uint32_t id, std::uint32_t frames, std::uint32_t parts = 1,
                                     std::uint32_t hook_base = 0, dat::HookDirection dir = dat::HookDirection::Forward,
                                     float step = 0.0f) {
  dat::Animation a;
  a.id = id;
  a.num_parts = parts;
  if (step != 0.0f) a.flags = dat::Animation::kHasPosFrames;
  for (std::uint32_t f = 0; f < frames; ++f) {
    dat::AnimationFrame frame;
    for (std::uint32_t p = 0; p < parts; ++p) {
      frame.part_frames.push_back(dat::Frame{{static_cast<float>(f), static_cast<float>(p), 0.0f}, {1, 0, 0, 0}});
    }
    if (hook_base != 0) frame.hooks.push_back(dat::AnimationHook{dir, dat::SoundTableHook{hook_base + f}});
    a.frames.push_back(std::move(frame));
    if (step != 0.0f) a.pos_frames.push_back(dat::Frame{{0.0f, step, 0.0f}, {1, 0, 0, 0}});
  }
  return a;
}

class MapAnimations final : public AnimationSource {
 public:
  std::shared_ptr<const dat::Animation> get_animation(std::uint32_t did) override {
    ++lookups;
    auto it = anims.find(did);
    return it != anims.end() ? it->second : nullptr;
  }
  void add(dat::Animation a) {
    const std::uint32_t id = a.id;
    anims[id] = std::make_shared<const dat::Animation>(std::move(a));
  }
  std::map<std::uint32_t, std::shared_ptr<const dat::Animation>> anims;
  int lookups = 0;
};

inline dat::AnimData anim_data(std::uint32_t id, float framerate = 30.0f, std::int32_t low = 0,
                               std::int32_t high = -1) {
  return dat::AnimData{id, low, high, framerate};
}

// The hooks staged on `owner` since its last process_hooks, as sound ids
// (SoundTable hooks) or kAnimDone; then runs process_hooks to clear them.
inline std::vector<std::uint32_t> take_staged(PhysicsObj& owner) {
  std::vector<std::uint32_t> out;
  for (const auto& hook : owner.anim_hooks()) {
    if (dynamic_cast<const AnimDoneHook*>(hook.get()) != nullptr) {
      out.push_back(kAnimDone);
    } else if (const auto* dat_hook = dynamic_cast<const DatAnimHook*>(hook.get())) {
      if (const auto* s = std::get_if<dat::SoundTableHook>(&dat_hook->hook().payload)) {
        out.push_back(s->sound);
      } else {
        out.push_back(0xFFFF0000u | static_cast<std::uint32_t>(dat_hook->hook().type()));
      }
    }
  }
  owner.process_hooks();
  return out;
}

// A bare owner for sequences and part arrays.
struct Owner {
  Owner() : context(clock), object(context, 0x50000001, LocalId{1}) {}
  Owner(const Owner&) = delete;
  Owner& operator=(const Owner&) = delete;
  core::ManualClock clock;
  SimContext context;
  PhysicsObj object;
};

// The demo world's portal DAT, built once.
inline const dat::DatFile& demo_portal() {
  static const dat::DatFile file = [] {
    auto world = demo::build_demo_world();
    if (!world) throw std::runtime_error("demo world: " + world.error().message());
    auto dat = dat::DatFile::from_bytes(std::move(world->portal), "demo client_portal.dat");
    if (!dat) throw std::runtime_error("demo portal: " + dat.error().message());
    return std::move(*dat);
  }();
  return file;
}

inline bool near(float a, float b, float eps = 1e-4f) {
  return a - b < eps && b - a < eps;
}
inline bool near(const glm::vec3& a, const glm::vec3& b, float eps = 1e-4f) {
  return near(a.x, b.x, eps) && near(a.y, b.y, eps) && near(a.z, b.z, eps);
}

}  // namespace dereth::sim::test
