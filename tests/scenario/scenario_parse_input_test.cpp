// The `input` directive (docs/scenario.md, "Local input"): the local
// player's keys at given times, and errors that name the line and field.
#include <catch2/catch.hpp>

#include <string>

#include "dereth/scenario/demo_scenario.hpp"
#include "dereth/scenario/scenario.hpp"

using namespace dereth::scenario;

TEST_CASE("Scenario: input lines give the local player's keys in time order", "[scenario][parse][input]") {
  const auto s = parse_scenario(
      "input forward up at=4.0\n"
      "input forward down at=2\n"
      "input turn_left down at=2   # same time: file order\n"
      "input strafe_right down at=5.5\n"
      "input walk down at=6\n"
      "input autorun down at=7\n"
      "input jump up at=8\n"
      "input backward down at=9\n"
      "input turn_right up at=10\n"
      "input strafe_left up at=11\n",
      "walk.scenario");
  if (!s) FAIL(s.error().message());
  REQUIRE(s->inputs.size() == 10);
  CHECK(s->inputs[0] == InputEvent{2.0, 2, InputKey::Forward, true});
  CHECK(s->inputs[1] == InputEvent{2.0, 3, InputKey::TurnLeft, true});
  CHECK(s->inputs[2] == InputEvent{4.0, 1, InputKey::Forward, false});
  CHECK(s->inputs[3].key == InputKey::StrafeRight);
  CHECK(s->inputs[3].time == 5.5);
  CHECK(s->inputs[4].key == InputKey::Walk);
  CHECK(s->inputs[5].key == InputKey::AutoRun);
  CHECK(s->inputs[6] == InputEvent{8.0, 7, InputKey::Jump, false});
  CHECK(s->inputs[7].key == InputKey::Backward);
  CHECK(s->inputs[8].key == InputKey::TurnRight);
  CHECK(s->inputs[9].key == InputKey::StrafeLeft);
  CHECK(s->stream.empty());  // the server plays none of them
  for (const InputEvent& e : s->inputs) {
    // Every key's name is the one the line used.
    CHECK_FALSE(std::string(to_string(e.key)).empty());
  }
  CHECK(to_string(InputKey::StrafeLeft) == "strafe_left");
}

TEST_CASE("Scenario: a bad input line is an error naming the line and the field",
          "[scenario][parse][input][malformed]") {
  struct Case {
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {"world X\ninput sprint down at=1\n",
       "bad.scenario:2: input at offset 7: invalid (unknown key 'sprint' (the keys: forward, backward, turn_left"},
      {"input forward sideways at=1\n",
       "bad.scenario:1: input at offset 15: invalid (expected down or up, got 'sideways')"},
      {"input forward down\n", "bad.scenario:1: input at offset 1: invalid (missing at=)"},
      {"input forward down at=soon\n", "bad.scenario:1: at at offset 20: invalid (expected a number, got 'soon')"},
      {"input forward down at=-1\n", "bad.scenario:1: at at offset 20: invalid (-1 is negative)"},
      {"input\n", "bad.scenario:1: input at offset 1: invalid (missing key)"},
      {"input forward\n", "bad.scenario:1: input at offset 1: invalid (missing down or up)"},
      {"input forward down at=1 speed=2\n",
       "bad.scenario:1: input at offset 25: invalid (unknown argument 'speed=' for input)"},
      {"input forward down at=1 extra\n", "bad.scenario:1: input at offset 25: invalid (unexpected 'extra' for input)"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    auto s = parse_scenario(c.text, "bad.scenario");
    REQUIRE_FALSE(s.has_value());
    const std::string message = s.error().message();
    INFO(message);
    CHECK(message.find(c.expected) != std::string::npos);
  }
}

TEST_CASE("Scenario: the demo scenario scripts a walk after the teleport", "[scenario][parse][input][demo]") {
  const auto s = demo_scenario();
  if (!s) FAIL(s.error().message());
  REQUIRE_FALSE(s->inputs.empty());
  CHECK(s->inputs.front().key == InputKey::Forward);
  CHECK(s->inputs.front().down);
  CHECK(s->inputs.front().time > 21.0);  // after the teleport at 21 s
  int downs = 0;
  int ups = 0;
  for (const InputEvent& e : s->inputs) (e.down ? downs : ups) += 1;
  CHECK(downs == ups);  // every key pressed is released
}
