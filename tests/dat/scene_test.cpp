#include "dereth/dat/scene.hpp"

#include <catch2/catch.hpp>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/records.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

Scene sample() {
  ObjectDesc tree;
  tree.obj_id = 0x02000100;
  tree.base_loc = Frame{{12.0F, 12.0F, 0.0F}, glm::quat(1.0F, 0.0F, 0.0F, 0.0F)};
  tree.freq = 0.5F;
  tree.displace_x = 10.0F;
  tree.displace_y = 10.0F;
  tree.min_scale = 0.8F;
  tree.max_scale = 1.25F;
  tree.max_rot = 360.0F;
  tree.min_slope = 0.9F;
  tree.max_slope = 1.0F;
  ObjectDesc rock;
  rock.obj_id = 0x01000032;
  rock.align = 1;
  rock.orient = 2;
  rock.weenie_obj = 3;
  return Scene{0x12000001, {tree, rock}};
}

}  // namespace

TEST_CASE("Scene::UnPack 0x005A6300 and ObjectDesc::UnPack 0x005A6110: layout and round trip", "[dat][scene][retail]") {
  const Scene scene = sample();
  const auto bytes = write_scene(scene);
  REQUIRE(bytes.size() == 4 + 4 + 2 * 76);  // Scene::Pack's size: 4 + 76 per object past the DID
  CHECK(bytes[4] == 2);                     // u32 num_objects
  CHECK(bytes[8] == 0x00);                  // the first object's id, little-endian
  CHECK(bytes[11] == 0x02);
  // Its base_loc: origin x (12.0f = 0x41400000) at 12, then the quaternion's w (1.0f) at 24.
  CHECK(bytes[15] == 0x41);
  CHECK(bytes[27] == 0x3F);
  CHECK(bytes[8 + 32] == 0x00);  // freq 0.5f = 0x3F000000
  CHECK(bytes[8 + 35] == 0x3F);
  CHECK(bytes[8 + 76 + 64] == 1);  // the rock's align, orient, weenie_obj
  CHECK(bytes[8 + 76 + 68] == 2);
  CHECK(bytes[8 + 76 + 72] == 3);
  auto back = read_scene(bytes, scene.id);
  REQUIRE(back.has_value());
  CHECK(*back == scene);
  CHECK(has_record_reader(DbType::Scene));
  // retail's ObjectDesc::ObjectDesc defaults
  const ObjectDesc d;
  CHECK(d.freq == 1.0F);
  CHECK(d.min_scale == 1.0F);
  CHECK(d.max_scale == 1.0F);
  CHECK(d.max_slope == 90.0F);
}

TEST_CASE("Scene: JSON", "[dat][scene]") {
  dereth::core::JsonWriter j;
  ObjectDesc o;
  o.obj_id = 0x01000001;
  write_json(j, Scene{0x12000002, {o}});
  CHECK(j.str().starts_with(R"({"type":"Scene","id":"0x12000002","objects":[{"obj_id":"0x01000001","base_loc":)"));
  CHECK(j.str().find(R"("freq":1,)") != std::string::npos);
  CHECK(j.str().find(R"("max_slope":90,)") != std::string::npos);
  CHECK(j.str().ends_with(R"("align":0,"orient":0,"weenie_obj":0}]})"));
}

TEST_CASE("Scene: truncation at every cursor, an oversized count, trailing bytes and a wrong DID are errors",
          "[dat][scene]") {
  const Scene scene = sample();
  const auto bytes = write_scene(scene);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = read_scene(std::span<const std::uint8_t>(bytes.data(), n), scene.id);
    REQUIRE_FALSE(r.has_value());
    CHECK((r.error().kind == ErrorKind::Truncated || r.error().kind == ErrorKind::TooLarge));
    // Short of the DID or the count: Truncated; past the count, the objects no longer fit: TooLarge at it.
    CHECK(r.error().offset == (n < 4 ? 0U : 4U));
  }
  auto huge = bytes;
  huge[7] = 0x40;
  const auto too_large = read_scene(huge, scene.id);
  REQUIRE_FALSE(too_large.has_value());
  CHECK(too_large.error().kind == ErrorKind::TooLarge);
  CHECK(too_large.error().offset == 4);  // at the count, before anything is allocated
  auto trailing = bytes;
  trailing.push_back(0);
  CHECK(read_scene(trailing, scene.id).error().kind == ErrorKind::Trailing);
  CHECK(read_scene(bytes, 0x12000003).error().kind == ErrorKind::Invalid);
}
