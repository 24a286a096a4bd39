#include "dereth/net/module.hpp"

namespace dereth::net {

std::string_view module_name() noexcept { return "net"; }

}  // namespace dereth::net
