#include "dereth/chargen/character_builder.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

#include <fmt/format.h>

#include "dereth/demo/demo_world.hpp"

using namespace dereth;
using chargen::Attribute;
using chargen::CharacterBuilder;
using chargen::SkillClass;
namespace sa = protocol::skill_advancement;

namespace {

const chargen::CharGenData& demo_data() {
  static const chargen::CharGenData data = [] {
    auto world = demo::build_demo_world();
    REQUIRE(world);
    auto portal = dat::DatFile::from_bytes(world->portal, "client_portal.dat");
    REQUIRE(portal);
    dat::RecordCache records(&*portal);
    auto d = chargen::load_char_gen_data(records);
    REQUIRE(d);
    return std::move(*d);
  }();
  return data;
}

bool mentions(const std::vector<std::string>& sentences, const std::string& part) {
  return std::any_of(sentences.begin(), sentences.end(),
                     [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

// Skill numbers the demo's SkillTable holds (src/demo/demo_world.cpp).
constexpr std::uint32_t kMeleeDefense = 6;
constexpr std::uint32_t kMagicDefense = 15;
constexpr std::uint32_t kJump = 22;
constexpr std::uint32_t kRun = 24;
constexpr std::uint32_t kWarMagic = 34;
constexpr std::uint32_t kLightWeapons = 45;

}  // namespace

TEST_CASE("CharacterBuilder starts on the first heritage with its first template applied", "[chargen][builder]") {
  CharacterBuilder b(demo_data());
  const auto& h = demo_data().char_gen.heritage_groups.front();
  REQUIRE(b.heritage_group() != nullptr);
  CHECK(b.heritage() == h.heritage);
  CHECK(b.gender() == 1);
  REQUIRE(b.template_index() == std::optional<std::size_t>{0});
  const auto& t = h.templates.front();
  CHECK(b.attribute(Attribute::Strength) == t.strength);
  CHECK(b.attribute(Attribute::Self) == t.self);
  CHECK(b.attribute_total() == 330);
  CHECK(b.attribute_credits_left() == 0);
  CHECK(b.skill(kJump) == SkillClass::Trained);
  CHECK(b.skill(kRun) == SkillClass::Trained);
  CHECK(b.skill(kWarMagic) == SkillClass::Specialized);
  CHECK(b.skill(kMagicDefense) == SkillClass::Untrained);
  // War Magic specialised: trained plus specialised; Jump and Run train free.
  const auto war = b.skill_cost(kWarMagic);
  REQUIRE(war);
  CHECK(war->trained == 16);
  const std::int64_t war_spec = war->trained + war->specialized;
  CHECK(b.skill_cost(kJump) == chargen::SkillCost{0, b.skill_cost(kJump)->specialized});
  CHECK(b.skill_credits_spent() == war_spec);
  CHECK(b.skill_credits_left() == 50 - war_spec);
  // Only the name is missing.
  const auto p = b.problems();
  REQUIRE(p.size() == 1);
  CHECK(p.front() == "Type a name for the character.");
}

TEST_CASE("CharacterBuilder: a template's values can be changed, and overspending says why in words",
          "[chargen][builder]") {
  CharacterBuilder b(demo_data());
  b.set_name("Brave Tester");
  REQUIRE(b.problems().empty());

  b.set_attribute(Attribute::Strength, 70);  // 340 in all
  CHECK(b.attribute_credits_left() == -10);
  CHECK(mentions(b.problems(), "The attributes use 340 credits; Wayfarers have 330."));
  b.set_attribute(Attribute::Endurance, 50);
  CHECK(b.problems().empty());

  b.set_attribute(Attribute::Focus, 5);
  CHECK(mentions(b.problems(), "Focus must be between 10 and 100 (it is 5)."));
  b.set_attribute(Attribute::Focus, 101);
  CHECK(mentions(b.problems(), "Focus must be between 10 and 100 (it is 101)."));
  b.set_attribute(Attribute::Focus, 50);

  // Without War Magic: Magic Defense (12) and Light Weapons (6) trained, 18 of 50.
  CHECK(b.set_skill(kWarMagic, SkillClass::Untrained));
  CHECK(b.skill_credits_spent() == 0);
  CHECK(b.set_skill(kMagicDefense, SkillClass::Trained));
  CHECK(b.set_skill(kLightWeapons, SkillClass::Trained));
  CHECK(b.skill_credits_spent() == 18);
  CHECK(b.problems().empty());
  // Melee Defense is the heritage's own: its normal cost trains it, its
  // primary cost comes on top to specialise it.
  REQUIRE(b.skill_cost(kMeleeDefense));
  CHECK(b.skill_cost(kMeleeDefense) == chargen::SkillCost{10, 20});
  CHECK(b.set_skill(kMeleeDefense, SkillClass::Specialized));
  CHECK(b.skill_credits_spent() == 48);
  CHECK(b.problems().empty());
  CHECK(b.set_skill(kLightWeapons, SkillClass::Specialized));  // 6 more at least
  CHECK(b.skill_credits_spent() > 50);
  CHECK(mentions(b.problems(), fmt::format("The skills cost {} credits; Wayfarers have 50.", b.skill_credits_spent())));
  CHECK(b.set_skill(kLightWeapons, SkillClass::Untrained));
  CHECK(b.problems().empty());
  // A skill the SkillTable lacks cannot be chosen.
  CHECK_FALSE(b.set_skill(1, SkillClass::Trained));
  CHECK(b.skill(1) == SkillClass::Untrained);

  // Choosing the template again puts its values back.
  CHECK(b.set_template(0));
  CHECK(b.attribute(Attribute::Strength) == 60);
  CHECK(b.skill(kWarMagic) == SkillClass::Specialized);
  CHECK(b.skill(kMeleeDefense) == SkillClass::Untrained);
  CHECK_FALSE(b.set_template(5));
}

TEST_CASE("CharacterBuilder: names are checked for length and characters", "[chargen][builder]") {
  CHECK(chargen::name_problems("Aerfalle").empty());
  CHECK(chargen::name_problems("Ser Kell-o'Dun").empty());
  CHECK(chargen::name_problems(std::string(32, 'a')).empty());
  CHECK(chargen::name_problems("") == std::vector<std::string>{"Type a name for the character."});
  CHECK_FALSE(chargen::name_problems("Al").empty());
  CHECK_FALSE(chargen::name_problems(std::string(33, 'a')).empty());
  CHECK_FALSE(chargen::name_problems("R2D2").empty());
  CHECK_FALSE(chargen::name_problems("Ann.Lee").empty());
  CHECK_FALSE(chargen::name_problems("\xC3\xA9lan").empty());  // not ASCII
}

TEST_CASE("CharacterBuilder: appearance, sex and starting town choices are checked against CharGen",
          "[chargen][builder]") {
  CharacterBuilder b(demo_data());
  b.set_name("Aerfalle");
  CHECK(b.set_gender(2));
  CHECK_FALSE(b.set_gender(7));
  CHECK(b.gender() == 2);
  auto a = b.appearance();
  a.hair_style = 1;  // the demo's second style is bald
  b.set_appearance(a);
  CHECK(b.problems().empty());
  // The bald style shows the eye strip's bald ObjDesc.
  const auto desc = b.preview_obj_desc();
  const auto& sex = demo_data().char_gen.heritage_groups.front().genders.front();
  REQUIRE_FALSE(desc.texture_changes.empty());
  CHECK(std::any_of(desc.texture_changes.begin(), desc.texture_changes.end(),
                    [&](const auto& t) { return t == sex.eye_strips.front().bald_obj_desc.texture_changes.front(); }));
  CHECK(b.preview_setup() == sex.setup);
  a.hair_style = 2;
  a.eyes = 4;
  a.skin_shade = 1.5;
  b.set_appearance(a);
  const auto p = b.problems();
  CHECK(mentions(p, "The hair style choice 3 is not one of the 2 offered."));
  CHECK(mentions(p, "The eyes choice 5 is not one of the 1 offered."));
  CHECK(mentions(p, "A shade must lie between 0 and 1."));
  CHECK(b.start_areas() == std::vector<std::uint32_t>{0});
  CHECK(b.start_area_name(0) == "Demo Crossing");
  CHECK_FALSE(b.set_start_area(3));
  CHECK_FALSE(b.set_heritage(99));
}

TEST_CASE("CharacterBuilder::to_message: 55 skill entries, Inactive for skills the SkillTable lacks",
          "[chargen][builder]") {
  CharacterBuilder b(demo_data());
  b.set_name("Aerfalle");
  b.set_skill(kMagicDefense, SkillClass::Trained);
  const auto m = b.to_message("TestAccount", 2);
  CHECK(m.account == "TestAccount");
  CHECK(m.unknown_one == 1);
  CHECK(m.heritage == 1);
  CHECK(m.gender == 1);
  CHECK(m.slot == 2);
  CHECK(m.template_option == 0);
  CHECK(m.abilities == std::array<std::uint32_t, 6>{60, 60, 50, 50, 50, 60});
  CHECK(m.name == "Aerfalle");
  CHECK(m.start_area == 0);
  REQUIRE(m.skills.size() == protocol::kCharacterCreateSkillCount);
  CHECK(m.skills[kJump] == sa::Trained);
  CHECK(m.skills[kRun] == sa::Trained);
  CHECK(m.skills[kWarMagic] == sa::Specialized);
  CHECK(m.skills[kMagicDefense] == sa::Trained);
  CHECK(m.skills[kMeleeDefense] == sa::Untrained);
  CHECK(m.skills[kLightWeapons] == sa::Untrained);
  CHECK(m.skills[0] == sa::Inactive);
  CHECK(m.skills[1] == sa::Inactive);
  CHECK(m.skills[54] == sa::Inactive);
  // The demo sexes offer one cap: the first is worn unless taken off.
  CHECK(m.appearance.headgear_style == 0);
  // A sex with no headgear list sends none.
  auto bare = demo_data();
  for (auto& sex : bare.char_gen.heritage_groups.front().genders) sex.headgear.clear();
  CharacterBuilder nothing_on(bare);
  nothing_on.set_name("Aerfalle");
  CHECK(nothing_on.to_message("TestAccount", 2).appearance.headgear_style == chargen::kNoHeadgear);
}

TEST_CASE(
    "gmCG3DView::Update 0x004EE9D0: the preview's ObjDesc has the sex's base palette and the skin, hair and "
    "eye colours as subpalettes in retail's ranges",
    "[chargen][builder][palette][retail]") {
  const auto& data = demo_data();
  CharacterBuilder b(data);
  const auto& sex = *b.sex();
  REQUIRE(data.palette_sets.contains(sex.skin_palette_set));
  const auto& skins = data.palette_sets.at(sex.skin_palette_set).palettes;
  REQUIRE(skins.size() >= 2);
  REQUIRE(sex.hair_colors.size() >= 2);
  REQUIRE(sex.eye_colors.size() >= 2);
  const auto subs = [&](double skin, std::uint32_t hair_color, double hair, std::uint32_t eye_color) {
    auto a = b.appearance();
    a.skin_shade = skin;
    a.hair_color = hair_color;
    a.hair_shade = hair;
    a.eye_color = eye_color;
    b.set_appearance(a);
    const auto d = b.preview_obj_desc();
    CHECK(d.palette == sex.base_palette);
    return d.subpalettes;
  };
  // Skin 0..191 (offset 0, 24 x 8), hair 192..255 (24, 8), eyes 256..319 (32, 8); a shade picks a set's palette
  // at floor((n - 0.000001) * shade) (PalSet::GetPaletteID 0x005AC570).
  const auto& hair0 = data.palette_sets.at(sex.hair_colors[0]).palettes;
  const auto& hair1 = data.palette_sets.at(sex.hair_colors[1]).palettes;
  CHECK(subs(0.0, 0, 0.0, 0) == std::vector<dat::CharGenSubPalette>{
                                    {skins.front(), 0, 24}, {hair0.front(), 24, 8}, {sex.eye_colors[0], 32, 8}});
  CHECK(subs(1.0, 1, 1.0, 1) ==
        std::vector<dat::CharGenSubPalette>{{skins.back(), 0, 24}, {hair1.back(), 24, 8}, {sex.eye_colors[1], 32, 8}});
  // The skin and hair palettes differ in their ranges: the choice is visible.
  CHECK(skins.front() != skins.back());
  CHECK(hair0.front() != hair1.front());
  // Past the lists (the problems say so), no hair or eye subpalette.
  CHECK(subs(0.0, 99, 0.0, 99).size() == 1);
}

TEST_CASE(
    "load_char_gen_data reads the PaletteSets the CharGen names, and a builder without them adds no skin or "
    "hair subpalette",
    "[chargen][palette]") {
  const auto& data = demo_data();
  for (const auto& h : data.char_gen.heritage_groups) {
    for (const auto& sex : h.genders) {
      CHECK(data.palette_sets.contains(sex.skin_palette_set));
      for (const auto id : sex.hair_colors) CHECK(data.palette_sets.contains(id));
    }
  }
  // A builder over CharGen data without its PaletteSets adds no skin or hair subpalette.
  chargen::CharGenData bare = data;
  bare.palette_sets.clear();
  CharacterBuilder b(bare);
  const auto d = b.preview_obj_desc();
  REQUIRE(d.subpalettes.size() == 1);  // the eye colour, a Palette of its own
  CHECK(d.subpalettes[0].offset == 32);
}
