#pragma once
// One decoded record of a DAT file, or none: absent records are simply not
// there, unreadable or undecodable ones are logged (under the caller's log
// module) and also give none. For the readers that go on without a record.
#include <optional>
#include <utility>

#include "dereth/core/log.hpp"
#include "dereth/dat/dat_file.hpp"

namespace dereth::dat {

template <class T, class Read>
std::optional<T> read_record(core::Module module, const DatFile* dat, Did id, const char* what, Read read) {
  if (dat == nullptr) return std::nullopt;
  auto entry = dat->find(id);
  if (!entry || !entry->has_value()) return std::nullopt;
  auto bytes = dat->read(**entry);
  if (!bytes) {
    core::logger(module)->warn("{} {:08X}: {}", what, id, bytes.error().message());
    return std::nullopt;
  }
  auto record = read(*bytes, id);
  if (!record) {
    core::logger(module)->warn("{} {:08X}: {}", what, id, record.error().message());
    return std::nullopt;
  }
  return std::move(*record);
}

}  // namespace dereth::dat
