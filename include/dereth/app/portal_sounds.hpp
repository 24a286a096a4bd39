#pragma once
// gmSmartBoxUI's portal sounds: Sound_UI_EnterPortal when the teleport
// animation begins and Sound_UI_ExitPortal when the world is shown again
// (SmartBox::Show), each played from the UI sound table "from the centre"
// (SoundManager::PlaySoundFromCenter 0x00550950: GetSound, then
// PlayProbability, at the listener, not positioned). The render snapshot
// carries how many of each the world's sim::GmSmartBoxUi has begun
// (PortalSpace::enter_sounds, exit_sounds); the frame loop asks this for the
// ones new since the last snapshot. docs/render.md "Portal space".
//
// ClientUISystem::GetUISoundTable 0x00563FB0 finds the table through the
// enum mapper (DBObj::GetByEnum(0x10000003, 7, 0x22)), which dereth does not
// read; the retail portal DAT maps it to SoundTable 0x2000004B, so that id is
// read directly. A DAT without it (the demo's) plays nothing.

#include <cstdint>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/rng.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

namespace dereth::app {

inline constexpr std::uint32_t kUiSoundTable = 0x2000004B;
inline constexpr std::uint32_t kSoundUiEnterPortal = 0x6A;  // Sound_UI_EnterPortal
inline constexpr std::uint32_t kSoundUiExitPortal = 0x6B;   // Sound_UI_ExitPortal

class PortalSounds {
 public:
  // The UI sound table's entries are chosen with a generator of the UI's own
  // (retail's rand() is the process's), so the world's draws do not move.
  explicit PortalSounds(std::uint32_t seed = core::Rng::kDefaultSeed) noexcept : rng_(seed) {}

  // The sounds `portal` has begun since the last call, in order (entering
  // first), as sound requests at `listener` at `now`; `records` null or
  // without the UI sound table: none (the counts still advance).
  [[nodiscard]] std::vector<sim::SoundEvent> take(const sim::PortalSpace& portal, dat::RecordCache* records,
                                                  const glm::vec3& listener, core::Seconds now);

 private:
  core::Rng rng_;
  std::uint64_t enter_played_ = 0;
  std::uint64_t exit_played_ = 0;
};

}  // namespace dereth::app
