// Retail SoundManager (RE PORTAL/sound/SoundManager.c; spec/physics.md 9.4,
// 9.5): attenuation and its cut-off, pan from the camera, the 16-voice pool.
#include "dereth/audio/sound_manager.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <limits>

#include "dereth/core/frame.hpp"

using namespace dereth;
using namespace dereth::audio;

namespace {

// Voices that sound until told otherwise.
class FakeVoices final : public VoiceStatus {
 public:
  bool voice_playing(std::size_t voice) override { return playing[voice]; }
  std::array<bool, kVoiceCount> playing{};
};

Listener facing(float heading_degrees, glm::vec3 at = {0.0f, 0.0f, 0.0f}) {
  core::Frame f;
  f.set_heading(heading_degrees);
  return Listener{at, f.orientation()};
}

// Starts a sound of `priority` and marks its voice as sounding.
PlayResult start(SoundManager& m, FakeVoices& voices, float priority, double t = 0.0) {
  PlayResult r = m.play_sound_internal(priority, 0, 0, core::Seconds{t}, voices);
  if (r.outcome == PlayOutcome::Started) voices.playing[static_cast<std::size_t>(r.voice)] = true;
  return r;
}

}  // namespace

TEST_CASE("SoundManager::GetAttenuation 0x00550020: inverse square beyond 5 m, whole dB, VOL_MIN cut-off",
          "[retail][audio]") {
  SoundManager m;
  // Inside 5 m the volume is used as is.
  CHECK(m.get_attenuation(0.0f, 1.0f, false) == Attenuation{true, 0});
  CHECK(m.get_attenuation(4.99f, 0.5f, false) == Attenuation{true, -6});  // ceil(-6.0206)
  CHECK(m.get_attenuation(4.99f, 0.25f, false) == Attenuation{true, -12});
  // At 5 m and beyond: 25 * volume / d^2, clamped to 1.
  CHECK(m.get_attenuation(5.0f, 1.0f, false) == Attenuation{true, 0});
  CHECK(m.get_attenuation(5.0f, 4.0f, false) == Attenuation{true, 0});     // 4 clamps to 1
  CHECK(m.get_attenuation(10.0f, 1.0f, false) == Attenuation{true, -12});  // 0.25 -> -12.04 -> -12
  CHECK(m.get_attenuation(20.0f, 1.0f, false) == Attenuation{true, -24});  // 1/16 -> -24.08 -> -24
  // The cut-off: ceil(6.0206*log2(25/d^2)) must be >= -50, about 94.17 m at full volume.
  CHECK(m.get_attenuation(94.0f, 1.0f, false) == Attenuation{true, -50});  // -50.97 rounds up to -50
  CHECK(m.get_attenuation(95.0f, 1.0f, false) == Attenuation{false, kVolMin});
  CHECK(m.get_attenuation(1000.0f, 1.0f, false) == Attenuation{false, kVolMin});
  // A quieter sound is cut off sooner: volume 0.5 at 70 m is 25*0.5/4900 -> -51.7 dB.
  CHECK_FALSE(m.get_attenuation(70.0f, 0.5f, false).audible);
  CHECK(m.get_attenuation(60.0f, 0.5f, false) == Attenuation{true, -49});  // -49.19 -> -49
  // Zero or negative gain never plays.
  CHECK(m.get_attenuation(1.0f, 0.0f, false) == Attenuation{false, kVolMin});
  CHECK(m.get_attenuation(1.0f, -1.0f, false) == Attenuation{false, kVolMin});
  CHECK_FALSE(m.get_attenuation(1.0f, std::numeric_limits<float>::quiet_NaN(), false).audible);

  // The slider multiplies inside the log, after the clamp; ambient uses its own slider.
  SoundSettings s;
  s.effect_volume = 0.5f;
  s.ambient_volume = 0.25f;
  m.set_settings(s);
  CHECK(m.get_attenuation(0.0f, 1.0f, false) == Attenuation{true, -6});
  CHECK(m.get_attenuation(0.0f, 1.0f, true) == Attenuation{true, -12});
  CHECK(m.get_attenuation(5.0f, 8.0f, false) == Attenuation{true, -6});  // min(8, 1) * 0.5
  // The cut-off moves in: at 70 m full volume gives -45.4 dB, halved -51.4.
  CHECK_FALSE(m.get_attenuation(70.0f, 1.0f, false).audible);
  // A slider at 0 silences everything; sliders are clamped to [0, 1].
  s.effect_volume = 0.0f;
  m.set_settings(s);
  CHECK_FALSE(m.get_attenuation(0.0f, 1.0f, false).audible);
  s.effect_volume = 3.0f;
  m.set_settings(s);
  CHECK(m.settings().effect_volume == 1.0f);
}

TEST_CASE("SoundManager::PlaySoundInternal 0x00550170: pan from the listener's heading, none within 5 m or in mono",
          "[retail][audio]") {
  SoundManager m;
  FakeVoices voices;
  auto pan_of = [&](glm::vec3 source) {
    const PlayResult r = m.play_sound_internal(1.0f, source, 1.0f, false, core::Seconds{0.0}, voices);
    m.release_all();
    return r;
  };
  m.set_player_position(facing(0.0f));  // facing north (+Y)
  // East is hard right, but retail's degree-to-radian constant (0.017453292)
  // is a hair under pi/180, so sin(90 deg) comes out just under 1 and the
  // truncated pan is 14: a pan of 15 is never reached.
  CHECK(pan_of({10.0f, 0.0f, 0.0f}).pan == 14);
  CHECK(pan_of({-10.0f, 0.0f, 0.0f}).pan == -14);   // west: hard left
  CHECK(pan_of({0.0f, 10.0f, 0.0f}).pan == 0);      // ahead
  CHECK(pan_of({0.0f, -10.0f, 0.0f}).pan == 0);     // behind: sin(0) (front and back are not told apart)
  CHECK(pan_of({10.0f, 10.0f, 0.0f}).pan == 10);    // 45 degrees right: trunc(10.6)
  CHECK(pan_of({-10.0f, 10.0f, 3.0f}).pan == -10);  // height does not change the bearing
  CHECK(pan_of({4.0f, 0.0f, 0.0f}).pan == 0);       // within 5 m: centred
  const PlayResult east = pan_of({10.0f, 0.0f, 0.0f});
  CHECK(east.distance == Approx(10.0f));
  CHECK(east.attenuation == -12);

  // The listener is the camera pose given last: turning it to face east puts
  // the eastern source ahead and a northern one on the left.
  m.set_player_position(facing(90.0f));
  CHECK(pan_of({10.0f, 0.0f, 0.0f}).pan == 0);
  CHECK(pan_of({0.0f, 10.0f, 0.0f}).pan == -14);
  // Moving the camera moves what is near.
  m.set_player_position(facing(0.0f, {100.0f, 0.0f, 0.0f}));
  CHECK(pan_of({110.0f, 0.0f, 0.0f}).pan == 14);
  CHECK(pan_of({110.0f, 0.0f, 0.0f}).distance == Approx(10.0f));

  // Mono ("Sound Features" = 1) never pans.
  SoundSettings s;
  s.features = SoundFeatures::Mono;
  m.set_settings(s);
  m.set_player_position(facing(0.0f));
  CHECK(pan_of({10.0f, 0.0f, 0.0f}).pan == 0);

  // Beyond the cut-off nothing starts and no voice is taken.
  const std::size_t cursor = m.cursor();
  const PlayResult far = m.play_sound_internal(1.0f, {200.0f, 0.0f, 0.0f}, 1.0f, false, core::Seconds{0.0}, voices);
  CHECK(far.outcome == PlayOutcome::CutOff);
  CHECK(far.voice == -1);
  CHECK(far.distance == Approx(200.0f));
  CHECK(m.cursor() == cursor);
  for (const auto& slot : m.slots()) CHECK_FALSE(slot.used);
}

TEST_CASE("SoundManager::SetPlayerPosition 0x005503C0 stores the pose later plays are measured from",
          "[retail][audio]") {
  SoundManager m;
  const Listener l = facing(270.0f, {5.0f, 6.0f, 7.0f});
  m.set_player_position(l);
  CHECK(m.player_position() == l);
  FakeVoices voices;
  // Facing west, a source to the north is on the right.
  const PlayResult r = m.play_sound_internal(1.0f, {5.0f, 26.0f, 7.0f}, 1.0f, false, core::Seconds{0.0}, voices);
  CHECK(r.pan == 14);
  CHECK(r.attenuation == -24);
}

TEST_CASE("SoundManager::PlaySoundInternal 0x0054FEC0: round robin over 16 voices, free slots first",
          "[retail][audio]") {
  SoundManager m;
  FakeVoices voices;
  // Sixteen sounds fill the voices in order from the cursor.
  for (int i = 0; i < 16; ++i) {
    const PlayResult r = start(m, voices, 0.5f, i);
    REQUIRE(r.outcome == PlayOutcome::Started);
    CHECK(r.voice == i);
    CHECK_FALSE(r.replaced);
    CHECK(m.cursor() == static_cast<std::size_t>((i + 1) % 16));
  }
  CHECK(m.slots()[3].start_time == core::Seconds{3.0});
  CHECK(m.slots()[3].priority == 0.5f);
  // All busy, equal priority: the new sound is dropped (strictly lower only).
  CHECK(start(m, voices, 0.5f).outcome == PlayOutcome::NoVoice);
  CHECK(m.cursor() == 0);
  // A finished voice is free again; the search starts at the cursor, so the
  // first finished voice after it is taken (not the lowest index).
  voices.playing[2] = false;
  voices.playing[9] = false;
  PlayResult r = start(m, voices, 0.1f);
  CHECK(r.outcome == PlayOutcome::Started);
  CHECK(r.voice == 2);
  CHECK(r.replaced);
  CHECK_FALSE(r.stole);
  CHECK(m.cursor() == 3);
  r = start(m, voices, 0.1f);
  CHECK(r.voice == 9);
  CHECK(m.cursor() == 10);
  // Now slots 2 and 9 hold 0.1: a 0.3 sound steals the first lower one after the cursor (10..15, 0..9) = 2.
  r = start(m, voices, 0.3f);
  CHECK(r.outcome == PlayOutcome::Started);
  CHECK(r.voice == 2);
  CHECK(r.stole);
  CHECK(r.replaced);
  CHECK(m.slots()[2].priority == 0.3f);
}

TEST_CASE(
    "SoundManager::PlaySoundInternal 0x0054FEC0: a slot of priority +0.0 is always free, so retail's "
    "all-zero priorities make a pure round robin",
    "[retail][audio]") {
  SoundManager m;
  FakeVoices voices;
  for (int i = 0; i < 16; ++i) REQUIRE(start(m, voices, 0.0f).voice == i);
  // Every voice still sounds, but priority 0 frees the slot: the 17th sound
  // replaces the one at the cursor (the oldest), and so on.
  for (int i = 0; i < 20; ++i) {
    const PlayResult r = start(m, voices, 0.0f);
    CHECK(r.outcome == PlayOutcome::Started);
    CHECK(r.voice == i % 16);
    CHECK(r.replaced);
    CHECK_FALSE(r.stole);
  }
  // The test is on the float's bits: -0.0 is not "priority 0".
  SoundManager n;
  FakeVoices v2;
  for (int i = 0; i < 16; ++i) REQUIRE(start(n, v2, -0.0f).voice == i);
  CHECK(start(n, v2, -0.0f).outcome == PlayOutcome::NoVoice);
  // ... but -0.0 < 0.1, so a 0.1 sound steals.
  CHECK(start(n, v2, 0.1f).stole);
}

TEST_CASE(
    "SoundManager::PlaySoundInternal 0x0054FEC0: stealing order, Retail (first lower after the cursor) "
    "and Lowest (lowest, ties after the cursor)",
    "[retail][audio]") {
  auto fill = [](SoundManager& m, FakeVoices& voices) {
    // Priorities by slot: 0.6 at 0, 0.2 at 5 and 11, 0.5 elsewhere.
    for (int i = 0; i < 16; ++i) {
      const float p = i == 0 ? 0.6f : (i == 5 || i == 11) ? 0.2f : 0.5f;
      REQUIRE(start(m, voices, p).voice == i);
    }
  };
  SoundManager retail;
  FakeVoices rv;
  fill(retail, rv);
  REQUIRE(retail.cursor() == 0);
  PlayResult r = start(retail, rv, 0.7f);
  CHECK(r.voice == 0);  // 0.6 < 0.7 and first from the cursor
  CHECK(r.stole);
  r = start(retail, rv, 0.55f);
  CHECK(r.voice == 1);  // cursor 1: slot 1 holds 0.5 < 0.55
  r = start(retail, rv, 0.3f);
  CHECK(r.voice == 5);                                             // the first slot below 0.3 from cursor 2
  CHECK(start(retail, rv, 0.2f).outcome == PlayOutcome::NoVoice);  // 0.2 is not below 0.2

  SoundSettings s;
  s.steal = StealPolicy::Lowest;
  SoundManager lowest(s);
  FakeVoices lv;
  fill(lowest, lv);
  r = start(lowest, lv, 0.7f);
  CHECK(r.voice == 5);  // the lowest (0.2); 5 comes before 11 from cursor 0
  CHECK(r.stole);
  r = start(lowest, lv, 0.7f);
  CHECK(r.voice == 11);  // the other 0.2
  r = start(lowest, lv, 0.7f);
  CHECK(r.voice == 12);  // then the 0.5s in order from cursor 12
  CHECK(start(lowest, lv, 0.5f).outcome == PlayOutcome::NoVoice);
}

TEST_CASE("Position::heading 0x005A9520 as the pan uses it: the compass bearing from the source to the listener",
          "[retail][audio]") {
  SoundManager m;
  FakeVoices voices;
  m.set_player_position(facing(0.0f, {50.0f, 50.0f, 0.0f}));
  // Eight sources 10 m out (14.1 m on the diagonals) around a listener facing north:
  // bearing(source -> listener) - 0, then trunc(-15 sin).
  struct Case {
    glm::vec3 offset;
    int pan;
  };
  const Case cases[] = {{{0, 10, 0}, 0},  {{10, 10, 0}, 10},    {{10, 0, 0}, 14},   {{10, -10, 0}, 10},
                        {{0, -10, 0}, 0}, {{-10, -10, 0}, -10}, {{-10, 0, 0}, -14}, {{-10, 10, 0}, -10}};
  for (const Case& c : cases) {
    INFO(c.offset.x << ", " << c.offset.y);
    const PlayResult r =
        m.play_sound_internal(1.0f, glm::vec3{50.0f, 50.0f, 0.0f} + c.offset, 1.0f, false, core::Seconds{0.0}, voices);
    m.release_all();
    CHECK(r.pan == c.pan);
  }
}
