#pragma once
// Private to the protocol module: an optional field read when its flag bit
// is set and cleared otherwise (PhysicsDesc and WeenieDesc, decoded into
// caller-owned storage), and the unchecked cursor of their fast paths.
//
// The fast paths: a run of fixed-size optional fields is sized from its flag
// bits, its bytes are checked once, and the fields are loaded with no check
// each. When the check fails the decoder reads the run field by field as
// before, so a truncated message fails at the same field, offset and words.

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol::detail {

// Reads an optional field when its bit is set, else clears it.
template <class T, class Read>
DERETH_READ_INLINE ReadResult<void> read_if(bool present, std::optional<T>& out, Read&& read) {
  if (!present) {
    out.reset();
    return {};
  }
  auto v = read();
  if (!v) [[unlikely]] {
    return std::unexpected(v.error());
  }
  out = *v;
  return {};
}

// The same for a field most objects leave out: its absence falls through,
// with no taken branch (Unchecked::take_if_rare says why).
template <class T, class Read>
DERETH_READ_INLINE ReadResult<void> read_if_rare(bool present, std::optional<T>& out, Read&& read) {
  if (!present) [[likely]] {
    out = std::optional<T>();
    return {};
  }
  auto v = read();
  if (!v) [[unlikely]] {
    return std::unexpected(v.error());
  }
  out = *v;
  return {};
}

// A decoder that reads a copy of the caller's reader whose address is never
// taken keeps the cursor in registers: a store to one of the storage's byte
// fields could otherwise alias the reader, and every later read would load
// the cursor again (a chain of stores and loads through memory). A call out
// of line goes through `spill`, the caller's reader: the copy's state is
// handed to it and taken back.
template <class Call>
DERETH_READ_INLINE auto through(ByteReader& local, ByteReader& spill, Call&& call) {
  spill = local;
  auto result = call(spill);
  local = spill;
  return result;
}

// Copies n bytes; a short run (a name, a movement buffer) with two
// overlapping loads and stores inside both ranges instead of a call to the
// C library's memcpy, which costs more than such a copy.
DERETH_READ_INLINE void copy_bytes(void* dst, const void* src, std::size_t n) noexcept {
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (n >= 8 && n <= 16) {
    std::uint64_t head;
    std::uint64_t tail;
    std::memcpy(&head, s, 8);
    std::memcpy(&tail, s + n - 8, 8);
    std::memcpy(d, &head, 8);
    std::memcpy(d + n - 8, &tail, 8);
  } else if (n >= 4 && n < 8) {
    std::uint32_t head;
    std::uint32_t tail;
    std::memcpy(&head, s, 4);
    std::memcpy(&tail, s + n - 4, 4);
    std::memcpy(d, &head, 4);
    std::memcpy(d + n - 4, &tail, 4);
  } else if (n > 16) {
    std::memcpy(d, s, n);
  } else {
    for (std::size_t i = 0; i < n; ++i) d[i] = s[i];
  }
}

// A cursor over bytes whose length has been checked (ByteReader::bytes).
// Floats keep their stored bits, as ByteReader's reads do.
class Unchecked {
 public:
  explicit Unchecked(const std::uint8_t* p) noexcept : p_(p) {}

  template <class T>
  DERETH_READ_INLINE T take() noexcept {
    T v;
    if constexpr (std::is_floating_point_v<T>) {
      using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
      v = std::bit_cast<T>(core::load_le<Bits>(p_));
    } else if constexpr (std::is_same_v<T, Vec3>) {
      v = load_vec3(p_);
    } else if constexpr (std::is_same_v<T, Position>) {
      v.cell_id = core::load_le<std::uint32_t>(p_);
      v.origin = load_vec3(p_ + 4);
      v.orientation = Quat{take_float(p_ + 16), take_float(p_ + 20), take_float(p_ + 24), take_float(p_ + 28)};
    } else {
      v = core::load_le<T>(p_);
    }
    p_ += sizeof(T);
    return v;
  }

  // A PackedDWORD of known type (ByteReader::packed_did), its two or four
  // bytes already counted in the checked length.
  DERETH_READ_INLINE std::uint32_t take_packed_did(std::uint32_t type_base) noexcept {
    const std::uint32_t high = take<std::uint16_t>();
    if ((high & 0x8000U) == 0) return type_base + high;
    const std::uint32_t low = take<std::uint16_t>();
    return type_base + (((high & 0x3FFFU) << 16) | low);
  }

  // Where the cursor stands.
  [[nodiscard]] const std::uint8_t* at() const noexcept { return p_; }

  // The next n bytes, passed over.
  DERETH_READ_INLINE const std::uint8_t* skip(std::size_t n) noexcept {
    const std::uint8_t* at = p_;
    p_ += n;
    return at;
  }

  // The field when present, else cleared; an optional of a trivially
  // copyable type is assigned by copying its bytes, with no test of what it
  // held before.
  template <class T>
  DERETH_READ_INLINE void take_if(bool present, std::optional<T>& out) noexcept {
    if (present) {
      out = std::optional<T>(take<T>());
    } else {
      out = std::optional<T>();
    }
  }

  // The same for a field most objects leave out: its absence falls through
  // (one store and no taken branch), its presence is the jump. A taken
  // branch a field, the path an absent field took when the compiler laid
  // absence out of line, was most of the time of a CreateObject with few
  // fields (docs/benchmarks.md).
  template <class T>
  DERETH_READ_INLINE void take_if_rare(bool present, std::optional<T>& out) noexcept {
    if (present) [[unlikely]] {
      out = std::optional<T>(take<T>());
    } else {
      out = std::optional<T>();
    }
  }

 private:
  DERETH_READ_INLINE static float take_float(const std::uint8_t* p) noexcept {
    return std::bit_cast<float>(core::load_le<std::uint32_t>(p));
  }

  const std::uint8_t* p_;
};

// The bytes of a field that is present, else none.
DERETH_READ_INLINE std::size_t size_if(std::uint32_t bits, std::uint32_t flag, std::size_t size) noexcept {
  return (bits & flag) != 0 ? size : 0;
}

// A run of optional fields: each field's flag bit and size.
struct FieldSize {
  std::uint32_t flag;
  std::uint8_t size;
};

// The bytes a run's present fields take, from four tables of 256 (one a
// byte of the flags): four loads and three adds, however many fields.
class RunSize {
 public:
  template <std::size_t N>
  consteval explicit RunSize(const FieldSize (&fields)[N]) {
    for (std::size_t byte = 0; byte < 4; ++byte) {
      for (std::uint32_t value = 0; value < 256; ++value) {
        std::uint32_t sum = 0;
        for (const auto& field : fields) {
          if ((field.flag >> (8 * byte)) & value) sum += field.size;
        }
        sizes_[byte][value] = static_cast<std::uint8_t>(sum);
      }
    }
  }

  [[nodiscard]] DERETH_READ_INLINE std::size_t of(std::uint32_t bits) const noexcept {
    return std::size_t{sizes_[0][bits & 0xFFU]} + sizes_[1][(bits >> 8) & 0xFFU] + sizes_[2][(bits >> 16) & 0xFFU] +
           sizes_[3][bits >> 24];
  }

 private:
  std::uint8_t sizes_[4][256]{};
};

}  // namespace dereth::protocol::detail
