#pragma once
// Builds a complete DAT from (id, bytes) pairs, meeting every item of the
// writer checklist of spec/dat-format.md 1.6 (docs/dat.md "Writer"); identical
// input gives identical bytes.

#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/dat/db_type.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

struct DatRecord {
  Did id = 0;
  std::vector<std::uint8_t> data;  // the record's bytes, stored uncompressed
};

struct DatWriterOptions {
  DatKind kind = DatKind::Portal;
  // Block size including the 4-byte link; 0 picks the retail size for the
  // kind (256 for Cell, 1024 otherwise). Must be 64..65536.
  std::uint32_t block_size = 0;
  // date_ of every entry (informational; fixed so output is reproducible).
  std::int32_t date = 0;
  // iter_ of every entry, and N of the generated iteration record [N, -N, 1]
  // (iterations 1..N). Must be >= 1.
  std::int32_t iteration = 1;
  // Header master_map_id_m (the root DIDMapper), 0 if unused.
  Did master_map_id = 0;
  // true: one trailing free block (link 0x80000000, count 1); false: no free
  // blocks (count 0, first/final free = the file size).
  bool trailing_free_block = true;
};

// Header values written for each kind (spec 1.1, EoR).
struct DatKindDefaults {
  std::uint32_t block_size;
  std::uint32_t data_set;
  std::uint32_t data_subset;
  std::uint32_t engine_pack_version;
  std::uint32_t game_pack_version;
  std::uint32_t version_minor;
};
[[nodiscard]] DatKindDefaults dat_kind_defaults(DatKind kind) noexcept;

// Collects records, then builds the file. Records may be added in any order;
// the writer sorts them by id.
class DatWriter {
 public:
  explicit DatWriter(DatWriterOptions options = {}) : options_(options) {}

  void add(Did id, std::vector<std::uint8_t> data) { records_.push_back(DatRecord{id, std::move(data)}); }
  void add(Did id, std::span<const std::uint8_t> data) { add(id, std::vector<std::uint8_t>(data.begin(), data.end())); }

  [[nodiscard]] const DatWriterOptions& options() const noexcept { return options_; }
  [[nodiscard]] const std::vector<DatRecord>& records() const noexcept { return records_; }

  // Fails (kind Invalid) on a duplicate id, bad options, or a file that would
  // pass the 2 GiB limit of the format's int32 offsets.
  [[nodiscard]] core::Result<std::vector<std::uint8_t>> build() const;
  // build(), then core::write_file_atomic().
  [[nodiscard]] core::Result<void> write_file(const std::filesystem::path& path) const;

 private:
  DatWriterOptions options_;
  std::vector<DatRecord> records_;
};

// The same as DatWriter::build over a list of records.
[[nodiscard]] core::Result<std::vector<std::uint8_t>> build_dat(std::span<const DatRecord> records,
                                                                const DatWriterOptions& options = {});

// The iteration record body [N, -N, 1] for iterations 1..N (spec 1.5).
[[nodiscard]] std::vector<std::uint8_t> make_iteration_record(std::int32_t count);

}  // namespace dereth::dat
