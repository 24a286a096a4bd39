#include "dereth/app/cli.hpp"

#include <iostream>

#include <CLI/CLI.hpp>

#include "dereth/core/version.hpp"

namespace dereth::app {

int run_cli(int argc, char** argv) {
  CLI::App app{"dereth: a retail-faithful Asheron's Call client", "dereth"};
  app.set_version_flag("--version", std::string("dereth ") + std::string(core::version()));
  bool demo = false;
  auto* demo_cmd = app.add_subcommand("demo", "Run the embedded demo world (not available yet)");
  demo_cmd->callback([&] { demo = true; });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; every bad argument exits 2.
    return app.exit(e) == 0 ? 0 : 2;
  }
  if (demo || app.get_subcommands().empty()) {
    std::cerr << "dereth: the embedded demo is not built yet (the renderer, the synthetic world and\n"
                 "the scenario server come in later work). Available now: --version, --help, and\n"
                 "the developer tool build/bin/dereth-msg.\n";
    return 2;
  }
  return 0;
}

}  // namespace dereth::app
