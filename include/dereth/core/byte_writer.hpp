#pragma once
// Little-endian writer, the mirror of ByteReader: the protocol writers, the
// DAT writer and the scenario server build their bytes with it.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace dereth::core {

class ByteWriter {
 public:
  ByteWriter() = default;

  void u8(std::uint8_t v) { buf_.push_back(v); }
  void u16(std::uint16_t v);
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void i32(std::int32_t v);
  void f32(float v);  // the float's bits, unchanged
  void f64(double v);
  void f32_bits(std::uint32_t bits) { u32(bits); }
  void bytes(std::span<const std::uint8_t> data);
  void zeros(std::size_t n);
  // Zero padding to the next multiple of four from the first byte written.
  void align4();
  // String16L (u16 length, or 0xFFFF + u32 length when longer), then align4().
  void string16l(std::string_view text);
  void packed_dword(std::uint32_t value);
  // PackedDWORD of known type: subtracts the type base when the value holds it.
  void packed_did(std::uint32_t value, std::uint32_t type_base);
  // Overwrites four bytes already written (for lengths known afterwards).
  void patch_u32(std::size_t offset, std::uint32_t v);

  [[nodiscard]] std::size_t size() const noexcept { return buf_.size(); }
  [[nodiscard]] std::span<const std::uint8_t> view() const noexcept { return buf_; }
  [[nodiscard]] const std::vector<std::uint8_t>& data() const& noexcept { return buf_; }
  [[nodiscard]] std::vector<std::uint8_t> take() && noexcept { return std::move(buf_); }

 private:
  std::vector<std::uint8_t> buf_;
};

}  // namespace dereth::core
