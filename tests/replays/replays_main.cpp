// The replay regression suite (tests/replays/README.md): each recording
// replayed through the one loop (app::run_headless, what dereth-sim runs)
// and compared, tick by tick, with its stored reference: per tick the digest
// line (physics and effects hashes) and every object's state line. The first
// tick that differs is printed with the objects whose state differs and the
// fields that do. `--update` rewrites the references. Each recording is also
// replayed by `dereth replay --headless --fast`, whose digest must be
// byte-identical to dereth-sim's.
//
// Exit status: 0 when every recording matches (or was rewritten), 1 when one
// differs, 2 for bad arguments or a recording that cannot be read.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "dereth/app/cli.hpp"
#include "dereth/app/headless.hpp"

#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

struct Case {
  std::string name;
  fs::path recording;
};

// The recordings: dereth's own sessions in this folder, and the real capture.
std::vector<Case> all_cases(const fs::path& dir) {
  return {
      {"demo-session", dir / "demo-session.pcap"},
      {"lossy-login", dir / "lossy-login.pcap"},
      {"example", fs::path(DERETH_SHARED_DIR) / "captures" / "example.pcap"},
  };
}

std::vector<std::string> read_lines(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// The top-level "key":value pairs of one JSON line (values as written).
std::map<std::string, std::string> fields(std::string_view line) {
  std::map<std::string, std::string> out;
  int depth = 0;
  bool quoted = false;
  std::size_t start = 1;
  auto take = [&](std::size_t end) {
    const std::string_view item = line.substr(start, end - start);
    const auto colon = item.find("\":");
    if (item.size() > 2 && item.front() == '"' && colon != std::string_view::npos) {
      out[std::string(item.substr(1, colon - 1))] = std::string(item.substr(colon + 2));
    }
  };
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        quoted = false;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) take(i);
    } else if (c == ',' && depth == 1) {
      take(i);
      start = i + 1;
    }
  }
  return out;
}

std::string field_or(const std::map<std::string, std::string>& f, const std::string& key) {
  const auto it = f.find(key);
  return it == f.end() ? std::string("-") : it->second;
}

// The reference text of one run: per tick its digest line, then its object lines.
std::string reference_text(const fs::path& digest, const fs::path& trace) {
  std::map<std::uint64_t, std::vector<std::string>> objects;
  for (const std::string& line : read_lines(trace)) {
    if (line.rfind(R"({"kind":"object")", 0) != 0) continue;
    objects[std::stoull(field_or(fields(line), "tick"))].push_back(line);
  }
  std::string out;
  for (const std::string& line : read_lines(digest)) {
    out += line + '\n';
    const std::uint64_t tick = std::stoull(field_or(fields(line), "tick"));
    for (const std::string& o : objects[tick]) out += o + '\n';
  }
  return out;
}

// Prints the first tick that differs: its digest lines and, per object, the
// fields that differ. Returns false when the texts differ.
bool compare(const std::string& name, const std::vector<std::string>& expected,
             const std::vector<std::string>& actual) {
  const std::size_t n = std::min(expected.size(), actual.size());
  std::size_t first = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (expected[i] != actual[i]) {
      first = i;
      break;
    }
  }
  if (first == n && expected.size() == actual.size()) return true;
  // The tick of the first difference (the digest line at or before it).
  auto tick_of = [](const std::vector<std::string>& lines, std::size_t at) -> std::string {
    for (std::size_t i = std::min(at, lines.size() - 1) + 1; i-- > 0;) {
      if (lines[i].rfind(R"({"tick":)", 0) == 0) return field_or(fields(lines[i]), "tick");
    }
    return "?";
  };
  if (first == n) {
    std::printf("%s: the run has %zu reference lines where %zu are stored (it %s at tick %s)\n", name.c_str(),
                actual.size(), expected.size(), actual.size() < expected.size() ? "stops early" : "runs on",
                tick_of(actual.size() < expected.size() ? expected : actual, n).c_str());
    return false;
  }
  const std::string tick = tick_of(actual, first);
  std::printf("%s: differs first at tick %s\n", name.c_str(), tick.c_str());
  // Every line of that tick, expected against actual, keyed by guid for objects.
  auto lines_of_tick = [&](const std::vector<std::string>& lines) {
    std::map<std::string, std::string> out;
    for (const std::string& line : lines) {
      const auto f = fields(line);
      if (field_or(f, "tick") != tick) continue;
      std::string key = line.rfind(R"({"tick":)", 0) == 0 ? std::string("digest") : "object " + field_or(f, "guid");
      key.erase(std::remove(key.begin(), key.end(), '"'), key.end());
      out[key] = line;
    }
    return out;
  };
  const auto want = lines_of_tick(expected);
  const auto got = lines_of_tick(actual);
  std::map<std::string, bool> keys;
  for (const auto& [k, v] : want) keys[k] = true;
  for (const auto& [k, v] : got) keys[k] = true;
  for (const auto& [key, unused] : keys) {
    const auto w = want.find(key);
    const auto g = got.find(key);
    if (w == want.end()) {
      std::printf("  %s: not in the reference (new)\n", key.c_str());
      continue;
    }
    if (g == got.end()) {
      std::printf("  %s: missing from the run\n", key.c_str());
      continue;
    }
    if (w->second == g->second) continue;
    const auto wf = fields(w->second);
    const auto gf = fields(g->second);
    std::printf("  %s:\n", key.c_str());
    for (const auto& [k, v] : wf) {
      const std::string other = field_or(gf, k);
      if (other != v) std::printf("    %s: expected %s, got %s\n", k.c_str(), v.c_str(), other.c_str());
    }
  }
  return false;
}

void usage() {
  std::puts(
      "usage: dereth_replays [--update] [--dir DIR] [--out DIR] [NAME...]\n"
      "Replays each recording (demo-session, lossy-login from DIR, default tests/replays; example from\n"
      "../shared/captures) through the one loop and compares it tick by tick with DIR/NAME.digest.jsonl.\n"
      "--update rewrites the references instead (review the change before committing). --out DIR keeps\n"
      "the actual runs. Exit status: 0 all match, 1 one differs, 2 bad arguments or unreadable input.");
}

}  // namespace

int main(int argc, char** argv) {
  bool update = false;
  fs::path dir = DERETH_REPLAYS_DIR;
  std::optional<fs::path> keep;  // --out; else a scratch folder of this run's own
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--update") {
      update = true;
    } else if (a == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--out" && i + 1 < argc) {
      keep = argv[++i];
    } else if (a == "--help" || a == "-h") {
      usage();
      return 0;
    } else if (!a.empty() && a.front() != '-') {
      names.emplace_back(a);
    } else {
      usage();
      return 2;
    }
  }
  std::vector<Case> cases;
  for (const Case& c : all_cases(dir)) {
    if (names.empty() || std::find(names.begin(), names.end(), c.name) != names.end()) cases.push_back(c);
  }
  if (cases.empty() || (!names.empty() && cases.size() != names.size())) {
    std::fprintf(stderr, "dereth_replays: no such recording among demo-session, lossy-login, example\n");
    return 2;
  }
  std::optional<dereth::test::TempDir> scratch;
  if (!keep) scratch.emplace("replays");
  const fs::path out = keep ? *keep : scratch->path();
  std::error_code ec;
  fs::create_directories(out, ec);
  int failed = 0;
  for (const Case& c : cases) {
    dereth::app::HeadlessOptions o;
    o.input = c.recording;
    o.digest = out / (c.name + ".digest");
    o.trace = out / (c.name + ".trace");
    auto run = dereth::app::run_headless(o);
    if (!run) {
      std::fprintf(stderr, "dereth_replays: %s: %s\n", c.name.c_str(), run.error().message().c_str());
      return 2;
    }
    const std::string actual = reference_text(*o.digest, *o.trace);
    const fs::path reference = dir / (c.name + ".digest.jsonl");
    if (update) {
      std::ofstream(reference, std::ios::binary | std::ios::trunc) << actual;
      std::printf("%s: wrote %s (%llu ticks)\n", c.name.c_str(), reference.string().c_str(),
                  static_cast<unsigned long long>(run->ticks));
    } else {
      std::istringstream text(actual);
      std::vector<std::string> got;
      for (std::string line; std::getline(text, line);) got.push_back(line);
      const auto want = read_lines(reference);
      if (want.empty()) {
        std::printf("%s: no reference %s (run with --update)\n", c.name.c_str(), reference.string().c_str());
        ++failed;
      } else if (!compare(c.name, want, got)) {
        ++failed;
      } else {
        std::printf("%s: %llu ticks match\n", c.name.c_str(), static_cast<unsigned long long>(run->ticks));
      }
    }
    // dereth replay --headless --fast writes the same digest, byte for byte.
    const fs::path replay_digest = out / (c.name + ".replay.digest");
    // run_headless above has no DATs: so does the replay (its default is the demo world, as dereth-sim's).
    std::vector<std::string> args = {"dereth",     "replay",
                                     "--headless", "--fast",
                                     "--no-dats",  c.recording.string(),
                                     "--digest",   replay_digest.string()};
    std::vector<char*> argv2;
    for (auto& a : args) argv2.push_back(a.data());
    std::ostringstream rout, rerr;
    const int rc = dereth::app::run_cli(static_cast<int>(argv2.size()), argv2.data(), rout, rerr);
    std::ifstream a(*o.digest, std::ios::binary), b(replay_digest, std::ios::binary);
    const std::string da((std::istreambuf_iterator<char>(a)), std::istreambuf_iterator<char>());
    const std::string db((std::istreambuf_iterator<char>(b)), std::istreambuf_iterator<char>());
    if (rc != 0 || da != db) {
      std::printf("%s: dereth replay --headless --fast (exit %d) wrote another digest than dereth-sim's run\n%s",
                  c.name.c_str(), rc, rerr.str().c_str());
      ++failed;
    }
  }
  return failed == 0 ? 0 : 1;
}
