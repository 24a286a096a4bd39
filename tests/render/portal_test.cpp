// Portal space on screen (docs/render.md "Portal space"): what a frame draws
// of the snapshot's sim::PortalSpace for every TeleportAnimState
// (render::portal_frame), and the portal pass drawn headless: the tunnel
// alone while the viewport is shown, whatever the snapshot's world holds, moving
// with the tunnel's time, dimmed by its fades; the world veiled by its own.
#include "dereth/render/portal.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>

#include "dereth/render/camera.hpp"
#include "dereth/render/headless_context.hpp"
#include "dereth/render/image.hpp"
#include "dereth/render/renderer.hpp"

#include "support/gl_context.hpp"

using namespace dereth;
using render::Image;
using render::PortalFrame;
using TAS = sim::TeleportAnimState;

namespace {

constexpr int kSize = 96;

sim::PortalSpace portal(TAS state, bool visible, float fade, double seconds = 0.0, float heading = 0.0F) {
  sim::PortalSpace p;
  p.state = state;
  p.visible = visible;
  p.fade = fade;
  p.tunnel_seconds = seconds;
  p.heading_degrees = heading;
  return p;
}

// A world to hide: marker cubes (no DATs) around the camera's target.
sim::RenderSnapshot world_snapshot() {
  sim::RenderSnapshot snap;
  for (int i = 0; i < 5; ++i) {
    sim::ObjectSnapshot o;
    o.id = static_cast<sim::LocalId>(i + 1);
    o.guid = 0x50000001U + static_cast<std::uint32_t>(i);
    o.root.origin = glm::vec3(100.0F + static_cast<float>(i - 2), 103.0F, 50.0F);
    o.is_player = i == 0;
    snap.objects.push_back(o);
  }
  return snap;
}

render::Camera camera() {
  return render::Camera::look_at(glm::vec3(100.0F, 98.0F, 51.0F), glm::vec3(100.0F, 103.0F, 50.3F));
}

std::unique_ptr<render::Renderer> make_renderer() {
  auto r = render::Renderer::create(render::HeadlessContext::loader(), nullptr, nullptr, render::RendererOptions{});
  if (!r) FAIL(r.error().message());
  return std::move(*r);
}

Image draw(render::Renderer& renderer, const sim::RenderSnapshot& snap) {
  const auto drawn = renderer.render(snap, camera(), kSize, kSize);
  REQUIRE(drawn.has_value());
  return renderer.read_pixels();
}

double mean_brightness(const Image& img) {
  double sum = 0.0;
  for (std::size_t i = 0; i + 3 < img.pixels.size(); i += 4) {
    sum += img.pixels[i] + img.pixels[i + 1] + img.pixels[i + 2];
  }
  return sum / (3.0 * static_cast<double>(img.width) * static_cast<double>(img.height));
}

}  // namespace

TEST_CASE("portal_frame: the tunnel while the viewport is shown, the world veiled by its fades otherwise",
          "[render][portal]") {
  // Off: the world as always.
  CHECK(render::portal_frame(sim::PortalSpace{}) == PortalFrame{false, 0.0F, 0.0F});
  // WorldFadeOut (log-off) and WorldFadeIn (after SmartBox::Show): the world
  // under black at 1 - fade.
  CHECK(render::portal_frame(portal(TAS::WorldFadeOut, false, 0.25F)) == PortalFrame{false, 0.0F, 0.75F});
  CHECK(render::portal_frame(portal(TAS::WorldFadeIn, false, 0.001F)).veil == Approx(0.999F));
  CHECK(render::portal_frame(portal(TAS::WorldFadeIn, false, 1.0F)) == PortalFrame{false, 0.0F, 0.0F});
  // TunnelFadeIn, Tunnel, TunnelContinue, TunnelFadeOut: the tunnel alone, as
  // bright as the fade.
  CHECK(render::portal_frame(portal(TAS::TunnelFadeIn, true, 0.3F)) == PortalFrame{true, 0.3F, 0.0F});
  CHECK(render::portal_frame(portal(TAS::Tunnel, true, 1.0F)) == PortalFrame{true, 1.0F, 0.0F});
  CHECK(render::portal_frame(portal(TAS::TunnelContinue, true, 1.0F)) == PortalFrame{true, 1.0F, 0.0F});
  CHECK(render::portal_frame(portal(TAS::TunnelFadeOut, true, 0.5F)) == PortalFrame{true, 0.5F, 0.0F});
  // The frame that enters TunnelFadeIn before the viewport shows: the world, nearly black.
  CHECK(render::portal_frame(portal(TAS::TunnelFadeIn, false, 0.001F)).tunnel == false);
  // Fades out of range are clamped; NaN is no fade.
  CHECK(render::portal_frame(portal(TAS::WorldFadeIn, false, 7.0F)).veil == 0.0F);
  CHECK(render::portal_frame(portal(TAS::WorldFadeIn, false, -1.0F)).veil == 1.0F);
  CHECK(render::portal_frame(portal(TAS::Tunnel, true, std::numeric_limits<float>::quiet_NaN())).tunnel_brightness ==
        0.0F);
}

TEST_CASE("Headless: portal space draws the tunnel alone, whatever world the snapshot holds", "[render][gl][portal]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer();
  sim::RenderSnapshot world = world_snapshot();
  const Image world_image = draw(*renderer, world);
  CHECK_FALSE(renderer->stats().portal_space);
  CHECK(renderer->stats().markers == 5);

  sim::RenderSnapshot tunnel = world;
  tunnel.portal = portal(TAS::TunnelContinue, true, 1.0F, 2.5, 40.0F);
  const Image tunnel_image = draw(*renderer, tunnel);
  CHECK(renderer->stats().portal_space);
  CHECK(renderer->stats().markers == 0);
  CHECK(renderer->stats().draw_calls == 0);
  // The same portal over an empty snapshot: the same picture to the byte.
  sim::RenderSnapshot empty;
  empty.portal = tunnel.portal;
  CHECK(draw(*renderer, empty) == tunnel_image);
  CHECK(render::compare_images(tunnel_image, world_image, 24).differing_fraction > 0.9);

  // Coloured: violet and blue dominate, not grey.
  double red = 0.0;
  double green = 0.0;
  double blue = 0.0;
  for (std::size_t i = 0; i + 3 < tunnel_image.pixels.size(); i += 4) {
    red += tunnel_image.pixels[i];
    green += tunnel_image.pixels[i + 1];
    blue += tunnel_image.pixels[i + 2];
    CHECK(tunnel_image.pixels[i + 3] == 255);
  }
  CHECK(blue > 1.3 * green);
  CHECK(red > 1.1 * green);
  // Brighter toward the far end (the centre) than at the rim.
  const auto lum = [&](int x, int y) {
    const auto p = tunnel_image.at(x, y);
    return p[0] + p[1] + p[2];
  };
  CHECK(lum(kSize / 2, kSize / 2) > lum(1, 1) + 60);
}

TEST_CASE("Headless: the tunnel moves with its time and turns with its heading, the same at the same time",
          "[render][gl][portal]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer();
  sim::RenderSnapshot a;
  a.portal = portal(TAS::Tunnel, true, 1.0F, 1.0);
  const Image at_1s = draw(*renderer, a);
  CHECK(draw(*renderer, a) == at_1s);  // deterministic
  sim::RenderSnapshot b = a;
  b.portal.tunnel_seconds = 1.25;
  const Image later = draw(*renderer, b);
  CHECK(render::compare_images(at_1s, later, 24).differing_fraction > 0.2);
  sim::RenderSnapshot c = a;
  c.portal.heading_degrees = 90.0F;
  CHECK(render::compare_images(at_1s, draw(*renderer, c), 24).differing_fraction > 0.2);
}

TEST_CASE("Headless: the tunnel's fades dim it to black, the world's fades veil it", "[render][gl][portal]") {
  DERETH_GL_OR_RETURN();
  auto renderer = make_renderer();
  sim::RenderSnapshot snap = world_snapshot();
  snap.portal = portal(TAS::TunnelFadeOut, true, 1.0F, 3.0);
  const double whole = mean_brightness(draw(*renderer, snap));
  snap.portal.fade = 0.5F;
  const double half = mean_brightness(draw(*renderer, snap));
  snap.portal.fade = 0.001F;
  const double bottom = mean_brightness(draw(*renderer, snap));
  CHECK(whole > 40.0);
  CHECK(half == Approx(whole / 2.0).margin(2.0));
  CHECK(bottom < 1.0);

  // The world: unveiled at fade 1 (the picture of a snapshot with no portal
  // space, to the byte), darker by the veil, black at the bottom of the fade.
  sim::RenderSnapshot plain = world_snapshot();
  const Image world_image = draw(*renderer, plain);
  const double world = mean_brightness(world_image);
  sim::RenderSnapshot fading = plain;
  fading.portal = portal(TAS::WorldFadeIn, false, 1.0F);
  CHECK(draw(*renderer, fading) == world_image);
  fading.portal.fade = 0.5F;
  const Image veiled = draw(*renderer, fading);
  CHECK_FALSE(renderer->stats().portal_space);
  CHECK(renderer->stats().markers == 5);
  CHECK(mean_brightness(veiled) == Approx(world / 2.0).margin(2.0));
  fading.portal.fade = 0.001F;
  CHECK(mean_brightness(draw(*renderer, fading)) < 1.0);
  // Destination alpha stays whole under the veil.
  for (std::size_t i = 3; i < veiled.pixels.size(); i += 4) {
    if (veiled.pixels[i] != 255) FAIL("alpha " << int{veiled.pixels[i]} << " at byte " << i);
  }
}
