#pragma once
// Bounds-checked little-endian reader over untrusted bytes. Every read checks
// the bytes remaining first and, on failure, returns a ReadError naming the
// reader's context, the field and the field's offset (reported as an Error);
// the cursor does not move on failure. Alignment is relative to the first byte of the reader,
// which for protocol messages is the opcode (spec/protocol.md section 5.0).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "dereth/core/error.hpp"

// The reads are a few instructions each: always inlined, so that a decoder's
// cursor stays in registers and no call is made per field.
#define DERETH_READ_INLINE [[gnu::always_inline]] inline

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
// and every ReadError it returns (string literals, or a std::string owned by
// the decoding function, which reports the error before it returns).
//
// The reads are inline: a read that succeeds is a bounds check, a load and a
// cursor move; one that fails returns a ReadError (a code and numbers, no
// strings) whose sentence is built only when it is reported.
class ByteReader {
 public:
  ByteReader(std::span<const std::uint8_t> data, std::string_view context) noexcept : data_(data), context_(context) {}

  [[nodiscard]] std::size_t position() const noexcept { return pos_; }
  [[nodiscard]] std::size_t size() const noexcept { return data_.size(); }
  [[nodiscard]] std::size_t remaining() const noexcept { return data_.size() - pos_; }
  [[nodiscard]] bool at_end() const noexcept { return pos_ == data_.size(); }
  [[nodiscard]] std::string_view context() const noexcept { return context_; }
  [[nodiscard]] std::span<const std::uint8_t> data() const noexcept { return data_; }

  DERETH_READ_INLINE ReadResult<std::uint8_t> u8(std::string_view field) noexcept {
    if (remaining() < 1) [[unlikely]] {
      return std::unexpected(truncated(1, field));
    }
    return data_[pos_++];
  }
  DERETH_READ_INLINE ReadResult<std::uint16_t> u16(std::string_view field) noexcept {
    return fixed<std::uint16_t>(field);
  }
  DERETH_READ_INLINE ReadResult<std::uint32_t> u32(std::string_view field) noexcept {
    return fixed<std::uint32_t>(field);
  }
  DERETH_READ_INLINE ReadResult<std::uint64_t> u64(std::string_view field) noexcept {
    return fixed<std::uint64_t>(field);
  }
  DERETH_READ_INLINE ReadResult<std::int32_t> i32(std::string_view field) noexcept {
    return fixed<std::int32_t>(field);
  }
  // f32/f64 copy the stored bits unchanged (NaN payloads survive).
  DERETH_READ_INLINE ReadResult<float> f32(std::string_view field) noexcept { return fixed<float>(field); }
  DERETH_READ_INLINE ReadResult<double> f64(std::string_view field) noexcept { return fixed<double>(field); }
  // The raw bits of an f32, for fields whose exact bits must be kept.
  DERETH_READ_INLINE ReadResult<std::uint32_t> f32_bits(std::string_view field) noexcept { return u32(field); }

  // A view of the next n bytes (no copy); fails before anything is allocated.
  DERETH_READ_INLINE ReadResult<std::span<const std::uint8_t>> bytes(std::size_t n, std::string_view field) noexcept {
    if (n > remaining()) [[unlikely]] {
      return std::unexpected(truncated(n, field));
    }
    auto view = data_.subspan(pos_, n);
    pos_ += n;
    return view;
  }
  DERETH_READ_INLINE ReadResult<void> skip(std::size_t n, std::string_view field) noexcept {
    if (n > remaining()) [[unlikely]] {
      return std::unexpected(truncated(n, field));
    }
    pos_ += n;
    return {};
  }

  // Skips padding up to the next multiple of four from the reader's start.
  DERETH_READ_INLINE ReadResult<void> align4(std::string_view field) noexcept {
    return skip((4 - (pos_ & 3U)) & 3U, field);
  }

  // String16L: u16 length (0xFFFF: a u32 length follows), the bytes, then
  // padding to a multiple of four from the reader's start. The view is of
  // the reader's bytes; nothing moves on failure.
  ReadResult<std::string_view> string16l_view(std::string_view field) noexcept {
    const std::size_t start = pos_;
    std::size_t length = 0;
    if (auto short_length = u16(field)) [[likely]] {
      length = *short_length;
    } else {
      return std::unexpected(short_length.error());
    }
    if (length == 0xFFFF) {
      auto long_length = u32(field);
      if (!long_length) [[unlikely]] {
        pos_ = start;
        return std::unexpected(long_length.error());
      }
      length = *long_length;
    }
    if (length > remaining()) [[unlikely]] {
      const ReadError err{ErrorKind::TooLarge, ReadCode::StringTooLong, context_, field, pos_, length, remaining()};
      pos_ = start;
      return std::unexpected(err);
    }
    const std::string_view text(reinterpret_cast<const char*>(data_.data() + pos_), length);
    pos_ += length;
    if (auto aligned = align4(field); !aligned) [[unlikely]] {
      pos_ = start;
      return std::unexpected(aligned.error());
    }
    return text;
  }
  // The same String16L, copied out.
  ReadResult<std::string> string16l(std::string_view field) {
    auto text = string16l_view(field);
    if (!text) [[unlikely]] {
      return std::unexpected(text.error());
    }
    return std::string(*text);
  }

  // PackedDWORD: one u16 when the value is at most 0x7FFF, else
  // u16 (0x8000 | high) then u16 low.
  DERETH_READ_INLINE ReadResult<std::uint32_t> packed_dword(std::string_view field) noexcept {
    return packed(0, 0x7FFFU, field);
  }

  // PackedDWORD of known type: the type base (e.g. 0x06000000 for icons) is
  // added back in both the two- and four-byte forms; the four-byte form's
  // high word is masked with 0x3FFF.
  DERETH_READ_INLINE ReadResult<std::uint32_t> packed_did(std::uint32_t type_base, std::string_view field) noexcept {
    return packed(type_base, 0x3FFFU, field);
  }

  // Checks that `count` elements of at least `min_element_size` bytes each can
  // fit in what remains, before the caller allocates for them.
  DERETH_READ_INLINE ReadResult<std::size_t> checked_count(std::uint64_t count, std::size_t min_element_size,
                                                           std::string_view field) const noexcept {
    if (min_element_size != 0 && count > remaining() / min_element_size) [[unlikely]] {
      return std::unexpected(ReadError{ErrorKind::TooLarge, ReadCode::CountTooLarge, context_, field, pos_, count,
                                       min_element_size, remaining()});
    }
    return static_cast<std::size_t>(count);
  }

  // Fails with ErrorKind::Trailing when bytes remain.
  DERETH_READ_INLINE ReadResult<void> expect_end() const noexcept {
    if (!at_end()) [[unlikely]] {
      return std::unexpected(
          ReadError{ErrorKind::Trailing, ReadCode::BytesLeft, context_, "end", pos_, remaining(), 0, 0});
    }
    return {};
  }

  // Fails with ErrorKind::Truncated unless n more bytes remain.
  DERETH_READ_INLINE ReadResult<void> require(std::size_t n, std::string_view field) const noexcept {
    if (n > remaining()) [[unlikely]] {
      return std::unexpected(truncated(n, field));
    }
    return {};
  }

  // A decoder's own error (a value the format does not allow, ...), named
  // like the reader's: built at once, so only for failures.
  [[nodiscard]] Error error(ErrorKind kind, std::string_view field, std::string detail) const;
  [[nodiscard]] Error error_at(std::size_t offset, ErrorKind kind, std::string_view field, std::string detail) const;

 private:
  [[nodiscard]] ReadError truncated(std::size_t n, std::string_view field) const noexcept {
    return ReadError{ErrorKind::Truncated, ReadCode::NeedsBytes, context_, field, pos_, n, remaining(), 0};
  }

  template <class T>
  DERETH_READ_INLINE ReadResult<T> fixed(std::string_view field) noexcept {
    if (remaining() < sizeof(T)) [[unlikely]] {
      return std::unexpected(truncated(sizeof(T), field));
    }
    T v;
    if constexpr (std::is_floating_point_v<T>) {
      // Through the integer of the same size: the stored bits are kept.
      using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
      v = std::bit_cast<T>(load_le<Bits>(data_.data() + pos_));
    } else {
      v = load_le<T>(data_.data() + pos_);
    }
    pos_ += sizeof(T);
    return v;
  }

  DERETH_READ_INLINE ReadResult<std::uint32_t> packed(std::uint32_t base, std::uint32_t high_mask,
                                                      std::string_view field) noexcept {
    const std::size_t start = pos_;
    auto high = u16(field);
    if (!high) [[unlikely]] {
      return std::unexpected(high.error());
    }
    if ((*high & 0x8000U) == 0) {
      return base + *high;
    }
    auto low = u16(field);
    if (!low) [[unlikely]] {
      pos_ = start;
      return std::unexpected(low.error());
    }
    return base + (((*high & high_mask) << 16) | *low);
  }

  std::span<const std::uint8_t> data_;
  std::size_t pos_ = 0;
  std::string_view context_;
};

}  // namespace dereth::core
