#include "dereth/sim/player/gm_radar_ui.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "dereth/sim/cells/land_defs.hpp"
#include "dereth/sim/object/smart_box.hpp"

namespace dereth::sim {

namespace {

// ObjectDescriptionFlags (pwd._bitfield) the radar reads.
constexpr std::uint32_t kUiHidden = 0x80u;
constexpr std::uint32_t kHiddenAdmin = 0x40u;
constexpr std::uint32_t kAttackable = 0x10u;
constexpr std::uint32_t kVendor = 0x200u;
constexpr std::uint32_t kPortal = 0x40000u;
constexpr std::uint32_t kAdmin = 0x100000u;
constexpr std::uint32_t kFreePkStatus = 0x200000u;

// The radar range DrawObjects compares against is one metre short of the
// range (m_fRadarRange - 1).
constexpr float kRangeMargin = 1.0F;
// A blip more than 5 m above or below the player is drawn at 0.65 intensity.
constexpr float kLevelBand = 5.0F;
constexpr float kOffLevelIntensity = 0.64999998F;

bool ui_hidden(const WeenieTraits* w) noexcept {
  return w == nullptr || (w->bitfield & kUiHidden) != 0;
}

// The binary's cast of a double to unsigned __int64, for the radar's
// non-negative pixels: truncation.
int to_pixel(double v) noexcept {
  return static_cast<int>(std::trunc(v));
}

}  // namespace

// gmRadarUI::GetBlipColor 0x004D76F0
RadarColor GmRadarUi::get_blip_color(const WeenieTraits* object) noexcept {
  if (ui_hidden(object)) return radar_color::Default;
  switch (object->blip_color) {
    case 0: break;
    case 1: return radar_color::Blue;
    case 2: return radar_color::Gold;
    case 3: return radar_color::White;
    case 4: return radar_color::Purple;
    case 5: return radar_color::Red;
    case 6: return radar_color::Pink;
    case 7: return radar_color::Green;
    case 8: return radar_color::Yellow;
    case 9: return radar_color::Cyan;
    case 10: return radar_color::BrightGreen;
    default: return radar_color::Default;
  }
  if ((object->bitfield & kPortal) != 0) return radar_color::Portal;
  if ((object->bitfield & kVendor) != 0) return radar_color::Vendor;
  if ((object->bitfield & kAttackable) != 0 && object->is_creature && !object->is_player) {
    return radar_color::Creature;
  }
  if (!object->is_player) return radar_color::Default;
  // A player: an admin (not hidden), else by player-killer status. The
  // fellowship's colours would follow (no fellowship yet).
  if ((object->bitfield & kAdmin) != 0 && (object->bitfield & kHiddenAdmin) == 0) return radar_color::Admin;
  if (object->is_pk) return radar_color::PlayerKiller;
  if (object->is_pklite) return radar_color::PKLite;
  if ((object->bitfield & kFreePkStatus) != 0) return radar_color::Creature;
  return radar_color::Default;
}

// gmRadarUI::GetBlipShape 0x004D7B60
RadarBlipShape GmRadarUi::get_blip_shape(const WeenieTraits* object, const WeenieTraits* player) noexcept {
  if (ui_hidden(object)) return RadarBlipShape::Undef;
  // (A fellow would be an inverted triangle, its leader a triangle.)
  if (player == nullptr) return RadarBlipShape::Cross;
  // ACCWeenieObject::IsAllegianceMember 0x0058C630: the same non-zero monarch.
  if (object->monarch != 0 && object->monarch == player->monarch) return RadarBlipShape::Hollow;
  if ((object->is_pk && player->is_pk) || (object->is_pklite && player->is_pklite)) return RadarBlipShape::X;
  return RadarBlipShape::Cross;
}

// ACCWeenieObject::InqShowableOnRadar 0x0058C250
bool GmRadarUi::inq_showable_on_radar(const PhysicsObj& object) noexcept {
  const auto& w = object.weenie();
  return w && (w->radar_enum == 2 || w->radar_enum == 3 || w->radar_enum == 4);
}

// CPlayerSystem::GetRadarRadius 0x0055D880
float GmRadarUi::get_radar_radius(const SmartBox& box) noexcept {
  return box.is_player_outside() ? 75.0F : 25.0F;
}

// gmRadarUI::DrawObjects 0x004D9380
std::vector<RadarBlip> GmRadarUi::draw_objects(const SmartBox& box, std::uint32_t selected) {
  std::vector<RadarBlip> out;
  const PhysicsObj* player = box.player();
  if (player == nullptr) return out;
  const float range = get_radar_radius(box);
  const float range_sq = (range - kRangeMargin) * (range - kRangeMargin);
  const WeenieTraits* player_weenie = player->weenie() ? &*player->weenie() : nullptr;
  for (const PhysicsObj* object : box.objects().objects()) {
    // gmRadarUI::AddObject 0x004D9A00: not the player; showable; a shape.
    if (object->id() == box.player_id() || !inq_showable_on_radar(*object)) continue;
    const WeenieTraits* w = &*object->weenie();
    const RadarBlipShape shape = get_blip_shape(w, player_weenie);
    if (shape == RadarBlipShape::Undef) continue;
    const auto v = box.convert_to_player_space(*object);
    if (!v || v->y * v->y + v->x * v->x >= range_sq) continue;
    const double radius = static_cast<double>(kRadius);
    const double scale = radius / static_cast<double>(range);
    const int x = to_pixel(static_cast<double>(v->x) * scale + static_cast<double>(kCentre.x));
    const int y = to_pixel(static_cast<double>(kCentre.y) - scale * static_cast<double>(v->y));
    if (static_cast<double>(x) < static_cast<double>(kCentre.x) - radius ||
        static_cast<double>(x) > radius + static_cast<double>(kCentre.x) ||
        static_cast<double>(y) < static_cast<double>(kCentre.y) - radius ||
        static_cast<double>(y) > radius + static_cast<double>(kCentre.y)) {
      continue;
    }
    // gmRadarUI::DrawBlip 0x004D8A30: the colour times the intensity, alpha kept.
    const float intensity = std::fabs(v->z) < kLevelBand ? 1.0F : kOffLevelIntensity;
    RadarColor color = get_blip_color(w);
    color.r *= intensity;
    color.g *= intensity;
    color.b *= intensity;
    out.push_back(RadarBlip{object->id(), x, y, color, shape, object->id() == selected});
  }
  return out;
}

std::vector<std::pair<int, int>> GmRadarUi::blip_pixels(const RadarBlip& b) {
  std::vector<std::pair<int, int>> px;
  const auto dot = [&](int dx, int dy) { px.emplace_back(b.x + dx, b.y + dy); };
  // gmRadarUI::DrawEdges 0x004D7C70 and DrawCorners 0x004D7D20
  const auto edges = [&] {
    dot(0, -1);
    dot(0, 1);
    dot(-1, 0);
    dot(1, 0);
  };
  const auto corners = [&] {
    dot(1, 1);
    dot(-1, -1);
    dot(-1, 1);
    dot(1, -1);
  };
  switch (b.shape) {
    case RadarBlipShape::Point: dot(0, 0); break;  // DrawPoint 0x004D7C30
    case RadarBlipShape::Hollow:                   // DrawHollow 0x004D8430
      edges();
      corners();
      break;
    case RadarBlipShape::Cross:  // DrawCross 0x004D7DE0
      dot(0, 0);
      edges();
      break;
    case RadarBlipShape::X:  // DrawX 0x004D7E30
      dot(0, 0);
      corners();
      break;
    case RadarBlipShape::XBox:  // DrawXBox 0x004D8470
      edges();
      corners();
      dot(-2, -2);
      dot(2, -2);
      dot(-2, 2);
      dot(2, 2);
      break;
    case RadarBlipShape::Triangle:  // DrawTriangle 0x004D7E80
      dot(0, 0);
      dot(-1, 1);
      dot(0, 1);
      dot(1, 1);
      break;
    case RadarBlipShape::InvertedTriangle:  // DrawInvertedTriangle 0x004D7F30
      dot(0, 0);
      dot(-1, -1);
      dot(0, -1);
      dot(1, -1);
      break;
    case RadarBlipShape::Undef: break;
  }
  if (b.selected) {
    // DrawSelected 0x004D7FE0: a frame of four bars 3 pixels out.
    for (int i = -2; i <= 2; ++i) {
      dot(i, 3);
      dot(3, i);
      dot(i, -3);
      dot(-3, i);
    }
  }
  return px;
}

// CPlayerSystem::InqPlayerCoords 0x00560090 (through
// CPhysicsObj::get_landscape_coord: LandDefs::gid_to_lcoord of the cell)
std::optional<std::pair<double, double>> GmRadarUi::inq_player_coords(const SmartBox& box) noexcept {
  const PhysicsObj* player = box.player();
  if (player == nullptr) return std::nullopt;
  const auto lc = LandDefs::gid_to_lcoord(player->position().objcell_id);
  if (!lc) return std::nullopt;
  return std::pair{static_cast<double>(lc->x - 1024) * 0.1 + 0.5, static_cast<double>(lc->y - 1024) * 0.1 + 0.5};
}

// gmRadarUI::UpdateCoordinates 0x004D8C80: "%.1f%s,%.1f%s", north first.
std::string GmRadarUi::coordinates_text(double x, double y) {
  const char* ew = x > 0.0 ? "E" : (x < 0.0 ? "W" : "");
  const char* ns = y > 0.0 ? "N" : (y < 0.0 ? "S" : "");
  return fmt::format("{:.1f}{},{:.1f}{}", std::fabs(y), ns, std::fabs(x), ew);
}

}  // namespace dereth::sim
