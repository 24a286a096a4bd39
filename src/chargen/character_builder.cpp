#include "dereth/chargen/character_builder.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dereth::chargen {

const char* to_string(Attribute a) noexcept {
  switch (a) {
    case Attribute::Strength: return "Strength";
    case Attribute::Endurance: return "Endurance";
    case Attribute::Coordination: return "Coordination";
    case Attribute::Quickness: return "Quickness";
    case Attribute::Focus: return "Focus";
    case Attribute::Self: return "Self";
  }
  return "?";
}

const char* to_string(SkillClass c) noexcept {
  switch (c) {
    case SkillClass::Untrained: return "untrained";
    case SkillClass::Trained: return "trained";
    case SkillClass::Specialized: return "specialised";
  }
  return "?";
}

namespace {

// ObjDesc::operator+= 0x005AC0A0: the lists appended, the palette id kept.
void append(dat::CharGenObjDesc& to, const dat::CharGenObjDesc& from) {
  to.subpalettes.insert(to.subpalettes.end(), from.subpalettes.begin(), from.subpalettes.end());
  to.texture_changes.insert(to.texture_changes.end(), from.texture_changes.begin(), from.texture_changes.end());
  to.part_changes.insert(to.part_changes.end(), from.part_changes.begin(), from.part_changes.end());
}

}  // namespace

std::vector<std::string> name_problems(std::string_view name) {
  std::vector<std::string> out;
  if (name.empty()) {
    out.emplace_back("Type a name for the character.");
    return out;
  }
  if (auto why = check_name(name)) out.push_back(std::move(*why));
  return out;
}

CharacterBuilder::CharacterBuilder(const CharGenData& data) : data_(&data) {
  const auto hs = heritages();
  if (!hs.empty()) set_heritage(hs.front());
}

std::vector<std::uint32_t> CharacterBuilder::heritages() const {
  std::vector<std::uint32_t> out;
  for (const auto& h : data_->char_gen.heritage_groups) out.push_back(h.heritage);
  std::sort(out.begin(), out.end());
  return out;
}

const dat::HeritageGroup* CharacterBuilder::heritage_group() const noexcept {
  return dat::find_heritage(data_->char_gen, heritage_);
}

bool CharacterBuilder::set_heritage(std::uint32_t heritage) {
  const auto* h = dat::find_heritage(data_->char_gen, heritage);
  if (h == nullptr) return false;
  heritage_ = heritage;
  const auto gs = genders();
  gender_ = gs.empty() ? 0 : gs.front();
  reset_appearance();
  template_.reset();
  skills_.clear();
  if (!h->templates.empty()) set_template(0);
  const auto areas = start_areas();
  start_area_ = areas.empty() ? 0 : areas.front();
  return true;
}

std::vector<std::uint32_t> CharacterBuilder::genders() const {
  std::vector<std::uint32_t> out;
  if (const auto* h = heritage_group()) {
    for (const auto& s : h->genders) out.push_back(s.gender);
  }
  std::sort(out.begin(), out.end());
  return out;
}

const dat::CharGenSex* CharacterBuilder::sex() const noexcept {
  const auto* h = heritage_group();
  if (h == nullptr) return nullptr;
  for (const auto& s : h->genders) {
    if (s.gender == gender_) return &s;
  }
  return nullptr;
}

bool CharacterBuilder::set_gender(std::uint32_t gender) {
  const auto gs = genders();
  if (std::find(gs.begin(), gs.end(), gender) == gs.end()) return false;
  gender_ = gender;
  reset_appearance();
  return true;
}

void CharacterBuilder::reset_appearance() {
  appearance_ = {};
  const auto* s = sex();
  if (s != nullptr && s->headgear.empty()) appearance_.headgear_style = kNoHeadgear;
}

dat::Did CharacterBuilder::preview_setup() const {
  const auto* s = sex();
  if (s == nullptr) {
    const auto* h = heritage_group();
    return h != nullptr ? h->setup : 0;
  }
  if (appearance_.hair_style < s->hair_styles.size() && s->hair_styles[appearance_.hair_style].alternate_setup != 0) {
    return s->hair_styles[appearance_.hair_style].alternate_setup;
  }
  return s->setup;
}

// gmCG3DView::Update 0x004EE9D0 (the ObjDesc it builds; clothing not yet)
dat::CharGenObjDesc CharacterBuilder::preview_obj_desc() const {
  dat::CharGenObjDesc out;
  const auto* s = sex();
  if (s == nullptr) return out;
  out.palette = s->base_palette;
  append(out, s->obj_desc);
  bool bald = false;
  if (appearance_.hair_style < s->hair_styles.size()) {
    const auto& hair = s->hair_styles[appearance_.hair_style];
    bald = hair.bald != 0;
    append(out, hair.obj_desc);
  }
  if (appearance_.eyes < s->eye_strips.size()) {
    const auto& eyes = s->eye_strips[appearance_.eyes];
    append(out, bald ? eyes.bald_obj_desc : eyes.obj_desc);
  }
  if (appearance_.nose < s->nose_strips.size()) append(out, s->nose_strips[appearance_.nose].obj_desc);
  if (appearance_.mouth < s->mouth_strips.size()) append(out, s->mouth_strips[appearance_.mouth].obj_desc);
  // Skin, hair and eye colours as subpalettes of the base palette, in
  // retail's ranges: skin colours 0..191, hair 192..255, eyes 256..319
  // (CharGen units of 8 colours). A PaletteSet that did not load adds none.
  const auto shaded = [&](dat::Did set_id, double shade) -> dat::Did {
    const auto it = data_->palette_sets.find(set_id);
    return it == data_->palette_sets.end() ? 0 : dat::palette_for_shade(it->second, static_cast<float>(shade));
  };
  if (const dat::Did skin = shaded(s->skin_palette_set, appearance_.skin_shade); skin != 0) {
    out.subpalettes.push_back({skin, kSkinColors.offset, kSkinColors.num_colors});
  }
  if (appearance_.hair_color < s->hair_colors.size()) {
    if (const dat::Did hair = shaded(s->hair_colors[appearance_.hair_color], appearance_.hair_shade); hair != 0) {
      out.subpalettes.push_back({hair, kHairColors.offset, kHairColors.num_colors});
    }
  }
  if (appearance_.eye_color < s->eye_colors.size() && s->eye_colors[appearance_.eye_color] != 0) {
    out.subpalettes.push_back({s->eye_colors[appearance_.eye_color], kEyeColors.offset, kEyeColors.num_colors});
  }
  return out;
}

bool CharacterBuilder::set_template(std::size_t index) {
  const auto* h = heritage_group();
  if (h == nullptr || index >= h->templates.size()) return false;
  const auto& t = h->templates[index];
  template_ = index;
  attributes_ = {t.strength, t.endurance, t.coordination, t.quickness, t.focus, t.self};
  skills_.clear();
  for (auto s : t.normal_skills) skills_[s] = SkillClass::Trained;
  for (auto s : t.primary_skills) skills_[s] = SkillClass::Specialized;
  return true;
}

std::uint32_t CharacterBuilder::attribute_total() const noexcept {
  std::uint32_t total = 0;
  for (auto v : attributes_) total += v;
  return total;
}

std::uint32_t CharacterBuilder::attribute_credits() const noexcept {
  const auto* h = heritage_group();
  return h != nullptr ? h->attribute_credits : 0;
}

std::int64_t CharacterBuilder::attribute_credits_left() const noexcept {
  return std::int64_t{attribute_credits()} - std::int64_t{attribute_total()};
}

std::vector<std::uint32_t> CharacterBuilder::skills() const {
  std::vector<std::uint32_t> out;
  for (const auto& e : data_->skill_table.skills) out.push_back(e.skill);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string CharacterBuilder::skill_name(std::uint32_t skill) const {
  const auto* b = dat::find_skill(data_->skill_table, skill);
  return b != nullptr ? b->name : fmt::format("skill {}", skill);
}

std::optional<SkillCost> CharacterBuilder::skill_cost(std::uint32_t skill) const {
  return chargen::skill_cost(*data_, heritage_, skill);
}

bool CharacterBuilder::set_skill(std::uint32_t skill, SkillClass c) {
  if (dat::find_skill(data_->skill_table, skill) == nullptr) return false;
  if (c == SkillClass::Untrained) {
    skills_.erase(skill);
  } else {
    skills_[skill] = c;
  }
  return true;
}

SkillClass CharacterBuilder::skill(std::uint32_t skill) const {
  const auto it = skills_.find(skill);
  return it == skills_.end() ? SkillClass::Untrained : it->second;
}

std::int64_t CharacterBuilder::skill_credits_spent() const {
  return chargen::skill_credits_spent(*data_, heritage_, advancement());
}

std::uint32_t CharacterBuilder::skill_credits() const noexcept {
  const auto* h = heritage_group();
  return h != nullptr ? h->skill_credits : 0;
}

std::vector<std::uint32_t> CharacterBuilder::start_areas() const {
  std::vector<std::uint32_t> out;
  const auto* h = heritage_group();
  if (h == nullptr) return out;
  auto add = [&](std::uint32_t i) {
    if (i < data_->char_gen.starter_areas.size() && std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
  };
  for (auto i : h->primary_start_areas) add(i);
  for (auto i : h->secondary_start_areas) add(i);
  return out;
}

bool CharacterBuilder::set_start_area(std::uint32_t index) {
  const auto areas = start_areas();
  if (std::find(areas.begin(), areas.end(), index) == areas.end()) return false;
  start_area_ = index;
  return true;
}

std::string CharacterBuilder::start_area_name(std::uint32_t index) const {
  if (index < data_->char_gen.starter_areas.size()) return data_->char_gen.starter_areas[index].name;
  return fmt::format("town {}", index);
}

std::vector<std::string> CharacterBuilder::problems() const {
  std::vector<std::string> out;
  const auto* h = heritage_group();
  if (h == nullptr) {
    out.emplace_back("Choose a heritage.");
    return out;
  }
  const auto* s = sex();
  if (s == nullptr) out.emplace_back("Choose a sex.");
  if (s != nullptr) {
    auto check = [&](std::uint32_t value, std::size_t count, const char* what) {
      if (count > 0 && value >= count) {
        out.push_back(fmt::format("The {} choice {} is not one of the {} offered.", what, value + 1, count));
      }
    };
    const auto& a = appearance_;
    check(a.eyes, s->eye_strips.size(), "eyes");
    check(a.nose, s->nose_strips.size(), "nose");
    check(a.mouth, s->mouth_strips.size(), "mouth");
    check(a.hair_color, s->hair_colors.size(), "hair colour");
    check(a.eye_color, s->eye_colors.size(), "eye colour");
    check(a.hair_style, s->hair_styles.size(), "hair style");
    if (a.headgear_style != kNoHeadgear) check(a.headgear_style, s->headgear.size(), "headgear");
    check(a.shirt_style, s->shirts.size(), "shirt");
    check(a.pants_style, s->pants.size(), "trousers");
    check(a.footwear_style, s->footwear.size(), "footwear");
    check(a.headgear_color, s->clothing_colors.size(), "headgear colour");
    check(a.shirt_color, s->clothing_colors.size(), "shirt colour");
    check(a.pants_color, s->clothing_colors.size(), "trousers colour");
    check(a.footwear_color, s->clothing_colors.size(), "footwear colour");
    for (double shade :
         {a.skin_shade, a.hair_shade, a.headgear_shade, a.shirt_shade, a.pants_shade, a.footwear_shade}) {
      if (!(shade >= 0.0 && shade <= 1.0)) {
        out.emplace_back("A shade must lie between 0 and 1.");
        break;
      }
    }
  }
  if (!template_) out.emplace_back("Choose a profession.");
  for (auto attr : kAttributes) {
    const auto v = attribute(attr);
    if (v < kAttributeMin || v > kAttributeMax) {
      out.push_back(
          fmt::format("{} must be between {} and {} (it is {}).", to_string(attr), kAttributeMin, kAttributeMax, v));
    }
  }
  if (attribute_credits_left() < 0) {
    out.push_back(
        fmt::format("The attributes use {} credits; {} have {}.", attribute_total(), h->name, attribute_credits()));
  }
  if (skill_credits_left() < 0) {
    out.push_back(
        fmt::format("The skills cost {} credits; {} have {}.", skill_credits_spent(), h->name, skill_credits()));
  }
  for (auto& p : name_problems(name_)) out.push_back(std::move(p));
  const auto areas = start_areas();
  if (std::find(areas.begin(), areas.end(), start_area_) == areas.end()) out.emplace_back("Choose a starting town.");
  return out;
}

std::vector<std::uint32_t> CharacterBuilder::advancement() const {
  std::vector<std::uint32_t> out(protocol::kCharacterCreateSkillCount, protocol::skill_advancement::Inactive);
  for (std::uint32_t i = 0; i < protocol::kCharacterCreateSkillCount; ++i) {
    if (dat::find_skill(data_->skill_table, i) == nullptr) continue;
    switch (skill(i)) {
      case SkillClass::Untrained: out[i] = protocol::skill_advancement::Untrained; break;
      case SkillClass::Trained: out[i] = protocol::skill_advancement::Trained; break;
      case SkillClass::Specialized: out[i] = protocol::skill_advancement::Specialized; break;
    }
  }
  return out;
}

protocol::CharacterCreate CharacterBuilder::to_message(const std::string& account, std::uint32_t slot) const {
  protocol::CharacterCreate m;
  m.account = account;
  m.heritage = heritage_;
  m.gender = gender_;
  m.appearance = appearance_;
  m.template_option = template_ ? static_cast<std::int32_t>(*template_) : 0;
  m.abilities = attributes_;
  m.slot = slot;
  m.skills = advancement();
  m.name = name_;
  m.start_area = start_area_;
  return m;
}

}  // namespace dereth::chargen
