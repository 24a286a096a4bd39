#pragma once
// CSpellBook: the spells the player knows, each with its casting likelihood,
// in retail's PackableHashTable<unsigned long, SpellBookPage>. The table's
// order is kept as retail's is (a spell goes to the head of bucket
// `spell % table_size`; iteration runs the buckets upward, each from its
// head), because what reads the book sees that order: TranscribeSpells, and
// through it the spellbook window's order among spells of one display order.
#include <cstdint>
#include <utility>
#include <vector>

namespace dereth::sim {

class SpellBook {
 public:
  // CSpellBook::CSpellBook 0x00595B80: an empty table of 64 buckets.
  SpellBook() : SpellBook(64) {}
  explicit SpellBook(std::uint16_t table_size);

  // CSpellBook::UnPack 0x00595BB0: the PlayerDescription's spells in wire
  // order into a table of `table_size` buckets (a second copy of a spell is
  // thrown away), then CSpellBook::Prune 0x005958E0: a spell id of 0 or of
  // 0x2000 and above goes. (Prune's removal of spells named "Unknown" is not
  // ported: the decompiled call is unreadable.)
  static SpellBook unpack(std::uint16_t table_size, const std::vector<std::pair<std::uint32_t, float>>& spells);

  // CSpellBook::AddSpell 0x00595890 -> PackableHashTable::add: false for
  // spell 0 and for a spell already there (its likelihood is kept).
  bool add_spell(std::uint32_t spell, float casting_likelihood = 0.0F);
  // CSpellBook::RemoveSpell 0x005958C0: false when the spell is not there.
  bool remove_spell(std::uint32_t spell);
  // CSpellBook::Exists 0x00595520
  [[nodiscard]] bool exists(std::uint32_t spell) const;
  // CSpellBook::TranscribeSpells 0x00595570: every spell, each put at the
  // head of the list in iteration order, so the list is iteration reversed.
  [[nodiscard]] std::vector<std::uint32_t> transcribe_spells() const;

  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::uint16_t table_size() const noexcept { return static_cast<std::uint16_t>(buckets_.size()); }

 private:
  // Each bucket's chain, head first.
  std::vector<std::vector<std::pair<std::uint32_t, float>>> buckets_;
  std::size_t count_ = 0;
};

}  // namespace dereth::sim
