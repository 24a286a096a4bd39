#pragma once
// The character-creation screen as rows of text the window draws and the
// keyboard and mouse drive, over chargen::CharacterBuilder: heritage, sex,
// appearance, profession template, the six attributes with the credits
// left, each skill with its costs and the skill credits left, the name and
// the starting town, then Create and Back. Up/Down (or a click) select a
// row; Left/Right (or a click on the row's left or right half) change its
// value (Shift: attributes by 10); typed text and Backspace edit the name;
// Enter on Create sends (when nothing is invalid), Esc or Back returns to
// the list. Every invalid choice is a sentence under the rows. No SDL here.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dereth/chargen/character_builder.hpp"

namespace dereth::app {

class CharacterCreator {
 public:
  enum class RowKind : std::uint8_t {
    Heritage,
    Sex,
    Eyes,
    Nose,
    Mouth,
    HairStyle,
    HairColor,
    EyeColor,
    SkinShade,
    HairShade,
    Template,
    Attribute,
    Skill,
    Name,
    StartArea,
    Create,
    Back,
  };
  struct Row {
    RowKind kind = RowKind::Heritage;
    std::uint32_t index = 0;  // Attribute: 0..5; Skill: the skill number
  };
  enum class Outcome : std::uint8_t { None, Submit, Back };
  // What each panel line is, for its colour.
  enum class LineKind : std::uint8_t { Title, Row, Info, Problem, Status };

  // `data` must outlive the creator.
  explicit CharacterCreator(const chargen::CharGenData& data);

  [[nodiscard]] chargen::CharacterBuilder& builder() noexcept { return builder_; }
  [[nodiscard]] const chargen::CharacterBuilder& builder() const noexcept { return builder_; }

  // The panel's lines and what each is.
  [[nodiscard]] std::vector<std::string> lines() const;
  [[nodiscard]] std::vector<LineKind> line_kinds() const;
  [[nodiscard]] const std::vector<Row>& rows() const noexcept { return rows_; }
  [[nodiscard]] std::size_t selected() const noexcept { return selected_; }
  [[nodiscard]] std::size_t line_of_row(std::size_t row) const;
  [[nodiscard]] std::optional<std::size_t> row_at_line(std::size_t line) const;
  // Selects the first row of `kind` (and `index`, for attributes and skills).
  bool select(RowKind kind, std::uint32_t index = 0);

  void up();
  void down();
  void left(bool big = false) { change(-1, big); }
  void right(bool big = false) { change(+1, big); }
  void type(std::string_view text);
  void backspace();
  // Enter: Create sends when nothing is invalid (else the status says so),
  // Back returns; on another row it steps the value forward.
  [[nodiscard]] Outcome enter();
  // A click on panel line `line`, `fraction_across` (0..1) from its left.
  [[nodiscard]] Outcome click(std::size_t line, float fraction_across);

  // At most this many panel lines (0: no limit): the rows scroll to keep
  // the selected one shown, with a line saying more lie above or below.
  void set_max_lines(std::size_t lines) noexcept { max_lines_ = lines; }

  // A sentence under everything ("Creating ...", the server's refusal).
  void set_status(std::string status, bool error = false);
  [[nodiscard]] const std::string& status() const noexcept { return status_; }
  [[nodiscard]] bool status_is_error() const noexcept { return status_error_; }

  // The F656 (the session fills in the account and the slot).
  [[nodiscard]] protocol::CharacterCreate message() const { return builder_.to_message({}, 0); }

 private:
  void build_rows();
  void change(int step, bool big);
  [[nodiscard]] std::string row_text(const Row& r) const;
  struct Line {
    std::string text;
    LineKind kind;
    std::optional<std::size_t> row;
  };
  [[nodiscard]] std::vector<Line> layout() const;

  // The panel lines row `r` takes (its own, and the credits line after it).
  [[nodiscard]] std::size_t row_lines(std::size_t r) const;
  // Moves first_ so the selected row is shown within max_lines_.
  void scroll(std::size_t fixed_lines) const;

  chargen::CharacterBuilder builder_;
  std::vector<Row> rows_;
  std::size_t selected_ = 0;
  std::size_t max_lines_ = 0;
  mutable std::size_t first_ = 0;  // the first row shown
  std::string status_;
  bool status_error_ = false;
};

}  // namespace dereth::app
