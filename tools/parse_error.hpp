#pragma once
// How the developer tools answer a bad command line: one line on stderr
// starting with the tool's name, exit status 2. An option the tool does not
// have is named even when a required argument is missing too (CLI11 checks
// the required ones first, so `dereth-cap --bogus` said only "FILE is
// required"). --help and --version keep CLI11's own output and exit 0.

#include <cctype>
#include <iostream>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

namespace dereth::tools {

inline int parse_error(CLI::App& app, const CLI::ParseError& e, int argc, char** argv, std::string_view tool) {
  if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg == "--") break;
    if (arg.size() < 2 || arg[0] != '-') continue;
    // A negative number is a value, not an option.
    if (std::isdigit(static_cast<unsigned char>(arg[1])) != 0 || arg[1] == '.') continue;
    const std::string name(arg.substr(0, arg.find('=')));
    if (app.get_option_no_throw(name) == nullptr) {
      std::cerr << tool << ": " << name << " is not an option of " << tool << " (" << tool << " --help lists them)\n";
      return 2;
    }
  }
  std::cerr << tool << ": " << e.what() << " (" << tool << " --help lists the options)\n";
  return 2;
}

}  // namespace dereth::tools
