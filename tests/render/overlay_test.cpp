// The overlay: text layout, HUD lines and the chat log without OpenGL, then
// drawing over the renderer's framebuffer headless (EGL surfaceless; passes
// with a WARN without a usable EGL unless DERETH_REQUIRE_GL=1).

#include "dereth/render/overlay.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "dereth/render/camera.hpp"
#include "dereth/render/headless_context.hpp"
#include "dereth/render/image.hpp"
#include "dereth/render/renderer.hpp"

using namespace dereth;

namespace Catch {
template <>
struct StringMaker<dereth::render::Rect> {
  static std::string convert(const dereth::render::Rect& r) {
    return "{" + std::to_string(r.x0) + ", " + std::to_string(r.y0) + ", " + std::to_string(r.x1) + ", " +
           std::to_string(r.y1) + "}";
  }
};
}  // namespace Catch
using render::ChatLog;
using render::OverlayFrame;
using render::Rect;
using render::Rgba8;
using render::TextLayout;
using render::TextPanel;

namespace {

using Px = std::array<std::uint8_t, 4>;
using Lines = std::vector<std::string>;

bool inside(const Rect& outer, const Rect& inner) {
  return inner.x0 >= outer.x0 && inner.y0 >= outer.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1;
}

bool vertices_inside(const std::vector<render::OverlayVertex>& vertices, const Rect& r) {
  for (const auto& v : vertices) {
    if (!r.contains(v.x, v.y)) return false;
  }
  return true;
}

}  // namespace

// ---- sanitising and widths -----------------------------------------------------------------------

TEST_CASE("Overlay sanitize_text keeps printable ASCII and Windows-1252, and makes everything else drawable",
          "[render][overlay]") {
  CHECK(render::sanitize_text("Hello, world! ~{}") == "Hello, world! ~{}");
  CHECK(render::sanitize_text("a\tb\nc\rd") == "a b c d");
  CHECK(render::sanitize_text(std::string("x\x01y\x7Fz", 5)) == "x?y?z");
  CHECK(render::sanitize_text("caf\xC3\xA9!") == "caf\xC3\xA9!");  // CP1252 has e acute: kept
  const std::string euro = "\xE2\x82\xAC";                         // CP1252 0x80
  CHECK(render::sanitize_text(euro + "5") == euro + "5");
  CHECK(render::sanitize_text("\xC2\x85") == "?");                   // U+0085, a C1 control, is not CP1252's 0x85
  CHECK(render::sanitize_text("\xE6\x97\xA5\xE6\x9C\xAC") == "??");  // two 3-byte characters
  CHECK(render::sanitize_text("\xF0\x9F\x98\x80.") == "?.");         // a 4-byte character
  CHECK(render::sanitize_text("\x80\x81") == "??");                  // stray continuation bytes
  CHECK(render::sanitize_text("end\xE6") == "end?");                 // a truncated sequence
  CHECK(render::sanitize_text(std::string("n\0l", 3)) == "n?l");
  CHECK(render::sanitize_text("\xC0\xAF") == "?");  // an overlong '/'
  CHECK(render::sanitize_text("").empty());
}

TEST_CASE("Overlay text_width: advances add up, digits and space share one advance, scale multiplies",
          "[render][overlay]") {
  const float a = render::text_width("A", 1.0F);
  const float b = render::text_width("B", 1.0F);
  CHECK(a > 0.0F);
  CHECK(render::text_width("AB", 1.0F) == a + b);
  // stb_easy_font 1.0: "space character takes same space as numbers".
  CHECK(render::text_width("0123456789", 1.0F) == 10.0F * render::text_width(" ", 1.0F));
  CHECK(render::text_width("AB", 2.0F) == 2.0F * (a + b));
  CHECK(render::text_width("AB", 3.0F) == 3.0F * (a + b));
  CHECK(render::text_width("", 2.0F) == 0.0F);
  // Undrawable bytes are measured as the '?' they become.
  CHECK(render::text_width("\x01", 1.0F) == render::text_width("?", 1.0F));
  // A bad scale is taken as 1.
  CHECK(render::text_width("AB", 0.0F) == a + b);
  CHECK(render::text_width("AB", std::numeric_limits<float>::quiet_NaN()) == a + b);
}

// ---- layout_text ---------------------------------------------------------------------------------

TEST_CASE("Overlay layout_text: the box is the widest line by the line count, the ink lies inside it",
          "[render][overlay]") {
  const Lines lines{"Hello", "Hi", "gjpqy"};
  const TextLayout one = render::layout_text(lines, 1.0F, {10, 20, 30, 40});
  CHECK(one.lines == 3);
  CHECK(one.clipped == 0);
  CHECK(one.dropped == 0);
  const float widest =
      std::max({render::text_width("Hello", 1.0F), render::text_width("Hi", 1.0F), render::text_width("gjpqy", 1.0F)});
  CHECK(one.box == Rect{0.0F, 0.0F, widest, 36.0F});
  REQUIRE(!one.vertices.empty());
  CHECK(one.vertices.size() % 6 == 0);  // two triangles per glyph quad
  CHECK(inside(one.box, one.ink));      // descenders of the last line included
  CHECK(vertices_inside(one.vertices, one.box));
  CHECK(one.ink.y1 > 24.0F);  // the third line has ink in the third row
  for (const auto& v : one.vertices) CHECK(v.color == render::Rgba8{10, 20, 30, 40});

  // Twice the scale: every vertex at twice the position.
  const TextLayout two = render::layout_text(lines, 2.0F, {10, 20, 30, 40});
  CHECK(two.box == Rect{0.0F, 0.0F, 2.0F * one.box.x1, 72.0F});
  REQUIRE(two.vertices.size() == one.vertices.size());
  for (std::size_t i = 0; i < one.vertices.size(); ++i) {
    CHECK(two.vertices[i].x == 2.0F * one.vertices[i].x);
    CHECK(two.vertices[i].y == 2.0F * one.vertices[i].y);
  }
  // Every glyph edge of a whole-number scale lies on a pixel boundary.
  for (const auto& v : two.vertices) {
    CHECK(v.x == std::floor(v.x));
    CHECK(v.y == std::floor(v.y));
  }
}

TEST_CASE("Overlay layout_text: each line starts one line height lower, blank lines take room and draw nothing",
          "[render][overlay]") {
  const TextLayout single = render::layout_text(Lines{"I"}, 1.0F);
  const TextLayout spaced = render::layout_text(Lines{"", "I"}, 1.0F);
  CHECK(spaced.lines == 2);
  CHECK(spaced.box.height() == 24.0F);
  REQUIRE(spaced.vertices.size() == single.vertices.size());
  for (std::size_t i = 0; i < single.vertices.size(); ++i) {
    CHECK(spaced.vertices[i].x == single.vertices[i].x);
    CHECK(spaced.vertices[i].y == single.vertices[i].y + render::kFontLineHeight);
  }

  const TextLayout none = render::layout_text(Lines{}, 2.0F);
  CHECK(none.lines == 0);
  CHECK(none.vertices.empty());
  CHECK(none.box == Rect{});
  CHECK(none.ink == Rect{});

  const TextLayout blanks = render::layout_text(Lines{"", "   "}, 2.0F);
  CHECK(blanks.vertices.empty());
  CHECK(blanks.box.height() == 48.0F);
  CHECK(blanks.box.width() == render::text_width("   ", 2.0F));
}

TEST_CASE("Overlay layout_text: a line wider than max_width is cut at a glyph and ends in '..'", "[render][overlay]") {
  const std::string long_line(200, 'W');
  const float limit = 100.0F;
  const TextLayout t = render::layout_text(Lines{long_line, "ok"}, 2.0F, {255, 255, 255, 255}, {limit, 0});
  CHECK(t.clipped == 1);
  CHECK(t.lines == 2);
  CHECK(t.box.width() <= limit);
  CHECK(t.ink.x1 <= limit);
  // As much as fits: one more 'W' would not.
  const float w = render::text_width("W", 2.0F);
  CHECK(t.box.width() + w > limit);
  // The cut line is some W's and the marker: its width is n*W + "..".
  const float marker = render::text_width("..", 2.0F);
  const float ws = t.box.width() - marker;
  CHECK(ws / w == Approx(std::round(ws / w)));

  // A line exactly as wide as the limit is not cut.
  const float exact = render::text_width("Hello", 2.0F);
  const TextLayout fits = render::layout_text(Lines{"Hello"}, 2.0F, {255, 255, 255, 255}, {exact, 0});
  CHECK(fits.clipped == 0);
  CHECK(fits.box.width() == exact);
  // A limit narrower than the marker keeps only what fits, without it.
  const TextLayout tiny = render::layout_text(Lines{"Hello"}, 2.0F, {255, 255, 255, 255}, {1.0F, 0});
  CHECK(tiny.clipped == 1);
  CHECK(tiny.vertices.empty());
  CHECK(tiny.box.width() == 0.0F);
}

TEST_CASE("Overlay layout_text: max_lines keeps the newest (last) lines", "[render][overlay]") {
  const TextLayout capped = render::layout_text(Lines{"one", "two", "three"}, 1.0F, {255, 255, 255, 255}, {0.0F, 2});
  const TextLayout expected = render::layout_text(Lines{"two", "three"}, 1.0F);
  CHECK(capped.lines == 2);
  CHECK(capped.dropped == 1);
  CHECK(capped.box == expected.box);
  REQUIRE(capped.vertices.size() == expected.vertices.size());
  for (std::size_t i = 0; i < expected.vertices.size(); ++i) {
    CHECK(capped.vertices[i].x == expected.vertices[i].x);
    CHECK(capped.vertices[i].y == expected.vertices[i].y);
  }
}

// ---- HUD -----------------------------------------------------------------------------------------

TEST_CASE("Overlay format_hud: frame rate, counts and network statistics", "[render][overlay]") {
  render::HudStats s;
  s.fps = 59.94;
  s.frame_ms = 16.68;
  s.objects = 20;
  s.objects_drawn = 18;
  s.particles = 60;
  s.draw_calls = 42;
  s.triangles = 12345;
  s.online = true;
  s.packets_in = 120;
  s.messages_in = 80;
  s.packets_out = 45;
  s.messages_out = 30;
  s.resends = 2;
  s.naks = 1;
  s.bad_packets = 3;
  s.rtt_ms = 41.6;
  CHECK(render::format_hud(s) == Lines{"FPS 59.9  frame 16.7 ms", "objects 20 (drawn 18)  particles 60",
                                       "draws 42  tris 12345", "net in 120 pkt / 80 msg  out 45 pkt / 30 msg",
                                       "resend 2  nak 1  bad 3  rtt 42 ms"});

  s.rtt_ms.reset();
  CHECK(render::format_hud(s).back() == "resend 2  nak 1  bad 3  rtt --");
  s.rtt_ms = std::numeric_limits<double>::infinity();
  CHECK(render::format_hud(s).back() == "resend 2  nak 1  bad 3  rtt --");

  s.online = false;
  s.fps = std::numeric_limits<double>::quiet_NaN();
  s.packets_in = 18446744073709551615ULL;  // not shown offline
  CHECK(render::format_hud(s) ==
        Lines{"FPS --  frame 16.7 ms", "objects 20 (drawn 18)  particles 60", "draws 42  tris 12345", "net offline"});

  render::HudStats big;
  big.online = true;
  big.packets_in = 18446744073709551615ULL;
  CHECK(render::format_hud(big)[3] == "net in 18446744073709551615 pkt / 0 msg  out 0 pkt / 0 msg");
  CHECK(render::format_hud(render::HudStats{})[0] == "FPS 0.0  frame 0.0 ms");
}

// ---- chat ----------------------------------------------------------------------------------------

TEST_CASE("Overlay wrap_text: breaks at the last space that fits, mid-word only for a word too long",
          "[render][overlay]") {
  CHECK(render::wrap_text("the quick brown fox", 10) == Lines{"the quick", "brown fox"});
  CHECK(render::wrap_text("the quick brown fox", 9) == Lines{"the quick", "brown fox"});  // the space at column 10
  CHECK(render::wrap_text("the quick brown fox", 8) == Lines{"the", "quick", "brown", "fox"});
  CHECK(render::wrap_text("abcdefghijkl", 5) == Lines{"abcde", "fghij", "kl"});
  CHECK(render::wrap_text("hi abcdefghijkl", 5) == Lines{"hi", "abcde", "fghij", "kl"});
  CHECK(render::wrap_text("exact", 5) == Lines{"exact"});
  CHECK(render::wrap_text("abc ", 3) == Lines{"abc"});
  CHECK(render::wrap_text("", 10) == Lines{""});
  CHECK(render::wrap_text("abc", 0) == Lines{"a", "b", "c"});  // columns 0 is taken as 1
  // Columns count glyphs: a two-byte e acute is one column.
  CHECK(render::wrap_text("\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9 \xC3\xA9", 4) ==
        Lines{"\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9", "\xC3\xA9"});
  for (const auto& piece : render::wrap_text(std::string(1000, 'x') + " tail", 80)) CHECK(piece.size() <= 80);
}

TEST_CASE("Overlay format_timestamp: [hh:mm:ss] of whole seconds", "[render][overlay]") {
  CHECK(render::format_timestamp(0.0) == "[00:00:00]");
  CHECK(render::format_timestamp(3725.9) == "[01:02:05]");
  CHECK(render::format_timestamp(90000.0) == "[25:00:00]");
  CHECK(render::format_timestamp(-1.0) == "[--:--:--]");
  CHECK(render::format_timestamp(std::numeric_limits<double>::quiet_NaN()) == "[--:--:--]");
  CHECK(render::format_timestamp(1e300) == "[99999:00:00]");  // clamped, no overflow
}

TEST_CASE("Overlay ChatLog keeps the last N lines in a ring, with their times", "[render][overlay]") {
  ChatLog log(3, 80);
  CHECK(log.capacity() == 3);
  CHECK(log.size() == 0);
  CHECK(log.recent(10).empty());
  for (int i = 1; i <= 5; ++i) log.add(static_cast<double>(i), "line " + std::to_string(i));
  CHECK(log.size() == 3);
  CHECK(log.dropped() == 2);
  CHECK(log.at(0).text == "line 3");
  CHECK(log.at(0).time == 3.0);
  CHECK(log.at(2).text == "line 5");
  CHECK_FALSE(log.at(2).continuation);
  CHECK(log.recent(2) == Lines{"[00:00:04] line 4", "[00:00:05] line 5"});
  CHECK(log.recent(10, false) == Lines{"line 3", "line 4", "line 5"});
  CHECK(log.recent(0).empty());
  log.clear();
  CHECK(log.size() == 0);
  log.add(61.0, "again");
  CHECK(log.recent(5) == Lines{"[00:01:01] again"});

  ChatLog zero(0, 0);  // taken as one line of one column
  CHECK(zero.capacity() == 1);
  CHECK(zero.columns() == 1);
  zero.add(0.0, "ab");
  CHECK(zero.size() == 1);
  CHECK(zero.at(0).text == "b");
}

TEST_CASE("Overlay ChatLog wraps long server text, splits newlines and sanitises", "[render][overlay]") {
  ChatLog log(100, 10);
  log.add(5.0, "the quick brown fox");
  REQUIRE(log.size() == 2);
  CHECK(log.at(0).text == "the quick");
  CHECK_FALSE(log.at(0).continuation);
  CHECK(log.at(1).text == "brown fox");
  CHECK(log.at(1).continuation);
  CHECK(log.at(1).time == 5.0);
  CHECK(log.recent(2) == Lines{"[00:00:05] the quick", "           brown fox"});

  log.add(6.0, "a\r\nb\x01\tc\xC3\xA9");
  REQUIRE(log.size() == 4);
  CHECK(log.at(2).text == "a");
  CHECK_FALSE(log.at(2).continuation);
  CHECK(log.at(3).text == "b? c\xC3\xA9");
  CHECK(log.at(3).continuation);

  // The cap applies to wrapped lines: a long message scrolls older lines out.
  ChatLog small(4, 5);
  small.add(0.0, "old");
  small.add(1.0, "aaaaabbbbbcccccddddd");
  CHECK(small.size() == 4);
  CHECK(small.dropped() == 1);
  CHECK(small.recent(4, false) == Lines{"aaaaa", "bbbbb", "ccccc", "ddddd"});
  CHECK(small.recent(2, false) == Lines{"ccccc", "ddddd"});
}

// ---- layout_overlay ------------------------------------------------------------------------------

TEST_CASE("Overlay layout_overlay: anchors, stacking, the progress bar and the dark boxes", "[render][overlay]") {
  render::OverlayOptions o;  // scale 2, margin 8, padding 4
  OverlayFrame frame;
  frame.panels.push_back(TextPanel{render::Anchor::TopLeft, {"HUD"}, {255, 255, 255, 255}, 0.5F, {}});
  frame.panels.push_back(TextPanel{render::Anchor::TopLeft, {"x", "y"}, {255, 255, 0, 255}, 0.5F, {}});
  frame.panels.push_back(TextPanel{render::Anchor::BottomLeft, {"chat"}, {200, 200, 200, 255}, 0.0F, {}});
  frame.progress = render::ProgressBar{0.25F, "Loading", 0.6F};
  const auto layout = render::layout_overlay(frame, 320, 200, o);
  REQUIRE(layout.panels.size() == 3);

  const auto& hud = layout.panels[0];
  CHECK(hud.box == Rect{8.0F, 8.0F, 8.0F + 8.0F + render::text_width("HUD", 2.0F), 40.0F});
  CHECK(hud.text == Rect{12.0F, 12.0F, 12.0F + render::text_width("HUD", 2.0F), 36.0F});
  CHECK(hud.lines == 1);
  const auto& second = layout.panels[1];
  CHECK(second.box.y0 == 48.0F);  // below the first, one margin apart
  CHECK(second.box.y1 == 48.0F + 48.0F + 8.0F);
  const auto& chat = layout.panels[2];
  CHECK(chat.box.y1 == 192.0F);
  CHECK(chat.box.y0 == 160.0F);
  CHECK(chat.box.x0 == 8.0F);

  REQUIRE(layout.progress.has_value());
  REQUIRE(layout.bar.has_value());
  // The bar: 400 wide at most, here the framebuffer less margins and padding (296).
  CHECK(*layout.bar == Rect{12.0F, 108.0F, 308.0F, 120.0F});
  CHECK(layout.progress->box == Rect{8.0F, 76.0F, 312.0F, 124.0F});  // label 24 + gap 4 + bar 12 + padding 8
  CHECK(layout.progress->lines == 1);

  // Draw order: box then text per panel; the chat panel's box alpha is 0, so it has none.
  REQUIRE(layout.vertices.size() >= 6);
  for (std::size_t i = 0; i < 6; ++i) CHECK(layout.vertices[i].color == render::Rgba8{0, 0, 0, 128});
  std::size_t fill = 0;
  std::size_t track = 0;
  for (const auto& v : layout.vertices) {
    CHECK(v.x >= 0.0F);
    CHECK(v.x <= 320.0F);
    CHECK(v.y >= 0.0F);
    CHECK(v.y <= 200.0F);
    if (v.color == o.progress_color) {
      ++fill;
      CHECK(v.x >= 12.0F);
      CHECK(v.x <= 12.0F + 74.0F);  // round(296 * 0.25)
    }
    if (v.color == o.progress_track) ++track;
  }
  CHECK(fill == 6);
  CHECK(track == 6);
  // Each panel's text vertices lie in its text rect.
  CHECK(hud.text.x1 <= hud.box.x1);
}

TEST_CASE("Overlay layout_overlay: panels are capped to the lines and width that fit", "[render][overlay]") {
  render::OverlayOptions o;
  OverlayFrame frame;
  TextPanel chat;
  chat.anchor = render::Anchor::BottomLeft;
  for (int i = 0; i < 100; ++i) chat.lines.push_back("message " + std::to_string(i) + " " + std::string(60, 'm'));
  frame.panels.push_back(chat);
  const auto layout = render::layout_overlay(frame, 320, 200, o);
  REQUIRE(layout.panels.size() == 1);
  const auto& p = layout.panels[0];
  CHECK(p.lines == 7);  // floor((200 - 16 - 8) / 24)
  CHECK(p.dropped == 93);
  CHECK(p.clipped == 7);
  CHECK(p.box.x1 <= 312.0F);
  CHECK(p.box.y0 >= 8.0F);
  CHECK(p.box.y1 == 192.0F);
  for (const auto& v : layout.vertices) CHECK(p.box.contains(v.x, v.y));

  o.max_panel_lines = 3;
  CHECK(render::layout_overlay(frame, 320, 200, o).panels[0].lines == 3);
  o.max_panel_width = 100.0F;
  CHECK(render::layout_overlay(frame, 320, 200, o).panels[0].box.width() <= 100.0F);

  // A framebuffer too small for one line shows no text and no box.
  const auto tiny = render::layout_overlay(frame, 16, 16, o);
  CHECK(tiny.panels[0].lines == 0);
  CHECK(tiny.panels[0].dropped == 100);
  CHECK(tiny.vertices.empty());
  CHECK(render::layout_overlay(frame, 0, 100, o).vertices.empty());
}

TEST_CASE("Overlay layout_overlay: a CentreLeft panel sits at the left margin, centred vertically",
          "[render][overlay]") {
  render::OverlayOptions o;
  OverlayFrame frame;
  frame.panels.push_back(TextPanel{render::Anchor::CentreLeft, {"Aerin", "Cadrel"}, {255, 255, 255, 255}, 0.6F, {}});
  frame.panels.push_back(TextPanel{render::Anchor::Centre, {"Welcome"}, {255, 255, 255, 255}, 0.6F, {}});
  const auto layout = render::layout_overlay(frame, 400, 300, o);
  REQUIRE(layout.panels.size() == 2);
  const Rect& left = layout.panels[0].box;
  CHECK(left.x0 == o.margin);
  CHECK(std::abs((left.y0 + left.y1) * 0.5F - 150.0F) <= 1.0F);
  // The centred panel is laid out on its own, as before.
  const Rect& centre = layout.panels[1].box;
  CHECK(std::abs((centre.x0 + centre.x1) * 0.5F - 200.0F) <= 1.0F);
  CHECK(std::abs((centre.y0 + centre.y1) * 0.5F - 150.0F) <= 1.0F);
}

TEST_CASE("Overlay layout_overlay: the progress fraction is clamped and the centre column is centred",
          "[render][overlay]") {
  render::OverlayOptions o;
  o.progress_width = 100.0F;
  const auto fill_width = [&](float fraction) {
    OverlayFrame frame;
    frame.progress = render::ProgressBar{fraction, "", 0.6F};
    const auto layout = render::layout_overlay(frame, 200, 100, o);
    float x0 = 1e9F;
    float x1 = -1e9F;
    for (const auto& v : layout.vertices) {
      if (v.color != o.progress_color) continue;
      x0 = std::min(x0, v.x);
      x1 = std::max(x1, v.x);
    }
    return x1 > x0 ? x1 - x0 : 0.0F;
  };
  CHECK(fill_width(0.5F) == 50.0F);
  CHECK(fill_width(2.0F) == 100.0F);
  CHECK(fill_width(-1.0F) == 0.0F);
  CHECK(fill_width(std::numeric_limits<float>::quiet_NaN()) == 0.0F);

  OverlayFrame frame;
  frame.panels.push_back(TextPanel{render::Anchor::Centre, {"Welcome"}, {255, 255, 255, 255}, 0.6F, {}});
  frame.progress = render::ProgressBar{0.5F, "", 0.6F};
  const auto layout = render::layout_overlay(frame, 200, 100, o);
  const Rect& panel = layout.panels[0].box;
  const Rect& bar = layout.progress->box;  // no label: padding + 12 + padding
  CHECK(bar.height() == 20.0F);
  CHECK(bar.y0 == panel.y1 + 8.0F);
  const float column = panel.height() + 8.0F + bar.height();
  CHECK(panel.y0 == std::floor((100.0F - column) / 2.0F));
  CHECK(panel.x0 == std::floor((200.0F - panel.width()) / 2.0F));
  CHECK(bar.x0 == std::floor((200.0F - bar.width()) / 2.0F));
}

// ---- drawing (headless GL) -----------------------------------------------------------------------

namespace {

bool gl_required() {
  const char* v = std::getenv("DERETH_REQUIRE_GL");
  return v != nullptr && std::string(v) == "1";
}

// One context for this file's tests, created on first use and never destroyed.
const core::Result<render::HeadlessContext>& overlay_gl_context() {
  static const auto* context = new core::Result<render::HeadlessContext>(render::HeadlessContext::create());
  return *context;
}

#define DERETH_OVERLAY_GL_OR_RETURN()                                                               \
  do {                                                                                              \
    const auto& dereth_ctx_ = overlay_gl_context();                                                 \
    if (!dereth_ctx_) {                                                                             \
      const std::string why = "no headless OpenGL context: " + dereth_ctx_.error().message();       \
      if (gl_required()) FAIL(why + " (DERETH_REQUIRE_GL=1)");                                      \
      WARN(why + "; the GL test passes without drawing (set DERETH_REQUIRE_GL=1 to make it fail)"); \
      return;                                                                                       \
    }                                                                                               \
    REQUIRE(dereth_ctx_->make_current());                                                           \
  } while (false)

std::unique_ptr<render::Renderer> plain_renderer() {
  render::RendererOptions options;
  options.draw_terrain = false;
  auto r = render::Renderer::create(render::HeadlessContext::loader(), nullptr, nullptr, options);
  if (!r) FAIL(r.error().message());
  return std::move(*r);
}

Px sky(const render::Renderer& r) {
  const auto& c = r.options().clear_color;
  const auto unorm = [](float f) { return static_cast<std::uint8_t>(f * 255.0F + 0.5F); };
  return {unorm(c[0]), unorm(c[1]), unorm(c[2]), 255};
}

bool near(const Px& a, const Px& b, int tolerance) {
  for (std::size_t i = 0; i < 4; ++i) {
    if (std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i])) > tolerance) return false;
  }
  return true;
}

bool pixel_in(const Rect& r, int x, int y) {
  // Pixel (x, y) covers [x, x+1) x [y, y+1); it is inside when its centre is.
  const float cx = static_cast<float>(x) + 0.5F;
  const float cy = static_cast<float>(y) + 0.5F;
  return cx > r.x0 && cx < r.x1 && cy > r.y0 && cy < r.y1;
}

const render::Camera kCamera = render::Camera::look_at({0.0F, -10.0F, 5.0F}, {0.0F, 0.0F, 0.0F});

}  // namespace

TEST_CASE("Overlay draws a panel's text inside its dark box over the renderer's frame, nothing outside",
          "[render][gl][overlay]") {
  DERETH_OVERLAY_GL_OR_RETURN();
  auto renderer = plain_renderer();
  const sim::RenderSnapshot empty;
  CHECK_FALSE(renderer->bind_framebuffer());  // nothing rendered yet
  REQUIRE(renderer->render(empty, kCamera, 128, 64).has_value());
  const render::Image before = renderer->read_pixels();

  auto overlay = render::Overlay::create();  // the renderer loaded the entry points
  if (!overlay) FAIL(overlay.error().message());
  REQUIRE((*overlay)->options().scale == 2.0F);

  OverlayFrame frame;
  frame.panels.push_back(TextPanel{render::Anchor::TopLeft, {"HI"}, {255, 255, 255, 255}, 0.75F, {}});
  REQUIRE(renderer->bind_framebuffer());
  REQUIRE((*overlay)->draw(frame, 128, 64).has_value());
  const render::Image img = renderer->read_pixels();
  REQUIRE(img.width == 128);
  REQUIRE(img.height == 64);

  const auto& placement = (*overlay)->last_layout().panels.at(0);
  const Rect box = placement.box;
  CHECK(box == Rect{8.0F, 8.0F, 16.0F + render::text_width("HI", 2.0F), 40.0F});
  const Px background = sky(*renderer);
  // The box darkens the sky to a quarter: (1 - 0.75) * sky.
  const Px dark{static_cast<std::uint8_t>(background[0] / 4), static_cast<std::uint8_t>(background[1] / 4),
                static_cast<std::uint8_t>(background[2] / 4), 255};

  std::size_t text_pixels = 0;
  std::size_t text_outside_ink = 0;
  std::size_t changed_outside = 0;
  std::size_t box_pixels = 0;
  std::size_t not_opaque = 0;
  const Rect ink{placement.text.x0, placement.text.y0, placement.text.x1, placement.text.y1};
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      const Px p = img.at(x, y);
      if (p[3] != 255) ++not_opaque;  // destination alpha is kept
      if (!pixel_in(box, x, y)) {
        if (p != background) ++changed_outside;
        continue;
      }
      if (p == Px{255, 255, 255, 255}) {
        ++text_pixels;
        if (!pixel_in(ink, x, y)) ++text_outside_ink;
      } else {
        CHECK(near(p, dark, 2));
        ++box_pixels;
      }
    }
  }
  CHECK(changed_outside == 0);
  CHECK(not_opaque == 0);
  CHECK(text_outside_ink == 0);
  // "HI" at scale 2: two glyphs of several 2-pixel-wide strokes.
  CHECK(text_pixels > 40);
  CHECK(box_pixels > text_pixels);
  CHECK(near(img.at(8, 8), dark, 2));  // the box's top-left pixel
  CHECK(img.at(7, 7) == background);   // just outside it
  CHECK(before.at(20, 20) == background);

  // The renderer's state is intact: the same scene renders as before the overlay.
  REQUIRE(renderer->render(empty, kCamera, 128, 64).has_value());
  CHECK(renderer->read_pixels() == before);
}

TEST_CASE("Overlay draws the progress bar's fill and track, and an empty frame draws nothing",
          "[render][gl][overlay]") {
  DERETH_OVERLAY_GL_OR_RETURN();
  auto renderer = plain_renderer();
  const sim::RenderSnapshot empty;
  REQUIRE(renderer->render(empty, kCamera, 128, 64).has_value());
  const render::Image before = renderer->read_pixels();

  auto overlay = render::Overlay::create(render::HeadlessContext::loader());
  if (!overlay) FAIL(overlay.error().message());
  auto& o = (*overlay)->options();
  o.progress_width = 100.0F;

  REQUIRE(renderer->bind_framebuffer());
  REQUIRE((*overlay)->draw(OverlayFrame{}, 128, 64).has_value());
  CHECK(renderer->read_pixels() == before);

  OverlayFrame frame;
  frame.progress = render::ProgressBar{0.5F, "", 0.6F};
  REQUIRE(renderer->bind_framebuffer());
  REQUIRE((*overlay)->draw(frame, 128, 64).has_value());
  const render::Image img = renderer->read_pixels();
  REQUIRE((*overlay)->last_layout().bar.has_value());
  const Rect bar = *(*overlay)->last_layout().bar;
  CHECK(bar.width() == 100.0F);
  const int y = static_cast<int>(bar.y0) + 2;
  const Px fill{o.progress_color[0], o.progress_color[1], o.progress_color[2], 255};
  const Px track{o.progress_track[0], o.progress_track[1], o.progress_track[2], 255};
  CHECK(img.at(static_cast<int>(bar.x0) + 1, y) == fill);
  CHECK(img.at(static_cast<int>(bar.x0) + 49, y) == fill);
  CHECK(img.at(static_cast<int>(bar.x0) + 50, y) == track);
  CHECK(img.at(static_cast<int>(bar.x1) - 1, y) == track);
  CHECK(img.at(static_cast<int>(bar.x1) + 8, y) == before.at(static_cast<int>(bar.x1) + 8, y));

  CHECK_FALSE((*overlay)->draw(frame, 0, 64).has_value());
  CHECK_FALSE((*overlay)->draw(frame, 128, 9000).has_value());
}

// DERETH_SCREENSHOT_DIR set: the frame is written there as overlay_320x180.png.
TEST_CASE("Overlay draws the HUD, a chat panel and a loading bar, each panel's text in its own colour and box",
          "[render][gl][overlay]") {
  DERETH_OVERLAY_GL_OR_RETURN();
  auto renderer = plain_renderer();
  const sim::RenderSnapshot empty;
  REQUIRE(renderer->render(empty, kCamera, 320, 180).has_value());
  auto overlay = render::Overlay::create();
  if (!overlay) FAIL(overlay.error().message());
  (*overlay)->options().scale = 1.0F;

  render::HudStats stats;
  stats.fps = 30.0;
  stats.frame_ms = 33.3;
  stats.objects = 20;
  stats.particles = 60;
  ChatLog chat(50, 40);
  chat.add(12.0, "Welcome to Asheron's Call. The server text wraps at forty columns here.");
  chat.add(75.0, "You say, \"Hello\"");

  const render::Rgba8 hud_color{255, 255, 0, 255};
  const render::Rgba8 chat_color{0, 255, 255, 255};
  OverlayFrame frame;
  frame.panels.push_back(TextPanel{render::Anchor::TopLeft, render::format_hud(stats), hud_color, 0.6F, {}});
  frame.panels.push_back(TextPanel{render::Anchor::BottomLeft, chat.recent(4), chat_color, 0.6F, {}});
  frame.progress = render::ProgressBar{0.4F, "Loading landblocks", 0.6F};
  REQUIRE(renderer->bind_framebuffer());
  REQUIRE((*overlay)->draw(frame, 320, 180).has_value());
  const render::Image img = renderer->read_pixels();
  if (const char* dir = std::getenv("DERETH_SCREENSHOT_DIR"); dir != nullptr) {
    CHECK(render::write_png(std::string(dir) + "/overlay_320x180.png", img).has_value());
  }

  const auto& layout = (*overlay)->last_layout();
  REQUIRE(layout.panels.size() == 2);
  REQUIRE(layout.progress.has_value());
  CHECK(layout.panels[0].lines == 4);
  CHECK(layout.panels[1].lines == 3);  // the first message wrapped in two, then one
  const auto colour_of = [](render::Rgba8 c) { return Px{c[0], c[1], c[2], 255}; };
  std::size_t hud_in = 0;
  std::size_t hud_out = 0;
  std::size_t chat_in = 0;
  std::size_t chat_out = 0;
  std::size_t label_in = 0;
  for (int y = 0; y < img.height; ++y) {
    for (int x = 0; x < img.width; ++x) {
      const Px p = img.at(x, y);
      if (p == colour_of(hud_color)) (pixel_in(layout.panels[0].box, x, y) ? hud_in : hud_out) += 1;
      if (p == colour_of(chat_color)) (pixel_in(layout.panels[1].box, x, y) ? chat_in : chat_out) += 1;
      if (p == Px{255, 255, 255, 255} && pixel_in(layout.progress->box, x, y)) ++label_in;
    }
  }
  CHECK(hud_in > 100);
  CHECK(hud_out == 0);
  CHECK(chat_in > 100);
  CHECK(chat_out == 0);
  CHECK(label_in > 30);
  // The panels do not overlap.
  CHECK(layout.panels[0].box.y1 < layout.progress->box.y0);
  CHECK(layout.progress->box.y1 < layout.panels[1].box.y0);
}

TEST_CASE("layout_text colours each line by its channel where a colour is given", "[render][overlay][chat]") {
  const std::vector<std::string> lines = {"tell", "speech", "plain"};
  const std::vector<Rgba8> colors = {{255, 255, 110, 255}, {255, 255, 255, 255}};
  const auto layout = render::layout_text(lines, 1.0F, Rgba8{10, 20, 30, 255}, {}, colors);
  REQUIRE_FALSE(layout.vertices.empty());
  // Rows are one line height apart: a vertex's row says which line it is.
  std::set<std::array<std::uint8_t, 4>> first_row, second_row, third_row;
  const float row = layout.box.height() / 3.0F;
  for (const auto& v : layout.vertices) {
    const int r = static_cast<int>(v.y / row);
    (r == 0 ? first_row : r == 1 ? second_row : third_row).insert(v.color);
  }
  CHECK(first_row == std::set<std::array<std::uint8_t, 4>>{{255, 255, 110, 255}});
  CHECK(second_row == std::set<std::array<std::uint8_t, 4>>{{255, 255, 255, 255}});
  CHECK(third_row == std::set<std::array<std::uint8_t, 4>>{{10, 20, 30, 255}});  // past the colours: the panel's
}

TEST_CASE("Overlay draws a Windows-1252 name: the accent over e-acute is ink above the plain e's, inside the panel",
          "[render][gl][overlay]") {
  DERETH_OVERLAY_GL_OR_RETURN();
  auto renderer = plain_renderer();
  auto overlay = render::Overlay::create();
  if (!overlay) FAIL(overlay.error().message());
  const sim::RenderSnapshot empty;
  // The white pixels of one line of text in a panel, and the panel's box.
  const auto draw = [&](const std::string& text) {
    REQUIRE(renderer->render(empty, kCamera, 128, 64).has_value());
    OverlayFrame frame;
    frame.panels.push_back(TextPanel{render::Anchor::TopLeft, {text}, {255, 255, 255, 255}, 0.75F, {}});
    REQUIRE(renderer->bind_framebuffer());
    REQUIRE((*overlay)->draw(frame, 128, 64).has_value());
    const render::Image img = renderer->read_pixels();
    std::vector<std::pair<int, int>> white;
    for (int y = 0; y < img.height; ++y) {
      for (int x = 0; x < img.width; ++x) {
        if (img.at(x, y) == Px{255, 255, 255, 255}) white.emplace_back(x, y);
      }
    }
    return std::pair{white, (*overlay)->last_layout().panels.at(0).box};
  };
  const auto [plain, plain_box] = draw("e");
  const auto [acute, acute_box] = draw("\xC3\xA9");  // U+00E9 in UTF-8, as protocol::sanitize gives a CP1252 0xE9
  const auto [unknown, unknown_box] = draw("\xE6\x97\xA5");  // no CP1252 glyph: a '?'
  REQUIRE_FALSE(plain.empty());
  CHECK(acute_box == plain_box);  // the same advance: the accent takes no room
  int plain_top = 64;
  for (const auto& [x, y] : plain) plain_top = std::min(plain_top, y);
  std::size_t above = 0;
  for (const auto& [x, y] : acute) {
    if (y < plain_top) {
      ++above;
      CHECK(pixel_in(acute_box, x, y));
    }
  }
  CHECK(above >= 8);                            // two 2x2-pixel strokes at scale 2
  CHECK(acute.size() == plain.size() + above);  // the e itself unchanged
  CHECK(unknown != acute);
  CHECK(unknown != plain);
}
