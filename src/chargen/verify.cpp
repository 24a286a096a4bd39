#include "dereth/chargen/verify.hpp"

#include <fmt/format.h>

#include "dereth/chargen/rules.hpp"

namespace dereth::chargen {

namespace {

namespace cr = protocol::create_response;
namespace sa = protocol::skill_advancement;

CreateVerdict refuse(std::uint32_t code, std::string reason) {
  return CreateVerdict{code, false, std::move(reason)};
}

const dat::CharGenSex* find_sex(const dat::HeritageGroup& group, std::uint32_t gender) {
  for (const auto& s : group.genders) {
    if (s.gender == gender) return &s;
  }
  return nullptr;
}

// Why `index` names no entry of a list of `size`, or nullopt.
std::optional<std::string> bad_index(std::string_view what, std::uint32_t index, std::size_t size) {
  if (index < size) return std::nullopt;
  return fmt::format("{} {} is not one of the {} the CharGen offers.", what, index, size);
}

// Clothing: a sex with no list offers no choice, so the index is not
// checked (ACE would fail on such a CharGen; the demo's has none).
std::optional<std::string> bad_gear(std::string_view what, std::uint32_t index, std::size_t size) {
  if (size == 0) return std::nullopt;
  return bad_index(what, index, size);
}

std::optional<std::string> check_appearance(const dat::CharGenSex& sex, const protocol::CharacterAppearance& a,
                                            bool clothed) {
  if (auto r = bad_index("Hair style", a.hair_style, sex.hair_styles.size())) return r;
  if (auto r = bad_index("Eye strip", a.eyes, sex.eye_strips.size())) return r;
  if (auto r = bad_index("Nose strip", a.nose, sex.nose_strips.size())) return r;
  if (auto r = bad_index("Mouth strip", a.mouth, sex.mouth_strips.size())) return r;
  if (auto r = bad_index("Hair colour", a.hair_color, sex.hair_colors.size())) return r;
  if (auto r = bad_index("Eye colour", a.eye_color, sex.eye_colors.size())) return r;
  if (!clothed) return std::nullopt;
  if (a.headgear_style != 0xFFFFFFFFU) {
    if (auto r = bad_gear("Headgear", a.headgear_style, sex.headgear.size())) return r;
  }
  if (auto r = bad_gear("Shirt", a.shirt_style, sex.shirts.size())) return r;
  if (auto r = bad_gear("Pants", a.pants_style, sex.pants.size())) return r;
  if (auto r = bad_gear("Footwear", a.footwear_style, sex.footwear.size())) return r;
  return std::nullopt;
}

}  // namespace

CreateVerdict verify_character_create(const CharGenData& data, const protocol::CharacterCreate& create,
                                      const NameTaken& name_taken, const CreateRules& rules) {
  // 1. The name: our character rule (ACE's taboo table and creature names
  //    answer NameBanned at the same point), then whether it is taken.
  if (auto why = check_name(create.name)) return refuse(cr::NameBanned, *why);
  if (name_taken && name_taken(create.name)) {
    return refuse(cr::NameInUse, fmt::format("A character named \"{}\" already exists.", create.name));
  }
  // 2. Olthoi heritages while olthoi play is off.
  const bool olthoi = create.heritage == kHeritageOlthoi || create.heritage == kHeritageOlthoiAcid;
  if (olthoi && rules.olthoi_play_disabled) {
    return refuse(cr::Pending, "Olthoi characters are disabled on this server.");
  }
  // 3. PlayerFactory.Create: heritage, sex, appearance.
  const auto* group = dat::find_heritage(data.char_gen, create.heritage);
  if (!group) return refuse(cr::Corrupt, fmt::format("Heritage {} is not in the CharGen.", create.heritage));
  const auto* sex = find_sex(*group, create.gender);
  if (!sex) {
    return refuse(cr::Corrupt, fmt::format("Heritage {} has no gender {}.", create.heritage, create.gender));
  }
  const bool clothed = !olthoi && create.heritage != kHeritageGearKnight;
  if (auto why = check_appearance(*sex, create.appearance, clothed)) return refuse(cr::Corrupt, *why);

  // Olthoi take their weenie's template, abilities and skills: none of the
  // choices below are read for them.
  if (!olthoi) {
    if (create.template_option < 0 || static_cast<std::size_t>(create.template_option) >= group->templates.size()) {
      return refuse(cr::Corrupt, fmt::format("Template {} is not one of heritage {}'s {}.", create.template_option,
                                             create.heritage, group->templates.size()));
    }
    if (auto why = check_attributes(create.abilities, group->attribute_credits)) return refuse(cr::Corrupt, *why);
    if (create.skills.size() != protocol::kCharacterCreateSkillCount) {
      CreateVerdict v = refuse(cr::Corrupt, fmt::format("The client sent {} skills, not {}: wrong client version.",
                                                        create.skills.size(), protocol::kCharacterCreateSkillCount));
      v.wrong_version = true;
      return v;
    }
    // Skills in id order, each paid for from what is left, as ACE trains
    // and specialises them one by one.
    std::int64_t available = group->skill_credits;
    for (std::size_t i = 0; i < create.skills.size(); ++i) {
      const std::uint32_t a = create.skills[i];
      if (a == sa::Inactive) continue;
      const auto skill = static_cast<std::uint32_t>(i);
      const auto cost = skill_cost(data, create.heritage, skill);
      if (!cost) return refuse(cr::Corrupt, fmt::format("Skill {} is not in the SkillTable.", skill));
      if (a != sa::Trained && a != sa::Specialized) continue;  // Untrained, or a value ACE ignores
      if (cost->trained > available) {
        return refuse(cr::Corrupt,
                      fmt::format("Training skill {} costs {} credits; {} are left.", skill, cost->trained, available));
      }
      available -= cost->trained;
      if (a == sa::Specialized) {
        if (cost->specialized > available) {
          return refuse(cr::Corrupt, fmt::format("Specialising skill {} costs {} more credits; {} are left.", skill,
                                                 cost->specialized, available));
        }
        available -= cost->specialized;
      }
    }
  }
  // 4. The start area (ACE: CharGen.StarterAreas[StartArea].Locations[0]).
  if (!starting_position(data, create.start_area)) {
    return refuse(cr::Corrupt, fmt::format("Start area {} is not one of the CharGen's {} with a location.",
                                           create.start_area, data.char_gen.starter_areas.size()));
  }
  return CreateVerdict{};
}

std::optional<dat::CharGenPosition> starting_position(const CharGenData& data, std::uint32_t start_area) {
  if (start_area >= data.char_gen.starter_areas.size()) return std::nullopt;
  const auto& area = data.char_gen.starter_areas[start_area];
  if (area.locations.empty()) return std::nullopt;
  return area.locations.front();
}

}  // namespace dereth::chargen
