#pragma once
// CellRecordCache: the one reader of a world's cell DAT (LandBlocks,
// LandBlockInfos, EnvCells). The landscape loader and the renderer's terrain
// ask it, so a record either of them still holds is handed to the other
// rather than read and decoded again.
//
// Unlike the portal's RecordCache it keeps no record alive: an entry lives
// while a holder (a loaded landblock, a drawn terrain block) keeps the
// record, and is read again after every holder has let go. An absent record
// is nothing there (not missing); an unreadable or malformed one is logged,
// kept in missing() and never read again.
//
// Thread-safe: the landscape's streaming workers (sim::LandblockStreamer)
// read through it while the main thread's renderer asks it too. The tables
// are behind one mutex; a DAT read and decode runs outside it (DatFile reads
// from several threads at once), so two threads asking for the same absent
// record at once may both read it: the first one stored is kept and handed
// to both.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/env_cell.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/land_block_info.hpp"
#include "dereth/dat/record_cache.hpp"

namespace dereth::dat {

class CellRecordCache {
 public:
  // `cell` may be null (every lookup gives null); it must outlive the cache.
  explicit CellRecordCache(const DatFile* cell) : cell_(cell) {}
  CellRecordCache(const CellRecordCache&) = delete;
  CellRecordCache& operator=(const CellRecordCache&) = delete;

  [[nodiscard]] std::shared_ptr<const LandBlock> land_block(Did id);           // 0xXXYYFFFF
  [[nodiscard]] std::shared_ptr<const LandBlockInfo> land_block_info(Did id);  // 0xXXYYFFFE
  [[nodiscard]] std::shared_ptr<const EnvCell> env_cell(Did id);               // 0xXXYY0100 and up

  [[nodiscard]] const DatFile* cell() const noexcept { return cell_; }
  // Whether record `id` is in the DAT (or its index cannot be searched) but
  // gives nothing: unreadable or malformed, where a lookup returned null.
  // The landscape loads such a landblock flat and empty, and the renderer
  // draws it so; a record simply absent is nothing at all.
  [[nodiscard]] bool unreadable(Did id) const;
  // Records read and decoded from the DAT so far (a record held by someone
  // and asked for again is not read again).
  [[nodiscard]] std::size_t reads() const;
  // Records that were in the DAT but could not be read or decoded (a copy:
  // a worker may add to the list meanwhile).
  [[nodiscard]] std::vector<MissingRecord> missing() const;

 private:
  template <class T, class Read>
  std::shared_ptr<const T> get(std::uint8_t kind, Did id, const char* name, Read read);

  const DatFile* cell_;
  mutable std::mutex mutex_;  // guards the four below
  // Keyed by kind and id, as RecordCache's: an untrusted id may be asked for as two kinds.
  std::unordered_map<std::uint64_t, std::weak_ptr<const void>> held_;
  std::unordered_set<std::uint64_t> absent_;  // not in the DAT, or refused: never read again
  std::vector<MissingRecord> missing_;
  std::size_t reads_ = 0;
};

}  // namespace dereth::dat
