// A stand-in for src/protocol/character_create.cpp (helper B's branch): the
// F656 / F643 / F655 codecs declared in dereth/protocol/character_create.hpp,
// written from docs/protocol.md's layouts (ACE's CharacterCreateInfo.Unpack
// order) so the client's creation screen builds and is tested before that
// branch is merged. src/net/CMakeLists.txt leaves this file out as soon as
// src/protocol/character_create.cpp exists; delete it at the merge.
#include <fmt/format.h>

#include "dereth/protocol/character_create.hpp"
#include "dereth/protocol/messages.hpp"

namespace dereth::protocol {

namespace {

namespace lo = login_opcode;

template <class T, class Body>
Result<T> decode_body(std::span<const std::uint8_t> bytes, std::uint32_t op, std::string_view context, Body&& body) {
  ByteReader r(bytes, context);
  DERETH_TRY(const std::uint32_t opcode, r.u32("opcode"));
  if (opcode != op) {
    return std::unexpected(
        r.error_at(0, core::ErrorKind::Invalid, "opcode", fmt::format("opcode 0x{:04X}, expected 0x{:04X}", opcode, op)));
  }
  T m;
  DERETH_CHECK(body(r, m));
  DERETH_CHECK(r.expect_end());
  return m;
}

}  // namespace

std::vector<std::uint8_t> encode(const CharacterCreate& m) {
  ByteWriter w;
  w.u32(lo::CharacterCreate);
  w.string16l(m.account);
  w.u32(m.unknown_one);
  w.u32(m.heritage);
  w.u32(m.gender);
  const auto& a = m.appearance;
  for (std::uint32_t v : {a.eyes, a.nose, a.mouth, a.hair_color, a.eye_color, a.hair_style, a.headgear_style,
                          a.headgear_color, a.shirt_style, a.shirt_color, a.pants_style, a.pants_color,
                          a.footwear_style, a.footwear_color}) {
    w.u32(v);
  }
  for (double v : {a.skin_shade, a.hair_shade, a.headgear_shade, a.shirt_shade, a.pants_shade, a.footwear_shade}) {
    w.f64(v);
  }
  w.i32(m.template_option);
  for (auto v : m.abilities) w.u32(v);
  w.u32(m.slot);
  w.u32(m.class_id);
  w.u32(static_cast<std::uint32_t>(m.skills.size()));
  for (auto s : m.skills) w.u32(s);
  w.string16l(m.name);
  w.u32(m.start_area);
  w.u32(m.is_admin);
  w.u32(m.is_sentinel);
  return std::move(w).take();
}

Result<CharacterCreate> decode_character_create(std::span<const std::uint8_t> body) {
  return decode_body<CharacterCreate>(body, lo::CharacterCreate, "F656 CharacterCreate",
                                      [](ByteReader& r, CharacterCreate& m) -> Result<void> {
                                        DERETH_TRY(m.account, r.string16l("account"));
                                        DERETH_TRY(m.unknown_one, r.u32("unknown_one"));
                                        DERETH_TRY(m.heritage, r.u32("heritage"));
                                        DERETH_TRY(m.gender, r.u32("gender"));
                                        auto& a = m.appearance;
                                        for (std::uint32_t* v :
                                             {&a.eyes, &a.nose, &a.mouth, &a.hair_color, &a.eye_color, &a.hair_style,
                                              &a.headgear_style, &a.headgear_color, &a.shirt_style, &a.shirt_color,
                                              &a.pants_style, &a.pants_color, &a.footwear_style, &a.footwear_color}) {
                                          DERETH_TRY(*v, r.u32("appearance"));
                                        }
                                        for (double* v : {&a.skin_shade, &a.hair_shade, &a.headgear_shade,
                                                          &a.shirt_shade, &a.pants_shade, &a.footwear_shade}) {
                                          DERETH_TRY(*v, r.f64("appearance shade"));
                                        }
                                        DERETH_TRY(m.template_option, r.i32("template_option"));
                                        for (auto& v : m.abilities) {
                                          DERETH_TRY(v, r.u32("abilities"));
                                        }
                                        DERETH_TRY(m.slot, r.u32("slot"));
                                        DERETH_TRY(m.class_id, r.u32("class_id"));
                                        DERETH_TRY(const std::uint32_t count, r.u32("skill count"));
                                        DERETH_TRY(const std::size_t n, r.checked_count(count, 4, "skill count"));
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
  return decode_body<CharacterCreateResponse>(body, lo::CharacterCreateResponse, "F643 CharacterCreateResponse",
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
    case cr::Corrupt: return "The server found the character's choices invalid and did not create it.";
    case cr::DatabaseDown: return "The server could not save the character (its database is down); try again later.";
    case cr::DuplicateAccount: return "The server refused: the account is already creating a character.";
    case cr::NameInUse: return "That name is taken; choose another.";
    case cr::AccountInvalid: return "The server refused: the account is not valid for creating characters.";
    case cr::NameBanned: return "That name is not allowed; choose another.";
    case cr::NotAllowed: return "The server does not allow creating this character now (is every slot used?).";
    case cr::TooManyCharacters: return "The account has as many characters as it may; delete one first.";
    case cr::ServerFull: return "The server is full; try again later.";
    default: return fmt::format("The server refused to create the character (code {}).", code);
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
  return decode_body<CharacterDelete>(body, lo::CharacterDelete, "F655 CharacterDelete",
                                      [](ByteReader& r, CharacterDelete& m) -> Result<void> {
                                        DERETH_TRY(m.account, r.string16l("account"));
                                        DERETH_TRY(m.slot, r.u32("slot"));
                                        return {};
                                      });
}

}  // namespace dereth::protocol
