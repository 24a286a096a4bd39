#pragma once
// What the overlay layout tests look for in a layout's triangles.

#include "dereth/render/overlay.hpp"

namespace dereth::test {

// Whether some triangle of `layout` has a vertex of `color` inside `r`.
inline bool has_colour_in(const render::OverlayLayout& layout, render::Rgba8 color, const render::Rect& r) {
  for (const render::OverlayVertex& v : layout.vertices) {
    if (v.color == color && r.contains(v.x, v.y)) return true;
  }
  return false;
}

}  // namespace dereth::test
