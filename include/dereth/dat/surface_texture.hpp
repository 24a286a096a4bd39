#pragma once
// SurfaceTexture (ImgTex, 0x05xxxxxx, a categorized type), spec/dat-format.md
// 3.7 (ImgTex::Serialize, RE:src/PORTAL/image/ImgTex.c): u32 DID, u32
// dataCategory, u8 textureType (retail writes 2 = Texture2D), i32 count,
// count x u32 RenderSurface DID. No padding after the byte. Multiple entries
// are alternative resolutions; viewers use entry 0.

#include <cstdint>
#include <span>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct SurfaceTexture {
  Did id = 0;
  std::uint32_t data_category = 0;
  std::uint8_t texture_type = 2;
  std::vector<Did> render_surfaces;  // 0x06xxxxxx
  bool operator==(const SurfaceTexture&) const = default;
};

Result<SurfaceTexture> read_surface_texture(std::span<const std::uint8_t> bytes, Did id);
std::vector<std::uint8_t> write_surface_texture(const SurfaceTexture& texture);
void write_json(core::JsonWriter& j, const SurfaceTexture& texture);

}  // namespace dereth::dat
