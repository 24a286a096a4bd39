// Golden images of the embedded demo: the demo rendered headless on Mesa's
// software OpenGL at fixed ticks, compared with the PNGs in tests/golden
// within a tolerance. `--update-golden` rewrites them (after a deliberate
// change to what the demo shows; review the new pictures before committing).
//
// Exit status: 0 when every frame matches (or was rewritten), 1 when one
// differs (the actual frames are written to --out for inspection), 2 for bad
// arguments, 77 (ctest: skipped) when this machine has no headless OpenGL and
// DERETH_REQUIRE_GL is not 1.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "dereth/app/demo.hpp"
#include "dereth/render/image.hpp"

namespace fs = std::filesystem;
using namespace dereth;

namespace {

constexpr int kWidth = 320;
constexpr int kHeight = 180;
// World entry; the first projectile in flight (trail); the recall under way
// with its emitter and a later projectile.
constexpr std::uint64_t kTicks[] = {12, 48, 240};
// llvmpipe is deterministic on one machine; the tolerance absorbs rounding
// differences between Mesa builds: a pixel differs when a channel moves by
// more than 24, and at most 0.5% of the pixels may differ.
constexpr int kChannelTolerance = 24;
constexpr double kMaxDifferingFraction = 0.005;

void usage() {
  std::puts(
      "usage: dereth_golden [--update-golden] [--golden-dir DIR] [--out DIR]\n"
      "Renders the embedded demo headless at ticks 12, 48 and 240 (320x180) and compares each frame with\n"
      "DIR/demo_tick_NNNN.png. --update-golden writes the frames there instead. --out DIR receives the\n"
      "actual frames of a failed comparison.");
}

}  // namespace

int main(int argc, char** argv) {
  bool update = false;
  fs::path golden_dir = DERETH_GOLDEN_DIR;
  fs::path out_dir;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--update-golden") {
      update = true;
    } else if (a == "--golden-dir" && i + 1 < argc) {
      golden_dir = argv[++i];
    } else if (a == "--out" && i + 1 < argc) {
      out_dir = argv[++i];
    } else if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else {
      std::fprintf(stderr, "dereth_golden: unknown argument %s\n", argv[i]);
      usage();
      return 2;
    }
  }
  app::HeadlessDemoOptions options;
  options.width = kWidth;
  options.height = kHeight;
  auto demo = app::HeadlessDemo::create(options);
  if (!demo) {
    const char* require = std::getenv("DERETH_REQUIRE_GL");
    std::fprintf(stderr, "dereth_golden: no headless demo here: %s\n", demo.error().message().c_str());
    return require != nullptr && std::string_view(require) == "1" ? 1 : 77;
  }
  int failures = 0;
  for (const std::uint64_t tick : kTicks) {
    if (auto ran = (*demo)->run_to_tick(tick); !ran) {
      std::fprintf(stderr, "dereth_golden: tick %llu: %s\n", static_cast<unsigned long long>(tick),
                   ran.error().message().c_str());
      return 1;
    }
    const render::Image actual = (*demo)->picture();
    const fs::path golden = golden_dir / fmt::format("demo_tick_{:04}.png", tick);
    if (update) {
      if (auto written = render::write_png(golden, actual); !written) {
        std::fprintf(stderr, "dereth_golden: %s\n", written.error().message().c_str());
        return 1;
      }
      std::printf("wrote %s\n", golden.string().c_str());
      continue;
    }
    auto expected = render::read_png(golden);
    if (!expected) {
      std::fprintf(stderr, "dereth_golden: %s (run with --update-golden to create it)\n",
                   expected.error().message().c_str());
      ++failures;
      continue;
    }
    const render::ImageDiff diff = render::compare_images(actual, *expected, kChannelTolerance);
    const bool ok = diff.same_size && diff.differing_fraction <= kMaxDifferingFraction;
    std::printf("tick %4llu: %s (%zu pixels differ by more than %d, %.3f%%; largest channel delta %d)\n",
                static_cast<unsigned long long>(tick), ok ? "matches" : "DIFFERS", diff.differing_pixels,
                kChannelTolerance, diff.differing_fraction * 100.0, diff.max_channel_delta);
    if (!ok) {
      ++failures;
      if (!out_dir.empty()) {
        std::error_code ec;
        fs::create_directories(out_dir, ec);
        const fs::path path = out_dir / golden.filename();
        if (render::write_png(path, actual)) std::printf("  actual frame: %s\n", path.string().c_str());
      }
    }
  }
  return failures == 0 ? 0 : 1;
}
