// The scenario text format (docs/scenario.md): one directive a line, '#'
// comments, tokens separated by blanks, `key=value` arguments, double quotes
// around values with blanks.

#include "dereth/scenario/scenario.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "dereth/core/byte_reader.hpp"

namespace dereth::scenario {

namespace {

using core::Error;
using core::ErrorKind;

struct Token {
  std::string key;  // empty for a positional token
  std::string value;
  int column = 1;  // 1-based column of the token's first character
  bool used = false;
};

// Where the parser is, for error messages.
struct Where {
  std::string_view name;
  int line = 0;
  [[nodiscard]] Error error(int column, std::string_view field, std::string detail,
                            ErrorKind kind = ErrorKind::Invalid) const {
    return Error{kind, fmt::format("{}:{}", name, line), std::string(field), static_cast<std::size_t>(column),
                 std::move(detail)};
  }
};

bool is_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// Splits one line into tokens; stops at a '#' outside quotes.
Result<std::vector<Token>> tokenize(std::string_view line, const Where& where) {
  std::vector<Token> tokens;
  std::size_t i = 0;
  while (i < line.size()) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '#') break;
    Token t;
    t.column = static_cast<int>(i) + 1;
    std::string text;
    bool saw_equals = false;
    bool quoted_any = false;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
      const char d = line[i];
      if (d == '"') {
        quoted_any = true;
        ++i;
        bool closed = false;
        while (i < line.size()) {
          if (line[i] == '\\' && i + 1 < line.size() && (line[i + 1] == '"' || line[i + 1] == '\\')) {
            text.push_back(line[i + 1]);
            i += 2;
            continue;
          }
          if (line[i] == '"') {
            closed = true;
            ++i;
            break;
          }
          text.push_back(line[i]);
          ++i;
        }
        if (!closed) return std::unexpected(where.error(t.column, "quote", "unterminated \"", ErrorKind::Truncated));
        continue;
      }
      if (d == '#' && !quoted_any && text.empty()) break;
      if (d == '=' && !saw_equals && !quoted_any && !text.empty() &&
          std::all_of(text.begin(), text.end(), is_key_char)) {
        saw_equals = true;
        t.key = text;
        text.clear();
        ++i;
        continue;
      }
      text.push_back(d);
      ++i;
    }
    t.value = std::move(text);
    tokens.push_back(std::move(t));
  }
  return tokens;
}

// --- Values -----------------------------------------------------------------

Result<std::uint64_t> parse_uint(std::string_view s, std::uint64_t max, const Where& w, int column,
                                 std::string_view field) {
  int base = 10;
  std::string_view digits = s;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16;
    digits.remove_prefix(2);
  }
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size()) {
    return std::unexpected(w.error(column, field, fmt::format("expected a number, got '{}'", s)));
  }
  if (v > max) {
    return std::unexpected(w.error(column, field, fmt::format("{} is larger than {}", s, max), ErrorKind::TooLarge));
  }
  return v;
}

Result<std::uint32_t> parse_u32(std::string_view s, const Where& w, int column, std::string_view field) {
  DERETH_TRY(const std::uint64_t v, parse_uint(s, std::numeric_limits<std::uint32_t>::max(), w, column, field));
  return static_cast<std::uint32_t>(v);
}

Result<std::uint8_t> parse_u8(std::string_view s, const Where& w, int column, std::string_view field) {
  DERETH_TRY(const std::uint64_t v, parse_uint(s, std::numeric_limits<std::uint8_t>::max(), w, column, field));
  return static_cast<std::uint8_t>(v);
}

Result<double> parse_double(std::string_view s, const Where& w, int column, std::string_view field) {
  double v = 0;
  const char* first = s.data();
  if (!s.empty() && s[0] == '+') ++first;
  const auto [end, ec] = std::from_chars(first, s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || end != s.data() + s.size() || !std::isfinite(v)) {
    return std::unexpected(w.error(column, field, fmt::format("expected a number, got '{}'", s)));
  }
  return v;
}

Result<float> parse_float(std::string_view s, const Where& w, int column, std::string_view field) {
  DERETH_TRY(const double v, parse_double(s, w, column, field));
  if (std::abs(v) > static_cast<double>(std::numeric_limits<float>::max())) {
    return std::unexpected(w.error(column, field, fmt::format("{} does not fit a float", s), ErrorKind::TooLarge));
  }
  return static_cast<float>(v);
}

std::vector<std::string_view> split_commas(std::string_view s) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = s.find(',', start);
    parts.push_back(s.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return parts;
}

Result<protocol::Vec3> parse_vec3(std::string_view s, const Where& w, int column, std::string_view field) {
  const auto parts = split_commas(s);
  if (parts.size() != 3) {
    return std::unexpected(w.error(column, field, fmt::format("expected x,y,z, got '{}'", s)));
  }
  protocol::Vec3 v;
  DERETH_TRY(v.x, parse_float(parts[0], w, column, field));
  DERETH_TRY(v.y, parse_float(parts[1], w, column, field));
  DERETH_TRY(v.z, parse_float(parts[2], w, column, field));
  return v;
}

// cell,x,y,z or cell,x,y,z,qw,qx,qy,qz
Result<protocol::Position> parse_position(std::string_view s, const Where& w, int column, std::string_view field) {
  const auto parts = split_commas(s);
  if (parts.size() != 4 && parts.size() != 8) {
    return std::unexpected(w.error(column, field, fmt::format("expected cell,x,y,z[,w,x,y,z], got '{}'", s)));
  }
  protocol::Position p;
  DERETH_TRY(p.cell_id, parse_u32(parts[0], w, column, field));
  DERETH_TRY(p.origin.x, parse_float(parts[1], w, column, field));
  DERETH_TRY(p.origin.y, parse_float(parts[2], w, column, field));
  DERETH_TRY(p.origin.z, parse_float(parts[3], w, column, field));
  if (parts.size() == 8) {
    DERETH_TRY(p.orientation.w, parse_float(parts[4], w, column, field));
    DERETH_TRY(p.orientation.x, parse_float(parts[5], w, column, field));
    DERETH_TRY(p.orientation.y, parse_float(parts[6], w, column, field));
    DERETH_TRY(p.orientation.z, parse_float(parts[7], w, column, field));
  }
  return p;
}

Result<double> parse_probability(std::string_view s, const Where& w, int column, std::string_view field) {
  DERETH_TRY(const double v, parse_double(s, w, column, field));
  if (v < 0 || v > 1) return std::unexpected(w.error(column, field, fmt::format("{} is not within 0 to 1", s)));
  return v;
}

Result<double> parse_non_negative(std::string_view s, const Where& w, int column, std::string_view field) {
  DERETH_TRY(const double v, parse_double(s, w, column, field));
  if (v < 0) return std::unexpected(w.error(column, field, fmt::format("{} is negative", s)));
  return v;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// --- Arguments of one directive ---------------------------------------------

class Args {
 public:
  Args(std::vector<Token> tokens, std::size_t first, const Where& where, std::string directive)
      : tokens_(std::move(tokens)), where_(where), directive_(std::move(directive)) {
    for (std::size_t i = 0; i < first && i < tokens_.size(); ++i) tokens_[i].used = true;
  }

  // The next unused positional token.
  Token* positional() {
    for (auto& t : tokens_) {
      if (!t.used && t.key.empty()) {
        t.used = true;
        return &t;
      }
    }
    return nullptr;
  }
  Result<Token*> required_positional(std::string_view what) {
    if (Token* t = positional()) return t;
    return std::unexpected(where_.error(end_column(), directive_, fmt::format("missing {}", what)));
  }
  // A `key=value` argument.
  Token* keyed(std::string_view key) {
    Token* found = nullptr;
    for (auto& t : tokens_) {
      if (!t.used && t.key == key) {
        t.used = true;
        if (!found) found = &t;
      }
    }
    return found;
  }
  Result<Token*> required(std::string_view key) {
    if (Token* t = keyed(key)) return t;
    return std::unexpected(where_.error(end_column(), directive_, fmt::format("missing {}=", key)));
  }
  // Whether a `key=value` argument is there (not consumed).
  [[nodiscard]] bool has(std::string_view key) const {
    return std::ranges::any_of(tokens_, [&](const Token& t) { return !t.used && t.key == key; });
  }
  // A bare word such as `grounded`.
  bool flag(std::string_view word) {
    for (auto& t : tokens_) {
      if (!t.used && t.key.empty() && t.value == word) {
        t.used = true;
        return true;
      }
    }
    return false;
  }

  template <class T, class F>
  Result<void> optional_value(std::string_view key, T& out, F&& parse) {
    if (Token* t = keyed(key)) {
      DERETH_TRY(out, parse(t->value, where_, t->column, key));
    }
    return {};
  }

  // Every token must have been understood.
  Result<void> finish() const {
    for (const auto& t : tokens_) {
      if (t.used) continue;
      if (!t.key.empty()) {
        return std::unexpected(
            where_.error(t.column, directive_, fmt::format("unknown argument '{}=' for {}", t.key, directive_)));
      }
      return std::unexpected(
          where_.error(t.column, directive_, fmt::format("unexpected '{}' for {}", t.value, directive_)));
    }
    return {};
  }

  [[nodiscard]] const Where& where() const { return where_; }

 private:
  int end_column() const { return tokens_.empty() ? 1 : tokens_.front().column; }
  std::vector<Token> tokens_;
  const Where& where_;
  std::string directive_;
};

// u32 values written as 0 mean "absent".
std::optional<std::uint32_t> nonzero(std::uint32_t v) {
  return v == 0 ? std::nullopt : std::optional<std::uint32_t>(v);
}

// --- Stream events ----------------------------------------------------------

Result<void> parse_target(Args& a, StreamEvent& e, std::uint32_t& guid) {
  Token* t = a.keyed("guid");
  if (!t) return std::unexpected(a.where().error(1, "guid", "missing guid= (a number or 'player')"));
  if (t->value == "player") {
    e.to_player = true;
    guid = 0;
    return {};
  }
  DERETH_TRY(guid, parse_u32(t->value, a.where(), t->column, "guid"));
  return {};
}

std::optional<float> nonzero_component(float v) {
  return v == 0.0F ? std::nullopt : std::optional<float>(v);
}

// `at T create ...`
Result<StreamMessage> parse_create(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  protocol::CreateObject m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  auto& ph = m.physics;
  std::uint32_t setup = 0, mtable = 0, stable = 0, pes = 0;
  DERETH_CHECK(a.optional_value("setup", setup, parse_u32));
  DERETH_CHECK(a.optional_value("mtable", mtable, parse_u32));
  DERETH_CHECK(a.optional_value("stable", stable, parse_u32));
  DERETH_CHECK(a.optional_value("pes", pes, parse_u32));
  ph.setup_id = nonzero(setup);
  ph.motion_table_id = nonzero(mtable);
  ph.sound_table_id = nonzero(stable);
  ph.physics_script_table_id = nonzero(pes);
  DERETH_CHECK(a.optional_value("state", ph.state, parse_u32));
  if (Token* t = a.keyed("pos")) {
    DERETH_TRY(ph.position, parse_position(t->value, w, t->column, "pos"));
  }
  if (Token* t = a.keyed("velocity")) {
    DERETH_TRY(ph.velocity, parse_vec3(t->value, w, t->column, "velocity"));
  }
  if (Token* t = a.keyed("acceleration")) {
    DERETH_TRY(ph.acceleration, parse_vec3(t->value, w, t->column, "acceleration"));
  }
  if (Token* t = a.keyed("omega")) {
    DERETH_TRY(ph.omega, parse_vec3(t->value, w, t->column, "omega"));
  }
  if (Token* t = a.keyed("scale")) {
    DERETH_TRY(ph.object_scale, parse_float(t->value, w, t->column, "scale"));
  }
  if (Token* t = a.keyed("friction")) {
    DERETH_TRY(ph.friction, parse_float(t->value, w, t->column, "friction"));
  }
  if (Token* t = a.keyed("elasticity")) {
    DERETH_TRY(ph.elasticity, parse_float(t->value, w, t->column, "elasticity"));
  }
  if (Token* t = a.keyed("translucency")) {
    DERETH_TRY(ph.translucency, parse_float(t->value, w, t->column, "translucency"));
  }
  if (Token* t = a.keyed("default-script")) {
    DERETH_TRY(ph.default_script_type, parse_u32(t->value, w, t->column, "default-script"));
  }
  if (Token* t = a.keyed("default-script-intensity")) {
    DERETH_TRY(ph.default_script_intensity, parse_float(t->value, w, t->column, "default-script-intensity"));
  }
  auto& wd = m.weenie;
  wd.name = "Object";
  wd.weenie_class_id = 1;
  wd.icon_id = 0x06001036;
  wd.item_type = 0x80;  // Misc
  if (Token* t = a.keyed("name")) wd.name = t->value;
  DERETH_CHECK(a.optional_value("wcid", wd.weenie_class_id, parse_u32));
  DERETH_CHECK(a.optional_value("icon", wd.icon_id, parse_u32));
  DERETH_CHECK(a.optional_value("type", wd.item_type, parse_u32));
  DERETH_CHECK(a.optional_value("flags", wd.object_description_flags, parse_u32));
  DERETH_CHECK(a.optional_value("radar", wd.radar_behavior, parse_u8));
  DERETH_CHECK(a.optional_value("blip", wd.radar_blip_color, parse_u8));
  return m;
}

// `at T portal ...`: a create with a portal's defaults, `dest=POS` and `radius=`
Result<StreamMessage> parse_portal(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  const bool has_type = a.has("type"), has_flags = a.has("flags"), has_state = a.has("state");
  const bool has_radar = a.has("radar"), has_name = a.has("name");
  DERETH_TRY(StreamMessage made, parse_create(a, e));
  PortalSpec p;
  p.create = std::get<protocol::CreateObject>(std::move(made));
  if (e.to_player) return std::unexpected(w.error(1, "guid", "a portal is an object of its own, not the player"));
  if (!p.create.physics.position) return std::unexpected(w.error(1, "pos", "missing pos= (where the portal stands)"));
  auto& wd = p.create.weenie;
  if (!has_type) wd.item_type = portal_defaults::kItemType;
  if (!has_flags) wd.object_description_flags = portal_defaults::kDescriptionFlags;
  if (!has_state) p.create.physics.state = portal_defaults::kPhysicsState;
  if (!has_radar) wd.radar_behavior = portal_defaults::kRadar;
  if (!has_name) wd.name = "Portal";
  DERETH_TRY(Token * d, a.required("dest"));
  DERETH_TRY(p.destination, parse_position(d->value, w, d->column, "dest"));
  if (Token* t = a.keyed("radius")) {
    DERETH_TRY(p.radius, parse_float(t->value, w, t->column, "radius"));
    if (!(p.radius > 0.0F)) return std::unexpected(w.error(t->column, "radius", "the radius must be above zero"));
  }
  return p;
}

// `at T position ...`
Result<StreamMessage> parse_position(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  protocol::UpdatePosition m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  DERETH_TRY(Token * t, a.required("pos"));
  DERETH_TRY(const protocol::Position p, parse_position(t->value, w, t->column, "pos"));
  auto& pk = m.position;
  pk.cell_id = p.cell_id;
  pk.origin = p.origin;
  // As ACE does, a zero quaternion component is left out (its OrientationHasNo* bit set).
  pk.qw = nonzero_component(p.orientation.w);
  pk.qx = nonzero_component(p.orientation.x);
  pk.qy = nonzero_component(p.orientation.y);
  pk.qz = nonzero_component(p.orientation.z);
  if (Token* v = a.keyed("velocity")) {
    DERETH_TRY(pk.velocity, parse_vec3(v->value, w, v->column, "velocity"));
  }
  if (Token* v = a.keyed("placement")) {
    DERETH_TRY(pk.placement_id, parse_u32(v->value, w, v->column, "placement"));
  }
  if (a.flag("grounded")) pk.flags |= protocol::position_flag::IsGrounded;
  return m;
}

// `at T state ...`
Result<StreamMessage> parse_state(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  protocol::SetState m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  DERETH_TRY(Token * t, a.required("state"));
  DERETH_TRY(m.state, parse_u32(t->value, w, t->column, "state"));
  return m;
}

// `at T vector ...`
Result<StreamMessage> parse_vector(Args& a, StreamEvent& e) {
  protocol::VectorUpdate m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  DERETH_CHECK(a.optional_value("velocity", m.velocity, parse_vec3));
  DERETH_CHECK(a.optional_value("omega", m.omega, parse_vec3));
  return m;
}

// `at T movement ...`
Result<StreamMessage> parse_movement(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  protocol::MovementEvent m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  std::uint32_t stance = 0x8000003D;
  DERETH_CHECK(a.optional_value("stance", stance, parse_u32));
  m.data.current_style = static_cast<std::uint16_t>(stance & 0xFFFFU);
  protocol::InterpretedMovement im;
  auto& s = im.state;
  // Motion commands go on the wire as their low 16 bits (spec 5.0).
  auto command = [&](std::string_view key, std::optional<std::uint16_t>& out) -> Result<void> {
    if (Token* t = a.keyed(key)) {
      DERETH_TRY(const std::uint32_t v, parse_u32(t->value, w, t->column, key));
      out = static_cast<std::uint16_t>(v & 0xFFFFU);
    }
    return {};
  };
  auto speed = [&](std::string_view key, std::optional<float>& out) -> Result<void> {
    if (Token* t = a.keyed(key)) {
      DERETH_TRY(out, parse_float(t->value, w, t->column, key));
    }
    return {};
  };
  DERETH_CHECK(command("style", s.current_style));
  DERETH_CHECK(command("forward", s.forward_command));
  DERETH_CHECK(command("sidestep", s.sidestep_command));
  DERETH_CHECK(command("turn", s.turn_command));
  DERETH_CHECK(speed("forward-speed", s.forward_speed));
  DERETH_CHECK(speed("sidestep-speed", s.sidestep_speed));
  DERETH_CHECK(speed("turn-speed", s.turn_speed));
  m.is_autonomous = a.flag("autonomous") ? 1 : 0;
  // A one-shot action (the recall, an emote): one MotionItem in the
  // command list. Its 15-bit action stamp is the server's, filled at play
  // time; bit 15 is the movement's autonomous flag.
  if (Token* t = a.keyed("action")) {
    DERETH_TRY(const std::uint32_t action, parse_u32(t->value, w, t->column, "action"));
    if ((action & 0x10000000U) == 0) {
      return std::unexpected(
          w.error(t->column, "action", fmt::format("0x{:08X} is not an action (no 0x10000000 bit)", action)));
    }
    protocol::MotionItem item;
    item.command = static_cast<std::uint16_t>(action & 0xFFFFU);
    item.packed_sequence = m.is_autonomous != 0 ? 0x8000U : 0U;
    DERETH_CHECK(a.optional_value("action-speed", item.speed, parse_float));
    s.commands.push_back(item);
  } else if (Token* orphan = a.keyed("action-speed")) {
    return std::unexpected(w.error(orphan->column, "action-speed", "action-speed= needs an action="));
  }
  m.data.payload = std::move(im);
  return m;
}

// `at T script-type ...`
Result<StreamMessage> parse_script_type(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  protocol::PlayScriptType m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  DERETH_TRY(Token * t, a.required("type"));
  DERETH_TRY(m.script_type, parse_u32(t->value, w, t->column, "type"));
  float intensity = 1.0F;
  DERETH_CHECK(a.optional_value("intensity", intensity, parse_float));
  m.intensity_bits = std::bit_cast<std::uint32_t>(intensity);
  return m;
}

// `at T script-id ...`
Result<StreamMessage> parse_script_id(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  protocol::PlayScriptId m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  DERETH_TRY(Token * t, a.required("id"));
  DERETH_TRY(m.script_id, parse_u32(t->value, w, t->column, "id"));
  return m;
}

// `at T delete ...`
Result<StreamMessage> parse_delete(Args& a, StreamEvent& e) {
  protocol::DeleteObject m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  return m;
}

// `at T teleport ...`
Result<StreamMessage> parse_teleport(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  TeleportSpec m;
  e.to_player = true;
  if (Token* t = a.keyed("pos")) {
    DERETH_TRY(m.destination, parse_position(t->value, w, t->column, "pos"));
  }
  return m;
}

// `at T sound ...`
Result<StreamMessage> parse_sound(Args& a, StreamEvent& e) {
  const Where& w = a.where();
  protocol::Sound m;
  DERETH_CHECK(parse_target(a, e, m.guid));
  DERETH_TRY(Token * t, a.required("id"));
  DERETH_TRY(m.sound_type, parse_u32(t->value, w, t->column, "id"));
  m.volume = 1.0F;
  DERETH_CHECK(a.optional_value("volume", m.volume, parse_float));
  return m;
}

// `at T chat ...`
Result<StreamMessage> parse_chat(Args& a, StreamEvent& /*e*/) {
  protocol::ServerMessage m;
  if (Token* t = a.keyed("text")) {
    m.text = t->value;
  } else {
    DERETH_TRY(Token * p, a.required_positional("chat text"));
    m.text = p->value;
  }
  DERETH_CHECK(a.optional_value("type", m.chat_type, parse_u32));
  return m;
}

// The text of a chat directive: text="..." or the first positional word.
Result<std::string> chat_text(Args& a) {
  if (Token* t = a.keyed("text")) return t->value;
  DERETH_TRY(Token * p, a.required_positional("text"));
  return p->value;
}

Result<std::uint32_t> required_u32(Args& a, std::string_view key) {
  DERETH_TRY(Token * t, a.required(key));
  return parse_u32(t->value, a.where(), t->column, key);
}

Result<std::string> chat_sender(Args& a) {
  DERETH_TRY(Token * t, a.required("sender"));
  return t->value;
}

// `at T speech sender=NAME text=... [sender-id=X] [type=T] [range=R]`
Result<StreamMessage> parse_speech(Args& a, StreamEvent& /*e*/) {
  protocol::HearSpeech m;
  DERETH_TRY(m.sender, chat_sender(a));
  DERETH_TRY(m.text, chat_text(a));
  DERETH_CHECK(a.optional_value("sender-id", m.sender_id, parse_u32));
  DERETH_CHECK(a.optional_value("type", m.chat_type, parse_u32));
  if (Token* t = a.keyed("range")) {
    DERETH_TRY(const float range, parse_float(t->value, a.where(), t->column, "range"));
    m.range = range;
  }
  return ChatSpec{m};
}

// `at T emote sender=NAME text=... [sender-id=X] [soul]`
Result<StreamMessage> parse_emote(Args& a, StreamEvent& /*e*/) {
  protocol::HearEmote m;
  m.soul = a.flag("soul");
  DERETH_TRY(m.sender, chat_sender(a));
  DERETH_TRY(m.text, chat_text(a));
  DERETH_CHECK(a.optional_value("sender-id", m.sender_id, parse_u32));
  return ChatSpec{m};
}

// `at T tell sender=NAME text=... [sender-id=X] [type=T]`
Result<StreamMessage> parse_tell(Args& a, StreamEvent& e) {
  protocol::HearDirectSpeech m;
  e.to_player = true;
  DERETH_TRY(m.sender, chat_sender(a));
  DERETH_TRY(m.text, chat_text(a));
  DERETH_CHECK(a.optional_value("sender-id", m.sender_id, parse_u32));
  DERETH_CHECK(a.optional_value("type", m.chat_type, parse_u32));
  return ChatSpec{m};
}

// `at T channel channel=X sender=NAME text=...` (sender="" for the player's own line)
Result<StreamMessage> parse_channel(Args& a, StreamEvent& e) {
  protocol::ChannelBroadcast m;
  e.to_player = true;
  DERETH_TRY(m.channel, required_u32(a, "channel"));
  DERETH_TRY(m.sender, chat_sender(a));
  DERETH_TRY(m.text, chat_text(a));
  return ChatSpec{m};
}

// `at T weenie-error code=X [text=...]`
Result<StreamMessage> parse_weenie_error(Args& a, StreamEvent& e) {
  protocol::WeenieError m;
  e.to_player = true;
  DERETH_TRY(m.code, required_u32(a, "code"));
  if (Token* t = a.keyed("text")) m.text = t->value;
  return ChatSpec{m};
}

// `at T transient text=...` and `at T popup text=...`
Result<StreamMessage> parse_transient(Args& a, StreamEvent& e) {
  e.to_player = true;
  DERETH_TRY(std::string text, chat_text(a));
  return ChatSpec{protocol::StatusString{std::move(text), false}};
}

Result<StreamMessage> parse_popup(Args& a, StreamEvent& e) {
  e.to_player = true;
  DERETH_TRY(std::string text, chat_text(a));
  return ChatSpec{protocol::StatusString{std::move(text), true}};
}

// `at T hex ...`
Result<StreamMessage> parse_hex(Args& a, StreamEvent& /*e*/) {
  const Where& w = a.where();
  RawMessage m;
  std::optional<std::uint32_t> queue;
  if (Token* t = a.keyed("queue")) {
    DERETH_TRY(const std::uint64_t q, parse_uint(t->value, 0xFFFF, w, t->column, "queue"));
    queue = static_cast<std::uint32_t>(q);
  }
  std::string digits;
  int first_column = 0;
  while (Token* t = a.positional()) {
    if (first_column == 0) first_column = t->column;
    for (const char c : t->value) {
      if (c == '|' || c == ':') continue;
      if (hex_digit(c) < 0) {
        return std::unexpected(w.error(t->column, "hex", fmt::format("'{}' is not a hex digit", c)));
      }
      digits.push_back(c);
    }
  }
  if (digits.size() % 2 != 0) {
    return std::unexpected(w.error(first_column, "hex", "an odd number of hex digits"));
  }
  if (digits.size() < 8) {
    return std::unexpected(
        w.error(std::max(first_column, 1), "hex", "a message needs at least its 4-byte opcode", ErrorKind::Truncated));
  }
  for (std::size_t i = 0; i < digits.size(); i += 2) {
    m.bytes.push_back(static_cast<std::uint8_t>(hex_digit(digits[i]) * 16 + hex_digit(digits[i + 1])));
  }
  const std::uint32_t opcode = core::load_le<std::uint32_t>(m.bytes.data());
  m.queue = queue ? static_cast<std::uint16_t>(*queue) : default_queue(opcode);
  return m;
}

// One parser per stream message kind (docs/scenario.md, "Stream messages").
using EventParser = Result<StreamMessage> (*)(Args&, StreamEvent&);
struct EventKind {
  std::string_view name;
  EventParser parse;
};
constexpr EventKind kEventKinds[] = {
    {"create", &parse_create},
    {"position", &parse_position},
    {"state", &parse_state},
    {"vector", &parse_vector},
    {"movement", &parse_movement},
    {"script-type", &parse_script_type},
    {"script-id", &parse_script_id},
    {"delete", &parse_delete},
    {"teleport", &parse_teleport},
    {"portal", &parse_portal},
    {"sound", &parse_sound},
    {"chat", &parse_chat},
    {"speech", &parse_speech},
    {"emote", &parse_emote},
    {"tell", &parse_tell},
    {"channel", &parse_channel},
    {"weenie-error", &parse_weenie_error},
    {"transient", &parse_transient},
    {"popup", &parse_popup},
    {"hex", &parse_hex},
};

Result<StreamMessage> parse_event(std::string_view kind, Args& a, StreamEvent& e) {
  for (const EventKind& k : kEventKinds) {
    if (k.name == kind) return k.parse(a, e);
  }
  return std::unexpected(a.where().error(1, "at", fmt::format("unknown message kind '{}'", kind)));
}

}  // namespace

namespace {

constexpr std::pair<InputKey, std::string_view> kInputKeys[] = {
    {InputKey::Forward, "forward"},
    {InputKey::Backward, "backward"},
    {InputKey::TurnLeft, "turn_left"},
    {InputKey::TurnRight, "turn_right"},
    {InputKey::StrafeLeft, "strafe_left"},
    {InputKey::StrafeRight, "strafe_right"},
    {InputKey::Walk, "walk"},
    {InputKey::AutoRun, "autorun"},
    {InputKey::Jump, "jump"},
    {InputKey::SelectNextMonster, "select_next_monster"},
    {InputKey::MagicMode, "magic_mode"},
    {InputKey::CastSpell, "cast_spell"},
};

// `input KEY down|up at=T`
Result<InputEvent> parse_input(Args& a) {
  const Where& w = a.where();
  InputEvent e;
  e.line = w.line;
  DERETH_TRY(Token * key, a.required_positional("key"));
  bool known = false;
  std::string names;
  for (const auto& [k, name] : kInputKeys) {
    if (!names.empty()) names += ", ";
    names += name;
    if (key->value == name) {
      e.key = k;
      known = true;
    }
  }
  if (!known) {
    return std::unexpected(
        w.error(key->column, "input", fmt::format("unknown key '{}' (the keys: {})", key->value, names)));
  }
  DERETH_TRY(Token * edge, a.required_positional("down or up"));
  if (edge->value == "down") {
    e.down = true;
  } else if (edge->value == "up") {
    e.down = false;
  } else {
    return std::unexpected(w.error(edge->column, "input", fmt::format("expected down or up, got '{}'", edge->value)));
  }
  DERETH_TRY(Token * at, a.required("at"));
  DERETH_TRY(e.time, parse_non_negative(at->value, w, at->column, "at"));
  return e;
}

}  // namespace

std::string_view to_string(InputKey key) noexcept {
  for (const auto& [k, name] : kInputKeys) {
    if (k == key) return name;
  }
  return "?";
}

std::uint16_t default_queue(std::uint32_t opcode) noexcept {
  switch (opcode) {
    case 0xF7B0:
    case 0xF7E0:
    case 0xF658:
    case 0xF7E1:
    case 0xF7DF:
    case 0xF659:
    case 0xF7DC:
    case 0xF653: return protocol::queue::Ui;
    case 0xF7E5:
    case 0xF7E7:
    case 0xF7EA:
    case 0xF7E2: return protocol::queue::Database;
    case 0xF753: return 7;  // SecureWeenie
    default: break;
  }
  if (opcode >= 0x0200 && opcode <= 0x02FF) return protocol::queue::Ui;
  return protocol::queue::SmartBox;
}

namespace {

// What the directive parsers share while one file is read.
struct ScenarioParse {
  Scenario& s;
  const Where& where;
  int loop_line = 0;
};

using DirectiveParser = Result<void> (*)(Args& a, ScenarioParse& p);

// `world NAME [connections=N] [max=N]`
Result<void> parse_world_directive(Args& a, ScenarioParse& p) {
  Scenario& s = p.s;
  const Where& where = p.where;
  DERETH_TRY(Token * t, a.required_positional("world name"));
  s.world_name = t->value;
  if (Token* c = a.keyed("connections")) {
    DERETH_TRY(const std::uint64_t v, parse_uint(c->value, 0x7FFFFFFF, where, c->column, "connections"));
    s.connections = static_cast<std::int32_t>(v);
  }
  if (Token* c = a.keyed("max")) {
    DERETH_TRY(const std::uint64_t v, parse_uint(c->value, 0x7FFFFFFF, where, c->column, "max"));
    s.max_connections = static_cast<std::int32_t>(v);
  }
  return {};
}

// `account NAME password=P [slots=N]`
Result<void> parse_account_directive(Args& a, ScenarioParse& p) {
  Scenario& s = p.s;
  const Where& where = p.where;
  ScenarioAccount acc;
  DERETH_TRY(Token * t, a.required_positional("account name"));
  acc.name = t->value;
  if (acc.name.empty()) return std::unexpected(where.error(t->column, "account", "an empty account name"));
  DERETH_TRY(Token * pw, a.required("password"));
  acc.password = pw->value;
  DERETH_CHECK(a.optional_value("slots", acc.max_slots, parse_u32));
  for (const auto& other : s.accounts) {
    if (std::ranges::equal(other.name, acc.name, [](char x, char y) {
          return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
        })) {
      return std::unexpected(where.error(t->column, "account", fmt::format("account '{}' given twice", acc.name)));
    }
  }
  s.accounts.push_back(std::move(acc));
  return {};
}

// `character GUID NAME`, for the account line above it
Result<void> parse_character_directive(Args& a, ScenarioParse& p) {
  Scenario& s = p.s;
  const Where& where = p.where;
  if (s.accounts.empty()) {
    return std::unexpected(where.error(1, "character", "a character needs an account line before it"));
  }
  ScenarioCharacter c;
  DERETH_TRY(Token * g, a.required_positional("character guid"));
  DERETH_TRY(c.guid, parse_u32(g->value, where, g->column, "guid"));
  DERETH_TRY(Token * n, a.required_positional("character name"));
  c.name = n->value;
  s.accounts.back().characters.push_back(std::move(c));
  return {};
}

// `seed N`
Result<void> parse_seed_directive(Args& a, ScenarioParse& p) {
  DERETH_TRY(Token * t, a.required_positional("seed"));
  DERETH_TRY(p.s.seed, parse_u32(t->value, p.where, t->column, "seed"));
  return {};
}

// `seeds [server=N] [client=N] [cookie=N]`
Result<void> parse_seeds_directive(Args& a, ScenarioParse& p) {
  Scenario& s = p.s;
  const Where& where = p.where;
  bool any = false;
  if (Token* t = a.keyed("server")) {
    DERETH_TRY(s.server_seed, parse_u32(t->value, where, t->column, "server"));
    any = true;
  }
  if (Token* t = a.keyed("client")) {
    DERETH_TRY(s.client_seed, parse_u32(t->value, where, t->column, "client"));
    any = true;
  }
  if (Token* t = a.keyed("cookie")) {
    DERETH_TRY(s.cookie, parse_uint(t->value, std::numeric_limits<std::uint64_t>::max(), where, t->column, "cookie"));
    any = true;
  }
  if (!any) return std::unexpected(where.error(1, "seeds", "expected server=, client= or cookie="));
  return {};
}

// `server-full`
Result<void> parse_server_full_directive(Args& /*a*/, ScenarioParse& p) {
  p.s.server_full = true;
  return {};
}

// `connect-race MS`
Result<void> parse_connect_race_directive(Args& a, ScenarioParse& p) {
  DERETH_TRY(Token * t, a.required_positional("milliseconds"));
  DERETH_TRY(p.s.connect_race_ms, parse_non_negative(t->value, p.where, t->column, "connect-race"));
  return {};
}

// `impair [loss=P] [duplicate=P] [reorder=P] [delay=MS] [jitter=MS] [reorder-window=MS] [seed=N] [inbound]`
Result<void> parse_impair_directive(Args& a, ScenarioParse& p) {
  auto& im = p.s.impairment;
  DERETH_CHECK(a.optional_value("loss", im.loss, parse_probability));
  DERETH_CHECK(a.optional_value("duplicate", im.duplicate, parse_probability));
  DERETH_CHECK(a.optional_value("reorder", im.reorder, parse_probability));
  DERETH_CHECK(a.optional_value("delay", im.delay_ms, parse_non_negative));
  DERETH_CHECK(a.optional_value("jitter", im.jitter_ms, parse_non_negative));
  DERETH_CHECK(a.optional_value("reorder-window", im.reorder_window_ms, parse_non_negative));
  DERETH_CHECK(a.optional_value("seed", im.seed, parse_u32));
  if (im.reorder_window_ms < 1) im.reorder_window_ms = 1;
  im.inbound = a.flag("inbound");
  return {};
}

// `sandbox`
Result<void> parse_sandbox_directive(Args& /*a*/, ScenarioParse& p) {
  p.s.sandbox = true;
  return {};
}

// `player [setup=] [options1=] [mtable=] [stable=] [pes=] [pos=] [attributes=S,E,Q,C,F,W] [spells=ID,...]
// [book=ID,...]`
Result<void> parse_player_directive(Args& a, ScenarioParse& sp) {
  auto& p = sp.s.player;
  const Where& where = sp.where;
  DERETH_CHECK(a.optional_value("setup", p.setup_id, parse_u32));
  DERETH_CHECK(a.optional_value("options1", p.character_options1, parse_u32));
  std::uint32_t v = 0;
  if (Token* t = a.keyed("mtable")) {
    DERETH_TRY(v, parse_u32(t->value, where, t->column, "mtable"));
    p.motion_table_id = nonzero(v);
  }
  if (Token* t = a.keyed("stable")) {
    DERETH_TRY(v, parse_u32(t->value, where, t->column, "stable"));
    p.sound_table_id = nonzero(v);
  }
  if (Token* t = a.keyed("pes")) {
    DERETH_TRY(v, parse_u32(t->value, where, t->column, "pes"));
    p.physics_script_table_id = nonzero(v);
  }
  if (Token* t = a.keyed("pos")) {
    DERETH_TRY(p.position, parse_position(t->value, where, t->column, "pos"));
  }
  if (Token* t = a.keyed("attributes")) {
    const auto parts = split_commas(t->value);
    if (parts.size() != p.attributes.size()) {
      return std::unexpected(
          where.error(t->column, "attributes", fmt::format("expected six numbers S,E,Q,C,F,W, got '{}'", t->value)));
    }
    for (std::size_t i = 0; i < parts.size(); ++i) {
      DERETH_TRY(p.attributes[i], parse_u32(parts[i], where, t->column, "attributes"));
    }
  }
  for (const auto& [key, list] : {std::pair{"spells", &p.spells}, std::pair{"book", &p.book}}) {
    Token* t = a.keyed(key);
    if (t == nullptr) continue;
    list->clear();
    for (const auto& part : split_commas(t->value)) {
      DERETH_TRY(const std::uint32_t id, parse_u32(part, where, t->column, key));
      list->push_back(id);
    }
  }
  return {};
}

// `at TIME KIND ...`: one stream message (the kinds: kEventKinds)
Result<void> parse_at_directive(Args& a, ScenarioParse& p) {
  const Where& where = p.where;
  StreamEvent e;
  e.line = where.line;
  DERETH_TRY(Token * t, a.required_positional("time"));
  DERETH_TRY(e.time, parse_non_negative(t->value, where, t->column, "time"));
  DERETH_TRY(Token * k, a.required_positional("message kind"));
  const std::string kind = k->value;
  const int kind_column = k->column;
  auto m = parse_event(kind, a, e);
  if (!m) {
    auto err = std::move(m.error());
    if (err.offset == 1) err.offset = static_cast<std::size_t>(kind_column);
    return std::unexpected(std::move(err));
  }
  e.message = std::move(*m);
  p.s.stream.push_back(std::move(e));
  return {};
}

// `input KEY down|up at=T`
Result<void> parse_input_directive(Args& a, ScenarioParse& p) {
  DERETH_TRY(InputEvent e, parse_input(a));
  p.s.inputs.push_back(e);
  return {};
}

// `loop PERIOD [count=N] [from=T]`, at most once
Result<void> parse_loop_directive(Args& a, ScenarioParse& p) {
  Scenario& s = p.s;
  const Where& where = p.where;
  if (p.loop_line != 0) {
    return std::unexpected(
        where.error(1, "loop", fmt::format("a second loop line (the first is line {})", p.loop_line)));
  }
  p.loop_line = where.line;
  DERETH_TRY(Token * t, a.required_positional("period"));
  DERETH_TRY(const double period, parse_double(t->value, where, t->column, "loop"));
  if (period <= 0) return std::unexpected(where.error(t->column, "loop", "the period must be above zero"));
  s.loop_period = period;
  if (Token* c = a.keyed("count")) {
    DERETH_TRY(const std::uint32_t n, parse_u32(c->value, where, c->column, "count"));
    if (n == 0) return std::unexpected(where.error(c->column, "count", "count must be at least 1"));
    s.loop_count = n;
  }
  if (Token* f = a.keyed("from")) {
    DERETH_TRY(s.loop_from, parse_non_negative(f->value, where, f->column, "from"));
  }
  return {};
}

struct Directive {
  std::string_view name;
  DirectiveParser parse;
};
// Every directive a scenario file may start a line with (docs/scenario.md).
constexpr Directive kDirectives[] = {
    {"world", &parse_world_directive},
    {"account", &parse_account_directive},
    {"character", &parse_character_directive},
    {"seed", &parse_seed_directive},
    {"seeds", &parse_seeds_directive},
    {"server-full", &parse_server_full_directive},
    {"connect-race", &parse_connect_race_directive},
    {"impair", &parse_impair_directive},
    {"player", &parse_player_directive},
    {"sandbox", &parse_sandbox_directive},
    {"at", &parse_at_directive},
    {"input", &parse_input_directive},
    {"loop", &parse_loop_directive},
};

}  // namespace

Result<InputEvent> parse_input_line(std::string_view text, std::string_view name) {
  const Where where{name, 1};
  DERETH_TRY(std::vector<Token> tokens, tokenize(text, where));
  Args a(std::move(tokens), 0, where, "input");
  DERETH_TRY(InputEvent e, parse_input(a));
  DERETH_CHECK(a.finish());
  return e;
}

Result<Scenario> parse_scenario(std::string_view text, std::string_view name) {
  Scenario s;
  s.name = std::string(name);
  Where where{name, 0};
  ScenarioParse state{s, where};
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t nl = text.find('\n', pos);
    const std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++where.line;
    DERETH_TRY(std::vector<Token> tokens, tokenize(line, where));
    if (tokens.empty()) continue;
    if (!tokens[0].key.empty()) {
      return std::unexpected(
          where.error(tokens[0].column, "directive", fmt::format("expected a directive, got '{}='", tokens[0].key)));
    }
    const std::string directive = tokens[0].value;
    Args a(std::move(tokens), 1, where, directive);
    const auto* found = std::ranges::find(kDirectives, std::string_view(directive), &Directive::name);
    if (found == std::end(kDirectives)) {
      return std::unexpected(where.error(1, "directive", fmt::format("unknown directive '{}'", directive)));
    }
    DERETH_CHECK(found->parse(a, state));
    DERETH_CHECK(a.finish());
  }
  const int loop_line = state.loop_line;

  std::stable_sort(s.stream.begin(), s.stream.end(),
                   [](const StreamEvent& x, const StreamEvent& y) { return x.time < y.time; });
  std::stable_sort(s.inputs.begin(), s.inputs.end(),
                   [](const InputEvent& x, const InputEvent& y) { return x.time < y.time; });
  if (s.loop_period) {
    Where at_loop{name, loop_line};
    if (s.stream.empty()) return std::unexpected(at_loop.error(1, "loop", "there is no 'at' line to repeat"));
    const StreamEvent& last = s.stream.back();
    if (last.time < s.loop_from) {
      return std::unexpected(
          at_loop.error(1, "loop", fmt::format("no 'at' line at or after from={} to repeat", s.loop_from)));
    }
    if (last.time - s.loop_from > *s.loop_period) {
      if (s.loop_from == 0) {
        return std::unexpected(
            at_loop.error(1, "loop",
                          fmt::format("the period {} is shorter than the last event's time {} (line {})",
                                      *s.loop_period, last.time, last.line)));
      }
      return std::unexpected(at_loop.error(
          1, "loop",
          fmt::format("the period {} is shorter than the repeated part, from {} to the last event's time {} (line {})",
                      *s.loop_period, s.loop_from, last.time, last.line)));
    }
  }
  return s;
}

Result<Scenario> load_scenario_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::unexpected(Error{ErrorKind::Io, path.string(), "", 0, "cannot open the scenario file"});
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path.filename().string());
}

}  // namespace dereth::scenario
