#include "dereth/render/image.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/temp_dir.hpp"

using dereth::render::compare_images;
using dereth::render::flip_rows;
using dereth::render::Image;

namespace {

Image gradient(int w, int h) {
  Image img(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      img.set(x, y,
              {static_cast<std::uint8_t>(x * 40), static_cast<std::uint8_t>(y * 30), static_cast<std::uint8_t>(x + y),
               static_cast<std::uint8_t>(255 - x)});
    }
  }
  return img;
}

}  // namespace

TEST_CASE("Image: fill, at and set address pixels top row first", "[render][image]") {
  Image img(3, 2, {1, 2, 3, 4});
  REQUIRE(img.pixels.size() == 3 * 2 * 4);
  CHECK(img.at(2, 1) == std::array<std::uint8_t, 4>{1, 2, 3, 4});
  img.set(2, 1, {9, 8, 7, 6});
  CHECK(img.pixels[(1 * 3 + 2) * 4] == 9);
  CHECK(img.at(2, 1) == std::array<std::uint8_t, 4>{9, 8, 7, 6});
  CHECK(img.at(3, 0) == std::array<std::uint8_t, 4>{0, 0, 0, 0});  // out of range reads zero
  CHECK(img.at(-1, 0) == std::array<std::uint8_t, 4>{0, 0, 0, 0});
  CHECK(Image(0, 5).empty());
  CHECK(Image(-2, 5).pixels.empty());
}

TEST_CASE("flip_rows reverses the row order (GL reads bottom row first)", "[render][image]") {
  Image img = gradient(4, 3);
  const Image original = img;
  flip_rows(img);
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) CHECK(img.at(x, y) == original.at(x, 2 - y));
  }
  flip_rows(img);
  CHECK(img == original);
}

TEST_CASE("write_png then read_png gives the same pixels and leaves no temporary file", "[render][image]") {
  const dereth::test::TempDir tmp("render-image-roundtrip");
  const auto& dir = tmp.path();
  const Image img = gradient(5, 4);
  const auto path = dir / "shot.png";
  REQUIRE(dereth::render::write_png(path, img).has_value());
  auto back = dereth::render::read_png(path);
  REQUIRE(back.has_value());
  CHECK(*back == img);
  // Atomic write: only the final file is left in the folder.
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    (void)entry;
    ++files;
  }
  CHECK(files == 1);
  // Overwriting replaces the file whole.
  const Image other(2, 2, {10, 20, 30, 255});
  REQUIRE(dereth::render::write_png(path, other).has_value());
  CHECK(*dereth::render::read_png(path) == other);
}

TEST_CASE("PNG errors: an empty image, a missing file and a file that is not a PNG", "[render][image]") {
  const dereth::test::TempDir tmp("render-image-errors");
  const auto& dir = tmp.path();
  CHECK_FALSE(dereth::render::encode_png(Image{}).has_value());
  CHECK_FALSE(dereth::render::write_png(dir / "empty.png", Image{}).has_value());
  CHECK_FALSE(std::filesystem::exists(dir / "empty.png"));
  auto missing = dereth::render::read_png(dir / "missing.png");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().kind == dereth::core::ErrorKind::Io);
  {
    std::ofstream out(dir / "junk.png", std::ios::binary);
    out << "not a png at all";
  }
  auto junk = dereth::render::read_png(dir / "junk.png");
  REQUIRE_FALSE(junk.has_value());
  CHECK(junk.error().kind == dereth::core::ErrorKind::Invalid);
}

TEST_CASE("compare_images counts pixels beyond the tolerance and the largest channel delta", "[render][image]") {
  const Image a = gradient(4, 4);
  Image b = a;
  auto same = compare_images(a, b, 0);
  CHECK(same.same_size);
  CHECK(same.differing_pixels == 0);
  CHECK(same.differing_fraction == 0.0);
  CHECK(same.max_channel_delta == 0);

  auto px = b.at(1, 2);
  px[1] = static_cast<std::uint8_t>(px[1] + 10);
  b.set(1, 2, px);
  auto px2 = b.at(3, 3);
  px2[3] = static_cast<std::uint8_t>(px2[3] - 3);
  b.set(3, 3, px2);

  auto strict = compare_images(a, b, 2);
  CHECK(strict.differing_pixels == 2);
  CHECK(strict.differing_fraction == Approx(2.0 / 16.0));
  CHECK(strict.max_channel_delta == 10);

  auto loose = compare_images(a, b, 5);
  CHECK(loose.differing_pixels == 1);
  CHECK(loose.max_channel_delta == 10);

  auto all = compare_images(a, b, 10);
  CHECK(all.differing_pixels == 0);
  CHECK(all.max_channel_delta == 10);

  auto sized = compare_images(a, gradient(4, 5), 255);
  CHECK_FALSE(sized.same_size);
  CHECK(sized.differing_fraction == 1.0);
}
