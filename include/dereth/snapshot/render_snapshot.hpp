#pragma once
// The render snapshot: what the world looks and sounds like after one tick. Built once
// per tick by the simulation, published as std::shared_ptr<const
// RenderSnapshot> and never written again; the renderer and the audio mixer
// read it and nothing else.
//
// Coordinates are global metres: landblock (x, y) contributes x*192, y*192
// (sim::Position::global_origin), z as stored. Frames are world frames.

#include <compare>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/core/frame.hpp"
#include "dereth/snapshot/local_id.hpp"
#include "dereth/snapshot/teleport_anim_state.hpp"

namespace dereth::dat {
struct Environment;
}  // namespace dereth::dat

namespace dereth::sim {

// An ObjDesc texture change on one part: wherever the part's surfaces draw
// SurfaceTexture `old_texture` (0x05...), `new_texture` is drawn instead.
struct TextureChange {
  std::uint32_t old_texture = 0;
  std::uint32_t new_texture = 0;
  bool operator==(const TextureChange&) const = default;
};

// One subpalette of an ObjDesc, in colours (the wire's units of 8
// unpacked): colours [offset, offset + num_colors) of `palette` over the
// same indices of the base palette.
struct SubpaletteChange {
  std::uint32_t palette = 0;  // 0x04...
  std::uint32_t offset = 0;
  std::uint32_t num_colors = 0;
  bool operator==(const SubpaletteChange&) const = default;
  auto operator<=>(const SubpaletteChange&) const = default;
};

// An ObjDesc's palette changes, as retail's ObjDesc list keeps them
// (dat::add_subpalette). The renderer composes them into one palette
// (dat::make_modified_palette) and draws it on the palettized surfaces of
// every part whose own palette is `base_palette` (CPartArray::SetPalette);
// no subpalettes: no change.
struct PaletteChange {
  std::uint32_t base_palette = 0;  // 0x04...
  std::vector<SubpaletteChange> subpalettes;
  [[nodiscard]] bool empty() const noexcept { return subpalettes.empty(); }
  bool operator==(const PaletteChange&) const = default;
  auto operator<=>(const PaletteChange&) const = default;
};

// One rigid part of an object's mesh.
struct PartPose {
  std::uint32_t gfx_obj = 0;  // 0x01... the part's GfxObj (after ReplaceObject hooks)
  core::Frame frame;          // world frame of the part
  glm::vec3 scale{1.0f};      // mesh scale (object scale times the Setup default scale)
  float translucency = 0.0f;  // 0 opaque .. 1 invisible (part-transparent hooks, object translucency)
  float luminosity = 0.0f;    // Luminous / LuminousPart
  float diffuse = 1.0f;       // Diffuse / DiffusePart
  bool no_draw = false;       // the part is not drawn
  std::vector<TextureChange> texture_changes{};  // the ObjDesc's for this part, in order (the last for a texture wins)
};

struct ObjectSnapshot {
  LocalId id = LocalId::None;
  std::uint32_t guid = 0;
  std::uint32_t setup_id = 0;
  std::uint32_t cell_id = 0;
  core::Frame root;             // world frame of the object
  std::vector<PartPose> parts;  // indexed as the Setup's parts
  PaletteChange palette;        // the ObjDesc's base palette and subpalettes (parts' texture changes: PartPose)
  float scale = 1.0f;           // object scale
  float translucency = 0.0f;
  bool hidden = false;   // PhysicsState Hidden
  bool no_draw = false;  // PhysicsState NoDraw
  bool is_player = false;
};

struct ParticleSnapshot {
  glm::vec3 position{0.0f};  // world position
  float scale = 1.0f;        // gfxobj_scale (uniform), the start-to-final scale ramp
  float alpha = 1.0f;        // 1 - translucency, the start-to-final translucency ramp
  // The particle part's world orientation: the parent's, turned by c*t, for
  // the spinning types 4, 9 and 11 (Particle::Update 0x0051C290); identity
  // for the others, whose update writes only the origin. The renderer turns
  // it further by the GfxObj's degrade mode (billboards).
  glm::quat orientation{1.0f, 0.0f, 0.0f, 0.0f};
};

struct EmitterSnapshot {
  LocalId owner = LocalId::None;
  std::uint32_t emitter_info_id = 0;  // 0x32... ParticleEmitterInfo
  std::uint32_t logical_id = 0;       // the hook's logical id (0 = anonymous)
  std::uint32_t gfx_obj = 0;          // the particle GfxObj (0x01...), 0 when drawn as a billboard
  std::uint32_t texture = 0;          // the billboard texture/surface (0x05.. / 0x08..) when any
  bool world_space = false;           // particles released to the world keep their birth point
  std::vector<ParticleSnapshot> particles;
};

struct LightSnapshot {
  LocalId owner = LocalId::None;
  glm::vec3 position{0.0f};  // world position
  glm::vec4 color{1.0f};     // ARGB unpacked to RGBA in 0..1
  float intensity = 0.0f;
  float falloff = 0.0f;
  float cone_angle = 0.0f;
  bool is_static = false;  // the owner's PhysicsState Static bit (LIGHTOBJ state 1, CPartArray::InitLights)
};

struct SoundEvent {
  LocalId owner = LocalId::None;
  std::uint32_t wave_id = 0;     // 0x0A... the chosen Wave (0 = the table chose none)
  std::uint32_t sound_type = 0;  // the Sound enum (SoundTable hooks), 0 for a direct Sound hook
  float volume = 1.0f;
  float priority = 0.0f;
  glm::vec3 position{0.0f};  // world position of the owner when it played
  core::Seconds time{0.0};
  bool operator==(const SoundEvent&) const = default;
};

// An EnvCell's structure as drawn: the drawing polygons of the
// Environment's CellStruct (its portals excepted) with the EnvCell's
// surfaces, at the cell's world frame.
struct CellSnapshot {
  std::uint32_t cell_id = 0;
  std::uint32_t environment_id = 0;  // 0x0D... Environment
  // That record as the world's record cache decoded it for collision (the
  // renderer draws the cell struct from it and reads none itself); null when
  // absent or unreadable.
  std::shared_ptr<const dat::Environment> environment;
  std::uint32_t cell_struct = 0;        // the CellStruct's id within it
  std::vector<std::uint32_t> surfaces;  // 0x08... Surface DIDs; the polygons' surface indices index this
  core::Frame frame;                    // world frame of the cell
};

// What the loaded landblocks hold that never moves and is not an object:
// their buildings (each model's parts at their world frames, drawn like an
// object's parts; LocalId::None, guid 0) and their EnvCells. It changes only
// when a landblock loads, so the snapshots share one.
struct LandscapeSnapshot {
  std::vector<ObjectSnapshot> buildings;
  std::vector<CellSnapshot> cells;
};

// The sky's time (sim::GameClock: GameTime::UseTime at the world's clock
// once the server's TimeSync arrived): what the renderer draws the sun,
// ambient, fog and sky objects at.
struct SkyTime {
  float time_of_day = 0.0F;  // fraction of the day [0, 1)
  std::uint32_t day = 0;     // GameTime current_day (in the year)
  std::uint32_t days_per_year = 0;
  std::uint32_t year = 0;
  double seconds = 0.0;  // the game clock (Timer::cur_time): texture scrolling
  bool operator==(const SkyTime&) const = default;
};

// Portal space as gmSmartBoxUI shows it (sim::GmSmartBoxUi, the World's):
// from BeginTeleportAnimation the portal-space viewport hides the world
// (SmartBox::Hide) until the tunnel's fade-out ends (SmartBox::Show). The
// renderer draws from these alone: `visible`, the tunnel instead of the world,
// as bright as `fade`; otherwise the world, veiled to black by 1 - `fade`
// (the world's fades; 1 draws it as always). docs/render.md "Portal space".
struct PortalSpace {
  TeleportAnimState state = TeleportAnimState::Off;
  bool visible = false;  // the portal-space viewport is shown, the world hidden
  // teleportCurVDist over the game's view distance (GmSmartBoxUi::view_distance):
  // 1 outside the fades, down to 0.001 at the bottom of one.
  float fade = 1.0F;
  double tunnel_seconds = 0.0;   // since the tunnel's loop began (its time; 0 when not visible)
  float heading_degrees = 0.0F;  // teleportRotationCurAngle: where the portal-space camera looks
  // Sound_UI_EnterPortal and Sound_UI_ExitPortal plays so far (counts: the
  // frame loop plays the ones that are new since the last snapshot).
  std::uint64_t enter_sounds = 0;
  std::uint64_t exit_sounds = 0;
  bool operator==(const PortalSpace&) const = default;
};

struct RenderSnapshot {
  std::uint64_t tick = 0;
  core::Seconds time{0.0};
  LocalId player = LocalId::None;
  std::vector<ObjectSnapshot> objects;    // in local-id order
  std::vector<EmitterSnapshot> emitters;  // in (owner, creation) order
  std::vector<LightSnapshot> lights;
  std::vector<SoundEvent> sounds;                      // the sound events of this tick, in order
  std::shared_ptr<const LandscapeSnapshot> landscape;  // null: nothing loaded
  std::optional<SkyTime> sky;  // none before a TimeSync: the renderer's fixed hour (RendererOptions::time_of_day)
  PortalSpace portal;          // the teleport's portal space (default: none, the world drawn)
};

using SnapshotPtr = std::shared_ptr<const RenderSnapshot>;

}  // namespace dereth::sim
