#include "dereth/sim/player/player_module.hpp"

#include <algorithm>

namespace dereth::sim {

namespace {
bool valid_list(std::int32_t list) {
  return list >= 0 && static_cast<std::size_t>(list) < protocol::kSpellListCount;
}
}  // namespace

PlayerModule::PlayerModule(const protocol::SpellListsWire& lists) : shortcuts_(lists.shortcuts) {
  const std::size_t n = std::min(lists.favorite_spells.size(), favorite_spells_.size());
  for (std::size_t i = 0; i < n; ++i) favorite_spells_[i] = lists.favorite_spells[i];
}

// PlayerModule::UnPack 0x005D49D0
void PlayerModule::unpack(const protocol::PlayerDescription& description) {
  if (description.spell_lists) {
    const std::uint32_t options1 = options1_;
    *this = PlayerModule(*description.spell_lists);
    options1_ = options1;
  }
  if (description.options) options1_ = description.options->options1;
}

// PlayerModule::ToggleRun 0x005D2DA0
bool PlayerModule::toggle_run() const noexcept {
  return (options1_ & protocol::character_options1::ToggleRun) != 0;
}

// PlayerModule::DisableHouseRestrictionEffects 0x005D3160
bool PlayerModule::disable_house_restriction_effects() const noexcept {
  return (options1_ & protocol::character_options1::DisableHouseRestrictionEffects) != 0;
}

// PlayerModule::AddSpellFavorite 0x005D43E0 -> PackableList::InsertPos
void PlayerModule::add_spell_favorite(std::uint32_t spid, std::uint32_t index, std::int32_t list) {
  if (!valid_list(list)) return;
  auto& spells = favorite_spells_[static_cast<std::size_t>(list)];
  const std::size_t at = std::min<std::size_t>(index, spells.size());
  spells.insert(spells.begin() + static_cast<std::ptrdiff_t>(at), spid);
}

// PlayerModule::RemoveSpellFavorite 0x005D4910 -> PackableList::Remove
void PlayerModule::remove_spell_favorite(std::uint32_t spid, std::int32_t list) {
  if (!valid_list(list)) return;
  auto& spells = favorite_spells_[static_cast<std::size_t>(list)];
  const auto it = std::find(spells.begin(), spells.end(), spid);
  if (it != spells.end()) spells.erase(it);
}

// PlayerModule::GetFavoriteSpellsList 0x005D29F0
const std::vector<std::uint32_t>& PlayerModule::favorite_spells(std::int32_t list) const {
  static const std::vector<std::uint32_t> kNone;
  return valid_list(list) ? favorite_spells_[static_cast<std::size_t>(list)] : kNone;
}

}  // namespace dereth::sim
