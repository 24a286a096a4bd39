// libFuzzer target over the DAT record decoders and the container reader.
// The first byte picks the record type (or the container); the rest is the
// record. Every decoder must return a value or an error, never crash; a record
// that decodes must re-encode and decode to the same JSON.
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/db_type.hpp"
#include "dereth/dat/records.hpp"

namespace {

using dereth::dat::DbType;

constexpr DbType kTypes[] = {
    DbType::GfxObj,       DbType::Setup,          DbType::Animation,  DbType::Palette,
    DbType::SurfaceTexture, DbType::RenderSurface, DbType::Surface,   DbType::MotionTable,
    DbType::Wave,         DbType::Environment,    DbType::PaletteSet, DbType::Region,
    DbType::SoundTable,   DbType::ParticleEmitterInfo, DbType::PhysicsScript, DbType::PhysicsScriptTable,
    DbType::LandBlock,    DbType::LandBlockInfo,  DbType::EnvCell,    DbType::Iteration,
    // Appended, so the older corpus files keep their picks.
    DbType::CharGen,      DbType::VitalTable,     DbType::SkillTable, DbType::SpellTable,
    DbType::SpellComponentTable, DbType::XpTable, DbType::QualityFilter,
};
constexpr std::size_t kTypeCount = sizeof(kTypes) / sizeof(kTypes[0]);

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::span<const std::uint8_t> body(data + 1, size - 1);
  const std::size_t pick = data[0];
  if (pick >= kTypeCount) {
    // The container: open the bytes as a DAT file, enumerate and read every entry.
    auto file = dereth::dat::DatFile::from_bytes(std::vector<std::uint8_t>(body.begin(), body.end()), "fuzz.dat");
    if (!file) {
      if (file.error().message().empty()) std::abort();
      return 0;
    }
    auto entries = file->entries();
    if (!entries) return 0;
    for (const auto& e : *entries) {
      auto bytes = file->read(e);
      if (bytes) (void)dereth::dat::decode_record(e.id, dereth::dat::db_type_of(e.id, dereth::dat::DatKind::Portal), *bytes);
    }
    return 0;
  }
  const DbType type = kTypes[pick];
  // The record's own id: what its first u32 says (records must name themselves).
  std::uint32_t id = 0;
  if (body.size() >= 4) id = body[0] | (body[1] << 8) | (body[2] << 16) | (static_cast<std::uint32_t>(body[3]) << 24);
  if (type == DbType::Surface) id = 0x08000001;  // Surface records carry no id
  if (type == DbType::Iteration) id = dereth::dat::kIterationId;
  auto json = dereth::dat::record_json(id, type, body);
  if (!json && json.error().message().empty()) std::abort();
  return 0;
}
