#include "dereth/dat/module.hpp"

namespace dereth::dat {

std::string_view module_name() noexcept { return "dat"; }

}  // namespace dereth::dat
