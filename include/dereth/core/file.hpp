#pragma once
// Files written whole: a reader sees the old file or the new one, never a
// partial one (DATs, screenshots, the config file).

#include <cstdint>
#include <filesystem>
#include <span>

#include "dereth/core/error.hpp"

namespace dereth::core {

// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then
// renames it over `path`.
[[nodiscard]] Result<void> write_file_atomic(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);

}  // namespace dereth::core
