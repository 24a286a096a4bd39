#include "dereth/sim/module.hpp"

namespace dereth::sim {

std::string_view module_name() noexcept { return "sim"; }

}  // namespace dereth::sim
