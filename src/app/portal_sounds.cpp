#include "dereth/app/portal_sounds.hpp"

#include "dereth/sim/effects/effects.hpp"

namespace dereth::app {

std::vector<sim::SoundEvent> PortalSounds::take(const sim::PortalSpace& portal, dat::RecordCache* records,
                                                const glm::vec3& listener, core::Seconds now) {
  std::vector<sim::SoundEvent> out;
  std::shared_ptr<const dat::SoundTable> table;
  if ((portal.enter_sounds > enter_played_ || portal.exit_sounds > exit_played_) && records != nullptr &&
      records->portal() != nullptr) {
    // ClientUISystem::GetUISoundTable 0x00563FB0. A DAT without the table
    // (the demo's) is not a fault: nothing plays and nothing is logged.
    const auto entry = records->portal()->find(kUiSoundTable);
    if (entry && entry->has_value()) table = records->sound_table(kUiSoundTable);
  }
  // SoundManager::PlaySoundFromCenter 0x00550950
  const auto play = [&](std::uint32_t sound) {
    if (!table) return;
    const auto entry = sim::Effects::get_sound(*table, sound, rng_);  // SoundManager::GetSound
    if (!entry || !(rng_.unit() < entry->probability)) return;        // SoundManager::PlayProbability
    sim::SoundEvent e;
    e.wave_id = entry->wave;
    e.sound_type = sound;
    e.volume = entry->volume;
    e.priority = entry->priority;
    e.position = listener;  // from the centre: where the listener is
    e.time = now;
    out.push_back(e);
  };
  for (; enter_played_ < portal.enter_sounds; ++enter_played_) play(kSoundUiEnterPortal);
  for (; exit_played_ < portal.exit_sounds; ++exit_played_) play(kSoundUiExitPortal);
  return out;
}

}  // namespace dereth::app
