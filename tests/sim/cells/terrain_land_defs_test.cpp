// LandDefs: cell ids, lcoords, AdjustToOutside and block offsets
// (RE geometry/LandDefs.c and the helpers placed in other modules).

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include <glm/vec3.hpp>

#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/object/position.hpp"

using dereth::sim::LandDefs;
using dereth::sim::LCoord;

namespace {

struct Adjusted {
  bool ok = false;
  std::uint32_t cell = 0;
  glm::vec3 origin{0.0f};
};

Adjusted adjust(std::uint32_t cell, glm::vec3 origin) {
  Adjusted a;
  a.ok = LandDefs::adjust_to_outside(cell, origin);
  a.cell = cell;
  a.origin = origin;
  return a;
}

}  // namespace

TEST_CASE("LandDefs::in_bounds 0x0043D650: 0 <= x, y < 2040", "[retail]") {
  CHECK(LandDefs::in_bounds(0, 0));
  CHECK(LandDefs::in_bounds(2039, 2039));
  CHECK_FALSE(LandDefs::in_bounds(-1, 0));
  CHECK_FALSE(LandDefs::in_bounds(0, -1));
  CHECK_FALSE(LandDefs::in_bounds(2040, 0));
  CHECK_FALSE(LandDefs::in_bounds(0, 2040));
}

TEST_CASE("LandDefs::lcoord_to_gid 0x004A19A0: block from lcoord / 8, x-major cell index, 0 off the world",
          "[retail]") {
  CHECK(LandDefs::lcoord_to_gid(0, 0) == 0x00000001u);
  CHECK(LandDefs::lcoord_to_gid(0, 7) == 0x00000008u);
  CHECK(LandDefs::lcoord_to_gid(7, 0) == 0x00000039u);  // 1 + 7*8
  CHECK(LandDefs::lcoord_to_gid(8, 0) == 0x01000001u);
  CHECK(LandDefs::lcoord_to_gid(0, 8) == 0x00010001u);
  // 1355 = 0xA9*8 + 3, 1445 = 0xB4*8 + 5: cell 1 + 3*8 + 5 = 0x1E.
  CHECK(LandDefs::lcoord_to_gid(1355, 1445) == 0xA9B4001Eu);
  CHECK(LandDefs::lcoord_to_gid(2039, 2039) == 0xFEFE0040u);
  CHECK(LandDefs::lcoord_to_gid(-1, 0) == 0u);
  CHECK(LandDefs::lcoord_to_gid(0, -1) == 0u);
  CHECK(LandDefs::lcoord_to_gid(2040, 5) == 0u);
  CHECK(LandDefs::lcoord_to_gid(5, 2040) == 0u);
}

TEST_CASE("LandDefs::gid_to_lcoord 0x00497A90: outdoor cells only, and lcoord round trips", "[retail]") {
  CHECK(LandDefs::gid_to_lcoord(0xA9B4001Eu) == LCoord{1355, 1445});
  CHECK(LandDefs::gid_to_lcoord(0x00000001u) == LCoord{0, 0});
  CHECK(LandDefs::gid_to_lcoord(0xFEFE0040u) == LCoord{2039, 2039});
  CHECK_FALSE(LandDefs::gid_to_lcoord(0xA9B40100u));  // an EnvCell
  CHECK_FALSE(LandDefs::gid_to_lcoord(0xA9B4FFFFu));  // the landblock
  CHECK_FALSE(LandDefs::gid_to_lcoord(0xA9B4FFFEu));  // LandBlockInfo: not a cell
  CHECK_FALSE(LandDefs::gid_to_lcoord(0xA9B40041u));  // past the 64 outdoor cells
  CHECK_FALSE(LandDefs::gid_to_lcoord(0xA9B40000u));
  CHECK_FALSE(LandDefs::gid_to_lcoord(0xFF000001u));  // block column 0xFF is off the world
  CHECK_FALSE(LandDefs::gid_to_lcoord(0x00FF0001u));
  // Every cell of a few blocks, corners included, round-trips both ways.
  for (const std::uint32_t block : {0x00000000u, 0xA9B40000u, 0xFE000000u, 0x00FE0000u, 0xFEFE0000u}) {
    for (std::uint32_t cell = 1; cell <= 0x40; ++cell) {
      const std::uint32_t id = block | cell;
      const auto l = LandDefs::gid_to_lcoord(id);
      REQUIRE(l);
      CHECK(l->x == static_cast<int>((block >> 24) * 8 + (cell - 1) / 8));
      CHECK(l->y == static_cast<int>(((block >> 16) & 0xFF) * 8 + (cell - 1) % 8));
      CHECK(LandDefs::lcoord_to_gid(l->x, l->y) == id);
    }
  }
}

TEST_CASE("LandDefs::inbound_valid_cellid 0x004979A0: a valid cell range in a block on the world", "[retail]") {
  CHECK(LandDefs::inbound_valid_cellid(0x00000001u));
  CHECK(LandDefs::inbound_valid_cellid(0xFEFE0040u));
  CHECK(LandDefs::inbound_valid_cellid(0xA9B40100u));
  CHECK(LandDefs::inbound_valid_cellid(0xA9B4FFFDu));
  CHECK(LandDefs::inbound_valid_cellid(0xA9B4FFFFu));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xA9B4FFFEu));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xA9B40041u));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xA9B400FFu));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0x00000000u));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xFF000001u));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0x00FFFFFFu));
}

TEST_CASE("LandDefs::blockid_to_lcoord 0x0043D680: the block's south-west lcoord, none for 0 or off the world",
          "[retail]") {
  CHECK(LandDefs::blockid_to_lcoord(0xA9B4FFFFu) == LCoord{1352, 1440});
  CHECK(LandDefs::blockid_to_lcoord(0xA9B4001Eu) == LCoord{1352, 1440});  // the cell part is ignored
  CHECK(LandDefs::blockid_to_lcoord(0x0000FFFFu) == LCoord{0, 0});
  CHECK_FALSE(LandDefs::blockid_to_lcoord(0u));
  CHECK_FALSE(LandDefs::blockid_to_lcoord(0xFF00FFFFu));
  CHECK_FALSE(LandDefs::blockid_to_lcoord(0x00FFFFFFu));
}

TEST_CASE("LandDefs::get_outside_lcoord 0x005A9B00: counts from the block, not from the cell index", "[retail]") {
  // Cell 0x40 is the north-east cell, but only the block and the point count.
  CHECK(LandDefs::get_outside_lcoord(0xA9B40040u, glm::vec3(1.0f, 1.0f, 0.0f)) == LCoord{1352, 1440});
  CHECK(LandDefs::get_outside_lcoord(0xA9B40001u, glm::vec3(-0.5f, 200.0f, 0.0f)) == LCoord{1351, 1448});
  CHECK_FALSE(LandDefs::get_outside_lcoord(0xA9B40041u, glm::vec3(1.0f, 1.0f, 0.0f)));
  CHECK_FALSE(LandDefs::get_outside_lcoord(0x00000001u, glm::vec3(-0.5f, 1.0f, 0.0f)));
}

TEST_CASE("LandDefs::adjust_to_outside 0x005A9BC0: a point inside its block gets the cell that holds it", "[retail]") {
  // (30, 50): cell x 1, y 2 -> 1 + 8 + 2 = 0x0B; x, y, z unchanged.
  const Adjusted a = adjust(0xA9B40001u, glm::vec3(30.0f, 50.0f, 7.5f));
  CHECK(a.ok);
  CHECK(a.cell == 0xA9B4000Bu);
  CHECK(a.origin == glm::vec3(30.0f, 50.0f, 7.5f));
  // Any valid cell range is re-homed outdoors: an EnvCell and the landblock id too.
  CHECK(adjust(0xA9B40105u, glm::vec3(30.0f, 50.0f, 0.0f)).cell == 0xA9B4000Bu);
  CHECK(adjust(0xA9B4FFFFu, glm::vec3(30.0f, 50.0f, 0.0f)).cell == 0xA9B4000Bu);
  // The block's far edges belong to the next block.
  const Adjusted edge = adjust(0xA9B40001u, glm::vec3(192.0f, 0.0f, 0.0f));
  CHECK(edge.cell == 0xAAB40001u);
  CHECK(edge.origin.x == 0.0f);
}

TEST_CASE("LandDefs::adjust_to_outside 0x005A9BC0: re-homes across each seam and the corner", "[retail]") {
  struct Seam {
    const char* name;
    std::uint32_t cell;
    glm::vec3 origin;
    std::uint32_t want_cell;
    glm::vec3 want_origin;
  };
  const Seam seams[] = {
      {"east", 0xA9B40039u, {193.5f, 10.0f, 3.0f}, 0xAAB40001u, {1.5f, 10.0f, 3.0f}},
      // lcoord x 1352 - 1 = 1351: block 0xA8, cell x 7; y 100 -> cell y 4: 1 + 56 + 4 = 0x3D.
      {"west", 0xA9B40005u, {-0.5f, 100.0f, 3.0f}, 0xA8B4003Du, {191.5f, 100.0f, 3.0f}},
      // cell x 1, y 0: 1 + 8.
      {"north", 0xA9B40008u, {30.0f, 200.0f, 3.0f}, 0xA9B50009u, {30.0f, 8.0f, 3.0f}},
      // cell x 1, y 7: 1 + 8 + 7.
      {"south", 0xA9B40001u, {30.0f, -10.0f, 3.0f}, 0xA9B30010u, {30.0f, 182.0f, 3.0f}},
      {"south-west corner", 0xA9B40001u, {-1.0f, -1.0f, 3.0f}, 0xA8B30040u, {191.0f, 191.0f, 3.0f}},
      // 400 = 2*192 + 16: block +2, cell x 0; 390 = 2*192 + 6: block +2, cell y 0.
      {"north-east, two blocks over", 0xA9B40001u, {400.0f, 390.0f, 3.0f}, 0xABB60001u, {16.0f, 6.0f, 3.0f}},
  };
  for (const Seam& seam : seams) {
    INFO(seam.name);
    const Adjusted a = adjust(seam.cell, seam.origin);
    CHECK(a.ok);
    CHECK(a.cell == seam.want_cell);
    CHECK(a.origin == seam.want_origin);
  }
}

TEST_CASE("LandDefs::adjust_to_outside 0x005A9BC0: |x| and |y| under EPSILON snap to 0 before the cell is found",
          "[retail]") {
  const Adjusted snapped = adjust(0xA9B40001u, glm::vec3(-0.0001f, -0.00019f, 0.0f));
  CHECK(snapped.ok);
  CHECK(snapped.cell == 0xA9B40001u);
  CHECK(snapped.origin.x == 0.0f);
  CHECK(snapped.origin.y == 0.0f);
  CHECK_FALSE(std::signbit(snapped.origin.x));
  // Exactly EPSILON (0.0002f) is not under it: the point is west of the block.
  const Adjusted west = adjust(0xA9B40001u, glm::vec3(-0.0002f, 5.0f, 0.0f));
  CHECK(west.cell == 0xA8B40039u);
  CHECK(west.origin.x == static_cast<float>(192.0 - static_cast<double>(0.0002f)));
}

TEST_CASE("LandDefs::adjust_to_outside 0x005A9BC0: fails off the world and for invalid cell ranges", "[retail]") {
  SECTION("west of the world") {
    const Adjusted a = adjust(0x00000001u, glm::vec3(-1.0f, 5.0f, 0.0f));
    CHECK_FALSE(a.ok);
    CHECK(a.cell == 0u);
  }
  SECTION("south of the world") {
    CHECK_FALSE(adjust(0x05000001u, glm::vec3(5.0f, -1.0f, 0.0f)).ok);
  }
  SECTION("east and north of the last block") {
    CHECK_FALSE(adjust(0xFE050001u, glm::vec3(192.0f, 5.0f, 0.0f)).ok);
    CHECK_FALSE(adjust(0x05FE0001u, glm::vec3(5.0f, 192.0f, 0.0f)).ok);
  }
  SECTION("invalid cell ranges leave the origin untouched") {
    for (const std::uint32_t cell : {0xA9B40000u, 0xA9B40041u, 0xA9B400FFu, 0xA9B4FFFEu}) {
      const Adjusted a = adjust(cell, glm::vec3(-0.0001f, 30.0f, 0.0f));
      CHECK_FALSE(a.ok);
      CHECK(a.cell == 0u);
      CHECK(a.origin.x == -0.0001f);
    }
  }
}

TEST_CASE("LandDefs::adjust_to_outside 0x005A9BC0: retail's odd cases (block 0xFF, NaN, huge floors)", "[retail]") {
  // Block column 0xFF is off the world (its lcoord x is 2040), but
  // get_outside_lcoord ignores blockid_to_lcoord's verdict: a point 1 m west
  // of it is in lcoord 2039, block 0xFE, cell x 7.
  const Adjusted ff = adjust(0xFF000001u, glm::vec3(-1.0f, 5.0f, 0.0f));
  CHECK(ff.ok);
  CHECK(ff.cell == 0xFE000039u);
  CHECK(ff.origin.x == 191.0f);
  // NaN floors convert to the integer indefinite, whose low 32 bits are 0:
  // the point stays in the block's own column, and x stays NaN.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Adjusted n = adjust(0xA9B40001u, glm::vec3(nan, 50.0f, 0.0f));
  CHECK(n.ok);
  CHECK(n.cell == 0xA9B40003u);
  CHECK(std::isnan(n.origin.x));
  // floor(x/24) = 2^32 keeps low bits 0 as well; x loses 2^29 whole blocks.
  const Adjusted huge = adjust(0xA9B40001u, glm::vec3(24.0f * 4294967296.0f, 50.0f, 0.0f));
  CHECK(huge.ok);
  CHECK(huge.cell == 0xA9B40003u);
  CHECK(huge.origin.x == 0.0f);
  // Infinity: indefinite too, and inf - inf*192 is NaN.
  const Adjusted inf = adjust(0xA9B40001u, glm::vec3(std::numeric_limits<float>::infinity(), 50.0f, 0.0f));
  CHECK(inf.ok);
  CHECK(std::isnan(inf.origin.x));
}

TEST_CASE("LandDefs::get_block_offset 0x0043E630: landblock differences times 192 m, and the zero-id cases",
          "[retail]") {
  using dereth::sim::block_offset;
  CHECK(LandDefs::get_block_offset(0xA9B40001u, 0xA9B40040u) == glm::vec3(0.0f));
  CHECK(LandDefs::get_block_offset(0xA9B40001u, 0xA9B4FFFFu) == glm::vec3(0.0f));
  CHECK(LandDefs::get_block_offset(0xA9B40001u, 0xAAB5FFFFu) == glm::vec3(192.0f, 192.0f, 0.0f));
  CHECK(LandDefs::get_block_offset(0xA9B40001u, 0xA8B30001u) == glm::vec3(-192.0f, -192.0f, 0.0f));
  CHECK(LandDefs::get_block_offset(0x00000001u, 0xFEFE0001u) == glm::vec3(254.0f * 192.0f, 254.0f * 192.0f, 0.0f));
  // From 0: lcoord (0, 0).
  CHECK(LandDefs::get_block_offset(0u, 0x01020001u) == glm::vec3(192.0f, 384.0f, 0.0f));
  // To 0: retail uses the from id itself as the target lcoord.
  const glm::vec3 odd = LandDefs::get_block_offset(0x01020001u, 0u);
  CHECK(odd.x == static_cast<float>(static_cast<double>(0x01020001 - 8) * 24.0));
  CHECK(odd.y == static_cast<float>(static_cast<double>(0x01020001 - 16) * 24.0));
  CHECK(odd.z == 0.0f);
  // position.hpp's block_offset is the same function.
  CHECK(block_offset(0xA9B40001u, 0xA8B30001u) == glm::vec3(-192.0f, -192.0f, 0.0f));
}

TEST_CASE("LandDefs::within_block 0x0050E800: radius <= x, y < 192 - radius", "[retail]") {
  CHECK(LandDefs::within_block(glm::vec3(1.0f, 1.0f, 0.0f), 1.0f));
  CHECK(LandDefs::within_block(glm::vec3(190.9f, 100.0f, 0.0f), 1.0f));
  CHECK_FALSE(LandDefs::within_block(glm::vec3(191.0f, 100.0f, 0.0f), 1.0f));
  CHECK_FALSE(LandDefs::within_block(glm::vec3(0.5f, 100.0f, 0.0f), 1.0f));
  CHECK_FALSE(LandDefs::within_block(glm::vec3(100.0f, 191.5f, 0.0f), 1.0f));
  CHECK_FALSE(LandDefs::within_block(glm::vec3(std::numeric_limits<float>::quiet_NaN(), 5.0f, 0.0f), 1.0f));
}
