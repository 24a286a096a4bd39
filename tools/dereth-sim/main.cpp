// dereth-sim: run a capture or a scenario through the SmartBox and the
// PhysicsObj loop headless, as fast as possible on the input's own clock, and
// write per-tick digests and a trace (docs/trace.md).
#include <cstdio>
#include <iostream>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include "dereth/app/headless.hpp"
#include "dereth/core/version.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/object/verdict.hpp"

#include "../parse_error.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "Run a message stream through dereth's SmartBox and PhysicsObj loop headless, as fast as possible, on the\n"
      "input's own clock. FILE is a capture (pcap or pcapng, told by its content) or a scenario file\n"
      "(docs/scenario.md, text), which is played by the scenario server over the real protocol in-process.\n"
      "AC traffic in a capture is found by the protocol on whatever ports (--port N narrows it to N and N+1).\n"
      "Two runs over the same input write identical --digest and --trace files.\n"
      "Prints one summary line. Exit status: 0 when the input was run (damaged packets and malformed messages\n"
      "are counted, not fatal); 1 when it could not be run (unreadable, empty or unknown file, a capture with\n"
      "no AC traffic or cut short without --allow-truncated, failed login, unwritable output); 2 for bad\n"
      "arguments.",
      "dereth-sim"};
  dereth::app::HeadlessOptions options;
  std::string input;
  std::string digest;
  std::string trace;
  std::string dats;
  app.add_option("FILE", input, "A capture (.pcap/.pcapng) or a scenario file")->required();
  app.add_option("--digest", digest, "Write one JSON line per physics tick: tick, time, object count, state hash");
  app.add_option("--trace", trace,
                 "Write the trace: one JSON line per handled message with its verdict, and per tick one line per "
                 "object with its state");
  app.add_option("--frame-rate", options.frame_rate, "Frames per simulated second (30-1000)")
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            double v = 0.0;
            try {
              std::size_t used = 0;
              v = std::stod(text, &used);
              if (used != text.size()) throw std::invalid_argument(text);
            } catch (...) {
              return fmt::format("\"{}\" is not a number", text);
            }
            if (!(v >= 30.0 && v <= 1000.0)) return fmt::format("{} is outside 30..1000 (frames a second)", text);
            return {};
          },
          "30..1000"))
      ->capture_default_str();
  app.add_option("--duration", options.duration,
                 "Scenario input: simulated seconds to run (0: the stream's length plus a margin)")
      ->capture_default_str();
  app.add_option("--tail", options.tail, "Capture input: simulated seconds to keep ticking after the last message")
      ->capture_default_str();
  app.add_option("--seed", options.seed, "Seed of the world's random generator")->capture_default_str();
  app.add_option("--dats", dats,
                 "A folder with client_portal.dat (and client_cell_1.dat) for the objects' DAT data; default: the "
                 "embedded demo world, as `dereth replay` uses with no dats_folder configured")
      ->type_name("DIR");
  bool no_dats = false;
  app.add_flag("--no-dats", no_dats, "Simulate without DAT data (objects have no parts; `dereth replay --no-dats`)");
  app.add_option("--port", options.port, "Capture input: only traffic to or from server ports N and N+1")
      ->check(CLI::Range(1, 65534))
      ->type_name("N");
  std::string report_path;
  app.add_option(
         "--report", report_path,
         "Write the QA report: for every server Position of an object dereth had, how far dereth's own "
         "prediction was from it (count, mean, p50, p95, max, the worst ten), verdicts, decode errors by "
         "opcode, objects created and deleted, script lookups that found nothing, DAT records missing (docs/trace.md)")
      ->type_name("FILE");
  std::string assume_player;
  app.add_option("--assume-player", assume_player,
                 "Capture input: take GUID (hex, e.g. 0x50000001) as the player, for a capture that starts after "
                 "world entry")
      ->type_name("GUID");
  app.add_flag("--allow-truncated", options.allow_truncated,
               "Capture input: replay a damaged capture up to the damage (else exit 1)");
  bool quiet = false;
  app.add_flag("--quiet", quiet, "No progress on stderr");
  app.set_version_flag("--version", std::string("dereth-sim ") + std::string(dereth::core::version()));
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return dereth::tools::parse_error(app, e, argc, argv, "dereth-sim");
  }
  options.input = input;
  if (!assume_player.empty()) {
    try {
      std::size_t used = 0;
      const unsigned long guid = std::stoul(assume_player, &used, 16);
      if (used != assume_player.size() || guid == 0 || guid > 0xFFFFFFFFUL) throw std::invalid_argument(assume_player);
      options.assume_player = static_cast<std::uint32_t>(guid);
    } catch (...) {
      std::cerr << "dereth-sim: --assume-player: \"" << assume_player << "\" is not a GUID (hex, 1..0xFFFFFFFF)\n";
      return 2;
    }
  }
  if (!digest.empty()) options.digest = digest;
  if (!trace.empty()) options.trace = trace;
  if (!report_path.empty()) options.report = report_path;

  std::optional<dereth::dat::DatFile> portal;
  std::optional<dereth::dat::DatFile> cell;
  if (no_dats && !dats.empty()) {
    std::cerr << "dereth-sim: --dats and --no-dats contradict each other\n";
    return 2;
  }
  if (dats.empty() && !no_dats) {
    // The same world `dereth replay` builds when no DAT folder is configured.
    auto world = dereth::demo::build_demo_world();
    if (!world) {
      std::cerr << "dereth-sim: cannot build the demo world: " << world.error().message() << "\n";
      return 1;
    }
    auto p = dereth::dat::DatFile::from_bytes(std::move(world->portal), "demo client_portal.dat");
    auto c = dereth::dat::DatFile::from_bytes(std::move(world->cell), "demo client_cell_1.dat");
    if (!p || !c) {
      std::cerr << "dereth-sim: cannot open the demo world: " << (p ? c.error() : p.error()).message() << "\n";
      return 1;
    }
    portal.emplace(std::move(*p));
    cell.emplace(std::move(*c));
    options.portal = &*portal;
    options.cell = &*cell;
  } else if (!dats.empty()) {
    // Each file checked whole first (dat::open_whole): one sentence for a
    // cut-short or foreign file, before anything runs.
    auto opened = dereth::dat::open_whole(std::filesystem::path(dats) / "client_portal.dat");
    if (!opened) {
      std::cerr << "dereth-sim: cannot open the DATs: " << opened.error().message() << "\n";
      return 1;
    }
    portal.emplace(std::move(*opened));
    options.portal = &*portal;
    // The cell DAT is optional (without it objects do not collide with
    // terrain), but one that is there must be whole.
    const auto cell_path = std::filesystem::path(dats) / "client_cell_1.dat";
    std::error_code ec;
    if (std::filesystem::exists(cell_path, ec)) {
      auto cell_file = dereth::dat::open_whole(cell_path);
      if (!cell_file) {
        std::cerr << "dereth-sim: cannot open the DATs: " << cell_file.error().message() << "\n";
        return 1;
      }
      cell.emplace(std::move(*cell_file));
      options.cell = &*cell;
    }
  }
  auto kind = dereth::app::detect_input(options.input);
  if (!kind) {
    std::cerr << "dereth-sim: " << kind.error().message() << "\n";
    return 1;
  }
  if (!quiet) std::cerr << "dereth-sim: " << input << " is " << dereth::app::to_string(*kind) << "\n";
  const bool show_progress = !quiet && isatty(STDERR_FILENO) != 0;
  // The percentage on one terminal line, rewritten in place.
  struct PercentLine final : dereth::app::ProgressSink {
    void progress(double fraction) override {
      std::fprintf(stderr, "\rdereth-sim: %3d%%", static_cast<int>(fraction * 100.0));
      std::fflush(stderr);
    }
  } percent_line;
  if (show_progress) options.progress = &percent_line;
  auto report = dereth::app::run_headless(options);
  if (show_progress) std::fprintf(stderr, "\n");
  if (!report) {
    std::cerr << "dereth-sim: " << report.error().message() << "\n";
    return 1;
  }
  std::string verdicts;
  for (std::size_t i = 0; i < report->verdicts.size(); ++i) {
    if (report->verdicts[i] == 0) continue;
    verdicts +=
        fmt::format(" {}={}", dereth::sim::to_string(static_cast<dereth::sim::Verdict>(i)), report->verdicts[i]);
  }
  std::cout << fmt::format(
      "summary: input={} messages={} handled={} not_object={} decode_errors={} client_messages={} ticks={} "
      "frames={} simulated_s={:.3f} objects={} max_particles={} sound_events={} digest=0x{:016X} verdicts:{}\n",
      report->kind == dereth::app::InputKind::Capture ? "capture" : "scenario", report->messages, report->handled,
      report->not_object_messages, report->decode_errors, report->client_messages, report->ticks, report->frames,
      report->simulated_seconds, report->objects_at_end, report->max_particles, report->sound_events,
      report->final_digest, verdicts.empty() ? " none" : verdicts);
  if (!report->note.empty() && !quiet) std::cerr << "dereth-sim: " << report->note << "\n";
  if (!report->why_empty.empty()) std::cerr << "dereth-sim: " << report->why_empty << "\n";
  return 0;
}
