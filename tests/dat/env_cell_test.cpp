#include "dereth/dat/env_cell.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

Frame frame_at(float x) {
  return Frame{{x, x + 1.0F, x + 2.0F}, glm::quat(0.5F, 0.5F, -0.5F, 0.5F)};
}

EnvCell sample(std::uint32_t flags) {
  EnvCell c;
  c.id = 0x00020102;
  c.flags = flags;
  c.surfaces = {0x032A, 0x032B, 0x0117};  // odd count: the floats below are unaligned
  c.environment_id = 0x02E6;
  c.cell_struct = 2;
  c.position = frame_at(50.0F);
  c.portals = {{2, 0, 0x0101, 1}, {0, 3, 0x0103, 0}, {1, 5, kCellPortalOutside, 0xFFFF}};
  c.visible_cells = {0x0100, 0x0101, 0x0103};
  if ((flags & env_cell_flags::kHasStaticObjs) != 0) {
    c.static_objects = {{0x02000345, frame_at(1.0F)}, {0x01001234, frame_at(2.0F)}};
  }
  if ((flags & env_cell_flags::kHasRestrictionObj) != 0) c.restriction_obj = 0x7A9B4001;
  return c;
}

}  // namespace

TEST_CASE("EnvCell: layout and round trip for each optional part", "[dat][env_cell]") {
  const auto plain = sample(env_cell_flags::kSeenOutside);
  const auto bytes = write_env_cell(plain);
  REQUIRE(bytes.size() == 4 + 4 + 4 + 4 + 6 + 4 + 28 + 24 + 6);
  CHECK(bytes[12] == 3);     // numSurfaces
  CHECK(bytes[13] == 3);     // numPortals
  CHECK(bytes[14] == 3);     // numVisibleCells
  CHECK(bytes[22] == 0xE6);  // environment id right after the surfaces, unaligned
  CHECK(bytes[24] == 2);
  auto back = read_env_cell(bytes, plain.id);
  REQUIRE(back.has_value());
  CHECK(*back == plain);
  CHECK(back->surface_did(0) == 0x0800032A);
  CHECK(back->environment_did() == 0x0D0002E6);

  for (std::uint32_t flags : {2U, 8U, 10U, 11U}) {
    const auto c = sample(flags);
    auto r = read_env_cell(write_env_cell(c), c.id);
    REQUIRE(r.has_value());
    CHECK(*r == c);
  }
  const auto both = write_env_cell(sample(10));
  CHECK(both.size() == bytes.size() + 4 + 64 + 4);

  EnvCell empty;
  empty.id = 0x12340100;
  CHECK(read_env_cell(write_env_cell(empty), empty.id).value() == empty);
  EnvCell empty_statics = empty;
  empty_statics.flags = env_cell_flags::kHasStaticObjs;
  CHECK(read_env_cell(write_env_cell(empty_statics), empty.id).value() == empty_statics);

  dereth::core::JsonWriter j;
  write_json(j, empty);
  CHECK(j.str().rfind(R"({"type":"EnvCell","id":"0x12340100","flags":"0x00000000","surfaces":[],)"
                      R"("environment":"0x0D000000","cell_struct":0,)",
                      0) == 0);
}

TEST_CASE("EnvCell: cell id check, truncation, oversized counts, trailing bytes", "[dat][env_cell]") {
  const auto c = sample(10);
  const auto bytes = write_env_cell(c);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_env_cell(std::span<const std::uint8_t>(bytes.data(), n), c.id);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
  }
  auto wrong = bytes;
  wrong[8] = 0x03;
  auto r = read_env_cell(wrong, c.id);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == ErrorKind::Invalid);
  CHECK(r.error().message().rfind("DAT 0x00020102 EnvCell: cell_id at offset 8", 0) == 0);

  auto visible = bytes;
  visible[15] = 0xFF;  // numVisibleCells 0xFF03
  CHECK(read_env_cell(visible, c.id).error().kind == ErrorKind::TooLarge);
  auto statics = bytes;
  statics[4 + 4 + 4 + 4 + 6 + 4 + 28 + 24 + 6 + 3] = 0x40;
  CHECK(read_env_cell(statics, c.id).error().kind == ErrorKind::TooLarge);

  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_env_cell(trailing, c.id).error().kind == ErrorKind::Trailing);
}
