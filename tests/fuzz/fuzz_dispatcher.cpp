// libFuzzer target over the message dispatcher and the outbound/movement
// decoders (docs/fuzzing.md).
//
// Every input goes to decode_message, decode_movement_buffer,
// decode_move_to_state, decode_autonomous_position and
// decode_player_description. Whatever decodes is
// re-encoded and decoded again, and the second decode must succeed and equal
// the first (operator==, which compares floats by their bits). Byte equality
// with the input is not required: the writers derive presence bits and pick
// the shortest packed forms, so encode(decode(x)) may normalise x; but
// decode(encode(decode(x))) must be decode(x). Decoded messages also go
// through the JSON writers, and failed decodes must describe themselves.
//
// On a broken round trip the target prints the input, the re-encoding and
// both decodes as JSON to stderr, then abort()s, which libFuzzer (or the
// replay driver) reports as a crash.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "dereth/core/json_writer.hpp"
#include "dereth/protocol/json.hpp"
#include "dereth/protocol/login.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/movement.hpp"
#include "dereth/protocol/outbound.hpp"
#include "dereth/protocol/player_description.hpp"

namespace {

namespace p = dereth::protocol;
using Bytes = std::span<const std::uint8_t>;

std::string hex(Bytes bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const std::uint8_t b : bytes) {
    out.push_back(kDigits[b >> 4U]);
    out.push_back(kDigits[b & 0xFU]);
  }
  return out;
}

// A JSON view for failure output, for every decoded type the target checks.
std::string describe(const p::Message& m) {
  return p::to_json(m);
}
std::string describe(const p::MoveToState& m) {
  dereth::core::JsonWriter j;
  p::write_json(j, m);
  return j.str();
}
std::string describe(const p::AutonomousPosition& m) {
  dereth::core::JsonWriter j;
  p::write_json(j, m);
  return j.str();
}
std::string describe(const p::PlayerDescription& m) {
  // No JSON writer: the re-encoded bytes say what was decoded.
  return hex(p::encode_player_description_qualities(m));
}
std::string describe(const p::MovementData& m) {
  // MovementData has no JSON writer of its own: show it inside a Movement event.
  p::MovementEvent e;
  e.data = m;
  return p::to_json(p::Message{e});
}

[[noreturn]] void fail(const char* what, Bytes input, Bytes reencoded, const std::string& first,
                       const std::string& second) {
  std::fprintf(stderr, "fuzz_dispatcher: %s\n  input:      %s\n  re-encoded: %s\n  first:      %s\n  second:     %s\n",
               what, hex(input).c_str(), hex(reencoded).c_str(), first.c_str(), second.c_str());
  std::abort();
}

// decode(encode(value)) must succeed and equal value.
template <class T, class Encode, class Decode>
void check_round_trip(const char* name, Bytes input, const T& value, Encode&& encode, Decode&& decode) {
  const std::vector<std::uint8_t> bytes = encode(value);
  const auto again = decode(Bytes(bytes));
  if (!again) {
    fail(name, input, bytes, describe(value), "decode failed: " + again.error().message());
  }
  if (!(*again == value)) {
    fail(name, input, bytes, describe(value), describe(*again));
  }
}

// A failed decode must carry a readable description.
template <class R>
void check_error(const R& result) {
  if (!result && result.error().message().empty()) std::abort();
}

// PhysicsDesc carries MovementData as an opaque buffer: decode that too.
void check_movement_buffer(Bytes input, Bytes buffer) {
  const auto decoded = p::decode_movement_buffer(buffer);
  check_error(decoded);
  if (!decoded) return;
  check_round_trip(
      "movement buffer round trip", input, *decoded,
      [](const p::MovementData& m) { return p::encode_movement_buffer(m); },
      [](Bytes b) { return p::decode_movement_buffer(b); });
}

void check_message(Bytes input) {
  const auto decoded = p::decode_message(input);
  check_error(decoded);
  if (!decoded) return;
  const p::Message& m = *decoded;

  // A decoded message is at least its opcode, and carries the input's opcode.
  const std::uint32_t op = std::uint32_t{input[0]} | std::uint32_t{input[1]} << 8U | std::uint32_t{input[2]} << 16U |
                           std::uint32_t{input[3]} << 24U;
  if (p::opcode_of(m) != op) fail("opcode_of disagrees with the input's opcode", input, {}, describe(m), "");
  // The object messages and Unknown re-encode; the game events and chat
  // lines keep what the client acts on, not the message they came in.
  if (p::is_object_message(m) || std::holds_alternative<p::Unknown>(m)) {
    check_round_trip(
        "message round trip", input, m, [](const p::Message& v) { return p::encode(v); },
        [](Bytes b) { return p::decode_message(b); });
  }
  if (p::to_json(m).empty()) std::abort();

  // The movement buffer inside CreateObject / UpdateObject.
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_base_of_v<p::CreateObject, T>) {
          if (v.physics.movement) check_movement_buffer(input, v.physics.movement->bytes);
        }
      },
      m);
}

void check_outbound(Bytes input) {
  const auto move = p::decode_move_to_state(input);
  check_error(move);
  if (move) {
    check_round_trip(
        "MoveToState round trip", input, *move, [](const p::MoveToState& v) { return p::encode(v); },
        [](Bytes b) { return p::decode_move_to_state(b); });
  }
  const auto autonomous = p::decode_autonomous_position(input);
  check_error(autonomous);
  if (autonomous) {
    check_round_trip(
        "AutonomousPosition round trip", input, *autonomous,
        [](const p::AutonomousPosition& v) { return p::encode(v); },
        [](Bytes b) { return p::decode_autonomous_position(b); });
  }
}

void check_player_description(Bytes input) {
  const auto description = p::decode_player_description(input);
  check_error(description);
  if (description) {
    check_round_trip(
        "PlayerDescription round trip", input, *description,
        [](const p::PlayerDescription& v) {
          return p::encode_game_event(0, 0, p::login_opcode::PlayerDescriptionEvent,
                                      p::encode_player_description_qualities(v));
        },
        [](Bytes b) { return p::decode_player_description(b); });
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const Bytes input(data, size);
  check_message(input);
  check_movement_buffer(input, input);
  check_outbound(input);
  check_player_description(input);
  return 0;
}
