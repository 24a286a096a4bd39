#pragma once
// Bounds-checked little-endian reader over untrusted bytes. Every read checks
// the bytes remaining first and, on failure, returns an Error naming the
// reader's context, the field and the field's offset; the cursor does not
// move on failure. Alignment is relative to the first byte of the reader,
// which for protocol messages is the opcode (spec/protocol.md section 5.0).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>

#include "dereth/core/error.hpp"

namespace dereth::core {

// The little-endian value at p, for code that has already checked that
// sizeof(T) bytes are there (ByteReader's reads, and hot loops over a buffer
// whose size was checked once); every other read goes through ByteReader.
template <class T>
[[nodiscard]] T load_le(const std::uint8_t* p) noexcept {
  T value;
  std::memcpy(&value, p, sizeof(T));
  if constexpr (std::endian::native == std::endian::big && sizeof(T) > 1) {
    value = std::byteswap(value);
  }
  return value;
}

// The context is held as a view: the string it names must outlive the reader
// (string literals, or a std::string owned by the decoding function).
class ByteReader {
 public:
  ByteReader(std::span<const std::uint8_t> data, std::string_view context) noexcept : data_(data), context_(context) {}

  [[nodiscard]] std::size_t position() const noexcept { return pos_; }
  [[nodiscard]] std::size_t size() const noexcept { return data_.size(); }
  [[nodiscard]] std::size_t remaining() const noexcept { return data_.size() - pos_; }
  [[nodiscard]] bool at_end() const noexcept { return pos_ == data_.size(); }
  [[nodiscard]] std::string_view context() const noexcept { return context_; }
  [[nodiscard]] std::span<const std::uint8_t> data() const noexcept { return data_; }

  Result<std::uint8_t> u8(std::string_view field);
  Result<std::uint16_t> u16(std::string_view field);
  Result<std::uint32_t> u32(std::string_view field);
  Result<std::uint64_t> u64(std::string_view field);
  Result<std::int32_t> i32(std::string_view field);
  // f32/f64 copy the stored bits unchanged (NaN payloads survive).
  Result<float> f32(std::string_view field);
  Result<double> f64(std::string_view field);
  // The raw bits of an f32, for fields whose exact bits must be kept.
  Result<std::uint32_t> f32_bits(std::string_view field) { return u32(field); }

  // A view of the next n bytes (no copy); fails before anything is allocated.
  Result<std::span<const std::uint8_t>> bytes(std::size_t n, std::string_view field);
  Result<void> skip(std::size_t n, std::string_view field);

  // Skips padding up to the next multiple of four from the reader's start.
  Result<void> align4(std::string_view field);

  // String16L: u16 length (0xFFFF: a u32 length follows), the bytes, then
  // padding to a multiple of four from the reader's start.
  Result<std::string> string16l(std::string_view field);

  // PackedDWORD: one u16 when the value is at most 0x7FFF, else
  // u16 (0x8000 | high) then u16 low.
  Result<std::uint32_t> packed_dword(std::string_view field);

  // PackedDWORD of known type: the type base (e.g. 0x06000000 for icons) is
  // added back in both the two- and four-byte forms; the four-byte form's
  // high word is masked with 0x3FFF.
  Result<std::uint32_t> packed_did(std::uint32_t type_base, std::string_view field);

  // Checks that `count` elements of at least `min_element_size` bytes each can
  // fit in what remains, before the caller allocates for them.
  Result<std::size_t> checked_count(std::uint64_t count, std::size_t min_element_size, std::string_view field) const;

  // Fails with ErrorKind::Trailing when bytes remain.
  Result<void> expect_end() const;

  // Fails with ErrorKind::Truncated unless n more bytes remain.
  Result<void> require(std::size_t n, std::string_view field) const;

  [[nodiscard]] Error error(ErrorKind kind, std::string_view field, std::string detail) const;
  [[nodiscard]] Error error_at(std::size_t offset, ErrorKind kind, std::string_view field, std::string detail) const;

 private:
  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
  std::string_view context_;
};

}  // namespace dereth::core
