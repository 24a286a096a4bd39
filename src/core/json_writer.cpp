#include "dereth/core/json_writer.hpp"

#include <bit>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

namespace dereth::core {

namespace {

// Shortest text that reads back to the same value (std::to_chars guarantees it).
template <class T>
std::string shortest(T v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ec == std::errc{} ? end : buf);
}

}  // namespace

std::string json_quote(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 2);
  out.push_back('"');
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20 || u >= 0x7F) {
          // Wire strings are Windows-1252: bytes above 0x7E are written as the
          // code point of the same number so the output stays valid JSON.
          out += fmt::format("\\u{:04x}", u);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
  return out;
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) {
      out_.push_back(',');
    }
    first_.back() = false;
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_.push_back('{');
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  out_.push_back('}');
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_.push_back('[');
  first_.push_back(true);
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  out_.push_back(']');
  first_.pop_back();
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  before_value();
  out_ += json_quote(name);
  out_.push_back(':');
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view text) {
  before_value();
  out_ += json_quote(text);
  return *this;
}

JsonWriter& JsonWriter::boolean(bool v) {
  before_value();
  out_ += v ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::number(std::uint64_t v) {
  before_value();
  out_ += fmt::format("{}", v);
  return *this;
}

JsonWriter& JsonWriter::number(std::int64_t v) {
  before_value();
  out_ += fmt::format("{}", v);
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

JsonWriter& JsonWriter::hex(std::uint32_t v) {
  before_value();
  out_ += fmt::format("\"0x{:08X}\"", v);
  return *this;
}

JsonWriter& JsonWriter::f32(float v) {
  if (std::isfinite(v)) {
    before_value();
    out_ += shortest(v);
    return *this;
  }
  begin_object();
  key("value").string(std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
  key("bits").hex(std::bit_cast<std::uint32_t>(v));
  return end_object();
}

JsonWriter& JsonWriter::f64(double v) {
  if (std::isfinite(v)) {
    before_value();
    out_ += shortest(v);
    return *this;
  }
  begin_object();
  key("value").string(std::isnan(v) ? "nan" : (v > 0 ? "inf" : "-inf"));
  key("bits");
  before_value();
  out_ += fmt::format("\"0x{:016X}\"", std::bit_cast<std::uint64_t>(v));
  return end_object();
}

}  // namespace dereth::core
