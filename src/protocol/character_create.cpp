#include "dereth/protocol/character_create.hpp"

#include <fmt/format.h>

#include "opcode_decode.hpp"

namespace dereth::protocol {

namespace lo = login_opcode;

namespace {

using detail::decode_with;

void write_appearance(ByteWriter& w, const CharacterAppearance& a) {
  for (const std::uint32_t v :
       {a.eyes, a.nose, a.mouth, a.hair_color, a.eye_color, a.hair_style, a.headgear_style, a.headgear_color,
        a.shirt_style, a.shirt_color, a.pants_style, a.pants_color, a.footwear_style, a.footwear_color}) {
    w.u32(v);
  }
  for (const double v :
       {a.skin_shade, a.hair_shade, a.headgear_shade, a.shirt_shade, a.pants_shade, a.footwear_shade}) {
    w.f64(v);
  }
}

Result<void> read_appearance(ByteReader& r, CharacterAppearance& a) {
  DERETH_TRY(a.eyes, r.u32("appearance.eyes"));
  DERETH_TRY(a.nose, r.u32("appearance.nose"));
  DERETH_TRY(a.mouth, r.u32("appearance.mouth"));
  DERETH_TRY(a.hair_color, r.u32("appearance.hair_color"));
  DERETH_TRY(a.eye_color, r.u32("appearance.eye_color"));
  DERETH_TRY(a.hair_style, r.u32("appearance.hair_style"));
  DERETH_TRY(a.headgear_style, r.u32("appearance.headgear_style"));
  DERETH_TRY(a.headgear_color, r.u32("appearance.headgear_color"));
  DERETH_TRY(a.shirt_style, r.u32("appearance.shirt_style"));
  DERETH_TRY(a.shirt_color, r.u32("appearance.shirt_color"));
  DERETH_TRY(a.pants_style, r.u32("appearance.pants_style"));
  DERETH_TRY(a.pants_color, r.u32("appearance.pants_color"));
  DERETH_TRY(a.footwear_style, r.u32("appearance.footwear_style"));
  DERETH_TRY(a.footwear_color, r.u32("appearance.footwear_color"));
  DERETH_TRY(a.skin_shade, r.f64("appearance.skin_shade"));
  DERETH_TRY(a.hair_shade, r.f64("appearance.hair_shade"));
  DERETH_TRY(a.headgear_shade, r.f64("appearance.headgear_shade"));
  DERETH_TRY(a.shirt_shade, r.f64("appearance.shirt_shade"));
  DERETH_TRY(a.pants_shade, r.f64("appearance.pants_shade"));
  DERETH_TRY(a.footwear_shade, r.f64("appearance.footwear_shade"));
  return {};
}

constexpr std::array<std::string_view, 6> kAbilityFields = {"abilities.strength",     "abilities.endurance",
                                                            "abilities.coordination", "abilities.quickness",
                                                            "abilities.focus",        "abilities.self"};

}  // namespace

std::vector<std::uint8_t> encode(const CharacterCreate& m) {
  ByteWriter w;
  w.u32(lo::CharacterCreate);
  w.string16l(m.account);
  w.u32(m.unknown_one);
  w.u32(m.heritage);
  w.u32(m.gender);
  write_appearance(w, m.appearance);
  w.i32(m.template_option);
  for (const std::uint32_t a : m.abilities) w.u32(a);
  w.u32(m.slot);
  w.u32(m.class_id);
  w.u32(static_cast<std::uint32_t>(m.skills.size()));
  for (const std::uint32_t s : m.skills) w.u32(s);
  w.string16l(m.name);
  w.u32(m.start_area);
  w.u32(m.is_admin);
  w.u32(m.is_sentinel);
  return std::move(w).take();
}

Result<CharacterCreate> decode_character_create(std::span<const std::uint8_t> body) {
  return decode_with<CharacterCreate>(body, lo::CharacterCreate, "F656 CharacterCreate",
                                      [](ByteReader& r, CharacterCreate& m) -> Result<void> {
                                        DERETH_TRY(m.account, r.string16l("account"));
                                        DERETH_TRY(m.unknown_one, r.u32("unknown_one"));
                                        DERETH_TRY(m.heritage, r.u32("heritage"));
                                        DERETH_TRY(m.gender, r.u32("gender"));
                                        DERETH_CHECK(read_appearance(r, m.appearance));
                                        DERETH_TRY(m.template_option, r.i32("template_option"));
                                        for (std::size_t i = 0; i < m.abilities.size(); ++i) {
                                          DERETH_TRY(m.abilities[i], r.u32(kAbilityFields[i]));
                                        }
                                        DERETH_TRY(m.slot, r.u32("slot"));
                                        DERETH_TRY(m.class_id, r.u32("class_id"));
                                        DERETH_TRY(const std::uint32_t count, r.u32("skill_count"));
                                        // Each skill is a u32; the count is checked against what remains
                                        // before anything is allocated for it.
                                        DERETH_TRY(const std::size_t n, r.checked_count(count, 4, "skill_count"));
                                        m.skills.resize(n);
                                        for (auto& s : m.skills) {
                                          DERETH_TRY(s, r.u32("skills"));
                                        }
                                        DERETH_TRY(m.name, r.string16l("name"));
                                        DERETH_TRY(m.start_area, r.u32("start_area"));
                                        DERETH_TRY(m.is_admin, r.u32("is_admin"));
                                        DERETH_TRY(m.is_sentinel, r.u32("is_sentinel"));
                                        return {};
                                      });
}

std::vector<std::uint8_t> encode(const CharacterCreateResponse& m) {
  ByteWriter w;
  w.u32(lo::CharacterCreateResponse);
  w.u32(m.response);
  if (m.response == create_response::Ok) {
    w.u32(m.guid);
    w.string16l(m.name);
    w.u32(m.seconds_greyed_out);
  }
  return std::move(w).take();
}

Result<CharacterCreateResponse> decode_character_create_response(std::span<const std::uint8_t> body) {
  return decode_with<CharacterCreateResponse>(body, lo::CharacterCreateResponse, "F643 CharacterCreateResponse",
                                              [](ByteReader& r, CharacterCreateResponse& m) -> Result<void> {
                                                DERETH_TRY(m.response, r.u32("response"));
                                                if (m.response != create_response::Ok) return {};
                                                DERETH_TRY(m.guid, r.u32("guid"));
                                                DERETH_TRY(m.name, r.string16l("name"));
                                                DERETH_TRY(m.seconds_greyed_out, r.u32("seconds_greyed_out"));
                                                return {};
                                              });
}

std::string describe_create_response(std::uint32_t code) {
  namespace cr = create_response;
  switch (code) {
    case cr::Ok: return "The character was created.";
    case cr::Pending: return "Characters of that heritage cannot be made on this server at present.";
    case cr::NameInUse: return "Another character already has that name; choose a different one.";
    case cr::NameBanned: return "That name is not allowed; choose a different one.";
    case cr::Corrupt: return "The server refused the character: its choices break the creation rules.";
    case cr::DatabaseDown: return "The server could not save the character; try again in a few minutes.";
    case cr::AdminPrivilegeDenied: return "This account may not create an administrator character.";
    case cr::Undefined: return "The server did not say why the character was refused.";
    default: return fmt::format("The server refused the character (unknown reason code {}).", code);
  }
}

std::vector<std::uint8_t> encode(const CharacterDelete& m) {
  ByteWriter w;
  w.u32(lo::CharacterDelete);
  w.string16l(m.account);
  w.u32(m.slot);
  return std::move(w).take();
}

Result<CharacterDelete> decode_character_delete(std::span<const std::uint8_t> body) {
  return decode_with<CharacterDelete>(body, lo::CharacterDelete, "F655 CharacterDelete",
                                      [](ByteReader& r, CharacterDelete& m) -> Result<void> {
                                        DERETH_TRY(m.account, r.string16l("account"));
                                        DERETH_TRY(m.slot, r.u32("slot"));
                                        return {};
                                      });
}

}  // namespace dereth::protocol
