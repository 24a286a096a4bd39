#pragma once
// The server's check of an F656 CharacterCreate against the CharGen and
// SkillTable, in the order ACE makes it (docs/chargen.md lists each rule and
// its source). The scenario server answers F643 with the verdict's code; the
// reason is a sentence for its log, never sent to the client.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/protocol/character_create.hpp"

namespace dereth::chargen {

// Heritage numbers with rules of their own (ACE's HeritageGroup).
inline constexpr std::uint32_t kHeritageGearKnight = 6;
inline constexpr std::uint32_t kHeritageOlthoi = 12;
inline constexpr std::uint32_t kHeritageOlthoiAcid = 13;

struct CreateVerdict {
  std::uint32_t code = protocol::create_response::Ok;  // the F643 code
  // The skill count was not kCharacterCreateSkillCount: ACE sends no F643
  // and boots the client as the wrong version (code is Corrupt then).
  bool wrong_version = false;
  std::string reason;  // why it was refused; empty when Ok
  [[nodiscard]] bool ok() const noexcept { return code == protocol::create_response::Ok; }
};

struct CreateRules {
  // ACE's olthoi_play_disabled (false by default): olthoi heritages are
  // answered Pending.
  bool olthoi_play_disabled = false;
};

// True when a living (not deleted, not pending deletion) character already
// has the name.
using NameTaken = std::function<bool(std::string_view name)>;

[[nodiscard]] CreateVerdict verify_character_create(const CharGenData& data, const protocol::CharacterCreate& create,
                                                    const NameTaken& name_taken, const CreateRules& rules = {});

// Where a character made with `start_area` enters the world: the CharGen
// starter area's first location; nullopt when there is no such area or it
// has no location.
[[nodiscard]] std::optional<dat::CharGenPosition> starting_position(const CharGenData& data, std::uint32_t start_area);

}  // namespace dereth::chargen
