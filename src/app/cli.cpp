#include "dereth/app/cli.hpp"

#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>
#include <thread>
#include <utility>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "dereth/app/config.hpp"
#include "dereth/app/controls.hpp"
#include "dereth/app/demo.hpp"
#include "dereth/app/frame_loop.hpp"
#include "dereth/app/headless.hpp"
#include "dereth/app/key_map.hpp"
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
#include "dereth/sim/player/command_interpreter.hpp"

#include "commands.hpp"

namespace dereth::app {

namespace {

namespace fs = std::filesystem;
using namespace commands;

// A number in [lo, hi], said in plain numbers when it is not ("--ticks: 0 is
// outside 1..10000000 (ticks)").
CLI::Validator in_range(double lo, double hi, std::string unit) {
  return CLI::Validator(
      [lo, hi, unit](std::string& text) -> std::string {
        double v = 0.0;
        try {
          std::size_t used = 0;
          v = std::stod(text, &used);
          if (used != text.size()) throw std::invalid_argument(text);
        } catch (...) {
          return fmt::format("\"{}\" is not a number", text);
        }
        if (!(v >= lo && v <= hi)) return fmt::format("{} is outside {}..{} ({})", text, lo, hi, unit);
        return {};
      },
      fmt::format("{}..{}", lo, hi));
}

constexpr double kMaxTicks = 10'000'000;  // about 92 hours at 30 ticks a second

// "1280x720" -> (1280, 720) within the window-size limits; nullopt otherwise
// (CLI11 then names the option and the text).
std::optional<std::pair<int, int>> parse_size(const std::string& text) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos) return std::nullopt;
  int w = 0;
  int h = 0;
  const char* end = text.data() + text.size();
  const auto wr = std::from_chars(text.data(), text.data() + x, w);
  const auto hr = std::from_chars(text.data() + x + 1, end, h);
  if (wr.ec != std::errc{} || wr.ptr != text.data() + x || hr.ec != std::errc{} || hr.ptr != end) return std::nullopt;
  if (w < kMinWindowWidth || w > kMaxWindowSize || h < kMinWindowHeight || h > kMaxWindowSize) return std::nullopt;
  return std::pair{w, h};
}

}  // namespace

int run_cli(int argc, char** argv) {
  return run_cli(argc, argv, std::cout, std::cerr);
}

int run_cli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "dereth: a retail-faithful Asheron's Call client.\n"
      "With no command it runs the embedded demo (the same as `dereth demo`): a window where a display exists,\n"
      "otherwise headless to a PNG whose path it prints.\n"
      "Exit status: 0 on success, 1 when the run failed (one sentence on stderr says why), 2 for bad arguments.",
      "dereth"};
  app.set_version_flag("--version", std::string("dereth ") + std::string(core::version()));
  std::string log_level = "info";
  std::string config_file;
  std::vector<std::string> sets;
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error, critical or off")
      ->capture_default_str()
      ->type_name("LEVEL");
  app.add_option("--config", config_file, "The config file (default: " + default_config_path().string() + ")")
      ->type_name("FILE");
  bool save = false;
  app.add_flag("--save-config", save,
               "Write the settings in effect (defaults < config file < --set) to the config file, atomically; with "
               "a command, then run it");
  app.add_option("--set", sets, "Override a config key for this run: --set key=value (repeatable)")
      ->type_name("KEY=VALUE")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);

  DemoArgs demo_args;
  auto* demo_cmd = app.add_subcommand("demo", "Run the embedded demo world (the default command)");
  demo_cmd->add_flag("--headless", demo_args.headless, "No window: render offscreen and write a PNG");
  demo_cmd
      ->add_option(
          "--ticks", demo_args.ticks,
          fmt::format(
              "Stop after N physics ticks (headless: 30 a second of virtual time, default {}; in a window at most "
              "one a frame and 30 a second)",
              kDemoDefaultTicks))
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("N");
  demo_cmd
      ->add_option("--screenshot", demo_args.screenshot,
                   "Write the last frame to this PNG (headless default: ./dereth-demo.png)")
      ->type_name("PNG");
  demo_cmd
      ->add_option("--trace", demo_args.trace,
                   "Write message verdicts and every object's state after each tick to FILE (docs/trace.md)")
      ->type_name("FILE");
  demo_cmd->add_flag(
      "--stats", demo_args.stats,
      "Print frame times: median, p90, p99 and longest, and the longest frame's time by phase (input, "
      "inbox, tick, snapshot, render, screenshot ...); in a window also the GPU caches against their bounds "
      "(mesh_cache_mb, terrain_cache_mb); headless, also render every frame and print the averages");
  demo_cmd
      ->add_option("--record-frames", demo_args.record_frames,
                   "Headless: write every tick's frame (or every K'th, --record-every) to DIR as tick_NNNNNN.png")
      ->type_name("DIR");
  demo_cmd
      ->add_option("--record-every", demo_args.record_every, "With --record-frames: one PNG every K ticks (default 1)")
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("K");
  demo_cmd
      ->add_option(
          "--size",
          [&](const CLI::results_t& r) {
            const auto size = parse_size(r.front());
            if (!size) return false;
            sets.push_back(fmt::format("window_width={}", size->first));
            sets.push_back(fmt::format("window_height={}", size->second));
            return true;
          },
          fmt::format("The picture's size, WIDTHxHEIGHT ({}..{} by {}..{}; default: the config's "
                      "window_width x window_height)",
                      kMinWindowWidth, kMaxWindowSize, kMinWindowHeight, kMaxWindowSize))
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            if (parse_size(text)) return {};
            return fmt::format("\"{}\" is not WIDTHxHEIGHT within {}..{} by {}..{}", text, kMinWindowWidth,
                               kMaxWindowSize, kMinWindowHeight, kMaxWindowSize);
          },
          "WxH"))
      ->type_name("WxH");

  PlayArgs play_args;
  auto* play_cmd = app.add_subcommand("play", "Log into an ACE server and play");
  play_cmd
      ->add_option("--server", play_args.server,
                   "HOST:PORT of the server's first port, e.g. 127.0.0.1:9000 or [::1]:9000 (HOST alone: port 9000)")
      ->required()
      ->type_name("HOST:PORT");
  play_cmd->add_option("--account", play_args.account, "The account name")->required()->type_name("NAME");
  play_cmd
      ->add_option("--password-file", play_args.password_file,
                   "A file whose first line is the password (else it is prompted for)")
      ->type_name("FILE");
  play_cmd->add_option("--character", play_args.character, "The character's name (default: the first)")
      ->type_name("NAME");
  play_cmd
      ->add_option(
          "--dats",
          [&](const CLI::results_t& r) {
            sets.push_back("dats_folder=" + r.front());
            return true;
          },
          "The folder with client_portal.dat and client_cell_1.dat (config key dats_folder)")
      ->type_name("DIR");
  play_cmd
      ->add_option("--record", play_args.record,
                   "Record the session as a pcap into this folder (default: config record_folder, else " +
                       net::PcapRecorder::default_folder().string() + ")")
      ->type_name("DIR");
  play_cmd->add_flag("--no-record", play_args.no_record, "Do not record the session");
  play_cmd
      ->add_option("--trace", play_args.trace,
                   "Write message verdicts and every object's state after each tick to FILE (docs/trace.md)")
      ->type_name("FILE");
  play_cmd->add_flag("--headless", play_args.headless, "No window (with --ticks: stay that many ticks, then log off)");
  play_cmd
      ->add_option("--say", play_args.say,
                   "Say TEXT as if typed in the chat box (repeatable; a tell, emote or @command works too)")
      ->type_name("TEXT");
  play_cmd->add_option("--at", play_args.at, "Seconds into the world for the matching --say (repeatable; default 1)")
      ->type_name("SECONDS")
      ->check(CLI::NonNegativeNumber);
  play_cmd
      ->add_option("--input", play_args.input,
                   "Press a key action as a scenario `input` line does: \"NAME down|up at=SECONDS\" (repeatable)")
      ->type_name("LINE");
  play_cmd->add_option("--ticks", play_args.ticks, "Log off after N physics ticks in the world (N/30 s)")
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("N");
  play_cmd->add_option("--timeout", play_args.timeout, "Seconds to wait for the world")
      ->capture_default_str()
      ->check(in_range(0.1, 3600, "seconds"))
      ->type_name("S");
  play_cmd
      ->add_option("--connect-timeout", play_args.connect_timeout,
                   "Seconds to wait for the server to answer the login (resent every 2 s)")
      ->capture_default_str()
      ->check(in_range(0.1, 600, "seconds"))
      ->type_name("S");
  play_cmd
      ->add_option("--silence-timeout", play_args.silence_timeout,
                   "Seconds without a packet from the server that end the session")
      ->capture_default_str()
      ->check(in_range(0.5, 3600, "seconds"))
      ->type_name("S");

  play_cmd
      ->add_option("--create", play_args.create,
                   "Create a character with this name first (from the DATs' CharGen: --dats, else the demo's), "
                   "then enter the world with it; a refusal is printed and exits 1")
      ->type_name("NAME");
  play_cmd->add_option("--heritage", play_args.heritage, "With --create: the heritage number (default: the first)")
      ->type_name("N");
  play_cmd->add_option("--sex", play_args.sex, "With --create: 1 male, 2 female (default: the heritage's first)")
      ->type_name("N");
  play_cmd
      ->add_option("--template", play_args.template_index,
                   "With --create: the profession template, 0 = the first (sets attributes and skills)")
      ->type_name("N");
  play_cmd
      ->add_option("--start-area", play_args.start_area,
                   "With --create: the starting town's number in CharGen (default: the heritage's first)")
      ->type_name("N");
  play_cmd
      ->add_option("--attributes", play_args.attributes,
                   "With --create: Strength, Endurance, Coordination, Quickness, Focus, Self (six numbers, "
                   "each 10-100, replacing the template's)")
      ->expected(6)
      ->delimiter(',')
      ->type_name("S,E,C,Q,F,S");
  play_cmd->add_option("--train", play_args.train, "With --create: train this skill number too (repeatable)")
      ->type_name("SKILL");
  play_cmd->add_option("--specialize", play_args.specialize, "With --create: specialise this skill number (repeatable)")
      ->type_name("SKILL");
  play_cmd->add_option("--untrain", play_args.untrain, "With --create: leave this skill number untrained (repeatable)")
      ->type_name("SKILL");

  ReplayArgs replay_args;
  auto* replay_cmd = app.add_subcommand("replay", "Play a recorded session (pcap or pcapng)");
  replay_cmd->add_option("FILE", replay_args.file, "The capture")->required()->type_name("FILE");
  auto* fast = replay_cmd->add_flag("--fast", replay_args.fast,
                                    "As fast as possible on the capture's own clock (repeatable digests)");
  replay_cmd->add_option("--speed", replay_args.speed, "Playback speed on the wall clock (1 = real time)")
      ->capture_default_str()
      ->check(in_range(0.01, 1000, "times real time"))
      ->type_name("X")
      ->excludes(fast);
  replay_cmd->add_flag("--headless", replay_args.headless, "No window");
  replay_cmd->add_option("--digest", replay_args.digest, "Write one digest line per tick (docs/trace.md)")
      ->type_name("FILE");
  replay_cmd
      ->add_option("--report", replay_args.report,
                   "Write the QA report: dereth's prediction against every server Position, verdicts, decode "
                   "errors, scripts not found, DAT records missing (docs/trace.md)")
      ->type_name("FILE");
  replay_cmd
      ->add_option("--trace", replay_args.trace,
                   "Write message verdicts and every object's state after each tick to FILE (docs/trace.md)")
      ->type_name("FILE");
  replay_cmd->add_option("--screenshot-every", replay_args.screenshot_every, "Save a PNG every N ticks (needs --out)")
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("N");
  replay_cmd->add_option("--out", replay_args.out_dir, "The folder for --screenshot-every")->type_name("DIR");
  replay_cmd
      ->add_option(
          "--dats",
          [&](const CLI::results_t& r) {
            sets.push_back("dats_folder=" + r.front());
            return true;
          },
          "The folder with client_portal.dat and client_cell_1.dat (config key dats_folder)")
      ->type_name("DIR");
  replay_cmd->add_option("--ticks", replay_args.ticks, "Stop after N physics ticks")
      ->check(in_range(1, kMaxTicks, "ticks"))
      ->type_name("N");
  replay_cmd
      ->add_option("--port", replay_args.port,
                   "Only traffic to or from server ports N and N+1 (default: AC traffic found by the protocol)")
      ->check(in_range(1, 65534, "a UDP port"))
      ->type_name("N");
  replay_cmd->add_flag("--allow-truncated", replay_args.allow_truncated,
                       "Replay a damaged capture up to the damage (else exit 1)");
  replay_cmd->add_flag("--no-dats", replay_args.no_dats,
                       "Simulate without DAT data (dereth-sim --no-dats); by default the config's dats_folder, else "
                       "the embedded demo world, in a window or not, as dereth-sim does");
  replay_cmd->add_flag("--chat", replay_args.chat, "Headless: print the capture's chat lines on standard output");

  auto* keys_cmd = app.add_subcommand(
      "keys", "List the window's key bindings: retail's default key map with the config's key.<action> rebindings");

  // The global options may also follow the command.
  for (auto* sub : {demo_cmd, play_cmd, replay_cmd, keys_cmd}) sub->fallthrough();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every bad argument exits 2.
    return app.exit(e, out, err) == 0 ? 0 : 2;
  }
  spdlog::level::level_enum level = spdlog::level::info;
  if (!core::parse_log_level(log_level, level)) {
    err << "dereth: --log-level must be trace, debug, info, warn, error, critical or off\n";
    return 2;
  }
  const fs::path config_path = config_file.empty() ? default_config_path() : fs::path(config_file);
  if (!config_file.empty() && !save && !fs::exists(config_path)) {
    err << "dereth: the config file " << config_path.string() << " does not exist\n";
    return 2;
  }
  std::vector<std::string> warnings;
  auto config = layered_config(config_path, sets, &warnings);
  if (!config) {
    const core::Error& e = config.error();
    std::size_t index = 0;
    if (std::sscanf(e.context.c_str(), "--set %zu", &index) == 1 && index >= 1 && index <= sets.size()) {
      // "dereth: --set window_height=40: 40 is outside 64..16384"
      err << "dereth: --set " << sets[index - 1] << ": " << e.detail << "\n";
    } else {
      err << "dereth: " << e.message() << "\n";
    }
    return 2;
  }
  for (const auto& w : warnings) err << "dereth: " << w << "\n";
  config->file = config_path;
  if (save) {
    if (auto saved = save_config(config_path, *config); !saved) {
      err << "dereth: " << saved.error().message() << "\n";
      return 1;
    }
    out << "dereth: settings written to " << config_path.string() << "\n";
    if (!*demo_cmd && !*play_cmd && !*replay_cmd && !*keys_cmd) return 0;  // saving was the whole job
  }
  // --log-level given on the command line wins over the file's.
  bool level_given = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]).starts_with("--log-level")) level_given = true;
  }
  core::init_logging(level_given ? level : config->log_level);

  if (*keys_cmd) {
    KeyMap keys = KeyMap::retail_default();
    keys.apply(config->key_bindings);
    out << format_key_table(keys);
    return 0;
  }
  if (*play_cmd) return play(play_args, *config, out, err);
  if (*replay_cmd) return replay(replay_args, *config, out, err);
  return demo(demo_args, *config, out, err);
}

}  // namespace dereth::app
