#pragma once
// The error type returned by every parser of untrusted bytes (network, DAT,
// capture files): it names what was being read, the field and the byte offset.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace dereth::core {

enum class ErrorKind : std::uint8_t {
  Truncated,    // fewer bytes remain than the field needs
  TooLarge,     // a length or count exceeds what the remaining bytes can hold
  Invalid,      // a value outside what the format allows
  Unsupported,  // a valid but unimplemented variant
  Trailing,     // bytes left over after a complete decode
  Io,           // a file could not be opened or read
};

[[nodiscard]] const char* to_string(ErrorKind kind) noexcept;

struct Error {
  ErrorKind kind = ErrorKind::Invalid;
  std::string context;     // what was being read: "F745 CreateObject", "DAT 0x01000042"
  std::string field;       // the field: "PhysicsDesc.movement.length"
  std::size_t offset = 0;  // byte offset of the field from the start of the context
  std::string detail;      // what was wrong: "needs 4 bytes, 2 remain"

  // "F745 CreateObject: PhysicsDesc.movement.length at offset 52: truncated (needs 4 bytes, 2 remain)";
  // an i/o or invalid error about a whole thing (no field, offset 0) is just
  // "context: detail" ("/x/client_portal.dat: cannot be opened").
  [[nodiscard]] std::string message() const;
};

template <class T>
using Result = std::expected<T, Error>;

// Which sentence a ByteReader error reports (its detail, from the numbers a, b, c).
enum class ReadCode : std::uint8_t {
  NeedsBytes,     // "needs {a} bytes, {b} remain"
  StringTooLong,  // "string length {a} exceeds the {b} bytes remaining"
  CountTooLarge,  // "count {a} of {b}-byte elements exceeds the {c} bytes remaining"
  BytesLeft,      // "{a} bytes left unread"
};

// The error of one ByteReader read: a code, the offset and the numbers of its
// sentence, with no strings, so that a read that succeeds costs one bounds
// check and one that fails allocates nothing. The sentence is built only when
// the error is reported: converted to an Error (which the DERETH_TRY of a
// function returning Result<T> does) or asked for its message(). The context
// and field are views of the reader's context and the field literal: report
// the error while the reader's context is alive.
struct ReadError {
  ErrorKind kind = ErrorKind::Truncated;
  ReadCode code = ReadCode::NeedsBytes;
  std::string_view context;
  std::string_view field;
  std::size_t offset = 0;
  std::uint64_t a = 0;
  std::uint64_t b = 0;
  std::uint64_t c = 0;

  [[nodiscard]] std::string detail() const;
  [[nodiscard]] Error to_error() const;
  [[nodiscard]] std::string message() const { return to_error().message(); }
  // Reporting: the same Error (and the same message) the reader's checks
  // have always produced.
  operator Error() const { return to_error(); }  // NOLINT(google-explicit-constructor)
};

template <class T>
using ReadResult = std::expected<T, ReadError>;

}  // namespace dereth::core

#define DERETH_CONCAT_INNER(a, b) a##b
#define DERETH_CONCAT(a, b) DERETH_CONCAT_INNER(a, b)

// DERETH_TRY(lhs, expr): evaluate a Result; on error return it from the
// enclosing function (whose return type is a Result); else assign the value.
#define DERETH_TRY(lhs, expr)                                                        \
  auto DERETH_CONCAT(dereth_try_, __LINE__) = (expr);                                \
  if (!DERETH_CONCAT(dereth_try_, __LINE__)) [[unlikely]]                            \
    return std::unexpected(std::move(DERETH_CONCAT(dereth_try_, __LINE__).error())); \
  lhs = std::move(*DERETH_CONCAT(dereth_try_, __LINE__))

// DERETH_CHECK(expr): evaluate a Result<void>; on error return it.
#define DERETH_CHECK(expr)                                        \
  do {                                                            \
    if (auto dereth_check_ = (expr); !dereth_check_) [[unlikely]] \
      return std::unexpected(std::move(dereth_check_.error()));   \
  } while (false)
