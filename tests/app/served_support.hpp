#pragma once
// A scenario file of this repository served over loopback UDP on a free
// port pair, for the tests that run `dereth play` against it.

#include <catch2/catch.hpp>

#include <string>
#include <utility>

#include "dereth/scenario/scenario.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

namespace dereth::app::test {

struct Served {
  explicit Served(const std::string& relative, scenario::UdpServerOptions options = {})
      : server(load(relative), options) {
    REQUIRE(server.start().has_value());
    where = "127.0.0.1:" + std::to_string(server.port());
  }
  static scenario::Scenario load(const std::string& relative) {
    auto sc = scenario::load_scenario_file(std::string(DERETH_SOURCE_DIR) + relative);
    REQUIRE(sc.has_value());
    return std::move(*sc);
  }
  scenario::UdpScenarioServer server;
  std::string where;  // "127.0.0.1:PORT", for --server
};

}  // namespace dereth::app::test
