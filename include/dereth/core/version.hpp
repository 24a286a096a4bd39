#pragma once
#include <string_view>

namespace dereth::core {

// The project version, e.g. "0.1.0" (from CMake's project()).
[[nodiscard]] std::string_view version() noexcept;

}  // namespace dereth::core
