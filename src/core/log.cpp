#include "dereth/core/log.hpp"

#include <mutex>
#include <utility>

#include <spdlog/sinks/stdout_color_sinks.h>

namespace dereth::core {

namespace {

struct Registry {
  std::mutex mutex;
  spdlog::sink_ptr sink;
  std::array<std::shared_ptr<spdlog::logger>, kModuleCount> loggers;
  spdlog::level::level_enum level = spdlog::level::info;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

std::size_t index_of(Module module) noexcept {
  return static_cast<std::size_t>(module);
}

// Callers hold registry().mutex.
std::shared_ptr<spdlog::logger>& ensure_locked(Registry& reg, Module module) {
  if (index_of(module) >= kModuleCount) {
    module = Module::Core;  // an out-of-range cast; never index past the table
  }
  auto& slot = reg.loggers[index_of(module)];
  if (!slot) {
    if (!reg.sink) {
      reg.sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
      reg.sink->set_pattern("[%H:%M:%S.%e] [%n] [%^%l%$] %v");
    }
    slot = std::make_shared<spdlog::logger>(std::string(module_name(module)), reg.sink);
    slot->set_level(reg.level);
  }
  return slot;
}

bool equals_ignore_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z') {
      c = static_cast<char>(c - 'A' + 'a');
    }
    if (c != b[i]) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string_view module_name(Module module) noexcept {
  switch (module) {
    case Module::Core: return "core";
    case Module::Dat: return "dat";
    case Module::Protocol: return "protocol";
    case Module::Net: return "net";
    case Module::Scenario: return "scenario";
    case Module::Sim: return "sim";
    case Module::Render: return "render";
    case Module::Audio: return "audio";
    case Module::App: return "app";
    case Module::Tools: return "tools";
  }
  return "unknown";
}

std::shared_ptr<spdlog::logger> logger(Module module) {
  auto& reg = registry();
  const std::lock_guard lock(reg.mutex);
  return ensure_locked(reg, module);
}

void init_logging(spdlog::level::level_enum level) {
  auto& reg = registry();
  const std::lock_guard lock(reg.mutex);
  reg.level = level;
  for (const Module module : kAllModules) {
    ensure_locked(reg, module)->set_level(level);
  }
}

bool parse_log_level(std::string_view text, spdlog::level::level_enum& level) noexcept {
  static constexpr std::pair<std::string_view, spdlog::level::level_enum> kLevels[] = {
      {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug}, {"info", spdlog::level::info},
      {"warn", spdlog::level::warn},   {"error", spdlog::level::err},   {"critical", spdlog::level::critical},
      {"off", spdlog::level::off},
  };
  for (const auto& [name, value] : kLevels) {
    if (equals_ignore_case(text, name)) {
      level = value;
      return true;
    }
  }
  return false;
}

}  // namespace dereth::core
