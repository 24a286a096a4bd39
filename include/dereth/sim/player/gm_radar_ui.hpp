#pragma once
// gmRadarUI (gmRadarUI.c): which objects the radar shows, in what colour and
// shape, where each blip falls on the radar's pixels, and the player's
// coordinates line. Pure: the overlay draws what draw_objects returns.
// Colours, shapes and rules: docs/game_screen.md "Radar".

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/vec2.hpp>

#include "dereth/sim/object/physics_obj.hpp"

namespace dereth::sim {

class SmartBox;

// retail RadarBlipShape, values as the binary's (gmRadarUI::DrawBlip's switch).
enum class RadarBlipShape : std::uint8_t {
  Undef = 0,
  Point = 1,
  Hollow = 2,
  X = 3,
  Cross = 4,
  Triangle = 5,
  InvertedTriangle = 6,
  XBox = 7,
};

// retail RGBAColor, 0..1 a channel.
struct RadarColor {
  float r = 0.0F;
  float g = 0.0F;
  float b = 0.0F;
  float a = 1.0F;
  bool operator==(const RadarColor&) const = default;
};

// The binary's RGBAColor_Radar* constants (acclient_data.h) and the names
// gmRadarUI's static initialisers give them.
namespace radar_color {
inline constexpr RadarColor Blue{0.25F, 0.66000003F, 1.0F, 1.0F};
inline constexpr RadarColor Gold{1.0F, 0.67000002F, 0.0F, 1.0F};
inline constexpr RadarColor Yellow{1.0F, 1.0F, 0.5F, 1.0F};
inline constexpr RadarColor White{1.0F, 1.0F, 1.0F, 1.0F};
inline constexpr RadarColor Red{1.0F, 0.25F, 0.38999999F, 1.0F};
inline constexpr RadarColor Purple{0.75F, 0.38999999F, 1.0F, 1.0F};
inline constexpr RadarColor Pink{1.0F, 0.66000003F, 0.75F, 1.0F};
inline constexpr RadarColor Green{0.0F, 0.5F, 0.25F, 1.0F};
inline constexpr RadarColor Cyan{0.0F, 1.0F, 1.0F, 1.0F};
inline constexpr RadarColor BrightGreen{0.0F, 1.0F, 0.0F, 1.0F};
inline constexpr RadarColor Default = White;
inline constexpr RadarColor Admin = Cyan;
inline constexpr RadarColor Creature = Gold;
inline constexpr RadarColor PlayerKiller = Red;
inline constexpr RadarColor PKLite = Pink;
inline constexpr RadarColor Portal = Purple;
inline constexpr RadarColor Vendor = Yellow;
}  // namespace radar_color

// One blip as gmRadarUI::DrawObjects draws it: radar pixel (x right, y
// down, from the radar's top-left), the colour with its intensity applied.
struct RadarBlip {
  std::uint32_t guid = 0;
  int x = 0;
  int y = 0;
  RadarColor color;
  RadarBlipShape shape = RadarBlipShape::Undef;
  bool selected = false;
  bool operator==(const RadarBlip&) const = default;
};

class GmRadarUi {
 public:
  // The radar's size in its own pixels (m_nRadarRadius and
  // m_vecCenterPoint, from the layout: ours).
  static constexpr int kRadius = 50;
  static constexpr glm::vec2 kCentre{50.0F, 50.0F};

  // gmRadarUI::GetBlipColor 0x004D76F0 (no fellowship: its two colours
  // never apply, docs/deviations.md).
  [[nodiscard]] static RadarColor get_blip_color(const WeenieTraits* object) noexcept;
  // gmRadarUI::GetBlipShape 0x004D7B60 (no fellowship, likewise); `player`
  // is the player's weenie (null: none).
  [[nodiscard]] static RadarBlipShape get_blip_shape(const WeenieTraits* object, const WeenieTraits* player) noexcept;
  // ACCWeenieObject::InqShowableOnRadar 0x0058C250: radar behaviour 2, 3 or 4.
  [[nodiscard]] static bool inq_showable_on_radar(const PhysicsObj& object) noexcept;

  // gmRadarUI::UseTime 0x004D98A0's range: CPlayerSystem::GetRadarRadius
  // 0x0055D880, 75 m outside and 25 m indoors.
  [[nodiscard]] static float get_radar_radius(const SmartBox& box) noexcept;
  // gmRadarUI::DrawObjects 0x004D9380 over every object gmRadarUI::AddObject
  // 0x004D9A00 would hold (the player's weenie excluded, showable, a shape),
  // in the object table's order; `selected` is ACCWeenieObject::selectedID.
  [[nodiscard]] static std::vector<RadarBlip> draw_objects(const SmartBox& box, std::uint32_t selected);
  // The pixels gmRadarUI::DrawBlip 0x004D8A30 fills for a blip (DrawPoint,
  // DrawHollow, DrawCross, DrawX, DrawXBox, DrawTriangle,
  // DrawInvertedTriangle, then DrawSelected's frame), each once.
  [[nodiscard]] static std::vector<std::pair<int, int>> blip_pixels(const RadarBlip& blip);

  // CPlayerSystem::InqPlayerCoords 0x00560090: the player's cell as map
  // coordinates (x east, y north); none indoors or without a player.
  [[nodiscard]] static std::optional<std::pair<double, double>> inq_player_coords(const SmartBox& box) noexcept;
  // gmRadarUI::UpdateCoordinates 0x004D8C80's combined line: "42.1N,33.6E"
  // (a zero coordinate has no letter).
  [[nodiscard]] static std::string coordinates_text(double x, double y);
};

}  // namespace dereth::sim
