#pragma once
// The scenario server's options for tests that create characters: with the
// shared creation rules present, the scenario server checks F656 against the
// demo's CharGen (else it has no F656 handling to configure).

#include <catch2/catch.hpp>

#include <memory>

#include "dereth/chargen/char_gen_data.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/scenario/udp_scenario_server.hpp"

namespace dereth::app::test {

inline scenario::UdpServerOptions chargen_server_options() {
  scenario::UdpServerOptions o;
  static const auto data = [] {
    auto world = demo::build_demo_world();
    REQUIRE(world);
    auto portal = dat::DatFile::from_bytes(world->portal, "client_portal.dat");
    REQUIRE(portal);
    dat::RecordCache records(&*portal);
    auto d = chargen::load_char_gen_data(records);
    REQUIRE(d);
    return std::make_shared<const chargen::CharGenData>(std::move(*d));
  }();
  o.server.char_gen = data;
  return o;
}

}  // namespace dereth::app::test
