#pragma once
// RGBA8 images: what the renderer reads back, what textures decode to, and
// what screenshots and golden-image tests write and compare.

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "dereth/core/error.hpp"

namespace dereth::render {

// width*height pixels, 4 bytes each (R, G, B, A), row-major, top row first.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;

  Image() = default;
  // A width x height image filled with one colour.
  Image(int w, int h, std::array<std::uint8_t, 4> fill = {0, 0, 0, 0});

  [[nodiscard]] bool empty() const noexcept { return width <= 0 || height <= 0; }
  [[nodiscard]] std::size_t byte_size() const noexcept;
  // The pixel at (x, y), x right, y down from the top row. Out of range: {0,0,0,0}.
  [[nodiscard]] std::array<std::uint8_t, 4> at(int x, int y) const noexcept;
  void set(int x, int y, std::array<std::uint8_t, 4> rgba) noexcept;
  bool operator==(const Image&) const = default;
};

// Reverses the row order in place (GL reads bottom row first).
void flip_rows(Image& image) noexcept;

// Encodes a PNG (stb_image_write) and writes it atomically: a temporary file
// beside `path`, then a rename, so a reader never sees half a screenshot.
[[nodiscard]] core::Result<void> write_png(const std::filesystem::path& path, const Image& image);
// PNG bytes in memory.
[[nodiscard]] core::Result<std::vector<std::uint8_t>> encode_png(const Image& image);
// Reads any PNG (converted to RGBA8) for golden-image tests.
[[nodiscard]] core::Result<Image> read_png(const std::filesystem::path& path);

struct ImageDiff {
  bool same_size = false;
  std::size_t differing_pixels = 0;  // pixels with any channel differing by more than the tolerance
  double differing_fraction = 1.0;   // differing_pixels / pixel count (1 when the sizes differ)
  int max_channel_delta = 255;       // the largest |a - b| over every channel of every pixel
};

// Compares two images channel by channel. A pixel differs when any of its four
// channels differs by more than `tolerance` (0..255). Images of different sizes
// compare as entirely different.
[[nodiscard]] ImageDiff compare_images(const Image& a, const Image& b, int tolerance);

}  // namespace dereth::render
