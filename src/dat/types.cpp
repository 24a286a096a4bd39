#include "dereth/dat/types.hpp"

#include <fmt/format.h>

namespace dereth::dat {

Result<glm::vec3> read_vec3(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(12, field));
  glm::vec3 v;
  v.x = *r.f32(field);
  v.y = *r.f32(field);
  v.z = *r.f32(field);
  return v;
}

void write_vec3(ByteWriter& w, const glm::vec3& v) {
  w.f32(v.x);
  w.f32(v.y);
  w.f32(v.z);
}

Result<glm::quat> read_quat(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(16, field));
  const float qw = *r.f32(field);
  const float qx = *r.f32(field);
  const float qy = *r.f32(field);
  const float qz = *r.f32(field);
  return glm::quat(qw, qx, qy, qz);
}

void write_quat(ByteWriter& w, const glm::quat& q) {
  w.f32(q.w);
  w.f32(q.x);
  w.f32(q.y);
  w.f32(q.z);
}

Result<Frame> read_frame(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(28, field));
  Frame f;
  f.origin = *read_vec3(r, field);
  f.orientation = *read_quat(r, field);
  return f;
}

void write_frame(ByteWriter& w, const Frame& f) {
  write_vec3(w, f.origin);
  write_quat(w, f.orientation);
}

Result<Plane> read_plane(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(16, field));
  Plane p;
  p.normal = *read_vec3(r, field);
  p.d = *r.f32(field);
  return p;
}

void write_plane(ByteWriter& w, const Plane& p) {
  write_vec3(w, p.normal);
  w.f32(p.d);
}

Result<Sphere> read_sphere(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(16, field));
  Sphere s;
  s.center = *read_vec3(r, field);
  s.radius = *r.f32(field);
  return s;
}

void write_sphere(ByteWriter& w, const Sphere& s) {
  write_vec3(w, s.center);
  w.f32(s.radius);
}

Result<CylSphere> read_cyl_sphere(ByteReader& r, std::string_view field) {
  DERETH_CHECK(r.require(20, field));
  CylSphere c;
  c.origin = *read_vec3(r, field);
  c.radius = *r.f32(field);
  c.height = *r.f32(field);
  return c;
}

void write_cyl_sphere(ByteWriter& w, const CylSphere& c) {
  write_vec3(w, c.origin);
  w.f32(c.radius);
  w.f32(c.height);
}

void json_vec3(core::JsonWriter& j, const glm::vec3& v) {
  j.begin_object();
  j.key("x").f32(v.x);
  j.key("y").f32(v.y);
  j.key("z").f32(v.z);
  j.end_object();
}

void json_frame_array(core::JsonWriter& j, const Frame& f) {
  j.begin_object();
  j.key("origin").begin_array().f32(f.origin.x).f32(f.origin.y).f32(f.origin.z).end_array();
  j.key("orientation")
      .begin_array()
      .f32(f.orientation.w)
      .f32(f.orientation.x)
      .f32(f.orientation.y)
      .f32(f.orientation.z)
      .end_array();
  j.end_object();
}

void json_frame(core::JsonWriter& j, const Frame& f) {
  j.begin_object();
  j.key("origin");
  json_vec3(j, f.origin);
  j.key("orientation").begin_object();
  j.key("w").f32(f.orientation.w);
  j.key("x").f32(f.orientation.x);
  j.key("y").f32(f.orientation.y);
  j.key("z").f32(f.orientation.z);
  j.end_object();
  j.end_object();
}

void json_sphere(core::JsonWriter& j, const Sphere& s) {
  j.begin_object();
  j.key("center");
  json_vec3(j, s.center);
  j.key("radius").f32(s.radius);
  j.end_object();
}

Result<std::uint32_t> read_compressed_uint(ByteReader& r, std::string_view field) {
  const std::size_t start = r.position();
  DERETH_TRY(const std::uint32_t b0, r.u8(field));
  if (b0 < 0x80) return b0;
  auto b1 = r.u8(field);
  if (!b1) return std::unexpected(r.error_at(start, core::ErrorKind::Truncated, field, "2-byte count cut short"));
  if ((b0 & 0x40U) == 0) return ((b0 & 0x7FU) << 8) | *b1;
  auto lo = r.u16(field);
  if (!lo) return std::unexpected(r.error_at(start, core::ErrorKind::Truncated, field, "4-byte count cut short"));
  return ((((b0 & 0x3FU) << 8) | *b1) << 16) | *lo;
}

void write_compressed_uint(ByteWriter& w, std::uint32_t v) {
  if (v < 0x80) {
    w.u8(static_cast<std::uint8_t>(v));
  } else if (v < 0x4000) {
    w.u8(static_cast<std::uint8_t>(0x80U | (v >> 8)));
    w.u8(static_cast<std::uint8_t>(v & 0xFFU));
  } else {
    w.u8(static_cast<std::uint8_t>(0xC0U | ((v >> 24) & 0x3FU)));
    w.u8(static_cast<std::uint8_t>((v >> 16) & 0xFFU));
    w.u16(static_cast<std::uint16_t>(v & 0xFFFFU));
  }
}

Result<Did> read_packed_did(ByteReader& r, Did type_base, std::string_view field) {
  return r.packed_did(type_base, field);
}

void write_packed_did(ByteWriter& w, Did value, Did type_base) {
  const Did offset = value >= type_base ? value - type_base : value;
  if (offset < 0x4000) {
    w.u16(static_cast<std::uint16_t>(offset));
  } else {
    w.u16(static_cast<std::uint16_t>(0x8000U | ((offset >> 16) & 0x3FFFU)));
    w.u16(static_cast<std::uint16_t>(offset & 0xFFFFU));
  }
}

Result<std::size_t> read_count(ByteReader& r, std::size_t min_element_size, std::string_view field) {
  const std::size_t at = r.position();
  DERETH_TRY(const std::uint32_t count, r.u32(field));
  auto checked = r.checked_count(count, min_element_size, field);
  if (!checked) {
    auto e = std::move(checked.error());
    e.offset = at;
    return std::unexpected(std::move(e));
  }
  return *checked;
}

std::string record_context(Did id, std::string_view type_name) {
  return fmt::format("DAT 0x{:08X} {}", id, type_name);
}

Result<void> read_expected_did(ByteReader& r, Did expected) {
  DERETH_TRY(const Did id, r.u32("id"));
  if (id != expected) {
    return std::unexpected(r.error_at(r.position() - 4, core::ErrorKind::Invalid, "id",
                                      fmt::format("record says 0x{:08X}, expected 0x{:08X}", id, expected)));
  }
  return {};
}

namespace {

std::uint8_t swap_nibbles(std::uint8_t b) noexcept {
  return static_cast<std::uint8_t>(((b & 0x0FU) << 4) | (b >> 4));
}

}  // namespace

Result<std::string> read_compressed_string(ByteReader& r, std::string_view field) {
  const std::size_t at = r.position();
  DERETH_TRY(const std::uint32_t length, read_compressed_uint(r, field));
  if (length > r.remaining()) {
    return std::unexpected(
        r.error_at(at, core::ErrorKind::TooLarge, field,
                   fmt::format("string length {} exceeds the {} bytes remaining", length, r.remaining())));
  }
  DERETH_TRY(const auto bytes, r.bytes(length, field));
  return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

void write_compressed_string(ByteWriter& w, std::string_view text) {
  write_compressed_uint(w, static_cast<std::uint32_t>(text.size()));
  w.bytes({reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

Result<std::string> read_obfuscated_string(ByteReader& r, std::string_view field) {
  DERETH_TRY(std::string text, r.string16l(field));
  for (char& c : text) c = static_cast<char>(swap_nibbles(static_cast<std::uint8_t>(c)));
  return text;
}

void write_obfuscated_string(ByteWriter& w, std::string_view text) {
  std::string stored(text);
  for (char& c : stored) c = static_cast<char>(swap_nibbles(static_cast<std::uint8_t>(c)));
  w.string16l(stored);
}

Result<HashTableHeader> read_hash_table_header(ByteReader& r, std::size_t min_element_size, std::string_view field) {
  const std::size_t at = r.position();
  DERETH_CHECK(r.require(4, field));
  const std::uint16_t count = *r.u16(field);
  HashTableHeader h;
  h.buckets = *r.u16(field);
  auto checked = r.checked_count(count, min_element_size, field);
  if (!checked) {
    auto e = std::move(checked.error());
    e.offset = at;
    return std::unexpected(std::move(e));
  }
  h.count = *checked;
  return h;
}

void write_hash_table_header(ByteWriter& w, std::size_t count, std::uint16_t buckets) {
  w.u16(static_cast<std::uint16_t>(count));
  w.u16(buckets);
}

Result<std::size_t> read_compressed_count(ByteReader& r, std::size_t min_element_size, std::string_view field) {
  const std::size_t at = r.position();
  DERETH_TRY(const std::uint32_t count, read_compressed_uint(r, field));
  auto checked = r.checked_count(count, min_element_size, field);
  if (!checked) {
    auto e = std::move(checked.error());
    e.offset = at;
    return std::unexpected(std::move(e));
  }
  return *checked;
}

}  // namespace dereth::dat
