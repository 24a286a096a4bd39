#include "commands.hpp"


#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>


#include <fmt/format.h>

#include "dereth/app/config.hpp"
#include "dereth/app/controls.hpp"
#include "dereth/app/demo.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/headless.hpp"
#include "dereth/app/loopback_inbox.hpp"
#include "dereth/app/presenters.hpp"
#include "dereth/app/qa_report.hpp"
#include "dereth/app/world.hpp"
#include "dereth/audio/null_backend.hpp"
#include "dereth/audio/open_audio.hpp"
#include "dereth/core/log.hpp"
#include "dereth/core/version.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/net/pcap_recorder.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"
#include "dereth/sim/command_interpreter.hpp"

namespace dereth::app::commands {

// ---- play ---------------------------------------------------------------------------


int play(const PlayArgs& args, const Config& config, std::ostream& out, std::ostream& err) {
  if (args.at.size() > args.say.size()) {
    err << "dereth: each --at gives the time of one --say: " << args.at.size() << " --at for " << args.say.size()
        << " --say\n";
    return 2;
  }
  const auto colon = args.server.rfind(':');
  int port = 0;
  if (colon == std::string::npos || colon == 0) {
    err << "dereth: --server must be HOST:PORT, e.g. 127.0.0.1:9000\n";
    return 2;
  }
  try {
    port = std::stoi(args.server.substr(colon + 1));
  } catch (...) {
    port = 0;
  }
  if (port <= 0 || port > 65534) {
    err << "dereth: \"" << args.server.substr(colon + 1) << "\" is not a port (1-65534)\n";
    return 2;
  }
  // Everything that can fail here fails before a packet is sent: the DATs,
  // the window, the password.
  bool headless = args.headless || !display_available();
  std::optional<Dats> dats;
  if (!headless || !config.dats_folder.empty()) {
    auto opened = open_dats(config.dats_folder, err);
    if (!opened) {
      err << "dereth: cannot open the DATs: " << opened.error().message() << "\n";
      return 1;
    }
    dats = std::move(*opened);
  }
  std::unique_ptr<Presenter> presenter;
  if (!headless) {
    const WindowOptions wo = window_options(config, "dereth - " + args.server);
    auto created = WindowPresenter::create(dats->portal_ptr(), dats->cell_ptr(), wo);
    if (!created) {
      err << "dereth: cannot open a window (" << created.error().message() << "): playing headless\n";
      headless = true;
    } else {
      presenter = std::move(*created);
    }
  }
  std::string password;
  if (args.password_file.empty()) {
    password = prompt_password(args.account, err);
  } else if (!read_password(args.password_file, password)) {
    err << "dereth: cannot read the password file " << args.password_file << "\n";
    return 2;
  }
  if (password.empty()) {
    err << (args.password_file.empty() ? "dereth: no password given (standard input was empty or closed)\n"
                                       : "dereth: the password file " + args.password_file + " holds no password\n");
    return 2;
  }
  net::UdpClientOptions o;
  o.host = args.server.substr(0, colon);
  o.port = static_cast<std::uint16_t>(port);
  o.session.account = args.account;
  o.session.password = password;
  o.session.server_name = args.server;
  o.session.login_timeout = args.connect_timeout;
  o.session.transport.silence_timeout = args.silence_timeout;
  if (!args.character.empty()) o.session.character = args.character;
  // In a window with no --character, the player picks from the list.
  o.session.wait_for_choice = presenter != nullptr && args.character.empty();
  if (!args.no_record) {
    fs::path folder = !args.record.empty()         ? fs::path(args.record)
                      : !config.record_folder.empty() ? config.record_folder
                                                      : net::PcapRecorder::default_folder();
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
      err << "dereth: cannot create the recording folder " << folder.string() << ": " << ec.message() << "\n";
      return 1;
    }
    o.record_to = folder / net::PcapRecorder::default_file_name(std::time(nullptr));
  }
  auto client = net::UdpClient::connect(o);
  if (!client) {
    err << "dereth: cannot reach " << args.server << ": " << client.error().message() << "\n";
    return 1;
  }
  // The world must be reached within --timeout (counted again from the
  // player's choice when the character list is shown).
  auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(args.timeout);
  bool in_world = false;
  std::optional<CharacterPicker> picker;
  bool waiting_for_player = false;  // the list is up: the world timeout waits for the player
  if (presenter != nullptr) {
    presenter->on_character_chosen = [&](std::uint32_t guid) {
      (*client)->choose_character(guid);
      presenter->show_characters(nullptr);
      waiting_for_player = false;
      deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(args.timeout);
    };
  }
  while (waiting_for_player || std::chrono::steady_clock::now() < deadline) {
    const auto s = (*client)->status();
    if (presenter != nullptr && s.awaiting_choice && !picker && s.characters) {
      picker.emplace(*s.characters);
      presenter->show_characters(&*picker);
      waiting_for_player = true;
    }
    if (presenter != nullptr && picker) {
      // The list (or the loading bar once chosen) over an empty world.
      static const sim::RenderSnapshot kEmpty;
      FrameInfo info;
      if (auto shown = presenter->present(kEmpty, info); !shown) {
        err << "dereth: " << shown.error().message() << "\n";
        (*client)->logout();
        return 1;
      }
    }
    if (s.state == net::SessionState::InWorld) {
      out << "dereth: in the world on " << args.server << " (player 0x" << std::hex << s.player_guid << std::dec
          << ")\n";
      in_world = true;
      break;
    }
    if (s.state == net::SessionState::Failed) {
      err << "dereth: " << s.failure << "\n";
      return 1;
    }
    if (presenter != nullptr && !presenter->poll_input()) {
      (*client)->logout();
      return 0;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!in_world) {
    err << "dereth: did not reach the world on " << args.server << " within " << args.timeout
        << " s (state: " << net::to_string((*client)->status().state) << ")\n";
    return 1;
  }
  if (!(*client)->recording().empty()) {
    out << "dereth: recording this session to " << (*client)->recording().string() << "\n";
  }
  if (headless && !args.ticks) {
    out << "dereth: no window: logging off (give --ticks N to stay N ticks headless)\n";
    (*client)->logout();
    return 0;
  }
  LoopOptions lo;
  lo.max_ticks = args.ticks;
  if (!args.trace.empty()) lo.trace = fs::path(args.trace);
  std::vector<std::pair<double, std::string>> says;
  for (std::size_t i = 0; i < args.say.size(); ++i) says.emplace_back(i < args.at.size() ? args.at[i] : 1.0, args.say[i]);
  return run_live("play", **client, dats ? dats->portal_ptr() : nullptr, dats ? dats->cell_ptr() : nullptr,
                  presenter.get(),
                  headless ? nullptr : make_audio_backend(config, err), std::move(lo), out, err, says);
}

}  // namespace dereth::app::commands
