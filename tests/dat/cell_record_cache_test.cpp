// CellRecordCache: the cell DAT's LandBlocks, LandBlockInfos and EnvCells,
// each handed to every asker while someone holds it, read again once no one
// does, an absent one nothing (not missing), a broken one refused and listed.
#include "dereth/dat/cell_record_cache.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "dereth/dat/dat_writer.hpp"

using namespace dereth::dat;

namespace {

constexpr Did kBlock = 0xA9B4FFFF;
constexpr Did kInfo = 0xA9B4FFFE;
constexpr Did kCell = 0xA9B40100;

LandBlock sample_block() {
  LandBlock b;
  b.id = kBlock;
  b.has_objects = 1;
  b.height[0] = 7;
  return b;
}

LandBlockInfo sample_info() {
  LandBlockInfo i;
  i.id = kInfo;
  i.num_cells = 1;
  return i;
}

EnvCell sample_cell() {
  EnvCell c;
  c.id = kCell;
  c.environment_id = 0x0123;
  return c;
}

DatFile cell_dat(const std::vector<std::pair<Did, std::vector<std::uint8_t>>>& records) {
  DatWriter writer;
  for (const auto& [id, bytes] : records) writer.add(id, bytes);
  auto bytes = writer.build();
  REQUIRE(bytes.has_value());
  auto file = DatFile::from_bytes(std::move(*bytes), "test cell");
  REQUIRE(file.has_value());
  return std::move(*file);
}

}  // namespace

TEST_CASE("CellRecordCache hands a held record to every asker and reads it again once no one holds it",
          "[dat][cell_record_cache]") {
  const DatFile dat = cell_dat({{kBlock, write_land_block(sample_block())},
                                {kInfo, write_land_block_info(sample_info())},
                                {kCell, write_env_cell(sample_cell())}});
  CellRecordCache cache(&dat);

  auto block = cache.land_block(kBlock);
  REQUIRE(block != nullptr);
  CHECK(*block == sample_block());
  auto info = cache.land_block_info(kInfo);
  REQUIRE(info != nullptr);
  CHECK(info->num_cells == 1);
  auto cell = cache.env_cell(kCell);
  REQUIRE(cell != nullptr);
  CHECK(cell->environment_did() == 0x0D000123u);
  CHECK(cache.reads() == 3);

  // While held: the same decoded record, no second read.
  CHECK(cache.land_block(kBlock) == block);
  CHECK(cache.land_block_info(kInfo) == info);
  CHECK(cache.env_cell(kCell) == cell);
  CHECK(cache.reads() == 3);

  // Let go by everyone: read and decoded again when next asked (the cache
  // keeps nothing alive by itself).
  block.reset();
  auto again = cache.land_block(kBlock);
  REQUIRE(again != nullptr);
  CHECK(*again == sample_block());
  CHECK(cache.reads() == 4);
  CHECK(cache.missing().empty());

  // An id asked for as another kind is its own lookup: the LandBlock's id is
  // not an EnvCell, and the answer is not the LandBlock's record.
  CHECK(cache.env_cell(kBlock) == nullptr);
  REQUIRE(cache.missing().size() == 1);
  CHECK(cache.missing()[0].kind == "EnvCell");
}

TEST_CASE("CellRecordCache: an absent record is nothing there, never missing and never read again",
          "[dat][cell_record_cache]") {
  const DatFile dat = cell_dat({});
  CellRecordCache cache(&dat);
  CHECK(cache.land_block(kBlock) == nullptr);
  CHECK(cache.land_block(kBlock) == nullptr);
  CHECK(cache.land_block_info(kInfo) == nullptr);
  CHECK(cache.env_cell(kCell) == nullptr);
  CHECK(cache.reads() == 0);
  CHECK(cache.missing().empty());

  // No cell DAT: nothing, and nothing counted.
  CellRecordCache none(nullptr);
  CHECK(none.land_block(kBlock) == nullptr);
  CHECK(none.reads() == 0);
  CHECK(none.missing().empty());
}

TEST_CASE("CellRecordCache refuses a truncated record of each kind once, listed with why", "[dat][cell_record_cache]") {
  const std::vector<std::pair<Did, std::vector<std::uint8_t>>> all = {{kBlock, write_land_block(sample_block())},
                                                                      {kInfo, write_land_block_info(sample_info())},
                                                                      {kCell, write_env_cell(sample_cell())}};
  for (const auto& [id, bytes] : all) {
    for (std::size_t cut = 0; cut < bytes.size(); ++cut) {
      INFO(std::hex << id << " cut at " << std::dec << cut << " of " << bytes.size());
      const DatFile dat =
          cell_dat({{id, std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(cut))}});
      CellRecordCache cache(&dat);
      const auto ask = [&] {
        if (id == kBlock) return cache.land_block(id) != nullptr;
        if (id == kInfo) return cache.land_block_info(id) != nullptr;
        return cache.env_cell(id) != nullptr;
      };
      CHECK_FALSE(ask());
      REQUIRE(cache.missing().size() == 1);
      CHECK(cache.missing()[0].id == id);
      CHECK_FALSE(cache.missing()[0].why.empty());
      // Refused once: not read again.
      CHECK_FALSE(ask());
      CHECK(cache.reads() == 1);
      CHECK(cache.missing().size() == 1);
    }
  }
}
