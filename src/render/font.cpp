#include "dereth/render/font.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <span>

#include <stb_easy_font.h>

#include "dereth/core/cp1252.hpp"

namespace dereth::render::font {

namespace {

// The CP1252 byte of a code point; 0 where the font has no glyph for it
// (controls, and what the code page lacks).
unsigned char to_cp1252(char32_t c) noexcept {
  if (c == '\t' || c == '\n' || c == '\r') return ' ';
  if (c < 32 || c == 0x7F) return 0;
  return core::cp1252::from_unicode(c).value_or(0);
}

using core::cp1252::append_utf8;
using core::cp1252::to_unicode;

// Calls f(cp1252 byte) for each character of `utf8`, 0 for one the font
// cannot draw (a malformed sequence is one character with its continuation
// bytes, as far as they go).
template <class F>
void for_each_char(std::string_view utf8, F&& f) {
  std::size_t i = 0;
  while (i < utf8.size()) {
    const auto lead = static_cast<unsigned char>(utf8[i]);
    if (lead < 0x80) {
      f(to_cp1252(lead));
      ++i;
      continue;
    }
    std::size_t follow = 0;
    char32_t c = 0;
    if (lead >= 0xC2 && lead <= 0xDF) {
      follow = 1;
      c = lead & 0x1FU;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      follow = 2;
      c = lead & 0x0FU;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      follow = 3;
      c = lead & 0x07U;
    } else if (lead >= 0xC0) {
      follow = lead >= 0xF0 ? 3 : 1;  // an overlong or out-of-range lead: one '?' with its continuation bytes
      c = 0x110000;
    }
    std::size_t j = i + 1;
    while (j < utf8.size() && j - i <= follow && (static_cast<unsigned char>(utf8[j]) & 0xC0U) == 0x80U) {
      c = (c << 6) | (static_cast<unsigned char>(utf8[j]) & 0x3FU);
      ++j;
    }
    const bool complete = follow != 0 && j - i == follow + 1;
    f(complete ? to_cp1252(c) : static_cast<unsigned char>(0));
    i = j;
  }
}

// ---- the glyphs past ASCII -----------------------------------------------------------------------

enum class Mark : std::uint8_t {
  None,
  Grave,
  Acute,
  Circumflex,
  Tilde,
  Diaeresis,
  Ring,
  Caron,
  Cedilla,
  Stroke,
  Macron,
  Bar,       // Ð: a bar across the stem
  EthBar,    // ð: a bar across the ascender
  CentBar,   // ¢: the stem through the c
  Pound,     // £: a bar across the L
  Yen,       // ¥: a bar under the Y's fork
  Euro,      // €: two bars through the C
  Dot,       // ·: a middle dot
  Bullet,    // •: a larger middle dot
  Under,     // ±, ‡: a bar under the glyph
  Division,  // ÷: dots over and under the minus
};

// A character past ASCII: the ASCII glyphs drawn in turn ('\x01' is a
// dotless i; none: an empty cell) and one mark over the first.
struct Composite {
  const char* bases;
  Mark mark;
};

constexpr char kDotlessI = '\x01';

// 0x80..0xFF; {nullptr}: undefined in CP1252.
constexpr std::array<Composite, 128> kComposites = {{
    {"C", Mark::Euro},
    {nullptr, Mark::None},
    {",", Mark::None},
    {"f", Mark::None},
    {",,", Mark::None},
    {"...", Mark::None},
    {"+", Mark::None},
    {"+", Mark::Under},
    {"", Mark::Circumflex},
    {"%o", Mark::None},
    {"S", Mark::Caron},
    {"<", Mark::None},
    {"OE", Mark::None},
    {nullptr, Mark::None},
    {"Z", Mark::Caron},
    {nullptr, Mark::None},
    {nullptr, Mark::None},
    {"`", Mark::None},
    {"'", Mark::None},
    {"\"", Mark::None},
    {"\"", Mark::None},
    {"", Mark::Bullet},
    {"-", Mark::None},
    {"--", Mark::None},
    {"", Mark::Tilde},
    {"TM", Mark::None},
    {"s", Mark::Caron},
    {">", Mark::None},
    {"oe", Mark::None},
    {nullptr, Mark::None},
    {"z", Mark::Caron},
    {"Y", Mark::Diaeresis},
    // 0xA0
    {" ", Mark::None},
    {"!", Mark::None},
    {"c", Mark::CentBar},
    {"L", Mark::Pound},
    {"o", Mark::None},
    {"Y", Mark::Yen},
    {"|", Mark::None},
    {"S", Mark::None},
    {"", Mark::Diaeresis},
    {"(c)", Mark::None},
    {"a", Mark::None},
    {"<<", Mark::None},
    {"-", Mark::None},
    {"-", Mark::None},
    {"(R)", Mark::None},
    {"", Mark::Macron},
    {"", Mark::Ring},
    {"+", Mark::Under},
    {"2", Mark::None},
    {"3", Mark::None},
    {"", Mark::Acute},
    {"u", Mark::None},
    {"P", Mark::None},
    {"", Mark::Dot},
    {"", Mark::Cedilla},
    {"1", Mark::None},
    {"o", Mark::None},
    {">>", Mark::None},
    {"1/4", Mark::None},
    {"1/2", Mark::None},
    {"3/4", Mark::None},
    {"?", Mark::None},
    // 0xC0
    {"A", Mark::Grave},
    {"A", Mark::Acute},
    {"A", Mark::Circumflex},
    {"A", Mark::Tilde},
    {"A", Mark::Diaeresis},
    {"A", Mark::Ring},
    {"AE", Mark::None},
    {"C", Mark::Cedilla},
    {"E", Mark::Grave},
    {"E", Mark::Acute},
    {"E", Mark::Circumflex},
    {"E", Mark::Diaeresis},
    {"I", Mark::Grave},
    {"I", Mark::Acute},
    {"I", Mark::Circumflex},
    {"I", Mark::Diaeresis},
    {"D", Mark::Bar},
    {"N", Mark::Tilde},
    {"O", Mark::Grave},
    {"O", Mark::Acute},
    {"O", Mark::Circumflex},
    {"O", Mark::Tilde},
    {"O", Mark::Diaeresis},
    {"x", Mark::None},
    {"O", Mark::Stroke},
    {"U", Mark::Grave},
    {"U", Mark::Acute},
    {"U", Mark::Circumflex},
    {"U", Mark::Diaeresis},
    {"Y", Mark::Acute},
    {"P", Mark::None},
    {"B", Mark::None},
    // 0xE0
    {"a", Mark::Grave},
    {"a", Mark::Acute},
    {"a", Mark::Circumflex},
    {"a", Mark::Tilde},
    {"a", Mark::Diaeresis},
    {"a", Mark::Ring},
    {"ae", Mark::None},
    {"c", Mark::Cedilla},
    {"e", Mark::Grave},
    {"e", Mark::Acute},
    {"e", Mark::Circumflex},
    {"e", Mark::Diaeresis},
    {"\x01", Mark::Grave},
    {"\x01", Mark::Acute},
    {"\x01", Mark::Circumflex},
    {"\x01", Mark::Diaeresis},
    {"d", Mark::EthBar},
    {"n", Mark::Tilde},
    {"o", Mark::Grave},
    {"o", Mark::Acute},
    {"o", Mark::Circumflex},
    {"o", Mark::Tilde},
    {"o", Mark::Diaeresis},
    {"-", Mark::Division},
    {"o", Mark::Stroke},
    {"u", Mark::Grave},
    {"u", Mark::Acute},
    {"u", Mark::Circumflex},
    {"u", Mark::Diaeresis},
    {"y", Mark::Acute},
    {"p", Mark::None},
    {"y", Mark::Diaeresis},
}};

const Composite* composite(unsigned char glyph) noexcept {
  if (glyph < 0x80) return nullptr;
  const Composite& c = kComposites[glyph - 0x80U];
  return c.bases != nullptr ? &c : nullptr;
}

int ascii_advance(char c) noexcept {
  if (c == kDotlessI) c = 'i';
  const auto index = static_cast<std::size_t>(static_cast<unsigned char>(c)) - 32U;
  if (index >= 95U) return 0;
  return stb_easy_font_charinfo[index].advance & 15;
}

constexpr int kEmptyCellAdvance = 6;  // a lone mark's cell: a lower-case letter's

// stb_easy_font's quads for one printable ASCII character.
void append_ascii(char c, float x, float y, std::vector<Quad>& out) {
  if (c == kDotlessI) {
    out.push_back({x, y + 3.0F, x + 1.0F, y + 7.0F});  // 'i' without its dot
    return;
  }
  constexpr std::size_t kBytesPerQuad = 64;  // four vertices of x, y, z floats and 4 colour bytes
  std::array<char, kBytesPerQuad * 16> buffer{};
  char text[2] = {c, '\0'};
  const int quads = stb_easy_font_print(x, y, text, nullptr, buffer.data(), static_cast<int>(buffer.size()));
  for (std::size_t q = 0; q < static_cast<std::size_t>(std::max(quads, 0)); ++q) {
    float c0[2];
    float c2[2];
    std::memcpy(c0, buffer.data() + q * kBytesPerQuad, sizeof c0);
    std::memcpy(c2, buffer.data() + q * kBytesPerQuad + 32U, sizeof c2);
    out.push_back({c0[0], c0[1], c2[0], c2[1]});
  }
}

// A mark's rectangles on a four-unit-wide cell whose top row is `top` (two
// rows tall: 0 over a lower-case letter, -2 over a capital); `body` is the
// cell's x-height top (2 lower case, 0 capitals) for the marks drawn through the letter.
void append_mark(Mark mark, float x, float y, float top, float body, std::vector<Quad>& out) {
  const auto r = [&](float x0, float y0, float x1, float y1) { out.push_back({x + x0, y + y0, x + x1, y + y1}); };
  const float t = top;
  switch (mark) {
    case Mark::None: return;
    case Mark::Grave:
      r(1, t, 2, t + 1);
      r(2, t + 1, 3, t + 2);
      return;
    case Mark::Acute:
      r(2, t, 3, t + 1);
      r(1, t + 1, 2, t + 2);
      return;
    case Mark::Circumflex:
      r(1, t, 3, t + 1);
      r(0, t + 1, 1, t + 2);
      r(3, t + 1, 4, t + 2);
      return;
    case Mark::Tilde:
      r(0, t + 1, 1, t + 2);
      r(1, t, 2, t + 1);
      r(2, t + 1, 3, t + 2);
      r(3, t, 4, t + 1);
      return;
    case Mark::Diaeresis:
      r(0, t + 1, 1, t + 2);
      r(3, t + 1, 4, t + 2);
      return;
    case Mark::Ring: r(1, t, 3, t + 2); return;
    case Mark::Caron:
      r(0, t, 1, t + 1);
      r(3, t, 4, t + 1);
      r(1, t + 1, 3, t + 2);
      return;
    case Mark::Macron: r(0, t + 1, 4, t + 2); return;
    case Mark::Cedilla:
      r(2, 7, 3, 8);
      r(1, 8, 2, 9);
      return;
    case Mark::Stroke:
      r(0, 6, 1, 7);
      r(1, 5, 2, 6);
      r(2, body + 2, 3, 5);
      r(3, body + 1, 4, body + 2);
      return;
    case Mark::Bar: r(-1, 3, 2, 4); return;
    case Mark::EthBar: r(2, 1, 5, 2); return;
    case Mark::CentBar:
      r(2, 1, 3, 2);
      r(2, 7, 3, 8);
      return;
    case Mark::Pound: r(-1, 3, 3, 4); return;
    case Mark::Yen: r(0, 4, 5, 5); return;
    case Mark::Euro:
      r(-1, 3, 3, 4);
      r(-1, 5, 3, 6);
      return;
    case Mark::Dot: r(1.5F, 4, 2.5F, 5); return;
    case Mark::Bullet: r(1, 3, 3, 5); return;
    case Mark::Under: r(0, 8, 4, 9); return;
    case Mark::Division:
      r(1.5F, 1, 2.5F, 2);
      r(1.5F, 6, 2.5F, 7);
      return;
  }
}

}  // namespace

std::string sanitize(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  for_each_char(utf8, [&](unsigned char b) { append_utf8(out, b != 0 ? to_unicode(b) : U'?'); });
  return out;
}

std::string glyphs(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  for_each_char(utf8, [&](unsigned char b) { out += static_cast<char>(b != 0 ? b : '?'); });
  return out;
}

std::string to_utf8(std::string_view glyph_text) {
  std::string out;
  out.reserve(glyph_text.size());
  for (const char g : glyph_text) {
    const auto b = static_cast<unsigned char>(g);
    append_utf8(out, advance(b) != 0 ? to_unicode(b) : U'?');
  }
  return out;
}

int advance(unsigned char glyph) noexcept {
  if (glyph < 0x80) return ascii_advance(static_cast<char>(glyph));
  const Composite* c = composite(glyph);
  if (c == nullptr) return 0;
  if (*c->bases == '\0') return kEmptyCellAdvance;
  int sum = 0;
  for (const char* p = c->bases; *p != '\0'; ++p) sum += ascii_advance(*p);
  return sum;
}

int width(std::string_view glyph_text) noexcept {
  int sum = 0;
  for (const char g : glyph_text) sum += advance(static_cast<unsigned char>(g));
  return sum;
}

void append_quads(unsigned char glyph, float x, float y, std::vector<Quad>& out) {
  if (glyph < 0x80) {
    if (glyph >= 32 && glyph <= 126) append_ascii(static_cast<char>(glyph), x, y, out);
    return;
  }
  const Composite* c = composite(glyph);
  if (c == nullptr) return;
  // The mark sits centred over the first base's ink.
  const std::size_t first = out.size();
  float pen = x;
  for (const char* p = c->bases; *p != '\0'; ++p) {
    append_ascii(*p, pen, y, out);
    pen += static_cast<float>(ascii_advance(*p));
    if (p == c->bases) {
      float ink = 4.0F;  // an empty cell's
      if (out.size() > first) {
        ink = 0.0F;
        for (std::size_t i = first; i < out.size(); ++i) ink = std::max(ink, out[i].x1 - x);
      }
      const char base = *p;
      const bool lower = (base >= 'a' && base <= 'z') || base == kDotlessI;
      const float dx = (ink - 4.0F) / 2.0F;
      append_mark(c->mark, x + dx, y, lower ? 0.0F : -2.0F, lower ? 2.0F : 0.0F, out);
    }
  }
  if (*c->bases == '\0') append_mark(c->mark, x, y, 0.0F, 2.0F, out);
}

}  // namespace dereth::render::font
