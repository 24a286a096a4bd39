#include <catch2/catch.hpp>

#include <map>

#include "dereth/dat/palette.hpp"

using namespace dereth::dat;

namespace {

// A palette of `count` colours, colour i = `tag` << 24 | i.
Palette numbered(Did id, std::uint32_t tag, std::uint32_t count) {
  Palette p;
  p.id = id;
  for (std::uint32_t i = 0; i < count; ++i) p.colors.push_back((tag << 24) | i);
  return p;
}

struct Palettes {
  std::map<Did, Palette> by_id;
  void add(Palette p) { by_id[p.id] = std::move(p); }
  [[nodiscard]] PaletteLookup lookup() const {
    return [this](Did id) -> const Palette* {
      const auto it = by_id.find(id);
      return it == by_id.end() ? nullptr : &it->second;
    };
  }
};

constexpr Did kBase = 0x0400007E;
constexpr Did kSkin = 0x04000100;
constexpr Did kHair = 0x04000200;
constexpr Did kEyes = 0x04000300;

Palettes character_palettes() {
  Palettes p;
  p.add(numbered(kBase, 0x01, 2048));
  p.add(numbered(kSkin, 0x02, 2048));
  p.add(numbered(kHair, 0x03, 2048));
  p.add(numbered(kEyes, 0x04, 2048));
  return p;
}

}  // namespace

TEST_CASE("Subpalette::UnPack 0x005ADAB0: wire units of 8 colours, a count of 0 is 256", "[dat][palette][retail]") {
  CHECK(unpack_subpalette(kSkin, 0, 24) == Subpalette{kSkin, 0, 192});
  CHECK(unpack_subpalette(kHair, 24, 8) == Subpalette{kHair, 192, 64});
  CHECK(unpack_subpalette(kEyes, 255, 1) == Subpalette{kEyes, 2040, 8});
  CHECK(unpack_subpalette(kBase, 0, 0) == Subpalette{kBase, 0, 2048});
}

TEST_CASE("Palette::makeModifiedPalette 0x0053E3C0: the base, then each subpalette's range from the same indices",
          "[dat][palette][retail]") {
  const Palettes p = character_palettes();
  // The character creation screen's three (gmCG3DView::Update 0x004EE9D0):
  // skin 0..191, hair 192..255, eyes 256..319.
  const std::vector<Subpalette> subs{{kSkin, 0, 192}, {kHair, 192, 64}, {kEyes, 256, 64}};
  const auto made = make_modified_palette(kBase, subs, p.lookup());
  REQUIRE(made);
  CHECK(made->id == kBase);
  REQUIRE(made->colors.size() == kModifiedPaletteColors);
  CHECK(made->colors[0] == 0x02000000U);
  CHECK(made->colors[191] == 0x020000BFU);
  CHECK(made->colors[192] == 0x030000C0U);
  CHECK(made->colors[255] == 0x030000FFU);
  CHECK(made->colors[256] == 0x04000100U);
  CHECK(made->colors[319] == 0x0400013FU);
  CHECK(made->colors[320] == 0x01000140U);
  CHECK(made->colors[2047] == 0x010007FFU);
  // Later ranges win where they overlap earlier ones.
  const std::vector<Subpalette> overlap{{kSkin, 0, 64}, {kHair, 32, 64}};
  const auto o = make_modified_palette(kBase, overlap, p.lookup());
  REQUIRE(o);
  CHECK(o->colors[31] == 0x0200001FU);
  CHECK(o->colors[32] == 0x03000020U);
  CHECK(o->colors[95] == 0x0300005FU);
  CHECK(o->colors[96] == 0x01000060U);
  // No subpalettes: the base's colours.
  const auto plain = make_modified_palette(kBase, {}, p.lookup());
  REQUIRE(plain);
  CHECK(plain->colors == p.by_id.at(kBase).colors);
}

TEST_CASE("Palette::makeModifiedPalette 0x0053E3C0: one whole subpalette is that palette itself",
          "[dat][palette][retail]") {
  Palettes p = character_palettes();
  p.add(numbered(0x04000400, 0x05, 256));  // short: used as it is, not copied into 2048
  const std::vector<Subpalette> subs{{0x04000400, 0, 2048}};
  const auto made = make_modified_palette(kBase, subs, p.lookup());
  REQUIRE(made);
  CHECK(made->id == 0x04000400U);
  CHECK(made->colors.size() == 256);
}

TEST_CASE("Palette::makeModifiedPalette 0x0053E3C0: no base, a missing palette or a range that does not fit makes none",
          "[dat][palette][retail]") {
  Palettes p = character_palettes();
  p.add(numbered(0x04000500, 0x06, 256));  // a 256-colour palette
  const auto refused = [&](Did base, std::vector<Subpalette> subs) {
    const auto made = make_modified_palette(base, subs, p.lookup());
    if (made) return false;
    CHECK_FALSE(made.error().message().empty());
    return true;
  };
  CHECK(refused(0, {{kSkin, 0, 192}}));           // no base palette
  CHECK(refused(0x04009999, {}));                 // the base is not in the DAT
  CHECK(refused(kBase, {{0x04009999, 0, 192}}));  // a subpalette that is not
  CHECK(refused(kBase, {{0, 0, 192}}));           // a subpalette of id 0
  // From the network: offset 255 * 8 with 256 * 8 colours runs past 2048.
  CHECK(refused(kBase, {unpack_subpalette(kSkin, 255, 0)}));
  CHECK(refused(kBase, {{kSkin, 2040, 16}}));
  // A source palette shorter than its range (retail would read past it).
  CHECK(refused(kBase, {{0x04000500, 192, 128}}));
  CHECK(refused(0x04000500, {}));  // a base of 256 colours cannot fill 2048
  // One bad entry anywhere refuses the whole composition.
  CHECK(refused(kBase, {{kSkin, 0, 192}, {kHair, 2047, 2}}));
  // Huge values from a caller do not wrap around the bounds check.
  CHECK(refused(kBase, {{kSkin, 0xFFFFFFF8U, 16}}));
  // A palette lookup that is empty finds nothing.
  CHECK_FALSE(make_modified_palette(kBase, {}, PaletteLookup{}));
  // Exactly up to the end is fine.
  CHECK(make_modified_palette(kBase, std::vector<Subpalette>{{kSkin, 2040, 8}}, p.lookup()));
  CHECK(make_modified_palette(kBase, std::vector<Subpalette>{{0x04000500, 0, 256}}, p.lookup()));
}

TEST_CASE("Palette::Modify 0x0053E160 copies the same indices and refuses a range past either palette",
          "[dat][palette][retail]") {
  Palette target = numbered(kBase, 0x01, 16);
  const Palette source = numbered(kSkin, 0x02, 12);
  CHECK(modify_palette(target, source, 4, 8));
  CHECK(target.colors[3] == 0x01000003U);
  CHECK(target.colors[4] == 0x02000004U);
  CHECK(target.colors[11] == 0x0200000BU);
  CHECK(target.colors[12] == 0x0100000CU);
  const Palette before = target;
  CHECK_FALSE(modify_palette(target, source, 8, 8));                      // past the source's 12
  CHECK_FALSE(modify_palette(target, numbered(kHair, 0x03, 64), 12, 8));  // past the target's 16
  CHECK(target == before);
}

TEST_CASE("ObjDesc::AddSubpalette 0x005AB970: same ranges replace, a whole palette supersedes what follows",
          "[dat][palette][retail]") {
  std::vector<Subpalette> list;
  CHECK(add_subpalette(list, {kSkin, 0, 192}));
  CHECK(add_subpalette(list, {kHair, 192, 64}));
  // The same range again takes the earlier one's place, at the end.
  CHECK(add_subpalette(list, {kEyes, 0, 192}));
  CHECK(list == std::vector<Subpalette>{{kHair, 192, 64}, {kEyes, 0, 192}});
  // A whole palette removes every earlier entry ...
  CHECK(add_subpalette(list, {kBase, 0, 2048}));
  CHECK(list == std::vector<Subpalette>{{kBase, 0, 2048}});
  // ... and keeps later partial ones out (reported as added, as retail does).
  CHECK(add_subpalette(list, {kSkin, 0, 192}));
  CHECK(list == std::vector<Subpalette>{{kBase, 0, 2048}});
  // Another whole palette replaces it.
  CHECK(add_subpalette(list, {kHair, 0, 2048}));
  CHECK(list == std::vector<Subpalette>{{kHair, 0, 2048}});
  // At most 255 entries.
  std::vector<Subpalette> full;
  for (std::uint32_t i = 0; i < 255; ++i) REQUIRE(add_subpalette(full, {kSkin, i * 8, 8}));
  CHECK(full.size() == 255);
  CHECK_FALSE(add_subpalette(full, {kSkin, 8, 16}));
  CHECK(full.size() == 255);
}
