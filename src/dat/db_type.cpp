#include "dereth/dat/db_type.hpp"

namespace dereth::dat {

namespace {

constexpr bool in_range(Did id, Did first, Did last) noexcept {
  return id >= first && id <= last;
}

// spec/dat-format.md section 2, portal table (DataSet 1).
DbType portal_type(Did id) noexcept {
  const auto high = id >> 24U;
  switch (high) {
    case 0x01: return in_range(id, 0x01000000U, 0x0100FFFFU) ? DbType::GfxObj : DbType::Unknown;
    case 0x02: return in_range(id, 0x02000000U, 0x0200FFFFU) ? DbType::Setup : DbType::Unknown;
    case 0x03: return in_range(id, 0x03000000U, 0x0300FFFFU) ? DbType::Animation : DbType::Unknown;
    case 0x04: return in_range(id, 0x04000000U, 0x0400FFFFU) ? DbType::Palette : DbType::Unknown;
    case 0x05: return DbType::SurfaceTexture;
    case 0x06:
    case 0x07: return DbType::RenderSurface;
    case 0x08: return in_range(id, 0x08000000U, 0x0800FFFFU) ? DbType::Surface : DbType::Unknown;
    case 0x09: return in_range(id, 0x09000000U, 0x0900FFFFU) ? DbType::MotionTable : DbType::Unknown;
    case 0x0A: return in_range(id, 0x0A000000U, 0x0A00FFFFU) ? DbType::Wave : DbType::Unknown;
    case 0x0D: return in_range(id, 0x0D000000U, 0x0D00FFFFU) ? DbType::Environment : DbType::Unknown;
    case 0x0E:
      switch (id) {
        case 0x0E000002U: return DbType::CharGen;
        case 0x0E000003U: return DbType::VitalTable;
        case 0x0E000004U: return DbType::SkillTable;
        case 0x0E000007U: return DbType::ChatPoseTable;
        case 0x0E00000DU: return DbType::ObjectHierarchy;
        case 0x0E00000EU: return DbType::SpellTable;
        case 0x0E00000FU: return DbType::SpellComponentTable;
        case 0x0E000018U: return DbType::XpTable;
        case 0x0E00001AU: return DbType::BadData;
        case 0x0E00001DU: return DbType::ContractTable;
        case 0x0E00001EU: return DbType::TabooTable;
        case 0x0E00001FU: return DbType::File2IdTable;
        case 0x0E000020U: return DbType::NameFilterTable;
        default: break;
      }
      if (in_range(id, 0x0E010000U, 0x0E01FFFFU)) return DbType::QualityFilter;
      if (in_range(id, 0x0E020000U, 0x0E02FFFFU)) return DbType::MonitoredProperties;
      return DbType::Unknown;
    case 0x0F: return in_range(id, 0x0F000000U, 0x0F00FFFFU) ? DbType::PaletteSet : DbType::Unknown;
    case 0x10: return in_range(id, 0x10000000U, 0x1000FFFFU) ? DbType::ClothingTable : DbType::Unknown;
    case 0x11: return in_range(id, 0x11000000U, 0x1100FFFFU) ? DbType::GfxObjDegradeInfo : DbType::Unknown;
    case 0x12: return in_range(id, 0x12000000U, 0x1200FFFFU) ? DbType::Scene : DbType::Unknown;
    case 0x13: return in_range(id, 0x13000000U, 0x1300FFFFU) ? DbType::Region : DbType::Unknown;
    case 0x14: return in_range(id, 0x14000000U, 0x1400FFFFU) ? DbType::Keymap : DbType::Unknown;
    case 0x15: return DbType::RenderTexture;
    case 0x16: return DbType::RenderMaterial;
    case 0x17: return DbType::MaterialModifier;
    case 0x18: return DbType::MaterialInstance;
    case 0x19: return DbType::RenderMesh;
    case 0x20: return in_range(id, 0x20000000U, 0x2000FFFFU) ? DbType::SoundTable : DbType::Unknown;
    case 0x22: return DbType::EnumMapper;
    case 0x25: return DbType::DidMapper;
    case 0x26: return in_range(id, 0x26000000U, 0x2600FFFFU) ? DbType::ActionMap : DbType::Unknown;
    case 0x27: return DbType::DualDidMapper;
    case 0x30: return in_range(id, 0x30000000U, 0x3000FFFFU) ? DbType::CombatTable : DbType::Unknown;
    case 0x31: return in_range(id, 0x31000000U, 0x3100FFFFU) ? DbType::LanguageString : DbType::Unknown;
    case 0x32: return in_range(id, 0x32000000U, 0x3200FFFFU) ? DbType::ParticleEmitterInfo : DbType::Unknown;
    case 0x33: return in_range(id, 0x33000000U, 0x3300FFFFU) ? DbType::PhysicsScript : DbType::Unknown;
    case 0x34: return in_range(id, 0x34000000U, 0x3400FFFFU) ? DbType::PhysicsScriptTable : DbType::Unknown;
    case 0x39: return DbType::MasterProperty;
    case 0x40: return in_range(id, 0x40000000U, 0x40000FFFU) ? DbType::Font : DbType::Unknown;
    default: break;
  }
  if (in_range(id, 0x78000000U, 0x7FFFFFFFU)) return DbType::DbProperties;
  return DbType::Unknown;
}

// Local dat (DataSet 3).
DbType local_type(Did id) noexcept {
  const auto high = id >> 24U;
  switch (high) {
    case 0x21: return DbType::LayoutDesc;
    case 0x23:
    case 0x24: return DbType::StringTable;
    case 0x40: return in_range(id, 0x40001000U, 0x40FFFFFFU) ? DbType::FontLocal : DbType::Unknown;
    case 0x41: return DbType::LanguageInfo;
    default: return DbType::Unknown;
  }
}

// Cell dat (DataSet 2): 0xXXYYnnnn with XX, YY in 0..0xFE.
DbType cell_type(Did id) noexcept {
  const auto x = id >> 24U;
  const auto y = (id >> 16U) & 0xFFU;
  if (x == 0xFFU || y == 0xFFU) return DbType::Unknown;
  const auto low = id & 0xFFFFU;
  if (low == 0xFFFFU) return DbType::LandBlock;
  if (low == 0xFFFEU) return DbType::LandBlockInfo;
  if (low >= 0x0100U) return DbType::EnvCell;  // 0x0100..0xFFFD
  if (low >= 0x0001U && low <= 0x0040U) return DbType::LandCell;
  return DbType::Unknown;
}

}  // namespace

DbType db_type_of(Did id, DatKind kind) noexcept {
  if (id == kIterationId) return DbType::Iteration;
  switch (kind) {
    case DatKind::Portal:
    case DatKind::HighRes: return portal_type(id);
    case DatKind::Cell: return cell_type(id);
    case DatKind::Local: return local_type(id);
  }
  return DbType::Unknown;
}

std::string_view db_type_name(DbType type) noexcept {
  switch (type) {
    case DbType::GfxObj: return "GfxObj";
    case DbType::Setup: return "Setup";
    case DbType::Animation: return "Animation";
    case DbType::Palette: return "Palette";
    case DbType::SurfaceTexture: return "SurfaceTexture";
    case DbType::RenderSurface: return "RenderSurface";
    case DbType::Surface: return "Surface";
    case DbType::MotionTable: return "MotionTable";
    case DbType::Wave: return "Wave";
    case DbType::Environment: return "Environment";
    case DbType::CharGen: return "CharGen";
    case DbType::VitalTable: return "VitalTable";
    case DbType::SkillTable: return "SkillTable";
    case DbType::ChatPoseTable: return "ChatPoseTable";
    case DbType::ObjectHierarchy: return "ObjectHierarchy";
    case DbType::SpellTable: return "SpellTable";
    case DbType::SpellComponentTable: return "SpellComponentTable";
    case DbType::XpTable: return "XpTable";
    case DbType::BadData: return "BadData";
    case DbType::ContractTable: return "ContractTable";
    case DbType::TabooTable: return "TabooTable";
    case DbType::File2IdTable: return "File2IdTable";
    case DbType::NameFilterTable: return "NameFilterTable";
    case DbType::QualityFilter: return "QualityFilter";
    case DbType::MonitoredProperties: return "MonitoredProperties";
    case DbType::PaletteSet: return "PaletteSet";
    case DbType::ClothingTable: return "ClothingTable";
    case DbType::GfxObjDegradeInfo: return "GfxObjDegradeInfo";
    case DbType::Scene: return "Scene";
    case DbType::Region: return "Region";
    case DbType::Keymap: return "Keymap";
    case DbType::RenderTexture: return "RenderTexture";
    case DbType::RenderMaterial: return "RenderMaterial";
    case DbType::MaterialModifier: return "MaterialModifier";
    case DbType::MaterialInstance: return "MaterialInstance";
    case DbType::RenderMesh: return "RenderMesh";
    case DbType::SoundTable: return "SoundTable";
    case DbType::EnumMapper: return "EnumMapper";
    case DbType::DidMapper: return "DidMapper";
    case DbType::ActionMap: return "ActionMap";
    case DbType::DualDidMapper: return "DualDidMapper";
    case DbType::CombatTable: return "CombatTable";
    case DbType::LanguageString: return "LanguageString";
    case DbType::ParticleEmitterInfo: return "ParticleEmitterInfo";
    case DbType::PhysicsScript: return "PhysicsScript";
    case DbType::PhysicsScriptTable: return "PhysicsScriptTable";
    case DbType::MasterProperty: return "MasterProperty";
    case DbType::Font: return "Font";
    case DbType::DbProperties: return "DbProperties";
    case DbType::LayoutDesc: return "LayoutDesc";
    case DbType::StringTable: return "StringTable";
    case DbType::FontLocal: return "FontLocal";
    case DbType::LanguageInfo: return "LanguageInfo";
    case DbType::LandBlock: return "LandBlock";
    case DbType::LandBlockInfo: return "LandBlockInfo";
    case DbType::EnvCell: return "EnvCell";
    case DbType::LandCell: return "LandCell";
    case DbType::Iteration: return "Iteration";
    case DbType::Unknown: return "Unknown";
  }
  return "Unknown";
}

std::string_view dat_kind_name(DatKind kind) noexcept {
  switch (kind) {
    case DatKind::Portal: return "portal";
    case DatKind::Cell: return "cell";
    case DatKind::HighRes: return "highres";
    case DatKind::Local: return "local";
  }
  return "unknown";
}

std::optional<DatKind> dat_kind_from_header(std::uint32_t data_set, std::uint32_t data_subset) noexcept {
  switch (data_set) {
    case 1: return data_subset == 0x69466948U ? DatKind::HighRes : DatKind::Portal;
    case 2: return DatKind::Cell;
    case 3: return DatKind::Local;
    default: return std::nullopt;
  }
}

}  // namespace dereth::dat
