// The validity test SendPositionEvent applies to m_position:
// Position::IsValid 0x005A9480 = LandDefs::inbound_valid_cellid 0x004979A0
// and Frame::IsValid 0x00534ED0.

#include <catch2/catch.hpp>

#include <limits>

#include "dereth/sim/player/command_interpreter.hpp"

using namespace dereth;
using namespace dereth::sim;

TEST_CASE("LandDefs::inbound_valid_cellid 0x004979A0: the cell ranges and a landblock below 0xFF on both axes",
          "[retail]") {
  CHECK(LandDefs::inbound_valid_cellid(0xA9B40001));
  CHECK(LandDefs::inbound_valid_cellid(0xA9B40040));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xA9B40041));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xA9B400FF));
  CHECK(LandDefs::inbound_valid_cellid(0xA9B40100));
  CHECK(LandDefs::inbound_valid_cellid(0xA9B4FFFD));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xA9B4FFFE));
  CHECK(LandDefs::inbound_valid_cellid(0xA9B4FFFF));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xA9B40000));
  // Landblock x or y 0xFF is off the world even with a good cell.
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xFFB40001));
  CHECK_FALSE(LandDefs::inbound_valid_cellid(0xA9FF0001));
  CHECK(LandDefs::inbound_valid_cellid(0xFEFE0001));
  CHECK(LandDefs::inbound_valid_cellid(0x00000001));
}

TEST_CASE("Frame::IsValid 0x00534ED0: no NaN, and a quaternion of length squared within 0.001 of 1", "[retail]") {
  const core::Frame good({1.0f, 2.0f, 3.0f}, glm::quat(1, 0, 0, 0));
  CHECK(good.is_valid());
  core::Frame nan_origin = good;
  nan_origin.origin.y = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(nan_origin.is_valid());
  // Infinity is not NaN: the frame stays valid.
  core::Frame inf_origin = good;
  inf_origin.origin.x = std::numeric_limits<float>::infinity();
  CHECK(inf_origin.is_valid());
}

TEST_CASE("Position::IsValid 0x005A9480 needs both a valid cell and a valid frame", "[retail]") {
  const core::Frame f({84.0f, 148.0f, 66.0f}, glm::quat(1, 0, 0, 0));
  CHECK(position_is_valid(Position{0xA9B4001F, f}));
  CHECK(position_is_valid(Position{0x01D90108, f}));  // an EnvCell
  CHECK_FALSE(position_is_valid(Position{0, f}));
  core::Frame bad = f;
  bad.origin.x = std::numeric_limits<float>::quiet_NaN();
  CHECK_FALSE(position_is_valid(Position{0xA9B4001F, bad}));
}
