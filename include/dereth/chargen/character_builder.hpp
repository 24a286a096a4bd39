#pragma once
// The model behind the character-creation screen and `dereth play --create`:
// the player's choices (heritage, sex, appearance, template, attributes,
// skills, name, town) held against the CharGen and SkillTable, the credits
// left, every invalid choice as a sentence, and the F656 they make. No SDL, no
// network. Credits and names follow chargen/rules.hpp (docs/chargen.md).

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/protocol/character_create.hpp"

// The creation rules the scenario server's F656 check shares: the builder
// asks them, so the screen and the server agree.
#include "dereth/chargen/rules.hpp"

namespace dereth::chargen {

// F656's headgear style for "no headgear".
inline constexpr std::uint32_t kNoHeadgear = 0xFFFFFFFFU;

// The ranges of the base palette the skin, hair and eye colours replace
// (gmCG3DView::Update 0x004EE9D0; ACE's player ObjDesc uses the same), in
// CharGen's units of 8 colours: skin 0..191, hair 192..255, eyes 256..319.
struct ColorRange {
  std::uint8_t offset = 0;
  std::uint8_t num_colors = 0;
};
inline constexpr ColorRange kSkinColors{0, 24};
inline constexpr ColorRange kHairColors{24, 8};
inline constexpr ColorRange kEyeColors{32, 8};

// The six attributes in F656's order.
enum class Attribute : std::uint8_t { Strength, Endurance, Coordination, Quickness, Focus, Self };
inline constexpr std::array<Attribute, 6> kAttributes{Attribute::Strength,     Attribute::Endurance,
                                                      Attribute::Coordination, Attribute::Quickness,
                                                      Attribute::Focus,        Attribute::Self};
[[nodiscard]] const char* to_string(Attribute a) noexcept;

enum class SkillClass : std::uint8_t { Untrained, Trained, Specialized };
[[nodiscard]] const char* to_string(SkillClass c) noexcept;

// Why a name is not accepted, as sentences (empty when it is): none typed,
// its length (kNameMinLength..kNameMaxLength), its characters (ASCII
// letters, spaces, apostrophes, hyphens): rules.hpp's check_name when present.
[[nodiscard]] std::vector<std::string> name_problems(std::string_view name);

class CharacterBuilder {
 public:
  // Starts on the first heritage, its first sex, its first template and its
  // first starting town. `data` must outlive the builder.
  explicit CharacterBuilder(const CharGenData& data);

  [[nodiscard]] const CharGenData& data() const noexcept { return *data_; }

  // Heritage: a CharGen heritage key. Choosing one resets the sex, the
  // appearance, the template (applied) and the starting town to its first.
  [[nodiscard]] std::vector<std::uint32_t> heritages() const;
  bool set_heritage(std::uint32_t heritage);
  [[nodiscard]] std::uint32_t heritage() const noexcept { return heritage_; }
  [[nodiscard]] const dat::HeritageGroup* heritage_group() const noexcept;

  // Sex: the gender key (1 male, 2 female). Resets the appearance.
  [[nodiscard]] std::vector<std::uint32_t> genders() const;
  bool set_gender(std::uint32_t gender);
  [[nodiscard]] std::uint32_t gender() const noexcept { return gender_; }
  [[nodiscard]] const dat::CharGenSex* sex() const noexcept;

  // Appearance: indices into the sex's lists and the six shades (0..1).
  [[nodiscard]] const protocol::CharacterAppearance& appearance() const noexcept { return appearance_; }
  void set_appearance(const protocol::CharacterAppearance& a) { appearance_ = a; }
  // The ObjDesc the preview draws: the sex's base palette; the sex's own
  // ObjDesc, then the hair style's, the eye strip's (its bald variant under
  // a bald style), the nose's and the mouth's, in that order; then the skin
  // colour (the skin PaletteSet's palette at the skin shade), the hair
  // colour (the chosen hair PaletteSet's at the hair shade) and the eye
  // colour as subpalettes in kSkinColors, kHairColors and kEyeColors.
  [[nodiscard]] dat::CharGenObjDesc preview_obj_desc() const;
  // The Setup the preview draws: the hair style's alternate setup, else the sex's.
  [[nodiscard]] dat::Did preview_setup() const;

  // Template: an index into the heritage's templates. Choosing one sets the
  // six attributes and the trained and specialised skills it names; every
  // other skill becomes untrained. The player may change them afterwards.
  bool set_template(std::size_t index);
  [[nodiscard]] std::optional<std::size_t> template_index() const noexcept { return template_; }

  void set_attribute(Attribute a, std::uint32_t value) { attributes_[static_cast<std::size_t>(a)] = value; }
  [[nodiscard]] std::uint32_t attribute(Attribute a) const { return attributes_[static_cast<std::size_t>(a)]; }
  [[nodiscard]] std::uint32_t attribute_total() const noexcept;
  [[nodiscard]] std::uint32_t attribute_credits() const noexcept;  // the heritage's
  [[nodiscard]] std::int64_t attribute_credits_left() const noexcept;

  // The skills the SkillTable lists, by skill number.
  [[nodiscard]] std::vector<std::uint32_t> skills() const;
  [[nodiscard]] std::string skill_name(std::uint32_t skill) const;
  [[nodiscard]] std::optional<SkillCost> skill_cost(std::uint32_t skill) const;
  // False (nothing changes) for a skill the SkillTable lacks.
  bool set_skill(std::uint32_t skill, SkillClass c);
  [[nodiscard]] SkillClass skill(std::uint32_t skill) const;
  [[nodiscard]] std::int64_t skill_credits_spent() const;
  [[nodiscard]] std::uint32_t skill_credits() const noexcept;  // the heritage's
  [[nodiscard]] std::int64_t skill_credits_left() const {
    return std::int64_t{skill_credits()} - skill_credits_spent();
  }

  void set_name(std::string name) { name_ = std::move(name); }
  [[nodiscard]] const std::string& name() const noexcept { return name_; }

  // Starting towns: indices into CharGen's starter areas the heritage offers
  // (its primary ones, then its secondary ones).
  [[nodiscard]] std::vector<std::uint32_t> start_areas() const;
  bool set_start_area(std::uint32_t index);
  [[nodiscard]] std::uint32_t start_area() const noexcept { return start_area_; }
  [[nodiscard]] std::string start_area_name(std::uint32_t index) const;

  // Every invalid choice as one sentence for the player; empty when the
  // character can be sent.
  [[nodiscard]] std::vector<std::string> problems() const;

  // The F656 for these choices: `account` as the character list spelled it,
  // `slot` the list slot it goes in; exactly kCharacterCreateSkillCount
  // skill entries (Inactive for a skill number the SkillTable lacks,
  // Untrained / Trained / Specialized for the others).
  [[nodiscard]] protocol::CharacterCreate to_message(const std::string& account, std::uint32_t slot) const;

 private:
  // F656's 55 advancement classes (index = skill id): Inactive for a skill
  // the SkillTable lacks. What the message sends and what the credits count.
  [[nodiscard]] std::vector<std::uint32_t> advancement() const;
  void reset_appearance();

  const CharGenData* data_;
  std::uint32_t heritage_ = 0;
  std::uint32_t gender_ = 0;
  protocol::CharacterAppearance appearance_;
  std::optional<std::size_t> template_;
  std::array<std::uint32_t, 6> attributes_{kAttributeMin, kAttributeMin, kAttributeMin,
                                           kAttributeMin, kAttributeMin, kAttributeMin};
  std::map<std::uint32_t, SkillClass> skills_;  // only trained and specialised ones
  std::string name_;
  std::uint32_t start_area_ = 0;
};

}  // namespace dereth::chargen
