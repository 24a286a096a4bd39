#include "dereth/app/character_creator.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "dereth/render/overlay.hpp"

namespace dereth::app {

namespace {

using chargen::SkillClass;

// Steps `value` by `step` through [0, count), wrapping.
std::uint32_t cycle(std::uint32_t value, int step, std::size_t count) {
  if (count == 0) return 0;
  const auto n = static_cast<std::int64_t>(count);
  auto v = (static_cast<std::int64_t>(value) + step) % n;
  if (v < 0) v += n;
  return static_cast<std::uint32_t>(v);
}

// The element after (or before) `value` in `list`, wrapping.
std::uint32_t cycle_in(const std::vector<std::uint32_t>& list, std::uint32_t value, int step) {
  if (list.empty()) return value;
  const auto it = std::find(list.begin(), list.end(), value);
  const auto at = it == list.end() ? 0U : static_cast<std::uint32_t>(it - list.begin());
  return list[cycle(at, step, list.size())];
}

double step_shade(double v, int step) {
  const double next = std::round((v + 0.1 * step) * 10.0) / 10.0;
  return std::clamp(next, 0.0, 1.0);
}

std::string of(std::uint32_t index, std::size_t count) {
  if (count == 0) return "none offered";
  return fmt::format("{} of {}", index + 1, count);
}

}  // namespace

CharacterCreator::CharacterCreator(const chargen::CharGenData& data) : builder_(data) {
  build_rows();
}

void CharacterCreator::build_rows() {
  rows_.clear();
  for (auto k : {RowKind::Heritage, RowKind::Sex, RowKind::Eyes, RowKind::Nose, RowKind::Mouth, RowKind::HairStyle,
                 RowKind::HairColor, RowKind::EyeColor, RowKind::SkinShade, RowKind::HairShade, RowKind::Template}) {
    rows_.push_back({k, 0});
  }
  for (std::uint32_t i = 0; i < chargen::kAttributes.size(); ++i) rows_.push_back({RowKind::Attribute, i});
  for (auto s : builder_.skills()) rows_.push_back({RowKind::Skill, s});
  for (auto k : {RowKind::Name, RowKind::StartArea, RowKind::Create, RowKind::Back}) rows_.push_back({k, 0});
  selected_ = std::min(selected_, rows_.size() - 1);
}

std::string CharacterCreator::row_text(const Row& r) const {
  const auto& b = builder_;
  const auto* h = b.heritage_group();
  const auto* s = b.sex();
  const auto& a = b.appearance();
  switch (r.kind) {
    case RowKind::Heritage: return fmt::format("Heritage: {}", h != nullptr ? h->name : "none");
    case RowKind::Sex: return fmt::format("Sex: {}", s != nullptr ? s->name : "none");
    case RowKind::Eyes: return fmt::format("Eyes: {}", of(a.eyes, s != nullptr ? s->eye_strips.size() : 0));
    case RowKind::Nose: return fmt::format("Nose: {}", of(a.nose, s != nullptr ? s->nose_strips.size() : 0));
    case RowKind::Mouth: return fmt::format("Mouth: {}", of(a.mouth, s != nullptr ? s->mouth_strips.size() : 0));
    case RowKind::HairStyle: {
      std::string text = fmt::format("Hair style: {}", of(a.hair_style, s != nullptr ? s->hair_styles.size() : 0));
      if (s != nullptr && a.hair_style < s->hair_styles.size() && s->hair_styles[a.hair_style].bald != 0) {
        text += " (bald)";
      }
      return text;
    }
    case RowKind::HairColor:
      return fmt::format("Hair colour: {}", of(a.hair_color, s != nullptr ? s->hair_colors.size() : 0));
    case RowKind::EyeColor:
      return fmt::format("Eye colour: {}", of(a.eye_color, s != nullptr ? s->eye_colors.size() : 0));
    case RowKind::SkinShade: return fmt::format("Skin shade: {:.1f}", a.skin_shade);
    case RowKind::HairShade: return fmt::format("Hair shade: {:.1f}", a.hair_shade);
    case RowKind::Template: {
      const auto t = b.template_index();
      if (h == nullptr || !t || *t >= h->templates.size()) return "Profession: none";
      return fmt::format("Profession: {}", h->templates[*t].name);
    }
    case RowKind::Attribute: {
      const auto attr = chargen::kAttributes[r.index];
      return fmt::format("{}: {}", chargen::to_string(attr), b.attribute(attr));
    }
    case RowKind::Skill: {
      const auto cost = b.skill_cost(r.index);
      return fmt::format("{}: {} (train {}, specialise {})", b.skill_name(r.index),
                         chargen::to_string(b.skill(r.index)), cost ? cost->trained : 0,
                         cost ? cost->trained + cost->specialized : 0);
    }
    case RowKind::Name: return fmt::format("Name: {}_", render::sanitize_text(b.name()));
    case RowKind::StartArea: return fmt::format("Starting town: {}", b.start_area_name(b.start_area()));
    case RowKind::Create: return "[ Create ]";
    case RowKind::Back: return "[ Back to the list ]";
  }
  return {};
}

std::size_t CharacterCreator::row_lines(std::size_t r) const {
  const auto& row = rows_[r];
  const bool credits_after =
      row.kind == RowKind::Template || (row.kind == RowKind::Attribute && row.index + 1 == chargen::kAttributes.size());
  return credits_after ? 2 : 1;
}

void CharacterCreator::scroll(std::size_t fixed_lines) const {
  if (max_lines_ == 0) {
    first_ = 0;
    return;
  }
  // Room for the rows: what the title, problems and status leave, less the
  // two "more" lines; never fewer than three rows' worth.
  const std::size_t budget = std::max<std::size_t>(max_lines_ > fixed_lines + 2 ? max_lines_ - fixed_lines - 2 : 0, 4);
  first_ = std::min(first_, selected_);
  auto fits = [&](std::size_t from) {
    std::size_t used = 0;
    for (std::size_t r = from; r <= selected_; ++r) used += row_lines(r);
    return used <= budget;
  };
  while (first_ < selected_ && !fits(first_)) ++first_;
}

std::vector<CharacterCreator::Line> CharacterCreator::layout() const {
  std::vector<Line> out;
  out.push_back({"Create a character (Up/Down choose, Left/Right change, type the name)", LineKind::Title, {}});
  std::vector<Line> tail;
  for (const auto& p : builder_.problems()) tail.push_back({"! " + p, LineKind::Problem, {}});
  if (!status_.empty()) tail.push_back({status_, LineKind::Status, {}});
  scroll(1 + tail.size());
  const std::size_t budget =
      max_lines_ == 0 ? static_cast<std::size_t>(-1)
                      : std::max<std::size_t>(max_lines_ > 3 + tail.size() ? max_lines_ - 3 - tail.size() : 0, 4);
  if (first_ > 0) out.push_back({"  ... more above (Up)", LineKind::Info, {}});
  std::size_t used = 0;
  std::size_t r = first_;
  for (; r < rows_.size() && used + row_lines(r) <= budget; ++r) {
    const auto& row = rows_[r];
    used += row_lines(r);
    out.push_back({fmt::format("{} {}", r == selected_ ? '>' : ' ', row_text(row)), LineKind::Row, r});
    if (row.kind == RowKind::Template) {
      out.push_back({fmt::format("  Attributes: {} of {} credits used, {} left", builder_.attribute_total(),
                                 builder_.attribute_credits(), builder_.attribute_credits_left()),
                     LineKind::Info,
                     {}});
    }
    if (row.kind == RowKind::Attribute && row.index + 1 == chargen::kAttributes.size()) {
      out.push_back({fmt::format("  Skills: {} of {} credits used, {} left", builder_.skill_credits_spent(),
                                 builder_.skill_credits(), builder_.skill_credits_left()),
                     LineKind::Info,
                     {}});
    }
  }
  if (r < rows_.size()) out.push_back({"  ... more below (Down)", LineKind::Info, {}});
  for (auto& l : tail) out.push_back(std::move(l));
  return out;
}

std::vector<std::string> CharacterCreator::lines() const {
  std::vector<std::string> out;
  for (auto& l : layout()) out.push_back(std::move(l.text));
  return out;
}

std::vector<CharacterCreator::LineKind> CharacterCreator::line_kinds() const {
  std::vector<LineKind> out;
  for (const auto& l : layout()) out.push_back(l.kind);
  return out;
}

std::size_t CharacterCreator::line_of_row(std::size_t row) const {
  const auto l = layout();
  for (std::size_t i = 0; i < l.size(); ++i) {
    if (l[i].row == row) return i;
  }
  return 0;
}

std::optional<std::size_t> CharacterCreator::row_at_line(std::size_t line) const {
  const auto l = layout();
  if (line >= l.size()) return std::nullopt;
  return l[line].row;
}

bool CharacterCreator::select(RowKind kind, std::uint32_t index) {
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i].kind == kind && (rows_[i].index == index || (kind != RowKind::Attribute && kind != RowKind::Skill))) {
      selected_ = i;
      return true;
    }
  }
  return false;
}

void CharacterCreator::up() {
  if (selected_ > 0) --selected_;
}

void CharacterCreator::down() {
  if (selected_ + 1 < rows_.size()) ++selected_;
}

void CharacterCreator::change(int step, bool big) {
  auto& b = builder_;
  const Row r = rows_[selected_];
  const auto* s = b.sex();
  auto a = b.appearance();
  switch (r.kind) {
    case RowKind::Heritage:
      b.set_heritage(cycle_in(b.heritages(), b.heritage(), step));
      build_rows();
      return;
    case RowKind::Sex: b.set_gender(cycle_in(b.genders(), b.gender(), step)); return;
    case RowKind::Eyes: a.eyes = cycle(a.eyes, step, s != nullptr ? s->eye_strips.size() : 0); break;
    case RowKind::Nose: a.nose = cycle(a.nose, step, s != nullptr ? s->nose_strips.size() : 0); break;
    case RowKind::Mouth: a.mouth = cycle(a.mouth, step, s != nullptr ? s->mouth_strips.size() : 0); break;
    case RowKind::HairStyle: a.hair_style = cycle(a.hair_style, step, s != nullptr ? s->hair_styles.size() : 0); break;
    case RowKind::HairColor: a.hair_color = cycle(a.hair_color, step, s != nullptr ? s->hair_colors.size() : 0); break;
    case RowKind::EyeColor: a.eye_color = cycle(a.eye_color, step, s != nullptr ? s->eye_colors.size() : 0); break;
    case RowKind::SkinShade: a.skin_shade = step_shade(a.skin_shade, step); break;
    case RowKind::HairShade: a.hair_shade = step_shade(a.hair_shade, step); break;
    case RowKind::Template: {
      const auto* h = b.heritage_group();
      if (h != nullptr && !h->templates.empty()) {
        b.set_template(cycle(static_cast<std::uint32_t>(b.template_index().value_or(0)), step, h->templates.size()));
      }
      return;
    }
    case RowKind::Attribute: {
      const auto attr = chargen::kAttributes[r.index];
      const std::int64_t next = std::int64_t{b.attribute(attr)} + (big ? 10 : 1) * step;
      b.set_attribute(attr, static_cast<std::uint32_t>(
                                std::clamp<std::int64_t>(next, chargen::kAttributeMin, chargen::kAttributeMax)));
      return;
    }
    case RowKind::Skill: {
      const auto c = static_cast<std::uint32_t>(b.skill(r.index));
      b.set_skill(r.index, static_cast<SkillClass>(cycle(c, step, 3)));
      return;
    }
    case RowKind::StartArea: b.set_start_area(cycle_in(b.start_areas(), b.start_area(), step)); return;
    case RowKind::Name:
    case RowKind::Create:
    case RowKind::Back: return;
  }
  b.set_appearance(a);
}

void CharacterCreator::type(std::string_view text) {
  std::string name = builder_.name();
  for (char c : text) {
    if (name.size() >= chargen::kNameMaxLength + 8) break;  // room to be told it is too long, no more
    if (static_cast<unsigned char>(c) >= 32 && static_cast<unsigned char>(c) < 127) name.push_back(c);
  }
  builder_.set_name(std::move(name));
}

void CharacterCreator::backspace() {
  std::string name = builder_.name();
  if (!name.empty()) name.pop_back();
  builder_.set_name(std::move(name));
}

CharacterCreator::Outcome CharacterCreator::enter() {
  switch (rows_[selected_].kind) {
    case RowKind::Create: {
      const auto p = builder_.problems();
      if (!p.empty()) {
        set_status(fmt::format("Not yet: {}", p.front()), true);
        return Outcome::None;
      }
      return Outcome::Submit;
    }
    case RowKind::Back: return Outcome::Back;
    case RowKind::Name: return Outcome::None;
    default: right(); return Outcome::None;
  }
}

CharacterCreator::Outcome CharacterCreator::click(std::size_t line, float fraction_across) {
  const auto row = row_at_line(line);
  if (!row) return Outcome::None;
  selected_ = *row;
  const auto kind = rows_[*row].kind;
  if (kind == RowKind::Create || kind == RowKind::Back) return enter();
  if (kind == RowKind::Name) return Outcome::None;
  change(fraction_across < 0.5F ? -1 : +1, false);
  return Outcome::None;
}

void CharacterCreator::set_status(std::string status, bool error) {
  status_ = std::move(status);
  status_error_ = error;
}

}  // namespace dereth::app
