#pragma once
// Runs `dereth` in-process as a user would (argv[0] first) and captures what
// it printed.

#include <sstream>
#include <string>
#include <vector>

#include "dereth/app/cli.hpp"

namespace dereth::app::test {

inline int run(std::vector<std::string> args, std::string& out, std::string& err) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream o, e;
  const int rc = run_cli(static_cast<int>(argv.size()), argv.data(), o, e);
  out = o.str();
  err = e.str();
  return rc;
}

}  // namespace dereth::app::test
