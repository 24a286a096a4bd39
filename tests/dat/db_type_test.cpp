#include "dereth/dat/db_type.hpp"

#include <catch2/catch.hpp>

#include <string>

using namespace dereth::dat;

namespace {

struct Range {
  Did first;
  Did last;
  DbType type;
};

// spec/dat-format.md section 2: every range, checked at both ends, one past
// each end where that is a different type, and in the middle.
void check_ranges(DatKind kind, std::initializer_list<Range> ranges) {
  for (const auto& r : ranges) {
    INFO(std::string(db_type_name(r.type)) << " in " << dat_kind_name(kind));
    CHECK(db_type_of(r.first, kind) == r.type);
    CHECK(db_type_of(r.last, kind) == r.type);
    CHECK(db_type_of(r.first + (r.last - r.first) / 2, kind) == r.type);
  }
}

}  // namespace

TEST_CASE("db_type: portal ranges (spec section 2)", "[dat][db_type]") {
  check_ranges(DatKind::Portal, {
                                    {0x01000000, 0x0100FFFF, DbType::GfxObj},
                                    {0x02000000, 0x0200FFFF, DbType::Setup},
                                    {0x03000000, 0x0300FFFF, DbType::Animation},
                                    {0x04000000, 0x0400FFFF, DbType::Palette},
                                    {0x05000000, 0x05FFFFFF, DbType::SurfaceTexture},
                                    {0x06000000, 0x07FFFFFF, DbType::RenderSurface},
                                    {0x08000000, 0x0800FFFF, DbType::Surface},
                                    {0x09000000, 0x0900FFFF, DbType::MotionTable},
                                    {0x0A000000, 0x0A00FFFF, DbType::Wave},
                                    {0x0D000000, 0x0D00FFFF, DbType::Environment},
                                    {0x0E010000, 0x0E01FFFF, DbType::QualityFilter},
                                    {0x0E020000, 0x0E02FFFF, DbType::MonitoredProperties},
                                    {0x0F000000, 0x0F00FFFF, DbType::PaletteSet},
                                    {0x10000000, 0x1000FFFF, DbType::ClothingTable},
                                    {0x11000000, 0x1100FFFF, DbType::GfxObjDegradeInfo},
                                    {0x12000000, 0x1200FFFF, DbType::Scene},
                                    {0x13000000, 0x1300FFFF, DbType::Region},
                                    {0x14000000, 0x1400FFFF, DbType::Keymap},
                                    {0x15000000, 0x15FFFFFF, DbType::RenderTexture},
                                    {0x16000000, 0x16FFFFFF, DbType::RenderMaterial},
                                    {0x17000000, 0x17FFFFFF, DbType::MaterialModifier},
                                    {0x18000000, 0x18FFFFFF, DbType::MaterialInstance},
                                    {0x19000000, 0x19FFFFFF, DbType::RenderMesh},
                                    {0x20000000, 0x2000FFFF, DbType::SoundTable},
                                    {0x22000000, 0x22FFFFFF, DbType::EnumMapper},
                                    {0x25000000, 0x25FFFFFF, DbType::DidMapper},
                                    {0x26000000, 0x2600FFFF, DbType::ActionMap},
                                    {0x27000000, 0x27FFFFFF, DbType::DualDidMapper},
                                    {0x30000000, 0x3000FFFF, DbType::CombatTable},
                                    {0x31000000, 0x3100FFFF, DbType::LanguageString},
                                    {0x32000000, 0x3200FFFF, DbType::ParticleEmitterInfo},
                                    {0x33000000, 0x3300FFFF, DbType::PhysicsScript},
                                    {0x34000000, 0x3400FFFF, DbType::PhysicsScriptTable},
                                    {0x39000000, 0x39FFFFFF, DbType::MasterProperty},
                                    {0x40000000, 0x40000FFF, DbType::Font},
                                    {0x78000000, 0x7FFFFFFF, DbType::DbProperties},
                                });
  // The single 0x0E0000xx tables.
  const std::pair<Did, DbType> singles[] = {
      {0x0E000002, DbType::CharGen},
      {0x0E000003, DbType::VitalTable},
      {0x0E000004, DbType::SkillTable},
      {0x0E000007, DbType::ChatPoseTable},
      {0x0E00000D, DbType::ObjectHierarchy},
      {0x0E00000E, DbType::SpellTable},
      {0x0E00000F, DbType::SpellComponentTable},
      {0x0E000018, DbType::XpTable},
      {0x0E00001A, DbType::BadData},
      {0x0E00001D, DbType::ContractTable},
      {0x0E00001E, DbType::TabooTable},
      {0x0E00001F, DbType::File2IdTable},
      {0x0E000020, DbType::NameFilterTable},
  };
  for (const auto& [id, type] : singles) CHECK(db_type_of(id, DatKind::Portal) == type);

  // Just outside the 16-bit ranges, and ids no range claims.
  for (Did id : {0x00000000U, 0x00FFFFFFU, 0x01010000U, 0x0200FFFFU + 1, 0x0B000000U, 0x0C000001U, 0x0E000001U,
                 0x0E000005U, 0x0E000021U, 0x0E030000U, 0x1A000000U,     0x21000000U, 0x23000000U, 0x40001000U,
                 0x41000000U, 0x77FFFFFFU, 0x80000000U, 0xFFFFFFFFU,     0xFFFF0000U, 0xFFFF0002U}) {
    INFO(std::hex << id);
    CHECK(db_type_of(id, DatKind::Portal) == DbType::Unknown);
  }
  CHECK(db_type_of(0xFFFF0001, DatKind::Portal) == DbType::Iteration);
}

TEST_CASE("db_type: highres uses the portal table", "[dat][db_type]") {
  CHECK(db_type_of(0x060043BE, DatKind::HighRes) == DbType::RenderSurface);
  CHECK(db_type_of(0x01000001, DatKind::HighRes) == DbType::GfxObj);
  CHECK(db_type_of(0xFFFF0001, DatKind::HighRes) == DbType::Iteration);
}

TEST_CASE("db_type: local ranges", "[dat][db_type]") {
  check_ranges(DatKind::Local, {
                                   {0x21000000, 0x21FFFFFF, DbType::LayoutDesc},
                                   {0x23000000, 0x24FFFFFF, DbType::StringTable},
                                   {0x40001000, 0x40FFFFFF, DbType::FontLocal},
                                   {0x41000000, 0x41FFFFFF, DbType::LanguageInfo},
                               });
  CHECK(db_type_of(0x40000FFF, DatKind::Local) == DbType::Unknown);
  CHECK(db_type_of(0x01000001, DatKind::Local) == DbType::Unknown);
  CHECK(db_type_of(0x22000000, DatKind::Local) == DbType::Unknown);
  CHECK(db_type_of(0xFFFF0001, DatKind::Local) == DbType::Iteration);
}

TEST_CASE("db_type: cell ids 0xXXYYnnnn", "[dat][db_type]") {
  for (Did block : {0x00000000U, 0xA9B40000U, 0xFEFE0000U, 0x7F000000U, 0x00FE0000U}) {
    INFO(std::hex << block);
    CHECK(db_type_of(block | 0xFFFFU, DatKind::Cell) == DbType::LandBlock);
    CHECK(db_type_of(block | 0xFFFEU, DatKind::Cell) == DbType::LandBlockInfo);
    CHECK(db_type_of(block | 0x0100U, DatKind::Cell) == DbType::EnvCell);
    CHECK(db_type_of(block | 0x0101U, DatKind::Cell) == DbType::EnvCell);
    CHECK(db_type_of(block | 0x8000U, DatKind::Cell) == DbType::EnvCell);
    CHECK(db_type_of(block | 0xFFFDU, DatKind::Cell) == DbType::EnvCell);
    CHECK(db_type_of(block | 0x0001U, DatKind::Cell) == DbType::LandCell);
    CHECK(db_type_of(block | 0x0040U, DatKind::Cell) == DbType::LandCell);
    CHECK(db_type_of(block | 0x0000U, DatKind::Cell) == DbType::Unknown);
    CHECK(db_type_of(block | 0x0041U, DatKind::Cell) == DbType::Unknown);
    CHECK(db_type_of(block | 0x00FFU, DatKind::Cell) == DbType::Unknown);
  }
  // The landblock id the client builds from cell-grid coordinates (spec 2).
  const std::uint32_t gx = 0xA9 * 8 + 3;
  const std::uint32_t gy = 0xB4 * 8 + 5;
  const Did landblock = ((((gx >> 3) << 8) | (gy >> 3)) << 16) | 0xFFFF;
  CHECK(landblock == 0xA9B4FFFF);
  CHECK(db_type_of(landblock, DatKind::Cell) == DbType::LandBlock);
  // x or y of 0xFF is not a landblock; 0xFFFF0001 is the iteration record.
  CHECK(db_type_of(0xFF00FFFF, DatKind::Cell) == DbType::Unknown);
  CHECK(db_type_of(0x00FFFFFF, DatKind::Cell) == DbType::Unknown);
  CHECK(db_type_of(0xFFFF0001, DatKind::Cell) == DbType::Iteration);
  // Portal ids mean something else in the cell dat.
  CHECK(db_type_of(0x0100FFFF, DatKind::Cell) == DbType::LandBlock);
  CHECK(db_type_of(0x0100FFFF, DatKind::Portal) == DbType::GfxObj);
}

TEST_CASE("db_type: names and kinds", "[dat][db_type]") {
  CHECK(db_type_name(DbType::GfxObj) == "GfxObj");
  CHECK(db_type_name(DbType::RenderSurface) == "RenderSurface");
  CHECK(db_type_name(DbType::LandBlockInfo) == "LandBlockInfo");
  CHECK(db_type_name(DbType::EnvCell) == "EnvCell");
  CHECK(db_type_name(DbType::Iteration) == "Iteration");
  CHECK(db_type_name(DbType::Unknown) == "Unknown");
  for (int t = 0; t <= static_cast<int>(DbType::Unknown); ++t) {
    CHECK_FALSE(db_type_name(static_cast<DbType>(t)).empty());
  }
  CHECK(dat_kind_from_header(1, 0) == DatKind::Portal);
  CHECK(dat_kind_from_header(1, 0x69466948) == DatKind::HighRes);
  CHECK(dat_kind_from_header(2, 1) == DatKind::Cell);
  CHECK(dat_kind_from_header(3, 1) == DatKind::Local);
  CHECK_FALSE(dat_kind_from_header(0, 0).has_value());
  CHECK_FALSE(dat_kind_from_header(4, 0).has_value());
}
