#pragma once
// A scenario file of this repository served over loopback UDP on a free
// port pair, for the tests that run `dereth play` against it.

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

#include "run_cli.hpp"
#include "support/temp_dir.hpp"

namespace dereth::app::test {

struct Served {
  explicit Served(const std::string& relative, scenario::UdpServerOptions options = {})
      : server(load(relative), options) {
    REQUIRE(server.start().has_value());
    where = "127.0.0.1:" + std::to_string(server.port());
  }
  static scenario::Scenario load(const std::string& relative) {
    auto sc = scenario::load_scenario_file(std::string(DERETH_SOURCE_DIR) + relative);
    REQUIRE(sc.has_value());
    return std::move(*sc);
  }
  // Whether any message the server has received satisfies `pred` (a
  // scenario::ClientMessage predicate).
  template <class Pred>
  [[nodiscard]] bool heard(Pred pred) const {
    for (const auto& m : server.client_messages()) {
      if (pred(m)) return true;
    }
    return false;
  }
  // The first event the server logged whose text holds `part`.
  [[nodiscard]] std::optional<std::string> event_text(std::string_view part) const {
    for (const auto& e : server.events()) {
      if (e.text.find(part) != std::string::npos) return e.text;
    }
    return std::nullopt;
  }
  scenario::UdpScenarioServer server;
  std::string where;  // "127.0.0.1:PORT", for --server
};

// Waits until `cond` holds or `stop` is set; false when stopped first.
template <class Cond>
bool wait_for(Cond cond, const std::atomic<bool>& stop) {
  while (!stop && !cond()) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return !stop;
}

// A `dereth play` run in the offscreen window: a scratch folder with the
// password file ("secret") and a folder for its F12 pictures, made the
// working folder (F12 saves there, as a player's screenshots do), and SDL's
// offscreen driver; finish() (or the destructor) undoes both.
struct WindowPlayRun {
  explicit WindowPlayRun(const std::string& name) : tmp(name), password(tmp / "password"), shots(tmp / "shots") {
    std::ofstream(password) << "secret\n";
    std::filesystem::create_directories(shots);
    std::filesystem::current_path(shots);
    ::setenv("SDL_VIDEODRIVER", "offscreen", 1);
  }
  ~WindowPlayRun() { finish(); }
  WindowPlayRun(const WindowPlayRun&) = delete;
  WindowPlayRun& operator=(const WindowPlayRun&) = delete;
  void finish() {
    if (finished_) return;
    finished_ = true;
    ::unsetenv("SDL_VIDEODRIVER");
    std::filesystem::current_path(cwd_);
  }
  // `dereth play` against the scenario served at `where` as the account
  // "tester" with this run's password, entering as Aerin and recording
  // nothing, with `extra` arguments after those (ticks, --set options).
  int play_as_aerin(const std::string& where, const std::vector<std::string>& extra, std::string& out,
                    std::string& err) const {
    std::vector<std::string> args = {"dereth",      "play",   "--server",        where,
                                     "--account",   "tester", "--password-file", password.string(),
                                     "--character", "Aerin",  "--no-record"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run(std::move(args), out, err);
  }

  dereth::test::TempDir tmp;
  std::filesystem::path password;
  std::filesystem::path shots;

 private:
  std::filesystem::path cwd_ = std::filesystem::current_path();
  bool finished_ = false;
};

}  // namespace dereth::app::test
