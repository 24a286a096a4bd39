// The player's spell book (CSpellBook, CACQualities' spell functions): what
// the PlayerDescription and the learn / forget events leave in it, in
// retail's table order.

#include "dereth/sim/player/spell_book.hpp"

#include <catch2/catch.hpp>

#include "dereth/sim/player/qualities.hpp"

using namespace dereth;
using dereth::sim::SpellBook;

TEST_CASE("CSpellBook::TranscribeSpells 0x00595570 lists the table reversed: buckets upward, each chain from its head",
          "[retail]") {
  SpellBook book(4);
  // Bucket 1: 5 then 1 added (1 is the head); bucket 2: 2; bucket 3: 7.
  for (const std::uint32_t s : {5u, 2u, 7u, 1u}) CHECK(book.add_spell(s, 0.0F));
  // Iteration: 1, 5 (bucket 1), 2 (bucket 2), 7 (bucket 3); the list is that reversed.
  CHECK(book.transcribe_spells() == std::vector<std::uint32_t>{7, 2, 5, 1});
  CHECK(book.size() == 4);
}

TEST_CASE(
    "CSpellBook::AddSpell 0x00595890 refuses spell 0 and a spell already there, RemoveSpell 0x005958C0 and "
    "Exists 0x00595520",
    "[retail]") {
  SpellBook book;  // CSpellBook::CSpellBook 0x00595B80: 64 buckets
  CHECK(book.table_size() == 64);
  CHECK_FALSE(book.add_spell(0, 1.0F));
  CHECK(book.add_spell(27, 0.5F));
  CHECK_FALSE(book.add_spell(27, 0.0F));
  CHECK(book.exists(27));
  CHECK_FALSE(book.exists(27 + 64));  // the same bucket, another spell
  CHECK(book.size() == 1);
  CHECK_FALSE(book.remove_spell(2));
  CHECK(book.remove_spell(27));
  CHECK_FALSE(book.exists(27));
  CHECK(book.transcribe_spells().empty());
  // A table of no buckets (a wire count of 0) holds nothing.
  SpellBook none(0);
  CHECK_FALSE(none.add_spell(27, 0.0F));
  CHECK_FALSE(none.exists(27));
}

TEST_CASE(
    "CSpellBook::UnPack 0x00595BB0 keeps the wire's table size and the first copy, Prune 0x005958E0 drops ids 0 "
    "and 0x2000 up",
    "[retail]") {
  const SpellBook book =
      SpellBook::unpack(8, {{3, 2.0F}, {11, 2.0F}, {0x2000, 2.0F}, {0, 2.0F}, {3, 1.0F}, {0x1FFF, 2.0F}});
  CHECK(book.table_size() == 8);
  CHECK(book.exists(3));
  CHECK(book.exists(11));
  CHECK(book.exists(0x1FFF));
  CHECK_FALSE(book.exists(0x2000));
  CHECK_FALSE(book.exists(0));
  CHECK(book.size() == 3);
  // Bucket 3 holds 11 over 3 (11 came later); 0x1FFF is in bucket 7.
  CHECK(book.transcribe_spells() == std::vector<std::uint32_t>{0x1FFF, 3, 11});
}

TEST_CASE(
    "CACQualities::IsSpellKnown 0x0058EEC0, AddSpell 0x0058F220 and RemoveSpell 0x0058F280 on the player's "
    "qualities",
    "[retail]") {
  protocol::PlayerDescription d;
  d.weenie_type = 1;
  // No spell book in the message: nothing is known, nothing to remove.
  sim::Qualities bookless(d, std::nullopt, std::nullopt);
  CHECK_FALSE(bookless.has_spell_book());
  CHECK_FALSE(bookless.is_spell_known(27));
  CHECK_FALSE(bookless.remove_spell(27));
  CHECK(bookless.transcribe_spells().empty());
  // AddSpell makes the book first.
  bookless.add_spell(27);
  CHECK(bookless.has_spell_book());
  CHECK(bookless.is_spell_known(27));
  // The message's book (its vector flag 0x100).
  d.vector_flags = protocol::quality_vector_flag::Spell;
  d.spell_buckets = 64;
  d.spells = {{27, 2.0F}, {2, 2.0F}};
  sim::Qualities q(d, std::nullopt, std::nullopt);
  CHECK(q.has_spell_book());
  CHECK(q.is_spell_known(2));
  CHECK(q.transcribe_spells() == std::vector<std::uint32_t>{27, 2});
  CHECK(q.remove_spell(2));
  CHECK_FALSE(q.is_spell_known(2));
  CHECK_FALSE(q.remove_spell(2));
}
