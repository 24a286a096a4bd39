// The settings file (docs/config.md): key = value, documented defaults,
// defaults < file < command line, atomic save that keeps the user's text.
#include "dereth/app/config.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"

using namespace dereth;
using namespace dereth::app;

namespace {

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("Config defaults are the documented ones", "[app][config]") {
  const Config c;
  CHECK(c.window_width == 1280);
  CHECK(c.window_height == 720);
  CHECK_FALSE(c.fullscreen);
  CHECK(c.vsync);
  CHECK(c.log_level == spdlog::level::info);
  CHECK(c.dats_folder.empty());
  CHECK(c.record_folder.empty());
  CHECK(c.audio);
  CHECK(c.audio_device.empty());
  CHECK(c.volume == 1.0f);
  CHECK(c.camera_mode == CameraMode::Follow);
  CHECK(c.hud);
  CHECK(c.radar);
  CHECK(c.panels);
  CHECK(c.mouse_sensitivity == 1.0f);
  CHECK(c.render_load_budget_ms == 4.0f);
  CHECK(c.stream_workers == 2);
  CHECK(c.landscape_radius == 5);
  CHECK(c.terrain_cache_mb == 64);
  CHECK(c.mesh_cache_mb == 512);
  CHECK(config_keys().size() == 20);
}

TEST_CASE("Config text: every key parses, comments, blanks, quotes and spacing", "[app][config]") {
  const std::string text =
      "# a comment\n"
      "   ; another comment\n"
      "\n"
      "window_width=1920\n"
      "  window_height   =   1080  \r\n"
      "fullscreen = YES\n"
      "vsync = off\n"
      "log_level = Debug\n"
      "dats_folder = /home/me/ac #1\n"
      "record_folder = \"  spaced  \"\n"
      "audio = 0\n"
      "audio_device = \"\"\n"
      "volume = 0.25\n"
      "camera_mode = free\n"
      "hud = false\n"
      "mouse_sensitivity = 2.5";  // no final newline
  Config c;
  std::vector<std::string> warnings;
  REQUIRE(apply_config_text(c, text, "t.conf", &warnings).has_value());
  CHECK(warnings.empty());
  CHECK(c.window_width == 1920);
  CHECK(c.window_height == 1080);
  CHECK(c.fullscreen);
  CHECK_FALSE(c.vsync);
  CHECK(c.log_level == spdlog::level::debug);
  CHECK(c.dats_folder == "/home/me/ac #1");
  CHECK(c.record_folder == "  spaced  ");
  CHECK_FALSE(c.audio);
  CHECK(c.audio_device.empty());
  CHECK(c.volume == 0.25f);
  CHECK(c.camera_mode == CameraMode::Free);
  CHECK_FALSE(c.hud);
  CHECK(c.mouse_sensitivity == 2.5f);
}

TEST_CASE("Config text: unknown and repeated keys warn with file:line, bad values fail with file:line",
          "[app][config]") {
  Config c;
  std::vector<std::string> warnings;
  REQUIRE(apply_config_text(c, "colour = blue\nhud = false\nhud = true\n", "a.conf", &warnings).has_value());
  REQUIRE(warnings.size() == 2);
  CHECK(warnings[0] == "a.conf:1: unknown setting \"colour\" ignored");
  CHECK(warnings[1] == "a.conf:3: \"hud\" is set again; this later value wins");
  CHECK(c.hud);

  struct Bad {
    std::string text;
    std::string context;
    std::string field;
  };
  const std::vector<Bad> bad = {
      {"hud = maybe\n", "b.conf:1", "hud"},
      {"# ok\n\nwindow_width = 63\n", "b.conf:3", "window_width"},
      {"window_width = 1280px\n", "b.conf:1", "window_width"},
      {"window_height = 99999\n", "b.conf:1", "window_height"},
      {"volume = 1.5\n", "b.conf:1", "volume"},
      {"volume = nan\n", "b.conf:1", "volume"},
      {"volume =\n", "b.conf:1", "volume"},
      {"mouse_sensitivity = 0\n", "b.conf:1", "mouse_sensitivity"},
      {"log_level = loud\n", "b.conf:1", "log_level"},
      {"camera_mode = orbit\n", "b.conf:1", "camera_mode"},
      {"vsync\n", "b.conf:1", "line"},
      {"hud = true\n = 3\n", "b.conf:2", "key"},
  };
  for (const auto& b : bad) {
    INFO(b.text);
    Config d;
    d.hud = false;
    const auto r = apply_config_text(d, b.text, "b.conf");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == core::ErrorKind::Invalid);
    CHECK(r.error().context == b.context);
    CHECK(r.error().field == b.field);
    CHECK_FALSE(d.hud);  // a failed file changes nothing
  }
  const auto r = apply_config_text(c, "fullscreen = true\nvolume = 2\n", "c.conf");
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message() == "c.conf:2: volume at offset 18: invalid (2 is outside 0..1)");
}

TEST_CASE("Config path: XDG_CONFIG_HOME when absolute, else ~/.config", "[app][config]") {
  CHECK(config_path_from("/xdg", "/home/me") == std::filesystem::path("/xdg/dereth/dereth.conf"));
  CHECK(config_path_from("", "/home/me") == std::filesystem::path("/home/me/.config/dereth/dereth.conf"));
  CHECK(config_path_from("relative/dir", "/home/me") == std::filesystem::path("/home/me/.config/dereth/dereth.conf"));
  CHECK(config_path_from("", "").empty());
  const auto p = default_config_path();
  if (!p.empty()) CHECK(p.filename() == "dereth.conf");
}

TEST_CASE("Config layers: defaults < file < command line", "[app][config]") {
  const dereth::test::TempDir dir("config");
  const auto file = dir.path() / "dereth.conf";
  // No file: defaults, then overrides.
  const std::vector<std::string> overrides = {"volume=0.5", " hud = off ", "dats_folder=/data/ac"};
  auto c = layered_config(file, overrides);
  REQUIRE(c.has_value());
  CHECK(c->volume == 0.5f);
  CHECK_FALSE(c->hud);
  CHECK(c->dats_folder == "/data/ac");
  CHECK(c->window_width == 1280);
  CHECK_FALSE(load_config(file).has_value());  // load_config wants the file
  CHECK(load_config(file).error().kind == core::ErrorKind::Io);

  // The file beats the defaults; the command line beats the file.
  write(file, "volume = 0.75\nwindow_width = 800\nhud = true\n");
  c = layered_config(file, overrides);
  REQUIRE(c.has_value());
  CHECK(c->volume == 0.5f);
  CHECK_FALSE(c->hud);
  CHECK(c->window_width == 800);

  // Override errors name the argument.
  Config d;
  const std::vector<std::string> unknown = {"hud=true", "colour=blue"};
  auto r = apply_overrides(d, unknown);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().context == "--set 2");
  CHECK(r.error().field == "colour");
  CHECK(d.hud);  // nothing applied
  const std::vector<std::string> no_equals = {"fullscreen"};
  CHECK(apply_overrides(d, no_equals).error().field == "argument");
  const std::vector<std::string> bad_value = {"window_width=wide"};
  CHECK(apply_overrides(d, bad_value).error().field == "window_width");
  // A bad file is an error from the layers too.
  write(file, "window_width = wide\n");
  CHECK(layered_config(file, {}).error().context == file.string() + ":1");
}

TEST_CASE("Config save: a new file is the documented template and reads back equal", "[app][config]") {
  const dereth::test::TempDir dir("config");
  const auto file = dir.path() / "nested" / "folder" / "dereth.conf";
  Config c;
  c.window_width = 1600;
  c.fullscreen = true;
  c.log_level = spdlog::level::err;
  c.dats_folder = "/path with spaces/ac";
  c.record_folder = " leading";
  c.audio_device = "OpenAL Soft";
  c.volume = 0.3f;
  c.camera_mode = CameraMode::Free;
  c.mouse_sensitivity = 0.1f;
  REQUIRE(save_config(file, c).has_value());
  const std::string text = read(file);
  CHECK(text == format_config(c));
  for (auto key : config_keys()) CHECK(text.find("\n" + std::string(key) + " = ") != std::string::npos);
  CHECK(text.find("# Window width in pixels, 64..16384. Default 1280.\nwindow_width = 1600\n") != std::string::npos);
  CHECK(text.find("record_folder = \" leading\"\n") != std::string::npos);
  CHECK(text.find("log_level = error\n") != std::string::npos);
  auto back = load_config(file);
  REQUIRE(back.has_value());
  CHECK(*back == c);
  // The template of the defaults reads back as the defaults.
  Config defaults;
  REQUIRE(apply_config_text(defaults, format_config(Config{}), "template").has_value());
  CHECK(defaults == Config{});
  // Nothing but the file is left in the folder (the temporary was renamed).
  int entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(file.parent_path())) ++entries;
  CHECK(entries == 1);
}

TEST_CASE("Config save keeps the user's comments, unknown keys and order", "[app][config]") {
  const dereth::test::TempDir dir("config");
  const auto file = dir.path() / "dereth.conf";
  write(file,
        "# my settings\n"
        "  volume = 0.9\n"
        "colour = blue\n"
        "\n"
        "; keep me\n"
        "hud = false\n"
        "hud = false\n");
  auto c = load_config(file);
  REQUIRE(c.has_value());
  c->volume = 0.4f;
  c->window_width = 1024;
  REQUIRE(save_config(file, *c).has_value());
  const std::string text = read(file);
  CHECK(
      text.starts_with("# my settings\n"
                       "  volume = 0.4\n"
                       "colour = blue\n"
                       "\n"
                       "; keep me\n"
                       "hud = false\n"
                       "hud = false\n"));
  CHECK(text.find("window_width = 1024\n") != std::string::npos);
  auto back = load_config(file);
  REQUIRE(back.has_value());
  CHECK(*back == *c);
}

TEST_CASE("Config load refuses a file that is too large or not a file", "[app][config]") {
  const dereth::test::TempDir dir("config");
  const auto big = dir.path() / "big.conf";
  write(big, std::string(kMaxConfigBytes + 1, '#'));
  auto r = load_config(big);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == core::ErrorKind::TooLarge);
  auto folder = load_config(dir.path());
  CHECK_FALSE(folder.has_value());
  // Saving over a folder fails without touching it.
  CHECK_FALSE(save_config(dir.path(), Config{}).has_value());
  CHECK(std::filesystem::is_directory(dir.path()));
}
