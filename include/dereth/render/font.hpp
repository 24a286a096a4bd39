#pragma once
// The overlay's font: stb_easy_font's printable ASCII, and the rest of
// Windows-1252 (the code page AC's servers write names and chat in) built
// from those glyphs with their marks drawn as small rectangles: accents,
// cedilla, caron, stroke. Text is UTF-8 everywhere; a glyph is one CP1252
// byte only inside the layout (font::glyphs).

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace dereth::render::font {

// One axis-aligned rectangle of a glyph, in font units (pixels at scale 1).
struct Quad {
  float x0 = 0.0F;
  float y0 = 0.0F;
  float x1 = 0.0F;
  float y1 = 0.0F;
  bool operator==(const Quad&) const = default;
};

// UTF-8 as the font can draw it, still UTF-8: printable ASCII and the
// characters Windows-1252 has are kept; tabs, CR and LF become spaces; any
// other character, control or malformed byte becomes one '?' (a sequence's
// continuation bytes go with it). sanitize(sanitize(s)) == sanitize(s).
[[nodiscard]] std::string sanitize(std::string_view utf8);
// The glyphs of `utf8`, one CP1252 byte each ('?' for what sanitize replaces).
[[nodiscard]] std::string glyphs(std::string_view utf8);
// Glyph bytes back to UTF-8.
[[nodiscard]] std::string to_utf8(std::string_view glyphs);
// A glyph's advance in font units (0 for the bytes CP1252 leaves undefined
// and for controls: glyphs() never gives them).
[[nodiscard]] int advance(unsigned char glyph) noexcept;
// The sum of the advances of `glyph_text` (one byte a glyph).
[[nodiscard]] int width(std::string_view glyph_text) noexcept;
// Appends the rectangles of `glyph` drawn with its pen at (x, y).
void append_quads(unsigned char glyph, float x, float y, std::vector<Quad>& out);

}  // namespace dereth::render::font
