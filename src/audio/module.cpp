#include "dereth/audio/module.hpp"

namespace dereth::audio {

std::string_view module_name() noexcept { return "audio"; }

}  // namespace dereth::audio
