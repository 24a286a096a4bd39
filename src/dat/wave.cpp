#include "dereth/dat/wave.hpp"

#include <string>

#include <fmt/format.h>

namespace dereth::dat {

Result<Wave> read_wave(std::span<const std::uint8_t> bytes, Did id) {
  const std::string context = record_context(id, "Wave");
  ByteReader r(bytes, context);
  DERETH_CHECK(read_expected_did(r, id));
  Wave wave;
  wave.id = id;
  // Both sizes are i32 on disk; negative values read as huge u32s and fail.
  const std::size_t header_at = r.position();
  DERETH_TRY(const std::uint32_t header_size, r.u32("header_size"));
  const std::size_t data_at = r.position();
  DERETH_TRY(const std::uint32_t data_size, r.u32("data_size"));
  if (static_cast<std::uint64_t>(header_size) + data_size > r.remaining()) {
    const bool header_too_big = header_size > r.remaining();
    return std::unexpected(r.error_at(
        header_too_big ? header_at : data_at, core::ErrorKind::TooLarge, header_too_big ? "header_size" : "data_size",
        fmt::format("header {} + data {} bytes exceed the {} bytes remaining", header_size, data_size, r.remaining())));
  }
  DERETH_TRY(const auto header, r.bytes(header_size, "format"));
  DERETH_TRY(const auto data, r.bytes(data_size, "data"));
  wave.format.assign(header.begin(), header.end());
  wave.data.assign(data.begin(), data.end());
  DERETH_CHECK(r.expect_end());
  return wave;
}

std::vector<std::uint8_t> write_wave(const Wave& wave) {
  ByteWriter w;
  w.u32(wave.id);
  w.u32(static_cast<std::uint32_t>(wave.format.size()));
  w.u32(static_cast<std::uint32_t>(wave.data.size()));
  w.bytes(wave.format);
  w.bytes(wave.data);
  return std::move(w).take();
}

Result<WaveFormat> wave_format(const Wave& wave) {
  const std::string context = record_context(wave.id, "Wave");
  ByteReader r(wave.format, context);
  DERETH_CHECK(r.require(16, "format"));
  WaveFormat f;
  f.format_tag = *r.u16("format_tag");
  f.channels = *r.u16("channels");
  f.samples_per_sec = *r.u32("samples_per_sec");
  f.avg_bytes_per_sec = *r.u32("avg_bytes_per_sec");
  f.block_align = *r.u16("block_align");
  f.bits_per_sample = *r.u16("bits_per_sample");
  if (r.remaining() >= 2) f.extra_size = *r.u16("extra_size");
  return f;
}

Result<std::vector<std::uint8_t>> wave_to_riff(const Wave& wave) {
  DERETH_TRY(const WaveFormat f, wave_format(wave));
  const std::size_t fmt_size = f.format_tag == kWaveFormatPcm ? 16 : wave.format.size();
  const auto fmt_bytes = std::span<const std::uint8_t>(wave.format).first(fmt_size);
  ByteWriter w;
  w.bytes(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>("RIFF"), 4));
  const std::size_t fmt_padded = fmt_size + (fmt_size & 1U);
  const std::size_t data_padded = wave.data.size() + (wave.data.size() & 1U);
  w.u32(static_cast<std::uint32_t>(4 + 8 + fmt_padded + 8 + data_padded));
  w.bytes(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>("WAVEfmt "), 8));
  w.u32(static_cast<std::uint32_t>(fmt_size));
  w.bytes(fmt_bytes);
  if ((fmt_size & 1U) != 0) w.u8(0);
  w.bytes(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>("data"), 4));
  w.u32(static_cast<std::uint32_t>(wave.data.size()));
  w.bytes(wave.data);
  if ((wave.data.size() & 1U) != 0) w.u8(0);
  return std::move(w).take();
}

void write_json(core::JsonWriter& j, const Wave& wave) {
  j.begin_object();
  j.key("type").string("Wave");
  j.key("id").hex(wave.id);
  j.key("header_size").number(static_cast<std::uint64_t>(wave.format.size()));
  j.key("data_size").number(static_cast<std::uint64_t>(wave.data.size()));
  if (auto f = wave_format(wave)) {
    j.key("format_tag").number(f->format_tag);
    j.key("channels").number(f->channels);
    j.key("samples_per_sec").number(f->samples_per_sec);
    j.key("avg_bytes_per_sec").number(f->avg_bytes_per_sec);
    j.key("block_align").number(f->block_align);
    j.key("bits_per_sample").number(f->bits_per_sample);
  }
  j.end_object();
}

}  // namespace dereth::dat
