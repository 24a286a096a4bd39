// CEnchantmentRegistry: where an enchantment goes, what replaces what, what
// the purges leave.

#include "dereth/sim/player/enchantment_registry.hpp"

#include <catch2/catch.hpp>

using namespace dereth;
using namespace dereth::sim;
using protocol::EnchantmentList;
using protocol::EnchantmentWire;

namespace {
EnchantmentWire enchantment(std::uint16_t spell, std::uint16_t layer, std::uint32_t type, double duration = 60.0) {
  EnchantmentWire e;
  e.spell_id = spell;
  e.layer = layer;
  e.stat_mod_type = type;
  e.duration = duration;
  return e;
}
}  // namespace

TEST_CASE("CEnchantmentRegistry::UpdateEnchantment 0x00593E70 files by type and replaces the same spell and layer",
          "[retail]") {
  namespace et = enchantment_type;
  EnchantmentRegistry r;
  CHECK(r.update_enchantment(enchantment(10, 1, et::Multiplicative)));
  CHECK(r.update_enchantment(enchantment(11, 1, et::Additive)));
  CHECK(r.update_enchantment(enchantment(12, 1, et::Cooldown)));
  CHECK(r.mult_list().size() == 1);
  CHECK(r.add_list().size() == 1);
  CHECK(r.cooldown_list().size() == 1);
  CHECK(r.cooldown_list()[0].list == EnchantmentList::Cooldown);
  // The same id again replaces; another layer is another enchantment.
  EnchantmentWire stronger = enchantment(10, 1, et::Multiplicative);
  stronger.stat_mod_value = 1.5F;
  CHECK(r.update_enchantment(stronger));
  REQUIRE(r.mult_list().size() == 1);
  CHECK(r.mult_list()[0].stat_mod_value == 1.5F);
  CHECK(r.update_enchantment(enchantment(10, 2, et::Multiplicative)));
  CHECK(r.mult_list().size() == 2);
  // The vitae (spell 666) is one enchantment, replaced whole.
  CHECK(r.update_enchantment(enchantment(666, 0, et::Vitae | et::Multiplicative)));
  CHECK(r.vitae().has_value());
  CHECK(r.is_enchanted(666));
  // A type that is both multiplicative and additive, or neither, is refused.
  CHECK_FALSE(r.update_enchantment(enchantment(20, 1, et::Multiplicative | et::Additive)));
  CHECK_FALSE(r.update_enchantment(enchantment(21, 1, 0)));
  CHECK(r.size() == 5);
}

TEST_CASE("CEnchantmentRegistry::RemoveEnchantment 0x005944E0 and the purges 0x00594DE0 / 0x00594E00", "[retail]") {
  namespace et = enchantment_type;
  // The PlayerDescription's registry keeps each entry in the list it came in.
  EnchantmentWire item = enchantment(30, 1, et::Additive | et::Beneficial, -1.0);
  item.list = EnchantmentList::Additive;
  EnchantmentWire bane = enchantment(31, 1, et::Multiplicative);
  EnchantmentWire boon = enchantment(32, 1, et::Multiplicative | et::Beneficial);
  EnchantmentWire cooldown = enchantment(33, 1, et::Cooldown);
  cooldown.list = EnchantmentList::Cooldown;
  EnchantmentWire vitae = enchantment(666, 0, et::Vitae);
  vitae.list = EnchantmentList::Vitae;
  EnchantmentRegistry r({item, bane, boon, cooldown, vitae});
  CHECK(r.size() == 5);
  CHECK(r.purge_bad_enchantments());  // the bane goes; the boon, the item's and the cooldown stay
  CHECK_FALSE(r.is_enchanted(31));
  CHECK(r.is_enchanted(32));
  CHECK(r.purge_enchantments());  // the boon goes; permanent, cooldown and vitae stay
  CHECK_FALSE(r.is_enchanted(32));
  CHECK(r.is_enchanted(30));
  CHECK(r.is_enchanted(33));
  CHECK_FALSE(r.purge_enchantments());  // nothing left to purge
  CHECK(r.remove_enchantment(enchantment_id(666, 0)));
  CHECK_FALSE(r.vitae().has_value());
  CHECK(r.remove_enchantment(enchantment_id(33, 1)));
  CHECK_FALSE(r.remove_enchantment(enchantment_id(33, 1)));  // already gone
  CHECK(r.size() == 1);
}
