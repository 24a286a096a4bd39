#pragma once
// Object id -> record type for each of the four dats (spec/dat-format.md
// section 2). The mapping depends on which dat the id came from: the cell dat
// uses 0xXXYYnnnn landblock ids that overlap the portal ranges.

#include <cstdint>
#include <optional>
#include <string_view>

#include "dereth/dat/types.hpp"

namespace dereth::dat {

// Which dat a file is. Portal and HighRes share DataSet 1 (HighRes has the
// subset "HiFi"); Cell is DataSet 2; Local (client_local_English.dat) is 3.
enum class DatKind : std::uint8_t { Portal, Cell, HighRes, Local };

enum class DbType : std::uint8_t {
  // Portal dat (and HighRes, which uses the same table).
  GfxObj,               // 0x01000000-0x0100FFFF
  Setup,                // 0x02000000-0x0200FFFF
  Animation,            // 0x03000000-0x0300FFFF
  Palette,              // 0x04000000-0x0400FFFF
  SurfaceTexture,       // 0x05000000-0x05FFFFFF (ImgTex)
  RenderSurface,        // 0x06000000-0x07FFFFFF
  Surface,              // 0x08000000-0x0800FFFF
  MotionTable,          // 0x09000000-0x0900FFFF
  Wave,                 // 0x0A000000-0x0A00FFFF
  Environment,          // 0x0D000000-0x0D00FFFF
  CharGen,              // 0x0E000002
  VitalTable,           // 0x0E000003
  SkillTable,           // 0x0E000004
  ChatPoseTable,        // 0x0E000007
  ObjectHierarchy,      // 0x0E00000D
  SpellTable,           // 0x0E00000E
  SpellComponentTable,  // 0x0E00000F
  XpTable,              // 0x0E000018
  BadData,              // 0x0E00001A
  ContractTable,        // 0x0E00001D
  TabooTable,           // 0x0E00001E
  File2IdTable,         // 0x0E00001F
  NameFilterTable,      // 0x0E000020
  QualityFilter,        // 0x0E010000-0x0E01FFFF
  MonitoredProperties,  // 0x0E020000-0x0E02FFFF
  PaletteSet,           // 0x0F000000-0x0F00FFFF
  ClothingTable,        // 0x10000000-0x1000FFFF
  GfxObjDegradeInfo,    // 0x11000000-0x1100FFFF
  Scene,                // 0x12000000-0x1200FFFF
  Region,               // 0x13000000-0x1300FFFF
  Keymap,               // 0x14000000-0x1400FFFF (MasterInputMap)
  RenderTexture,        // 0x15xxxxxx
  RenderMaterial,       // 0x16xxxxxx
  MaterialModifier,     // 0x17xxxxxx
  MaterialInstance,     // 0x18xxxxxx
  RenderMesh,           // 0x19000000-0x19FFFFFF
  SoundTable,           // 0x20000000-0x2000FFFF
  EnumMapper,           // 0x22000000-0x22FFFFFF
  DidMapper,            // 0x25000000-0x25FFFFFF (EnumIDMap)
  ActionMap,            // 0x26000000-0x2600FFFF
  DualDidMapper,        // 0x27000000-0x27FFFFFF
  CombatTable,          // 0x30000000-0x3000FFFF
  LanguageString,       // 0x31000000-0x3100FFFF
  ParticleEmitterInfo,  // 0x32000000-0x3200FFFF
  PhysicsScript,        // 0x33000000-0x3300FFFF
  PhysicsScriptTable,   // 0x34000000-0x3400FFFF
  MasterProperty,       // 0x39000000-0x39FFFFFF
  Font,                 // 0x40000000-0x40000FFF
  DbProperties,         // 0x78000000-0x7FFFFFFF
  // Local dat.
  LayoutDesc,    // 0x21xxxxxx
  StringTable,   // 0x23000000-0x24FFFFFF
  FontLocal,     // 0x40001000-0x40FFFFFF
  LanguageInfo,  // 0x41xxxxxx (StringState / LanguageInfo)
  // Cell dat (0xXXYYnnnn, XX and YY in 0..0xFE).
  LandBlock,      // 0xXXYYFFFF
  LandBlockInfo,  // 0xXXYYFFFE
  EnvCell,        // 0xXXYY0100-0xXXYYFFFD
  LandCell,       // 0xXXYY0001-0xXXYY0040: outdoor cells, never stored (derived from the LandBlock)
  // Every dat.
  Iteration,  // 0xFFFF0001
  Unknown,    // an id outside every range of its dat
};

// The type of object `id` in a dat of kind `kind`.
[[nodiscard]] DbType db_type_of(Did id, DatKind kind) noexcept;

// "GfxObj", "RenderSurface", "LandBlockInfo", ... ("Unknown" for Unknown).
[[nodiscard]] std::string_view db_type_name(DbType type) noexcept;

// "portal", "cell", "highres", "local".
[[nodiscard]] std::string_view dat_kind_name(DatKind kind) noexcept;

// The kind named by a header's data_set_lm / data_subset_lm (spec 1.1):
// 1 -> Portal (HighRes when the subset is 0x69466948 "HiFi"), 2 -> Cell,
// 3 -> Local; anything else -> nullopt.
[[nodiscard]] std::optional<DatKind> dat_kind_from_header(std::uint32_t data_set, std::uint32_t data_subset) noexcept;

// The id of the iteration record present in every dat.
inline constexpr Did kIterationId = 0xFFFF0001U;

}  // namespace dereth::dat
