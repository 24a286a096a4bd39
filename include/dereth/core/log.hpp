#pragma once
// spdlog set-up: one named logger per module, all writing to stderr.
// logger(Module::Net)->warn("...") creates the logger on first use (safe from
// any thread) at the level last given to init_logging (info by default).

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include <spdlog/common.h>
#include <spdlog/logger.h>

namespace dereth::core {

enum class Module : std::uint8_t {
  Core,
  Dat,
  Protocol,
  Net,
  Scenario,
  Sim,
  Render,
  Audio,
  App,
  Tools,
};

inline constexpr std::size_t kModuleCount = 10;

inline constexpr std::array<Module, kModuleCount> kAllModules = {
    Module::Core, Module::Dat,    Module::Protocol, Module::Net, Module::Scenario,
    Module::Sim,  Module::Render, Module::Audio,    Module::App, Module::Tools,
};

// The logger's name: "core", "dat", "protocol", "net", "scenario", "sim",
// "render", "audio", "app", "tools".
[[nodiscard]] std::string_view module_name(Module module) noexcept;

// The module's logger, created on first use (thread-safe); the same pointer
// on every call.
[[nodiscard]] std::shared_ptr<spdlog::logger> logger(Module module);

// Sets `level` on every module logger (creating any not yet made) and on
// loggers created later.
void init_logging(spdlog::level::level_enum level);

// Parses trace, debug, info, warn, error, critical or off (ASCII case
// ignored). On success stores the level and returns true; otherwise leaves
// `level` unchanged and returns false.
[[nodiscard]] bool parse_log_level(std::string_view text, spdlog::level::level_enum& level) noexcept;

}  // namespace dereth::core
