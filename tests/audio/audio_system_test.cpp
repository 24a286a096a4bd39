// AudioSystem: a frame's requests played in order from the camera, with waves
// read from a DAT, decoded once and cached; bad waves logged once, never played.
#include "dereth/audio/audio_system.hpp"

#include <catch2/catch.hpp>

#include <vector>

#include "dereth/audio/null_backend.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/demo/demo_world.hpp"

#include "audio_test_support.hpp"

using namespace dereth;
using namespace dereth::audio;

namespace {

constexpr std::uint32_t kGood = 0x0A000001;
constexpr std::uint32_t kMp3 = 0x0A000002;
constexpr std::uint32_t kMissing = 0x0A000003;
constexpr std::uint32_t kBroken = 0x0A000004;

dat::DatFile portal() {
  dat::DatWriter w;
  w.add(kGood, dat::write_wave(test::sine_wave(kGood, 440.0, 22050, 0.5)));
  dat::Wave mp3{kMp3, test::wave_header(dat::kWaveFormatMp3, 1, 22050, 0), std::vector<std::uint8_t>(64)};
  w.add(kMp3, dat::write_wave(mp3));
  std::vector<std::uint8_t> broken = dat::write_wave(test::sine_wave(kBroken, 440.0, 22050, 0.1));
  broken.resize(20);  // cut inside the header
  w.add(kBroken, broken);
  auto bytes = w.build();
  REQUIRE(bytes.has_value());
  auto file = dat::DatFile::from_bytes(std::move(*bytes), "audio-test portal");
  REQUIRE(file.has_value());
  return std::move(*file);
}

SoundRequest request(std::uint32_t owner, std::uint32_t wave, glm::vec3 at, double t) {
  SoundRequest r;
  r.owner = static_cast<dereth::sim::LocalId>(owner);
  r.wave_id = wave;
  r.priority = 0.5f;
  r.position = at;
  r.time = core::Seconds{t};
  return r;
}

}  // namespace

TEST_CASE("AudioSystem plays a frame's requests in order from the camera, decoding each wave once", "[audio][system]") {
  const dat::DatFile dat = portal();
  auto null = std::make_unique<NullBackend>();
  NullBackend* recorder = null.get();
  dat::RecordCache cache(&dat);
  AudioSystem system(std::move(null), &cache);

  const Listener camera{{0.0f, 0.0f, 2.0f}, glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  const std::vector<SoundRequest> frame1 = {
      request(1, kGood, {0.0f, 10.0f, 2.0f}, 0.0),   request(2, kMp3, {0.0f, 1.0f, 2.0f}, 0.0),
      request(3, kMissing, {0.0f, 1.0f, 2.0f}, 0.0), request(4, kBroken, {0.0f, 1.0f, 2.0f}, 0.0),
      request(5, 0, {0.0f, 1.0f, 2.0f}, 0.0),  // the table chose no wave
      request(6, kGood, {500.0f, 0.0f, 2.0f}, 0.0)};
  system.update(frame1, camera, core::Seconds{0.0});
  const Listener moved{{0.0f, 100.0f, 2.0f}, glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  const std::vector<SoundRequest> frame2 = {request(7, kGood, {0.0f, 110.0f, 2.0f}, 1.0),
                                            request(8, kMp3, {0.0f, 110.0f, 2.0f}, 1.0)};
  system.update(frame2, moved, core::Seconds{1.0});

  const auto& records = recorder->records();
  REQUIRE(records.size() == 8);
  for (std::size_t i = 0; i < records.size(); ++i) CHECK(static_cast<std::uint32_t>(records[i].request.owner) == i + 1);
  CHECK(records[0].result.outcome == PlayOutcome::Started);
  CHECK(records[0].result.attenuation == -12);
  CHECK(records[0].listener == camera);
  CHECK(records[1].result.outcome == PlayOutcome::NoWave);  // MP3 is not decoded
  CHECK(records[2].result.outcome == PlayOutcome::NoWave);  // not in the DAT
  CHECK(records[3].result.outcome == PlayOutcome::NoWave);  // malformed
  CHECK(records[4].result.outcome == PlayOutcome::NoWave);
  CHECK(records[5].result.outcome == PlayOutcome::CutOff);
  CHECK(records[6].result.outcome == PlayOutcome::Started);  // heard from the moved camera: 10 m
  CHECK(records[6].result.attenuation == -12);
  CHECK(records[6].listener == moved);
  CHECK(records[7].result.outcome == PlayOutcome::NoWave);

  // Decoded once, each failure counted once (the MP3 was asked for twice).
  CHECK(system.stats().waves_decoded == 1);
  CHECK(system.stats().waves_failed == 3);
  CHECK(system.stats().frames == 2);
  CHECK(system.cached_waves() == 4);
  const auto good = system.wave(kGood);
  REQUIRE(good != nullptr);
  CHECK(good == system.wave(kGood));
  CHECK(good->samples.size() == 11025);
  CHECK(system.wave(kMp3) == nullptr);
  CHECK(system.backend().now() == core::Seconds{1.0});
}

TEST_CASE("AudioSystem without a DAT plays only waves given to it, a null backend defaults to NullBackend",
          "[audio][system]") {
  AudioSystem system(nullptr, nullptr);
  CHECK(system.backend().name() == "null");
  system.add_wave(test::pcm_of(0x0A0000AA, 0.2));
  const std::vector<SoundRequest> frame = {request(1, 0x0A0000AA, {0.0f, 1.0f, 0.0f}, 0.0),
                                           request(2, 0x0A0000AB, {0.0f, 1.0f, 0.0f}, 0.0)};
  system.update(frame, Listener{}, core::Seconds{0.0});
  const auto& c = system.backend().counters();
  CHECK(c.started == 1);
  CHECK(c.no_wave == 1);
  CHECK(system.stats().waves_failed == 1);
}

TEST_CASE("AudioSystem decodes every wave of the synthetic demo world", "[audio][system][demo]") {
  auto world = demo::build_demo_world();
  REQUIRE(world.has_value());
  auto dat = dat::DatFile::from_bytes(std::move(world->portal), "demo portal");
  REQUIRE(dat.has_value());
  dat::RecordCache records(&*dat);
  AudioSystem system(std::make_unique<NullBackend>(), &records);
  int found = 0;
  for (std::uint32_t id = 0x0A000001; id <= 0x0A000005; ++id) {
    const auto pcm = system.wave(id);
    INFO(id);
    REQUIRE(pcm != nullptr);
    CHECK(pcm->sample_rate > 0);
    CHECK_FALSE(pcm->samples.empty());
    ++found;
  }
  CHECK(found == 5);
  CHECK(system.stats().waves_failed == 0);
}
