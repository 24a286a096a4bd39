#pragma once
// The app's settings file (docs/config.md): `key = value` lines, documented
// defaults, layered defaults < file < command line, written atomically.
//
//   # a comment (a line whose first non-blank character is # or ;)
//   window_width = 1280
//   dats_folder = /home/me/ac #1
//
// A value runs to the end of its line: there are no trailing comments, so the
// folder above is "/home/me/ac #1".
// Keys are case-sensitive. Whitespace around keys and values is ignored; a
// value wrapped in double quotes has them removed (nothing inside is
// escaped), which keeps leading or trailing blanks and allows "". Booleans
// are true/false, yes/no, on/off or 1/0. An unknown key is a warning (the
// line is kept when saving); a bad value, a line without `=`, or an empty key
// is an error naming file:line.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/common.h>

#include "dereth/app/key_map.hpp"
#include "dereth/core/error.hpp"

namespace dereth::app {

// The render camera's two modes: orbiting the player, or flying free.
enum class CameraMode : std::uint8_t { Follow, Free };
[[nodiscard]] std::string_view to_string(CameraMode mode) noexcept;
[[nodiscard]] std::optional<CameraMode> parse_camera_mode(std::string_view text) noexcept;

// Limits the parser enforces (inclusive). The renderer, the HUD (clipped to
// the frame) and the window draw at any size; 64 keeps a picture a picture
// (the golden images are 320x180).
inline constexpr int kMinWindowWidth = 64;
inline constexpr int kMinWindowHeight = 64;
inline constexpr int kMaxWindowSize = 16384;
inline constexpr float kMinMouseSensitivity = 0.01f;
inline constexpr float kMaxMouseSensitivity = 100.0f;
inline constexpr int kMaxStreamWorkers = 16;
inline constexpr int kMaxLandscapeRadius = 5;  // LScape::LScape's own mid radius
// A settings file larger than this is refused (it is not a settings file).
inline constexpr std::uintmax_t kMaxConfigBytes = 1024 * 1024;

struct Config {
  int window_width = 1280;                                    // window_width: 64..16384 pixels
  int window_height = 720;                                    // window_height: 64..16384 pixels
  bool fullscreen = false;                                    // fullscreen
  bool vsync = true;                                          // vsync
  spdlog::level::level_enum log_level = spdlog::level::info;  // log_level: trace..off
  std::filesystem::path dats_folder;            // dats_folder: retail DATs; empty = the built-in demo world
  std::filesystem::path record_folder;          // record_folder: session captures; empty = no recording
  bool audio = true;                            // audio: false = the null backend, no device is opened
  std::string audio_device;                     // audio_device: OpenAL device name; empty = the default
  float volume = 1.0f;                          // volume: the effect volume slider, 0..1
  CameraMode camera_mode = CameraMode::Follow;  // camera_mode: follow or free
  bool hud = true;                              // hud
  bool radar = true;                            // radar
  bool panels = true;                           // panels
  float mouse_sensitivity = 1.0f;               // mouse_sensitivity: 0.01..100, a multiplier
  float render_load_budget_ms = 4.0f;           // render_load_budget_ms: 0..1000, a window frame's first-use loads
  int stream_workers = 2;                       // stream_workers: 0..16 landblock loading threads (live); 0 = inline
  int landscape_radius = 5;                     // landscape_radius: 1..5, LScape's grid radius in a live session
  int terrain_cache_mb = 64;                    // terrain_cache_mb: 4..4096, the terrain surface cache's GPU bound
  int mesh_cache_mb = 512;                      // mesh_cache_mb: 0..65536, the meshes' and textures' GPU bound
  // key.<action> = <key>[, <key>...]: rebindings over retail's default key
  // map (app/key_map.hpp), in the order given; an unknown action or key
  // name is an error naming file:line.
  std::vector<KeyRebind> key_bindings;
  // Not a key: the file these settings were read from (or would be), set by
  // the command line, for the Esc menu's Options page.
  std::filesystem::path file;
  bool operator==(const Config&) const = default;
};

// Every key the file understands, in the order a new file lists them.
[[nodiscard]] std::span<const std::string_view> config_keys() noexcept;

// $XDG_CONFIG_HOME/dereth/dereth.conf when XDG_CONFIG_HOME is set and
// absolute (the XDG spec ignores a relative one), else
// $HOME/.config/dereth/dereth.conf; empty when neither variable helps.
[[nodiscard]] std::filesystem::path default_config_path();
// The same rule over given values (tests).
[[nodiscard]] std::filesystem::path config_path_from(std::string_view xdg_config_home, std::string_view home);

// Applies the settings in `text` on top of `config`. `name` names the source
// in errors and warnings ("dereth.conf" gives "dereth.conf:12"). Unknown keys
// and repeated keys (the last wins) are appended to `warnings` when given and
// logged (module "app").
[[nodiscard]] core::Result<void> apply_config_text(Config& config, std::string_view text, std::string_view name,
                                                   std::vector<std::string>* warnings = nullptr);

// The defaults with the file's settings on top. A missing file is an error
// (kind Io); see load_config_or_defaults for the usual start-up case.
[[nodiscard]] core::Result<Config> load_config(const std::filesystem::path& path,
                                               std::vector<std::string>* warnings = nullptr);
// As load_config, but a file that does not exist yields the defaults.
[[nodiscard]] core::Result<Config> load_config_or_defaults(const std::filesystem::path& path,
                                                           std::vector<std::string>* warnings = nullptr);

// Command-line overrides, each "key=value" (same value syntax as the file).
// An unknown key or a bad value is an error naming the argument ("--set 2").
[[nodiscard]] core::Result<void> apply_overrides(Config& config, std::span<const std::string> assignments);

// Defaults < file (when it exists) < overrides.
[[nodiscard]] core::Result<Config> layered_config(const std::filesystem::path& path,
                                                  std::span<const std::string> overrides,
                                                  std::vector<std::string>* warnings = nullptr);

// A complete settings file: a header, then every key with its documented
// default as a comment and its value from `config`.
[[nodiscard]] std::string format_config(const Config& config);
// `existing` (the current file's text) with each known key's value replaced by
// `config`'s and keys it lacks appended; comments, unknown keys, blank lines
// and order are kept.
[[nodiscard]] std::string update_config_text(std::string_view existing, const Config& config);

// Writes the settings atomically (temporary file beside it, flushed, renamed
// over it), creating the folder when needed. An existing file keeps its
// comments, unknown keys and order (update_config_text); otherwise
// format_config is written.
[[nodiscard]] core::Result<void> save_config(const std::filesystem::path& path, const Config& config);

}  // namespace dereth::app
