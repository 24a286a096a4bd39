// dereth-server: a local server to play against. Serves the sandbox (the
// demo world without its script, answering chat and attacks as ACE does;
// include/dereth/scenario/sandbox.hpp), the scripted demo (--demo) or a
// scenario file over UDP on 127.0.0.1 ports N and N+1 with the scenario
// server (docs/scenario.md), prints the account to log in with, logs
// logins, and runs until Ctrl-C (or --seconds). New characters (F656) are
// checked against the CharGen and SkillTable of --dats' client_portal.dat, or
// of the demo world's portal without it.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/core/log.hpp"
#include "dereth/core/version.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/chat.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/sandbox.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

namespace {

std::atomic<bool> g_stop{false};

extern "C" void on_signal(int /*signal*/) {
  g_stop = true;
}

// The CharGen and SkillTable new characters are checked against: from
// `dats`' client_portal.dat, or the demo world's portal.
dereth::core::Result<dereth::chargen::CharGenData> load_char_gen(const std::string& dats) {
  if (!dats.empty()) {
    auto portal = dereth::dat::DatFile::open(std::filesystem::path(dats) / "client_portal.dat");
    if (!portal) return std::unexpected(portal.error());
    dereth::dat::RecordCache records(&*portal);
    return dereth::chargen::load_char_gen_data(records);
  }
  auto world = dereth::demo::build_demo_world();
  if (!world) return std::unexpected(world.error());
  auto portal = dereth::dat::DatFile::from_bytes(world->portal, "client_portal.dat");
  if (!portal) return std::unexpected(portal.error());
  dereth::dat::RecordCache records(&*portal);
  return dereth::chargen::load_char_gen_data(records);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Serve a world over UDP on 127.0.0.1 (ports N and N+1) for `dereth play`, or any client, to log into.\n"
      "Without SCENARIO it serves the sandbox: the demo world without its script, where speech, emotes and\n"
      "tells are answered as an ACE server answers them, unknown @commands are answered, and the creatures can\n"
      "be attacked. SCENARIO is a scenario file (docs/scenario.md) played as written; --demo plays the embedded\n"
      "demo's. Prints the account and password to use and one line per login, and runs until Ctrl-C. Loopback\n"
      "only: it never binds another address.\n"
      "Exit status: 0 after Ctrl-C (or --seconds), 1 when the scenario cannot be read or the ports cannot be\n"
      "bound, 2 for bad arguments.",
      "dereth-server"};
  std::string file;
  int port = 9000;
  std::optional<double> loss, dup, reorder, delay;
  double seconds = 0.0;
  bool single_port = false;
  std::string dats;
  bool demo = false;
  bool sandbox = false;
  auto* file_option =
      app.add_option("SCENARIO", file, "A scenario file to play (default: the sandbox)")->type_name("FILE");
  app.add_flag("--demo", demo, "Play the embedded demo scenario (its recall, walk and projectiles) instead")
      ->excludes(file_option);
  app.add_flag("--sandbox", sandbox,
               "With SCENARIO or --demo: answer chat and attacks as the sandbox does (its Attackable creatures "
               "fight)");
  app.add_option("--port", port, "N: the first of the two ports (N and N+1); 0 picks a free pair")
      ->capture_default_str()
      ->check(CLI::Range(0, 65534))
      ->type_name("PORT");
  app.add_option("--loss", loss, "Drop this fraction of the datagrams sent (0-1; overrides the scenario's impair)")
      ->check(CLI::Range(0.0, 1.0))
      ->type_name("P");
  app.add_option("--dup", dup, "Send this fraction of the datagrams twice (0-1)")
      ->check(CLI::Range(0.0, 1.0))
      ->type_name("P");
  app.add_option("--reorder", reorder, "Hold back this fraction of the datagrams so later ones overtake them (0-1)")
      ->check(CLI::Range(0.0, 1.0))
      ->type_name("P");
  app.add_option("--delay", delay, "One-way latency added to every datagram sent, in milliseconds (0-10000)")
      ->check(CLI::Range(0.0, 10000.0))
      ->type_name("MS");
  app.add_option("--dats", dats,
                 "A folder with client_portal.dat whose CharGen and SkillTable new characters are checked against "
                 "(default: the demo world's)")
      ->type_name("DIR");
  app.add_flag("--single-port", single_port,
               "Send everything from port N, as GDLE-based servers do (ACE sends from N+1 once connected)");
  app.add_option("--seconds", seconds, "Stop by itself after this many seconds (0: run until Ctrl-C)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber)
      ->type_name("S");
  app.set_version_flag("--version", std::string("dereth-server ") + std::string(dereth::core::version()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  dereth::core::init_logging(spdlog::level::info);
  // A DAT named on the command line is checked whole before anything runs:
  // a cut-short or foreign file is one sentence and exit 1.
  if (!dats.empty()) {
    if (auto whole = dereth::dat::open_whole(std::filesystem::path(dats) / "client_portal.dat"); !whole) {
      std::cerr << "dereth-server: cannot open the DATs: " << whole.error().message() << "\n";
      return 1;
    }
  }

  // No scenario: the sandbox, which answers the players.
  const bool serve_sandbox = file.empty() && !demo;
  auto scenario = serve_sandbox  ? dereth::scenario::sandbox_scenario()
                  : file.empty() ? dereth::scenario::demo_scenario()
                                 : dereth::scenario::load_scenario_file(file);
  if (!scenario) {
    std::cerr << "dereth-server: " << scenario.error().message() << "\n";
    return 1;
  }
  if (scenario->accounts.empty()) {
    std::cerr << "dereth-server: " << (file.empty() ? "the " + scenario->name + " scenario" : file)
              << " has no account to log in with\n";
    return 1;
  }
  auto& im = scenario->impairment;
  if (loss) im.loss = *loss;
  if (dup) im.duplicate = *dup;
  if (reorder) im.reorder = *reorder;
  if (delay) im.delay_ms = *delay;
  const auto account = scenario->accounts.front();
  const std::string name = scenario->name;

  dereth::scenario::UdpServerOptions options;
  options.port = static_cast<std::uint16_t>(port);
  options.single_port = single_port;
  options.server.sandbox = serve_sandbox || sandbox;
  // Without a CharGen the server still runs; it answers F656 DatabaseDown.
  if (auto char_gen = load_char_gen(dats)) {
    options.server.char_gen = std::make_shared<const dereth::chargen::CharGenData>(std::move(*char_gen));
  } else {
    std::cerr << "dereth-server: character creation is off: " << char_gen.error().message() << "\n";
  }
  dereth::scenario::UdpScenarioServer server(std::move(*scenario), options);
  if (auto started = server.start(); !started) {
    std::cerr << "dereth-server: " << started.error().message() << "\n";
    return 1;
  }
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::cout << fmt::format("dereth-server: serving {} on 127.0.0.1:{} and :{}{}\n", name, server.port(),
                           server.port() + 1, single_port ? " (everything sent from the first port)" : "");
  if (options.server.sandbox) {
    std::cout << "dereth-server: chat is answered and the creatures can be attacked (select one, enter combat "
                 "mode, attack)\n";
  }
  std::cout << fmt::format("dereth-server: log in with account \"{}\", password \"{}\":\n", account.name,
                           account.password);
  std::cout << fmt::format("  build/bin/dereth play --server 127.0.0.1:{} --account {}\n", server.port(), account.name);
  std::cout << "dereth-server: Ctrl-C stops it\n" << std::flush;

  const auto started_at = std::chrono::steady_clock::now();
  std::size_t logins = 0;
  std::uint64_t rejected = 0;
  std::uint64_t heard = 0;  // client messages looked at, counting those the record dropped
  std::size_t told = 0;     // server events looked at
  while (!g_stop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const auto sessions = server.sessions();
    for (; logins < sessions.size(); ++logins) {
      const auto& s = sessions[logins];
      std::cout << fmt::format("dereth-server: login {}: account \"{}\" from {}\n", s.id, s.account,
                               dereth::scenario::to_string(s.c2s));
    }
    // What each client says (Talk, tells, emotes): the scenario server decodes it.
    server.inspect([&](const dereth::scenario::ScenarioServer& core) {
      const auto& received = core.client_messages();
      const std::uint64_t dropped = core.stats().dropped_records;
      for (std::uint64_t i = std::max(heard, dropped); i < dropped + received.size(); ++i) {
        const auto& m = received[static_cast<std::size_t>(i - dropped)];
        if (!m.chat) continue;
        std::cout << fmt::format("dereth-server: login {} says ({}): {}{}\n", m.session,
                                 m.chat->action == dereth::protocol::chat_action::Tell ? "tell" : "chat",
                                 m.chat->target.empty() ? "" : m.chat->target + ", ",
                                 dereth::protocol::sanitize_chat_text(m.chat->text));
      }
      heard = dropped + received.size();
      // Character creation and deletion, logoffs, and the sandbox's answers, as the server decided them.
      const auto& events = core.events();
      if (told > events.size()) told = events.size();  // the record dropped old ones: skip ahead
      for (; told < events.size(); ++told) {
        const auto& e = events[told];
        if (e.text.rfind("F656", 0) == 0 || e.text.rfind("F655", 0) == 0 || e.text == "the character logged off") {
          std::cout << fmt::format("dereth-server: login {}: {}\n", e.session, e.text);
        } else if (e.text.rfind("sandbox: ", 0) == 0) {
          if (e.session == 0) {
            std::cout << fmt::format("dereth-server: {}\n", e.text);
          } else {
            std::cout << fmt::format("dereth-server: login {}: {}\n", e.session, e.text);
          }
        }
      }
    });
    const auto stats = server.stats();
    for (; rejected < stats.rejected_logins; ++rejected) std::cout << "dereth-server: a login was refused\n";
    std::cout << std::flush;
    if (seconds > 0.0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_at).count() >= seconds) {
      break;
    }
  }
  server.stop();
  const auto stats = server.stats();
  std::cout << fmt::format("dereth-server: stopped after {} login(s); {} datagrams received, {} sent\n", stats.logins,
                           stats.datagrams_received, stats.datagrams_sent);
  return 0;
}
