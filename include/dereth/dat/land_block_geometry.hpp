#pragma once
// CLandBlockStruct::ConstructVertices and ConstructPolygons, ported once: the
// terrain collision walks on (sim::LandBlockStruct, full detail) and the
// terrain the renderer draws (render::LandBlockStruct, every detail) are
// built by these two functions over a landblock record and the Region's
// height table.
#include <cstddef>
#include <cstdint>
#include <span>

#include <glm/vec3.hpp>

#include "dereth/dat/land_block.hpp"
#include "dereth/dat/region.hpp"

namespace dereth::dat {

// CLandBlockStruct::ConstructVertices 0x005328D0 at n = side_cell_count (8,
// 4, 2 or 1) cells a side: vertex (x, y), index x * (n + 1) + y, at
// (x * p, y * p, land_height(height[(x*s)*9 + y*s])) block-local, with
// p = 192 / n and s = 8 / n: a coarse block samples every s-th height.
// `out` holds (n + 1)^2 vertices.
inline void construct_land_vertices(const LandBlock& block, const LandDefs& defs, std::size_t side_cell_count,
                                    std::span<glm::vec3> out) noexcept {
  const std::size_t side = side_cell_count + 1;
  const std::size_t step = kLandBlockCellSide / side_cell_count;
  const float poly_size = 192.0F / static_cast<float>(side_cell_count);
  for (std::size_t ix = 0; ix < side; ++ix) {
    for (std::size_t iy = 0; iy < side; ++iy) {
      out[ix * side + iy] = glm::vec3(static_cast<float>(ix) * poly_size, static_cast<float>(iy) * poly_size,
                                      land_height(defs, block.height[land_block_vertex(ix * step, iy * step)]));
    }
  }
}

// CLandBlockStruct::ConstructPolygons 0x00531D10 at n = side_cell_count cells
// a side: cell (x, y), index x * n + y, x outer, is cut along
// land_cell_split_sw_ne of (block x * 8 + x, block y * 8 + y) (a coarse cell
// takes the cut of the full-detail cell with its index, as retail does; the
// block's x and y come from the id's top two bytes) into two triangles of
// vertex indices into the (n + 1)-wide grid, in the order retail hands them
// to AddPolygon, SW = (x, y), SE = (x+1, y), NW = (x, y+1), NE = (x+1, y+1):
//   SW->NE cut: (SW, SE, NE), (SW, NE, NW);  NW->SE cut: (SW, SE, NW), (NE, NW, SE).
// `add(cell, cut, first, second)` is called for each cell.
template <class Add>
void construct_land_polygons(std::uint32_t block_id, std::size_t side_cell_count, Add&& add) {
  const std::uint32_t block_x = (block_id >> 21) & 0x7F8U;
  const std::uint32_t block_y = 8U * ((block_id >> 16) & 0xFFU);
  const std::size_t n = side_cell_count + 1;
  for (std::size_t i = 0; i < side_cell_count; ++i) {
    for (std::size_t j = 0; j < side_cell_count; ++j) {
      const bool cut =
          land_cell_split_sw_ne(block_x + static_cast<std::uint32_t>(i), block_y + static_cast<std::uint32_t>(j));
      const auto sw = static_cast<std::uint16_t>(i * n + j);
      const auto se = static_cast<std::uint16_t>((i + 1) * n + j);
      const auto nw = static_cast<std::uint16_t>(i * n + j + 1);
      const auto ne = static_cast<std::uint16_t>((i + 1) * n + j + 1);
      if (cut) {
        add(i * side_cell_count + j, cut, LandTriangle{sw, se, ne}, LandTriangle{sw, ne, nw});
      } else {
        add(i * side_cell_count + j, cut, LandTriangle{sw, se, nw}, LandTriangle{ne, nw, se});
      }
    }
  }
}

}  // namespace dereth::dat
