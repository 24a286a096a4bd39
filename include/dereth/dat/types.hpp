#pragma once
// Building blocks shared by the DAT record types (spec/dat-format.md 3.0).
// Every record reader runs a core::ByteReader over the record's payload, so
// align4() is relative to the start of the object (its DID), as retail is.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>

#include "dereth/core/byte_reader.hpp"
#include "dereth/core/byte_writer.hpp"
#include "dereth/core/error.hpp"
#include "dereth/core/json_writer.hpp"

namespace dereth::dat {

using core::ByteReader;
using core::ByteWriter;
using core::Result;

// A DAT data id (0xTTnnnnnn, the type in the high byte).
using Did = std::uint32_t;

// Position and orientation: Vector3 origin then quaternion w, x, y, z (28 bytes).
struct Frame {
  glm::vec3 origin{0.0F};
  glm::quat orientation{1.0F, 0.0F, 0.0F, 0.0F};  // glm stores w, x, y, z
  bool operator==(const Frame&) const = default;
};

struct Plane {
  glm::vec3 normal{0.0F};
  float d = 0;
  bool operator==(const Plane&) const = default;
};

struct Sphere {
  glm::vec3 center{0.0F};
  float radius = 0;
  bool operator==(const Sphere&) const = default;
};

struct CylSphere {
  glm::vec3 origin{0.0F};
  float radius = 0;
  float height = 0;
  bool operator==(const CylSphere&) const = default;
};

Result<glm::vec3> read_vec3(ByteReader& r, std::string_view field);
void write_vec3(ByteWriter& w, const glm::vec3& v);
Result<glm::quat> read_quat(ByteReader& r, std::string_view field);  // w, x, y, z
void write_quat(ByteWriter& w, const glm::quat& q);
Result<Frame> read_frame(ByteReader& r, std::string_view field);
void write_frame(ByteWriter& w, const Frame& f);
Result<Plane> read_plane(ByteReader& r, std::string_view field);
void write_plane(ByteWriter& w, const Plane& p);
Result<Sphere> read_sphere(ByteReader& r, std::string_view field);
void write_sphere(ByteWriter& w, const Sphere& s);
Result<CylSphere> read_cyl_sphere(ByteReader& r, std::string_view field);
void write_cyl_sphere(ByteWriter& w, const CylSphere& c);

// JSON views shared by the records' write_json: {"x":..,"y":..,"z":..};
// {"origin":{..},"orientation":{"w":..,"x":..,"y":..,"z":..}}; {"center":{..},"radius":..}.
void json_vec3(core::JsonWriter& j, const glm::vec3& v);
void json_frame(core::JsonWriter& j, const Frame& f);
void json_sphere(core::JsonWriter& j, const Sphere& s);
// The frame as arrays, as the cell records write it: {"origin":[x,y,z],"orientation":[w,x,y,z]}.
void json_frame_array(core::JsonWriter& j, const Frame& f);

// CompressedUInt ("SmartArray" count): 1, 2 or 4 bytes (spec 3.0).
Result<std::uint32_t> read_compressed_uint(ByteReader& r, std::string_view field);
void write_compressed_uint(ByteWriter& w, std::uint32_t v);

// Packed DID of known type: u16; when bit 15 is set a second u16 follows and
// the high word is masked with 0x3FFF. The writer uses the 4-byte form from
// offset 0x4000 up, as retail does (spec correction 1).
Result<Did> read_packed_did(ByteReader& r, Did type_base, std::string_view field);
void write_packed_did(ByteWriter& w, Did value, Did type_base);

// Reads a u32 count and checks that `count` elements of at least
// `min_element_size` bytes fit in what remains, before anything is allocated.
Result<std::size_t> read_count(ByteReader& r, std::size_t min_element_size, std::string_view field);

// The context string for errors about one record: "DAT 0x01000042 GfxObj".
std::string record_context(Did id, std::string_view type_name);

// Reads the DID at the start of a record and checks it equals `expected`.
Result<void> read_expected_did(ByteReader& r, Did expected);

// String with a CompressedUInt length and no padding (the CharGen strings).
// A length longer than what remains is TooLarge at the length's offset.
Result<std::string> read_compressed_string(ByteReader& r, std::string_view field);
void write_compressed_string(ByteWriter& w, std::string_view text);

// String16L whose bytes are stored with their two nibbles swapped (spell and
// spell component names); returns and takes the plain text.
Result<std::string> read_obfuscated_string(ByteReader& r, std::string_view field);
void write_obfuscated_string(ByteWriter& w, std::string_view text);

// A PackableHashTable header: u16 entry count, u16 bucket count. The count is
// bounded like read_count (TooLarge at the count's offset) before anything is
// allocated.
struct HashTableHeader {
  std::size_t count = 0;
  std::uint16_t buckets = 0;
};
Result<HashTableHeader> read_hash_table_header(ByteReader& r, std::size_t min_element_size, std::string_view field);
void write_hash_table_header(ByteWriter& w, std::size_t count, std::uint16_t buckets);

// A CompressedUInt element count, bounded like read_count.
Result<std::size_t> read_compressed_count(ByteReader& r, std::size_t min_element_size, std::string_view field);

}  // namespace dereth::dat
