#include "dereth/chargen/rules.hpp"

#include <fmt/format.h>

#include "dereth/protocol/character_create.hpp"

namespace dereth::chargen {

namespace {

constexpr std::array<const char*, 6> kAbilityNames = {"Strength",  "Endurance", "Coordination",
                                                      "Quickness", "Focus",     "Self"};

bool is_name_char(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '\'' || c == '-' || c == ' ';
}

}  // namespace

std::optional<std::string> check_name(std::string_view name) {
  if (name.size() < kNameMinLength) {
    return fmt::format("A name needs at least {} letters.", kNameMinLength);
  }
  if (name.size() > kNameMaxLength) {
    return fmt::format("A name may have at most {} letters.", kNameMaxLength);
  }
  for (const char c : name) {
    if (!is_name_char(c)) {
      return std::string("A name may hold only letters, apostrophes, hyphens and spaces.");
    }
  }
  return std::nullopt;
}

std::optional<std::string> check_attributes(std::span<const std::uint32_t, 6> abilities, std::uint32_t total_limit) {
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < abilities.size(); ++i) {
    if (abilities[i] < kAttributeMin || abilities[i] > kAttributeMax) {
      return fmt::format("{} is {}; each ability must lie between {} and {}.", kAbilityNames[i], abilities[i],
                         kAttributeMin, kAttributeMax);
    }
    total += abilities[i];
  }
  if (total > total_limit) {
    return fmt::format("The abilities add up to {}, more than the {} this heritage allows.", total, total_limit);
  }
  return std::nullopt;
}

std::uint32_t attribute_credit_total(const CharGenData& data, std::uint32_t heritage) {
  const auto* group = dat::find_heritage(data.char_gen, heritage);
  return group ? group->attribute_credits : 0;
}

std::int64_t skill_credit_total(const CharGenData& data, std::uint32_t heritage) {
  const auto* group = dat::find_heritage(data.char_gen, heritage);
  return group ? std::int64_t{group->skill_credits} : 0;
}

std::optional<SkillCost> skill_cost(const CharGenData& data, std::uint32_t heritage, std::uint32_t skill) {
  const auto* base = dat::find_skill(data.skill_table, skill);
  if (!base) return std::nullopt;
  // The table's specialised cost includes the trained cost: specialising a
  // trained skill costs the difference (ACE: SkillBase.cs:31,
  // PlayerFactory.cs:184-185); a heritage's own entry gives the upgrade as is.
  SkillCost cost{base->trained_cost, base->specialized_cost - base->trained_cost};
  if (const auto* group = dat::find_heritage(data.char_gen, heritage)) {
    for (const auto& s : group->skills) {
      if (s.skill == skill) {
        cost = SkillCost{s.normal_cost, s.primary_cost};
        break;
      }
    }
  }
  return cost;
}

std::int64_t skill_credits_spent(const CharGenData& data, std::uint32_t heritage,
                                 std::span<const std::uint32_t> advancement) {
  namespace sa = protocol::skill_advancement;
  std::int64_t spent = 0;
  for (std::size_t i = 0; i < advancement.size(); ++i) {
    const std::uint32_t a = advancement[i];
    if (a != sa::Trained && a != sa::Specialized) continue;
    const auto cost = skill_cost(data, heritage, static_cast<std::uint32_t>(i));
    if (!cost) continue;
    spent += cost->trained;
    if (a == sa::Specialized) spent += cost->specialized;
  }
  return spent;
}

}  // namespace dereth::chargen
