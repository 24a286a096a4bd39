// `dereth play --server`: HOST:PORT, HOST alone (port 9000), and IPv6
// literals in brackets with and without a port.
#include "dereth/net/server_address.hpp"

#include <catch2/catch.hpp>

using dereth::net::format_server_address;
using dereth::net::parse_server_address;
using dereth::net::ServerAddress;

TEST_CASE("Server addresses: names, IPv4 and bracketed IPv6, with and without a port", "[net][address]") {
  CHECK(parse_server_address("127.0.0.1:9000").value() == ServerAddress{"127.0.0.1", 9000});
  CHECK(parse_server_address("play.example.org:9050").value() == ServerAddress{"play.example.org", 9050});
  CHECK(parse_server_address("localhost").value() == ServerAddress{"localhost", 9000});
  CHECK(parse_server_address("[::1]").value() == ServerAddress{"::1", 9000});
  CHECK(parse_server_address("[::1]:9000").value() == ServerAddress{"::1", 9000});
  CHECK(parse_server_address("[fe80::1%eth0]:9331").value() == ServerAddress{"fe80::1%eth0", 9331});
  CHECK(parse_server_address("[2001:db8::7]:65534").value() == ServerAddress{"2001:db8::7", 65534});
  CHECK(format_server_address("::1", 9000) == "[::1]:9000");
  CHECK(format_server_address("127.0.0.1", 9000) == "127.0.0.1:9000");
}

TEST_CASE("Server addresses: what is wrong is one sentence naming the part", "[net][address]") {
  const auto detail = [](std::string_view text) {
    auto a = parse_server_address(text);
    REQUIRE_FALSE(a.has_value());
    CHECK(a.error().context == text);
    return a.error().detail;
  };
  CHECK(detail("::1") ==
        "an IPv6 address goes in brackets, so its colons are not read as the port: e.g. [::1] or "
        "[::1]:9000");
  CHECK(detail("::1:9000").find("goes in brackets") != std::string::npos);
  CHECK(detail("[::1").find("has no ']'") != std::string::npos);
  CHECK(detail("[::1]9000").find("after ']' comes :PORT") != std::string::npos);
  CHECK(detail("[127.0.0.1]:9000") == "brackets hold an IPv6 address, e.g. [::1]:9000");
  CHECK(detail(":9000").find("names no host") != std::string::npos);
  CHECK(detail("").find("names no host") != std::string::npos);
  CHECK(detail("127.0.0.1:") == "\"\" is not a port (1-65534)");
  CHECK(detail("127.0.0.1:0") == "\"0\" is not a port (1-65534)");
  CHECK(detail("127.0.0.1:65535") == "\"65535\" is not a port (1-65534)");
  CHECK(detail("127.0.0.1:90x") == "\"90x\" is not a port (1-65534)");
  CHECK(detail("[::1]:99999") == "\"99999\" is not a port (1-65534)");
}
