#include "dereth/sim/player/spell_book.hpp"

#include <algorithm>

namespace dereth::sim {

namespace {

constexpr std::uint32_t kFirstPrunedSpell = 0x2000;  // CSpellBook::Prune keeps 1..0x1FFF

}  // namespace

SpellBook::SpellBook(std::uint16_t table_size) : buckets_(table_size) {}

// CSpellBook::UnPack 0x00595BB0 -> PackableHashTable::UnPack, then Prune 0x005958E0
SpellBook SpellBook::unpack(std::uint16_t table_size, const std::vector<std::pair<std::uint32_t, float>>& spells) {
  SpellBook book(table_size);
  for (const auto& [spell, likelihood] : spells) {
    if (book.buckets_.empty()) break;
    // PackableHashTable::add (not CSpellBook::AddSpell): spell 0 goes in, for Prune to take out.
    auto& chain = book.buckets_[spell % book.buckets_.size()];
    if (std::any_of(chain.begin(), chain.end(), [&](const auto& e) { return e.first == spell; })) continue;
    chain.insert(chain.begin(), {spell, likelihood});
    ++book.count_;
  }
  for (const std::uint32_t spell : book.transcribe_spells()) {
    if (spell == 0 || spell >= kFirstPrunedSpell) book.remove_spell(spell);
  }
  return book;
}

// CSpellBook::AddSpell 0x00595890
bool SpellBook::add_spell(std::uint32_t spell, float casting_likelihood) {
  if (spell == 0 || buckets_.empty() || exists(spell)) return false;
  auto& chain = buckets_[spell % buckets_.size()];
  chain.insert(chain.begin(), {spell, casting_likelihood});
  ++count_;
  return true;
}

// CSpellBook::RemoveSpell 0x005958C0
bool SpellBook::remove_spell(std::uint32_t spell) {
  if (buckets_.empty()) return false;
  auto& chain = buckets_[spell % buckets_.size()];
  const auto it = std::find_if(chain.begin(), chain.end(), [&](const auto& e) { return e.first == spell; });
  if (it == chain.end()) return false;
  chain.erase(it);
  --count_;
  return true;
}

// CSpellBook::Exists 0x00595520
bool SpellBook::exists(std::uint32_t spell) const {
  if (buckets_.empty()) return false;
  const auto& chain = buckets_[spell % buckets_.size()];
  return std::any_of(chain.begin(), chain.end(), [&](const auto& e) { return e.first == spell; });
}

// CSpellBook::TranscribeSpells 0x00595570
std::vector<std::uint32_t> SpellBook::transcribe_spells() const {
  std::vector<std::uint32_t> list;
  list.reserve(count_);
  for (const auto& chain : buckets_) {
    for (const auto& entry : chain) list.push_back(entry.first);
  }
  std::reverse(list.begin(), list.end());
  return list;
}

}  // namespace dereth::sim
