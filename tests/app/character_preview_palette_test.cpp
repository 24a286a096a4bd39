// The creation screen's preview in colour: the skin, hair and eye choices
// are palettes (gmCG3DView::Update 0x004EE9D0 builds the ObjDesc, the
// renderer composes it: Palette::makeModifiedPalette 0x0053E3C0), so a
// choice changes the colours drawn on the head and the arms. Drawn with the
// headless renderer from app::CharacterPreview's snapshot and camera, as the
// window draws it. Set DERETH_TEST_PICTURES to a folder to keep the pictures.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "dereth/app/character_preview.hpp"
#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/chargen/character_builder.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/render/headless_context.hpp"
#include "dereth/render/image.hpp"
#include "dereth/render/renderer.hpp"

using namespace dereth;
using render::Image;

namespace {

struct Demo {
  dat::DatFile portal;
  chargen::CharGenData data;
};

const Demo& demo_data() {
  static const Demo* d = [] {
    auto world = demo::build_demo_world();
    REQUIRE(world);
    auto portal = dat::DatFile::from_bytes(world->portal, "client_portal.dat");
    REQUIRE(portal);
    dat::RecordCache records(&*portal);
    auto data = chargen::load_char_gen_data(records);
    REQUIRE(data);
    return new Demo{std::move(*portal), std::move(*data)};
  }();
  return *d;
}

constexpr int kWidth = 320;
constexpr int kHeight = 240;

// The pixel a point of the model projects to.
std::array<std::uint8_t, 4> pixel(const Image& img, const render::Camera& cam, glm::vec3 p) {
  const auto at = cam.project(p, kWidth, kHeight);
  REQUIRE(at.has_value());
  return img.at(static_cast<int>(at->x), static_cast<int>(at->y));
}

// Pixels of the box around the head (its centre +- `half` pixels) differing by more than 8 in a channel.
std::size_t changed_near(const Image& a, const Image& b, const render::Camera& cam, glm::vec3 p, int half) {
  const auto at = cam.project(p, kWidth, kHeight);
  REQUIRE(at.has_value());
  std::size_t n = 0;
  for (int y = static_cast<int>(at->y) - half; y <= static_cast<int>(at->y) + half; ++y) {
    for (int x = static_cast<int>(at->x) - half; x <= static_cast<int>(at->x) + half; ++x) {
      if (x < 0 || y < 0 || x >= kWidth || y >= kHeight) continue;
      const auto p0 = a.at(x, y);
      const auto p1 = b.at(x, y);
      for (std::size_t c = 0; c < 3; ++c) {
        if (std::abs(int(p0[c]) - int(p1[c])) > 8) {
          ++n;
          break;
        }
      }
    }
  }
  return n;
}

}  // namespace

TEST_CASE("The preview draws the chosen skin and hair colours (gmCG3DView::Update 0x004EE9D0)",
          "[app][preview][palette][gl][retail]") {
  auto context = render::HeadlessContext::create();
  if (!context) {
    const char* required = std::getenv("DERETH_REQUIRE_GL");
    if (required != nullptr && std::string(required) == "1") FAIL(context.error().message());
    WARN("no headless OpenGL context: " << context.error().message());
    return;
  }
  REQUIRE(context->make_current());
  render::RendererOptions options;
  options.draw_terrain = false;
  options.draw_sky_objects = false;
  auto renderer = render::Renderer::create(render::HeadlessContext::loader(), &demo_data().portal, nullptr, options);
  REQUIRE(renderer.has_value());
  app::CharacterPreview preview(demo_data().portal);
  (*renderer)->set_region(preview.records().region(0x13000000));  // as the window hands it over
  chargen::CharacterBuilder builder(demo_data().data);
  const char* keep = std::getenv("DERETH_TEST_PICTURES");
  const auto draw = [&](const std::string& name, const app::PreviewModel& model) {
    const auto& snap = preview.snapshot(model, 0.0);  // face on
    REQUIRE((*renderer)->render(snap, preview.camera(model, kWidth, kHeight), kWidth, kHeight).has_value());
    Image img = (*renderer)->read_pixels();
    if (keep != nullptr && *keep != '\0')
      REQUIRE(render::write_png(std::filesystem::path(keep) / (name + ".png"), img));
    return img;
  };
  const auto look = [&](double skin, std::uint32_t hair_color) {
    auto a = builder.appearance();
    a.skin_shade = skin;
    a.hair_color = hair_color;
    builder.set_appearance(a);
    return app::preview_model(builder);
  };
  const app::PreviewModel pale_model = look(0.0, 0);
  const Image pale = draw("preview_skin_pale", pale_model);
  const Image dark = draw("preview_skin_dark", look(1.0, 0));
  const Image blond = draw("preview_hair_blond", look(0.0, 1));

  // Where the face and the right arm are (the Setup's placement, face on).
  const auto& snap = preview.snapshot(pale_model, 0.0);
  REQUIRE(snap.objects.size() == 1);
  REQUIRE(snap.objects[0].parts.size() == 6);
  CHECK(snap.objects[0].palette.base_palette == 0x04000010U);
  const glm::vec3 head = snap.objects[0].parts[1].frame.origin;
  const glm::vec3 cheek = head + glm::vec3(0.05F, -0.12F, 0.06F);  // the front face's lower half, beside the eyes
  const glm::vec3 arm = snap.objects[0].parts[3].frame.origin + glm::vec3(0.0F, -0.07F, -0.3F);
  const render::Camera cam = preview.camera(pale_model, kWidth, kHeight);
  for (const glm::vec3& p : {cheek, arm}) {
    const auto a = pixel(pale, cam, p);
    const auto b = pixel(dark, cam, p);
    INFO("pale skin " << int(a[0]) << " " << int(a[1]) << " " << int(a[2]) << ", dark " << int(b[0]) << " " << int(b[1])
                      << " " << int(b[2]));
    CHECK(a[0] > 150);
    CHECK(b[0] + 80 < a[0]);  // the dark skin palette's skin range
    CHECK(b[0] > b[2]);
  }
  // The hair colour changes the head's top and nothing on the arm.
  CHECK(changed_near(pale, blond, cam, head + glm::vec3(0.0F, 0.0F, 0.2F), 12) > 20);
  CHECK(changed_near(pale, blond, cam, arm, 6) == 0);
  CHECK(changed_near(pale, dark, cam, arm, 6) > 20);
}
