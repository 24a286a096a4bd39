#pragma once
// The seam a Sequence reads Animation records through (retail DBObj::Get for
// 0x03 ids); the object factory's RecordCache answers it in the app.

#include <cstdint>
#include <memory>

#include "dereth/dat/animation.hpp"

namespace dereth::sim {

// Where a sequence gets its Animation records (DBObj::Get for 0x03 ids).
// nullptr means absent or unreadable; the node is then discarded, as retail
// discards a node whose animation did not load.
class AnimationSource {
 public:
  AnimationSource() = default;
  AnimationSource(const AnimationSource&) = delete;
  AnimationSource& operator=(const AnimationSource&) = delete;
  virtual ~AnimationSource() = default;
  [[nodiscard]] virtual std::shared_ptr<const dat::Animation> get_animation(std::uint32_t did) = 0;
};

}  // namespace dereth::sim
