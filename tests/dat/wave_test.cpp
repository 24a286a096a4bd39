#include "dereth/dat/wave.hpp"

#include <catch2/catch.hpp>

#include <cstring>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

// An 18-byte WAVEFORMATEX: PCM, mono, 22050 Hz, 16 bit, cbSize 0.
std::vector<std::uint8_t> pcm_header() {
  ByteWriter w;
  w.u16(1);
  w.u16(1);
  w.u32(22050);
  w.u32(44100);
  w.u16(2);
  w.u16(16);
  w.u16(0);
  return std::move(w).take();
}

}  // namespace

TEST_CASE("Wave: layout, round trip and header fields", "[dat][wave]") {
  Wave wave{0x0A000002, pcm_header(), std::vector<std::uint8_t>(7046)};
  for (std::size_t i = 0; i < wave.data.size(); ++i) wave.data[i] = static_cast<std::uint8_t>(i * 7);
  const auto bytes = write_wave(wave);
  REQUIRE(bytes.size() == 12 + 18 + 7046);
  CHECK(bytes[4] == 18);
  CHECK(bytes[8] == 0x86);  // 7046 = 0x1B86
  CHECK(bytes[9] == 0x1B);
  auto back = read_wave(bytes, wave.id);
  REQUIRE(back.has_value());
  CHECK(*back == wave);

  auto f = wave_format(*back);
  REQUIRE(f.has_value());
  CHECK(f->format_tag == kWaveFormatPcm);
  CHECK(f->channels == 1);
  CHECK(f->samples_per_sec == 22050);
  CHECK(f->avg_bytes_per_sec == 44100);
  CHECK(f->block_align == 2);
  CHECK(f->bits_per_sample == 16);
  CHECK(f->extra_size == 0);

  Wave empty{0x0A000003, {}, {}};
  CHECK(read_wave(write_wave(empty), empty.id).value() == empty);
  CHECK(wave_format(empty).error().kind == ErrorKind::Truncated);

  dereth::core::JsonWriter j;
  write_json(j, wave);
  CHECK(j.str() == R"({"type":"Wave","id":"0x0A000002","header_size":18,"data_size":7046,"format_tag":1,"channels":1,)"
                   R"("samples_per_sec":22050,"avg_bytes_per_sec":44100,"block_align":2,"bits_per_sample":16})");
}

TEST_CASE("Wave: RIFF wrapping", "[dat][wave]") {
  Wave wave{0x0A000002, pcm_header(), {1, 2, 3}};
  auto riff = wave_to_riff(wave);
  REQUIRE(riff.has_value());
  REQUIRE(riff->size() == 12 + 8 + 16 + 8 + 4);  // odd data padded
  CHECK(std::memcmp(riff->data(), "RIFF", 4) == 0);
  CHECK((*riff)[4] == 4 + 8 + 16 + 8 + 4);
  CHECK(std::memcmp(riff->data() + 8, "WAVEfmt ", 8) == 0);
  CHECK((*riff)[16] == 16);  // PCM: the first 16 header bytes only
  CHECK(std::memcmp(riff->data() + 20, wave.format.data(), 16) == 0);
  CHECK(std::memcmp(riff->data() + 36, "data", 4) == 0);
  CHECK((*riff)[40] == 3);
  CHECK((*riff)[44] == 1);
  CHECK((*riff)[47] == 0);

  Wave mp3 = wave;
  mp3.format = pcm_header();
  mp3.format[0] = 0x55;
  mp3.format[16] = 12;
  mp3.format.resize(30);  // MPEGLAYER3WAVEFORMAT
  auto riff3 = wave_to_riff(mp3);
  REQUIRE(riff3.has_value());
  CHECK((*riff3)[16] == 30);  // the whole header is kept
}

TEST_CASE("Wave: truncation, oversized sizes, trailing bytes", "[dat][wave]") {
  Wave wave{0x0A000004, pcm_header(), {9, 8, 7, 6, 5}};
  const auto bytes = write_wave(wave);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_wave(std::span<const std::uint8_t>(bytes.data(), n), wave.id);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto big_header = bytes;
  big_header[7] = 0x7F;
  auto r = read_wave(big_header, wave.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "header_size");
  auto big_data = bytes;
  big_data[11] = 0xFF;  // i32 -1-ish
  r = read_wave(big_data, wave.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::TooLarge);
  CHECK(r.error().field == "data_size");
  CHECK(r.error().message().rfind("DAT 0x0A000004 Wave: data_size at offset 8", 0) == 0);
  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_wave(trailing, wave.id).error().kind == ErrorKind::Trailing);
}
