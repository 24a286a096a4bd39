#pragma once
#include <string_view>

namespace dereth::net {

// The module's name, as the logger and the build's link rules know it.
[[nodiscard]] std::string_view module_name() noexcept;

}  // namespace dereth::net
