#include "dereth/core/byte_reader.hpp"

#include <bit>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace dereth::core {

Error ByteReader::error(ErrorKind kind, std::string_view field, std::string detail) const {
  return error_at(pos_, kind, field, std::move(detail));
}

Error ByteReader::error_at(std::size_t offset, ErrorKind kind, std::string_view field, std::string detail) const {
  return Error{kind, std::string(context_), std::string(field), offset, std::move(detail)};
}

Result<void> ByteReader::require(std::size_t n, std::string_view field) const {
  if (n > remaining()) [[unlikely]] {
    return std::unexpected(
        error(ErrorKind::Truncated, field, fmt::format("needs {} bytes, {} remain", n, remaining())));
  }
  return {};
}

Result<std::uint8_t> ByteReader::u8(std::string_view field) {
  DERETH_CHECK(require(1, field));
  return data_[pos_++];
}

Result<std::uint16_t> ByteReader::u16(std::string_view field) {
  DERETH_CHECK(require(2, field));
  auto v = load_le<std::uint16_t>(data_.data() + pos_);
  pos_ += 2;
  return v;
}

Result<std::uint32_t> ByteReader::u32(std::string_view field) {
  DERETH_CHECK(require(4, field));
  auto v = load_le<std::uint32_t>(data_.data() + pos_);
  pos_ += 4;
  return v;
}

Result<std::uint64_t> ByteReader::u64(std::string_view field) {
  DERETH_CHECK(require(8, field));
  auto v = load_le<std::uint64_t>(data_.data() + pos_);
  pos_ += 8;
  return v;
}

Result<std::int32_t> ByteReader::i32(std::string_view field) {
  DERETH_TRY(auto bits, u32(field));
  return std::bit_cast<std::int32_t>(bits);
}

Result<float> ByteReader::f32(std::string_view field) {
  DERETH_TRY(auto bits, u32(field));
  return std::bit_cast<float>(bits);
}

Result<double> ByteReader::f64(std::string_view field) {
  DERETH_TRY(auto bits, u64(field));
  return std::bit_cast<double>(bits);
}

Result<std::span<const std::uint8_t>> ByteReader::bytes(std::size_t n, std::string_view field) {
  DERETH_CHECK(require(n, field));
  auto view = data_.subspan(pos_, n);
  pos_ += n;
  return view;
}

Result<void> ByteReader::skip(std::size_t n, std::string_view field) {
  DERETH_CHECK(require(n, field));
  pos_ += n;
  return {};
}

Result<void> ByteReader::align4(std::string_view field) {
  const std::size_t pad = (4 - (pos_ & 3U)) & 3U;
  return skip(pad, field);
}

Result<std::string> ByteReader::string16l(std::string_view field) {
  const std::size_t start = pos_;
  DERETH_TRY(std::size_t length, u16(field));
  if (length == 0xFFFF) {
    DERETH_TRY(length, u32(field));
  }
  if (length > remaining()) {
    auto err = error(ErrorKind::TooLarge, field,
                     fmt::format("string length {} exceeds the {} bytes remaining", length, remaining()));
    pos_ = start;
    return std::unexpected(std::move(err));
  }
  auto view = data_.subspan(pos_, length);
  pos_ += length;
  if (auto aligned = align4(field); !aligned) {
    pos_ = start;
    return std::unexpected(std::move(aligned.error()));
  }
  return std::string(reinterpret_cast<const char*>(view.data()), view.size());
}

Result<std::uint32_t> ByteReader::packed_dword(std::string_view field) {
  const std::size_t start = pos_;
  DERETH_TRY(std::uint32_t high, u16(field));
  if ((high & 0x8000U) == 0) {
    return high;
  }
  auto low = u16(field);
  if (!low) {
    pos_ = start;
    return std::unexpected(std::move(low.error()));
  }
  return ((high & 0x7FFFU) << 16) | *low;
}

Result<std::uint32_t> ByteReader::packed_did(std::uint32_t type_base, std::string_view field) {
  const std::size_t start = pos_;
  DERETH_TRY(std::uint32_t high, u16(field));
  if ((high & 0x8000U) == 0) {
    return type_base + high;
  }
  auto low = u16(field);
  if (!low) {
    pos_ = start;
    return std::unexpected(std::move(low.error()));
  }
  return type_base + (((high & 0x3FFFU) << 16) | *low);
}

Result<std::size_t> ByteReader::checked_count(std::uint64_t count, std::size_t min_element_size,
                                              std::string_view field) const {
  const std::uint64_t budget =
      min_element_size == 0 ? std::numeric_limits<std::uint64_t>::max() : remaining() / min_element_size;
  if (count > budget) {
    return std::unexpected(error(ErrorKind::TooLarge, field,
                                 fmt::format("count {} of {}-byte elements exceeds the {} bytes remaining", count,
                                             min_element_size, remaining())));
  }
  return static_cast<std::size_t>(count);
}

Result<void> ByteReader::expect_end() const {
  if (!at_end()) {
    return std::unexpected(error(ErrorKind::Trailing, "end", fmt::format("{} bytes left unread", remaining())));
  }
  return {};
}

}  // namespace dereth::core
