// The overlay's font (include/dereth/render/font.hpp): every Windows-1252
// character draws, accented letters as their base with a mark.

#include "dereth/render/font.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

using namespace dereth::render;

namespace {

std::vector<font::Quad> quads(unsigned char glyph) {
  std::vector<font::Quad> out;
  font::append_quads(glyph, 0.0F, 0.0F, out);
  return out;
}

// The quads as a comparable key.
std::vector<float> key(const std::vector<font::Quad>& q) {
  std::vector<float> k;
  for (const auto& r : q) k.insert(k.end(), {r.x0, r.y0, r.x1, r.y1});
  return k;
}

}  // namespace

TEST_CASE("font: every defined Windows-1252 character but the spaces draws ink with an advance, the undefined none",
          "[render][font]") {
  for (unsigned b = 0x21; b <= 0xFF; ++b) {
    const auto g = static_cast<unsigned char>(b);
    INFO("glyph 0x" << std::hex << b);
    const bool undefined = b == 0x7F || b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D;
    if (undefined) {
      CHECK(font::advance(g) == 0);
      CHECK(quads(g).empty());
      continue;
    }
    CHECK(font::advance(g) > 0);
    if (b != 0xA0) CHECK_FALSE(quads(g).empty());  // the no-break space is blank
  }
  CHECK(font::advance(' ') == font::advance(0xA0));
}

TEST_CASE("font: each accented letter is its base letter with a mark, and no two letters of 0xC0-0xFF draw alike",
          "[render][font]") {
  const std::string bases = "AAAAAA CEEEEIIIIDNOOOOO OUUUUY  aaaaaa ceeee    dnooooo ouuuuy y";
  std::set<std::vector<float>> seen;
  for (unsigned b = 0xC0; b <= 0xFF; ++b) {
    const auto g = static_cast<unsigned char>(b);
    INFO("glyph 0x" << std::hex << b);
    const auto q = quads(g);
    CHECK(seen.insert(key(q)).second);
    const char base = bases[b - 0xC0];
    if (base == ' ') continue;
    const auto plain = quads(static_cast<unsigned char>(base));
    CHECK(font::advance(g) == font::advance(static_cast<unsigned char>(base)));
    // The base's own strokes first, then the mark's.
    REQUIRE(q.size() > plain.size());
    CHECK(std::vector<font::Quad>(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(plain.size())) == plain);
  }
  // A capital's accent sits above the cell, a small letter's inside it.
  float capital_top = 0.0F;
  for (const auto& r : quads(0xC9)) capital_top = std::min(capital_top, r.y0);  // E acute
  CHECK(capital_top == -2.0F);
  float small_top = 10.0F;
  for (const auto& r : quads(0xE9)) small_top = std::min(small_top, r.y0);  // e acute
  CHECK(small_top == 0.0F);
  // The dotless i takes the accent: i acute has no dot under its mark.
  for (const auto& r : quads(0xED)) CHECK_FALSE((r.y0 == 1.0F && r.y1 == 2.0F && r.x0 == 0.0F && r.x1 == 1.0F));
}

TEST_CASE("font: glyphs gives one CP1252 byte a character, to_utf8 turns them back, sanitize is idempotent",
          "[render][font]") {
  const std::string text = "Ald\xC3\xA9rnae \xE2\x82\xAC\xE2\x80\xA6 \xC5\xB8";  // Aldérnae €… Ÿ
  const std::string g = font::glyphs(text);
  CHECK(g == std::string("Ald\xE9rnae \x80\x85 \x9F"));
  CHECK(font::to_utf8(g) == text);
  CHECK(font::sanitize(text) == text);
  const std::string hostile = "a\xF0\x9F\x98\x80\xC2\x81\x80\xFF\xED\xA0\x80z";
  CHECK(font::sanitize(font::sanitize(hostile)) == font::sanitize(hostile));
  CHECK(font::glyphs(hostile).size() == font::sanitize(hostile).size());  // only ASCII '?' stand-ins here
  CHECK(font::width(g) == font::width(font::glyphs(font::sanitize(text))));
}
