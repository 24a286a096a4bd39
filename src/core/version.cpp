#include "dereth/core/version.hpp"

namespace dereth::core {

std::string_view version() noexcept {
  return DERETH_VERSION_STRING;
}

}  // namespace dereth::core
