// NullBackend: every request recorded in order with what became of it, the
// same cut-off and voice pool as OpenAL, voices that finish with their wave.
#include "dereth/audio/null_backend.hpp"

#include <catch2/catch.hpp>

#include <vector>

#include "dereth/audio/open_audio.hpp"

#include "audio_test_support.hpp"

using namespace dereth;
using namespace dereth::audio;
using dereth::audio::test::pcm_of;

namespace {

SoundRequest request(std::uint32_t owner, std::uint32_t wave, glm::vec3 at, float priority = 0.5f, double t = 0.0) {
  SoundRequest r;
  r.owner = static_cast<dereth::sim::LocalId>(owner);
  r.wave_id = wave;
  r.sound_type = 0x5F;
  r.volume = 1.0f;
  r.priority = priority;
  r.position = at;
  r.time = core::Seconds{t};
  return r;
}

}  // namespace

TEST_CASE("NullBackend records every request in order with its outcome and listener", "[audio][null]") {
  NullBackend backend;
  const Listener camera{{1.0f, 2.0f, 3.0f}, glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  backend.set_listener(camera);
  const auto one_second = pcm_of(0x0A000001, 1.0);
  const std::vector<SoundRequest> requests = {
      request(7, 0x0A000001, {1.0f, 12.0f, 3.0f}),   // 10 m ahead: started, -12 dB
      request(8, 0x0A000002, {1.0f, 2.0f, 3.0f}),    // no samples: NoWave
      request(9, 0x0A000001, {301.0f, 2.0f, 3.0f}),  // 300 m: beyond the cut-off
      request(7, 0x0A000001, {11.0f, 2.0f, 3.0f}),   // 10 m east: started, panned right
  };
  backend.play(requests[0], one_second);
  backend.play(requests[1], nullptr);
  backend.play(requests[2], one_second);
  backend.play(requests[3], one_second);

  const auto& records = backend.records();
  REQUIRE(records.size() == requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) {
    CHECK(records[i].request == requests[i]);
    CHECK(records[i].listener == camera);
  }
  CHECK(records[0].result.outcome == PlayOutcome::Started);
  CHECK(records[0].result.voice == 0);
  CHECK(records[0].result.attenuation == -12);
  CHECK(records[0].result.pan == 0);
  CHECK(records[1].result.outcome == PlayOutcome::NoWave);
  CHECK(records[1].result.voice == -1);
  CHECK(records[2].result.outcome == PlayOutcome::CutOff);
  CHECK(records[2].result.distance == Approx(300.0f));
  CHECK(records[3].result.outcome == PlayOutcome::Started);
  CHECK(records[3].result.voice == 1);
  CHECK(records[3].result.pan == 14);

  const AudioCounters& c = backend.counters();
  CHECK(c.requests == 4);
  CHECK(c.started == 2);
  CHECK(c.no_wave == 1);
  CHECK(c.cut_off == 1);
  CHECK(c.no_voice == 0);
  CHECK(c.stolen == 0);
  CHECK(backend.voice_wave(0) == 0x0A000001);
  CHECK(backend.voice_end(0) == one_second->duration());
  CHECK(backend.name() == "null");
  CHECK(std::string(to_string(records[2].result.outcome)) == "cut-off");
  CHECK(std::string(to_string(records[1].result.outcome)) == "no-wave");

  backend.clear_records();
  CHECK(backend.records().empty());
}

TEST_CASE("NullBackend: 16 voices, priority stealing, drop on a tie, finished voices free", "[audio][null]") {
  NullBackend backend;
  const auto long_wave = pcm_of(0x0A000010, 2.0);
  for (std::uint32_t i = 0; i < 16; ++i) {
    const PlayResult r = backend.play(request(i + 1, 0x0A000010, {0.0f, 3.0f, 0.0f}, 0.5f, 0.0), long_wave);
    REQUIRE(r.outcome == PlayOutcome::Started);
    CHECK(r.voice == static_cast<int>(i));
  }
  for (std::size_t v = 0; v < kVoiceCount; ++v) CHECK(backend.voice_playing(v));
  // A tie is dropped and recorded as such.
  CHECK(backend.play(request(17, 0x0A000010, {0.0f, 3.0f, 0.0f}, 0.5f, 0.5), long_wave).outcome ==
        PlayOutcome::NoVoice);
  // A higher priority steals the voice at the cursor (retail order).
  const auto short_wave = pcm_of(0x0A000011, 0.25);
  PlayResult r = backend.play(request(18, 0x0A000011, {0.0f, 3.0f, 0.0f}, 0.9f, 1.0), short_wave);
  CHECK(r.outcome == PlayOutcome::Started);
  CHECK(r.voice == 0);
  CHECK(r.stole);
  CHECK(backend.voice_wave(0) == 0x0A000011);
  CHECK(backend.voice_end(0) == core::Seconds{1.0} + short_wave->duration());
  // A lower priority than everything sounding is dropped...
  CHECK(backend.play(request(19, 0x0A000010, {0.0f, 3.0f, 0.0f}, 0.1f, 1.1), long_wave).outcome ==
        PlayOutcome::NoVoice);
  // ... until time passes: at 1.3 s voice 0 (ended 1.25 s) is free again, but
  // the search starts at the cursor (1), and voices 1..15 still sound until
  // 2 s, so the first free one after the cursor is 0.
  backend.update(core::Seconds{1.3});
  CHECK_FALSE(backend.voice_playing(0));
  r = backend.play(request(20, 0x0A000010, {0.0f, 3.0f, 0.0f}, 0.1f, 1.3), long_wave);
  CHECK(r.outcome == PlayOutcome::Started);
  CHECK(r.voice == 0);
  CHECK(r.replaced);
  CHECK_FALSE(r.stole);
  // At 2 s every first-round voice has finished: the next sound goes to the cursor (1).
  r = backend.play(request(21, 0x0A000010, {0.0f, 3.0f, 0.0f}, 0.1f, 2.0), long_wave);
  CHECK(r.voice == 1);
  CHECK_FALSE(r.stole);

  const AudioCounters& c = backend.counters();
  CHECK(c.requests == 21);
  CHECK(c.started == 19);
  CHECK(c.stolen == 1);
  CHECK(c.no_voice == 2);
  // The records keep the order the requests came in.
  REQUIRE(backend.records().size() == 21);
  for (std::size_t i = 0; i < 21; ++i) CHECK(static_cast<std::uint32_t>(backend.records()[i].request.owner) == i + 1);
}

TEST_CASE("SoundManager::ShutDown 0x005502B0 (the voice part): stop_all stops all sixteen voices",
          "[retail][audio][null]") {
  NullBackend backend;
  const auto wave = pcm_of(0x0A000010, 2.0);
  for (std::uint32_t i = 0; i < 16; ++i) {
    REQUIRE(backend.play(request(i, 0x0A000010, {0.0f, 3.0f, 0.0f}, 0.5f), wave).outcome == PlayOutcome::Started);
  }
  backend.stop_all();
  for (std::size_t v = 0; v < kVoiceCount; ++v) {
    CHECK_FALSE(backend.voice_playing(v));
    CHECK(backend.voice_wave(v) == 0);
    CHECK_FALSE(backend.manager().slots()[v].used);
  }
  // Every voice is free again: sixteen more start without stealing, from the cursor (which stays).
  const std::size_t cursor = backend.manager().cursor();
  for (std::uint32_t i = 0; i < 16; ++i) {
    const PlayResult r = backend.play(request(i, 0x0A000010, {0.0f, 3.0f, 0.0f}, 0.5f), wave);
    CHECK(r.voice == static_cast<int>((cursor + i) % kVoiceCount));
    CHECK_FALSE(r.stole);
  }
  CHECK(backend.counters().stolen == 0);
}

TEST_CASE("NullBackend: the distance cut-off of spec/physics.md 9.4 at full and reduced volume", "[audio][null]") {
  NullBackend backend;
  const auto wave = pcm_of(0x0A000001, 0.1);
  auto at = [&](float metres, float volume) {
    SoundRequest r = request(1, 0x0A000001, {0.0f, metres, 0.0f});
    r.volume = volume;
    const PlayResult result = backend.play(r, wave);
    backend.stop_all();
    return result.outcome;
  };
  CHECK(at(94.0f, 1.0f) == PlayOutcome::Started);
  CHECK(at(94.5f, 1.0f) == PlayOutcome::CutOff);
  CHECK(at(66.0f, 0.5f) == PlayOutcome::Started);  // 25*0.5/66^2 -> -50.9 -> -50
  CHECK(at(67.0f, 0.5f) == PlayOutcome::CutOff);   // -51.1
  // The effect slider moves the cut-off in.
  SoundSettings s;
  s.effect_volume = 0.5f;
  backend.set_settings(s);
  CHECK(at(66.0f, 1.0f) == PlayOutcome::Started);
  CHECK(at(67.0f, 1.0f) == PlayOutcome::CutOff);
  CHECK(backend.counters().cut_off == 3);
}

TEST_CASE("NullBackend keeps the earliest records up to its limit and counts the rest", "[audio][null]") {
  NullBackend backend({}, 3);
  for (std::uint32_t i = 0; i < 5; ++i) backend.play(request(i, 0, {0.0f, 0.0f, 0.0f}), nullptr);
  REQUIRE(backend.records().size() == 3);
  CHECK(backend.records()[2].request.owner == dereth::sim::LocalId{2});
  CHECK(backend.records_dropped() == 2);
  CHECK(backend.counters().requests == 5);
}

TEST_CASE("open_audio falls back to the null backend with a reason, and keeps the probe's stderr quiet",
          "[audio][open]") {
  AudioOptions off;
  off.enabled = false;
  OpenedAudio a = open_audio(off);
  REQUIRE(a.backend);
  CHECK(a.backend->name() == "null");
  CHECK(a.fallback_reason == "audio is turned off");

  // On a machine with a sound device this opens OpenAL; on these machines
  // (no device) it must fall back. Either way the pair is consistent.
  AudioOptions on;
  on.sound.effect_volume = 0.5f;
  OpenedAudio b = open_audio(on);
  REQUIRE(b.backend);
  if (b.backend->name() == "null") {
    CHECK_FALSE(b.fallback_reason.empty());
    CHECK(b.fallback_reason.find("cannot open the sound device (") == 0);  // words, not "i/o error at offset 0"
    CHECK(b.fallback_reason.find("offset") == std::string::npos);
  } else {
    CHECK(b.backend->name() == "openal");
    CHECK(b.fallback_reason.empty());
  }
  CHECK(b.backend->settings().effect_volume == 0.5f);

  AudioOptions named;
  named.device = "no such device (dereth test)";
  OpenedAudio c = open_audio(named);
  REQUIRE(c.backend);
  CHECK(c.backend->name() == "null");
  CHECK(c.fallback_reason.find("no such device (dereth test)") != std::string::npos);
}
