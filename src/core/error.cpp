#include "dereth/core/error.hpp"

#include <fmt/format.h>

namespace dereth::core {

const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::Truncated: return "truncated";
    case ErrorKind::TooLarge: return "too large";
    case ErrorKind::Invalid: return "invalid";
    case ErrorKind::Unsupported: return "unsupported";
    case ErrorKind::Trailing: return "trailing bytes";
    case ErrorKind::Io: return "i/o error";
  }
  return "error";
}

std::string ReadError::detail() const {
  switch (code) {
    case ReadCode::NeedsBytes: return fmt::format("needs {} bytes, {} remain", a, b);
    case ReadCode::StringTooLong: return fmt::format("string length {} exceeds the {} bytes remaining", a, b);
    case ReadCode::CountTooLarge:
      return fmt::format("count {} of {}-byte elements exceeds the {} bytes remaining", a, b, c);
    case ReadCode::BytesLeft: return fmt::format("{} bytes left unread", a);
  }
  return {};
}

Error ReadError::to_error() const {
  return Error{kind, std::string(context), std::string(field), offset, detail()};
}

std::string Error::message() const {
  std::string out = context.empty() ? std::string("input") : context;
  if (field.empty() && offset == 0 && !detail.empty() && (kind == ErrorKind::Io || kind == ErrorKind::Invalid)) {
    // A whole file or device: "client_portal.dat: cannot be opened".
    return out + ": " + detail;
  }
  if (!field.empty()) {
    out += fmt::format(": {} at offset {}", field, offset);
  } else {
    out += fmt::format(" at offset {}", offset);
  }
  out += fmt::format(": {}", to_string(kind));
  if (!detail.empty()) {
    out += fmt::format(" ({})", detail);
  }
  return out;
}

}  // namespace dereth::core
