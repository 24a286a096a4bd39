// The turning model on the character list and the creation screen, looked
// at as pictures: the window (SDL's offscreen driver) over the demo's portal
// DAT draws the CharGen sex's Setup with its ObjDesc on the right, the text
// panels on the left, and its screenshot holds both. Set
// DERETH_TEST_PICTURES to a folder to keep the pictures.
#include "dereth/app/character_preview.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include <SDL.h>

#include "dereth/app/character_creator.hpp"
#include "dereth/app/character_picker.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/render/image.hpp"
#include "dereth/snapshot/render_snapshot.hpp"

#include "support/temp_dir.hpp"

namespace {

namespace app = dereth::app;
using dereth::render::Image;

struct Demo {
  dereth::dat::DatFile portal;
  dereth::chargen::CharGenData data;
};

const Demo& demo() {
  static const Demo d = [] {
    auto world = dereth::demo::build_demo_world();
    REQUIRE(world);
    auto portal = dereth::dat::DatFile::from_bytes(world->portal, "client_portal.dat");
    REQUIRE(portal);
    dereth::dat::RecordCache records(&*portal);
    auto data = dereth::chargen::load_char_gen_data(records);
    REQUIRE(data);
    return Demo{std::move(*portal), std::move(*data)};
  }();
  return d;
}

bool near(const std::array<std::uint8_t, 4>& p, int r, int g, int b, int tolerance) {
  return std::abs(p[0] - r) <= tolerance && std::abs(p[1] - g) <= tolerance && std::abs(p[2] - b) <= tolerance;
}

// The demo's CharGen with choices that show: the eyes swap the head's one
// texture for the face with hair (their bald variant: the face without) for
// the male, and here for bark for the female; the nose and mouth changes are
// cleared (the demo's name textures the head does not draw).
const dereth::chargen::CharGenData& preview_data() {
  static const dereth::chargen::CharGenData data = [] {
    auto d = demo().data;
    REQUIRE_FALSE(d.char_gen.heritage_groups.empty());
    auto& sexes = d.char_gen.heritage_groups[0].genders;
    REQUIRE(sexes.size() >= 2);
    for (auto& sex : sexes) {
      for (auto& n : sex.nose_strips) n.obj_desc.texture_changes.clear();
      for (auto& m : sex.mouth_strips) m.obj_desc.texture_changes.clear();
    }
    REQUIRE_FALSE(sexes[1].eye_strips.empty());
    REQUIRE_FALSE(sexes[1].eye_strips[0].obj_desc.texture_changes.empty());
    sexes[1].eye_strips[0].obj_desc.texture_changes[0].new_texture = 0x05000004;
    return d;
  }();
  return data;
}

// Pixels of the region [x0, x1) x [y0, y1) (fractions of the picture) that
// are not the backdrop.
std::size_t model_pixels(const Image& img, float x0, float x1, float y0, float y1) {
  std::size_t n = 0;
  for (int y = static_cast<int>(y0 * static_cast<float>(img.height));
       y < static_cast<int>(y1 * static_cast<float>(img.height)); ++y) {
    for (int x = static_cast<int>(x0 * static_cast<float>(img.width));
         x < static_cast<int>(x1 * static_cast<float>(img.width)); ++x) {
      if (!near(img.at(x, y), 26, 31, 41, 12)) ++n;
    }
  }
  return n;
}

// Pixels differing (any channel by more than 8) between two pictures in the
// right half.
std::size_t changed_pixels(const Image& a, const Image& b) {
  REQUIRE(a.width == b.width);
  REQUIRE(a.height == b.height);
  std::size_t n = 0;
  for (int y = 0; y < a.height; ++y) {
    for (int x = a.width / 2; x < a.width; ++x) {
      const auto p = a.at(x, y);
      const auto q = b.at(x, y);
      for (int c = 0; c < 3; ++c) {
        if (std::abs(p[static_cast<std::size_t>(c)] - q[static_cast<std::size_t>(c)]) > 8) {
          ++n;
          break;
        }
      }
    }
  }
  return n;
}

// Pixels of text colour `(r, g, b)` in the left half.
std::size_t text_pixels(const Image& img, int r, int g, int b) {
  std::size_t n = 0;
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width / 2; ++x) {
      if (near(img.at(x, y), r, g, b, 10)) ++n;
    }
  }
  return n;
}

}  // namespace

TEST_CASE("The preview model: the builder's Setup and ObjDesc, turning, framed on the right", "[app][preview]") {
  const auto& d = demo();
  dereth::chargen::CharacterBuilder builder(d.data);
  const auto model = app::preview_model(builder);
  CHECK(model.setup == builder.preview_setup());
  CHECK(model == app::default_preview_model(d.data));
  app::CharacterPreview preview(d.portal);
  const auto& a = preview.snapshot(model, 0.0);
  REQUIRE(a.objects.size() == 1);
  const auto& o = a.objects[0];
  CHECK(o.setup_id == model.setup);
  REQUIRE_FALSE(o.parts.empty());
  // Every part change and texture change of the ObjDesc reaches its part.
  for (const auto& c : model.desc.part_changes) CHECK(o.parts.at(c.part).gfx_obj == c.gfx_obj);
  std::size_t changes = 0;
  for (const auto& p : o.parts) changes += p.texture_changes.size();
  CHECK(changes == model.desc.texture_changes.size());
  CHECK_FALSE(model.desc.texture_changes.empty());
  // Face on at 0 s; a quarter turn two seconds later; whole again at 8 s.
  const glm::vec3 forward0 = o.root.forward();
  CHECK(forward0.y == Approx(-1.0F).margin(1e-4));
  const glm::vec3 forward2 = preview.snapshot(model, 2.0).objects[0].root.forward();
  CHECK(std::abs(glm::dot(forward0, forward2)) < 1e-3F);
  CHECK(preview.snapshot(model, app::kPreviewTurnSeconds).objects[0].root.forward().y == Approx(-1.0F).margin(1e-4));
  // The camera puts the model right of centre, its feet and head inside the picture.
  const auto cam = preview.camera(model, 800, 600);
  const auto feet = cam.project(glm::vec3(0.0F), 800, 600);
  const auto head = cam.project(glm::vec3(0.0F, 0.0F, 1.8F), 800, 600);
  REQUIRE(feet);
  REQUIRE(head);
  CHECK(feet->x > 500.0F);
  CHECK(feet->x < 760.0F);
  CHECK(feet->y < 600.0F);
  CHECK(head->y > 0.0F);
}

TEST_CASE("The list and the creation screen as pictures: the turning model and the text",
          "[app][window][preview][characters][create]") {
  ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  app::WindowOptions o;
  o.width = 1280;  // the window's default size
  o.height = 720;
  o.vsync = false;
  o.hud = false;
  auto window = app::WindowPresenter::create(&demo().portal, nullptr, o);
  ::unsetenv("SDL_VIDEODRIVER");
  if (!window) {
    WARN("no offscreen window here: " << window.error().message());
    return;
  }
  auto& w = **window;
  const dereth::test::TempDir tmp("character-preview");
  const char* keep = std::getenv("DERETH_TEST_PICTURES");
  const std::filesystem::path dir = keep != nullptr && *keep != '\0' ? std::filesystem::path(keep) : tmp.path();
  static const dereth::sim::RenderSnapshot empty;
  const auto picture = [&](const std::string& name, double seconds) {
    w.set_preview_time(seconds);
    REQUIRE(w.present(empty, app::FrameInfo{}).has_value());
    const auto path = dir / (name + ".png");
    REQUIRE(w.screenshot(path).has_value());
    auto img = dereth::render::read_png(path);
    REQUIRE(img);
    REQUIRE(img->width == 1280);
    REQUIRE(img->height == 720);
    return std::move(*img);
  };

  dereth::protocol::CharacterList list;
  list.characters = {{0x50000001, "Aerin", 0}};
  list.max_slots = 3;
  app::CharacterPicker picker(list);
  w.show_characters(&picker);
  const Image list_a = picture("character_list", 0.5);
  const Image list_b = picture("character_list_turned", 1.5);
  // The model stands in the right half, on the backdrop, and turns.
  CHECK(model_pixels(list_a, 0.55F, 1.0F, 0.0F, 1.0F) > 2000);
  CHECK(changed_pixels(list_a, list_b) > 300);
  // The text is in the picture: the selected character's line in yellow, left.
  CHECK(text_pixels(list_a, 255, 230, 90) > 100);
  CHECK(model_pixels(list_a, 0.0F, 0.5F, 0.0F, 1.0F) > 2000);  // the panel's box and text

  app::CharacterCreator creator(preview_data());
  w.show_creator(&creator);
  const Image create_a = picture("character_create", 0.5);
  CHECK(model_pixels(create_a, 0.55F, 1.0F, 0.0F, 1.0F) > 2000);
  CHECK(text_pixels(create_a, 255, 230, 90) > 50);   // the selected row
  CHECK(text_pixels(create_a, 255, 255, 255) > 50);  // the title
  // The same pose with another hair style (the bald one takes the eye
  // strip's bald texture): the picture changes.
  auto look = creator.builder().appearance();
  look.hair_style = 1;
  creator.builder().set_appearance(look);
  const Image create_bald = picture("character_create_bald", 0.5);
  CHECK(changed_pixels(create_a, create_bald) > 20);
  // The same screen at the same pose draws the same picture.
  look.hair_style = 0;
  creator.builder().set_appearance(look);
  const Image create_again = picture("character_create_again", 0.5);
  CHECK(changed_pixels(create_a, create_again) == 0);
  // The darkest skin: the face and the arms change colour (a skin palette).
  look.skin_shade = 1.0;
  creator.builder().set_appearance(look);
  const Image create_dark = picture("character_create_dark_skin", 0.5);
  CHECK(changed_pixels(create_a, create_dark) > 300);
  look.skin_shade = 0.0;
  creator.builder().set_appearance(look);
  // The other sex: its own eye strip's texture.
  REQUIRE(creator.builder().set_gender(2));
  const Image create_female = picture("character_create_female", 0.5);
  CHECK(changed_pixels(create_a, create_female) > 20);
  w.show_creator(nullptr);
  w.show_characters(nullptr);
}
