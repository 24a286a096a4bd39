#pragma once
// Wire-level value types shared by the message codecs. Floats are kept as the
// wire's f32 bits (read and written by memcpy), so NaN payloads survive.

#include <bit>
#include <cstdint>
#include <optional>

#include "dereth/core/byte_reader.hpp"
#include "dereth/core/byte_writer.hpp"
#include "dereth/core/error.hpp"

namespace dereth::protocol {

using core::ByteReader;
using core::ByteWriter;
using core::ReadResult;
using core::Result;

// Type bases of PackedDWORD-of-known-type ids (spec/protocol.md 5.0).
inline constexpr std::uint32_t kPaletteBase = 0x04000000;
inline constexpr std::uint32_t kTextureBase = 0x05000000;
inline constexpr std::uint32_t kGfxObjBase = 0x01000000;
inline constexpr std::uint32_t kIconBase = 0x06000000;

// Floats compare by their bits, so a decoded NaN equals the NaN it was
// written from and round-trip tests check the exact wire bits.
[[nodiscard]] inline bool same_bits(float a, float b) noexcept {
  return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
}
[[nodiscard]] inline bool same_bits(const std::optional<float>& a, const std::optional<float>& b) noexcept {
  if (a.has_value() != b.has_value()) return false;
  return !a || same_bits(*a, *b);
}

struct Vec3 {
  float x = 0, y = 0, z = 0;
  bool operator==(const Vec3& o) const noexcept { return same_bits(x, o.x) && same_bits(y, o.y) && same_bits(z, o.z); }
};

// Quaternion in wire order w, x, y, z.
struct Quat {
  float w = 1, x = 0, y = 0, z = 0;
  bool operator==(const Quat& o) const noexcept {
    return same_bits(w, o.w) && same_bits(x, o.x) && same_bits(y, o.y) && same_bits(z, o.z);
  }
};

// Position: u32 objCellId, origin x y z, quaternion w x y z (32 bytes).
struct Position {
  std::uint32_t cell_id = 0;
  Vec3 origin;
  Quat orientation;
  bool operator==(const Position&) const = default;
};

// Origin: u32 objCellId + x y z (16 bytes), used by MoveToObject/MoveToPosition.
struct Origin {
  std::uint32_t cell_id = 0;
  Vec3 origin;
  bool operator==(const Origin&) const = default;
};

// The three floats at p, already bounds-checked.
DERETH_READ_INLINE Vec3 load_vec3(const std::uint8_t* p) noexcept {
  return Vec3{core::load_le<float>(p), core::load_le<float>(p + 4), core::load_le<float>(p + 8)};
}

// Inline: one bounds check for the whole block, then loads at constant
// offsets (a short block fails as a whole, at its first byte).
DERETH_READ_INLINE ReadResult<Vec3> read_vec3(ByteReader& r, std::string_view field) {
  DERETH_TRY(const auto b, r.bytes(12, field));
  return load_vec3(b.data());
}
void write_vec3(ByteWriter& w, const Vec3& v);

DERETH_READ_INLINE ReadResult<Position> read_position(ByteReader& r, std::string_view field) {
  DERETH_TRY(const auto b, r.bytes(32, field));
  Position p;
  p.cell_id = core::load_le<std::uint32_t>(b.data());
  p.origin = load_vec3(b.data() + 4);
  p.orientation = Quat{core::load_le<float>(b.data() + 16), core::load_le<float>(b.data() + 20),
                       core::load_le<float>(b.data() + 24), core::load_le<float>(b.data() + 28)};
  return p;
}
void write_position(ByteWriter& w, const Position& p);

DERETH_READ_INLINE ReadResult<Origin> read_origin(ByteReader& r, std::string_view field) {
  DERETH_TRY(const auto b, r.bytes(16, field));
  Origin o;
  o.cell_id = core::load_le<std::uint32_t>(b.data());
  o.origin = load_vec3(b.data() + 4);
  return o;
}
void write_origin(ByteWriter& w, const Origin& o);

// The nine PhysicsDesc timestamps, in wire order (seed section 1).
enum class TimestampIndex : std::uint8_t {
  Position = 0,
  Movement = 1,
  State = 2,
  Vector = 3,
  Teleport = 4,
  ServerControlledMove = 5,
  ForcePosition = 6,
  ObjDesc = 7,
  Instance = 8,
};
inline constexpr std::size_t kTimestampCount = 9;

// Field names (as the seeds name them) for diagnostics and JSON.
inline constexpr const char* kTimestampNames[kTimestampCount] = {"Position",      "Movement", "State",
                                                                 "Vector",        "Teleport", "ServerControlledMove",
                                                                 "ForcePosition", "ObjDesc",  "Instance"};

}  // namespace dereth::protocol
