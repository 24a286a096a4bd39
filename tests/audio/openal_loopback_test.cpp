// OpenAlBackend on OpenAL Soft's loopback device (ALC_SOFT_loopback): the real
// mixer renders into memory, so these tests check what OpenAL actually
// outputs. decisions.md item 9: the loopback device works on these machines
// even though no sound device exists.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <unistd.h>

#include "dereth/audio/open_audio.hpp"
#include "dereth/audio/openal_backend.hpp"

#include "audio_test_support.hpp"

using namespace dereth;
using namespace dereth::audio;

namespace {

struct Energy {
  double left = 0.0;
  double right = 0.0;
  [[nodiscard]] double total() const { return left + right; }
};

Energy energy(const std::vector<float>& interleaved) {
  Energy e;
  for (std::size_t i = 0; i + 1 < interleaved.size(); i += 2) {
    e.left += static_cast<double>(interleaved[i]) * static_cast<double>(interleaved[i]);
    e.right += static_cast<double>(interleaved[i + 1]) * static_cast<double>(interleaved[i + 1]);
  }
  return e;
}

std::unique_ptr<OpenAlBackend> loopback(const SoundSettings& settings = {}) {
  auto b = OpenAlBackend::open_loopback(settings, 44100);
  INFO((b ? std::string() : b.error().message()));
  REQUIRE(b.has_value());
  return std::move(*b);
}

SoundRequest at(glm::vec3 position, float priority = 0.5f) {
  SoundRequest r;
  r.owner = dereth::sim::LocalId{1};
  r.wave_id = 0x0A000440;
  r.sound_type = 0x5F;
  r.priority = priority;
  r.position = position;
  return r;
}

// A 440 Hz sine, 22050 Hz mono, one second.
std::shared_ptr<const Pcm> tone() {
  return test::pcm_of(0x0A000440, 1.0);
}

}  // namespace

TEST_CASE("OpenAL loopback: a 440 Hz wave in range produces sound, one beyond the cut-off none", "[audio][openal]") {
  auto backend = loopback();
  CHECK(backend->is_loopback());
  CHECK(backend->name() == "openal-loopback");
  CHECK(backend->frequency() == 44100);
  backend->set_listener(Listener{});
  const auto wave = tone();

  // Silence before anything plays.
  auto quiet = backend->render(4410);
  REQUIRE(quiet.has_value());
  CHECK(energy(*quiet).total() == 0.0);

  const PlayResult near = backend->play(at({0.0f, 10.0f, 0.0f}), wave);
  REQUIRE(near.outcome == PlayOutcome::Started);
  CHECK(backend->voice_playing(static_cast<std::size_t>(near.voice)));
  auto out = backend->render(4410);
  REQUIRE(out.has_value());
  REQUIRE(out->size() == 8820);
  const Energy e = energy(*out);
  CHECK(e.left > 0.0);
  CHECK(e.right > 0.0);
  // Ahead: both channels alike.
  CHECK(e.left == Approx(e.right).epsilon(0.05));

  auto far_backend = loopback();
  const PlayResult far = far_backend->play(at({0.0f, 200.0f, 0.0f}), wave);
  CHECK(far.outcome == PlayOutcome::CutOff);
  auto silent = far_backend->render(4410);
  REQUIRE(silent.has_value());
  CHECK(energy(*silent).total() == 0.0);
  CHECK(far_backend->counters().cut_off == 1);
  CHECK(far_backend->counters().started == 0);
}

TEST_CASE("OpenAL loopback: gain follows the retail attenuation and pan puts the sound on its side",
          "[audio][openal]") {
  const auto wave = tone();
  auto rms_at = [&](glm::vec3 position) {
    auto backend = loopback();
    const PlayResult r = backend->play(at(position), wave);
    REQUIRE(r.outcome == PlayOutcome::Started);
    auto out = backend->render(8820);
    REQUIRE(out.has_value());
    return energy(*out);
  };
  // 2 m ahead: 0 dB. 10 m ahead: -12 dB, amplitude x 10^(-12/20) = 0.251, energy x 0.063.
  const Energy full = rms_at({0.0f, 2.0f, 0.0f});
  const Energy quieter = rms_at({0.0f, 10.0f, 0.0f});
  REQUIRE(full.total() > 0.0);
  CHECK(std::sqrt(quieter.total() / full.total()) == Approx(std::pow(10.0, -12.0 / 20.0)).epsilon(0.03));
  // 10 m east of a listener facing north: pan 14 of 15, nearly all in the right channel.
  const Energy east = rms_at({10.0f, 0.0f, 0.0f});
  CHECK(east.right > 10.0 * east.left);
  const Energy west = rms_at({-10.0f, 0.0f, 0.0f});
  CHECK(west.left > 10.0 * west.right);
}

TEST_CASE("OpenAL loopback: voices end with their wave, are reused, and stop_all silences them", "[audio][openal]") {
  auto backend = loopback();
  const auto short_wave = test::pcm_of(0x0A000441, 0.05);  // 50 ms
  const PlayResult a = backend->play(at({0.0f, 1.0f, 0.0f}), short_wave);
  REQUIRE(a.outcome == PlayOutcome::Started);
  CHECK(a.voice == 0);
  REQUIRE(backend->render(44100 / 10).has_value());  // 100 ms: the sound is over
  CHECK_FALSE(backend->voice_playing(0));
  auto after = backend->render(441);
  REQUIRE(after.has_value());
  CHECK(energy(*after).total() == 0.0);

  // Sixteen long sounds fill the voices; a tie is dropped; a higher priority steals.
  const auto wave = tone();
  for (int i = 0; i < 16; ++i) REQUIRE(backend->play(at({0.0f, 1.0f, 0.0f}), wave).outcome == PlayOutcome::Started);
  CHECK(backend->play(at({0.0f, 1.0f, 0.0f}), wave).outcome == PlayOutcome::NoVoice);
  const PlayResult steal = backend->play(at({0.0f, 1.0f, 0.0f}, 0.9f), wave);
  CHECK(steal.outcome == PlayOutcome::Started);
  CHECK(steal.stole);
  CHECK(backend->counters().device_errors == 0);
  auto loud = backend->render(441);
  REQUIRE(loud.has_value());
  CHECK(energy(*loud).total() > 0.0);

  backend->stop_all();
  for (std::size_t v = 0; v < kVoiceCount; ++v) CHECK_FALSE(backend->voice_playing(v));
  REQUIRE(backend->render(4410).has_value());  // OpenAL fades stopped sources out over a few ms
  auto silent = backend->render(441);
  REQUIRE(silent.has_value());
  CHECK(energy(*silent).total() == 0.0);
}

TEST_CASE("OpenAL: render is refused on a real device, a device probe leaves stderr clean", "[audio][openal]") {
  // Catch what reaches fd 2 while a real device is probed.
  std::fflush(stderr);
  std::FILE* sink = std::tmpfile();
  REQUIRE(sink != nullptr);
  const int saved = ::dup(STDERR_FILENO);
  REQUIRE(saved >= 0);
  REQUIRE(::dup2(::fileno(sink), STDERR_FILENO) >= 0);
  auto device = OpenAlBackend::open_device({}, {}, true);
  std::fflush(stderr);
  ::dup2(saved, STDERR_FILENO);
  ::close(saved);
  std::rewind(sink);
  std::string leaked(4096, '\0');
  leaked.resize(std::fread(leaked.data(), 1, leaked.size(), sink));
  std::fclose(sink);
  INFO(leaked);
  CHECK(leaked.find("ALSA lib") == std::string::npos);
  CHECK(leaked.find("AL lib") == std::string::npos);
  if (device) {
    // A machine with a sound device: it is not a loopback and cannot render.
    CHECK_FALSE((*device)->is_loopback());
    CHECK((*device)->render(16).error().field == "render");
  } else {
    CHECK(device.error().field == "alcOpenDevice");
  }
  CHECK(OpenAlBackend::open_loopback({}, 100).error().field == "frequency");
}
