#pragma once
// The 2D overlay over the 3D frame: a toggleable HUD, a chat panel of server
// text, and a progress bar while the DATs open and the world loads. Everything
// below `Overlay` is plain data and pure functions, tested without OpenGL;
// `Overlay` only uploads the laid-out triangles and draws them. Font, panels
// and coordinates: docs/render.md "The overlay".

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/core/error.hpp"
#include "dereth/render/gl_loader.hpp"

namespace dereth::render {

using Rgba8 = std::array<std::uint8_t, 4>;

// stb_easy_font's line height in font units (pixels at scale 1).
inline constexpr float kFontLineHeight = 12.0F;

// ---- text layout ---------------------------------------------------------------------------------

// One vertex of the overlay's triangles: a pixel position and a colour.
struct OverlayVertex {
  float x = 0.0F;
  float y = 0.0F;
  Rgba8 color{255, 255, 255, 255};
};

struct Rect {
  float x0 = 0.0F;
  float y0 = 0.0F;
  float x1 = 0.0F;
  float y1 = 0.0F;
  [[nodiscard]] float width() const noexcept { return x1 - x0; }
  [[nodiscard]] float height() const noexcept { return y1 - y0; }
  [[nodiscard]] bool contains(float x, float y) const noexcept { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
  bool operator==(const Rect&) const = default;
};

struct TextLimits {
  float max_width = 0.0F;     // pixels per line; 0: no limit. A longer line is cut at a glyph and ends in ".."
  std::size_t max_lines = 0;  // 0: no limit. Beyond it the oldest (first) lines are dropped, as a chat scrolls
};

struct TextLayout {
  std::vector<OverlayVertex> vertices;  // triangles, 6 per glyph quad, the block's top-left at (0, 0)
  Rect box;                             // the block: widest line's advance by lines x line height (both x scale)
  Rect ink;                             // the extent of the vertices (empty rect at 0,0 when there are none)
  std::size_t lines = 0;                // lines laid out (blank ones included)
  std::size_t clipped = 0;              // lines cut at max_width
  std::size_t dropped = 0;              // lines dropped by max_lines
};

// What the overlay's font (render/font.hpp) can draw, still UTF-8: printable
// ASCII and the rest of Windows-1252. Tabs, CR and LF become spaces; any
// other character, control or malformed byte becomes one '?'.
[[nodiscard]] std::string sanitize_text(std::string_view text);
// The advance width of one line of (sanitised) text in pixels at `scale`.
[[nodiscard]] float text_width(std::string_view text, float scale);
// Lays out lines top to bottom, one line height apart, in `color`, or line
// i in line_colors[i] where given.
[[nodiscard]] TextLayout layout_text(std::span<const std::string> lines, float scale,
                                     Rgba8 color = {255, 255, 255, 255}, TextLimits limits = {},
                                     std::span<const Rgba8> line_colors = {});

// ---- HUD -----------------------------------------------------------------------------------------

// What the HUD shows; the app fills it each frame from the renderer's stats,
// its own frame clock and the transport's statistics.
struct HudStats {
  double fps = 0.0;       // frames per second (averaged by the caller)
  double frame_ms = 0.0;  // the last frame's wall time
  std::size_t objects = 0;
  std::size_t objects_drawn = 0;  // objects with at least one part or marker drawn
  std::size_t particles = 0;
  std::size_t draw_calls = 0;
  std::size_t triangles = 0;
  bool online = false;  // false: no session (a replay, or not connected yet): the net line says so
  std::uint64_t packets_in = 0;
  std::uint64_t packets_out = 0;
  std::uint64_t messages_in = 0;
  std::uint64_t messages_out = 0;
  std::uint64_t resends = 0;      // retransmitted packets sent
  std::uint64_t naks = 0;         // retransmit requests sent
  std::uint64_t bad_packets = 0;  // unparseable or bad checksum
  std::optional<double> rtt_ms;   // echo round trip, when one was measured
};

// The HUD's lines, for example
//   "FPS 59.9  frame 16.7 ms"
//   "objects 20 (drawn 18)  particles 60"
//   "draws 42  tris 12345"
//   "net in 120 pkt / 80 msg  out 45 pkt / 30 msg"
//   "resend 0  nak 0  bad 0  rtt 42 ms"
// Offline the net lines are one "net offline". Non-finite numbers print "--".
[[nodiscard]] std::vector<std::string> format_hud(const HudStats& stats);

// ---- chat ----------------------------------------------------------------------------------------

struct ChatLine {
  double time = 0.0;                // seconds (the app's clock) when the server text arrived
  std::string text;                 // sanitised, at most the log's columns long
  bool continuation = false;        // a wrapped piece after the first of one message
  Rgba8 color{255, 240, 180, 255};  // the line's channel colour
};

// Splits sanitised text into pieces of at most `columns` glyphs, at the
// last space that fits (the space is dropped), or mid-word when one word is
// longer than a line. Empty text gives one empty line; columns 0 is taken as 1.
[[nodiscard]] std::vector<std::string> wrap_text(std::string_view text, std::size_t columns);

// "[hh:mm:ss]" of whole seconds (negative or non-finite: "[--:--:--]"); hours
// run past 24.
[[nodiscard]] std::string format_timestamp(double seconds);

// The last `capacity` lines of server text, each message sanitised and
// wrapped at `columns`; embedded newlines start new lines of one message.
class ChatLog {
 public:
  explicit ChatLog(std::size_t capacity = 200, std::size_t columns = 80);

  void add(double time, std::string_view text, Rgba8 color = {255, 240, 180, 255});
  void clear() noexcept;

  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return ring_.size(); }
  [[nodiscard]] std::size_t columns() const noexcept { return columns_; }
  [[nodiscard]] std::uint64_t dropped() const noexcept { return dropped_; }  // lines pushed out of the ring
  // The i-th line held, oldest first (i < size()).
  [[nodiscard]] const ChatLine& at(std::size_t i) const;
  // The newest `max_lines` lines, oldest first, for a panel: the first piece
  // of a message prefixed with its timestamp and a space, continuation pieces
  // indented to match.
  [[nodiscard]] std::vector<std::string> recent(std::size_t max_lines, bool timestamps = true) const;
  // The colours of the same lines recent(max_lines) gives.
  [[nodiscard]] std::vector<Rgba8> recent_colors(std::size_t max_lines) const;

 private:
  void push(ChatLine line);

  std::vector<ChatLine> ring_;
  std::size_t start_ = 0;  // index of the oldest line
  std::size_t count_ = 0;
  std::size_t columns_;
  std::uint64_t dropped_ = 0;
};

// ---- frame description ---------------------------------------------------------------------------

enum class Anchor : std::uint8_t {
  TopLeft,     // stacked downward from the top-left corner, in the order given
  BottomLeft,  // stacked upward from the bottom-left corner, the first given lowest
  Centre,      // one column centred in the framebuffer (the progress bar below the panels)
  CentreLeft,  // one column at the left margin, centred vertically (screens with a model preview on the right)
};

struct TextPanel {
  Anchor anchor = Anchor::TopLeft;
  std::vector<std::string> lines;
  Rgba8 color{255, 255, 255, 255};
  float background_alpha = 0.6F;   // the dark box behind the text: 0 none, 1 opaque black
  std::vector<Rgba8> line_colors;  // per line (by index into lines); `color` where absent
};

struct ProgressBar {
  float fraction = 0.0F;  // 0..1 (clamped; non-finite counts as 0)
  std::string label;      // a line above the bar: "Opening client_portal.dat"; empty: no line
  float background_alpha = 0.6F;
};

// The radar (the app fills it from sim::GmRadarUi): a disc at the top-right
// corner, `side` radar pixels across, each lit radar pixel a square of
// OverlayOptions::radar_pixel screen pixels; the compass letters around its
// rim turned against the player's heading; the coordinates line under it.
struct RadarDot {
  int x = 0;  // radar pixels from the radar's top-left, y down
  int y = 0;
  Rgba8 color{255, 255, 255, 255};
};

struct RadarPanel {
  int side = 101;  // radar pixels across (gmRadarUI's radius 50 around pixel 50)
  std::vector<RadarDot> dots;
  float heading = 0.0F;     // radians clockwise from north the player faces (up on the radar)
  std::string coordinates;  // "42.1N,33.6E"; empty: none (indoors)
  float background_alpha = 0.6F;
};

// The selected object (the toolbar's meter): its name at the top centre and,
// once the server answered QueryHealth, its health as a red bar under it.
struct TargetPanel {
  std::string name;
  std::optional<float> health;  // 0..1 (clamped; non-finite counts as 0); none: no bar
  float background_alpha = 0.6F;
};

// The player's vitals (gmVitalsUI): health, stamina and mana as bars in the
// top-left corner, each with "current/max" over it. The HUD's panels stack
// under it.
struct VitalBar {
  std::uint32_t current = 0;
  std::optional<std::uint32_t> max;  // none: not known (the label shows the current value alone, the bar is full)
  bool operator==(const VitalBar&) const = default;
};

struct VitalsPanel {
  std::array<VitalBar, 3> bars{};  // health, stamina, mana
  float background_alpha = 0.6F;
};

// The combat mode and the attack power bar (gmCombatUI) at the bottom
// centre: the mode's name, and in melee or missile mode the power the
// attack keys build while held. The chat panel stacks above it.
struct CombatPanel {
  std::string mode;            // "Peace", "Melee", "Missile", "Magic"
  std::optional<float> power;  // 0..1 (clamped; non-finite counts as 0); none: no bar
  float background_alpha = 0.6F;
};

// The spell bar (gmSpellcastingUI, shown in magic mode) above the combat
// panel: the open tab's number and its favourites by name, the selected one
// framed.
struct SpellBarPanel {
  std::int32_t tab = 0;  // 0-based; drawn "Tab 1".."Tab 8"
  std::vector<std::string> spells;
  std::optional<std::size_t> selected;  // index into spells; none: no frame
  float background_alpha = 0.6F;
};

struct OverlayFrame {
  std::vector<TextPanel> panels;
  std::optional<ProgressBar> progress;
  std::optional<RadarPanel> radar;
  std::optional<TargetPanel> target;
  std::optional<VitalsPanel> vitals;
  std::optional<CombatPanel> combat;
  std::optional<SpellBarPanel> spell_bar;
};

struct OverlayOptions {
  float scale = 2.0F;                // pixels per font unit; whole numbers keep glyph edges on pixels
  float margin = 8.0F;               // from the framebuffer's edges and between stacked panels
  float padding = 4.0F;              // between a panel's box and its text
  std::size_t max_panel_lines = 40;  // per panel: the newest (last) lines are kept
  float max_panel_width = 0.0F;      // pixels; 0: the framebuffer's width less the margins
  float progress_width = 400.0F;     // the bar at most this wide (pixels, shrinks to fit)
  float progress_height = 12.0F;     // pixels
  Rgba8 progress_color{235, 200, 90, 255};
  Rgba8 progress_track{60, 60, 60, 255};
  float radar_pixel = 2.0F;         // screen pixels per radar pixel
  float target_bar_width = 200.0F;  // the selected object's health bar (pixels, shrinks to fit)
  float target_bar_height = 8.0F;
  Rgba8 health_color{200, 30, 30, 255};
  float vital_bar_width = 200.0F;  // each vital's bar (pixels, shrinks to fit); as high as a text line
  std::array<Rgba8, 3> vital_colors{{{200, 30, 30, 255}, {215, 185, 40, 255}, {40, 80, 220, 255}}};
  float power_bar_width = 200.0F;  // the attack power bar (pixels, shrinks to fit), half a line high
  Rgba8 power_color{235, 200, 90, 255};
  Rgba8 spell_frame_color{255, 210, 90, 255};  // the selected spell's frame
};

// Where one panel went.
struct PanelPlacement {
  Rect box;   // the background box, padding included, clipped to the framebuffer
  Rect text;  // the text block's box inside it
  std::size_t lines = 0;
  std::size_t clipped = 0;
  std::size_t dropped = 0;
};

struct OverlayLayout {
  std::vector<OverlayVertex> vertices;     // triangles in draw order: each panel's box, then its text
  std::vector<PanelPlacement> panels;      // one per frame panel, in the frame's order
  std::optional<PanelPlacement> progress;  // the progress bar's box (label and bar)
  std::optional<Rect> bar;                 // the bar's track
  std::optional<Rect> radar;               // the radar disc's square (clipped to the framebuffer)
  std::optional<Rect> coordinates;         // the coordinates line's box under it
  std::array<Rect, 4> compass{};           // where N, E, S and W were drawn (their text boxes)
  std::optional<Rect> target;              // the selected object's box (name and bar)
  std::optional<Rect> target_bar;          // its health bar's track (none without a health)
  std::optional<Rect> vitals;              // the vitals' box
  std::array<Rect, 3> vital_bars{};        // each vital's bar track (health, stamina, mana)
  std::array<Rect, 3> vital_labels{};      // where each "current/max" was drawn
  std::optional<Rect> combat;              // the combat panel's box
  std::optional<Rect> power_bar;           // the attack power bar's track (none without a power)
  std::optional<Rect> spell_bar;           // the spell bar's box
  std::vector<Rect> spell_slots;           // each spell's box in it, in order
  std::optional<Rect> spell_frame;         // the frame around the selected spell's box
};

// A vital's label as gmVitalsUI writes it: "current/max", or the current
// value alone when the maximum is not known.
[[nodiscard]] std::string format_vital(const VitalBar& bar);

// Places every panel and the progress bar in a width x height framebuffer and
// builds the triangles (GL-free; what Overlay::draw uploads).
[[nodiscard]] OverlayLayout layout_overlay(const OverlayFrame& frame, int width, int height,
                                           const OverlayOptions& options = {});

// ---- drawing -------------------------------------------------------------------------------------

// Draws an OverlayFrame with OpenGL 3.3 core into the currently bound draw
// framebuffer: a window's default framebuffer, or the Renderer's after
// render() and Renderer::bind_framebuffer(). Depth test and culling are off
// while it draws, blending is on and destination alpha is kept; the GL state
// it touches (program, vertex array, buffer, blend, depth, cull, scissor,
// viewport) is restored afterwards. One Overlay per GL context; every call,
// destruction included, on the thread where the context is current.
class Overlay {
 public:
  // Loads the GL entry points through `loader` when given; with none the
  // entry points must already be loaded (a Renderer or HeadlessContext was
  // created in this context).
  [[nodiscard]] static core::Result<std::unique_ptr<Overlay>> create(GlProcLoader loader = nullptr,
                                                                     OverlayOptions options = {});
  ~Overlay();
  Overlay(const Overlay&) = delete;
  Overlay& operator=(const Overlay&) = delete;

  // width x height: the bound framebuffer's size (1..8192); the viewport is
  // set to it.
  [[nodiscard]] core::Result<void> draw(const OverlayFrame& frame, int width, int height);

  // What the last draw placed (for tests and hit-testing).
  [[nodiscard]] const OverlayLayout& last_layout() const noexcept;
  [[nodiscard]] const OverlayOptions& options() const noexcept;
  OverlayOptions& options() noexcept;

 private:
  struct Impl;
  explicit Overlay(std::unique_ptr<Impl> impl) noexcept;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dereth::render
