#include "dereth/protocol/magic.hpp"

#include <algorithm>

#include "dereth/protocol/login.hpp"

#include "game_action.hpp"
#include "quality_codec.hpp"

namespace dereth::protocol {

namespace {

constexpr std::size_t kMinEnchantment = 60;  // Enchantment::UnPack without a spell set id
constexpr std::size_t kLayeredSpell = 4;

bool one_of(std::uint32_t event, std::initializer_list<std::uint32_t> events) {
  return std::find(events.begin(), events.end(), event) != events.end();
}

// The event header checked against `event` when it is one of `events`, else
// against the first (so the error names what came instead).
Result<std::uint32_t> expect_one_of(ByteReader& r, std::span<const std::uint8_t> body,
                                    std::initializer_list<std::uint32_t> events) {
  const std::uint32_t event = peek_wrapped_type(body);
  const std::uint32_t expected = one_of(event, events) ? event : *events.begin();
  DERETH_CHECK(expect_game_event(r, expected));
  return expected;
}

// A u32 count of `min_size`-byte records, refused when the message cannot hold it.
Result<std::size_t> read_count(ByteReader& r, std::size_t min_size) {
  DERETH_TRY(const std::uint32_t count, r.u32("count"));
  return r.checked_count(count, min_size, "count");
}

Result<LayeredSpell> read_layered_spell(ByteReader& r) {
  LayeredSpell s;
  DERETH_TRY(s.spell_id, r.u16("spell_id"));
  DERETH_TRY(s.layer, r.u16("layer"));
  return s;
}

}  // namespace

// CM_Magic::DispatchUI_UpdateEnchantment and DispatchUI_UpdateMultipleEnchantments
Result<MagicUpdateEnchantments> decode_magic_update_enchantments(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0 MagicUpdateEnchantment");
  MagicUpdateEnchantments m;
  DERETH_TRY(m.event,
             expect_one_of(r, body, {magic_event::UpdateEnchantment, magic_event::UpdateMultipleEnchantments}));
  std::size_t count = 1;
  if (m.event == magic_event::UpdateMultipleEnchantments) {
    DERETH_TRY(count, read_count(r, kMinEnchantment));
  }
  m.enchantments.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    DERETH_TRY(EnchantmentWire e, read_enchantment(r, EnchantmentList::Multiplicative));
    m.enchantments.push_back(e);
  }
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Magic::DispatchUI_RemoveEnchantment, DispatchUI_DispelEnchantment and
// their multiple forms
Result<MagicRemoveEnchantments> decode_magic_remove_enchantments(std::span<const std::uint8_t> body) {
  namespace me = magic_event;
  ByteReader r(body, "F7B0 MagicRemoveEnchantment");
  MagicRemoveEnchantments m;
  DERETH_TRY(m.event, expect_one_of(r, body,
                                    {me::RemoveEnchantment, me::RemoveMultipleEnchantments, me::DispelEnchantment,
                                     me::DispelMultipleEnchantments}));
  std::size_t count = 1;
  if (m.event == me::RemoveMultipleEnchantments || m.event == me::DispelMultipleEnchantments) {
    DERETH_TRY(count, read_count(r, kLayeredSpell));
  }
  m.spells.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    DERETH_TRY(const LayeredSpell s, read_layered_spell(r));
    m.spells.push_back(s);
  }
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Magic::DispatchUI_PurgeEnchantments and DispatchUI_PurgeBadEnchantments
Result<MagicPurgeEnchantments> decode_magic_purge_enchantments(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B0 MagicPurgeEnchantments");
  DERETH_TRY(const std::uint32_t event,
             expect_one_of(r, body, {magic_event::PurgeEnchantments, magic_event::PurgeBadEnchantments}));
  DERETH_CHECK(r.expect_end());
  return MagicPurgeEnchantments{event == magic_event::PurgeBadEnchantments};
}

namespace {

// The spell book events' shared layout: the event type, then the spell.
Result<std::uint32_t> read_spell_event(std::span<const std::uint8_t> body, std::uint32_t event, const char* what) {
  ByteReader r(body, what);
  DERETH_CHECK(expect_game_event(r, event));
  DERETH_TRY(const std::uint32_t spell, r.u32("spell"));
  DERETH_CHECK(r.expect_end());
  return spell;
}

std::vector<std::uint8_t> spell_event(std::uint32_t target, std::uint32_t sequence, std::uint32_t event,
                                      std::uint32_t spell) {
  ByteWriter w;
  w.u32(spell);
  return encode_game_event(target, sequence, event, std::move(w).take());
}

}  // namespace

// CM_Magic::DispatchUI_UpdateSpell 0x006A3010
Result<MagicUpdateSpell> decode_magic_update_spell(std::span<const std::uint8_t> body) {
  DERETH_TRY(const std::uint32_t spell, read_spell_event(body, magic_event::UpdateSpell, "F7B0 MagicUpdateSpell"));
  return MagicUpdateSpell{spell};
}

// CM_Magic::DispatchUI_RemoveSpell 0x006A2FE0
Result<MagicRemoveSpell> decode_magic_remove_spell(std::span<const std::uint8_t> body) {
  DERETH_TRY(const std::uint32_t spell, read_spell_event(body, magic_event::RemoveSpell, "F7B0 MagicRemoveSpell"));
  return MagicRemoveSpell{spell};
}

std::vector<std::uint8_t> encode(const MagicUpdateSpell& m, std::uint32_t target, std::uint32_t sequence) {
  return spell_event(target, sequence, magic_event::UpdateSpell, m.spell);
}

std::vector<std::uint8_t> encode(const MagicRemoveSpell& m, std::uint32_t target, std::uint32_t sequence) {
  return spell_event(target, sequence, magic_event::RemoveSpell, m.spell);
}

std::vector<std::uint8_t> encode(const MagicUpdateEnchantments& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;
  if (m.event == magic_event::UpdateMultipleEnchantments) w.u32(static_cast<std::uint32_t>(m.enchantments.size()));
  for (const EnchantmentWire& e : m.enchantments) write_enchantment(w, e);
  return encode_game_event(target, sequence, m.event, std::move(w).take());
}

std::vector<std::uint8_t> encode(const MagicRemoveEnchantments& m, std::uint32_t target, std::uint32_t sequence) {
  ByteWriter w;
  if (m.event == magic_event::RemoveMultipleEnchantments || m.event == magic_event::DispelMultipleEnchantments) {
    w.u32(static_cast<std::uint32_t>(m.spells.size()));
  }
  for (const LayeredSpell& s : m.spells) {
    w.u16(s.spell_id);
    w.u16(s.layer);
  }
  return encode_game_event(target, sequence, m.event, std::move(w).take());
}

std::vector<std::uint8_t> encode(const MagicPurgeEnchantments& m, std::uint32_t target, std::uint32_t sequence) {
  return encode_game_event(target, sequence,
                           m.bad_only ? magic_event::PurgeBadEnchantments : magic_event::PurgeEnchantments, {});
}

// CM_Character::Event_AddSpellFavorite
std::vector<std::uint8_t> encode(const AddSpellFavorite& m) {
  ByteWriter w = detail::action_writer(m.sequence, magic_action::AddSpellFavorite);
  w.u32(m.spell);
  w.u32(m.index);
  w.u32(m.list);
  return std::move(w).take();
}

// CM_Character::Event_RemoveSpellFavorite
std::vector<std::uint8_t> encode(const RemoveSpellFavorite& m) {
  ByteWriter w = detail::action_writer(m.sequence, magic_action::RemoveSpellFavorite);
  w.u32(m.spell);
  w.u32(m.list);
  return std::move(w).take();
}

Result<AddSpellFavorite> decode_add_spell_favorite(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/01E3 AddSpellFavorite");
  AddSpellFavorite m;
  DERETH_TRY(m.sequence, detail::read_action_header(r, magic_action::AddSpellFavorite));
  DERETH_TRY(m.spell, r.u32("spell"));
  DERETH_TRY(m.index, r.u32("index"));
  DERETH_TRY(m.list, r.u32("list"));
  DERETH_CHECK(r.expect_end());
  return m;
}

Result<RemoveSpellFavorite> decode_remove_spell_favorite(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/01E4 RemoveSpellFavorite");
  RemoveSpellFavorite m;
  DERETH_TRY(m.sequence, detail::read_action_header(r, magic_action::RemoveSpellFavorite));
  DERETH_TRY(m.spell, r.u32("spell"));
  DERETH_TRY(m.list, r.u32("list"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Magic::Event_CastTargetedSpell 0x006A3040
std::vector<std::uint8_t> encode(const CastTargetedSpell& m) {
  ByteWriter w = detail::action_writer(m.sequence, magic_action::CastTargetedSpell);
  w.u32(m.target);
  w.u32(m.spell);
  return std::move(w).take();
}

// CM_Magic::Event_CastUntargetedSpell 0x006A3150
std::vector<std::uint8_t> encode(const CastUntargetedSpell& m) {
  ByteWriter w = detail::action_writer(m.sequence, magic_action::CastUntargetedSpell);
  w.u32(m.spell);
  return std::move(w).take();
}

Result<CastTargetedSpell> decode_cast_targeted_spell(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/004A CastTargetedSpell");
  CastTargetedSpell m;
  DERETH_TRY(m.sequence, detail::read_action_header(r, magic_action::CastTargetedSpell));
  DERETH_TRY(m.target, r.u32("target"));
  DERETH_TRY(m.spell, r.u32("spell"));
  DERETH_CHECK(r.expect_end());
  return m;
}

Result<CastUntargetedSpell> decode_cast_untargeted_spell(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/0048 CastUntargetedSpell");
  CastUntargetedSpell m;
  DERETH_TRY(m.sequence, detail::read_action_header(r, magic_action::CastUntargetedSpell));
  DERETH_TRY(m.spell, r.u32("spell"));
  DERETH_CHECK(r.expect_end());
  return m;
}

}  // namespace dereth::protocol
