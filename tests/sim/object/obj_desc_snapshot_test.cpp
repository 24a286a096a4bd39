// An object's ObjDesc on its render snapshot: texture changes on their parts,
// the palette in colours as ObjDesc::UnPack keeps its subpalettes.
#include <catch2/catch.hpp>

#include "dereth/protocol/obj_desc.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"

using namespace dereth;

TEST_CASE(
    "publish_obj_desc: texture changes reach their parts, palettes unpacked as ObjDesc::UnPack 0x005ABCF0 "
    "lists them",
    "[sim][snapshot][objdesc][palette][retail]") {
  sim::ObjectSnapshot o;
  o.parts.resize(3);
  protocol::ObjDesc d;
  d.texture_changes = {{1, 0x05000001, 0x05000040}, {2, 0x05000002, 0x05000003}, {7, 0x05000001, 0x05000005}};
  d.base_palette = 0x04000010;
  // The player's ObjDesc as ACE sends it: skin 0..191, hair 192..255, eyes
  // 256..319 in units of 8; then a second skin entry of the same range,
  // which replaces the first (Subpalette::replaces).
  d.palettes = {{0x04000011, 0, 24}, {0x04000018, 24, 8}, {0x04000028, 32, 8}, {0x04000014, 0, 24}};
  sim::publish_obj_desc(d, o);
  REQUIRE(o.parts[1].texture_changes.size() == 1);
  CHECK(o.parts[1].texture_changes[0] == sim::TextureChange{0x05000001, 0x05000040});
  REQUIRE(o.parts[2].texture_changes.size() == 1);
  CHECK(o.parts[0].texture_changes.empty());  // the change for part 7 (past the parts) is dropped
  CHECK(o.palette.base_palette == 0x04000010U);
  CHECK(o.palette.subpalettes ==
        std::vector<sim::SubpaletteChange>{{0x04000018, 192, 64}, {0x04000028, 256, 64}, {0x04000014, 0, 192}});

  // A whole-palette subpalette (count 0 = 256 x 8) keeps later partial ones out.
  d.palettes = {{0x04000011, 0, 0}, {0x04000018, 24, 8}};
  sim::ObjectSnapshot w;
  sim::publish_obj_desc(d, w);
  CHECK(w.palette.subpalettes == std::vector<sim::SubpaletteChange>{{0x04000011, 0, 2048}});

  // Hostile values pass through as numbers (the renderer refuses what does not fit).
  d.palettes = {{0x04000011, 255, 0}};
  sim::ObjectSnapshot h;
  sim::publish_obj_desc(d, h);
  CHECK(h.palette.subpalettes == std::vector<sim::SubpaletteChange>{{0x04000011, 2040, 2048}});

  // No subpalettes: no palette change, whatever the base says.
  d.palettes.clear();
  sim::ObjectSnapshot n;
  sim::publish_obj_desc(d, n);
  CHECK(n.palette.empty());
  CHECK(n.palette.base_palette == 0U);
}
