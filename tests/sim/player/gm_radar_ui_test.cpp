// gmRadarUI: the radar's blips (which objects, their colour, shape and
// pixel) and the coordinates line, with the CPlayerSystem and SmartBox
// queries they rest on.
#include "dereth/sim/player/gm_radar_ui.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "dereth/sim/cells/landscape.hpp"

#include "fakes.hpp"
#include "player/walk_support.hpp"

using namespace dereth;
using namespace dereth::sim;

namespace {

constexpr std::uint32_t kPlayer = 0x50000001;

WeenieTraits traits(std::uint32_t bitfield, std::uint8_t blip = 0) {
  WeenieTraits w;
  w.bitfield = bitfield;
  w.blip_color = blip;
  return w;
}

// The outdoor cell of block A9B4 holding block-local (x, y).
std::uint32_t cell_at(float x, float y) {
  const auto cx = static_cast<std::uint32_t>(x / 24.0F);
  const auto cy = static_cast<std::uint32_t>(y / 24.0F);
  return 0xA9B40000u | (cx * 8u + cy + 1u);
}

// A SmartBox over one flat landblock (z 10) with the player at (100, 100)
// facing `facing` (w, x, y, z), away from any cell edge.
struct Radar {
  sim::test::World w;
  Landscape landscape;

  explicit Radar(protocol::Quat facing = {1, 0, 0, 0}, std::uint32_t player_cell = 0) {
    REQUIRE(landscape.add_block(sim::test::flat_block()));
    w.context.cells = &landscape;
    w.start(kPlayer);
    auto m = sim::test::create(kPlayer, 1, 0x00400C08, {100.0F, 100.0F, 10.0F});
    m.physics.position->cell_id = player_cell != 0 ? player_cell : cell_at(100.0F, 100.0F);
    m.physics.position->orientation = facing;
    m.weenie.object_description_flags = 0x8;  // a player
    m.weenie.radar_behavior = 4;
    w.handle(protocol::Message{m});
    REQUIRE(w.box.player() != nullptr);
  }
  // An object at block-local (x, y, z) with radar behaviour `radar`.
  void add(std::uint32_t guid, float x, float y, float z = 10.0F, std::uint8_t radar = 4, std::uint32_t flags = 0,
           std::uint8_t blip = 0) {
    auto m = sim::test::create(guid, 1, 0x00400C08, {x, y, z});
    m.physics.position->cell_id = cell_at(x, y);
    m.weenie.object_description_flags = flags;
    if (radar != 0) m.weenie.radar_behavior = radar;
    if (blip != 0) m.weenie.radar_blip_color = blip;
    w.handle(protocol::Message{m});
    REQUIRE(w.box.get_object(guid) != nullptr);
    REQUIRE(w.box.get_object(guid)->cell() != nullptr);
  }
  const RadarBlip* blip(const std::vector<RadarBlip>& all, std::uint32_t guid) const {
    const auto it = std::find_if(all.begin(), all.end(), [&](const RadarBlip& b) { return b.guid == guid; });
    return it != all.end() ? &*it : nullptr;
  }
};

}  // namespace

TEST_CASE("gmRadarUI::GetBlipColor 0x004D76F0: the server's colour first, then portal, vendor, creature and player",
          "[retail][radar]") {
  namespace rc = radar_color;
  CHECK(GmRadarUi::get_blip_color(nullptr) == rc::White);
  const RadarColor table[] = {rc::Blue, rc::Gold,  rc::White,  rc::Purple, rc::Red,
                              rc::Pink, rc::Green, rc::Yellow, rc::Cyan,   rc::BrightGreen};
  for (std::uint8_t c = 1; c <= 10; ++c) {
    INFO("blip colour " << int(c));
    const WeenieTraits w = traits(0x40000u, c);  // a portal, but the sent colour wins
    CHECK(GmRadarUi::get_blip_color(&w) == table[c - 1]);
  }
  const WeenieTraits unknown = traits(0, 11);
  CHECK(GmRadarUi::get_blip_color(&unknown) == rc::White);
  const WeenieTraits hidden = traits(0x80u, 5);  // UiHidden: the default, whatever was sent
  CHECK(GmRadarUi::get_blip_color(&hidden) == rc::White);

  const WeenieTraits portal = traits(0x40000u);
  CHECK(GmRadarUi::get_blip_color(&portal) == rc::Purple);
  const WeenieTraits vendor = traits(0x200u);
  CHECK(GmRadarUi::get_blip_color(&vendor) == rc::Yellow);
  WeenieTraits monster = traits(0x10u);
  monster.is_creature = true;
  CHECK(GmRadarUi::get_blip_color(&monster) == rc::Gold);
  WeenieTraits pet = traits(0);  // a creature that cannot be attacked: the default
  pet.is_creature = true;
  CHECK(GmRadarUi::get_blip_color(&pet) == rc::White);

  WeenieTraits player = traits(0x8u | 0x10u);
  player.is_player = true;
  player.is_creature = true;
  CHECK(GmRadarUi::get_blip_color(&player) == rc::White);  // an attackable player is not a creature blip
  WeenieTraits admin = player;
  admin.bitfield |= 0x100000u;
  admin.is_pk = true;
  CHECK(GmRadarUi::get_blip_color(&admin) == rc::Cyan);
  admin.bitfield |= 0x40u;  // a hidden admin shows as what else it is: here a player killer
  CHECK(GmRadarUi::get_blip_color(&admin) == rc::Red);
  WeenieTraits lite = player;
  lite.is_pklite = true;
  CHECK(GmRadarUi::get_blip_color(&lite) == rc::Pink);
  WeenieTraits free_pk = player;
  free_pk.bitfield |= 0x200000u;
  CHECK(GmRadarUi::get_blip_color(&free_pk) == rc::Gold);
}

TEST_CASE("gmRadarUI::GetBlipShape 0x004D7B60: allegiance hollow, the same player-killer kind an X, else a cross",
          "[retail][radar]") {
  WeenieTraits me = traits(0x8u);
  me.is_player = true;
  WeenieTraits other = me;
  CHECK(GmRadarUi::get_blip_shape(nullptr, &me) == RadarBlipShape::Undef);
  const WeenieTraits hidden = traits(0x80u);
  CHECK(GmRadarUi::get_blip_shape(&hidden, &me) == RadarBlipShape::Undef);
  CHECK(GmRadarUi::get_blip_shape(&other, nullptr) == RadarBlipShape::Cross);
  CHECK(GmRadarUi::get_blip_shape(&other, &me) == RadarBlipShape::Cross);
  // Both without a monarch are not one allegiance.
  me.monarch = other.monarch = 0;
  CHECK(GmRadarUi::get_blip_shape(&other, &me) == RadarBlipShape::Cross);
  me.monarch = other.monarch = 0x50000042;
  CHECK(GmRadarUi::get_blip_shape(&other, &me) == RadarBlipShape::Hollow);
  other.monarch = 0x50000043;
  other.is_pk = true;
  CHECK(GmRadarUi::get_blip_shape(&other, &me) == RadarBlipShape::Cross);
  me.is_pk = true;
  CHECK(GmRadarUi::get_blip_shape(&other, &me) == RadarBlipShape::X);
  other.is_pk = me.is_pk = false;
  other.is_pklite = me.is_pklite = true;
  CHECK(GmRadarUi::get_blip_shape(&other, &me) == RadarBlipShape::X);
}

TEST_CASE("ACCWeenieObject::InqShowableOnRadar 0x0058C250 is radar behaviour 2, 3 or 4", "[retail][radar]") {
  Radar r;
  r.add(0x70000001, 100.0F, 100.0F, 10.0F, 0);
  CHECK_FALSE(GmRadarUi::inq_showable_on_radar(*r.w.box.get_object(0x70000001)));  // never sent: 0
  for (const std::uint8_t behaviour : std::initializer_list<std::uint8_t>{1, 2, 3, 4, 5}) {
    const std::uint32_t guid = 0x70000010u + behaviour;
    r.add(guid, 100.0F, 100.0F, 10.0F, behaviour);
    INFO("behaviour " << int(behaviour));
    CHECK(GmRadarUi::inq_showable_on_radar(*r.w.box.get_object(guid)) == (behaviour >= 2 && behaviour <= 4));
  }
}

TEST_CASE(
    "CPlayerSystem::GetRadarRadius 0x0055D880: 75 m outside, 25 m indoors (SmartBox::is_player_outside 0x00451E80)",
    "[retail][radar]") {
  sim::test::World none;
  CHECK_FALSE(none.box.is_player_outside());
  CHECK(GmRadarUi::get_radar_radius(none.box) == 25.0F);
  Radar outside;
  CHECK(outside.w.box.is_player_outside());
  CHECK(GmRadarUi::get_radar_radius(outside.w.box) == 75.0F);
}

TEST_CASE("CPlayerSystem::InqPlayerCoords 0x00560090, gmRadarUI::UpdateCoordinates 0x004D8C80: the line",
          "[retail][radar]") {
  Radar r;  // block A9B4, cell (4, 4): lcoord (169 * 8 + 4, 180 * 8 + 4)
  const auto coords = GmRadarUi::inq_player_coords(r.w.box);
  REQUIRE(coords);
  CHECK(coords->first == Approx((1356 - 1024) * 0.1 + 0.5));
  CHECK(coords->second == Approx((1444 - 1024) * 0.1 + 0.5));
  CHECK(GmRadarUi::coordinates_text(coords->first, coords->second) == "42.5N,33.7E");
  // South and west, and a coordinate of exactly zero with no letter.
  CHECK(GmRadarUi::coordinates_text(-1.9, -0.5) == "0.5S,1.9W");
  CHECK(GmRadarUi::coordinates_text((1019 - 1024) * 0.1 + 0.5, 12.25) == "12.2N,0.0");
  // No player: none.
  sim::test::World none;
  CHECK_FALSE(GmRadarUi::inq_player_coords(none.box));
}

TEST_CASE("gmRadarUI::DrawObjects 0x004D9380: blips in the player's frame, within the range less a metre",
          "[retail][radar]") {
  Radar r;                                                // facing north: +y ahead, +x to the right
  r.add(0x70000001, 100.0F, 120.0F);                      // 20 m ahead
  r.add(0x70000002, 130.0F, 100.0F);                      // 30 m to the right
  r.add(0x70000003, 100.0F, 100.0F - 73.9F);              // 73.9 m behind: inside 74
  r.add(0x70000004, 100.0F + 74.5F, 100.0F);              // 74.5 m: outside the range less a metre
  r.add(0x70000005, 90.0F, 100.0F, 16.0F);                // 6 m above: dimmed
  r.add(0x70000006, 100.0F, 100.0F, 10.0F, 0);            // not showable
  r.add(0x70000007, 90.0F, 90.0F, 10.0F, 4, 0x80u);       // UiHidden: no shape
  r.add(0x70000008, 100.0F, 110.0F, 10.0F, 4, 0x40000u);  // a portal, 10 m ahead
  const auto blips = GmRadarUi::draw_objects(r.w.box, 0x70000008);
  CHECK(blips.size() == 5);
  CHECK(r.blip(blips, kPlayer) == nullptr);  // never the player

  const double scale = 50.0 / 75.0;
  const RadarBlip* ahead = r.blip(blips, 0x70000001);
  REQUIRE(ahead != nullptr);
  CHECK(ahead->x == 50);
  CHECK(ahead->y == static_cast<int>(50.0 - 20.0 * scale));  // 36: truncated
  CHECK(ahead->color == radar_color::White);
  CHECK(ahead->shape == RadarBlipShape::Cross);
  CHECK_FALSE(ahead->selected);
  const RadarBlip* right = r.blip(blips, 0x70000002);
  REQUIRE(right != nullptr);
  CHECK(right->x == 70);
  CHECK(right->y == 50);
  const RadarBlip* behind = r.blip(blips, 0x70000003);
  REQUIRE(behind != nullptr);
  CHECK(behind->y == static_cast<int>(50.0 + 73.9 * scale));
  CHECK(r.blip(blips, 0x70000004) == nullptr);
  const RadarBlip* above = r.blip(blips, 0x70000005);
  REQUIRE(above != nullptr);
  CHECK(above->color.r == Approx(0.65F));
  CHECK(above->color.a == 1.0F);  // alpha is not dimmed
  const RadarBlip* portal = r.blip(blips, 0x70000008);
  REQUIRE(portal != nullptr);
  CHECK(portal->selected);
  CHECK(portal->color == radar_color::Purple);
  CHECK(portal->y == static_cast<int>(50.0 - 10.0 * scale));

  // The player turned to face east (a quarter turn clockwise seen from
  // above): what was ahead is now on the left.
  const float h = std::sqrt(0.5F);
  Radar turned(protocol::Quat{h, 0.0F, 0.0F, -h});
  turned.add(0x70000001, 100.0F, 120.0F);
  const auto t = GmRadarUi::draw_objects(turned.w.box, 0);
  REQUIRE(t.size() == 1);
  CHECK(t[0].x == static_cast<int>(50.0 - 20.0 * scale));
  CHECK(std::abs(t[0].y - 50) <= 1);
}

TEST_CASE("gmRadarUI::DrawBlip 0x004D8A30: each shape's pixels, and the selection frame", "[retail][radar]") {
  const auto pixels = [](RadarBlipShape shape, bool selected = false) {
    auto p = GmRadarUi::blip_pixels(RadarBlip{1, 10, 20, {}, shape, selected});
    std::sort(p.begin(), p.end());
    return p;
  };
  using P = std::vector<std::pair<int, int>>;
  CHECK(pixels(RadarBlipShape::Point) == P{{10, 20}});
  CHECK(pixels(RadarBlipShape::Cross) == P{{9, 20}, {10, 19}, {10, 20}, {10, 21}, {11, 20}});
  CHECK(pixels(RadarBlipShape::X) == P{{9, 19}, {9, 21}, {10, 20}, {11, 19}, {11, 21}});
  const auto hollow = pixels(RadarBlipShape::Hollow);
  CHECK(hollow.size() == 8);  // the ring without its centre
  CHECK(std::find(hollow.begin(), hollow.end(), std::pair{10, 20}) == hollow.end());
  CHECK(pixels(RadarBlipShape::XBox).size() == 12);
  CHECK(pixels(RadarBlipShape::Triangle) == P{{9, 21}, {10, 20}, {10, 21}, {11, 21}});
  CHECK(pixels(RadarBlipShape::InvertedTriangle) == P{{9, 19}, {10, 19}, {10, 20}, {11, 19}});
  CHECK(pixels(RadarBlipShape::Undef).empty());
  // Selected: four bars of five, three pixels out.
  CHECK(pixels(RadarBlipShape::Point, true).size() == 1 + 20);
}
