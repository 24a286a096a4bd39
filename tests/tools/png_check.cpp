// png_check FILE WIDTH HEIGHT MIN_COLOURS: exit 0 when FILE is a PNG of that
// size with at least MIN_COLOURS distinct RGB colours (not a blank frame),
// else 1 with one line saying why. For the README pictures' test.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>

#include "dereth/render/image.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: png_check FILE WIDTH HEIGHT MIN_COLOURS\n");
    return 2;
  }
  const std::string path = argv[1];
  const int width = std::atoi(argv[2]);
  const int height = std::atoi(argv[3]);
  const std::size_t min_colours = static_cast<std::size_t>(std::atoll(argv[4]));
  auto image = dereth::render::read_png(path);
  if (!image) {
    std::fprintf(stderr, "png_check: %s: %s\n", path.c_str(), image.error().message().c_str());
    return 1;
  }
  if (image->width != width || image->height != height) {
    std::fprintf(stderr, "png_check: %s is %dx%d, not %dx%d\n", path.c_str(), image->width, image->height, width,
                 height);
    return 1;
  }
  std::unordered_set<std::uint32_t> colours;
  const auto& px = image->pixels;
  for (std::size_t i = 0; i + 3 < px.size(); i += 4) {
    colours.insert(static_cast<std::uint32_t>(px[i]) << 16U | static_cast<std::uint32_t>(px[i + 1]) << 8U | px[i + 2]);
  }
  std::printf("png_check: %s: %dx%d, %zu colours\n", path.c_str(), width, height, colours.size());
  if (colours.size() < min_colours) {
    std::fprintf(stderr, "png_check: %s has %zu colours, fewer than %zu (a blank frame?)\n", path.c_str(),
                 colours.size(), min_colours);
    return 1;
  }
  return 0;
}
