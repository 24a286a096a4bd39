#include "dereth/app/config.hpp"

#include <array>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "dereth/core/file.hpp"
#include "dereth/core/log.hpp"

namespace dereth::app {

namespace {

constexpr std::string_view kWhitespace = " \t\r\n\f\v";

std::string_view trim(std::string_view s) noexcept {
  const auto first = s.find_first_not_of(kWhitespace);
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(kWhitespace);
  return s.substr(first, last - first + 1);
}

char lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// A value wrapped in double quotes loses them; nothing inside is escaped.
std::string_view unquote(std::string_view v) noexcept {
  if (v.size() >= 2 && v.front() == '"' && v.back() == '"') return v.substr(1, v.size() - 2);
  return v;
}

// Quotes a string value when writing it back would otherwise change it.
std::string quote_if_needed(std::string_view v) {
  const bool needs = v.empty() || trim(v) != v || (v.size() >= 2 && v.front() == '"' && v.back() == '"');
  return needs ? fmt::format("\"{}\"", v) : std::string(v);
}

// A parse failure's description, or nothing on success.
using Problem = std::optional<std::string>;

Problem parse_bool(std::string_view v, bool& out) {
  static constexpr std::array<std::string_view, 4> kTrue = {"true", "yes", "on", "1"};
  static constexpr std::array<std::string_view, 4> kFalse = {"false", "no", "off", "0"};
  for (auto t : kTrue) {
    if (iequals(v, t)) {
      out = true;
      return std::nullopt;
    }
  }
  for (auto f : kFalse) {
    if (iequals(v, f)) {
      out = false;
      return std::nullopt;
    }
  }
  return fmt::format("expected true or false (or yes/no, on/off, 1/0), got \"{}\"", v);
}

Problem parse_int(std::string_view v, int lo, int hi, int& out) {
  int value = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (ec != std::errc{} || end != v.data() + v.size() || v.empty()) {
    return fmt::format("expected a whole number from {} to {}, got \"{}\"", lo, hi, v);
  }
  if (value < lo || value > hi) return fmt::format("{} is outside {}..{}", value, lo, hi);
  out = value;
  return std::nullopt;
}

Problem parse_float(std::string_view v, float lo, float hi, float& out) {
  float value = 0.0f;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (ec != std::errc{} || end != v.data() + v.size() || v.empty() || !std::isfinite(value)) {
    return fmt::format("expected a number from {} to {}, got \"{}\"", lo, hi, v);
  }
  if (value < lo || value > hi) return fmt::format("{} is outside {}..{}", value, lo, hi);
  out = value;
  return std::nullopt;
}

struct LogLevelName {
  std::string_view name;
  spdlog::level::level_enum level;
};
constexpr std::array<LogLevelName, 7> kLogLevels = {{{"trace", spdlog::level::trace},
                                                     {"debug", spdlog::level::debug},
                                                     {"info", spdlog::level::info},
                                                     {"warn", spdlog::level::warn},
                                                     {"error", spdlog::level::err},
                                                     {"critical", spdlog::level::critical},
                                                     {"off", spdlog::level::off}}};

std::string_view log_level_name(spdlog::level::level_enum level) noexcept {
  for (const auto& l : kLogLevels) {
    if (l.level == level) return l.name;
  }
  return "info";
}

std::string bool_text(bool b) {
  return b ? "true" : "false";
}

// One key of the file: how to read it, how to write it, and what it means.
struct Field {
  std::string_view key;
  std::string_view doc;  // written as a comment above the key in a new file
  Problem (*parse)(Config& c, std::string_view value);
  std::string (*format)(const Config& c);
};

const std::array<Field, 20> kFields = {{
    {"window_width", "Window width in pixels, 64..16384. Default 1280.",
     [](Config& c, std::string_view v) { return parse_int(v, kMinWindowWidth, kMaxWindowSize, c.window_width); },
     [](const Config& c) { return fmt::format("{}", c.window_width); }},
    {"window_height", "Window height in pixels, 64..16384. Default 720.",
     [](Config& c, std::string_view v) { return parse_int(v, kMinWindowHeight, kMaxWindowSize, c.window_height); },
     [](const Config& c) { return fmt::format("{}", c.window_height); }},
    {"fullscreen", "Full screen (true) or a window (false). Default false.",
     [](Config& c, std::string_view v) { return parse_bool(v, c.fullscreen); },
     [](const Config& c) { return bool_text(c.fullscreen); }},
    {"vsync", "Wait for the display's refresh before showing a frame. Default true.",
     [](Config& c, std::string_view v) { return parse_bool(v, c.vsync); },
     [](const Config& c) { return bool_text(c.vsync); }},
    {"log_level", "Least severe log message shown: trace, debug, info, warn, error, critical or off. Default info.",
     [](Config& c, std::string_view v) -> Problem {
       for (const auto& l : kLogLevels) {
         if (iequals(v, l.name)) {
           c.log_level = l.level;
           return std::nullopt;
         }
       }
       return fmt::format("expected trace, debug, info, warn, error, critical or off, got \"{}\"", v);
     },
     [](const Config& c) { return std::string(log_level_name(c.log_level)); }},
    {"dats_folder",
     "Folder holding client_portal.dat and client_cell_1.dat. Empty (\"\") runs the built-in demo world. "
     "Default empty.",
     [](Config& c, std::string_view v) -> Problem {
       c.dats_folder = std::filesystem::path(std::string(v));
       return std::nullopt;
     },
     [](const Config& c) { return quote_if_needed(c.dats_folder.string()); }},
    {"record_folder",
     "Folder where `dereth play` records each session as a capture (0600, never over another). Empty (\"\") uses "
     "$XDG_STATE_HOME/dereth/recordings, else ~/.local/state/dereth/recordings; --no-record records nothing. "
     "Default empty.",
     [](Config& c, std::string_view v) -> Problem {
       c.record_folder = std::filesystem::path(std::string(v));
       return std::nullopt;
     },
     [](const Config& c) { return quote_if_needed(c.record_folder.string()); }},
    {"audio", "Play sound. false never opens a sound device. Default true.",
     [](Config& c, std::string_view v) { return parse_bool(v, c.audio); },
     [](const Config& c) { return bool_text(c.audio); }},
    {"audio_device", "OpenAL output device name. Empty (\"\") uses the default device. Default empty.",
     [](Config& c, std::string_view v) -> Problem {
       c.audio_device = std::string(v);
       return std::nullopt;
     },
     [](const Config& c) { return quote_if_needed(c.audio_device); }},
    {"volume", "Sound effect volume, 0 (silent) to 1 (full). Default 1.",
     [](Config& c, std::string_view v) { return parse_float(v, 0.0f, 1.0f, c.volume); },
     [](const Config& c) { return fmt::format("{}", c.volume); }},
    {"camera_mode", "Camera: follow (orbits the player) or free (flies). Default follow.",
     [](Config& c, std::string_view v) -> Problem {
       const auto mode = parse_camera_mode(v);
       if (!mode) return fmt::format("expected follow or free, got \"{}\"", v);
       c.camera_mode = *mode;
       return std::nullopt;
     },
     [](const Config& c) { return std::string(to_string(c.camera_mode)); }},
    {"hud", "Show the heads-up display. Default true.",
     [](Config& c, std::string_view v) { return parse_bool(v, c.hud); },
     [](const Config& c) { return bool_text(c.hud); }},
    {"radar", "Show the radar in the world (objects around, your heading, your coordinates). Default true.",
     [](Config& c, std::string_view v) { return parse_bool(v, c.radar); },
     [](const Config& c) { return bool_text(c.radar); }},
    {"panels",
     "Show the game screen's panels in the world (the selected object, vitals, combat mode, spell bar). Default true.",
     [](Config& c, std::string_view v) { return parse_bool(v, c.panels); },
     [](const Config& c) { return bool_text(c.panels); }},
    {"mouse_sensitivity", "Mouse look speed multiplier, 0.01..100. Default 1.",
     [](Config& c, std::string_view v) {
       return parse_float(v, kMinMouseSensitivity, kMaxMouseSensitivity, c.mouse_sensitivity);
     },
     [](const Config& c) { return fmt::format("{}", c.mouse_sensitivity); }},
    {"render_load_budget_ms",
     "Milliseconds of first-use asset loading (meshes, textures, terrain) a window frame may spend before the rest "
     "waits for the next frames, so entering the world does not stall a frame; 0 loads all at once. 0..1000. "
     "Default 4.",
     [](Config& c, std::string_view v) { return parse_float(v, 0.0f, 1000.0f, c.render_load_budget_ms); },
     [](const Config& c) { return fmt::format("{}", c.render_load_budget_ms); }},
    {"stream_workers",
     "Worker threads that read and decode landblocks in a live session (the window, play), and as many again for "
     "the window's meshes and textures, 0..16; 0 loads them on the frame loop's thread. Default 2.",
     [](Config& c, std::string_view v) { return parse_int(v, 0, kMaxStreamWorkers, c.stream_workers); },
     [](const Config& c) { return fmt::format("{}", c.stream_workers); }},
    {"landscape_radius",
     "Landblocks kept about the player in a live session, as retail's LScape::SetMidRadius: a square of "
     "(2r+1) x (2r+1), 1..5 (5, retail's own, keeps 121). Lower bounds the memory landblocks take. Default 5.",
     [](Config& c, std::string_view v) { return parse_int(v, 1, kMaxLandscapeRadius, c.landscape_radius); },
     [](const Config& c) { return fmt::format("{}", c.landscape_radius); }},
    {"terrain_cache_mb",
     "Megabytes of GPU memory the landscape's composited terrain surfaces may take, 4..4096; the least "
     "recently drawn blocks are evicted beyond it. Default 64.",
     [](Config& c, std::string_view v) { return parse_int(v, 4, 4096, c.terrain_cache_mb); },
     [](const Config& c) { return fmt::format("{}", c.terrain_cache_mb); }},
    {"mesh_cache_mb",
     "Megabytes of GPU memory the window's object and dungeon meshes and their textures may take, 0..65536 (0: "
     "no bound); what a frame did not draw is freed, least recently drawn first, and loaded again when seen. "
     "Default 512.",
     [](Config& c, std::string_view v) { return parse_int(v, 0, 65536, c.mesh_cache_mb); },
     [](const Config& c) { return fmt::format("{}", c.mesh_cache_mb); }},
}};

const std::array<std::string_view, kFields.size()> kKeys = [] {
  std::array<std::string_view, kFields.size()> keys{};
  for (std::size_t i = 0; i < kFields.size(); ++i) keys[i] = kFields[i].key;
  return keys;
}();

const Field* find_field(std::string_view key) noexcept {
  for (const auto& f : kFields) {
    if (f.key == key) return &f;
  }
  return nullptr;
}

core::Error config_error(core::ErrorKind kind, std::string context, std::string field, std::size_t offset,
                         std::string detail) {
  return core::Error{kind, std::move(context), std::move(field), offset, std::move(detail)};
}

void warn(std::vector<std::string>* warnings, std::string text) {
  core::logger(core::Module::App)->warn("{}", text);
  if (warnings != nullptr) warnings->push_back(std::move(text));
}

// `key.<action> = keys`: a rebinding over the default key map.
constexpr std::string_view kKeyPrefix = "key.";

Problem apply_key_rebind(Config& config, std::string_view key, std::string_view value) {
  auto rebind = parse_key_rebind(key.substr(kKeyPrefix.size()), value);
  if (!rebind) return rebind.error().detail;
  config.key_bindings.push_back(std::move(*rebind));
  return std::nullopt;
}

std::string format_key_rebind(const KeyRebind& r) {
  std::string keys;
  for (std::int32_t k : r.keys) keys += (keys.empty() ? "" : ", ") + key_name(k);
  return fmt::format("{}{} = {}", kKeyPrefix, key_action_info(r.action).name, keys);
}

// One line split as `key = value`, or why it is not one.
struct Assignment {
  std::string_view key;
  std::string_view value;  // trimmed and unquoted
};

bool is_comment_or_blank(std::string_view line) noexcept {
  const std::string_view t = trim(line);
  return t.empty() || t.front() == '#' || t.front() == ';';
}

std::optional<Assignment> split_assignment(std::string_view line) noexcept {
  const auto eq = line.find('=');
  if (eq == std::string_view::npos) return std::nullopt;
  return Assignment{trim(line.substr(0, eq)), unquote(trim(line.substr(eq + 1)))};
}

// Calls f(line, byte offset of its start) for every line of text.
template <class F>
void for_each_line(std::string_view text, F&& f) {
  std::size_t at = 0;
  while (at <= text.size()) {
    const auto nl = text.find('\n', at);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string_view line = text.substr(at, end - at);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (nl == std::string_view::npos && line.empty()) break;
    f(line, at);
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
}

core::Result<std::string> read_text(const std::filesystem::path& path) {
  const std::string name = path.string();
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return std::unexpected(config_error(core::ErrorKind::Io, name, "file", 0, ec.message()));
  if (size > kMaxConfigBytes) {
    return std::unexpected(config_error(core::ErrorKind::TooLarge, name, "file", 0,
                                        fmt::format("{} bytes; a settings file is at most {}", size, kMaxConfigBytes)));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::unexpected(config_error(core::ErrorKind::Io, name, "file", 0, "cannot be opened for reading"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return std::unexpected(config_error(core::ErrorKind::Io, name, "file", 0, "read failed"));
  if (text.size() > kMaxConfigBytes) {
    return std::unexpected(config_error(core::ErrorKind::TooLarge, name, "file", 0, "grew while being read"));
  }
  return text;
}

}  // namespace

std::string_view to_string(CameraMode mode) noexcept {
  switch (mode) {
    case CameraMode::Follow: return "follow";
    case CameraMode::Free: return "free";
  }
  return "follow";
}

std::optional<CameraMode> parse_camera_mode(std::string_view text) noexcept {
  if (iequals(text, "follow")) return CameraMode::Follow;
  if (iequals(text, "free")) return CameraMode::Free;
  return std::nullopt;
}

std::span<const std::string_view> config_keys() noexcept {
  return kKeys;
}

std::filesystem::path config_path_from(std::string_view xdg_config_home, std::string_view home) {
  if (!xdg_config_home.empty()) {
    const std::filesystem::path xdg{std::string(xdg_config_home)};
    if (xdg.is_absolute()) return xdg / "dereth" / "dereth.conf";
  }
  if (!home.empty()) return std::filesystem::path(std::string(home)) / ".config" / "dereth" / "dereth.conf";
  return {};
}

std::filesystem::path default_config_path() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  return config_path_from(xdg != nullptr ? xdg : "", home != nullptr ? home : "");
}

core::Result<void> apply_config_text(Config& config, std::string_view text, std::string_view name,
                                     std::vector<std::string>* warnings) {
  Config next = config;
  std::vector<std::string_view> seen;
  std::optional<core::Error> failure;
  int line_number = 0;
  for_each_line(text, [&](std::string_view line, std::size_t offset) {
    ++line_number;
    if (failure || is_comment_or_blank(line)) return;
    const std::string where = fmt::format("{}:{}", name, line_number);
    const auto a = split_assignment(line);
    if (!a) {
      failure = config_error(core::ErrorKind::Invalid, where, "line", offset,
                             fmt::format("expected key = value, got \"{}\"", trim(line)));
      return;
    }
    if (a->key.empty()) {
      failure = config_error(core::ErrorKind::Invalid, where, "key", offset, "the key before = is empty");
      return;
    }
    if (a->key.starts_with(kKeyPrefix)) {
      if (auto problem = apply_key_rebind(next, a->key, a->value)) {
        failure = config_error(core::ErrorKind::Invalid, where, std::string(a->key), offset, std::move(*problem));
      }
      return;
    }
    const Field* field = find_field(a->key);
    if (field == nullptr) {
      warn(warnings, fmt::format("{}: unknown setting \"{}\" ignored", where, a->key));
      return;
    }
    for (auto k : seen) {
      if (k == field->key) {
        warn(warnings, fmt::format("{}: \"{}\" is set again; this later value wins", where, field->key));
        break;
      }
    }
    seen.push_back(field->key);
    if (auto problem = field->parse(next, a->value)) {
      failure = config_error(core::ErrorKind::Invalid, where, std::string(field->key), offset, std::move(*problem));
    }
  });
  if (failure) return std::unexpected(std::move(*failure));
  config = std::move(next);
  return {};
}

core::Result<Config> load_config(const std::filesystem::path& path, std::vector<std::string>* warnings) {
  DERETH_TRY(const std::string text, read_text(path));
  Config config;
  DERETH_CHECK(apply_config_text(config, text, path.string(), warnings));
  return config;
}

core::Result<Config> load_config_or_defaults(const std::filesystem::path& path, std::vector<std::string>* warnings) {
  std::error_code ec;
  const bool exists = std::filesystem::exists(path, ec);
  if (!ec && !exists) return Config{};
  return load_config(path, warnings);
}

core::Result<void> apply_overrides(Config& config, std::span<const std::string> assignments) {
  Config next = config;
  for (std::size_t i = 0; i < assignments.size(); ++i) {
    const std::string where = fmt::format("--set {}", i + 1);
    const auto a = split_assignment(assignments[i]);
    if (!a || a->key.empty()) {
      return std::unexpected(config_error(core::ErrorKind::Invalid, where, "argument", 0,
                                          fmt::format("expected key=value, got \"{}\"", assignments[i])));
    }
    if (a->key.starts_with(kKeyPrefix)) {
      if (auto problem = apply_key_rebind(next, a->key, a->value)) {
        return std::unexpected(
            config_error(core::ErrorKind::Invalid, where, std::string(a->key), 0, std::move(*problem)));
      }
      continue;
    }
    const Field* field = find_field(a->key);
    if (field == nullptr) {
      return std::unexpected(
          config_error(core::ErrorKind::Invalid, where, std::string(a->key), 0,
                       fmt::format("unknown setting; the settings are: {}", fmt::join(kKeys, ", "))));
    }
    if (auto problem = field->parse(next, a->value)) {
      return std::unexpected(
          config_error(core::ErrorKind::Invalid, where, std::string(field->key), 0, std::move(*problem)));
    }
  }
  config = std::move(next);
  return {};
}

core::Result<Config> layered_config(const std::filesystem::path& path, std::span<const std::string> overrides,
                                    std::vector<std::string>* warnings) {
  DERETH_TRY(Config config, load_config_or_defaults(path, warnings));
  DERETH_CHECK(apply_overrides(config, overrides));
  return config;
}

std::string format_config(const Config& config) {
  std::string out =
      "# dereth settings. One `key = value` per line; lines starting with # or ; are comments.\n"
      "# A value runs to the end of its line; wrap it in double quotes to keep leading or trailing\n"
      "# blanks (\"\" is empty). Booleans: true/false, yes/no, on/off, 1/0.\n"
      "# Command-line --set key=value overrides this file. See docs/config.md.\n";
  for (const auto& f : kFields) out += fmt::format("\n# {}\n{} = {}\n", f.doc, f.key, f.format(config));
  out +=
      "\n# Key rebindings over retail's default key map: key.<action> = <key>[, <key>...]\n"
      "# (docs/controls.md lists the actions and key names), e.g. key.attack_medium = End\n";
  for (const auto& r : config.key_bindings) out += format_key_rebind(r) + "\n";
  return out;
}

std::string update_config_text(std::string_view existing, const Config& config) {
  std::string out;
  std::vector<std::string_view> present;
  for_each_line(existing, [&](std::string_view line, std::size_t /*offset*/) {
    if (!is_comment_or_blank(line)) {
      if (const auto a = split_assignment(line)) {
        if (const Field* field = find_field(a->key)) {
          // Keep the line's indentation; rewrite the rest.
          const std::size_t indent = line.find_first_not_of(kWhitespace);
          out += fmt::format("{}{} = {}\n", line.substr(0, indent), field->key, field->format(config));
          present.push_back(field->key);
          return;
        }
      }
    }
    out += line;
    out += '\n';
  });
  for (const auto& f : kFields) {
    bool found = false;
    for (auto k : present) found = found || k == f.key;
    if (!found) out += fmt::format("\n# {}\n{} = {}\n", f.doc, f.key, f.format(config));
  }
  return out;
}

core::Result<void> save_config(const std::filesystem::path& path, const Config& config) {
  const std::string name = path.string();
  std::error_code ec;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) {
      return std::unexpected(
          config_error(core::ErrorKind::Io, name, "folder", 0,
                       fmt::format("cannot create {}: {}", path.parent_path().string(), ec.message())));
    }
  }
  std::string text;
  const bool exists = std::filesystem::exists(path, ec);
  if (!ec && exists) {
    DERETH_TRY(const std::string old, read_text(path));
    text = update_config_text(old, config);
  } else {
    text = format_config(config);
  }
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(text.data());
  return core::write_file_atomic(path, std::span<const std::uint8_t>(bytes, text.size()));
}

}  // namespace dereth::app
