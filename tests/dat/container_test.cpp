// DAT container: writer -> reader round trips, the writer checklist
// (spec/dat-format.md 1.6) checked by an independent walk of the raw bytes,
// and corrupt files built by damaging a good one.

#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <zlib.h>

#include "dereth/core/file.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"

#include "support/temp_dir.hpp"

using namespace dereth::dat;
using dereth::core::ErrorKind;

namespace {

using Bytes = std::vector<std::uint8_t>;

// splitmix64: deterministic everywhere (unlike std distributions).
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30U)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27U)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31U);
  }
  std::uint32_t below(std::uint32_t n) { return static_cast<std::uint32_t>(next() % n); }
};

std::uint32_t get_u32(const Bytes& b, std::size_t at) {
  return static_cast<std::uint32_t>(b[at]) | (static_cast<std::uint32_t>(b[at + 1]) << 8U) |
         (static_cast<std::uint32_t>(b[at + 2]) << 16U) | (static_cast<std::uint32_t>(b[at + 3]) << 24U);
}

std::string fmt_id(Did id) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", id);
  return buf;
}

void put_u32(Bytes& b, std::size_t at, std::uint32_t v) {
  for (std::size_t i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// `count` records with distinct random ids (never the iteration id) and sizes
// covering 0, 1, bs-4, bs-3, two and three blocks, and several KB.
std::vector<DatRecord> make_records(std::size_t count, std::uint32_t bs, std::uint64_t seed) {
  Rng rng{seed};
  const std::uint32_t p = bs - 4;
  const std::uint32_t special[] = {0, 1, p, p + 1, 2 * p, 2 * p + 1, 3 * p - 1, 3000, 5000, 9000};
  std::set<Did> ids;
  std::vector<DatRecord> out;
  while (out.size() < count) {
    const auto id = static_cast<Did>(rng.next());
    if (id == kIterationId || !ids.insert(id).second) continue;
    const std::size_t i = out.size();
    const std::uint32_t size = i < std::size(special) ? special[i]
                               : rng.below(4) == 0    ? special[rng.below(std::size(special))]
                                                      : rng.below(700);
    DatRecord rec{id, Bytes(size)};
    for (std::uint32_t k = 0; k < size; ++k) rec.data[k] = static_cast<std::uint8_t>(rng.next());
    out.push_back(std::move(rec));
  }
  return out;
}

DatFile open_bytes(Bytes bytes, std::string name = "test.dat") {
  auto dat = DatFile::from_bytes(std::move(bytes), std::move(name));
  if (!dat) FAIL(dat.error().message());
  return std::move(*dat);
}

Bytes build(const std::vector<DatRecord>& records, const DatWriterOptions& options = {}) {
  auto bytes = build_dat(records, options);
  if (!bytes) FAIL(bytes.error().message());
  return std::move(*bytes);
}

// ---- An independent walk of the raw bytes: the writer checklist (1.6). ----

struct RawCheck {
  const Bytes& bytes;
  std::uint32_t bs;
  std::vector<int> owner;  // per block: how many chains use it
  std::size_t leaf_depth = 0;
  bool leaf_depth_set = false;
  std::vector<std::uint32_t> ids;  // in order

  RawCheck(const Bytes& b, std::uint32_t block_size)
      : bytes(b), bs(block_size), owner((b.size() - kDataStart) / block_size, 0) {}

  // Follows a chain: exactly ceil(size/(bs-4)) blocks, links never flagged,
  // the last link 0; marks the blocks used.
  Bytes chain(std::uint32_t first, std::uint32_t size) {
    Bytes out;
    if (size == 0) {
      CHECK(first == 0);
      return out;
    }
    const std::uint32_t p = bs - 4;
    const std::uint32_t blocks = (size + p - 1) / p;
    std::uint32_t at = first;
    for (std::uint32_t i = 0; i < blocks; ++i) {
      REQUIRE(at >= kDataStart);
      REQUIRE((at - kDataStart) % bs == 0);
      REQUIRE(at + bs <= bytes.size());
      ++owner[(at - kDataStart) / bs];
      const std::uint32_t link = get_u32(bytes, at);
      CHECK((link & kFreeBlockFlag) == 0);
      const std::uint32_t take = std::min(p, size - static_cast<std::uint32_t>(out.size()));
      out.insert(out.end(), bytes.begin() + at + 4, bytes.begin() + at + 4 + take);
      if (i + 1 == blocks) {
        CHECK(link == 0);
        // The unused tail of the last block is zero.
        CHECK(
            std::all_of(bytes.begin() + at + 4 + take, bytes.begin() + at + bs, [](std::uint8_t v) { return v == 0; }));
      } else {
        CHECK(link != 0);
      }
      at = link;
    }
    return out;
  }

  void node(std::uint32_t offset, std::size_t depth, bool is_root) {
    const Bytes n = chain(offset, static_cast<std::uint32_t>(kNodeSize));
    REQUIRE(n.size() == kNodeSize);
    const auto count = static_cast<std::int32_t>(get_u32(n, kNodeBranches * 4));
    REQUIRE(count >= (is_root ? 1 : 30));
    REQUIRE(count <= 61);
    const auto k = static_cast<std::size_t>(count);
    const bool leaf = get_u32(n, 0) == 0;
    // Unused branch slots and entries are zero.
    bool slots_zero = true;
    for (std::size_t i = leaf ? 0 : k + 1; i < kNodeBranches; ++i) slots_zero = slots_zero && get_u32(n, 4 * i) == 0;
    CHECK(slots_zero);
    CHECK(std::all_of(n.begin() + static_cast<std::ptrdiff_t>(kNodeBranches * 4 + 4 + k * kEntrySize), n.end(),
                      [](std::uint8_t v) { return v == 0; }));
    if (leaf) {
      if (!leaf_depth_set) {
        leaf_depth = depth;
        leaf_depth_set = true;
      }
      CHECK(depth == leaf_depth);  // every leaf at the same depth
    }
    for (std::size_t i = 0; i <= k; ++i) {
      if (!leaf) node(get_u32(n, 4 * i), depth + 1, false);
      if (i == k) break;
      const std::size_t e = kNodeBranches * 4 + 4 + i * kEntrySize;
      const std::uint32_t flags = get_u32(n, e);
      const Did id = get_u32(n, e + 4);
      CHECK((flags & 0xFFFFU) == 0);  // comp 0, reserved bits 0
      CHECK((flags >> 16U) == (id == kIterationId ? 1U : 2U));
      CHECK(static_cast<std::int32_t>(get_u32(n, e + 20)) >= 1);
      if (!ids.empty()) CHECK(id > ids.back());
      ids.push_back(id);
      chain(get_u32(n, e + 8), get_u32(n, e + 12));
    }
  }

  // Runs every check; returns the ids in order.
  void run(bool expect_free_block) {
    REQUIRE(bytes.size() >= kDataStart);
    CHECK((bytes.size() - kDataStart) % bs == 0);
    CHECK(get_u32(bytes, 0x140) == kHeaderMagic);
    CHECK(get_u32(bytes, 0x144) == bs);
    CHECK(get_u32(bytes, 0x148) == bytes.size());
    CHECK(bytes[0x100] == 0);
    CHECK(get_u32(bytes, 0x101) == kTransactionMagic);
    for (std::size_t i = 0x105; i < 0x140; ++i) CHECK(bytes[i] == 0);
    for (std::size_t i = kHeaderSize; i < kDataStart; ++i) CHECK(bytes[i] == 0);
    const std::uint32_t root = get_u32(bytes, 0x160);
    CHECK(root == kDataStart);
    node(root, 0, true);
    const std::uint32_t first_free = get_u32(bytes, 0x154);
    const std::uint32_t final_free = get_u32(bytes, 0x158);
    const std::uint32_t free_count = get_u32(bytes, 0x15C);
    if (expect_free_block) {
      CHECK(free_count == 1);
      CHECK(first_free == bytes.size() - bs);
      CHECK(final_free == first_free);
      CHECK(get_u32(bytes, first_free) == kFreeBlockFlag);
      ++owner[(first_free - kDataStart) / bs];
    } else {
      CHECK(free_count == 0);
      CHECK(first_free == bytes.size());
      CHECK(final_free == bytes.size());
    }
    // Every block belongs to exactly one chain or the free list.
    CHECK(std::all_of(owner.begin(), owner.end(), [](int o) { return o == 1; }));
  }
};

// Returns the depth of the leaves (0: a single root leaf).
std::size_t check_round_trip(const std::vector<DatRecord>& records, DatKind kind, std::uint32_t bs) {
  DatWriterOptions options;
  options.kind = kind;
  options.block_size = bs;
  const Bytes bytes = build(records, options);

  // Identical input, in any order, gives identical bytes.
  auto shuffled = records;
  std::reverse(shuffled.begin(), shuffled.end());
  CHECK(build(shuffled, options) == bytes);

  RawCheck raw(bytes, bs);
  raw.run(true);

  const DatFile dat = open_bytes(bytes);
  CHECK(dat.file_length() == bytes.size());
  CHECK(dat.header().file_size == bytes.size());
  CHECK(dat.block_size() == bs);
  CHECK(dat.kind() == kind);
  const auto defaults = dat_kind_defaults(kind);
  CHECK(dat.data_set() == defaults.data_set);
  CHECK(dat.data_subset() == defaults.data_subset);
  CHECK(dat.engine_pack_version() == (kind == DatKind::Cell ? 22U : 110U));
  CHECK(dat.game_pack_version() == 0);
  CHECK(dat.version_minor() == 6657);
  CHECK(dat.btree_root() == kDataStart);
  CHECK(dat.free_blocks() == 1);
  CHECK(dat.first_free() == bytes.size() - bs);
  CHECK(dat.final_free() == bytes.size() - bs);

  // Enumeration: every record plus the iteration record, ascending.
  std::map<Did, const DatRecord*> by_id;
  for (const auto& r : records) by_id[r.id] = &r;
  auto entries = dat.entries();
  REQUIRE(entries.has_value());
  REQUIRE(entries->size() == records.size() + 1);
  CHECK(std::is_sorted(entries->begin(), entries->end(),
                       [](const DatEntry& a, const DatEntry& b) { return a.id < b.id; }));
  std::vector<Did> enumerated;
  for (const auto& e : *entries) enumerated.push_back(e.id);
  CHECK(enumerated == raw.ids);
  for (const auto& e : *entries) {
    CHECK_FALSE(e.compressed());
    CHECK(e.iteration == 1);
    CHECK(e.date == 0);
    if (e.id == kIterationId) {
      CHECK(e.version() == 1);
      continue;
    }
    CHECK(e.version() == 2);
    REQUIRE(by_id.count(e.id) == 1);
    CHECK(e.size == by_id[e.id]->data.size());
  }

  // Lookup of every id, and the bytes.
  for (const auto& r : records) {
    auto found = dat.find(r.id);
    REQUIRE(found.has_value());
    REQUIRE(found->has_value());
    CHECK((*found)->id == r.id);
    auto data = dat.read(r.id);
    REQUIRE(data.has_value());
    CHECK(*data == r.data);
  }
  // Absent ids: neighbours of present ones, and the extremes.
  std::vector<Did> absent = {0x00000000U, 0xFFFFFFFFU, 0xFFFF0000U, 0xFFFF0002U};
  for (std::size_t i = 0; i < records.size(); i += 7) {
    absent.push_back(records[i].id + 1);
    absent.push_back(records[i].id - 1);
  }
  for (Did id : absent) {
    if (by_id.count(id) != 0 || id == kIterationId) continue;
    auto found = dat.find(id);
    REQUIRE(found.has_value());
    CHECK_FALSE(found->has_value());
    auto data = dat.read(id);
    REQUIRE_FALSE(data.has_value());
    CHECK(data.error().detail == "not found");
  }

  auto iterations = dat.iterations();
  REQUIRE(iterations.has_value());
  CHECK(*iterations == std::vector<std::int32_t>{1});
  CHECK(dat.read(kIterationId).value() == make_iteration_record(1));
  return raw.leaf_depth;
}

// The file offset of byte `pos` of a node written contiguously from `node`.
std::size_t node_byte(std::uint32_t node, std::size_t pos, std::uint32_t bs) {
  const std::size_t p = bs - 4;
  return node + (pos / p) * bs + 4 + pos % p;
}

std::size_t entry_field(std::uint32_t node, std::size_t index, std::size_t field, std::uint32_t bs) {
  return node_byte(node, kNodeBranches * 4 + 4 + index * kEntrySize + field, bs);
}

// The entry index of `id` in a single-leaf file.
std::size_t leaf_index(const Bytes& bytes, Did id, std::uint32_t bs) {
  const std::uint32_t root = get_u32(bytes, 0x160);
  const std::uint32_t count = get_u32(bytes, node_byte(root, kNodeBranches * 4, bs));
  for (std::size_t i = 0; i < count; ++i) {
    if (get_u32(bytes, entry_field(root, i, 4, bs)) == id) return i;
  }
  FAIL("id not in the root leaf");
  return 0;
}

// Runs every read operation; returns the first error, if any. Never throws.
std::optional<dereth::core::Error> first_error(const Bytes& bytes) {
  auto dat = DatFile::from_bytes(bytes, "bad.dat");
  if (!dat) return dat.error();
  auto entries = dat->entries();
  if (!entries) return entries.error();
  for (const auto& e : *entries) {
    auto found = dat->find(e.id);
    if (!found) return found.error();
    auto data = dat->read(e);
    if (!data) return data.error();
  }
  auto it = dat->iterations();
  if (!it) return it.error();
  return std::nullopt;
}

dereth::core::Error expect_error(const Bytes& bytes) {
  auto err = first_error(bytes);
  REQUIRE(err.has_value());
  INFO(err->message());
  CHECK(err->context.find("bad.dat") != std::string::npos);
  CHECK_FALSE(err->field.empty());
  return *err;
}

}  // namespace

TEST_CASE("container: round trip, block size 1024", "[dat][container]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{60}, std::size_t{61}, std::size_t{62}, std::size_t{1000}}) {
    INFO("records " << n);
    // With the iteration record: up to 61 entries fit one root leaf.
    CHECK(check_round_trip(make_records(n, 1024, n), DatKind::Portal, 1024) == (n + 1 <= 61 ? 0U : 1U));
  }
}

TEST_CASE("container: round trip, block size 256", "[dat][container]") {
  for (std::size_t n : {std::size_t{1}, std::size_t{60}, std::size_t{61}, std::size_t{62}, std::size_t{1000}}) {
    INFO("records " << n);
    CHECK(check_round_trip(make_records(n, 256, 100 + n), DatKind::Cell, 256) == (n + 1 <= 61 ? 0U : 1U));
  }
}

TEST_CASE("container: round trip, 5000 records (three levels)", "[dat][container]") {
  CHECK(check_round_trip(make_records(5000, 1024, 5000), DatKind::Portal, 1024) == 2);
  CHECK(check_round_trip(make_records(5000, 256, 5001), DatKind::Cell, 256) == 2);
}

TEST_CASE("container: other kinds and block sizes", "[dat][container]") {
  check_round_trip(make_records(70, 1024, 7), DatKind::HighRes, 1024);
  check_round_trip(make_records(70, 1024, 8), DatKind::Local, 1024);
  check_round_trip(make_records(70, 64, 9), DatKind::Portal, 64);       // 29 blocks per node
  check_round_trip(make_records(20, 1000, 10), DatKind::Portal, 1000);  // not a power of two
}

TEST_CASE("container: leaf detection and tree shape", "[dat][container]") {
  // 60 records + the iteration record = 61 entries: one root leaf.
  {
    const Bytes bytes = build(make_records(60, 1024, 1));
    CHECK(get_u32(bytes, node_byte(kDataStart, 0, 1024)) == 0);
    CHECK(get_u32(bytes, node_byte(kDataStart, kNodeBranches * 4, 1024)) == 61);
    // The root leaf is 2 blocks (1716 bytes at 1020 per block), chained 1024 -> 2048 -> 0.
    CHECK(get_u32(bytes, 1024) == 2048);
    CHECK(get_u32(bytes, 2048) == 0);
  }
  // 62 entries: a root with one key over two leaves of 30 and 31.
  {
    const Bytes bytes = build(make_records(61, 1024, 1));
    const std::uint32_t root = kDataStart;
    CHECK(get_u32(bytes, node_byte(root, kNodeBranches * 4, 1024)) == 1);
    const std::uint32_t left = get_u32(bytes, node_byte(root, 0, 1024));
    const std::uint32_t right = get_u32(bytes, node_byte(root, 4, 1024));
    CHECK(left != 0);
    CHECK(right != 0);
    CHECK(get_u32(bytes, node_byte(root, 8, 1024)) == 0);
    const auto left_count = get_u32(bytes, node_byte(left, kNodeBranches * 4, 1024));
    const auto right_count = get_u32(bytes, node_byte(right, kNodeBranches * 4, 1024));
    CHECK(left_count + right_count == 61);
    CHECK(std::min(left_count, right_count) >= 30);
    CHECK(get_u32(bytes, node_byte(left, 0, 1024)) == 0);
    CHECK(get_u32(bytes, node_byte(right, 0, 1024)) == 0);
  }
  // Slot 0 of 0xCDCDCDCD also means "leaf" (DRW-written files).
  {
    Bytes bytes = build(make_records(10, 1024, 3));
    put_u32(bytes, node_byte(kDataStart, 0, 1024), kLeafSentinel);
    put_u32(bytes, node_byte(kDataStart, 4 * 5, 1024), kLeafSentinel);  // garbage in unused slots is ignored
    const DatFile dat = open_bytes(bytes);
    auto entries = dat.entries();
    REQUIRE(entries.has_value());
    CHECK(entries->size() == 11);
    for (const auto& e : *entries) CHECK(dat.read(e.id).has_value());
  }
}

TEST_CASE("container: caller-provided iteration record and options", "[dat][container]") {
  auto records = make_records(40, 1024, 11);
  DatWriterOptions options;
  options.iteration = 5;
  options.date = 1234567;
  options.trailing_free_block = false;
  options.master_map_id = 0x25000009;
  {
    const Bytes bytes = build(records, options);
    RawCheck(bytes, 1024).run(false);
    const DatFile dat = open_bytes(bytes);
    CHECK(dat.free_blocks() == 0);
    CHECK(dat.first_free() == bytes.size());
    CHECK(dat.master_map_id() == 0x25000009);
    CHECK(dat.iterations().value() == std::vector<std::int32_t>{1, 2, 3, 4, 5});
    const auto entries = dat.entries().value();
    for (const auto& e : entries) {
      CHECK(e.iteration == 5);
      CHECK(e.date == 1234567);
    }
  }
  // The caller's own iteration record (mixed single and run tokens) is kept.
  {
    ByteWriter w;
    for (std::int32_t v : {5, 1, -3, 4, 9}) w.i32(v);
    records.push_back(DatRecord{kIterationId, w.data()});
    const Bytes bytes = build(records);
    const DatFile dat = open_bytes(bytes);
    CHECK(dat.entries().value().size() == records.size());
    CHECK(dat.iterations().value() == std::vector<std::int32_t>{1, 4, 5, 6, 9});
    CHECK(dat.find(kIterationId).value()->version() == 1);
  }
  // The DatWriter class, and write_file through a real file.
  {
    DatWriter writer(DatWriterOptions{.kind = DatKind::Cell});
    writer.add(0xA9B4FFFF, Bytes(252, 7));
    writer.add(0xA9B4FFFE, Bytes{1, 2, 3});
    const dereth::test::TempDir tmp("container-writer");
    const auto& dir = tmp.path();
    const auto path = dir / "client_cell_1.dat";
    REQUIRE(writer.write_file(path).has_value());
    REQUIRE(writer.write_file(path).has_value());  // over an existing file
    auto dat = DatFile::open(path);
    REQUIRE(dat.has_value());
    CHECK(dat->kind() == DatKind::Cell);
    CHECK(dat->block_size() == 256);
    CHECK(dat->file_length() == std::filesystem::file_size(path));
    CHECK(dat->read(0xA9B4FFFF).value() == Bytes(252, 7));
    CHECK(dat->read(0xA9B4FFFE).value() == Bytes{1, 2, 3});
    CHECK(dat->name() == path.string());
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
    CHECK(files == 1);  // no temporary left behind
  }
}

TEST_CASE("container: writer rejects bad input", "[dat][container]") {
  std::vector<DatRecord> dup = {{0x01000001, {1}}, {0x01000001, {2}}};
  auto r = build_dat(dup);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().field == "id");
  CHECK_FALSE(build_dat({}, DatWriterOptions{.block_size = 32}).has_value());
  CHECK_FALSE(build_dat({}, DatWriterOptions{.block_size = 70000}).has_value());
  CHECK_FALSE(build_dat({}, DatWriterOptions{.iteration = 0}).has_value());
  // No records at all still makes a valid file holding the iteration record.
  const Bytes bytes = build({});
  RawCheck(bytes, 1024).run(true);
  CHECK(open_bytes(bytes).entries().value().size() == 1);
}

TEST_CASE("container: open errors", "[dat][container]") {
  auto missing = DatFile::open("/nonexistent/dir/client_portal.dat");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().kind == ErrorKind::Io);
  CHECK(missing.error().context.find("client_portal.dat") != std::string::npos);
  const dereth::test::TempDir tmp("container-open");
  auto dir = DatFile::open(tmp.path());
  CHECK_FALSE(dir.has_value());
}

TEST_CASE("container: corrupt header", "[dat][container]") {
  const Bytes good = build(make_records(30, 1024, 21));
  REQUIRE_FALSE(first_error(good).has_value());
  {
    Bytes b = good;
    put_u32(b, 0x140, 0x5443);
    auto e = expect_error(b);
    CHECK(e.field == "header magic");
    CHECK(e.offset == 0x140);
  }
  {
    Bytes b = good;
    b[0x100] = 1;  // a journaled transaction: the file was left mid-write
    auto e = expect_error(b);
    CHECK(e.field == "transaction record type");
    CHECK(e.offset == 0x100);
  }
  {
    Bytes b = good;
    put_u32(b, 0x101, 0x4C51);
    auto e = expect_error(b);
    CHECK(e.field == "transaction record magic");
    CHECK(e.offset == 0x101);
  }
  for (std::uint32_t bs : {0U, 4U, 5U, 63U, 65537U, 0xFFFFFFFFU}) {
    Bytes b = good;
    put_u32(b, 0x144, bs);
    CHECK(expect_error(b).field == "block size");
  }
  for (std::uint32_t root : {1U, 1023U, 1025U, 0x80000400U, static_cast<std::uint32_t>(good.size())}) {
    Bytes b = good;
    put_u32(b, 0x160, root);
    CHECK(expect_error(b).field == "B-tree root");
  }
  {
    // fileSize_ is not trusted: a wrong value changes nothing.
    Bytes b = good;
    put_u32(b, 0x148, 0xFFFFFFF0U);
    CHECK_FALSE(first_error(b).has_value());
  }
  {
    // A root of 0 is an empty directory; the iteration record is then missing.
    Bytes b = good;
    put_u32(b, 0x160, 0);
    auto dat = DatFile::from_bytes(b, "bad.dat");
    REQUIRE(dat.has_value());
    CHECK(dat->entries().value().empty());
    CHECK_FALSE(dat->find(kIterationId).value().has_value());
    CHECK_FALSE(dat->iterations().has_value());
  }
}

TEST_CASE("container: truncated files", "[dat][container]") {
  DatWriterOptions options;
  options.trailing_free_block = false;  // so the last block belongs to a record
  for (std::uint32_t bs : {1024U, 256U}) {
    options.block_size = bs;
    const Bytes good = build(make_records(200, bs, 31), options);
    REQUIRE_FALSE(first_error(good).has_value());
    std::vector<std::size_t> lengths = {0,
                                        1,
                                        399,
                                        400,
                                        401,
                                        1023,
                                        1024,
                                        1024 + bs,
                                        1024 + 2 * bs,
                                        good.size() / 2,
                                        good.size() - bs,
                                        good.size() - bs + 3,
                                        good.size() - 1};
    for (std::size_t len : lengths) {
      INFO("bs " << bs << " length " << len);
      Bytes b(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(len));
      auto e = expect_error(b);
      if (len < kHeaderSize) {
        CHECK(e.kind == ErrorKind::Truncated);
        CHECK(e.field == "header");
      }
    }
  }
  // The same through a real file: the OS length bounds every read.
  const Bytes good = build(make_records(100, 1024, 32), options);
  const dereth::test::TempDir tmp("container-cut");
  const auto path = tmp / "client_portal.dat";
  for (std::size_t len : {std::size_t{200}, std::size_t{5000}, good.size() - 1}) {
    {
      std::ofstream f(path, std::ios::binary | std::ios::trunc);
      f.write(reinterpret_cast<const char*>(good.data()), static_cast<std::streamsize>(len));
    }
    auto dat = DatFile::open(path);
    bool failed = !dat.has_value();
    if (dat) {
      auto entries = dat->entries();
      failed = !entries.has_value();
      if (entries) {
        for (const auto& e : *entries) failed = failed || !dat->read(e).has_value();
      }
    }
    CHECK(failed);
  }
}

TEST_CASE("container: corrupt block chains", "[dat][container]") {
  const std::uint32_t bs = 256;
  const std::uint32_t p = bs - 4;
  std::vector<DatRecord> records = make_records(20, bs, 41);
  records.push_back(DatRecord{0x01000077, Bytes(3 * p, 0x5A)});  // exactly 3 blocks: A -> B -> C -> 0
  const Bytes good = build(records, DatWriterOptions{.block_size = bs});
  const DatFile dat = open_bytes(good);
  const DatEntry entry = dat.find(0x01000077).value().value();
  const std::uint32_t a = entry.offset;
  const std::uint32_t b_off = get_u32(good, a);
  const std::uint32_t c = get_u32(good, b_off);
  REQUIRE(get_u32(good, c) == 0);

  auto read_damaged = [&](const Bytes& bytes) {
    auto damaged = open_bytes(bytes, "bad.dat");
    auto r = damaged.read(0x01000077);
    REQUIRE_FALSE(r.has_value());
    INFO(r.error().message());
    CHECK(r.error().context == "bad.dat id 0x01000077");
    CHECK(r.error().field == "block link");
    return r.error();
  };
  SECTION("cyclic chain") {
    Bytes bad = good;
    put_u32(bad, b_off, a);  // A -> B -> A -> ...
    auto e = read_damaged(bad);
    CHECK(e.detail.find("cyclic") != std::string::npos);
    Bytes self = good;
    put_u32(self, a, a);  // A -> A
    CHECK(read_damaged(self).detail.find("cyclic") != std::string::npos);
  }
  SECTION("free block inside the chain") {
    Bytes bad = good;
    put_u32(bad, a, b_off | kFreeBlockFlag);
    auto e = read_damaged(bad);
    CHECK(e.offset == a);
    CHECK(e.detail.find("bit 31") != std::string::npos);
  }
  SECTION("link beyond the file or off the block grid") {
    for (std::uint64_t link :
         {std::uint64_t{good.size()}, std::uint64_t{good.size()} + 10 * bs, std::uint64_t{0x7FFFFC00},
          std::uint64_t{b_off} + 1, std::uint64_t{512}, std::uint64_t{4}}) {
      Bytes bad = good;
      put_u32(bad, a, static_cast<std::uint32_t>(link));
      auto e = read_damaged(bad);
      CHECK(e.offset == a);
      CHECK(e.detail.find("not a block offset") != std::string::npos);
    }
  }
  SECTION("premature end of chain") {
    Bytes bad = good;
    put_u32(bad, b_off, 0);
    CHECK(read_damaged(bad).detail.find("chain ends after block 2 of 3") != std::string::npos);
  }
  SECTION("non-zero link after the last block") {
    Bytes bad = good;
    put_u32(bad, c, kDataStart);
    CHECK(read_damaged(bad).offset == c);
    Bytes flagged = good;
    put_u32(flagged, c, kFreeBlockFlag);  // even a free-list tag
    read_damaged(flagged);
  }
}

TEST_CASE("container: corrupt entries", "[dat][container]") {
  const std::uint32_t bs = 1024;
  const Bytes good = build(make_records(30, bs, 51));
  const DatFile dat = open_bytes(good);
  const auto entries = dat.entries().value();
  const DatEntry target = entries[entries.size() / 2];
  REQUIRE(target.size > 0);
  const std::size_t index = leaf_index(good, target.id, bs);

  auto damaged_read = [&](std::size_t field, std::uint32_t value) {
    Bytes bad = good;
    put_u32(bad, entry_field(kDataStart, index, field, bs), value);
    auto r = open_bytes(bad, "bad.dat").read(target.id);
    REQUIRE_FALSE(r.has_value());
    INFO(r.error().message());
    CHECK(r.error().context.find("bad.dat id 0x") != std::string::npos);
    return r.error();
  };
  // A size far beyond the file fails before anything is allocated.
  for (std::uint32_t size : {0x7FFFFFFFU, 0xFFFFFFFFU, static_cast<std::uint32_t>(good.size())}) {
    auto e = damaged_read(12, size);
    CHECK(e.kind == ErrorKind::TooLarge);
    CHECK(e.field == "entry size");
  }
  for (std::uint32_t offset : {0U, 5U, 1023U, 0x80000400U, 0xFFFFFFFFU}) {
    CHECK(damaged_read(8, offset).field == "first block");
  }
  // Ids out of order inside a node.
  {
    Bytes bad = good;
    put_u32(bad, entry_field(kDataStart, 3, 4, bs), 0U);
    auto e = expect_error(bad);
    CHECK(e.field == "B-tree entry id");
    CHECK(e.offset == entry_field(kDataStart, 3, 4, bs));
  }
}

TEST_CASE("container: corrupt B-tree", "[dat][container]") {
  const std::uint32_t bs = 1024;
  const std::size_t count_pos = kNodeBranches * 4;
  SECTION("NumEntries 62 and negative in the root") {
    const Bytes good = build(make_records(30, bs, 61));
    for (std::uint32_t n : {62U, 0xFFFFFFFFU, 0x80000000U, 1000U}) {
      Bytes bad = good;
      put_u32(bad, node_byte(kDataStart, count_pos, bs), n);
      auto e = expect_error(bad);
      CHECK(e.field == "B-tree NumEntries");
      CHECK(e.offset == node_byte(kDataStart, count_pos, bs));
    }
  }
  // 1000 records: a root over 17 leaves.
  const Bytes good = build(make_records(1000, bs, 62));
  const DatFile dat = open_bytes(good);
  const std::uint32_t root = kDataStart;
  const std::uint32_t root_count = get_u32(good, node_byte(root, count_pos, bs));
  REQUIRE(root_count == 16);
  const std::uint32_t leaf3 = get_u32(good, node_byte(root, 4 * 3, bs));
  const Did in_leaf3 = get_u32(good, entry_field(leaf3, 0, 4, bs));
  SECTION("NumEntries 62 and negative in a leaf") {
    for (std::uint32_t n : {62U, 0xFFFFFFFFU}) {
      Bytes bad = good;
      put_u32(bad, node_byte(leaf3, count_pos, bs), n);
      auto e = expect_error(bad);
      CHECK(e.field == "B-tree NumEntries");
      auto found = open_bytes(bad, "bad.dat").find(in_leaf3);
      REQUIRE_FALSE(found.has_value());
      CHECK(found.error().field == "B-tree NumEntries");
      CHECK(found.error().context.find(fmt_id(in_leaf3)) != std::string::npos);
    }
  }
  SECTION("child pointer loop back to the root") {
    Bytes bad = good;
    put_u32(bad, node_byte(root, 4 * 3, bs), root);
    auto found = open_bytes(bad, "bad.dat").find(in_leaf3);
    REQUIRE_FALSE(found.has_value());
    CHECK(found.error().field == "B-tree child pointer");
    CHECK(found.error().detail.find("loop") != std::string::npos);
    CHECK(expect_error(bad).detail.find("loop") != std::string::npos);
  }
  SECTION("two slots sharing a child") {
    Bytes bad = good;
    put_u32(bad, node_byte(root, 4 * 4, bs), leaf3);
    auto e = expect_error(bad);
    CHECK(e.field == "B-tree child pointer");
  }
  SECTION("a leaf turned into a node pointing at the root") {
    Bytes bad = good;
    const std::uint32_t n = get_u32(good, node_byte(leaf3, count_pos, bs));
    for (std::uint32_t i = 0; i <= n; ++i) put_u32(bad, node_byte(leaf3, 4 * i, bs), root);
    const Did absent = in_leaf3 + 1;  // falls through the leaf into a child
    auto found = open_bytes(bad, "bad.dat").find(absent);
    REQUIRE_FALSE(found.has_value());
    CHECK(found.error().detail.find("loop") != std::string::npos);
    CHECK(expect_error(bad).field == "B-tree child pointer");
  }
  SECTION("a child pointer into a free block or off the grid") {
    for (std::uint32_t v : {0x80000000U | leaf3, leaf3 + 4, 0U}) {
      Bytes bad = good;
      put_u32(bad, node_byte(root, 4 * 5, bs), v);
      CHECK(expect_error(bad).field == "B-tree child pointer");
    }
  }
}

TEST_CASE("container: compressed entries", "[dat][container]") {
  // A record body compressed with zlib's compress2, stored as u32 size + stream.
  Bytes payload(5000);
  for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>((i * 7) % 13);
  auto compress = [](const Bytes& in, std::uint32_t prefix) {
    uLongf len = compressBound(static_cast<uLong>(in.size()));
    Bytes out(4 + len);
    REQUIRE(compress2(out.data() + 4, &len, in.data(), static_cast<uLong>(in.size()), 9) == Z_OK);
    out.resize(4 + len);
    put_u32(out, 0, prefix);
    return out;
  };
  const Bytes stored = compress(payload, 5000);
  const Did id = 0x06000042;
  auto make = [&](const Bytes& body) {
    Bytes bytes = build({DatRecord{id, body}, DatRecord{0x06000001, {1, 2, 3}}});
    const std::size_t index = leaf_index(bytes, id, 1024);
    const std::size_t flags_at = entry_field(kDataStart, index, 0, 1024);
    put_u32(bytes, flags_at, get_u32(bytes, flags_at) | 1U);  // comp_
    return bytes;
  };
  {
    const DatFile dat = open_bytes(make(stored));
    const DatEntry entry = dat.find(id).value().value();
    CHECK(entry.compressed());
    CHECK(entry.version() == 2);
    CHECK(entry.size == stored.size());
    CHECK(dat.read(id).value() == payload);
    CHECK(dat.read_stored(entry).value() == stored);
    CHECK(dat.read(0x06000001).value() == Bytes{1, 2, 3});
  }
  {
    const DatFile dat = open_bytes(make(compress({}, 0)));
    CHECK(dat.read(id).value().empty());
  }
  auto read_error = [&](const Bytes& body) {
    auto r = open_bytes(make(body), "bad.dat").read(id);
    REQUIRE_FALSE(r.has_value());
    INFO(r.error().message());
    CHECK(r.error().context == "bad.dat id 0x06000042");
    return r.error();
  };
  CHECK(read_error(compress(payload, 4999)).field == "zlib stream");
  CHECK(read_error(compress(payload, 5001)).field == "zlib stream");
  CHECK(read_error(compress(payload, 0xFFFFFFFFU)).kind == ErrorKind::TooLarge);
  CHECK(read_error(compress(payload, kMaxUncompressedSize + 1)).kind == ErrorKind::TooLarge);
  CHECK(read_error(Bytes{1, 2, 3}).kind == ErrorKind::Truncated);
  Bytes garbage = stored;
  for (std::size_t i = 10; i < garbage.size(); i += 3) garbage[i] ^= 0x55;
  CHECK(read_error(garbage).field == "zlib stream");
  Bytes cut(stored.begin(), stored.begin() + 20);
  CHECK(read_error(cut).field == "zlib stream");
}

TEST_CASE("container: iteration list parsing", "[dat][container]") {
  auto parse = [](std::initializer_list<std::int32_t> words) {
    ByteWriter w;
    for (auto v : words) w.i32(v);
    return parse_iteration_list(w.view(), "iter");
  };
  CHECK(parse({0}).value().empty());
  CHECK(parse({1, -1, 1}).value() == std::vector<std::int32_t>{1});
  CHECK(parse({3, -3, 1}).value() == std::vector<std::int32_t>{1, 2, 3});
  CHECK(parse({4, 2, 7, -2, 10}).value() == std::vector<std::int32_t>{2, 7, 10, 11});
  CHECK(make_iteration_record(982) == [] {
    ByteWriter w;
    w.i32(982);
    w.i32(-982);
    w.i32(1);
    return w.data();
  }());
  CHECK(parse({-1}).error().field == "iteration count");
  CHECK(parse({100001}).error().field == "iteration count");
  CHECK(parse({2, -3, 1}).error().field == "iteration token");  // run longer than the count
  CHECK(parse({3, 1}).error().kind == ErrorKind::Truncated);
  CHECK(parse({1, -1}).error().kind == ErrorKind::Truncated);
  CHECK(parse({1, 1, 0}).error().kind == ErrorKind::Trailing);
  CHECK_FALSE(parse({2, std::numeric_limits<std::int32_t>::min(), 1}).has_value());
  CHECK(parse({2, -2, std::numeric_limits<std::int32_t>::max()}).error().field == "iteration run start");
  CHECK(parse({100000, -100000, 1}).value().size() == 100000);
  CHECK(parse({}).error().kind == ErrorKind::Truncated);
}

TEST_CASE("container: concurrent reads give identical bytes", "[dat][container]") {
  const auto records = make_records(1000, 1024, 71);
  const Bytes bytes = build(records);
  const dereth::test::TempDir tmp("container-threads");
  const auto path = tmp / "client_portal.dat";
  REQUIRE(dereth::core::write_file_atomic(path, bytes).has_value());
  auto opened = DatFile::open(path);
  REQUIRE(opened.has_value());
  const DatFile dat = *opened;  // copies share the descriptor and cache
  std::vector<std::vector<Bytes>> results(4);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&, t] {
      auto entries = dat.entries();
      if (!entries) {
        ++failures;
        return;
      }
      // Each thread walks the ids in a different order.
      std::vector<DatEntry> order = *entries;
      std::rotate(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(t * 250), order.end());
      std::map<Did, Bytes> got;
      for (const auto& e : order) {
        auto data = t % 2 == 0 ? dat.read(e.id) : dat.read(e);
        if (!data) {
          ++failures;
          return;
        }
        got[e.id] = std::move(*data);
      }
      for (auto& [id, data] : got) results[t].push_back(std::move(data));
    });
  }
  for (auto& th : threads) th.join();
  CHECK(failures == 0);
  REQUIRE(results[0].size() == records.size() + 1);
  for (std::size_t t = 1; t < results.size(); ++t) CHECK(results[t] == results[0]);
  std::map<Did, Bytes> expected;
  for (const auto& r : records) expected[r.id] = r.data;
  expected[kIterationId] = make_iteration_record(1);
  std::size_t i = 0;
  for (const auto& [id, data] : expected) CHECK(results[0][i++] == data);
}

TEST_CASE("container: random damage never crashes or hangs", "[dat][container]") {
  Rng rng{99};
  for (std::uint32_t bs : {256U, 1024U}) {
    const Bytes good = build(make_records(150, bs, bs));
    for (int round = 0; round < 300; ++round) {
      Bytes bad = good;
      const std::uint32_t flips = 1 + rng.below(8);
      for (std::uint32_t k = 0; k < flips; ++k) {
        // Aim at the header and directory half the time.
        const std::size_t limit = rng.below(2) == 0 ? std::min<std::size_t>(good.size(), 1024 + 7 * bs) : good.size();
        const std::size_t at = rng.below(static_cast<std::uint32_t>(limit));
        if (rng.below(3) == 0 && at + 4 <= bad.size()) {
          put_u32(bad, at, static_cast<std::uint32_t>(rng.next()));
        } else {
          bad[at] = static_cast<std::uint8_t>(rng.next());
        }
      }
      if (rng.below(5) == 0) bad.resize(rng.below(static_cast<std::uint32_t>(bad.size())));
      (void)first_error(bad);  // an error or not; just never a crash
      auto dat = DatFile::from_bytes(bad, "bad.dat");
      if (dat) {
        for (Did id : {0x00000000U, 0x7FFFFFFFU, 0xFFFFFFFFU, kIterationId}) (void)dat->find(id);
      }
    }
  }
}

// A program's start (dat::open_whole): a whole file opens; a copy cut short
// anywhere past its header, a file of garbage or an empty one is one sentence
// naming the file and what is wrong, before any record is used.
TEST_CASE("container: open_whole says in one sentence that a file is cut short or not a DAT", "[dat][container]") {
  const dereth::test::TempDir tmp("container-whole");
  const auto path = tmp / "client_portal.dat";
  const auto write = [&](const Bytes& bytes, std::size_t len) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(len));
  };
  for (std::uint32_t bs : {1024U, 256U}) {
    DatWriterOptions options;
    options.block_size = bs;
    options.trailing_free_block = false;  // so the last block belongs to a record
    const Bytes good = build(make_records(200, bs, 41), options);
    write(good, good.size());
    REQUIRE(open_whole(path).has_value());
    REQUIRE(open_bytes(good).check_whole().has_value());
    Bytes unstated = good;
    put_u32(unstated, 0x148, 0);
    for (std::size_t len :
         {std::size_t{1024} + bs, good.size() / 3, good.size() / 2, good.size() - bs, good.size() - 1}) {
      INFO("bs " << bs << " length " << len);
      write(good, len);
      auto opened = open_whole(path);
      REQUIRE_FALSE(opened.has_value());
      CHECK(opened.error().message() == path.string() + ": cut short: it is " + std::to_string(len) +
                                            " bytes where its header says " + std::to_string(good.size()) +
                                            "; copy it again");
      // The check alone, with a header that states no length: still caught.
      const Bytes cut(unstated.begin(), unstated.begin() + static_cast<std::ptrdiff_t>(len));
      if (auto dat = DatFile::from_bytes(cut, "cut.dat")) CHECK_FALSE(dat->check_whole().has_value());
    }
  }
  // Garbage: no DAT header, in words.
  Bytes garbage(70000);
  Rng rng{7};
  for (auto& b : garbage) b = static_cast<std::uint8_t>(rng.next());
  write(garbage, garbage.size());
  auto foreign = open_whole(path);
  REQUIRE_FALSE(foreign.has_value());
  CHECK(foreign.error().message().starts_with(path.string() + ": not an Asheron's Call DAT file: byte 320 holds 0x"));
  CHECK(foreign.error().message().ends_with(" where a DAT's header has 0x00005442"));
  write(garbage, 10);
  auto tiny = open_whole(path);
  REQUIRE_FALSE(tiny.has_value());
  CHECK(tiny.error().message() ==
        path.string() +
            ": not a DAT file: it is 10 bytes, shorter than a DAT's 400-byte header (an empty "
            "or cut-short copy?)");
  auto missing = open_whole(tmp / "nothing.dat");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message() == (tmp / "nothing.dat").string() + ": cannot be opened (No such file or directory)");
}
