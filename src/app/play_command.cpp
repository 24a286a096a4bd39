#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "dereth/app/character_creator.hpp"
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
#include "dereth/chargen/character_builder.hpp"
#include "dereth/core/log.hpp"
#include "dereth/core/version.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/net/pcap_recorder.hpp"
#include "dereth/net/server_address.hpp"
#include "dereth/net/udp_client.hpp"
#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"
#include "dereth/sim/player/command_interpreter.hpp"

#include "commands.hpp"

namespace dereth::app::commands {

// ---- play ---------------------------------------------------------------------------

namespace {

// --create and its choices as an F656 (the session fills in the account and
// the slot), or nothing after saying on `err` why not.
std::optional<protocol::CharacterCreate> creation_from_args(const PlayArgs& args, const dat::DatFile& portal,
                                                            std::ostream& err) {
  dat::RecordCache records(&portal);  // no world yet: the records this choice reads
  auto data = chargen::load_char_gen_data(records);
  if (!data) {
    err << "dereth: cannot create a character: " << data.error().message() << "\n";
    return std::nullopt;
  }
  chargen::CharacterBuilder b(*data);
  bool ok = true;
  auto refuse = [&](const std::string& why) {
    err << "dereth: cannot create " << args.create << ": " << why << "\n";
    ok = false;
  };
  if (args.heritage && !b.set_heritage(*args.heritage)) {
    refuse(fmt::format("the DATs have no heritage {}", *args.heritage));
    return std::nullopt;
  }
  if (args.sex && !b.set_gender(*args.sex)) refuse(fmt::format("the heritage has no sex {}", *args.sex));
  if (args.template_index && !b.set_template(*args.template_index)) {
    refuse(fmt::format("the heritage has no template {}", *args.template_index));
  }
  if (args.start_area && !b.set_start_area(*args.start_area)) {
    refuse(fmt::format("the heritage offers no starting town {}", *args.start_area));
  }
  if (args.attributes.size() == chargen::kAttributes.size()) {
    for (std::size_t i = 0; i < chargen::kAttributes.size(); ++i)
      b.set_attribute(chargen::kAttributes[i], args.attributes[i]);
  }
  auto set_skills = [&](const std::vector<std::uint32_t>& skills, chargen::SkillClass c) {
    for (auto s : skills) {
      if (!b.set_skill(s, c)) refuse(fmt::format("the SkillTable has no skill {}", s));
    }
  };
  set_skills(args.untrain, chargen::SkillClass::Untrained);
  set_skills(args.train, chargen::SkillClass::Trained);
  set_skills(args.specialize, chargen::SkillClass::Specialized);
  b.set_name(args.create);
  for (const auto& p : b.problems()) refuse(p);
  if (!ok) return std::nullopt;
  return b.to_message({}, 0);
}

}  // namespace

int play(const PlayArgs& args, const Config& config, std::ostream& out, std::ostream& err) {
  if (args.at.size() > args.say.size()) {
    err << "dereth: each --at gives the time of one --say: " << args.at.size() << " --at for " << args.say.size()
        << " --say\n";
    return 2;
  }
  std::vector<scenario::InputEvent> inputs;
  for (const std::string& line : args.input) {
    auto e = scenario::parse_input_line(line, "--input");
    if (!e) {
      err << "dereth: " << e.error().message() << "\n";
      return 2;
    }
    inputs.push_back(*e);
  }
  if (args.create.empty() &&
      (args.heritage || args.sex || args.template_index || args.start_area || !args.attributes.empty() ||
       !args.train.empty() || !args.specialize.empty() || !args.untrain.empty())) {
    err << "dereth: --heritage, --sex, --template, --start-area, --attributes, --train, --specialize and --untrain "
           "choose the character --create NAME makes; give --create too\n";
    return 2;
  }
  // HOST:PORT, HOST (port 9000), [IPv6]:PORT or [IPv6] (net/server_address.hpp).
  const auto address = net::parse_server_address(args.server);
  if (!address) {
    err << "dereth: --server " << args.server << ": " << address.error().detail << "\n";
    return 2;
  }
  // How the server is named in every sentence: as typed, with the port made explicit.
  const std::string server = net::format_server_address(address->host, address->port);
  // Everything that can fail here fails before a packet is sent: the DATs,
  // the window, the password.
  bool headless = args.headless || !display_available();
  std::optional<Dats> dats;
  if (!headless || !config.dats_folder.empty() || !args.create.empty()) {
    auto opened = open_dats(config.dats_folder, err);
    if (!opened) {
      err << "dereth: cannot open the DATs: " << opened.error().message() << "\n";
      return 1;
    }
    dats = std::move(*opened);
  }
  std::optional<protocol::CharacterCreate> creation;
  if (!args.create.empty()) {
    creation = creation_from_args(args, *dats->portal, err);
    if (!creation) return 2;
  }
  std::unique_ptr<Presenter> presenter;
  if (!headless) {
    const WindowOptions wo = window_options(config, "dereth - " + server);
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
  // Said before logging in, so the player knows what the session will be.
  if (headless && !args.ticks) {
    out << "dereth: no window and no --ticks: logging in, then off again at once (give --ticks N to stay N ticks "
           "headless)\n";
  }
  net::UdpClientOptions o;
  o.host = address->host;
  o.port = address->port;
  o.session.account = args.account;
  o.session.password = password;
  o.session.server_name = server;
  o.session.login_timeout = args.connect_timeout;
  o.session.transport.silence_timeout = args.silence_timeout;
  if (!args.character.empty()) o.session.character = args.character;
  o.session.create = creation;
  // In a window with no --character or --create, the player picks from the list.
  o.session.wait_for_choice = presenter != nullptr && args.character.empty() && !creation;
  if (!args.no_record) {
    fs::path folder = !args.record.empty()            ? fs::path(args.record)
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
  // From here Ctrl-C and SIGTERM log off instead of killing the process
  // (the password prompt above keeps the default: nothing to log off yet).
  const StopSignals stop_signals;
  // One session: the login, the list in a window, the world. In a window
  // the game menu's Log out ends it and returns to the character list: a
  // new session (a new login, a new recording) with the same password.
  const auto session = [&](const net::UdpClientOptions& options, bool& logged_out) -> int {
    // The window's callbacks below use this session's locals: none outlives it.
    struct Unhook {
      Presenter* p;
      ~Unhook() {
        if (p == nullptr) return;
        p->character_screens = nullptr;
        p->show_characters(nullptr);
        p->show_creator(nullptr);
      }
    } unhook{presenter.get()};
    auto client = net::UdpClient::connect(options);
    if (!client) {
      err << "dereth: cannot reach " << server << ": " << client.error().message() << "\n";
      return 1;
    }
    // The world must be reached within --timeout (counted again from the
    // player's choice when the character list is shown).
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(args.timeout);
    bool in_world = false;
    std::optional<CharacterPicker> picker;
    std::optional<chargen::CharGenData> chargen_data;  // read when Create is first chosen
    std::optional<CharacterCreator> creator;
    std::uint32_t shown_revision = 0;
    bool creation_sent = false;
    bool waiting_for_player = false;  // the list is up: the world timeout waits for the player
    LooseFrames list_frames;
    // The character screens' choices act on this session's locals.
    using Deadline = decltype(deadline);
    struct Locals {
      net::UdpClient& client;
      Presenter& presenter;
      const PlayArgs& args;
      const std::optional<Dats>& dats;
      Deadline& deadline;
      bool& waiting_for_player;
      bool& creation_sent;
      std::optional<CharacterPicker>& picker;
      std::optional<chargen::CharGenData>& chargen_data;
      std::optional<CharacterCreator>& creator;
    };
    class Screens final : public CharacterScreens {
     public:
      explicit Screens(Locals l) : l_(l) {}
      void on_character_chosen(std::uint32_t guid) override {
        l_.client.choose_character(guid);
        l_.presenter.show_characters(nullptr);
        l_.waiting_for_player = false;
        l_.deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(l_.args.timeout);
      }
      void on_picker_action(const PickerAction& action) override {
        if (action.kind == PickerAction::Kind::Delete) {
          l_.client.delete_character(action.guid);
          return;
        }
        if (action.kind != PickerAction::Kind::Create) return;
        if (!l_.chargen_data) {
          dat::RecordCache records(&*l_.dats->portal);  // no world yet: read once, kept in chargen_data
          auto data = chargen::load_char_gen_data(records);
          if (!data) {
            if (l_.picker) l_.picker->set_message("Cannot create characters: " + data.error().message(), true);
            return;
          }
          l_.chargen_data = std::move(*data);
        }
        l_.creator.emplace(*l_.chargen_data);
        l_.presenter.show_creator(&*l_.creator);
      }
      void on_create_character(const protocol::CharacterCreate& m) override {
        if (l_.creation_sent) return;  // one at a time
        l_.client.create_character(m);
        l_.creation_sent = true;
        if (l_.creator) l_.creator->set_status("Creating " + m.name + "...");
      }
      void on_creator_back() override {
        l_.presenter.show_creator(nullptr);
        l_.creator.reset();
        l_.creation_sent = false;
      }

     private:
      Locals l_;
    };
    std::optional<Screens> screens;
    if (presenter != nullptr) {
      screens.emplace(Locals{**client, *presenter, args, dats, deadline, waiting_for_player, creation_sent, picker,
                             chargen_data, creator});
      presenter->character_screens = &*screens;
    }
    while (waiting_for_player || std::chrono::steady_clock::now() < deadline) {
      const auto s = (*client)->status();
      if (presenter != nullptr && s.awaiting_choice && s.characters &&
          (!picker || s.characters_revision != shown_revision)) {
        // The list, afresh whenever it changed (created, deleted, a new F658).
        if (picker) {
          picker->replace_list(*s.characters);
        } else {
          picker.emplace(*s.characters);
        }
        shown_revision = s.characters_revision;
        presenter->show_characters(&*picker);
        waiting_for_player = true;
      }
      if (picker) picker->set_server_name(s.world_name.empty() ? server : s.world_name + " (" + server + ")");
      if (creation_sent && !s.creating && s.create_response) {
        // The server's F643: on Ok back to the list with the new character
        // selected; a refusal stays on the creation screen, in words.
        creation_sent = false;
        const auto& r = *s.create_response;
        const std::string sentence = protocol::describe_create_response(r.response);
        if (r.response == protocol::create_response::Ok) {
          presenter->show_creator(nullptr);
          creator.reset();
          if (picker) {
            picker->select_guid(r.guid);
            picker->set_message(sentence + " Press Enter to play " + r.name + ".");
          }
        } else if (creator) {
          creator->set_status(sentence, true);
        }
      }
      if (presenter != nullptr && picker) {
        // The list (or the loading bar once chosen) over an empty world, the
        // HUD with the session's counters and these frames' rate.
        static const sim::RenderSnapshot kEmpty;
        const FrameInfo info = list_frames.next(
            std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(), s.transport);
        if (auto shown = presenter->present(kEmpty, info); !shown) {
          err << "dereth: " << shown.error().message() << "\n";
          (*client)->logout();
          return 1;
        }
      }
      if (s.state == net::SessionState::InWorld) {
        if (creation && s.create_response) {
          out << "dereth: " << protocol::describe_create_response(s.create_response->response) << " "
              << s.create_response->name << " (0x" << std::hex << s.create_response->guid << std::dec << ")\n";
        }
        out << "dereth: in the world on " << server << " (player 0x" << std::hex << s.player_guid << std::dec << ")"
            << std::endl;  // at once, also into a file: a script waits for it
        in_world = true;
        break;
      }
      if (s.state == net::SessionState::Failed) {
        err << "dereth: " << s.failure << "\n";
        return 1;
      }
      if (const int signal = StopSignals::raised(); signal != 0) {
        (*client)->logout();
        err << "dereth: " << StopSignals::name(signal) << " before entering the world: logged off\n";
        return 0;
      }
      if (presenter != nullptr && !presenter->poll_input()) {
        (*client)->logout();
        return 0;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!in_world) {
      err << "dereth: did not reach the world on " << server << " within " << args.timeout
          << " s (state: " << net::to_string((*client)->status().state) << ")\n";
      return 1;
    }
    if (!(*client)->recording().empty()) {
      out << "dereth: recording this session to " << (*client)->recording().string() << "\n";
    }
    if (headless && !args.ticks) {
      (*client)->logout();
      return 0;
    }
    LoopOptions lo;
    lo.max_ticks = args.ticks;
    lo.stream_workers = config.stream_workers;
    lo.landscape_radius = config.landscape_radius;
    if (!args.trace.empty()) lo.trace = fs::path(args.trace);
    std::vector<std::pair<double, std::string>> says;
    for (std::size_t i = 0; i < args.say.size(); ++i)
      says.emplace_back(i < args.at.size() ? args.at[i] : 1.0, args.say[i]);
    return run_live("play", **client, dats ? dats->portal_ptr() : nullptr, dats ? dats->cell_ptr() : nullptr,
                    presenter.get(), headless ? nullptr : make_audio_backend(config, err), std::move(lo), out, err,
                    says, inputs, &logged_out);
  };
  for (;;) {
    bool logged_out = false;
    const int rc = session(o, logged_out);
    if (!logged_out || presenter == nullptr || rc != 0) return rc;
    // Back to the list, whatever --character or --create chose the first time.
    o.session.wait_for_choice = true;
    o.session.character.reset();
    o.session.create.reset();
    creation.reset();
    if (o.record_to)
      o.record_to = o.record_to->parent_path() / net::PcapRecorder::default_file_name(std::time(nullptr));
  }
}

}  // namespace dereth::app::commands
