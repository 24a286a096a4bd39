#pragma once
// A small streaming JSON writer for the tools' machine-readable output
// (dereth-msg, and later dereth-dat, dereth-cap and the sim digests).
// Output is compact (one line) and deterministic.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dereth::core {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);

  JsonWriter& string(std::string_view text);
  JsonWriter& boolean(bool v);
  JsonWriter& number(std::uint64_t v);
  JsonWriter& number(std::int64_t v);
  JsonWriter& number(std::uint32_t v) { return number(static_cast<std::uint64_t>(v)); }
  JsonWriter& number(std::uint16_t v) { return number(static_cast<std::uint64_t>(v)); }
  JsonWriter& number(std::uint8_t v) { return number(static_cast<std::uint64_t>(v)); }
  JsonWriter& number(std::int32_t v) { return number(static_cast<std::int64_t>(v)); }
  JsonWriter& null();
  // An id or DID as a hex string: "0x50000042" (8 digits, upper case).
  JsonWriter& hex(std::uint32_t v);
  // A float: a JSON number when finite (shortest round-trip text);
  // otherwise {"value":"nan"|"inf"|"-inf","bits":"0x7FC01234"}.
  JsonWriter& f32(float v);
  JsonWriter& f64(double v);

  [[nodiscard]] const std::string& str() const noexcept { return out_; }

 private:
  void before_value();
  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Escapes a string for JSON (quotes included).
[[nodiscard]] std::string json_quote(std::string_view text);

}  // namespace dereth::core
