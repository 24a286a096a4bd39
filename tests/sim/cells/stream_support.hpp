// The streaming tests' DATs (docs/streaming.md): a 5 x 5 of flat landblocks
// about A9B4, a dungeon block far from them with one EnvCell, and a corrupt
// landblock; a LandblockStreamer over them whose builds a ManualExecutor
// holds until the test runs them.
#pragma once

#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "dereth/dat/cell_record_cache.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/sim/cells/landblock_streamer.hpp"
#include "dereth/sim/cells/stream_executor.hpp"

#include "cells/dat_cells_support.hpp"

namespace dereth::sim::test {

inline constexpr dat::Did kEnvironment = 0x0D000100;
inline constexpr std::uint32_t kCentre = 0xA9B40000;   // the outdoor grid's centre block
inline constexpr std::uint32_t kDungeon = 0x01020000;  // far from it: a dungeon block
inline constexpr std::uint32_t kDungeonCell = 0x01020100;
inline constexpr std::uint32_t kCorrupt = 0x05050000;  // a LandBlock record that does not read

inline dat::LandBlock flat_block(std::uint32_t key, std::uint8_t height) {
  dat::LandBlock b;
  b.id = key | 0xFFFFu;
  for (auto& h : b.height) h = height;
  return b;
}

inline std::uint32_t block(int x, int y) {
  return (static_cast<std::uint32_t>(x) << 24) | (static_cast<std::uint32_t>(y) << 16);
}

// A 5 x 5 of flat blocks about A9B4, each at its own height (block (x, y) at
// height index x - 0xA7 + 5 (y - 0xB2), 2 m a step), the
// dungeon block with one EnvCell (a 20 x 20 m floor, not seen from outside)
// and a corrupt landblock.
struct StreamDats {
  StreamDats() {
    const std::vector<dat::DatRecord> portal_records = {
        {0x13000000, dereth::sim::test::linear_region()},
        {kEnvironment, dat::write_environment(dereth::sim::test::floor_room_environment(kEnvironment))},
    };
    portal = dereth::sim::test::make_dat(portal_records, dat::DatKind::Portal, "portal");
    std::vector<dat::DatRecord> cell_records;
    for (int x = 0xA7; x <= 0xAB; ++x) {
      for (int y = 0xB2; y <= 0xB6; ++y) {
        const std::uint32_t key = block(x, y);
        cell_records.push_back({key | 0xFFFFu, dat::write_land_block(flat_block(
                                                   key, static_cast<std::uint8_t>(x - 0xA7 + 5 * (y - 0xB2))))});
      }
    }
    dat::LandBlockInfo info;
    info.id = kDungeon | 0xFFFEu;
    info.num_cells = 1;
    cell_records.push_back({kDungeon | 0xFFFFu, dat::write_land_block(flat_block(kDungeon, 0))});
    cell_records.push_back({kDungeon | 0xFFFEu, dat::write_land_block_info(info)});
    dat::EnvCell room;
    room.id = kDungeonCell;
    room.environment_id = static_cast<std::uint16_t>(kEnvironment & 0xFFFFu);
    room.position = dat::Frame{glm::vec3(100, 100, 0), glm::quat(1, 0, 0, 0)};
    cell_records.push_back({kDungeonCell, dat::write_env_cell(room)});
    cell_records.push_back({kCorrupt | 0xFFFFu, std::vector<std::uint8_t>(17, 0xAB)});  // not 252 bytes
    cell = dereth::sim::test::make_dat(cell_records, dat::DatKind::Cell, "cell");
  }
  std::unique_ptr<dat::DatFile> portal;
  std::unique_ptr<dat::DatFile> cell;
};

// A streamer over the DATs with a ManualExecutor the test runs.
struct Streamer {
  explicit Streamer(const StreamDats& dats) : records(dats.portal.get()), cells(dats.cell.get()) {
    auto manual = std::make_unique<sim::ManualExecutor>();
    jobs = manual.get();
    const auto region = records.region();
    REQUIRE(region);
    streamer = std::make_unique<sim::LandblockStreamer>(cells, region->land_defs, dat::kRegionId, std::move(manual));
  }
  dat::RecordCache records;
  dat::CellRecordCache cells;
  sim::ManualExecutor* jobs = nullptr;
  std::unique_ptr<sim::LandblockStreamer> streamer;
};

inline float height_of(const sim::LandblockBuild& b) {
  REQUIRE(b.terrain);
  return b.terrain->height_at(12.0f, 12.0f).value_or(-1.0f);
}

}  // namespace dereth::sim::test
