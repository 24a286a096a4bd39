// DAT container reader (spec/dat-format.md 1.1-1.5, 7).

#include "dereth/dat/dat_file.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>
#include <zlib.h>

#include "dereth/core/byte_reader.hpp"

#if defined(_WIN32)
#include <fstream>
#else
#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace dereth::dat {

using core::Error;
using core::ErrorKind;
using core::Result;

namespace {

// How many parsed nodes (besides the pinned root) the cache keeps.
constexpr std::size_t kNodeCacheCapacity = 256;

std::int32_t load_i32(const std::uint8_t* p) noexcept {
  return std::bit_cast<std::int32_t>(core::load_le<std::uint32_t>(p));
}

Error make_error(ErrorKind kind, std::string context, std::string_view field, std::uint64_t offset,
                 std::string detail) {
  return Error{kind, std::move(context), std::string(field), static_cast<std::size_t>(offset), std::move(detail)};
}

// Positional reads over the file or an in-memory copy. read_at must be safe
// to call from several threads at once.
class Storage {
 public:
  Storage() = default;
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  virtual ~Storage() = default;
  // Fills `out` from `offset`; false on an OS error or short read.
  virtual bool read_at(std::uint64_t offset, std::span<std::uint8_t> out) const = 0;
  [[nodiscard]] virtual std::uint64_t length() const noexcept = 0;
};

class MemoryStorage final : public Storage {
 public:
  explicit MemoryStorage(std::vector<std::uint8_t> bytes) noexcept : bytes_(std::move(bytes)) {}
  bool read_at(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    if (offset > bytes_.size() || out.size() > bytes_.size() - offset) return false;
    if (!out.empty()) std::memcpy(out.data(), bytes_.data() + offset, out.size());
    return true;
  }
  [[nodiscard]] std::uint64_t length() const noexcept override { return bytes_.size(); }

 private:
  std::vector<std::uint8_t> bytes_;
};

#if defined(_WIN32)
// No pread: one stream behind a mutex.
class FileStorage final : public Storage {
 public:
  static Result<std::unique_ptr<FileStorage>> open(const std::filesystem::path& path, const std::string& name) {
    auto storage = std::unique_ptr<FileStorage>(new FileStorage());
    storage->stream_.open(path, std::ios::binary);
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!storage->stream_ || ec) {
      return std::unexpected(make_error(ErrorKind::Io, name, "open", 0, ec ? ec.message() : "cannot open"));
    }
    storage->length_ = size;
    return storage;
  }
  bool read_at(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    std::lock_guard lock(mutex_);
    stream_.clear();
    stream_.seekg(static_cast<std::streamoff>(offset));
    stream_.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(out.size()));
    return static_cast<std::size_t>(stream_.gcount()) == out.size();
  }
  [[nodiscard]] std::uint64_t length() const noexcept override { return length_; }

 private:
  FileStorage() = default;
  mutable std::mutex mutex_;
  mutable std::ifstream stream_;
  std::uint64_t length_ = 0;
};
#else
// pread on one descriptor: positional, so concurrent reads need no lock.
class FileStorage final : public Storage {
 public:
  static Result<std::unique_ptr<FileStorage>> open(const std::filesystem::path& path, const std::string& name) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return std::unexpected(make_error(ErrorKind::Io, name, "open", 0, std::strerror(errno)));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      const int err = errno;
      ::close(fd);
      return std::unexpected(make_error(ErrorKind::Io, name, "stat", 0, std::strerror(err)));
    }
    if (!S_ISREG(st.st_mode)) {
      ::close(fd);
      return std::unexpected(make_error(ErrorKind::Io, name, "open", 0, "not a regular file"));
    }
    return std::unique_ptr<FileStorage>(new FileStorage(fd, static_cast<std::uint64_t>(st.st_size)));
  }
  ~FileStorage() override { ::close(fd_); }
  FileStorage(const FileStorage&) = delete;
  FileStorage& operator=(const FileStorage&) = delete;

  bool read_at(std::uint64_t offset, std::span<std::uint8_t> out) const override {
    std::size_t done = 0;
    while (done < out.size()) {
      const auto n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return false;
      }
      if (n == 0) return false;  // the file shrank under us
      done += static_cast<std::size_t>(n);
    }
    return true;
  }
  [[nodiscard]] std::uint64_t length() const noexcept override { return length_; }

 private:
  FileStorage(int fd, std::uint64_t length) noexcept : fd_(fd), length_(length) {}
  int fd_;
  std::uint64_t length_;
};
#endif

// A parsed BTNode (spec 1.3).
struct Node {
  std::uint32_t offset = 0;           // first block
  std::vector<std::uint32_t> blocks;  // every block of the chain, for error offsets
  std::array<std::uint32_t, kNodeBranches> branches{};
  std::size_t count = 0;  // validated 0..61
  std::array<DatEntry, kNodeMaxEntries> entries{};

  // Leaf iff slot 0 is 0 (or the 0xCDCDCDCD fill some writers leave).
  [[nodiscard]] bool leaf() const noexcept { return branches[0] == 0 || branches[0] == kLeafSentinel; }
};

}  // namespace

namespace detail {

struct DatFileImpl {
  std::unique_ptr<Storage> storage;
  std::string name;
  DatHeader header;
  std::uint64_t length = 0;
  std::uint32_t payload = 0;         // block_size - 4
  std::uint64_t total_blocks = 0;    // whole blocks from 1024 to the end of the file
  std::shared_ptr<const Node> root;  // null when btree_root is 0 (an empty directory)

  mutable std::mutex cache_mutex;
  mutable std::unordered_map<std::uint32_t, std::shared_ptr<const Node>> cache;

  [[nodiscard]] std::string id_context(Did id) const { return fmt::format("{} id 0x{:08X}", name, id); }

  // A block offset a link or pointer may hold: 1024 + k*bs, whole block inside the file.
  [[nodiscard]] bool valid_block(std::uint64_t offset) const noexcept {
    const auto bs = header.block_size;
    return offset >= kDataStart && (offset - kDataStart) % bs == 0 && length >= bs && offset <= length - bs;
  }

  [[nodiscard]] std::string block_range_detail(std::uint32_t value) const {
    return fmt::format("0x{:08X} is not a block offset (1024 + k*{} within [1024, {}])", value, header.block_size,
                       length >= header.block_size ? length - header.block_size : 0);
  }

  // Reads a record of `size` bytes whose first block is `first`, following
  // the chain with the retail termination rule (spec 1.2).
  Result<std::vector<std::uint8_t>> read_chain(std::uint32_t first, std::uint32_t size, const std::string& context,
                                               std::vector<std::uint32_t>* blocks_out) const {
    std::vector<std::uint8_t> out;
    if (size == 0) return out;  // no blocks: the offset is never dereferenced
    const std::uint64_t needed = (std::uint64_t{size} + payload - 1) / payload;
    if (needed > total_blocks) {
      return std::unexpected(make_error(ErrorKind::TooLarge, context, "entry size", first,
                                        fmt::format("{} bytes need {} blocks of {}, the file holds {}", size, needed,
                                                    header.block_size, total_blocks)));
    }
    if ((first & kFreeBlockFlag) != 0) {
      return std::unexpected(make_error(ErrorKind::Invalid, context, "first block", first,
                                        fmt::format("0x{:08X} has bit 31 set (a free block)", first)));
    }
    if (!valid_block(first)) {
      return std::unexpected(make_error(ErrorKind::Invalid, context, "first block", first, block_range_detail(first)));
    }
    out.resize(size);
    std::vector<std::uint32_t> visited;
    visited.reserve(static_cast<std::size_t>(needed));
    std::vector<std::uint8_t> block(header.block_size);
    std::uint32_t current = first;
    std::size_t pos = 0;
    for (std::uint64_t i = 0; i < needed; ++i) {
      visited.push_back(current);
      const std::size_t take = std::min<std::size_t>(payload, size - pos);
      if (!storage->read_at(current, std::span<std::uint8_t>(block.data(), 4 + take))) {
        return std::unexpected(
            make_error(ErrorKind::Io, context, "block", current, fmt::format("cannot read {} bytes", 4 + take)));
      }
      const std::uint32_t link = core::load_le<std::uint32_t>(block.data());
      std::memcpy(out.data() + pos, block.data() + 4, take);
      pos += take;
      if (i + 1 < needed) {
        if ((link & kFreeBlockFlag) != 0) {
          return std::unexpected(make_error(
              ErrorKind::Invalid, context, "block link", current,
              fmt::format("0x{:08X} has bit 31 set (a free block) after block {} of {}", link, i + 1, needed)));
        }
        if (link == 0) {
          return std::unexpected(make_error(ErrorKind::Invalid, context, "block link", current,
                                            fmt::format("chain ends after block {} of {}", i + 1, needed)));
        }
        if (!valid_block(link)) {
          return std::unexpected(
              make_error(ErrorKind::Invalid, context, "block link", current, block_range_detail(link)));
        }
        current = link;
      } else if (link != 0) {
        const bool cycle = std::find(visited.begin(), visited.end(), link) != visited.end();
        return std::unexpected(make_error(
            ErrorKind::Invalid, context, "block link", current,
            cycle ? fmt::format("cyclic block chain: the last block links back to 0x{:08X}", link)
                  : fmt::format("0x{:08X} after the record's last block (expected 0; {} blocks for {} bytes)", link,
                                needed, size)));
      }
    }
    if (blocks_out != nullptr) *blocks_out = std::move(visited);
    return out;
  }

  // The file offset of byte `pos` of a node's payload.
  [[nodiscard]] std::uint64_t node_file_offset(const Node& node, std::size_t pos) const noexcept {
    const std::size_t index = pos / payload;
    if (index >= node.blocks.size()) return node.offset;
    return std::uint64_t{node.blocks[index]} + 4 + pos % payload;
  }

  Result<std::shared_ptr<const Node>> load_node(std::uint32_t offset, const std::string& context) const {
    auto node = std::make_shared<Node>();
    node->offset = offset;
    DERETH_TRY(auto bytes, read_chain(offset, static_cast<std::uint32_t>(kNodeSize), context, &node->blocks));
    const std::uint8_t* p = bytes.data();
    for (std::size_t i = 0; i < kNodeBranches; ++i) node->branches[i] = core::load_le<std::uint32_t>(p + 4 * i);
    const std::size_t count_pos = kNodeBranches * 4;
    const std::int32_t count = load_i32(p + count_pos);
    if (count < 0 || count > static_cast<std::int32_t>(kNodeMaxEntries)) {
      return std::unexpected(make_error(ErrorKind::Invalid, context, "B-tree NumEntries",
                                        node_file_offset(*node, count_pos),
                                        fmt::format("{} in the node at 0x{:08X} (0..61 allowed)", count, offset)));
    }
    node->count = static_cast<std::size_t>(count);
    for (std::size_t i = 0; i < node->count; ++i) {
      const std::uint8_t* e = p + count_pos + 4 + i * kEntrySize;
      DatEntry& entry = node->entries[i];
      entry.flags = core::load_le<std::uint32_t>(e);
      entry.id = core::load_le<std::uint32_t>(e + 4);
      entry.offset = core::load_le<std::uint32_t>(e + 8);
      entry.size = core::load_le<std::uint32_t>(e + 12);
      entry.date = load_i32(e + 16);
      entry.iteration = load_i32(e + 20);
      if (i > 0 && entry.id <= node->entries[i - 1].id) {
        return std::unexpected(make_error(
            ErrorKind::Invalid, context, "B-tree entry id", node_file_offset(*node, count_pos + 4 + i * kEntrySize + 4),
            fmt::format("0x{:08X} after 0x{:08X} in the node at 0x{:08X} (ids must ascend)", entry.id,
                        node->entries[i - 1].id, offset)));
      }
    }
    if (!node->leaf()) {
      for (std::size_t i = 0; i <= node->count; ++i) {
        const std::uint32_t child = node->branches[i];
        if ((child & kFreeBlockFlag) != 0 || !valid_block(child)) {
          return std::unexpected(
              make_error(ErrorKind::Invalid, context, "B-tree child pointer", node_file_offset(*node, 4 * i),
                         fmt::format("slot {} of the node at 0x{:08X}: {}", i, offset, block_range_detail(child))));
        }
      }
    }
    return std::shared_ptr<const Node>(std::move(node));
  }

  Result<std::shared_ptr<const Node>> node_at(std::uint32_t offset, const std::string& context) const {
    if (root && offset == root->offset) return root;
    {
      std::lock_guard lock(cache_mutex);
      if (auto it = cache.find(offset); it != cache.end()) return it->second;
    }
    DERETH_TRY(auto node, load_node(offset, context));
    std::lock_guard lock(cache_mutex);
    if (cache.size() >= kNodeCacheCapacity) cache.clear();
    cache.emplace(offset, node);
    return node;
  }

  Result<std::optional<DatEntry>> find(Did id) const {
    if (!root || root->count == 0) return std::optional<DatEntry>{};  // BTree::Lookup: empty root, not found
    std::array<std::uint32_t, kMaxTreeDepth + 1> path{};
    std::size_t depth = 0;
    path[depth++] = root->offset;
    std::shared_ptr<const Node> node = root;
    std::string context;
    while (true) {
      const auto first = node->entries.begin();
      const auto last = first + static_cast<std::ptrdiff_t>(node->count);
      const auto it = std::lower_bound(first, last, id, [](const DatEntry& e, Did key) { return e.id < key; });
      if (it != last && it->id == id) return std::optional<DatEntry>(*it);
      if (node->leaf()) return std::optional<DatEntry>{};
      const auto slot = static_cast<std::size_t>(it - first);
      const std::uint32_t child = node->branches[slot];
      if (context.empty()) context = id_context(id);
      if (std::find(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(depth), child) !=
          path.begin() + static_cast<std::ptrdiff_t>(depth)) {
        return std::unexpected(make_error(
            ErrorKind::Invalid, context, "B-tree child pointer", node_file_offset(*node, 4 * slot),
            fmt::format("loop: slot {} of the node at 0x{:08X} points back to 0x{:08X}", slot, node->offset, child)));
      }
      if (depth >= path.size()) {
        return std::unexpected(make_error(ErrorKind::Invalid, context, "B-tree depth", node->offset,
                                          fmt::format("more than {} levels", kMaxTreeDepth)));
      }
      path[depth++] = child;
      DERETH_TRY(node, node_at(child, context));
    }
  }

  // In-order walk (ascending ids); every node may be visited once.
  Result<void> walk(const Node& node, std::size_t depth, std::unordered_set<std::uint32_t>& seen,
                    std::uint64_t max_nodes, std::vector<DatEntry>& out, const std::string& context) const {
    for (std::size_t i = 0; i <= node.count; ++i) {
      if (!node.leaf()) {
        const std::uint32_t child = node.branches[i];
        if (!seen.insert(child).second) {
          return std::unexpected(make_error(
              ErrorKind::Invalid, context, "B-tree child pointer", node_file_offset(node, 4 * i),
              fmt::format("loop: slot {} of the node at 0x{:08X} reaches 0x{:08X} again", i, node.offset, child)));
        }
        if (seen.size() > max_nodes) {
          return std::unexpected(make_error(ErrorKind::Invalid, context, "B-tree node count", child,
                                            fmt::format("more than {} nodes fit in the file", max_nodes)));
        }
        if (depth + 1 > kMaxTreeDepth) {
          return std::unexpected(make_error(ErrorKind::Invalid, context, "B-tree depth", child,
                                            fmt::format("more than {} levels", kMaxTreeDepth)));
        }
        DERETH_TRY(auto child_node, node_at(child, context));
        DERETH_CHECK(walk(*child_node, depth + 1, seen, max_nodes, out, context));
      }
      if (i < node.count) {
        const DatEntry& entry = node.entries[i];
        if (!out.empty() && entry.id <= out.back().id) {
          return std::unexpected(
              make_error(ErrorKind::Invalid, context, "B-tree entry id",
                         node_file_offset(node, kNodeBranches * 4 + 4 + i * kEntrySize + 4),
                         fmt::format("0x{:08X} in the node at 0x{:08X} follows 0x{:08X} in order (ids must ascend)",
                                     entry.id, node.offset, out.back().id)));
        }
        out.push_back(entry);
      }
    }
    return {};
  }

  Result<std::vector<DatEntry>> entries() const {
    std::vector<DatEntry> out;
    if (!root || root->count == 0) return out;
    const std::uint64_t blocks_per_node = (kNodeSize + payload - 1) / payload;
    const std::uint64_t max_nodes = total_blocks / blocks_per_node + 1;
    std::unordered_set<std::uint32_t> seen{root->offset};
    const std::string context = name + " directory";
    DERETH_CHECK(walk(*root, 0, seen, max_nodes, out, context));
    return out;
  }

  Result<std::vector<std::uint8_t>> read_entry(const DatEntry& entry) const {
    const std::string context = id_context(entry.id);
    DERETH_TRY(auto stored, read_chain(entry.offset, entry.size, context, nullptr));
    if (!entry.compressed()) return stored;
    // spec 1.4: u32 uncompressed size, then a zlib stream.
    if (stored.size() < 4) {
      return std::unexpected(make_error(ErrorKind::Truncated, context, "uncompressed size", entry.offset,
                                        fmt::format("compressed record of {} bytes", stored.size())));
    }
    const std::uint32_t full = core::load_le<std::uint32_t>(stored.data());
    if (full > kMaxUncompressedSize) {
      return std::unexpected(make_error(ErrorKind::TooLarge, context, "uncompressed size", entry.offset,
                                        fmt::format("{} bytes (limit {})", full, kMaxUncompressedSize)));
    }
    std::vector<std::uint8_t> out(std::max<std::size_t>(full, 1));
    uLongf out_len = static_cast<uLongf>(full);
    const int rc = ::uncompress(out.data(), &out_len, stored.data() + 4, static_cast<uLong>(stored.size() - 4));
    if (rc != Z_OK || out_len != full) {
      return std::unexpected(make_error(ErrorKind::Invalid, context, "zlib stream", entry.offset,
                                        rc != Z_OK
                                            ? fmt::format("uncompress failed ({}) for {} bytes", rc, full)
                                            : fmt::format("inflated to {} bytes, the prefix says {}", out_len, full)));
    }
    out.resize(full);
    return out;
  }
};

}  // namespace detail

namespace {

Result<std::shared_ptr<const detail::DatFileImpl>> init(std::unique_ptr<Storage> storage, std::string name) {
  auto impl = std::make_shared<detail::DatFileImpl>();
  impl->storage = std::move(storage);
  impl->name = std::move(name);
  impl->length = impl->storage->length();
  const std::string& ctx = impl->name;
  if (impl->length < kHeaderSize) {
    return std::unexpected(
        make_error(ErrorKind::Truncated, ctx, "header", impl->length,
                   fmt::format("the file is {} bytes, the header needs {}", impl->length, kHeaderSize)));
  }
  std::array<std::uint8_t, kHeaderSize> raw{};
  if (!impl->storage->read_at(0, raw)) {
    return std::unexpected(make_error(ErrorKind::Io, ctx, "header", 0, "cannot read 400 bytes"));
  }
  DatHeader& h = impl->header;
  const std::uint8_t* info = raw.data() + kInfoOffset;
  h.magic = core::load_le<std::uint32_t>(info + header_field::Magic);
  if (h.magic != kHeaderMagic) {
    return std::unexpected(make_error(ErrorKind::Invalid, ctx, "header magic", kInfoOffset,
                                      fmt::format("0x{:08X} (expected 0x{:08X})", h.magic, kHeaderMagic)));
  }
  // ReadTransaction: the journal record must be NO_TRANS (type 0, magic "PL").
  if (raw[kTransactionOffset] != 0) {
    return std::unexpected(
        make_error(ErrorKind::Invalid, ctx, "transaction record type", kTransactionOffset,
                   fmt::format("{} (expected 0 NO_TRANS: the file was left mid-write)", raw[kTransactionOffset])));
  }
  const std::uint32_t trans_magic = core::load_le<std::uint32_t>(raw.data() + kTransactionOffset + 1);
  if (trans_magic != kTransactionMagic) {
    return std::unexpected(make_error(ErrorKind::Invalid, ctx, "transaction record magic", kTransactionOffset + 1,
                                      fmt::format("0x{:08X} (expected 0x{:08X})", trans_magic, kTransactionMagic)));
  }
  h.block_size = core::load_le<std::uint32_t>(info + header_field::BlockSize);
  if (h.block_size < kMinBlockSize || h.block_size > kMaxBlockSize) {
    return std::unexpected(make_error(ErrorKind::Invalid, ctx, "block size", kInfoOffset + header_field::BlockSize,
                                      fmt::format("{} (allowed {}..{})", h.block_size, kMinBlockSize, kMaxBlockSize)));
  }
  h.file_size = core::load_le<std::uint32_t>(info + header_field::FileSize);
  h.data_set = core::load_le<std::uint32_t>(info + header_field::DataSet);
  h.data_subset = core::load_le<std::uint32_t>(info + header_field::DataSubset);
  h.first_free = core::load_le<std::uint32_t>(info + header_field::FirstFree);
  h.final_free = core::load_le<std::uint32_t>(info + header_field::FinalFree);
  h.free_blocks = core::load_le<std::uint32_t>(info + header_field::FreeBlocks);
  h.btree_root = core::load_le<std::uint32_t>(info + header_field::BtreeRoot);
  h.young_lru = core::load_le<std::uint32_t>(info + header_field::YoungLru);
  h.old_lru = core::load_le<std::uint32_t>(info + header_field::OldLru);
  h.use_lru = core::load_le<std::uint32_t>(info + header_field::UseLru);
  h.master_map_id = core::load_le<std::uint32_t>(info + header_field::MasterMapId);
  h.engine_pack_version = core::load_le<std::uint32_t>(info + header_field::EnginePackVersion);
  h.game_pack_version = core::load_le<std::uint32_t>(info + header_field::GamePackVersion);
  std::memcpy(h.version_major.data(), info + header_field::VersionMajor, h.version_major.size());
  h.version_minor = core::load_le<std::uint32_t>(info + header_field::VersionMinor);

  impl->payload = h.block_size - 4;
  impl->total_blocks = impl->length >= kDataStart ? (impl->length - kDataStart) / h.block_size : 0;
  if (h.btree_root != 0) {
    if ((h.btree_root & kFreeBlockFlag) != 0 || !impl->valid_block(h.btree_root)) {
      return std::unexpected(make_error(ErrorKind::Invalid, ctx, "B-tree root", kInfoOffset + header_field::BtreeRoot,
                                        impl->block_range_detail(h.btree_root)));
    }
    const std::string root_ctx = ctx + " root node";
    DERETH_TRY(impl->root, impl->load_node(h.btree_root, root_ctx));
  }
  return std::shared_ptr<const detail::DatFileImpl>(std::move(impl));
}

}  // namespace

Result<DatFile> DatFile::open(const std::filesystem::path& path) {
  std::string name = path.string();
  DERETH_TRY(auto storage, FileStorage::open(path, name));
  DERETH_TRY(auto impl, init(std::move(storage), std::move(name)));
  return DatFile(std::move(impl));
}

Result<DatFile> DatFile::from_bytes(std::vector<std::uint8_t> bytes, std::string name) {
  DERETH_TRY(auto impl, init(std::make_unique<MemoryStorage>(std::move(bytes)), std::move(name)));
  return DatFile(std::move(impl));
}

const std::string& DatFile::name() const noexcept {
  return impl_->name;
}
const DatHeader& DatFile::header() const noexcept {
  return impl_->header;
}
std::uint64_t DatFile::file_length() const noexcept {
  return impl_->length;
}

std::optional<DatKind> DatFile::kind() const noexcept {
  return dat_kind_from_header(impl_->header.data_set, impl_->header.data_subset);
}

Result<std::optional<DatEntry>> DatFile::find(Did id) const {
  return impl_->find(id);
}

Result<std::vector<std::uint8_t>> DatFile::read(Did id) const {
  DERETH_TRY(auto entry, impl_->find(id));
  if (!entry) {
    return std::unexpected(
        make_error(ErrorKind::Invalid, impl_->id_context(id), "id", impl_->header.btree_root, "not found"));
  }
  return impl_->read_entry(*entry);
}

Result<std::vector<std::uint8_t>> DatFile::read(const DatEntry& entry) const {
  return impl_->read_entry(entry);
}

Result<std::vector<std::uint8_t>> DatFile::read_stored(const DatEntry& entry) const {
  return impl_->read_chain(entry.offset, entry.size, impl_->id_context(entry.id), nullptr);
}

Result<std::vector<DatEntry>> DatFile::entries() const {
  return impl_->entries();
}

Result<std::vector<std::int32_t>> DatFile::iterations() const {
  DERETH_TRY(auto body, read(kIterationId));
  const std::string context = impl_->id_context(kIterationId) + " Iteration";
  return parse_iteration_list(body, context);
}

Result<void> DatFile::check_whole() const {
  DERETH_TRY(const std::vector<DatEntry> all, impl_->entries());
  // Records with blocks, the last-placed first: a cut-short file loses those.
  std::vector<const DatEntry*> placed;
  placed.reserve(all.size());
  for (const DatEntry& e : all) {
    if (e.size == 0) continue;
    if ((e.offset & kFreeBlockFlag) != 0 || !impl_->valid_block(e.offset)) {
      const bool beyond = (e.offset & kFreeBlockFlag) == 0 && e.offset >= kDataStart &&
                          (e.offset - kDataStart) % impl_->header.block_size == 0;
      return std::unexpected(make_error(
          beyond ? ErrorKind::Truncated : ErrorKind::Invalid, impl_->id_context(e.id), "first block", e.offset,
          beyond ? fmt::format("the file ends at byte {}, before this record's first block", impl_->length)
                 : impl_->block_range_detail(e.offset)));
    }
    placed.push_back(&e);
  }
  constexpr std::size_t kLastRecordsRead = 8;
  const std::size_t n = std::min(placed.size(), kLastRecordsRead);
  std::partial_sort(placed.begin(), placed.begin() + static_cast<std::ptrdiff_t>(n), placed.end(),
                    [](const DatEntry* a, const DatEntry* b) { return a->offset > b->offset; });
  for (std::size_t i = 0; i < n; ++i) DERETH_CHECK(read_stored(*placed[i]));
  return {};
}

Result<DatFile> open_whole(const std::filesystem::path& path) {
  const std::string name = path.string();
  const auto unusable = [&](ErrorKind kind, std::string what) {
    return std::unexpected(make_error(kind, name, "", 0, std::move(what)));
  };
  // The lengths for the "cut short" sentence: the OS's, and the one the
  // header states (fileSize_, read here only for the wording: no bound is
  // taken from it).
  const auto header_u32 = [&](std::size_t offset) -> std::optional<std::uint32_t> {
    std::array<std::uint8_t, 4> bytes{};
    auto storage = FileStorage::open(path, name);
    if (!storage || (*storage)->length() < offset + 4 || !(*storage)->read_at(offset, bytes)) return std::nullopt;
    return core::load_le<std::uint32_t>(bytes.data());
  };
  const auto lengths = [&]() -> std::pair<std::uint64_t, std::uint64_t> {
    std::error_code ec;
    const std::uint64_t actual = std::filesystem::file_size(path, ec);
    if (ec) return {0, 0};
    return {actual, header_u32(kInfoOffset + 8).value_or(0)};
  };
  const auto damaged = [&](const Error& e) {
    const auto [actual, stated] = lengths();
    if (stated > actual) {
      return unusable(ErrorKind::Invalid,
                      fmt::format("cut short: it is {} bytes where its header says {}; copy it again", actual, stated));
    }
    if (e.kind == ErrorKind::Truncated) return unusable(ErrorKind::Invalid, "cut short: " + e.message());
    return unusable(ErrorKind::Invalid, "damaged: " + e.message());
  };
  auto opened = DatFile::open(path);
  if (!opened) {
    const Error& e = opened.error();
    if (e.kind == ErrorKind::Io && (e.field == "open" || e.field == "stat")) {
      return unusable(ErrorKind::Io, "cannot be opened (" + e.detail + ")");
    }
    if (e.field == "header" && e.kind == ErrorKind::Truncated) {
      return unusable(ErrorKind::Invalid, fmt::format("not a DAT file: it is {} bytes, shorter than a DAT's {}-byte "
                                                      "header (an empty or cut-short copy?)",
                                                      e.offset, kHeaderSize));
    }
    if (e.field == "header magic") {
      return unusable(ErrorKind::Invalid,
                      fmt::format("not an Asheron's Call DAT file: byte {} holds 0x{:08X} where a DAT's header has "
                                  "0x{:08X}",
                                  kInfoOffset, header_u32(kInfoOffset).value_or(0), kHeaderMagic));
    }
    if (e.field.starts_with("transaction record")) {
      return unusable(ErrorKind::Invalid,
                      "left mid-write by the program that last changed it (its transaction record is not NO_TRANS); "
                      "copy it again");
    }
    return damaged(e);
  }
  if (auto whole = opened->check_whole(); !whole) return damaged(whole.error());
  return opened;
}

Result<std::vector<std::int32_t>> parse_iteration_list(std::span<const std::uint8_t> body, std::string_view context) {
  core::ByteReader r(body, context);
  DERETH_TRY(const std::int32_t count, r.i32("iteration count"));
  if (count < 0 || count > kMaxIterations) {
    return std::unexpected(
        r.error_at(0, ErrorKind::Invalid, "iteration count", fmt::format("{} (0..{} allowed)", count, kMaxIterations)));
  }
  std::vector<std::int32_t> out;
  const auto total = static_cast<std::size_t>(count);
  out.reserve(std::min(total, r.remaining()));
  while (out.size() < total) {
    const std::size_t token_pos = r.position();
    DERETH_TRY(const std::int32_t token, r.i32("iteration token"));
    if (token >= 0) {
      out.push_back(token);
      continue;
    }
    const std::int64_t run = -static_cast<std::int64_t>(token);
    DERETH_TRY(const std::int32_t start, r.i32("iteration run start"));
    if (static_cast<std::uint64_t>(run) > total - out.size()) {
      return std::unexpected(
          r.error_at(token_pos, ErrorKind::Invalid, "iteration token",
                     fmt::format("a run of {} exceeds the {} numbers left", run, total - out.size())));
    }
    if (std::int64_t{start} + run - 1 > std::numeric_limits<std::int32_t>::max()) {
      return std::unexpected(r.error_at(token_pos + 4, ErrorKind::Invalid, "iteration run start",
                                        fmt::format("run {}..{} overflows", start, std::int64_t{start} + run - 1)));
    }
    for (std::int64_t k = 0; k < run; ++k) out.push_back(static_cast<std::int32_t>(start + k));
  }
  DERETH_CHECK(r.expect_end());
  return out;
}

}  // namespace dereth::dat
