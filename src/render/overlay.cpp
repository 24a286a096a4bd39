// The overlay's GL-free half: text layout (the font's quads), the HUD's
// lines, the chat log and the frame's panel layout; overlay_gl.cpp draws it.
#include "dereth/render/overlay.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "dereth/render/font.hpp"

namespace dereth::render {

namespace {

constexpr std::string_view kClipMarker = "..";

static_assert(sizeof(OverlayVertex) == 12 && std::is_standard_layout_v<OverlayVertex>,
              "OverlayVertex is uploaded as is: two floats and four bytes");

float valid_scale(float scale) noexcept {
  return std::isfinite(scale) && scale > 0.0F ? scale : 1.0F;
}

void grow(Rect& r, float x, float y, bool& first) noexcept {
  if (first) {
    r = Rect{x, y, x, y};
    first = false;
    return;
  }
  r.x0 = std::min(r.x0, x);
  r.y0 = std::min(r.y0, y);
  r.x1 = std::max(r.x1, x);
  r.y1 = std::max(r.y1, y);
}

// Appends the quads of one line of glyphs (font::glyphs) as triangles.
void emit_line(std::string_view glyphs, float row_y, float scale, Rgba8 color, std::vector<OverlayVertex>& out,
               Rect& ink, bool& first_ink) {
  std::vector<font::Quad> quads;
  float pen = 0.0F;
  for (const char g : glyphs) {
    const auto glyph = static_cast<unsigned char>(g);
    font::append_quads(glyph, pen, row_y, quads);
    pen += static_cast<float>(font::advance(glyph));
  }
  for (const font::Quad& q : quads) {
    const OverlayVertex c0{q.x0 * scale, q.y0 * scale, color};
    const OverlayVertex c1{q.x1 * scale, q.y0 * scale, color};
    const OverlayVertex c2{q.x1 * scale, q.y1 * scale, color};
    const OverlayVertex c3{q.x0 * scale, q.y1 * scale, color};
    for (const OverlayVertex& v : {c0, c1, c2, c0, c2, c3}) {
      out.push_back(v);
      grow(ink, v.x, v.y, first_ink);
    }
  }
}

// Cuts a line of glyphs so it fits max_width pixels, ending in the clip
// marker when the marker fits too.
std::string clip_line(std::string_view glyphs, float scale, float max_width) {
  const float marker = static_cast<float>(font::width(kClipMarker)) * scale;
  const bool with_marker = marker <= max_width;
  const float budget = with_marker ? max_width - marker : max_width;
  float width = 0.0F;
  std::size_t keep = 0;
  while (keep < glyphs.size()) {
    const float next = width + static_cast<float>(font::advance(static_cast<unsigned char>(glyphs[keep]))) * scale;
    if (next > budget) break;
    width = next;
    ++keep;
  }
  std::string out(glyphs.substr(0, keep));
  if (with_marker) out += kClipMarker;
  return out;
}

void push_rect(std::vector<OverlayVertex>& out, const Rect& r, Rgba8 color) {
  if (r.width() <= 0.0F || r.height() <= 0.0F || color[3] == 0) return;
  const OverlayVertex a{r.x0, r.y0, color};
  const OverlayVertex b{r.x1, r.y0, color};
  const OverlayVertex c{r.x1, r.y1, color};
  const OverlayVertex d{r.x0, r.y1, color};
  out.insert(out.end(), {a, b, c, a, c, d});
}

std::uint8_t alpha_byte(float alpha) noexcept {
  if (!std::isfinite(alpha) || alpha <= 0.0F) return 0;
  if (alpha >= 1.0F) return 255;
  return static_cast<std::uint8_t>(std::lround(alpha * 255.0F));
}

Rect clip_rect(const Rect& r, float width, float height) noexcept {
  return Rect{std::clamp(r.x0, 0.0F, width), std::clamp(r.y0, 0.0F, height), std::clamp(r.x1, 0.0F, width),
              std::clamp(r.y1, 0.0F, height)};
}

// A bar: its track, then the part `fraction` (clamped to 0..1; non-finite
// counts as 0) fills from the left; both clipped to the framebuffer.
void push_bar(std::vector<OverlayVertex>& out, const Rect& track, float fraction, Rgba8 track_color, Rgba8 fill_color,
              float width, float height) {
  fraction = std::isfinite(fraction) ? std::clamp(fraction, 0.0F, 1.0F) : 0.0F;
  const Rect fill{track.x0, track.y0, track.x0 + std::round(track.width() * fraction), track.y1};
  push_rect(out, clip_rect(track, width, height), track_color);
  push_rect(out, clip_rect(fill, width, height), fill_color);
}

std::string number(double value, int decimals) {
  if (!std::isfinite(value)) return "--";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string count(std::uint64_t value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%" PRIu64, value);
  return buf;
}

}  // namespace

// ---- text ----------------------------------------------------------------------------------------

std::string sanitize_text(std::string_view text) {
  return font::sanitize(text);
}

float text_width(std::string_view text, float scale) {
  return static_cast<float>(font::width(font::glyphs(text))) * valid_scale(scale);
}

TextLayout layout_text(std::span<const std::string> lines, float scale, Rgba8 color, TextLimits limits,
                       std::span<const Rgba8> line_colors) {
  scale = valid_scale(scale);
  TextLayout out;
  std::size_t first = 0;
  if (limits.max_lines != 0 && lines.size() > limits.max_lines) first = lines.size() - limits.max_lines;
  out.dropped = first;
  const bool limit_width = std::isfinite(limits.max_width) && limits.max_width > 0.0F;
  bool first_ink = true;
  float widest = 0.0F;
  for (std::size_t i = first; i < lines.size(); ++i) {
    std::string line = font::glyphs(lines[i]);
    float width = static_cast<float>(font::width(line)) * scale;
    if (limit_width && width > limits.max_width) {
      line = clip_line(line, scale, limits.max_width);
      width = static_cast<float>(font::width(line)) * scale;
      ++out.clipped;
    }
    widest = std::max(widest, width);
    const float row_y = static_cast<float>(out.lines) * kFontLineHeight;
    emit_line(line, row_y, scale, i < line_colors.size() ? line_colors[i] : color, out.vertices, out.ink, first_ink);
    ++out.lines;
  }
  out.box = Rect{0.0F, 0.0F, widest, static_cast<float>(out.lines) * kFontLineHeight * scale};
  return out;
}

// ---- HUD -----------------------------------------------------------------------------------------

std::vector<std::string> format_hud(const HudStats& s) {
  std::vector<std::string> lines;
  lines.push_back("FPS " + number(s.fps, 1) + "  frame " + number(s.frame_ms, 1) + " ms");
  lines.push_back("objects " + count(s.objects) + " (drawn " + count(s.objects_drawn) + ")  particles " +
                  count(s.particles));
  lines.push_back("draws " + count(s.draw_calls) + "  tris " + count(s.triangles));
  if (!s.online) {
    lines.emplace_back("net offline");
    return lines;
  }
  lines.push_back("net in " + count(s.packets_in) + " pkt / " + count(s.messages_in) + " msg  out " +
                  count(s.packets_out) + " pkt / " + count(s.messages_out) + " msg");
  const std::string rtt = s.rtt_ms && std::isfinite(*s.rtt_ms) ? number(*s.rtt_ms, 0) + " ms" : "--";
  lines.push_back("resend " + count(s.resends) + "  nak " + count(s.naks) + "  bad " + count(s.bad_packets) + "  rtt " +
                  rtt);
  return lines;
}

// ---- chat ----------------------------------------------------------------------------------------

std::vector<std::string> wrap_text(std::string_view text, std::size_t columns) {
  columns = std::max<std::size_t>(columns, 1);
  std::vector<std::string> out;
  // Columns count glyphs, not UTF-8 bytes.
  const std::string glyphs = font::glyphs(text);
  const std::string_view g = glyphs;
  if (g.empty()) {
    out.emplace_back();
    return out;
  }
  std::size_t pos = 0;
  while (pos < g.size()) {
    if (g.size() - pos <= columns) {
      out.push_back(font::to_utf8(g.substr(pos)));
      break;
    }
    // A space right after the last column that fits is a break too.
    const std::size_t space = g.rfind(' ', pos + columns);
    if (space != std::string_view::npos && space > pos) {
      out.push_back(font::to_utf8(g.substr(pos, space - pos)));
      pos = space + 1;
    } else {
      out.push_back(font::to_utf8(g.substr(pos, columns)));
      pos += columns;
    }
  }
  return out;
}

std::string format_timestamp(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0.0) return "[--:--:--]";
  constexpr double kMaxSeconds = 99999.0 * 3600.0;
  const auto total = static_cast<std::uint64_t>(std::min(std::floor(seconds), kMaxSeconds));
  char buf[32];
  std::snprintf(buf, sizeof buf, "[%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 "]", total / 3600U, (total / 60U) % 60U,
                total % 60U);
  return buf;
}

ChatLog::ChatLog(std::size_t capacity, std::size_t columns)
    : ring_(std::max<std::size_t>(capacity, 1)), columns_(std::max<std::size_t>(columns, 1)) {}

void ChatLog::push(ChatLine line) {
  if (count_ < ring_.size()) {
    ring_[(start_ + count_) % ring_.size()] = std::move(line);
    ++count_;
    return;
  }
  ring_[start_] = std::move(line);
  start_ = (start_ + 1) % ring_.size();
  ++dropped_;
}

void ChatLog::add(double time, std::string_view text, Rgba8 color) {
  bool first = true;
  std::size_t pos = 0;
  while (true) {
    const std::size_t newline = text.find('\n', pos);
    std::string_view segment =
        text.substr(pos, newline == std::string_view::npos ? std::string_view::npos : newline - pos);
    if (!segment.empty() && segment.back() == '\r') segment.remove_suffix(1);
    for (std::string& piece : wrap_text(sanitize_text(segment), columns_)) {
      push(ChatLine{time, std::move(piece), !first, color});
      first = false;
    }
    if (newline == std::string_view::npos) break;
    pos = newline + 1;
  }
}

void ChatLog::clear() noexcept {
  start_ = 0;
  count_ = 0;
}

const ChatLine& ChatLog::at(std::size_t i) const {
  return ring_[(start_ + i) % ring_.size()];
}

std::vector<std::string> ChatLog::recent(std::size_t max_lines, bool timestamps) const {
  const std::size_t n = std::min(max_lines, count_);
  std::vector<std::string> out;
  out.reserve(n);
  for (std::size_t i = count_ - n; i < count_; ++i) {
    const ChatLine& line = at(i);
    if (!timestamps) {
      out.push_back(line.text);
      continue;
    }
    const std::string stamp = format_timestamp(line.time) + ' ';
    out.push_back((line.continuation ? std::string(stamp.size(), ' ') : stamp) + line.text);
  }
  return out;
}

std::vector<Rgba8> ChatLog::recent_colors(std::size_t max_lines) const {
  const std::size_t n = std::min(max_lines, count_);
  std::vector<Rgba8> out;
  out.reserve(n);
  for (std::size_t i = count_ - n; i < count_; ++i) out.push_back(at(i).color);
  return out;
}

// ---- layout --------------------------------------------------------------------------------------

namespace {

// The radar: its disc in the top-right corner, the lit radar pixels, the
// compass letters turned against the heading, the coordinates under it.
void layout_radar(const RadarPanel& radar, float w, float h, float scale, float margin, float padding,
                  const OverlayOptions& options, OverlayLayout& out) {
  const float px = std::isfinite(options.radar_pixel) && options.radar_pixel > 0.0F ? options.radar_pixel : 1.0F;
  const int side_px = std::clamp(radar.side, 1, 1024);
  const float side = static_cast<float>(side_px) * px;
  const float x0 = std::floor(w - margin - side);
  const float y0 = margin;
  const Rect square{x0, y0, x0 + side, y0 + side};
  out.radar = clip_rect(square, w, h);
  const float cx = x0 + side * 0.5F;
  const float cy = y0 + side * 0.5F;
  const float radius = side * 0.5F;
  // The disc: a fan of thin triangles, and a lighter rim.
  constexpr int kSegments = 48;
  constexpr float kTau = 6.28318530718F;
  const Rgba8 disc{0, 0, 0, alpha_byte(radar.background_alpha)};
  const Rgba8 rim{150, 150, 150, 200};
  const float rim_w = std::max(px, 1.0F);
  for (int i = 0; i < kSegments; ++i) {
    const float a0 = kTau * static_cast<float>(i) / kSegments;
    const float a1 = kTau * static_cast<float>(i + 1) / kSegments;
    const OverlayVertex c{cx, cy, disc};
    const OverlayVertex p0{cx + radius * std::sin(a0), cy - radius * std::cos(a0), disc};
    const OverlayVertex p1{cx + radius * std::sin(a1), cy - radius * std::cos(a1), disc};
    if (disc[3] != 0) out.vertices.insert(out.vertices.end(), {c, p0, p1});
    const float r0 = radius - rim_w;
    const OverlayVertex o0{p0.x, p0.y, rim};
    const OverlayVertex o1{p1.x, p1.y, rim};
    const OverlayVertex i0{cx + r0 * std::sin(a0), cy - r0 * std::cos(a0), rim};
    const OverlayVertex i1{cx + r0 * std::sin(a1), cy - r0 * std::cos(a1), rim};
    out.vertices.insert(out.vertices.end(), {o0, o1, i1, o0, i1, i0});
  }
  // The player at the centre.
  const float mid = std::floor(static_cast<float>(side_px) * 0.5F) * px;
  push_rect(out.vertices, clip_rect(Rect{x0 + mid, y0 + mid, x0 + mid + px, y0 + mid + px}, w, h),
            {255, 255, 255, 255});
  for (const RadarDot& d : radar.dots) {
    if (d.x < 0 || d.y < 0 || d.x >= side_px || d.y >= side_px) continue;
    const float dx = x0 + static_cast<float>(d.x) * px;
    const float dy = y0 + static_cast<float>(d.y) * px;
    push_rect(out.vertices, clip_rect(Rect{dx, dy, dx + px, dy + px}, w, h), d.color);
  }
  // N, E, S and W just inside the rim, where those directions lie from the player.
  const float heading = std::isfinite(radar.heading) ? radar.heading : 0.0F;
  static constexpr std::array<const char*, 4> kLetters{"N", "E", "S", "W"};
  for (std::size_t k = 0; k < kLetters.size(); ++k) {
    const std::string letter[] = {kLetters[k]};
    const Rgba8 colour = k == 0 ? Rgba8{255, 210, 90, 255} : Rgba8{200, 200, 200, 255};
    const TextLayout t = layout_text(letter, scale, colour, TextLimits{});
    const float a = static_cast<float>(k) * kTau * 0.25F - heading;
    const float r = radius - rim_w - 0.5F * std::max(t.box.width(), t.box.height());
    const float tx = std::round(cx + r * std::sin(a) - t.box.width() * 0.5F);
    const float ty = std::round(cy - r * std::cos(a) - t.box.height() * 0.5F);
    out.compass[k] = Rect{tx, ty, tx + t.box.width(), ty + t.box.height()};
    for (OverlayVertex v : t.vertices) {
      v.x += tx;
      v.y += ty;
      out.vertices.push_back(v);
    }
  }
  if (radar.coordinates.empty()) return;
  const std::string line[] = {sanitize_text(radar.coordinates)};
  const TextLayout t = layout_text(line, scale, {255, 255, 255, 255}, TextLimits{side, 1});
  const float bw = t.box.width() + 2.0F * padding;
  const float bx = std::floor(cx - bw * 0.5F);
  const float by = y0 + side + padding;
  const Rect box{bx, by, bx + bw, by + t.box.height() + 2.0F * padding};
  out.coordinates = clip_rect(box, w, h);
  push_rect(out.vertices, *out.coordinates, disc);
  for (OverlayVertex v : t.vertices) {
    v.x += bx + padding;
    v.y += by + padding;
    out.vertices.push_back(v);
  }
}

// The selected object's panel: its name centred at the top, the health bar under it.
void layout_target(const TargetPanel& target, float w, float h, float scale, float margin, float padding,
                   const OverlayOptions& options, OverlayLayout& out) {
  const std::string line[] = {sanitize_text(target.name)};
  const float text_w = std::max(w - 2.0F * margin - 2.0F * padding, 0.001F);
  const TextLayout t = layout_text(line, scale, {255, 230, 90, 255}, TextLimits{text_w, 1});
  float bar_w = 0.0F;
  float bar_h = 0.0F;
  if (target.health) {
    bar_w = std::floor(std::min(std::isfinite(options.target_bar_width) ? options.target_bar_width : 0.0F, text_w));
    bar_w = std::max(bar_w, 0.0F);
    bar_h = std::isfinite(options.target_bar_height) ? std::max(options.target_bar_height, 0.0F) : 0.0F;
  }
  const float gap = target.health && t.lines > 0 ? padding : 0.0F;
  const float box_w = std::max(t.box.width(), bar_w) + 2.0F * padding;
  const float box_h = t.box.height() + gap + bar_h + 2.0F * padding;
  const float x = std::floor((w - box_w) * 0.5F);
  const float y = margin;
  out.target = clip_rect(Rect{x, y, x + box_w, y + box_h}, w, h);
  push_rect(out.vertices, *out.target, {0, 0, 0, alpha_byte(target.background_alpha)});
  const float tx = std::floor(x + (box_w - t.box.width()) * 0.5F);
  for (OverlayVertex v : t.vertices) {
    v.x += tx;
    v.y += y + padding;
    out.vertices.push_back(v);
  }
  if (!target.health) return;
  const float bx = std::floor(x + (box_w - bar_w) * 0.5F);
  const float by = y + padding + t.box.height() + gap;
  const Rect track{bx, by, bx + bar_w, by + bar_h};
  push_bar(out.vertices, track, *target.health, options.progress_track, options.health_color, w, h);
  out.target_bar = track;
}

// Appends a laid-out text block's triangles at (x, y).
void push_text(std::vector<OverlayVertex>& out, const TextLayout& t, float x, float y) {
  for (OverlayVertex v : t.vertices) {
    v.x += x;
    v.y += y;
    out.push_back(v);
  }
}

// A frame `thickness` wide just outside `r`, clipped to the framebuffer.
void push_frame(std::vector<OverlayVertex>& out, const Rect& r, float thickness, Rgba8 color, float w, float h) {
  const float t = thickness;
  push_rect(out, clip_rect(Rect{r.x0 - t, r.y0 - t, r.x1 + t, r.y0}, w, h), color);
  push_rect(out, clip_rect(Rect{r.x0 - t, r.y1, r.x1 + t, r.y1 + t}, w, h), color);
  push_rect(out, clip_rect(Rect{r.x0 - t, r.y0, r.x0, r.y1}, w, h), color);
  push_rect(out, clip_rect(Rect{r.x1, r.y0, r.x1 + t, r.y1}, w, h), color);
}

float bar_width(float wanted, float room) noexcept {
  const float width = std::floor(std::min(std::isfinite(wanted) ? wanted : 0.0F, room));
  return std::max(width, 0.0F);
}

// The vitals in the top-left corner: three bars, each a line high with its
// label centred on it. Returns the box's bottom edge.
float layout_vitals(const VitalsPanel& vitals, float w, float h, float scale, float margin, float padding,
                    const OverlayOptions& options, OverlayLayout& out) {
  const float line_h = kFontLineHeight * scale;
  const float bar_w = bar_width(options.vital_bar_width, std::max(w - 2.0F * margin - 2.0F * padding, 0.0F));
  const float box_w = bar_w + 2.0F * padding;
  const float box_h = 3.0F * line_h + 4.0F * padding;
  const Rect box{margin, margin, margin + box_w, margin + box_h};
  out.vitals = clip_rect(box, w, h);
  push_rect(out.vertices, *out.vitals, {0, 0, 0, alpha_byte(vitals.background_alpha)});
  for (std::size_t i = 0; i < vitals.bars.size(); ++i) {
    const VitalBar& bar = vitals.bars[i];
    const float y = margin + padding + static_cast<float>(i) * (line_h + padding);
    const Rect track{margin + padding, y, margin + padding + bar_w, y + line_h};
    float fraction = 1.0F;
    if (bar.max) {
      fraction = *bar.max == 0 ? 0.0F : static_cast<float>(static_cast<double>(bar.current) / *bar.max);
    }
    push_bar(out.vertices, track, fraction, options.progress_track, options.vital_colors[i], w, h);
    out.vital_bars[i] = track;
    const std::string label[] = {format_vital(bar)};
    const TextLayout t = layout_text(label, scale, {255, 255, 255, 255}, TextLimits{std::max(bar_w, 0.001F), 1});
    const float tx = std::floor(track.x0 + (bar_w - t.box.width()) * 0.5F);
    out.vital_labels[i] = Rect{tx, y, tx + t.box.width(), y + t.box.height()};
    push_text(out.vertices, t, tx, y);
  }
  return box.y1;
}

// The combat panel at the bottom centre (the mode's name, then the power
// bar), the spell bar above it (the tab, then each spell in its own box).
// Returns the top edge of what was placed (the bottom margin's edge when
// nothing was).
float layout_bottom_centre(const std::optional<CombatPanel>& combat, const std::optional<SpellBarPanel>& spells,
                           float w, float h, float scale, float margin, float padding, const OverlayOptions& options,
                           OverlayLayout& out) {
  const float line_h = kFontLineHeight * scale;
  const float room = std::max(w - 2.0F * margin - 2.0F * padding, 0.001F);
  float bottom = h - margin;
  if (combat) {
    const std::string line[] = {combat->mode};
    const TextLayout t = layout_text(line, scale, {255, 255, 255, 255}, TextLimits{room, 1});
    const float bar_w = combat->power ? bar_width(options.power_bar_width, room - t.box.width() - padding) : 0.0F;
    const float gap = combat->power && t.box.width() > 0.0F ? 2.0F * padding : 0.0F;
    const float box_w = t.box.width() + gap + bar_w + 2.0F * padding;
    const float box_h = line_h + 2.0F * padding;
    const float x = std::floor((w - box_w) * 0.5F);
    const float y = std::floor(bottom - box_h);
    out.combat = clip_rect(Rect{x, y, x + box_w, y + box_h}, w, h);
    push_rect(out.vertices, *out.combat, {0, 0, 0, alpha_byte(combat->background_alpha)});
    push_text(out.vertices, t, x + padding, y + padding);
    if (combat->power) {
      const float bx = x + padding + t.box.width() + gap;
      const float bar_h = std::floor(line_h * 0.5F);
      const float by = y + padding + std::floor((line_h - bar_h) * 0.5F);
      const Rect track{bx, by, bx + bar_w, by + bar_h};
      push_bar(out.vertices, track, *combat->power, options.progress_track, options.power_color, w, h);
      out.power_bar = track;
    }
    bottom = y - margin;
  }
  if (spells) {
    const std::string tab[] = {"Tab " + std::to_string(std::clamp(spells->tab, 0, 98) + 1)};
    const TextLayout tab_text = layout_text(tab, scale, {200, 200, 200, 255}, TextLimits{room, 1});
    std::vector<TextLayout> names;
    float content_w = tab_text.box.width();
    for (const std::string& name : spells->spells) {
      const std::string line[] = {name};
      names.push_back(layout_text(line, scale, {255, 255, 255, 255}, TextLimits{room, 1}));
      content_w += 3.0F * padding + names.back().box.width();
    }
    const float box_w = content_w + 2.0F * padding;
    const float box_h = line_h + 4.0F * padding;
    const float x = std::floor((w - box_w) * 0.5F);
    const float y = std::floor(bottom - box_h);
    out.spell_bar = clip_rect(Rect{x, y, x + box_w, y + box_h}, w, h);
    push_rect(out.vertices, *out.spell_bar, {0, 0, 0, alpha_byte(spells->background_alpha)});
    push_text(out.vertices, tab_text, x + padding, y + 2.0F * padding);
    float sx = x + padding + tab_text.box.width() + 2.0F * padding;
    const Rgba8 slot_color{255, 255, 255, 40};
    for (std::size_t i = 0; i < names.size(); ++i) {
      const Rect slot{sx, y + padding, sx + names[i].box.width() + padding, y + padding + line_h + 2.0F * padding};
      push_rect(out.vertices, clip_rect(slot, w, h), slot_color);
      push_text(out.vertices, names[i], std::floor(sx + padding * 0.5F), y + 2.0F * padding);
      out.spell_slots.push_back(slot);
      if (spells->selected == i) {
        const float thickness = std::max(std::floor(scale), 1.0F);
        push_frame(out.vertices, slot, thickness, options.spell_frame_color, w, h);
        out.spell_frame = Rect{slot.x0 - thickness, slot.y0 - thickness, slot.x1 + thickness, slot.y1 + thickness};
      }
      sx = slot.x1 + 2.0F * padding;
    }
    bottom = y - margin;
  }
  return bottom + margin;
}

}  // namespace

std::string format_vital(const VitalBar& bar) {
  return bar.max ? std::to_string(bar.current) + "/" + std::to_string(*bar.max) : std::to_string(bar.current);
}

OverlayLayout layout_overlay(const OverlayFrame& frame, int width, int height, const OverlayOptions& options) {
  OverlayLayout out;
  if (width <= 0 || height <= 0) return out;
  const float w = static_cast<float>(width);
  const float h = static_cast<float>(height);
  const float scale = valid_scale(options.scale);
  const float margin = std::isfinite(options.margin) ? std::max(options.margin, 0.0F) : 0.0F;
  const float padding = std::isfinite(options.padding) ? std::max(options.padding, 0.0F) : 0.0F;
  const float line_h = kFontLineHeight * scale;

  float panel_w = w - 2.0F * margin;
  if (std::isfinite(options.max_panel_width) && options.max_panel_width > 0.0F) {
    panel_w = std::min(panel_w, options.max_panel_width);
  }
  // Text never wider than the box allows (a tiny positive limit clips all).
  const float text_w = std::max(panel_w - 2.0F * padding, 0.001F);
  const float rows = std::floor((h - 2.0F * margin - 2.0F * padding) / line_h);
  const std::size_t rows_fit = rows > 0.0F ? static_cast<std::size_t>(rows) : 0;
  std::size_t max_lines = rows_fit;
  if (options.max_panel_lines != 0) max_lines = std::min(max_lines, options.max_panel_lines);

  struct Item {
    std::size_t panel = 0;  // index into frame.panels; SIZE_MAX: the progress bar
    TextLayout text;
    float box_w = 0.0F;
    float box_h = 0.0F;
    Rgba8 box_color{0, 0, 0, 0};
  };
  const auto lay_text = [&](std::span<const std::string> lines, Rgba8 color, std::span<const Rgba8> colors = {}) {
    if (max_lines == 0) return TextLayout{};
    return layout_text(lines, scale, color, TextLimits{text_w, max_lines}, colors);
  };

  std::vector<Item> items;
  items.reserve(frame.panels.size() + 1);
  for (std::size_t i = 0; i < frame.panels.size(); ++i) {
    const TextPanel& panel = frame.panels[i];
    Item item;
    item.panel = i;
    item.text = lay_text(panel.lines, panel.color, panel.line_colors);
    item.text.dropped = panel.lines.size() - item.text.lines;
    if (item.text.lines > 0) {
      item.box_w = item.text.box.width() + 2.0F * padding;
      item.box_h = item.text.box.height() + 2.0F * padding;
    }
    item.box_color = {0, 0, 0, alpha_byte(panel.background_alpha)};
    items.push_back(std::move(item));
  }

  // The progress bar: an optional label line over the track.
  constexpr std::size_t kProgress = static_cast<std::size_t>(-1);
  float bar_w = 0.0F;
  float bar_h = 0.0F;
  if (frame.progress) {
    const ProgressBar& bar = *frame.progress;
    Item item;
    item.panel = kProgress;
    if (!bar.label.empty()) {
      const std::string label[] = {bar.label};
      item.text = lay_text(label, {255, 255, 255, 255});
    }
    bar_w = std::floor(std::min(std::isfinite(options.progress_width) ? options.progress_width : 0.0F, text_w));
    bar_w = std::max(bar_w, 0.0F);
    bar_h = std::isfinite(options.progress_height) ? std::max(options.progress_height, 0.0F) : 0.0F;
    const float gap = item.text.lines > 0 ? padding : 0.0F;
    item.box_w = std::max(item.text.box.width(), bar_w) + 2.0F * padding;
    item.box_h = item.text.box.height() + gap + bar_h + 2.0F * padding;
    item.box_color = {0, 0, 0, alpha_byte(bar.background_alpha)};
    items.push_back(std::move(item));
  }

  // Box origins per anchor, whole pixels so scaled glyph edges stay on pixels.
  // The top-left stack starts under the vitals, the bottom-left one above
  // the combat panel and the spell bar.
  std::vector<std::pair<float, float>> origin(items.size(), {0.0F, 0.0F});
  float top = margin;
  float bottom = h - margin;
  if (frame.vitals) top = layout_vitals(*frame.vitals, w, h, scale, margin, padding, options, out) + margin;
  if (frame.combat || frame.spell_bar) {
    bottom = layout_bottom_centre(frame.combat, frame.spell_bar, w, h, scale, margin, padding, options, out) - margin;
  }
  float centre_total = 0.0F;
  std::size_t centre_count = 0;
  float left_total = 0.0F;
  std::size_t left_count = 0;
  const auto anchor_of = [&](const Item& item) {
    return item.panel == kProgress ? Anchor::Centre : frame.panels[item.panel].anchor;
  };
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Item& item = items[i];
    if (item.box_h <= 0.0F) continue;
    switch (anchor_of(item)) {
      case Anchor::TopLeft:
        origin[i] = {margin, std::floor(top)};
        top += item.box_h + margin;
        break;
      case Anchor::BottomLeft:
        origin[i] = {margin, std::floor(bottom - item.box_h)};
        bottom -= item.box_h + margin;
        break;
      case Anchor::Centre:
        centre_total += item.box_h;
        ++centre_count;
        break;
      case Anchor::CentreLeft:
        left_total += item.box_h;
        ++left_count;
        break;
    }
  }
  if (left_count > 0) {
    left_total += margin * static_cast<float>(left_count - 1);
    float y = std::floor((h - left_total) * 0.5F);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& item = items[i];
      if (item.box_h <= 0.0F || anchor_of(item) != Anchor::CentreLeft) continue;
      origin[i] = {margin, y};
      y += item.box_h + margin;
    }
  }
  if (centre_count > 0) {
    centre_total += margin * static_cast<float>(centre_count - 1);
    float y = std::floor((h - centre_total) * 0.5F);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const Item& item = items[i];
      if (item.box_h <= 0.0F || anchor_of(item) != Anchor::Centre) continue;
      origin[i] = {std::floor((w - item.box_w) * 0.5F), y};
      y += item.box_h + margin;
    }
  }

  out.panels.resize(frame.panels.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    Item& item = items[i];
    const auto [x, y] = origin[i];
    PanelPlacement placement;
    placement.lines = item.text.lines;
    placement.clipped = item.text.clipped;
    placement.dropped = item.text.dropped;
    if (item.box_h > 0.0F) {
      const Rect box{x, y, x + item.box_w, y + item.box_h};
      placement.box = clip_rect(box, w, h);
      placement.text =
          Rect{x + padding, y + padding, x + padding + item.text.box.width(), y + padding + item.text.box.height()};
      push_rect(out.vertices, placement.box, item.box_color);
      for (OverlayVertex v : item.text.vertices) {
        v.x += x + padding;
        v.y += y + padding;
        out.vertices.push_back(v);
      }
    }
    if (item.panel != kProgress) {
      out.panels[item.panel] = placement;
      continue;
    }
    if (item.box_h > 0.0F) {
      const float gap = item.text.lines > 0 ? padding : 0.0F;
      const float bx = std::floor(x + (item.box_w - bar_w) * 0.5F);
      const float by = y + padding + item.text.box.height() + gap;
      const Rect track{bx, by, bx + bar_w, by + bar_h};
      push_bar(out.vertices, track, frame.progress->fraction, options.progress_track, options.progress_color, w, h);
      out.bar = track;
    }
    out.progress = placement;
  }
  if (frame.radar) layout_radar(*frame.radar, w, h, scale, margin, padding, options, out);
  if (frame.target) layout_target(*frame.target, w, h, scale, margin, padding, options, out);
  return out;
}

}  // namespace dereth::render
