#include "dereth/render/image.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "dereth/core/file.hpp"

// stb is compiled here, privately: its symbols stay static to this file.
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wuseless-cast"
#pragma GCC diagnostic ignored "-Wduplicated-branches"
#pragma GCC diagnostic ignored "-Wdouble-promotion"
#pragma GCC diagnostic ignored "-Wcast-qual"
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
#define STB_IMAGE_STATIC
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_NO_STDIO
#include <stb_image.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace dereth::render {

namespace {

core::Error image_error(core::ErrorKind kind, const std::filesystem::path& path, std::string field,
                        std::string detail) {
  return core::Error{kind, path.string(), std::move(field), 0, std::move(detail)};
}

void append_bytes(void* context, void* data, int size) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(context);
  const auto* bytes = static_cast<const std::uint8_t*>(data);
  out->insert(out->end(), bytes, bytes + size);
}

}  // namespace

Image::Image(int w, int h, std::array<std::uint8_t, 4> fill) : width(w), height(h) {
  if (w <= 0 || h <= 0) {
    width = 0;
    height = 0;
    return;
  }
  pixels.resize(byte_size());
  if (fill == std::array<std::uint8_t, 4>{0, 0, 0, 0}) return;
  // One row by hand, then whole rows by memcpy (fast in debug builds too).
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  for (std::size_t i = 0; i < row; i += 4) std::memcpy(pixels.data() + i, fill.data(), 4);
  for (std::size_t y = 1; y < static_cast<std::size_t>(height); ++y)
    std::memcpy(pixels.data() + y * row, pixels.data(), row);
}

std::size_t Image::byte_size() const noexcept {
  if (empty()) return 0;
  return static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
}

std::array<std::uint8_t, 4> Image::at(int x, int y) const noexcept {
  if (x < 0 || y < 0 || x >= width || y >= height || pixels.size() < byte_size()) return {0, 0, 0, 0};
  const std::size_t i =
      (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
  return {pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]};
}

void Image::set(int x, int y, std::array<std::uint8_t, 4> rgba) noexcept {
  if (x < 0 || y < 0 || x >= width || y >= height || pixels.size() < byte_size()) return;
  const std::size_t i =
      (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)) * 4;
  std::copy(rgba.begin(), rgba.end(), pixels.begin() + static_cast<std::ptrdiff_t>(i));
}

void flip_rows(Image& image) noexcept {
  if (image.empty() || image.pixels.size() < image.byte_size()) return;
  const std::size_t row = static_cast<std::size_t>(image.width) * 4;
  std::vector<std::uint8_t> scratch(row);
  std::uint8_t* data = image.pixels.data();
  for (std::size_t top = 0, bottom = static_cast<std::size_t>(image.height) - 1; top < bottom; ++top, --bottom) {
    std::memcpy(scratch.data(), data + top * row, row);
    std::memcpy(data + top * row, data + bottom * row, row);
    std::memcpy(data + bottom * row, scratch.data(), row);
  }
}

core::Result<std::vector<std::uint8_t>> encode_png(const Image& image) {
  if (image.empty() || image.pixels.size() != image.byte_size()) {
    return std::unexpected(
        core::Error{core::ErrorKind::Invalid, "PNG", "image", 0, "empty image or pixel count not width*height*4"});
  }
  std::vector<std::uint8_t> out;
  const int ok =
      stbi_write_png_to_func(append_bytes, &out, image.width, image.height, 4, image.pixels.data(), image.width * 4);
  if (ok == 0 || out.empty()) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, "PNG", "encode", 0, "stb_image_write failed"});
  }
  return out;
}

core::Result<void> write_png(const std::filesystem::path& path, const Image& image) {
  DERETH_TRY(const auto bytes, encode_png(image));
  return core::write_file_atomic(path, bytes);
}

core::Result<Image> read_png(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(image_error(core::ErrorKind::Io, path, "open", "cannot open the file"));
  const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty() || bytes.size() > static_cast<std::size_t>(1) << 30) {
    return std::unexpected(image_error(core::ErrorKind::Invalid, path, "size", "empty or larger than 1 GiB"));
  }
  int w = 0;
  int h = 0;
  int channels = 0;
  stbi_uc* data = stbi_load_from_memory(bytes.data(), static_cast<int>(bytes.size()), &w, &h, &channels, 4);
  if (data == nullptr) {
    return std::unexpected(image_error(core::ErrorKind::Invalid, path, "decode", stbi_failure_reason()));
  }
  Image image;
  image.width = w;
  image.height = h;
  image.pixels.assign(data, data + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  stbi_image_free(data);
  return image;
}

ImageDiff compare_images(const Image& a, const Image& b, int tolerance) {
  ImageDiff diff;
  if (a.width != b.width || a.height != b.height || a.pixels.size() != a.byte_size() ||
      b.pixels.size() != b.byte_size()) {
    return diff;
  }
  diff.same_size = true;
  diff.max_channel_delta = 0;
  const std::size_t count = static_cast<std::size_t>(a.width) * static_cast<std::size_t>(a.height);
  for (std::size_t p = 0; p < count; ++p) {
    bool differs = false;
    for (std::size_t c = 0; c < 4; ++c) {
      const int delta = std::abs(static_cast<int>(a.pixels[p * 4 + c]) - static_cast<int>(b.pixels[p * 4 + c]));
      diff.max_channel_delta = std::max(diff.max_channel_delta, delta);
      differs = differs || delta > tolerance;
    }
    if (differs) ++diff.differing_pixels;
  }
  diff.differing_fraction = count == 0 ? 0.0 : static_cast<double>(diff.differing_pixels) / static_cast<double>(count);
  return diff;
}

}  // namespace dereth::render
