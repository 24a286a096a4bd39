#pragma once
// The synthetic demo world: a complete client_portal.dat and client_cell_1.dat
// built with dereth's own writers, so every test and the embedded demo run
// without proprietary data. Only the DIDs come from the seeds; every byte is
// made up here. The output is byte-identical on every run.

#include <array>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/dat/gfx_obj.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::demo {

using dat::Did;

// PlayScript values (the typed-effect enum of F755 and PhysicsScriptTables).
// Appends the solid box lo..hi to `g`'s physics BSP: its six outward faces
// as physics polygons and a chain of face nodes in pre-order, each with an
// empty leaf in front and the next face behind, the solid leaf last (every
// node's sphere encloses the box). Returns the chain's first node.
std::int32_t add_solid_box(dat::GfxObj& g, glm::vec3 lo, glm::vec3 hi);

namespace play_script {
inline constexpr std::uint32_t Launch = 0x04;
inline constexpr std::uint32_t Explode = 0x05;
inline constexpr std::uint32_t Create = 0x58;
inline constexpr std::uint32_t Destroy = 0x59;
inline constexpr std::uint32_t ProjectileCollision = 0x5A;
inline constexpr std::uint32_t UnHide = 0x75;
inline constexpr std::uint32_t Hidden = 0x76;
inline constexpr std::uint32_t DisappearDestroy = 0x77;
}  // namespace play_script

// Motion commands used by the demo's MotionTable.
namespace motion {
inline constexpr std::uint32_t NonCombat = 0x8000003D;
inline constexpr std::uint32_t Ready = 0x41000003;
inline constexpr std::uint32_t WalkForward = 0x45000005;
inline constexpr std::uint32_t RunForward = 0x44000007;
inline constexpr std::uint32_t TurnRight = 0x6500000D;
inline constexpr std::uint32_t SideStepRight = 0x6500000F;
inline constexpr std::uint32_t Falling = 0x40000015;
inline constexpr std::uint32_t Recall = 0x10000153;  // a motion command, not an Animation DID
}  // namespace motion

// The humanoid and its assets.
inline constexpr Did kHumanSetup = 0x02000001;
inline constexpr Did kHumanMotionTable = 0x09000001;
inline constexpr Did kHumanSoundTable = 0x20000001;
inline constexpr Did kHumanScriptTable = 0x34000004;  // UnHide/Hidden pair (seed 11.3)
inline constexpr Did kRecallAnimation = 0x030009BF;
inline constexpr Did kRecallEmitter = 0x3200078E;
inline constexpr std::uint32_t kRecallEmitterLogicalId = 19;
inline constexpr std::uint32_t kRecallEmitterFrame = 16;
inline constexpr std::array<std::uint32_t, 4> kRecallSoundFrames = {16, 46, 76, 116};
inline constexpr float kRecallFramerate = 9.96F;
inline constexpr Did kUnHideScript = 0x3300032F;
inline constexpr Did kHiddenScript = 0x33000331;

inline constexpr Did kTuskerFistSetup = 0x02000EAE;
inline constexpr Did kTuskerFistDefaultScript = 0x33000D77;
inline constexpr Did kTuskerFistEmitter = 0x3200071B;

// Blocking scripts 0x33000AEA..0x33000AF8 (seed 11.4).
inline constexpr Did kFirstBlockingScript = 0x33000AEA;
inline constexpr Did kLastBlockingScript = 0x33000AF8;

// The landblock of the demo and its region.
inline constexpr Did kLandBlock = 0xA9B4FFFF;
inline constexpr Did kLandBlockInfo = 0xA9B4FFFE;
inline constexpr Did kRegion = 0x13000000;
// The demo world is the 7 x 7 block of landblocks around kLandBlock, x
// 0xA6..0xAC and y 0xB1..0xB7. A server loads all eight neighbours of every
// landblock a player enters (on world entry and at each seam crossing), so
// the inner 5 x 5 are the blocks a player can walk into: two blocks out from
// the start in any direction. Only the centre has a LandBlockInfo; the others
// are terrain alone (hasObjects 0), continuous with it across every seam.
inline constexpr std::uint32_t kWorldWest = 0xA6;
inline constexpr std::uint32_t kWorldEast = 0xAC;
inline constexpr std::uint32_t kWorldSouth = 0xB1;
inline constexpr std::uint32_t kWorldNorth = 0xB7;

// What the collision rules need (docs/dat.md, "The synthetic demo world").
// The house: a LandBlockInfo building, GfxObj kHouseModel (drawing polygons
// and a physics BSP), over its one room, the EnvCell kRoomCell (Environment
// kRoomEnvironment, CellStruct 0), both at kRoomOrigin (block-local metres,
// no rotation). In that frame the room is 0..kRoomSide on x and y and
// 0..kRoomHeight up; the doorways, in the south (y 0) and the north (y
// kRoomSide) wall, are x kDoorLow..kDoorHigh and 0..kDoorHeight up. The
// ground under it is flat at z 14; the floor is 2 cm above it.
inline constexpr Did kHouseModel = 0x01000040;
inline constexpr Did kRoomEnvironment = 0x0D000001;
inline constexpr Did kRoomCell = 0xA9B40100;
inline constexpr float kRoomOriginX = 111.0F;
inline constexpr float kRoomOriginY = 106.0F;
inline constexpr float kRoomOriginZ = 14.02F;
inline constexpr float kRoomSide = 6.0F;
inline constexpr float kRoomHeight = 3.0F;
inline constexpr float kDoorLow = 2.0F;
inline constexpr float kDoorHigh = 4.0F;
inline constexpr float kDoorHeight = 2.5F;
// The walkable slope south of the house: land cell 0xA9B40024 (x 96..120,
// y 72..96) rising from z 14 to z 22 southwards. The hill east of both:
// land cells 0xA9B4002C and 0xA9B4002D (x 120..144, y 72..120), rising east
// from x 120, steeper than walkable.
inline constexpr std::uint32_t kSlopeCell = 0xA9B40024;
inline constexpr std::uint32_t kSteepCell = 0xA9B4002C;
// Water: terrain type 16 (TERRAIN_SURF_CHAR: 16..20 are water) on the
// vertices (6..8, 6..8), so the land cells (6..7, 6..7) are wholly water.
inline constexpr std::uint32_t kWaterTerrainType = 16;
inline constexpr std::uint32_t kWaterCell = 0xA9B40037;  // cell (6, 6)

// The dungeon, laid out as retail lays dungeons out (docs/dat.md, "The
// dungeon"): landblock kDungeonLandBlock, far from the town (0x01 0x12
// against 0xA9 0xB4), whose LandBlock is flat at height 0 with no scenery
// and whose LandBlockInfo has no objects and no buildings, only numCells
// EnvCells 0x01120100.., none SeenOutside, each a box over its own CellStruct
// of Environment kDungeonEnvironment (floor, walls and ceiling facing in, as
// drawing and physics polygons; the doorways its portals), joined to the
// next by CellPortals and listing every other dungeon cell as visible. The
// rooms, in order: the entry hall, a corridor east, the great hall, a
// corridor north and the shrine. In each cell's frame (block-local
// `origin`, no rotation) the box is 0..size; the floors are at
// kDungeonFloorZ, 20 m under the flat ground.
struct DungeonRoom {
  Did cell;
  glm::vec3 origin;
  glm::vec3 size;
};
inline constexpr Did kDungeonLandBlock = 0x0112FFFF;
inline constexpr Did kDungeonLandBlockInfo = 0x0112FFFE;
inline constexpr Did kDungeonEnvironment = 0x0D000002;
inline constexpr float kDungeonFloorZ = -20.0F;
inline constexpr std::array<DungeonRoom, 5> kDungeonRooms = {{
    {0x01120100, {60.0F, 80.0F, kDungeonFloorZ}, {10.0F, 10.0F, 4.0F}},   // the entry hall
    {0x01120101, {70.0F, 83.5F, kDungeonFloorZ}, {14.0F, 3.0F, 3.0F}},    // the corridor east
    {0x01120102, {84.0F, 77.0F, kDungeonFloorZ}, {14.0F, 16.0F, 5.0F}},   // the great hall
    {0x01120103, {89.5F, 93.0F, kDungeonFloorZ}, {3.0F, 12.0F, 3.0F}},    // the corridor north
    {0x01120104, {85.0F, 105.0F, kDungeonFloorZ}, {12.0F, 10.0F, 4.0F}},  // the shrine
}};
inline constexpr Did kDungeonEntryCell = kDungeonRooms[0].cell;
inline constexpr Did kDungeonHallCell = kDungeonRooms[2].cell;
// The portal's look (docs/dat.md, "The portal"): a Setup of a swirling
// violet disc between two stone posts, facing along its y axis, with a
// violet light; no collision shape of its own beyond its cylinder (portals
// are ethereal: the server moves whoever walks into one).
inline constexpr Did kPortalSetup = 0x02000110;
// The dungeon's torches: a post with a flame and a warm light.
inline constexpr Did kTorchSetup = 0x02000111;

struct ProjectileKind {
  std::uint32_t wcid;
  std::string_view name;
  Did setup;
  Did script_table;
  dat::Sphere sphere;  // Setup-local collision sphere (seed 11.1)
};
inline constexpr std::array<ProjectileKind, 10> kProjectiles = {{
    {300, "Arrow", 0x02000124, 0x3400002B, {{0, 0, 0}, 0.10F}},
    {305, "Quarrel", 0x0200012A, 0x3400002B, {{0, 0, 0}, 0.10F}},
    {7276, "Acid Stream", 0x020003F6, 0x34000082, {{0, 0, 0}, 0.10F}},
    {7277, "Flame Bolt", 0x0200040D, 0x34000005, {{0, 0, 0}, 0.10F}},
    {7278, "Force Bolt", 0x0200087D, 0, {{0, -0.165F, 0.1045F}, 0.102F}},
    {7279, "Frost Bolt", 0x020003F4, 0x34000080, {{0, 0, 0}, 0.10F}},
    {7280, "Lightning Bolt", 0x02000880, 0x34000081, {{0, 0, 0}, 0.15F}},
    {7281, "Shockwave", 0x020003FA, 0, {{0, 0, 0}, 0.10F}},
    {7282, "Whirling Blade", 0x020003FC, 0, {{0, 0, 0}, 0.10F}},
    {23144, "Tusker Fist", 0x02000EAE, 0, {{0, 0, 0}, 0.10F}},
}};

struct DemoWorld {
  std::vector<std::uint8_t> portal;  // client_portal.dat
  std::vector<std::uint8_t> cell;    // client_cell_1.dat
};

// Builds both files in memory.
core::Result<DemoWorld> build_demo_world();
// Writes client_portal.dat and client_cell_1.dat into `folder` (created if
// needed), each atomically.
core::Result<void> write_demo_world(const std::filesystem::path& folder);

}  // namespace dereth::demo
