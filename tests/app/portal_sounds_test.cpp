// gmSmartBoxUI's portal sounds (app::PortalSounds): Sound_UI_EnterPortal
// when the teleport animation begins and Sound_UI_ExitPortal at
// SmartBox::Show, played once each from the UI sound table at the listener
// (SoundManager::PlaySoundFromCenter 0x00550950); none without that table
// (the demo's DATs have none).
#include "dereth/app/portal_sounds.hpp"

#include <catch2/catch.hpp>

#include <utility>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/sound_table.hpp"

using namespace dereth;

namespace {

constexpr std::uint32_t kEnterWave = 0x0A000246;
constexpr std::uint32_t kExitWave = 0x0A000245;

dat::DatFile ui_portal(bool with_table) {
  dat::DatWriter w;
  dat::SoundTable t;
  t.id = with_table ? app::kUiSoundTable : 0x20000001U;
  for (const auto& [sound, wave] :
       {std::pair{app::kSoundUiEnterPortal, kEnterWave}, std::pair{app::kSoundUiExitPortal, kExitWave}}) {
    dat::SoundTableData child;
    child.hash_key = sound;
    child.entries = {dat::SoundEntry{wave, 0.5F, 1.0F, 0.8F}};
    t.root.children.push_back(child);
  }
  w.add(t.id, dat::write_sound_table(t));
  auto bytes = w.build();
  REQUIRE(bytes.has_value());
  auto file = dat::DatFile::from_bytes(std::move(*bytes), "ui-sound portal");
  REQUIRE(file.has_value());
  return std::move(*file);
}

sim::PortalSpace counts(std::uint64_t enter, std::uint64_t exit) {
  sim::PortalSpace p;
  p.enter_sounds = enter;
  p.exit_sounds = exit;
  return p;
}

}  // namespace

TEST_CASE(
    "SoundManager::PlaySoundFromCenter 0x00550950 gmSmartBoxUI's portal sounds play once each from the UI "
    "sound table, at the listener",
    "[retail][app][portal][audio]") {
  const dat::DatFile dat = ui_portal(true);
  dat::RecordCache records(&dat);
  app::PortalSounds sounds;
  const glm::vec3 ear{10.0F, 20.0F, 3.0F};
  CHECK(sounds.take(counts(0, 0), &records, ear, core::Seconds{1.0}).empty());
  const auto enter = sounds.take(counts(1, 0), &records, ear, core::Seconds{2.0});
  REQUIRE(enter.size() == 1);
  CHECK(enter[0].wave_id == kEnterWave);
  CHECK(enter[0].sound_type == app::kSoundUiEnterPortal);
  CHECK(enter[0].volume == 0.8F);
  CHECK(enter[0].position == ear);
  CHECK(enter[0].owner == sim::LocalId::None);
  CHECK(enter[0].time == core::Seconds{2.0});
  // The same counts again (a later snapshot of the same tunnel): nothing new.
  CHECK(sounds.take(counts(1, 0), &records, ear, core::Seconds{3.0}).empty());
  const auto exit = sounds.take(counts(1, 1), &records, ear, core::Seconds{9.0});
  REQUIRE(exit.size() == 1);
  CHECK(exit[0].wave_id == kExitWave);
  CHECK(exit[0].sound_type == app::kSoundUiExitPortal);
  // Two teleports between snapshots: both heard, entering first.
  const auto both = sounds.take(counts(2, 2), &records, ear, core::Seconds{20.0});
  REQUIRE(both.size() == 2);
  CHECK(both[0].wave_id == kEnterWave);
  CHECK(both[1].wave_id == kExitWave);
}

TEST_CASE("gmSmartBoxUI's portal sounds: without the UI sound table (the demo's DATs) or a DAT, none play",
          "[app][portal][audio]") {
  const dat::DatFile dat = ui_portal(false);
  dat::RecordCache records(&dat);
  app::PortalSounds sounds;
  CHECK(sounds.take(counts(1, 1), &records, {}, core::Seconds{1.0}).empty());
  app::PortalSounds no_dat;
  CHECK(no_dat.take(counts(1, 1), nullptr, {}, core::Seconds{1.0}).empty());
  // The counts advanced: a table found later does not replay old sounds.
  const dat::DatFile with = ui_portal(true);
  dat::RecordCache later(&with);
  CHECK(no_dat.take(counts(1, 1), &later, {}, core::Seconds{2.0}).empty());
}
