// What the README's first picture shows (docs/images/demo.png, written by
// scripts/readme-pictures.sh at the tick its `picture N demo.png` line
// names): the demo's first view with one bolt in flight and another
// exploding, both inside the demo camera's view, close enough to be seen,
// and each drawn where the camera puts it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "dereth/app/demo.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/image.hpp"

#include "demo_support.hpp"

using namespace dereth;

namespace {

// The picture's size (scripts/readme-pictures.sh passes --size 1280x720).
constexpr int kWidth = 1280;
constexpr int kHeight = 720;

// The tick scripts/readme-pictures.sh takes demo.png at.
std::optional<std::uint64_t> readme_tick() {
  std::ifstream in(std::string(DERETH_SOURCE_DIR) + "/scripts/readme-pictures.sh");
  static const std::regex line(R"(^picture ([0-9]+) demo\.png$)");
  std::smatch m;
  for (std::string text; std::getline(in, text);) {
    if (std::regex_match(text, m, line)) return std::stoull(m[1].str());
  }
  return std::nullopt;
}

bool is_projectile(const sim::ObjectSnapshot& o) {
  return std::any_of(demo::kProjectiles.begin(), demo::kProjectiles.end(),
                     [&](const demo::ProjectileKind& k) { return k.setup == o.setup_id; });
}

// The Explode scripts' emitters (the demo world's bursts, 0x32000020..23).
bool is_burst(const sim::EmitterSnapshot& e) {
  return e.emitter_info_id >= 0x32000020U && e.emitter_info_id <= 0x32000023U;
}

bool on_screen(const std::optional<glm::vec2>& p) {
  return p && p->x >= 0.0F && p->y >= 0.0F && p->x < static_cast<float>(kWidth) && p->y < static_cast<float>(kHeight);
}

// Pixels within `radius` of `centre` that differ by more than 8 in a channel.
std::size_t changed_near(const render::Image& a, const render::Image& b, glm::vec2 centre, int radius) {
  std::size_t n = 0;
  for (int y = static_cast<int>(centre.y) - radius; y <= static_cast<int>(centre.y) + radius; ++y) {
    for (int x = static_cast<int>(centre.x) - radius; x <= static_cast<int>(centre.x) + radius; ++x) {
      if (x < 0 || y < 0 || x >= kWidth || y >= kHeight) continue;
      const std::size_t i = (static_cast<std::size_t>(y) * kWidth + static_cast<std::size_t>(x)) * 4;
      for (std::size_t c = 0; c < 3; ++c) {
        if (std::abs(static_cast<int>(a.pixels[i + c]) - static_cast<int>(b.pixels[i + c])) > 8) {
          ++n;
          break;
        }
      }
    }
  }
  return n;
}

}  // namespace

TEST_CASE("The README's demo picture: a bolt in flight and one exploding, both in the demo camera's view",
          "[app][demo][gl][readme]") {
  const auto tick = readme_tick();
  REQUIRE(tick.has_value());
  app::HeadlessDemoOptions options;
  options.width = kWidth;
  options.height = kHeight;
  auto created = dereth::test::headless_demo_or_skip(options, "the README picture");
  if (!created) return;
  app::HeadlessDemo& demo = *created;
  REQUIRE(demo.run_to_tick(*tick).has_value());
  const sim::RenderSnapshot& snap = demo.snapshot();
  const render::Camera& camera = demo.presenter().rig().camera();  // the picture's camera

  // In flight: drawn (no NoDraw yet), with its trail. Exploding: the
  // server's impact made it NoDraw, and its Explode burst has particles.
  std::vector<const sim::ObjectSnapshot*> flying;
  std::vector<const sim::ObjectSnapshot*> exploding;
  for (const auto& o : snap.objects) {
    if (!is_projectile(o) || o.hidden) continue;
    const bool bursting = std::any_of(snap.emitters.begin(), snap.emitters.end(), [&](const sim::EmitterSnapshot& e) {
      return e.owner == o.id && is_burst(e) && !e.particles.empty();
    });
    if (!o.no_draw) flying.push_back(&o);
    if (o.no_draw && bursting) exploding.push_back(&o);
  }
  INFO("tick " << *tick);
  REQUIRE(flying.size() == 1);
  REQUIRE(exploding.size() == 1);
  const sim::ObjectSnapshot& bolt = *flying.front();
  const sim::ObjectSnapshot& blast = *exploding.front();

  // Both project inside the picture. The bolt is near enough to be more
  // than a speck: its length (the demo's bolt mesh is 0.5 m long along the
  // path it is aligned with) spans at least 40 pixels across the view.
  const auto bolt_at = camera.project(bolt.root.origin, kWidth, kHeight);
  REQUIRE(on_screen(bolt_at));
  CHECK(glm::length(bolt.root.origin - camera.eye()) < 16.0F);
  const glm::vec3 half_length = bolt.root.localtoglobalvec(glm::vec3(0.0F, 0.25F, 0.0F));
  const auto nose = camera.project(bolt.root.origin + half_length, kWidth, kHeight);
  const auto tail = camera.project(bolt.root.origin - half_length, kWidth, kHeight);
  REQUIRE(nose.has_value());
  REQUIRE(tail.has_value());
  CHECK(glm::distance(*nose, *tail) >= 40.0F);
  glm::vec3 centre(0.0F);
  std::size_t particles = 0;
  for (const auto& e : snap.emitters) {
    if (e.owner != blast.id || !is_burst(e)) continue;
    for (const auto& p : e.particles) {
      centre += p.position;
      ++particles;
    }
  }
  REQUIRE(particles > 0);
  centre /= static_cast<float>(particles);
  const auto blast_at = camera.project(centre, kWidth, kHeight);
  REQUIRE(on_screen(blast_at));
  CHECK(glm::distance(*bolt_at, *blast_at) > 50.0F);  // two things, not one blur

  // What the user sees: the picture changes where each is projected when
  // it is taken out of the snapshot (the bolt with its trail, the burst).
  auto full = demo.draw(snap);
  REQUIRE(full.has_value());
  sim::RenderSnapshot without_bolt = snap;
  std::erase_if(without_bolt.objects, [&](const sim::ObjectSnapshot& o) { return o.id == bolt.id; });
  std::erase_if(without_bolt.emitters, [&](const sim::EmitterSnapshot& e) { return e.owner == bolt.id; });
  auto no_bolt = demo.draw(without_bolt);
  REQUIRE(no_bolt.has_value());
  sim::RenderSnapshot without_blast = snap;
  std::erase_if(without_blast.emitters, [&](const sim::EmitterSnapshot& e) { return e.owner == blast.id; });
  auto no_blast = demo.draw(without_blast);
  REQUIRE(no_blast.has_value());
  CHECK(changed_near(*full, *no_bolt, *bolt_at, 24) >= 60);
  CHECK(changed_near(*full, *no_blast, *blast_at, 40) >= 100);
}
