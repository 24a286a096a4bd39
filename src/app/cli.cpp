#include "dereth/app/cli.hpp"

#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include <CLI/CLI.hpp>

#include "dereth/core/version.hpp"
#include "dereth/net/udp_client.hpp"

namespace dereth::app {

namespace {

// Reads the first line of a password file (the password never goes on the command line).
bool read_password(const std::string& path, std::string& out) {
  std::ifstream in(path);
  if (!in) return false;
  std::getline(in, out);
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return true;
}

// Connects, logs in and enters the world; reports one sentence. Until the
// renderer exists it stops once the character is in the world.
int play(const std::string& server, const std::string& account, const std::string& password_file,
         const std::string& character, double timeout_seconds, std::ostream& out, std::ostream& err) {
  const auto colon = server.rfind(':');
  int port = 0;
  if (colon == std::string::npos || colon == 0) {
    err << "dereth: --server must be HOST:PORT, e.g. 127.0.0.1:9000\n";
    return 2;
  }
  try {
    port = std::stoi(server.substr(colon + 1));
  } catch (...) {
    port = 0;
  }
  if (port <= 0 || port > 65534) {
    err << "dereth: \"" << server.substr(colon + 1) << "\" is not a port (1-65534)\n";
    return 2;
  }
  std::string password;
  if (password_file.empty()) {
    err << "password for " << account << ": " << std::flush;
    std::getline(std::cin, password);
  } else if (!read_password(password_file, password)) {
    err << "dereth: cannot read the password file " << password_file << "\n";
    return 2;
  }
  net::UdpClientOptions o;
  o.host = server.substr(0, colon);
  o.port = static_cast<std::uint16_t>(port);
  o.session.account = account;
  o.session.password = password;
  o.session.server_name = server;
  if (!character.empty()) o.session.character = character;
  auto client = net::UdpClient::connect(o);
  if (!client) {
    err << "dereth: cannot reach " << server << ": " << client.error().message() << "\n";
    return 1;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto s = (*client)->status();
    if (s.state == net::SessionState::InWorld) {
      out << "dereth: in the world on " << server << " (player 0x" << std::hex << s.player_guid << std::dec
          << "); the renderer is not built yet, so dereth logs off now\n";
      (*client)->logout();
      return 0;
    }
    if (s.state == net::SessionState::Failed) {
      err << "dereth: " << s.failure << "\n";
      return 1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  err << "dereth: did not reach the world on " << server << " within " << timeout_seconds << " s (state: "
      << net::to_string((*client)->status().state) << ")\n";
  return 1;
}

}  // namespace

int run_cli(int argc, char** argv) { return run_cli(argc, argv, std::cout, std::cerr); }

int run_cli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{"dereth: a retail-faithful Asheron's Call client", "dereth"};
  app.set_version_flag("--version", std::string("dereth ") + std::string(core::version()));
  bool demo = false;
  auto* demo_cmd = app.add_subcommand("demo", "Run the embedded demo world (not available yet)");
  demo_cmd->callback([&] { demo = true; });
  std::string server, account, password_file, character;
  double timeout = 60.0;
  auto* play_cmd = app.add_subcommand("play", "Log into an ACE server and enter the world (no window yet)");
  play_cmd->add_option("--server", server, "HOST:PORT of the server's first port, e.g. 127.0.0.1:9000")->required();
  play_cmd->add_option("--account", account, "The account name")->required();
  play_cmd->add_option("--password-file", password_file, "A file whose first line is the password (else prompted)");
  play_cmd->add_option("--character", character, "The character's name (default: the first)");
  play_cmd->add_option("--timeout", timeout, "Seconds to wait for the world")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every bad argument exits 2.
    return app.exit(e, out, err) == 0 ? 0 : 2;
  }
  if (*play_cmd) return play(server, account, password_file, character, timeout, out, err);
  if (demo || app.get_subcommands().empty()) {
    err << "dereth: the embedded demo is not built yet (the renderer, the synthetic world and\n"
           "the scenario server come in later work). Available now: --version, --help, dereth play\n"
           "(login and world entry, no window yet), and the developer tools in build/bin.\n";
    return 2;
  }
  return 0;
}

}  // namespace dereth::app
