#pragma once
// The rules a new character must meet, as small functions both sides share:
// the creation screen calls them to say why a choice is not allowed, and the
// scenario server's F656 check (verify.hpp) calls the same ones, so the two
// never disagree. Where each rule comes from is in docs/chargen.md.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "dereth/chargen/char_gen_data.hpp"

namespace dereth::chargen {

// Each of the six abilities lies in [kAttributeMin, kAttributeMax]; their sum
// may not exceed the heritage's attribute credits (attribute_credit_total),
// which is kAttributeTotal for every retail heritage.
inline constexpr std::uint32_t kAttributeMin = 10;
inline constexpr std::uint32_t kAttributeMax = 100;
inline constexpr std::uint32_t kAttributeTotal = 330;

// A name is kNameMinLength..kNameMaxLength characters of ASCII letters,
// apostrophes, hyphens and spaces.
inline constexpr std::size_t kNameMinLength = 3;
inline constexpr std::size_t kNameMaxLength = 32;

// Why `name` is not allowed, or nullopt when it is.
[[nodiscard]] std::optional<std::string> check_name(std::string_view name);

// Why the six abilities (Strength, Endurance, Coordination, Quickness, Focus,
// Self) break the limits, or nullopt when they keep them. `total_limit` is
// attribute_credit_total for the chosen heritage.
[[nodiscard]] std::optional<std::string> check_attributes(std::span<const std::uint32_t, 6> abilities,
                                                          std::uint32_t total_limit = kAttributeTotal);

// The heritage's attribute credits (the most the six abilities may add up
// to); 0 when the CharGen has no such heritage.
[[nodiscard]] std::uint32_t attribute_credit_total(const CharGenData& data, std::uint32_t heritage);

// The heritage's skill credits; 0 when the CharGen has no such heritage.
[[nodiscard]] std::int64_t skill_credit_total(const CharGenData& data, std::uint32_t heritage);

// What training and then specialising one skill costs this heritage: the
// heritage's own entry in the CharGen when it has one (normal and primary
// cost), else the SkillTable's trained cost and its specialised cost less the
// trained cost. nullopt when the skill is not in the SkillTable.
struct SkillCost {
  std::int32_t trained = 0;
  std::int32_t specialized = 0;  // the upgrade from trained, on top of `trained`
  bool operator==(const SkillCost&) const = default;
};
[[nodiscard]] std::optional<SkillCost> skill_cost(const CharGenData& data, std::uint32_t heritage, std::uint32_t skill);

// The skill credits the choices spend: `advancement` holds one
// protocol::skill_advancement value per skill id (index = skill id). Trained
// costs the trained cost, Specialized the trained plus the specialised cost;
// Inactive and Untrained, and skills the SkillTable lacks, cost nothing.
[[nodiscard]] std::int64_t skill_credits_spent(const CharGenData& data, std::uint32_t heritage,
                                               std::span<const std::uint32_t> advancement);

}  // namespace dereth::chargen
