#pragma once
// Where and in what order parts are drawn, without GL (testable anywhere):
// retail's per-part viewer distance and heading, the degrade level and its draw
// mode, the draw frame a mode gives (billboards), the alpha-delay class of a
// surface (D3DPolyRender's clip and alpha lists) and the back-to-front order of
// a cell's parts (CShadowPart::insertion_sort). docs/render.md "Draw order".

#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>

#include "dereth/core/frame.hpp"
#include "dereth/dat/gfx_obj_degrade_info.hpp"

namespace dereth::render {

// CPhysicsPart's CYpt and viewer_heading.
struct ViewerDistance {
  float distance = 0.0F;                // CYpt: metres from the viewer to the part's sort centre
  glm::vec3 heading{0.0F, 0.0F, 1.0F};  // unit vector from the viewer towards it (up when too close)
  bool operator==(const ViewerDistance&) const = default;
};

// CPhysicsPart::UpdateViewerDistance 0x0050E030, the distance half: the
// GfxObj's sort centre scaled by the part's scale and placed by the part's
// frame (Position::get_offset 0x0050D920), its offset from the viewer, the
// length of that (CYpt) and its direction; at 0.0002 m or closer the heading
// is +Z.
[[nodiscard]] ViewerDistance viewer_distance(const glm::vec3& viewer, const core::Frame& part_frame,
                                             const glm::vec3& sort_center, const glm::vec3& scale) noexcept;

// Render::deg_mul (adapted to the frame rate by Render::CalcDegLevel within
// [-1, 1]; 1 is the most detail) and Render::s_rDegradeDistance (50 m).
struct DegradeSettings {
  float deg_mul = 1.0F;
  float degrade_distance = 50.0F;
};

struct DegradeLevel {
  std::uint32_t index = 0;
  std::uint32_t mode = 1;
  bool operator==(const DegradeLevel&) const = default;
};

// GfxObjDegradeInfo::get_degrade 0x0051E4B0 (Render::force_level -1, degrades
// enabled): distance = max(|distance| - degrade_distance, 0); with deg_mul >=
// 0 the first level whose ideal + (max - ideal) * deg_mul exceeds it, with
// deg_mul < 0 the first whose ideal + (ideal - min) * deg_mul does; past the
// last, the last. No levels: level 0, mode 1 (as a part without degrade info).
[[nodiscard]] DegradeLevel get_degrade(const dat::GfxObjDegradeInfo& info, float distance,
                                       const DegradeSettings& settings = {}) noexcept;

// Frame::rotate_around_axis_to_vector 0x00535A40: turn the frame about its
// local axis `axis` (0 X, 1 Y, 2 Z) so that the next axis round (Z for X, X
// for Y, Y for Z) points along dir's part perpendicular to it.
void rotate_around_axis_to_vector(core::Frame& frame, int axis, const glm::vec3& dir) noexcept;

// CPhysicsPart::calc_draw_frame 0x0050DFA0: the frame a part is drawn at:
// its own for mode 1 (and unknown modes), set_vector_heading(heading) for 2
// (local +Y away from the viewer: a billboard), rotate_around_axis_to_vector
// about local X, Y or Z for 3, 4, 5.
[[nodiscard]] core::Frame calc_draw_frame(const core::Frame& frame, std::uint32_t mode,
                                          const glm::vec3& heading) noexcept;

// Which list a surface's draw goes to (D3DPolyRender's mesh build marks each
// surface: Alpha / InvAlpha / Additive 2, else ClipMap 8, else Translucent 4,
// else 0; RenderD3D.AlphaDelayMask 14 delays all three, and a part whose
// material has alpha goes to the alpha list too).
enum class AlphaClass : std::uint8_t { Opaque, Clip, Alpha };
[[nodiscard]] AlphaClass alpha_class(std::uint32_t surface_type, bool material_has_alpha) noexcept;

// CShadowPart::insertion_sort 0x006B5130: the order (indices into
// `distances`) a cell's parts are drawn in: farthest first; equal distances
// keep their order.
[[nodiscard]] std::vector<std::size_t> back_to_front(std::span<const float> distances);

}  // namespace dereth::render
