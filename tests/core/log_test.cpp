#include "dereth/core/log.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <thread>
#include <vector>

using dereth::core::Module;

TEST_CASE("logging: one named logger per module", "[log]") {
  const std::pair<Module, const char*> expected[] = {
      {Module::Core, "core"},     {Module::Dat, "dat"},           {Module::Protocol, "protocol"},
      {Module::Net, "net"},       {Module::Scenario, "scenario"}, {Module::Sim, "sim"},
      {Module::Render, "render"}, {Module::Audio, "audio"},       {Module::App, "app"},
      {Module::Tools, "tools"},
  };
  for (const auto& [module, name] : expected) {
    CHECK(dereth::core::module_name(module) == name);
    const auto log = dereth::core::logger(module);
    REQUIRE(log);
    CHECK(log->name() == name);
    CHECK(dereth::core::logger(module) == log);  // created once
  }
  CHECK(dereth::core::kAllModules.size() == dereth::core::kModuleCount);
}

TEST_CASE("logging: logger() is safe from many threads", "[log]") {
  std::vector<std::shared_ptr<spdlog::logger>> seen(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i) {
    threads.emplace_back([&seen, i] {
      for (int n = 0; n < 100; ++n) {
        seen[i] = dereth::core::logger(Module::Scenario);
      }
    });
  }
  for (auto& t : threads) {
    t.join();
  }
  for (const auto& log : seen) {
    CHECK(log == dereth::core::logger(Module::Scenario));
  }
}

TEST_CASE("logging: parse_log_level", "[log]") {
  using spdlog::level::level_enum;
  const std::pair<const char*, level_enum> good[] = {
      {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug}, {"info", spdlog::level::info},
      {"warn", spdlog::level::warn},   {"error", spdlog::level::err},   {"critical", spdlog::level::critical},
      {"off", spdlog::level::off},     {"WARN", spdlog::level::warn},   {"Debug", spdlog::level::debug},
  };
  for (const auto& [text, level] : good) {
    INFO(text);
    level_enum parsed = spdlog::level::critical;
    if (level == spdlog::level::critical) {
      parsed = spdlog::level::trace;
    }
    CHECK(dereth::core::parse_log_level(text, parsed));
    CHECK(parsed == level);
  }
  for (const char* bad : {"", "verbose", "warning", "err", "info ", " info", "tracex", "0"}) {
    INFO("'" << bad << "'");
    level_enum parsed = spdlog::level::info;
    CHECK_FALSE(dereth::core::parse_log_level(bad, parsed));
    CHECK(parsed == spdlog::level::info);  // unchanged
  }
}

TEST_CASE("logging: init_logging sets the level on every module logger", "[log]") {
  dereth::core::init_logging(spdlog::level::warn);
  for (const Module module : dereth::core::kAllModules) {
    INFO(std::string(dereth::core::module_name(module)));
    CHECK(dereth::core::logger(module)->level() == spdlog::level::warn);
  }
  dereth::core::init_logging(spdlog::level::debug);
  for (const Module module : dereth::core::kAllModules) {
    CHECK(dereth::core::logger(module)->level() == spdlog::level::debug);
  }
  dereth::core::init_logging(spdlog::level::info);
  CHECK(dereth::core::logger(Module::Net)->level() == spdlog::level::info);
}
