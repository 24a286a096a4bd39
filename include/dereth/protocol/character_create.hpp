#pragma once
// Character creation and deletion (docs/protocol.md, "Creating and deleting
// characters"): F656 CharacterCreate and F655 CharacterDelete from the
// client, F643 CharacterCreateResponse from the server. Each has a writer and
// a reader: the client writes what the scenario server reads and the other
// way round. Wire layouts are in docs/protocol.md.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "dereth/protocol/types.hpp"

namespace dereth::protocol {

namespace login_opcode {
inline constexpr std::uint32_t CharacterCreate = 0xF656;
inline constexpr std::uint32_t CharacterDelete = 0xF655;
inline constexpr std::uint32_t CharacterCreateResponse = 0xF643;
}  // namespace login_opcode

// The number of skill entries F656 carries; a server boots a client that
// sends another count as the wrong version.
inline constexpr std::uint32_t kCharacterCreateSkillCount = 55;

// A skill's advancement class as F656 carries it (SkillAdvancementClass).
namespace skill_advancement {
inline constexpr std::uint32_t Inactive = 0;
inline constexpr std::uint32_t Untrained = 1;
inline constexpr std::uint32_t Trained = 2;
inline constexpr std::uint32_t Specialized = 3;
}  // namespace skill_advancement

// The appearance choices: indices into the CharGen sex's strips and lists,
// then the six shades (0..1) of the palette sets.
struct CharacterAppearance {
  std::uint32_t eyes = 0;
  std::uint32_t nose = 0;
  std::uint32_t mouth = 0;
  std::uint32_t hair_color = 0;
  std::uint32_t eye_color = 0;
  std::uint32_t hair_style = 0;
  std::uint32_t headgear_style = 0;
  std::uint32_t headgear_color = 0;
  std::uint32_t shirt_style = 0;
  std::uint32_t shirt_color = 0;
  std::uint32_t pants_style = 0;
  std::uint32_t pants_color = 0;
  std::uint32_t footwear_style = 0;
  std::uint32_t footwear_color = 0;
  double skin_shade = 0;
  double hair_shade = 0;
  double headgear_shade = 0;
  double shirt_shade = 0;
  double pants_shade = 0;
  double footwear_shade = 0;
  bool operator==(const CharacterAppearance&) const = default;
};

// F656 CharacterCreate. The decoder takes any skill count the bytes hold;
// a count other than kCharacterCreateSkillCount is the server's check to
// refuse (chargen::verify_character_create).
struct CharacterCreate {
  std::string account;  // exactly as the character list spelled it
  std::uint32_t unknown_one = 1;
  std::uint32_t heritage = 0;
  std::uint32_t gender = 0;
  CharacterAppearance appearance;
  std::int32_t template_option = 0;
  // Strength, Endurance, Coordination, Quickness, Focus, Self.
  std::array<std::uint32_t, 6> abilities{};
  std::uint32_t slot = 0;
  std::uint32_t class_id = 0;
  std::vector<std::uint32_t> skills;  // skill_advancement per skill id, index = skill id
  std::string name;
  std::uint32_t start_area = 0;
  std::uint32_t is_admin = 0;     // 1 asks for an admin character
  std::uint32_t is_sentinel = 0;  // 1 asks for a sentinel character
  bool operator==(const CharacterCreate&) const = default;
};
std::vector<std::uint8_t> encode(const CharacterCreate& m);
Result<CharacterCreate> decode_character_create(std::span<const std::uint8_t> body);

// F643 CharacterCreateResponse codes (CharacterGenerationVerificationResponse).
// A full server or a shutdown is not an F643 code: the server answers F656
// with F659 CharacterError 0x15 (LogonServerFull) instead.
namespace create_response {
inline constexpr std::uint32_t Undefined = 0;
inline constexpr std::uint32_t Ok = 1;
inline constexpr std::uint32_t Pending = 2;  // ACE: heritage closed to players (olthoi)
inline constexpr std::uint32_t NameInUse = 3;
inline constexpr std::uint32_t NameBanned = 4;
inline constexpr std::uint32_t Corrupt = 5;
inline constexpr std::uint32_t DatabaseDown = 6;
inline constexpr std::uint32_t AdminPrivilegeDenied = 7;
}  // namespace create_response

// F643 CharacterCreateResponse: the code, then only when it is Ok the new
// character's guid, its name and a u32 (the list's seconds-greyed-out
// field; ACE always sends 0).
struct CharacterCreateResponse {
  std::uint32_t response = 0;
  std::uint32_t guid = 0;
  std::string name;
  std::uint32_t seconds_greyed_out = 0;
  bool operator==(const CharacterCreateResponse&) const = default;
};
std::vector<std::uint8_t> encode(const CharacterCreateResponse& m);
Result<CharacterCreateResponse> decode_character_create_response(std::span<const std::uint8_t> body);
// One sentence for the player about an F643 code (our own words; unknown
// codes name the number).
std::string describe_create_response(std::uint32_t code);

// F655 CharacterDelete from the client: the account as the list spelled it
// and the slot (the character's index in the F658 list). The server answers
// with a bare F655 (encode_opcode_only) and then a fresh F658 in which the
// character has a non-zero seconds_greyed_out (pending deletion); a refusal
// is F659 CharacterError 0x06 instead.
struct CharacterDelete {
  std::string account;
  std::uint32_t slot = 0;
  bool operator==(const CharacterDelete&) const = default;
};
std::vector<std::uint8_t> encode(const CharacterDelete& m);
Result<CharacterDelete> decode_character_delete(std::span<const std::uint8_t> body);

}  // namespace dereth::protocol
