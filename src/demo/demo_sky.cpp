// The demo Region's sky (docs/dat.md, "The demo world"): made-up GfxObjs and
// textures for a dome, a sun, a moon and a cloud layer, and the SkyObject
// records that place them by time of day. Every number here is the demo's
// own; only the record layouts are retail's.
#include "demo_sky.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numbers>

#include "dereth/core/byte_writer.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/render_surface.hpp"
#include "dereth/dat/surface.hpp"
#include "dereth/dat/surface_texture.hpp"

namespace dereth::demo {

namespace {

using namespace dereth::dat;

constexpr Did kDomeMesh = 0x01000E01;
constexpr Did kSunMesh = 0x01000E02;
constexpr Did kMoonMesh = 0x01000E03;
constexpr Did kCloudMesh = 0x01000E04;
constexpr Did kDomeSurface = 0x08000E01;
constexpr Did kSunSurface = 0x08000E02;
constexpr Did kMoonSurface = 0x08000E03;
constexpr Did kCloudSurface = 0x08000E04;

// Sky object indices in the day group, in drawing order.
constexpr std::uint32_t kDomeIndex = 0;
constexpr std::uint32_t kCloudIndex = 4;

constexpr float kDomeRadius = 1000.0F;
constexpr float kSunDistance = 900.0F;
constexpr float kCloudRadius = 950.0F;

std::uint32_t argb(std::uint32_t a, std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return (a << 24) | (r << 16) | (g << 8) | b;
}

RenderSurface argb_image(int size, auto&& pixel) {
  RenderSurface r;
  r.width = size;
  r.height = size;
  r.format = PixelFormat::A8R8G8B8;
  core::ByteWriter w;
  for (int y = 0; y < size; ++y) {
    for (int x = 0; x < size; ++x) w.u32(pixel(x, y));
  }
  r.pixels = std::move(w).take();
  return r;
}

void add_surface(std::vector<DatRecord>& out, Did surface, RenderSurface pixels, std::uint32_t type,
                 float luminosity = 0.0F) {
  const Did texture = 0x05000000U | (surface & 0xFFFFU);
  const Did image = 0x06000000U | (surface & 0xFFFFU);
  pixels.id = image;
  out.push_back({image, write_render_surface(pixels)});
  SurfaceTexture tex;
  tex.id = texture;
  tex.render_surfaces = {image};
  out.push_back({texture, write_surface_texture(tex)});
  Surface s;
  s.id = surface;
  s.type = type;
  s.texture = texture;
  s.luminosity = luminosity;
  out.push_back({surface, write_surface(s)});
}

std::uint8_t channel(float v) {
  return static_cast<std::uint8_t>(std::clamp(v, 0.0F, 255.0F));
}

// A hash in [0, 1) of a lattice point, for value noise.
float hash01(int x, int y) {
  std::uint32_t h = static_cast<std::uint32_t>(x) * 0x8DA6B343U ^ static_cast<std::uint32_t>(y) * 0xD8163841U;
  h ^= h >> 13;
  h *= 0x5BD1E995U;
  h ^= h >> 15;
  return static_cast<float>(h & 0xFFFFU) / 65536.0F;
}

// Smooth value noise on a lattice of `cells` per side that wraps at the
// image's edge, so the texture tiles.
float tiled_noise(int x, int y, int size, int cells) {
  const float fx = static_cast<float>(x) * static_cast<float>(cells) / static_cast<float>(size);
  const float fy = static_cast<float>(y) * static_cast<float>(cells) / static_cast<float>(size);
  const int x0 = static_cast<int>(std::floor(fx));
  const int y0 = static_cast<int>(std::floor(fy));
  const float tx = fx - static_cast<float>(x0);
  const float ty = fy - static_cast<float>(y0);
  const auto at = [cells](int i, int j) {
    return hash01(((i % cells) + cells) % cells, ((j % cells) + cells) % cells);
  };
  const auto smooth = [](float t) { return t * t * (3.0F - 2.0F * t); };
  const float a = at(x0, y0) + (at(x0 + 1, y0) - at(x0, y0)) * smooth(tx);
  const float b = at(x0, y0 + 1) + (at(x0 + 1, y0 + 1) - at(x0, y0 + 1)) * smooth(tx);
  return a + (b - a) * smooth(ty);
}

void add_textures(std::vector<DatRecord>& out) {
  // The dome: pale at the horizon (v = 1), deep blue overhead (v = 0).
  add_surface(out, kDomeSurface,
              argb_image(64,
                         [](int, int y) {
                           const float t = static_cast<float>(y) / 63.0F;  // 0 zenith .. 1 horizon
                           const float k = t * t;
                           return argb(255, channel(52.0F + (140.0F - 52.0F) * k),
                                       channel(98.0F + (176.0F - 98.0F) * k), channel(190.0F + (226.0F - 190.0F) * k));
                         }),
              surface_type::kBase1Image);
  // The sun: a white-yellow disc with a soft glow, added to the sky.
  add_surface(
      out, kSunSurface,
      argb_image(64,
                 [](int x, int y) {
                   const float dx = (static_cast<float>(x) - 31.5F) / 31.5F;
                   const float dy = (static_cast<float>(y) - 31.5F) / 31.5F;
                   const float r = std::sqrt(dx * dx + dy * dy);
                   const float disc = r < 0.35F ? 1.0F : std::max(0.0F, 1.0F - (r - 0.35F) / 0.65F);
                   const float a = r < 0.35F ? 1.0F : disc * disc * 0.8F;
                   return argb(channel(a * 255.0F), 255, channel(250.0F - 40.0F * r), channel(225.0F - 120.0F * r));
                 }),
      surface_type::kBase1Image | surface_type::kAlpha | surface_type::kAdditive | surface_type::kLuminous, 1.0F);
  // The moon: a pale grey disc with darker seas, blended over the sky.
  add_surface(out, kMoonSurface,
              argb_image(32,
                         [](int x, int y) {
                           const float dx = (static_cast<float>(x) - 15.5F) / 15.5F;
                           const float dy = (static_cast<float>(y) - 15.5F) / 15.5F;
                           const float r = std::sqrt(dx * dx + dy * dy);
                           const float sea = tiled_noise(x, y, 32, 4) > 0.6F ? 0.8F : 1.0F;
                           const float a = r < 0.9F ? 1.0F : std::max(0.0F, 1.0F - (r - 0.9F) / 0.1F);
                           return argb(channel(a * 255.0F), channel(225.0F * sea), channel(228.0F * sea),
                                       channel(235.0F * sea));
                         }),
              surface_type::kBase1Image | surface_type::kAlpha | surface_type::kLuminous, 1.0F);
  // The clouds: white puffs (two octaves of tiling noise) over clear sky.
  add_surface(out, kCloudSurface,
              argb_image(128,
                         [](int x, int y) {
                           const float n = 0.65F * tiled_noise(x, y, 128, 6) + 0.35F * tiled_noise(x, y, 128, 16);
                           const float a = std::clamp((n - 0.52F) / 0.25F, 0.0F, 1.0F);
                           const float shade = 235.0F + 20.0F * a;
                           return argb(channel(a * 230.0F), channel(shade), channel(shade), channel(shade + 5.0F));
                         }),
              surface_type::kBase1Image | surface_type::kAlpha);
}

// One polygon facing the origin (where the viewer is): its corners are put
// in counter-clockwise order as seen from there.
void add_facing_polygon(GfxObj& g, std::vector<glm::vec3> corners, std::vector<UvCoord> uvs, glm::vec3 normal) {
  glm::vec3 centre(0.0F);
  for (const auto& c : corners) centre += c;
  centre /= static_cast<float>(corners.size());
  const glm::vec3 n = glm::cross(corners[1] - corners[0], corners[2] - corners[0]);
  if (glm::dot(n, centre) > 0.0F) {
    std::reverse(corners.begin(), corners.end());
    std::reverse(uvs.begin(), uvs.end());
  }
  Polygon p;
  p.id = static_cast<std::uint16_t>(g.polygons.size());
  p.pos_surface = 0;
  for (std::size_t i = 0; i < corners.size(); ++i) {
    SwVertex v;
    v.id = static_cast<std::uint16_t>(g.vertices.size());
    v.origin = corners[i];
    v.normal = normal;
    v.uvs = {uvs[i]};
    p.vertex_ids.push_back(static_cast<std::int16_t>(g.vertices.size()));
    p.pos_uv_indices.push_back(0);
    g.vertices.push_back(std::move(v));
  }
  g.polygons.push_back(std::move(p));
}

GfxObj sky_mesh(Did id, Did surface) {
  GfxObj g;
  g.id = id;
  g.flags = GfxObj::kHasDrawing;
  g.surfaces = {surface};
  return g;
}

void finish(GfxObj& g, float radius) {
  BspNode leaf;
  leaf.tag = kBspLeaf;
  leaf.leaf_index = 0;
  leaf.solid = 1;
  leaf.sphere = Sphere{g.sort_center, radius};
  for (std::size_t i = 0; i < g.polygons.size(); ++i) leaf.polys.push_back(static_cast<std::uint16_t>(i));
  g.drawing_bsp.nodes.push_back(std::move(leaf));
}

glm::vec3 on_sphere(float radius, float azimuth, float elevation) {
  return radius * glm::vec3(std::cos(elevation) * std::cos(azimuth), std::cos(elevation) * std::sin(azimuth),
                            std::sin(elevation));
}

// A dome all round the viewer (the horizon's colour below it, where terrain
// usually hides it), seen from inside; v runs from the zenith (0) to the
// horizon (1).
GfxObj dome_mesh() {
  GfxObj g = sky_mesh(kDomeMesh, kDomeSurface);
  constexpr int kSegments = 24;
  constexpr std::array<float, 9> kRings = {-60.0F, -12.0F, 0.0F, 8.0F, 18.0F, 30.0F, 45.0F, 62.0F, 78.0F};
  const auto rad = [](float d) { return d * std::numbers::pi_v<float> / 180.0F; };
  const auto v_of = [](float elevation) { return std::clamp(1.0F - elevation / 90.0F, 0.0F, 1.0F); };
  for (int s = 0; s < kSegments; ++s) {
    const float a0 = 2.0F * std::numbers::pi_v<float> * static_cast<float>(s) / kSegments;
    const float a1 = 2.0F * std::numbers::pi_v<float> * static_cast<float>(s + 1) / kSegments;
    const float u0 = static_cast<float>(s) / kSegments;
    const float u1 = static_cast<float>(s + 1) / kSegments;
    for (std::size_t r = 0; r + 1 < kRings.size(); ++r) {
      const float e0 = rad(kRings[r]), e1 = rad(kRings[r + 1]);
      add_facing_polygon(
          g,
          {on_sphere(kDomeRadius, a0, e0), on_sphere(kDomeRadius, a1, e0), on_sphere(kDomeRadius, a1, e1),
           on_sphere(kDomeRadius, a0, e1)},
          {{u0, v_of(kRings[r])}, {u1, v_of(kRings[r])}, {u1, v_of(kRings[r + 1])}, {u0, v_of(kRings[r + 1])}},
          {0.0F, 0.0F, -1.0F});
    }
    const float top = rad(kRings.back());
    add_facing_polygon(g, {on_sphere(kDomeRadius, a0, top), on_sphere(kDomeRadius, a1, top), {0.0F, 0.0F, kDomeRadius}},
                       {{u0, v_of(kRings.back())}, {u1, v_of(kRings.back())}, {u0, 0.0F}}, {0.0F, 0.0F, -1.0F});
    const float bottom = rad(kRings.front());
    add_facing_polygon(
        g, {on_sphere(kDomeRadius, a0, bottom), on_sphere(kDomeRadius, a1, bottom), {0.0F, 0.0F, -kDomeRadius}},
        {{u0, 1.0F}, {u1, 1.0F}, {u0, 1.0F}}, {0.0F, 0.0F, -1.0F});
  }
  finish(g, kDomeRadius);
  return g;
}

// A square facing the origin from `centre` (distance), `half` metres a side
// from its middle: a sun or moon disc's quad.
GfxObj disc_mesh(Did id, Did surface, glm::vec3 centre, float half) {
  GfxObj g = sky_mesh(id, surface);
  const glm::vec3 out = glm::normalize(centre);
  const glm::vec3 side = glm::normalize(glm::cross(out, glm::vec3(0.0F, 0.0F, 1.0F)));
  const glm::vec3 up = glm::cross(side, out);
  add_facing_polygon(g,
                     {centre - side * half - up * half, centre + side * half - up * half,
                      centre + side * half + up * half, centre - side * half + up * half},
                     {{0.0F, 1.0F}, {1.0F, 1.0F}, {1.0F, 0.0F}, {0.0F, 0.0F}}, -out);
  g.sort_center = centre;
  finish(g, half * 1.5F);
  return g;
}

// A low flattened cap of cloud over the viewer whose rim meets the horizon
// about 860 m out (so no edge shows in the sky); the texture is mapped by
// position (one tile per 350 m of a sheet 200 m up) so it drifts as a sheet
// under the texture velocity. Normals point up, so the sun lights the
// clouds' tops as seen from below.
GfxObj cloud_mesh() {
  GfxObj g = sky_mesh(kCloudMesh, kCloudSurface);
  constexpr int kSegments = 24;
  constexpr std::array<float, 7> kRings = {-25.0F, -12.0F, 0.0F, 10.0F, 20.0F, 40.0F, 70.0F};
  const auto rad = [](float d) { return d * std::numbers::pi_v<float> / 180.0F; };
  const auto point = [&](float azimuth, float elevation) {
    glm::vec3 p = on_sphere(kCloudRadius, azimuth, rad(elevation));
    p.z = p.z * 0.3F + 120.0F;
    return p;
  };
  // Mapped as if onto a flat sheet 200 m up seen from the middle (at most 4x
  // out near the rim), so the steep rim does not stretch the texture.
  const auto uv = [](const glm::vec3& p) {
    const float k = std::min(200.0F / std::max(p.z, 1.0F), 4.0F);
    return UvCoord{p.x * k / 350.0F, p.y * k / 350.0F};
  };
  for (int s = 0; s < kSegments; ++s) {
    const float a0 = 2.0F * std::numbers::pi_v<float> * static_cast<float>(s) / kSegments;
    const float a1 = 2.0F * std::numbers::pi_v<float> * static_cast<float>(s + 1) / kSegments;
    for (std::size_t r = 0; r + 1 < kRings.size(); ++r) {
      const glm::vec3 c[4] = {point(a0, kRings[r]), point(a1, kRings[r]), point(a1, kRings[r + 1]),
                              point(a0, kRings[r + 1])};
      add_facing_polygon(g, {c[0], c[1], c[2], c[3]}, {uv(c[0]), uv(c[1]), uv(c[2]), uv(c[3])}, {0.0F, 0.0F, 1.0F});
    }
    const glm::vec3 t0 = point(a0, kRings.back()), t1 = point(a1, kRings.back());
    const glm::vec3 top(0.0F, 0.0F, kCloudRadius * 0.3F + 120.0F);
    add_facing_polygon(g, {t0, t1, top}, {uv(t0), uv(t1), uv(top)}, {0.0F, 0.0F, 1.0F});
  }
  finish(g, kCloudRadius);
  return g;
}

SkyObject sky_object(float begin, float end, float begin_angle, float end_angle, Did gfx, float u = 0.0F,
                     float v = 0.0F) {
  SkyObject o;
  o.begin_time = begin;
  o.end_time = end;
  o.begin_angle = begin_angle;
  o.end_angle = end_angle;
  o.default_gfx_object = gfx;
  o.tex_velocity_x = u;
  o.tex_velocity_y = v;
  return o;
}

SkyObjectReplace look(std::uint32_t index, float luminosity, float max_bright, float transparent) {
  SkyObjectReplace r;
  r.object_index = index;
  r.luminosity = luminosity;
  r.max_bright = max_bright;
  r.transparent = transparent;
  return r;
}

}  // namespace

void add_demo_sky(Region& region, std::vector<DatRecord>& out) {
  add_textures(out);
  // The sun's and the moon's paths lean to the south (the camera's side):
  // rotation turns the disc about the east-west axis from the east horizon
  // (0 degrees) over the southern sky to the west (180).
  const auto leaning = [](float south_degrees, float distance) {
    const float b = south_degrees * std::numbers::pi_v<float> / 180.0F;
    return glm::vec3(distance * std::cos(b), -distance * std::sin(b), 0.0F);
  };
  const GfxObj meshes[] = {dome_mesh(), disc_mesh(kSunMesh, kSunSurface, leaning(40.0F, kSunDistance), 55.0F),
                           disc_mesh(kMoonMesh, kMoonSurface, leaning(30.0F, kSunDistance), 32.0F), cloud_mesh()};
  for (const auto& m : meshes) out.push_back({m.id, write_gfx_obj(m)});

  // Game time 0 (the scenario server's clock when it starts) is noon of the
  // first day: the demo's fixed hour, so the demo looks the same with the
  // server's TimeSync as without it.
  region.game_time.zero_time_of_year = 0.5 * static_cast<double>(region.game_time.day_length);
  if (!region.sky) return;
  for (DayGroup& group : region.sky->day_groups) {
    // Drawn in this order, each over the last: the dome (always), the sun
    // (up from 0.25 to 0.75), the moon rising (0.7 .. 1) and setting
    // (0 .. 0.3), the clouds (always, drifting).
    group.sky_objects = {
        sky_object(0.0F, 0.0F, 0.0F, 0.0F, kDomeMesh), sky_object(0.25F, 0.75F, 0.0F, 180.0F, kSunMesh),
        sky_object(0.7F, 1.0F, 0.0F, 90.0F, kMoonMesh), sky_object(0.0F, 0.3F, 90.0F, 180.0F, kMoonMesh),
        sky_object(0.0F, 0.0F, 0.0F, 0.0F, kCloudMesh, 0.004F, 0.0015F)};
    // The dome's and the clouds' brightness (luminosity and max_bright in
    // percent) and the clouds' transparency through the day, by keyframe.
    for (SkyTimeOfDay& t : group.sky_times) {
      float dome = 100.0F, clouds = 60.0F, cloud_transparent = 10.0F;
      if (t.begin < 0.125F) {
        dome = 14.0F, clouds = 6.0F, cloud_transparent = 55.0F;  // night
      } else if (t.begin < 0.375F) {
        dome = 72.0F, clouds = 45.0F, cloud_transparent = 20.0F;  // dawn
      } else if (t.begin >= 0.625F) {
        dome = 62.0F, clouds = 40.0F, cloud_transparent = 20.0F;  // dusk
      }
      t.replaces = {look(kDomeIndex, dome, 1.0F, -1.0F), look(kCloudIndex, clouds, 100.0F, cloud_transparent)};
    }
  }
}

}  // namespace dereth::demo
