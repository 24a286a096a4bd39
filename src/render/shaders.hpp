#pragma once
// GLSL 3.30 core sources of the renderer's programs (private header).

namespace dereth::render::shaders {

// Shared lighting: fixed ambient + sun, and retail's calc_point_light
// 0x0059C8B0 (lighting.hpp has the CPU copy the tests pin): per vertex
// (RendererOptions::vertex_lighting, the default) or per fragment for
// meshes, per vertex for terrain.
inline constexpr const char* kLighting = R"GLSL(
const int kMaxLights = 8;
uniform vec3 u_ambient;
uniform vec3 u_sun_color;
uniform vec3 u_sun_towards;
uniform int u_light_count;
uniform vec3 u_light_position[kMaxLights];
uniform vec3 u_light_color[kMaxLights];
uniform float u_light_intensity[kMaxLights];
uniform float u_light_falloff[kMaxLights];

vec3 point_light(vec3 p, vec3 n, int i) {
  vec3 d = u_light_position[i] - p;
  float dist2 = dot(d, d);
  float dist = sqrt(dist2);
  float range = u_light_falloff[i] * 1.3;
  if (!(dist < range)) return vec3(0.0);
  float w = (0.5 * dist + dot(n, d)) * (1.0 / 1.5);
  if (!(w > 0.0)) return vec3(0.0);
  float k = (dist2 <= 1.0 ? w / dist : w / (dist2 * dist)) * ((1.0 - dist / range) * u_light_intensity[i]);
  vec3 c = u_light_color[i];
  return min(k * c, c);
}

vec3 incoming_light(vec3 p, vec3 n) {
  vec3 light = u_ambient + u_sun_color * max(dot(n, u_sun_towards), 0.0);
  for (int i = 0; i < u_light_count && i < kMaxLights; ++i) light += point_light(p, n, i);
  return light;
}
)GLSL";

// Every mesh draw is instanced: the vertex attributes 3..11 are per
// instance (a DrawItem's model matrix, normal matrix, tint and alpha,
// luminosity, diffuse), so runs of draws of one (GfxObj, surface) with one
// state go in one call (renderer.cpp, "Batching").
inline constexpr const char* kMeshVertex = R"GLSL(
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec4 i_model0;
layout(location = 4) in vec4 i_model1;
layout(location = 5) in vec4 i_model2;
layout(location = 6) in vec4 i_model3;
layout(location = 7) in vec3 i_normal0;
layout(location = 8) in vec3 i_normal1;
layout(location = 9) in vec3 i_normal2;
layout(location = 10) in vec4 i_tint;
layout(location = 11) in vec3 i_params;  // alpha, luminosity, diffuse
uniform mat4 u_view_projection;
uniform vec3 u_eye;
uniform vec2 u_fog;  // linear world fog: (min, max) metres from the eye
uniform vec2 u_uv_offset;  // texture scrolling (a sky object's texture velocity)
#ifdef VERTEX_LIT
out vec3 v_lit;
#else
out vec3 v_position;
out vec3 v_normal;
#endif
out vec2 v_uv;
out float v_fog;     // 1 clear .. 0 all fog, per vertex
flat out vec4 v_tint;
flat out vec3 v_params;
void main() {
  mat4 model = mat4(i_model0, i_model1, i_model2, i_model3);
  vec4 world = model * vec4(a_position, 1.0);
  vec3 normal = mat3(i_normal0, i_normal1, i_normal2) * a_normal;
#ifdef VERTEX_LIT
  v_lit = clamp(vec3(i_params.y) + i_params.z * incoming_light(world.xyz, normalize(normal)), 0.0, 1.0);
#else
  v_position = world.xyz;
  v_normal = normal;
#endif
  v_uv = a_uv + u_uv_offset;
  v_fog = clamp((u_fog.y - length(world.xyz - u_eye)) / (u_fog.y - u_fog.x), 0.0, 1.0);
  v_tint = i_tint;
  v_params = i_params;
  gl_Position = u_view_projection * world;
}
)GLSL";

inline constexpr const char* kVersion = "#version 330 core\n";
// Prepended to the fragment program of alpha-tested surfaces only: a shader
// that may discard keeps llvmpipe from testing depth before shading, so
// every other surface gets a program without the test.
inline constexpr const char* kAlphaTest = "#define ALPHA_TEST 1\n";
// Prepended to both stages of the sky objects' programs and, with
// RendererOptions::vertex_lighting, every mesh's: lit per vertex
// (kLighting in the vertex stage), as retail's fixed-function D3D lit every
// mesh. A sky object's normals are one direction per object and it gets no
// point lights, so this is the per-fragment picture at a fraction of the
// cost over the whole screen the dome and clouds cover.
inline constexpr const char* kVertexLit = "#define VERTEX_LIT 1\n";

inline constexpr const char* kMeshFragmentHead = R"GLSL(
#ifdef VERTEX_LIT
in vec3 v_lit;
#else
in vec3 v_position;
in vec3 v_normal;
#endif
in vec2 v_uv;
in float v_fog;
flat in vec4 v_tint;
flat in vec3 v_params;
uniform vec3 u_fog_color;
uniform sampler2D u_texture;
uniform float u_alpha_ref;
out vec4 o_color;
)GLSL";

inline constexpr const char* kMeshFragmentMain = R"GLSL(
void main() {
  vec4 tex = texture(u_texture, v_uv) * v_tint;
  float alpha = tex.a * v_params.x;
#ifdef ALPHA_TEST
  if (alpha < u_alpha_ref) discard;
#endif
#ifdef VERTEX_LIT
  vec3 lit = v_lit;
#else
  vec3 n = normalize(v_normal);
  vec3 lit = clamp(vec3(v_params.y) + v_params.z * incoming_light(v_position, n), 0.0, 1.0);
#endif
  o_color = vec4(mix(u_fog_color, tex.rgb * lit, v_fog), alpha);
}
)GLSL";

// The terrain draw: lit per vertex as retail lights its landscape
// (CLandBlockStruct::calc_lighting 0x00531700: sun and ambient on the vertex
// normals; here with the point lights too), then one sample of the
// landblock's composited surface (the landscape surface cache,
// terrain_cache.hpp) per pixel.
inline constexpr const char* kTerrainVertexHead = R"GLSL(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
uniform mat4 u_view_projection;
uniform vec3 u_offset;
uniform vec3 u_eye;
uniform vec2 u_fog;
out vec3 v_light;
out vec2 v_uv;
out float v_fog;
)GLSL";

inline constexpr const char* kTerrainVertexMain = R"GLSL(
void main() {
  vec3 world = a_position + u_offset;
  v_light = clamp(incoming_light(world, a_normal), 0.0, 1.0);
  v_uv = a_position.xy * (1.0 / 192.0);
  v_fog = clamp((u_fog.y - length(world - u_eye)) / (u_fog.y - u_fog.x), 0.0, 1.0);
  gl_Position = u_view_projection * vec4(world, 1.0);
}
)GLSL";

inline constexpr const char* kTerrainFragment = R"GLSL(#version 330 core
in vec3 v_light;
in vec2 v_uv;
in float v_fog;
uniform sampler2D u_surface;
uniform vec3 u_fog_color;
out vec4 o_color;
void main() {
  o_color = vec4(mix(u_fog_color, texture(u_surface, v_uv).rgb * v_light, v_fog), 1.0);
}
)GLSL";

// The landscape surface cache's composite pass: a landblock's triangles laid
// flat over its surface texture (block-local x, y over 192 m to clip space),
// each texel its triangle's three corner layers blended by barycentric
// weight, one layer repeat per 24 m cell. Run once per landblock arrival.
inline constexpr const char* kTerrainCompositeVertex = R"GLSL(#version 330 core
layout(location = 0) in vec3 a_position;
layout(location = 2) in vec2 a_uv;
layout(location = 3) in vec3 a_weight;
layout(location = 4) in vec3 a_layers;
out vec2 v_uv;
out vec3 v_weight;
flat out vec3 v_layers;
void main() {
  v_uv = a_uv;
  v_weight = a_weight;
  v_layers = a_layers;
  gl_Position = vec4(a_position.xy * (2.0 / 192.0) - 1.0, 0.0, 1.0);
}
)GLSL";

inline constexpr const char* kTerrainCompositeFragment = R"GLSL(#version 330 core
in vec2 v_uv;
in vec3 v_weight;
flat in vec3 v_layers;
uniform sampler2DArray u_layers;
out vec4 o_color;
void main() {
  vec3 c = texture(u_layers, vec3(v_uv, v_layers.x)).rgb * v_weight.x
         + texture(u_layers, vec3(v_uv, v_layers.y)).rgb * v_weight.y
         + texture(u_layers, vec3(v_uv, v_layers.z)).rgb * v_weight.z;
  o_color = vec4(c, 1.0);
}
)GLSL";

// Portal space (portal_pass.cpp): one triangle covering the frame, its
// corners from gl_VertexID (no vertex buffer), the frame's point in
// normalised device coordinates. What the tunnel computes from its uniforms
// alone (the vanishing point's drift, the phases' offsets) is computed here,
// once a vertex, and handed on flat: the same operations on the same
// values, so the same bits, instead of once a pixel.
inline constexpr const char* kPortalVertex = R"GLSL(
uniform float u_time;     // seconds since the tunnel began
uniform float u_heading;  // the portal camera's heading, radians
out vec2 v_ndc;
flat out vec2 v_centre;  // the vanishing point
flat out vec3 v_phase;   // heading / tau, and the rings' and twist's time terms
const float kTau = 6.2831853;
void main() {
  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);
  v_ndc = p;
  v_centre = 0.14 * vec2(sin(u_time * 0.71), cos(u_time * 0.53));
  v_phase = vec3(u_heading / kTau, u_time * 1.7, u_time * 0.21);
  gl_Position = vec4(p, 0.0, 1.0);
}
)GLSL";

// The world's fades: black at opacity u_level over the frame, with the
// tunnel's vertex program. Its own program, since llvmpipe runs a fragment
// program's every instruction for a frame-wide triangle whatever branch its
// pixels take: as the tunnel program's mode 1 it cost a tunnel's work.
inline constexpr const char* kPortalVeilFragment = R"GLSL(
out vec4 o_color;
uniform float u_level;  // the veil's opacity
void main() {
  o_color = vec4(0.0, 0.0, 0.0, u_level);
}
)GLSL";

// Mode 0, the tunnel: seen down its length, the vanishing point drifting as
// the tunnel bends; depth along it is 1/r from that point, moving toward the
// eye with time (rings), the wall's angle twisting with depth and time
// (swirling bands and thin bright streaks), violet to blue with a magenta
// cast, a white glow at the far end and a dark rim, all times u_level.
// Toward the vanishing point each band's cycles crowd together; where one
// would change by more than a fraction of a cycle across a pixel (its phase's
// gradient, worked out from r, times the pixel's size) it fades to its mean,
// so nothing aliases at any size and the picture does not hang on a driver's
// rounding. Mode 1, the veil: black at opacity u_level.
inline constexpr const char* kPortalFragment = R"GLSL(
in vec2 v_ndc;
flat in vec2 v_centre;
flat in vec3 v_phase;
out vec4 o_color;
uniform int u_mode;
uniform float u_level;    // tunnel brightness, or veil opacity
uniform float u_aspect;   // width / height
uniform float u_pixel;    // one pixel in the units of v_ndc.y (2 / height)
const float kTau = 6.2831853;
// How much of a band whose phase is k / r + m * angle / tau + ... survives
// at radius r: 1 where a pixel spans little of a cycle, 0 from half a cycle.
float resolved(float k, float m, float r) {
  float cycles = u_pixel * length(vec2(k / (r * r), m / (kTau * r)));
  return 1.0 - smoothstep(0.12, 0.45, cycles);
}
void main() {
  if (u_mode == 1) {
    o_color = vec4(0.0, 0.0, 0.0, u_level);
    return;
  }
  vec2 p = vec2(v_ndc.x * u_aspect, v_ndc.y);
  vec2 d = p - v_centre;
  float r = max(length(d), 0.002);
  float angle = atan(d.y, d.x) / kTau + v_phase.x;
  float depth = 0.42 / r + v_phase.y;
  float twist = angle + 0.22 / r - v_phase.z;
  float rings = mix(0.5, 0.5 + 0.5 * sin(depth * kTau), resolved(0.42, 0.0, r));
  float swirl = mix(0.5, 0.5 + 0.5 * sin((twist * 5.0 + depth * 0.35) * kTau), resolved(1.247, 5.0, r));
  float streak = mix(0.2, pow(0.5 + 0.5 * sin((twist * 11.0 - depth * 0.6) * kTau), 8.0), resolved(6.5, 33.0, r));
  vec3 violet = vec3(0.40, 0.14, 0.74);
  vec3 blue = vec3(0.10, 0.28, 0.92);
  vec3 magenta = vec3(0.86, 0.22, 0.78);
  vec3 c = mix(violet, blue, swirl);
  c = mix(c, magenta, rings * 0.32);
  c += vec3(0.85, 0.80, 1.0) * streak * 0.55;
  c += vec3(0.95, 0.92, 1.0) * exp(-r * 5.0);
  c *= 0.25 + 0.75 * smoothstep(2.1, 0.35, r);
  o_color = vec4(clamp(c, 0.0, 1.0) * u_level, 1.0);
}
)GLSL";

}  // namespace dereth::render::shaders
