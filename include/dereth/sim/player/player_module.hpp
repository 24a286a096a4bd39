#pragma once
// PlayerModule's spell bars: the eight favourites lists (the spell bar's
// tabs) and the toolbar shortcuts, as the PlayerDescription gives them
// (PlayerModule::UnPack 0x005D49D0) and as the player changes them. The
// client changes its own copy and tells the server (AddSpellFavorite /
// RemoveSpellFavorite, protocol/magic.hpp); the server does not echo them.
#include <array>
#include <cstdint>
#include <vector>

#include "dereth/protocol/player_description.hpp"

namespace dereth::sim {

class PlayerModule {
 public:
  PlayerModule() = default;
  // The lists the message carries; lists past the eighth are ignored, a
  // list the message leaves out is empty.
  explicit PlayerModule(const protocol::SpellListsWire& lists);
  // PlayerModule::UnPack 0x005D49D0, from a PlayerDescription: its spell
  // lists and its CharacterOptions1, each only when the message carries it
  // (what it leaves out is kept).
  void unpack(const protocol::PlayerDescription& description);
  // PlayerModule::ToggleRun 0x005D2DA0: CharacterOptions1's ToggleRun bit,
  // which the command interpreter's SetHoldRun reads
  // (ACCmdInterp::UITogglesRun 0x0058B180).
  [[nodiscard]] bool toggle_run() const noexcept;
  // PlayerModule::DisableHouseRestrictionEffects 0x005D3160: CharacterOptions1 bit 25.
  [[nodiscard]] bool disable_house_restriction_effects() const noexcept;

  // PlayerModule::AddSpellFavorite 0x005D43E0: `spid` goes in before the
  // entry at `index` of `list` (at the end when the list is shorter); a
  // list outside 0..7 is ignored. Retail keeps a spell twice if asked to.
  void add_spell_favorite(std::uint32_t spid, std::uint32_t index, std::int32_t list);
  // PlayerModule::RemoveSpellFavorite 0x005D4910: the first `spid` of `list` goes.
  void remove_spell_favorite(std::uint32_t spid, std::int32_t list);
  // PlayerModule::GetFavoriteSpellsList 0x005D29F0: list 0..7 (an empty one outside).
  [[nodiscard]] const std::vector<std::uint32_t>& favorite_spells(std::int32_t list) const;
  [[nodiscard]] const std::vector<protocol::ShortcutWire>& shortcuts() const noexcept { return shortcuts_; }

 private:
  std::array<std::vector<std::uint32_t>, protocol::kSpellListCount> favorite_spells_{};
  std::vector<protocol::ShortcutWire> shortcuts_;
  std::uint32_t options1_ = 0;
};

}  // namespace dereth::sim
