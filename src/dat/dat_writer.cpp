// DAT container writer (spec/dat-format.md 1.1-1.6, 6).

#include "dereth/dat/dat_writer.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <deque>
#include <iterator>
#include <limits>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "dereth/core/byte_writer.hpp"
#include "dereth/core/file.hpp"
#include "dereth/dat/dat_file.hpp"

#if defined(_WIN32)
#include <fstream>
#else
#include <cerrno>

#include <fcntl.h>
#include <unistd.h>
#endif

namespace dereth::dat {

using core::Error;
using core::ErrorKind;
using core::Result;

namespace {

constexpr std::uint16_t kObjectVersion = 2;     // DRW's version for new objects; retail refuses 0
constexpr std::uint16_t kIterationVersion = 1;  // LoadIterationList wants 1
constexpr std::uint64_t kMaxFileLength = std::numeric_limits<std::int32_t>::max();  // int32 offsets

Error writer_error(std::string_view field, std::string detail) {
  return Error{ErrorKind::Invalid, "DAT writer", std::string(field), 0, std::move(detail)};
}

void store_u32(std::vector<std::uint8_t>& out, std::size_t at, std::uint32_t v) noexcept {
  out[at] = static_cast<std::uint8_t>(v);
  out[at + 1] = static_cast<std::uint8_t>(v >> 8U);
  out[at + 2] = static_cast<std::uint8_t>(v >> 16U);
  out[at + 3] = static_cast<std::uint8_t>(v >> 24U);
}

std::uint64_t blocks_for(std::uint64_t size, std::uint32_t payload) noexcept {
  return (size + payload - 1) / payload;
}

// One node of the directory being built: entry indices into the sorted list
// and child indices into the node list.
struct BuildNode {
  std::vector<std::size_t> entries;
  std::vector<std::size_t> children;
  std::uint32_t offset = 0;
};

// Bottom-up B-tree over `n` sorted entries (spec 1.3): every leaf at the same
// depth, every non-root node 30..61 entries, the root 1..61. Returns the
// nodes and the root's index.
std::size_t build_tree(std::size_t n, std::vector<BuildNode>& nodes) {
  std::vector<std::size_t> items(n);
  for (std::size_t i = 0; i < n; ++i) items[i] = i;
  std::vector<std::size_t> lower;  // nodes of the level below, in key order
  while (true) {
    const std::size_t m = items.size();
    if (m <= kNodeMaxEntries) {
      nodes.push_back(BuildNode{items, lower, 0});
      return nodes.size() - 1;
    }
    // Each node with k entries plus the separator after it uses k + 1 of the
    // m + 1 slots; the fewest nodes of at most 62 slots each, spread evenly,
    // hold at least 31 slots (30 entries) each.
    const std::size_t count = (m + 1 + kNodeMaxEntries) / (kNodeMaxEntries + 1);
    const std::size_t base = (m + 1) / count;
    const std::size_t extra = (m + 1) % count;
    std::vector<std::size_t> next;
    std::vector<std::size_t> level;
    std::size_t pos = 0;
    std::size_t child = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const std::size_t k = base + (i < extra ? 1 : 0) - 1;
      BuildNode node;
      node.entries.assign(items.begin() + static_cast<std::ptrdiff_t>(pos),
                          items.begin() + static_cast<std::ptrdiff_t>(pos + k));
      pos += k;
      if (!lower.empty()) {
        node.children.assign(lower.begin() + static_cast<std::ptrdiff_t>(child),
                             lower.begin() + static_cast<std::ptrdiff_t>(child + k + 1));
        child += k + 1;
      }
      if (i + 1 < count) next.push_back(items[pos++]);
      nodes.push_back(std::move(node));
      level.push_back(nodes.size() - 1);
    }
    lower = std::move(level);
    items = std::move(next);
  }
}

// Writes `data` into consecutive blocks from `first`, links ending in 0.
void write_chain(std::vector<std::uint8_t>& out, std::uint32_t first, std::uint32_t block_size,
                 std::span<const std::uint8_t> data) {
  const std::uint32_t payload = block_size - 4;
  const std::uint64_t count = blocks_for(data.size(), payload);
  std::size_t pos = 0;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t at = first + static_cast<std::size_t>(i) * block_size;
    const bool last = i + 1 == count;
    store_u32(out, at, last ? 0U : static_cast<std::uint32_t>(at + block_size));
    const std::size_t take = std::min<std::size_t>(payload, data.size() - pos);
    std::memcpy(out.data() + at + 4, data.data() + pos, take);
    pos += take;
  }
}

}  // namespace

DatKindDefaults dat_kind_defaults(DatKind kind) noexcept {
  switch (kind) {
    case DatKind::Portal: return {1024, 1, 0, 110, 0, 6657};
    case DatKind::Cell: return {256, 2, 1, 22, 0, 6657};
    case DatKind::HighRes: return {1024, 1, 0x69466948U, 110, 0, 6657};
    case DatKind::Local: return {1024, 3, 1, 110, 0, 6657};
  }
  return {1024, 1, 0, 110, 0, 6657};
}

std::vector<std::uint8_t> make_iteration_record(std::int32_t count) {
  core::ByteWriter w;
  w.i32(count);
  w.i32(-count);
  w.i32(1);
  return std::move(w).take();
}

Result<std::vector<std::uint8_t>> build_dat(std::span<const DatRecord> records, const DatWriterOptions& options) {
  const DatKindDefaults defaults = dat_kind_defaults(options.kind);
  const std::uint32_t bs = options.block_size == 0 ? defaults.block_size : options.block_size;
  if (bs < kMinBlockSize || bs > kMaxBlockSize) {
    return std::unexpected(
        writer_error("block size", fmt::format("{} (allowed {}..{})", bs, kMinBlockSize, kMaxBlockSize)));
  }
  if (options.iteration < 1) {
    return std::unexpected(writer_error("iteration", fmt::format("{} (must be >= 1)", options.iteration)));
  }
  const std::uint32_t payload = bs - 4;

  // Sorted views of the records, plus the iteration record when missing.
  struct Item {
    Did id;
    std::span<const std::uint8_t> data;
  };
  std::vector<Item> items;
  items.reserve(records.size() + 1);
  for (const auto& r : records) items.push_back(Item{r.id, r.data});
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.id < b.id; });
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (items[i].id == items[i - 1].id) {
      return std::unexpected(writer_error("id", fmt::format("0x{:08X} appears twice", items[i].id)));
    }
  }
  const std::vector<std::uint8_t> generated_iteration = make_iteration_record(options.iteration);
  const auto iteration_pos =
      std::lower_bound(items.begin(), items.end(), kIterationId, [](const Item& it, Did key) { return it.id < key; });
  if (iteration_pos == items.end() || iteration_pos->id != kIterationId) {
    items.insert(iteration_pos, Item{kIterationId, generated_iteration});
  }

  // Directory shape, then layout: root at 1024, the other nodes breadth
  // first, then the records in id order, then the free block. The size is
  // checked against the int32 offset limit before any offset is assigned.
  std::vector<BuildNode> nodes;
  const std::size_t root = build_tree(items.size(), nodes);
  const std::uint64_t node_blocks = blocks_for(kNodeSize, payload);
  std::uint64_t total_blocks = node_blocks * nodes.size() + (options.trailing_free_block ? 1 : 0);
  for (const auto& item : items) total_blocks += blocks_for(item.data.size(), payload);
  const std::uint64_t length = kDataStart + total_blocks * bs;
  if (length > kMaxFileLength) {
    return std::unexpected(writer_error("file size", fmt::format("{} bytes exceed the format's 2 GiB limit", length)));
  }
  std::uint32_t next = kDataStart;
  auto allocate = [&](std::uint64_t blocks) {
    const std::uint32_t at = next;
    next += static_cast<std::uint32_t>(blocks * bs);
    return at;
  };
  std::deque<std::size_t> queue{root};
  while (!queue.empty()) {
    BuildNode& node = nodes[queue.front()];
    queue.pop_front();
    node.offset = allocate(node_blocks);
    for (std::size_t c : node.children) queue.push_back(c);
  }
  std::vector<std::uint32_t> record_offsets(items.size(), 0);  // an empty record has no blocks and offset 0
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].data.empty()) record_offsets[i] = allocate(blocks_for(items[i].data.size(), payload));
  }
  const std::uint32_t free_offset = options.trailing_free_block ? allocate(1) : 0;

  std::vector<std::uint8_t> out(static_cast<std::size_t>(length), 0);

  // Header (spec 1.1). The version string stays zero; the transaction record
  // is NO_TRANS: type 0, magic "PL", rest zero.
  store_u32(out, kTransactionOffset + 1, kTransactionMagic);
  const auto file_size = static_cast<std::uint32_t>(length);
  namespace hf = header_field;
  const std::pair<std::size_t, std::uint32_t> info[] = {
      {hf::Magic, kHeaderMagic},
      {hf::BlockSize, bs},
      {hf::FileSize, file_size},
      {hf::DataSet, defaults.data_set},
      {hf::DataSubset, defaults.data_subset},
      {hf::FirstFree, options.trailing_free_block ? free_offset : file_size},
      {hf::FinalFree, options.trailing_free_block ? free_offset : file_size},
      {hf::FreeBlocks, options.trailing_free_block ? 1U : 0U},
      {hf::BtreeRoot, nodes[root].offset},
      {hf::YoungLru, 0},
      {hf::OldLru, 0},
      {hf::UseLru, 0},
      {hf::MasterMapId, options.master_map_id},
      {hf::EnginePackVersion, defaults.engine_pack_version},
      {hf::GamePackVersion, defaults.game_pack_version},
      // id_vnum.major (16 bytes at VersionMajor) stays zero.
      {hf::VersionMinor, defaults.version_minor},
  };
  for (const auto& [offset, value] : info) store_u32(out, kInfoOffset + offset, value);

  // Nodes: unused branch slots and entries stay zero; exactly 1716 bytes.
  std::vector<std::uint8_t> node_bytes(kNodeSize);
  for (const BuildNode& node : nodes) {
    std::fill(node_bytes.begin(), node_bytes.end(), std::uint8_t{0});
    for (std::size_t i = 0; i < node.children.size(); ++i) store_u32(node_bytes, 4 * i, nodes[node.children[i]].offset);
    store_u32(node_bytes, kNodeBranches * 4, static_cast<std::uint32_t>(node.entries.size()));
    for (std::size_t i = 0; i < node.entries.size(); ++i) {
      const std::size_t e = node.entries[i];
      const std::size_t at = kNodeBranches * 4 + 4 + i * kEntrySize;
      const std::uint16_t version = items[e].id == kIterationId ? kIterationVersion : kObjectVersion;
      store_u32(node_bytes, at, std::uint32_t{version} << 16U);  // comp_ 0
      store_u32(node_bytes, at + 4, items[e].id);
      store_u32(node_bytes, at + 8, record_offsets[e]);
      store_u32(node_bytes, at + 12, static_cast<std::uint32_t>(items[e].data.size()));
      store_u32(node_bytes, at + 16, std::bit_cast<std::uint32_t>(options.date));
      store_u32(node_bytes, at + 20, std::bit_cast<std::uint32_t>(options.iteration));
    }
    write_chain(out, node.offset, bs, node_bytes);
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].data.empty()) write_chain(out, record_offsets[i], bs, items[i].data);
  }
  if (options.trailing_free_block) store_u32(out, free_offset, kFreeBlockFlag);
  return out;
}

Result<std::vector<std::uint8_t>> DatWriter::build() const {
  return build_dat(records_, options_);
}

Result<void> DatWriter::write_file(const std::filesystem::path& path) const {
  DERETH_TRY(auto bytes, build());
  return core::write_file_atomic(path, bytes);
}

}  // namespace dereth::dat
