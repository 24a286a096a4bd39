#pragma once
// Reader for the DAT container: the header, block chains and the B-tree
// directory; typed records are decoded from the bytes `read` returns. Every
// byte is untrusted: a failure is a core::Error naming the file, id, field and
// file offset (the rules: docs/dat.md "Reader (DatFile)"). A DatFile may be
// read from several threads at once.

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/dat/db_type.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

namespace detail {
struct DatFileImpl;  // dat_file.cpp
}  // namespace detail

// Layout constants (spec 1.1-1.5).
inline constexpr std::size_t kHeaderSize = 400;
inline constexpr std::uint32_t kHeaderMagic = 0x00005442U;       // "BT", at 0x140
inline constexpr std::uint32_t kTransactionMagic = 0x00004C50U;  // "PL", at 0x101
inline constexpr std::uint32_t kDataStart = 1024;                // first block offset
// Where the header's parts sit (spec 1.1): the transaction record, and the
// DiskFileInfo block whose u32 fields are at the offsets below from its start.
inline constexpr std::size_t kTransactionOffset = 0x100;
inline constexpr std::size_t kInfoOffset = 0x140;
namespace header_field {
inline constexpr std::size_t Magic = 0x00;
inline constexpr std::size_t BlockSize = 0x04;
inline constexpr std::size_t FileSize = 0x08;
inline constexpr std::size_t DataSet = 0x0C;
inline constexpr std::size_t DataSubset = 0x10;
inline constexpr std::size_t FirstFree = 0x14;
inline constexpr std::size_t FinalFree = 0x18;
inline constexpr std::size_t FreeBlocks = 0x1C;
inline constexpr std::size_t BtreeRoot = 0x20;
inline constexpr std::size_t YoungLru = 0x24;
inline constexpr std::size_t OldLru = 0x28;
inline constexpr std::size_t UseLru = 0x2C;
inline constexpr std::size_t MasterMapId = 0x30;
inline constexpr std::size_t EnginePackVersion = 0x34;
inline constexpr std::size_t GamePackVersion = 0x38;
inline constexpr std::size_t VersionMajor = 0x3C;  // 16 bytes
inline constexpr std::size_t VersionMinor = 0x4C;
}  // namespace header_field
inline constexpr std::uint32_t kMinBlockSize = 64;
inline constexpr std::uint32_t kMaxBlockSize = 64 * 1024;
inline constexpr std::uint32_t kFreeBlockFlag = 0x80000000U;  // bit 31 of a link
inline constexpr std::size_t kNodeBranches = 62;
inline constexpr std::size_t kNodeMaxEntries = 61;
inline constexpr std::size_t kEntrySize = 24;
inline constexpr std::size_t kNodeSize = kNodeBranches * 4 + 4 + kNodeMaxEntries * kEntrySize;  // 1716
inline constexpr std::uint32_t kLeafSentinel = 0xCDCDCDCDU;  // garbage slot 0 read as "leaf"
inline constexpr std::size_t kMaxTreeDepth = 32;
inline constexpr std::uint32_t kMaxUncompressedSize = 64U * 1024U * 1024U;
inline constexpr std::int32_t kMaxIterations = 100000;

// The 80-byte DiskFileInfo_t at 0x140 (spec 1.1), as stored.
struct DatHeader {
  std::uint32_t magic = 0;
  std::uint32_t block_size = 0;
  std::uint32_t file_size = 0;  // as stored; the reader bounds-checks with the OS length instead
  std::uint32_t data_set = 0;
  std::uint32_t data_subset = 0;
  std::uint32_t first_free = 0;
  std::uint32_t final_free = 0;
  std::uint32_t free_blocks = 0;
  std::uint32_t btree_root = 0;
  std::uint32_t young_lru = 0;
  std::uint32_t old_lru = 0;
  std::uint32_t use_lru = 0;
  Did master_map_id = 0;
  std::uint32_t engine_pack_version = 0;
  std::uint32_t game_pack_version = 0;
  std::array<std::uint8_t, 16> version_major{};  // GUID, opaque
  std::uint32_t version_minor = 0;
  bool operator==(const DatHeader&) const = default;
};

// One BTEntry (spec 1.3).
struct DatEntry {
  std::uint32_t flags = 0;  // bit 0 comp_, bits 16-31 ver_
  Did id = 0;
  std::uint32_t offset = 0;  // first block of the record
  std::uint32_t size = 0;    // stored length (compressed length when compressed())
  std::int32_t date = 0;
  std::int32_t iteration = 0;

  [[nodiscard]] bool compressed() const noexcept { return (flags & 1U) != 0; }
  [[nodiscard]] std::uint16_t version() const noexcept { return static_cast<std::uint16_t>(flags >> 16U); }
  bool operator==(const DatEntry&) const = default;
};

class DatFile {
 public:
  // Opens and validates the header (magic, block size, NO_TRANS transaction
  // record) and the root node of the directory.
  static core::Result<DatFile> open(const std::filesystem::path& path);
  // The same over bytes already in memory (tests, fuzzing); `name` stands in
  // for the path in error messages.
  static core::Result<DatFile> from_bytes(std::vector<std::uint8_t> bytes, std::string name);

  [[nodiscard]] const std::string& name() const noexcept;  // the path as given, for messages
  [[nodiscard]] const DatHeader& header() const noexcept;
  [[nodiscard]] std::uint64_t file_length() const noexcept;  // from the OS, not the header
  [[nodiscard]] std::uint32_t block_size() const noexcept { return header().block_size; }
  [[nodiscard]] std::uint32_t data_set() const noexcept { return header().data_set; }
  [[nodiscard]] std::uint32_t data_subset() const noexcept { return header().data_subset; }
  [[nodiscard]] std::uint32_t engine_pack_version() const noexcept { return header().engine_pack_version; }
  [[nodiscard]] std::uint32_t game_pack_version() const noexcept { return header().game_pack_version; }
  [[nodiscard]] std::uint32_t version_minor() const noexcept { return header().version_minor; }
  [[nodiscard]] std::uint32_t first_free() const noexcept { return header().first_free; }
  [[nodiscard]] std::uint32_t final_free() const noexcept { return header().final_free; }
  [[nodiscard]] std::uint32_t free_blocks() const noexcept { return header().free_blocks; }
  [[nodiscard]] std::uint32_t btree_root() const noexcept { return header().btree_root; }
  [[nodiscard]] Did master_map_id() const noexcept { return header().master_map_id; }
  // The kind named by data_set/data_subset; nullopt for an unknown data set.
  [[nodiscard]] std::optional<DatKind> kind() const noexcept;

  // The entry for `id`; nullopt when absent; an error when the directory on
  // the way is corrupt.
  [[nodiscard]] core::Result<std::optional<DatEntry>> find(Did id) const;
  // The record's bytes, decompressed when the entry's comp bit is set. An
  // absent id is an error too (kind Invalid, field "id", detail "not found");
  // use find() to tell absence from corruption.
  [[nodiscard]] core::Result<std::vector<std::uint8_t>> read(Did id) const;
  [[nodiscard]] core::Result<std::vector<std::uint8_t>> read(const DatEntry& entry) const;
  // The bytes as stored (no decompression).
  [[nodiscard]] core::Result<std::vector<std::uint8_t>> read_stored(const DatEntry& entry) const;
  // Every entry, ascending id (in-order walk of the whole tree).
  [[nodiscard]] core::Result<std::vector<DatEntry>> entries() const;
  // The iteration numbers in the 0xFFFF0001 record (spec 1.5).
  [[nodiscard]] core::Result<std::vector<std::int32_t>> iterations() const;
  // Whether the file is all there, for a program about to use it: walks the
  // whole directory, checks that every record starts inside the file, and
  // reads the records placed last. A copy cut short (or overwritten at its
  // end) fails here, once, instead of record by record while the world
  // draws. Reads the directory and a few records, not every record.
  [[nodiscard]] core::Result<void> check_whole() const;

 private:
  explicit DatFile(std::shared_ptr<const detail::DatFileImpl> impl) noexcept : impl_(std::move(impl)) {}
  // Shared so that copies are cheap and share the descriptor and node cache.
  std::shared_ptr<const detail::DatFileImpl> impl_;
};

// DatFile::open and check_whole for a program's start: an error is one
// sentence naming the file and what is wrong with it (a missing file, not a
// DAT at all, left mid-write, cut short, damaged), its context the path and
// its detail the rest ("<path>: cut short: ...").
[[nodiscard]] core::Result<DatFile> open_whole(const std::filesystem::path& path);

// Decodes an iteration record body (spec 1.5: i32 N, then tokens: >= 0 one
// number, < 0 a run of -token numbers starting at the next i32).
[[nodiscard]] core::Result<std::vector<std::int32_t>> parse_iteration_list(std::span<const std::uint8_t> body,
                                                                           std::string_view context);

}  // namespace dereth::dat
