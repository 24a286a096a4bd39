#pragma once
// WeenieError (F7B0 0x028A) and WeenieErrorWithString (0x028B) as the words
// the player reads. Retail looks the code up in its own string table; the
// server sends only the code (and, for the second, one string to put into
// the sentence: a name, a channel, a level). The codes and what each means
// are the client's WeenieError enum (as ACE lists it); the sentences here
// are dereth's own. A code with no sentence still reads as a sentence that
// names it, so nothing the server says is lost.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace dereth::protocol {

// The sentence for `code`; `text` is WeenieErrorWithString's string (CP1252
// as received is fine: it is copied in as it is, never used as a format).
// With a string, the code's with-string sentence takes it; a code known
// only without one keeps its sentence and adds the string after it. An
// unknown code, or a with-string code sent without its string: "The server
// answered with code 0x052F." (and ": TEXT" when a string came).
[[nodiscard]] std::string weenie_error_text(std::uint32_t code, const std::optional<std::string>& text = std::nullopt);

// The sentence of a known code (none when dereth has none): `with_string`
// picks the table of WeenieErrorWithString, whose sentences hold `%s` where
// the string goes.
[[nodiscard]] std::optional<std::string_view> weenie_error_sentence(std::uint32_t code, bool with_string);

}  // namespace dereth::protocol
