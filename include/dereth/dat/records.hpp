#pragma once
// Decoding any record by its id: the bridge from the container to the typed
// records, for dereth-dat (dump, verify) and for tests that check a whole
// file decodes.

#include <cstdint>
#include <span>
#include <string>

#include "dereth/core/error.hpp"
#include "dereth/dat/db_type.hpp"
#include "dereth/dat/types.hpp"

namespace dereth::dat {

// True when dereth has a reader for records of this type.
[[nodiscard]] bool has_record_reader(DbType type) noexcept;

// Decodes the record (the whole of it must be consumed) and returns its JSON
// view: {"id":"0x...","type":"GfxObj",...}. An unsupported type is an error
// of kind Unsupported.
core::Result<std::string> record_json(Did id, DbType type, std::span<const std::uint8_t> bytes);

// Decodes the record and throws the result away: the check `verify` runs.
core::Result<void> decode_record(Did id, DbType type, std::span<const std::uint8_t> bytes);

}  // namespace dereth::dat
