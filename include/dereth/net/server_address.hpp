#pragma once
// The server a player names (`dereth play --server`): "HOST:PORT", or HOST
// alone for ACE's default port 9000. An IPv6 literal goes in brackets, with
// or without a port ("[::1]:9000", "[::1]"), as in a URL: bare, its colons
// could not be told from the port's. PORT is the server's first port; the
// client also talks to PORT+1, so 65535 is refused.

#include <cstdint>
#include <string>
#include <string_view>

#include "dereth/core/error.hpp"

namespace dereth::net {

inline constexpr std::uint16_t kDefaultServerPort = 9000;  // ACE's and GDLE's first port

struct ServerAddress {
  std::string host;  // as the resolver takes it: a name, a dotted quad, or an IPv6 literal without brackets
  std::uint16_t port = kDefaultServerPort;
  bool operator==(const ServerAddress&) const = default;
};

// The address in `text`, or an error (kind Invalid, context the text as
// given, field "host" or "port") whose detail is a sentence for the player.
[[nodiscard]] core::Result<ServerAddress> parse_server_address(std::string_view text);

// "host:port", with an IPv6 literal in brackets ("[::1]:9000").
[[nodiscard]] std::string format_server_address(std::string_view host, std::uint16_t port);

}  // namespace dereth::net
