#include "dereth/core/byte_writer.hpp"

#include <bit>
#include <cstring>

namespace dereth::core {

namespace {

template <class T>
void store_le(std::vector<std::uint8_t>& buf, T value) {
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    value = std::byteswap(value);
  }
  std::uint8_t raw[sizeof(T)];
  std::memcpy(raw, &value, sizeof(T));
  buf.insert(buf.end(), raw, raw + sizeof(T));
}

}  // namespace

void ByteWriter::u16(std::uint16_t v) {
  store_le(buf_, v);
}
void ByteWriter::u32(std::uint32_t v) {
  store_le(buf_, v);
}
void ByteWriter::u64(std::uint64_t v) {
  store_le(buf_, v);
}
void ByteWriter::i32(std::int32_t v) {
  store_le(buf_, std::bit_cast<std::uint32_t>(v));
}
void ByteWriter::f32(float v) {
  store_le(buf_, std::bit_cast<std::uint32_t>(v));
}
void ByteWriter::f64(double v) {
  store_le(buf_, std::bit_cast<std::uint64_t>(v));
}

void ByteWriter::bytes(std::span<const std::uint8_t> data) {
  buf_.insert(buf_.end(), data.begin(), data.end());
}

void ByteWriter::zeros(std::size_t n) {
  buf_.insert(buf_.end(), n, 0);
}

void ByteWriter::align4() {
  zeros((4 - (buf_.size() & 3U)) & 3U);
}

void ByteWriter::string16l(std::string_view text) {
  if (text.size() < 0xFFFF) {
    u16(static_cast<std::uint16_t>(text.size()));
  } else {
    u16(0xFFFF);
    u32(static_cast<std::uint32_t>(text.size()));
  }
  bytes({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
  align4();
}

void ByteWriter::packed_dword(std::uint32_t value) {
  if (value <= 0x7FFF) {
    u16(static_cast<std::uint16_t>(value));
  } else {
    u16(static_cast<std::uint16_t>(0x8000U | (value >> 16)));
    u16(static_cast<std::uint16_t>(value & 0xFFFFU));
  }
}

void ByteWriter::packed_did(std::uint32_t value, std::uint32_t type_base) {
  if (value >= type_base) {
    value -= type_base;
  }
  packed_dword(value);
}

void ByteWriter::patch_u32(std::size_t offset, std::uint32_t v) {
  if constexpr (std::endian::native == std::endian::big) {
    v = std::byteswap(v);
  }
  std::memcpy(buf_.data() + offset, &v, sizeof v);
}

}  // namespace dereth::core
