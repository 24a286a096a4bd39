// A plain driver for libFuzzer targets, for builds without libFuzzer (the
// default GCC build): runs LLVMFuzzerTestOneInput once over every file named
// on the command line, descending into directories (files in sorted order).
// A failing input aborts the process, as it would under libFuzzer; a SIGABRT
// handler names the input that was running. DERETH_REPLAY_VERBOSE=1 names
// every input as it starts.
//
// Exit status: 0 when every input ran, 1 on a usage error, an unreadable
// file, or no inputs at all (so an empty corpus cannot pass silently).

#include <algorithm>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// The input being run, for the SIGABRT handler.
const char* g_current = nullptr;

void write_stderr(const char* text) {
  std::size_t n = 0;
  while (text[n] != '\0') ++n;
  [[maybe_unused]] const auto written = ::write(STDERR_FILENO, text, n);
}

extern "C" void on_abort(int) {
  // Only async-signal-safe calls here.
  if (g_current != nullptr) {
    write_stderr("replay: crashed on input ");
    write_stderr(g_current);
    write_stderr("\n");
  }
  std::signal(SIGABRT, SIG_DFL);
  std::raise(SIGABRT);
}

bool collect(const fs::path& path, std::vector<fs::path>& out) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    std::vector<fs::path> found;
    for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
      if (entry.is_regular_file()) found.push_back(entry.path());
    }
    if (ec) {
      std::fprintf(stderr, "replay: cannot list %s: %s\n", path.c_str(), ec.message().c_str());
      return false;
    }
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
    return true;
  }
  if (fs::is_regular_file(path, ec)) {
    out.push_back(path);
    return true;
  }
  std::fprintf(stderr, "replay: no such file or directory: %s\n", path.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
    return 1;
  }
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!collect(argv[i], inputs)) return 1;
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs found\n");
    return 1;
  }
  const bool verbose = std::getenv("DERETH_REPLAY_VERBOSE") != nullptr;
  std::signal(SIGABRT, on_abort);

  std::size_t total_bytes = 0;
  for (const auto& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: cannot read %s\n", path.c_str());
      return 1;
    }
    const std::vector<char> text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::vector<std::uint8_t> bytes(text.begin(), text.end());
    if (verbose) std::fprintf(stderr, "replay: %s (%zu bytes)\n", path.c_str(), bytes.size());
    g_current = path.c_str();
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    g_current = nullptr;
    total_bytes += bytes.size();
  }
  std::printf("replayed %zu inputs (%zu bytes) cleanly\n", inputs.size(), total_bytes);
  return 0;
}
