// Wave decoding: WAVEFORMATEX PCM 8/16-bit, mono/stereo, to 16-bit mono;
// everything else is refused with an error naming the wave and the field.
#include "dereth/audio/wave_decode.hpp"

#include <catch2/catch.hpp>

#include <vector>

#include "audio_test_support.hpp"

using namespace dereth;
using namespace dereth::audio;
using dereth::audio::test::wave_header;

namespace {

dat::Wave make(std::uint16_t tag, std::uint16_t channels, std::uint32_t rate, std::uint16_t bits,
               std::vector<std::uint8_t> data) {
  return dat::Wave{0x0A000042, wave_header(tag, channels, rate, bits), std::move(data)};
}

}  // namespace

TEST_CASE("decode_wave: 16-bit mono PCM is copied sample for sample", "[audio][wave]") {
  // 0x0001, 0x7FFF, 0x8000 (-32768), 0xFFFF (-1), little-endian.
  const auto pcm = decode_wave(make(1, 1, 22050, 16, {0x01, 0x00, 0xFF, 0x7F, 0x00, 0x80, 0xFF, 0xFF}));
  REQUIRE(pcm.has_value());
  CHECK(pcm->wave_id == 0x0A000042);
  CHECK(pcm->sample_rate == 22050);
  CHECK(pcm->source_channels == 1);
  CHECK(pcm->source_bits == 16);
  CHECK(pcm->samples == std::vector<std::int16_t>{1, 32767, -32768, -1});
  CHECK(pcm->duration().count() == Approx(4.0 / 22050.0));
}

TEST_CASE("decode_wave: 8-bit PCM is unsigned around 128 and scaled to 16 bits", "[audio][wave]") {
  const auto pcm = decode_wave(make(1, 1, 11025, 8, {0, 128, 255, 127}));
  REQUIRE(pcm.has_value());
  CHECK(pcm->samples == std::vector<std::int16_t>{-32768, 0, 32512, -256});
  CHECK(pcm->source_bits == 8);
}

TEST_CASE("decode_wave: stereo is averaged to mono, a trailing partial frame dropped", "[audio][wave]") {
  // Frames (L, R): (1000, 3000), (-32768, -32768), (32767, -32768), then one stray byte pair.
  const std::vector<std::uint8_t> data = {0xE8, 0x03, 0xB8, 0x0B, 0x00, 0x80, 0x00,
                                          0x80, 0xFF, 0x7F, 0x00, 0x80, 0x10, 0x00};
  const auto pcm = decode_wave(make(1, 2, 44100, 16, data));
  REQUIRE(pcm.has_value());
  CHECK(pcm->source_channels == 2);
  CHECK(pcm->samples == std::vector<std::int16_t>{2000, -32768, 0});  // (32767 - 32768) / 2 truncates to 0
  const auto eight = decode_wave(make(1, 2, 8000, 8, {255, 1, 128, 128}));
  REQUIRE(eight.has_value());
  CHECK(eight->samples == std::vector<std::int16_t>{0, 0});  // (32512 + -32512) / 2, then silence
}

TEST_CASE("decode_wave: a header with cbSize extra bytes (30-byte headers) still decodes", "[audio][wave]") {
  dat::Wave w = make(1, 1, 22050, 16, {0x10, 0x00});
  w.format[16] = 12;  // cbSize
  w.format.resize(30, 0xAA);
  const auto pcm = decode_wave(w);
  REQUIRE(pcm.has_value());
  CHECK(pcm->samples == std::vector<std::int16_t>{16});
}

TEST_CASE("decode_wave refuses what it cannot play, naming the wave and field", "[audio][wave]") {
  const std::vector<std::uint8_t> two_frames = {0, 0, 0, 0};
  auto mp3 = decode_wave(make(dat::kWaveFormatMp3, 1, 22050, 0, two_frames));
  REQUIRE_FALSE(mp3.has_value());
  CHECK(mp3.error().kind == core::ErrorKind::Unsupported);
  CHECK(mp3.error().field == "format_tag");
  CHECK(mp3.error().context == "DAT 0x0A000042 Wave");
  CHECK(mp3.error().message().find("0x0055") != std::string::npos);

  auto adpcm = decode_wave(make(2, 1, 22050, 4, two_frames));
  REQUIRE_FALSE(adpcm.has_value());
  CHECK(adpcm.error().kind == core::ErrorKind::Unsupported);

  auto surround = decode_wave(make(1, 6, 22050, 16, std::vector<std::uint8_t>(24)));
  REQUIRE_FALSE(surround.has_value());
  CHECK(surround.error().field == "channels");
  CHECK(decode_wave(make(1, 0, 22050, 16, two_frames)).error().field == "channels");

  auto deep = decode_wave(make(1, 1, 22050, 24, std::vector<std::uint8_t>(6)));
  REQUIRE_FALSE(deep.has_value());
  CHECK(deep.error().field == "bits_per_sample");

  auto slow = decode_wave(make(1, 1, 0, 16, two_frames));
  REQUIRE_FALSE(slow.has_value());
  CHECK(slow.error().kind == core::ErrorKind::Invalid);
  CHECK(slow.error().field == "samples_per_sec");
  CHECK(decode_wave(make(1, 1, 400000, 16, two_frames)).error().field == "samples_per_sec");

  auto empty = decode_wave(make(1, 2, 22050, 16, {1, 2, 3}));  // less than one 4-byte frame
  REQUIRE_FALSE(empty.has_value());
  CHECK(empty.error().field == "data");

  dat::Wave short_header{0x0A000042, {1, 0, 1, 0}, two_frames};
  auto truncated = decode_wave(short_header);
  REQUIRE_FALSE(truncated.has_value());
  CHECK(truncated.error().kind == core::ErrorKind::Truncated);
}

TEST_CASE("decode_wave: a 440 Hz sine keeps its length and shape", "[audio][wave]") {
  const dat::Wave w = test::sine_wave(0x0A000004, 440.0, 22050, 0.8);
  const auto pcm = decode_wave(w);
  REQUIRE(pcm.has_value());
  CHECK(pcm->samples.size() == 17640);
  CHECK(pcm->duration().count() == Approx(0.8));
  CHECK(pcm->samples[0] == 0);
  // A quarter period of 440 Hz at 22050 Hz is 12.53 samples: the peak is near sample 12-13.
  CHECK(pcm->samples[12] > 9900);
}
