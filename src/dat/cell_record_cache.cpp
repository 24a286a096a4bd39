#include "dereth/dat/cell_record_cache.hpp"

#include <string>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/dat/record_cache.hpp"

namespace dereth::dat {

namespace {

// The kinds, in the key's high word.
constexpr std::uint8_t kLandBlock = 1;
constexpr std::uint8_t kLandBlockInfo = 2;
constexpr std::uint8_t kEnvCell = 3;

// Expired entries are swept when the table has grown past this many.
constexpr std::size_t kSweepAt = 4096;

}  // namespace

template <class T, class Read>
std::shared_ptr<const T> CellRecordCache::get(std::uint8_t kind, Did id, const char* name, Read read) {
  if (cell_ == nullptr) return nullptr;
  const std::uint64_t key = (std::uint64_t{kind} << 32) | id;
  {
    const std::lock_guard lock(mutex_);
    if (absent_.contains(key)) return nullptr;
    if (const auto it = held_.find(key); it != held_.end()) {
      if (auto held = it->second.lock()) return std::static_pointer_cast<const T>(held);
    }
  }
  // Read and decoded outside the lock (DatFile reads from several threads).
  note_read_on_this_thread();
  std::string why;
  std::shared_ptr<const T> value;
  bool absent = false;
  if (auto entry = cell_->find(id); !entry) {
    why = entry.error().message();
  } else if (!*entry) {
    absent = true;  // simply not there
  } else if (auto bytes = cell_->read(**entry); !bytes) {
    why = bytes.error().message();
  } else if (auto record = read(*bytes, id); !record) {
    why = record.error().message();
  } else {
    value = std::make_shared<const T>(std::move(*record));
  }
  const std::lock_guard lock(mutex_);
  if (absent) {
    absent_.insert(key);
    return nullptr;
  }
  ++reads_;
  if (!value) {
    if (absent_.insert(key).second) {
      core::logger(core::Module::Dat)->warn("{} {:#010x} cannot be used: {}", name, id, why);
      missing_.push_back(MissingRecord{id, name, std::move(why)});
    }
    return nullptr;
  }
  // Another thread read it meanwhile: its copy is the one handed out.
  if (const auto it = held_.find(key); it != held_.end()) {
    if (auto held = it->second.lock()) return std::static_pointer_cast<const T>(held);
  }
  if (held_.size() >= kSweepAt) std::erase_if(held_, [](const auto& e) { return e.second.expired(); });
  held_.insert_or_assign(key, std::weak_ptr<const void>(value));
  return value;
}

bool CellRecordCache::unreadable(Did id) const {
  if (cell_ == nullptr) return false;
  const auto entry = cell_->find(id);
  return !entry || entry->has_value();
}

std::size_t CellRecordCache::reads() const {
  const std::lock_guard lock(mutex_);
  return reads_;
}

std::vector<MissingRecord> CellRecordCache::missing() const {
  const std::lock_guard lock(mutex_);
  return missing_;
}

std::shared_ptr<const LandBlock> CellRecordCache::land_block(Did id) {
  return get<LandBlock>(kLandBlock, id, "LandBlock", read_land_block);
}

std::shared_ptr<const LandBlockInfo> CellRecordCache::land_block_info(Did id) {
  return get<LandBlockInfo>(kLandBlockInfo, id, "LandBlockInfo", read_land_block_info);
}

std::shared_ptr<const EnvCell> CellRecordCache::env_cell(Did id) {
  return get<EnvCell>(kEnvCell, id, "EnvCell", read_env_cell);
}

}  // namespace dereth::dat
