#include "dereth/dat/types.hpp"

#include <catch2/catch.hpp>

using namespace dereth::dat;

TEST_CASE("CompressedUInt: 1, 2 and 4 byte forms", "[dat][types]") {
  struct Row {
    std::uint32_t value;
    std::vector<std::uint8_t> bytes;
  };
  const Row rows[] = {
      {0, {0x00}},
      {0x7F, {0x7F}},
      {0x80, {0x80, 0x80}},
      {0x3FFF, {0xBF, 0xFF}},
      {0x4000, {0xC0, 0x00, 0x00, 0x40}},  // the low word little-endian (spec 3.0)
      {0x12345678, {0xD2, 0x34, 0x78, 0x56}},
  };
  for (const auto& row : rows) {
    ByteWriter w;
    write_compressed_uint(w, row.value);
    CHECK(w.data() == row.bytes);
    ByteReader r(w.view(), "t");
    CHECK(read_compressed_uint(r, "n").value() == row.value);
    CHECK(r.at_end());
    for (std::size_t n = 0; n < row.bytes.size(); ++n) {
      ByteReader cut(std::span<const std::uint8_t>(row.bytes.data(), n), "t");
      CHECK_FALSE(read_compressed_uint(cut, "n").has_value());
    }
  }
}

TEST_CASE("Packed DID of known type: the writer uses the long form from 0x4000", "[dat][types]") {
  for (Did v : {0x01000000u, 0x01003FFFu, 0x01004000u, 0x0100FFFFu, 0x01123456u}) {
    ByteWriter w;
    write_packed_did(w, v, 0x01000000);
    CHECK(w.size() == ((v - 0x01000000u) < 0x4000 ? 2u : 4u));
    ByteReader r(w.view(), "t");
    CHECK(read_packed_did(r, 0x01000000, "gfx").value() == v);
  }
}

TEST_CASE("read_count refuses counts the bytes cannot hold", "[dat][types]") {
  ByteWriter w;
  w.u32(0x40000000);
  w.zeros(16);
  const std::string context = record_context(0x01000042, "GfxObj");  // must outlive the reader
  ByteReader r(w.view(), context);
  auto n = read_count(r, 4, "num_vertices");
  REQUIRE_FALSE(n.has_value());
  CHECK(n.error().kind == dereth::core::ErrorKind::TooLarge);
  CHECK(n.error().offset == 0);
  CHECK(n.error().message().rfind("DAT 0x01000042 GfxObj: num_vertices at offset 0", 0) == 0);
}

TEST_CASE("Frame is origin then quaternion w, x, y, z", "[dat][types]") {
  Frame f{{1, 2, 3}, glm::quat(0.5F, 0.25F, 0.125F, 0.0625F)};
  ByteWriter w;
  write_frame(w, f);
  REQUIRE(w.size() == 28);
  ByteReader r(w.view(), "t");
  REQUIRE(r.skip(12, "origin").has_value());
  CHECK(r.f32("w").value() == 0.5F);
  ByteReader r2(w.view(), "t");
  CHECK(read_frame(r2, "frame").value() == f);
}
