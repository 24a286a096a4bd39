#include "dereth/net/server_address.hpp"

#include <charconv>

namespace dereth::net {

namespace {
core::Result<ServerAddress> refuse(std::string_view text, std::string field, std::string why) {
  return std::unexpected(core::Error{core::ErrorKind::Invalid, std::string(text), std::move(field), 0, std::move(why)});
}

core::Result<std::uint16_t> parse_port(std::string_view text, std::string_view port) {
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
  if (port.empty() || ec != std::errc{} || end != port.data() + port.size() || value == 0 || value > 65534) {
    return std::unexpected(core::Error{core::ErrorKind::Invalid, std::string(text), "port", 0,
                                       "\"" + std::string(port) + "\" is not a port (1-65534)"});
  }
  return static_cast<std::uint16_t>(value);
}
}  // namespace

core::Result<ServerAddress> parse_server_address(std::string_view text) {
  constexpr std::string_view kForm = "give HOST:PORT, e.g. 127.0.0.1:9000 or [::1]:9000";
  ServerAddress a;
  std::string_view rest;
  if (text.starts_with('[')) {
    const auto close = text.find(']');
    if (close == std::string_view::npos) {
      return refuse(text, "host", "the '[' of an IPv6 address has no ']' (" + std::string(kForm) + ")");
    }
    a.host = std::string(text.substr(1, close - 1));
    if (a.host.empty() || a.host.find(':') == std::string::npos) {
      return refuse(text, "host", "brackets hold an IPv6 address, e.g. [::1]:9000");
    }
    rest = text.substr(close + 1);
    if (!rest.empty() && !rest.starts_with(':')) {
      return refuse(text, "port", "after ']' comes :PORT (" + std::string(kForm) + ")");
    }
  } else {
    const auto colon = text.find(':');
    if (colon != std::string_view::npos && text.find(':', colon + 1) != std::string_view::npos) {
      return refuse(text, "host",
                    "an IPv6 address goes in brackets, so its colons are not read as the port: e.g. [" +
                        std::string(text) + "] or [::1]:9000");
    }
    a.host = std::string(text.substr(0, colon));
    if (colon != std::string_view::npos) rest = text.substr(colon);
  }
  if (a.host.empty()) return refuse(text, "host", "names no host (" + std::string(kForm) + ")");
  if (!rest.empty()) {
    DERETH_TRY(a.port, parse_port(text, rest.substr(1)));
  }
  return a;
}

std::string format_server_address(std::string_view host, std::uint16_t port) {
  const bool v6 = host.find(':') != std::string_view::npos;
  return (v6 ? "[" + std::string(host) + "]" : std::string(host)) + ":" + std::to_string(port);
}

}  // namespace dereth::net
