#include "dereth/scenario/module.hpp"

namespace dereth::scenario {

std::string_view module_name() noexcept { return "scenario"; }

}  // namespace dereth::scenario
