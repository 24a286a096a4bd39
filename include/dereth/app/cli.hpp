#pragma once
#include <iosfwd>

namespace dereth::app {

// Parses the command line and runs the chosen command; returns the exit code.
int run_cli(int argc, char** argv);
// The same, writing to the given streams (tests).
int run_cli(int argc, char** argv, std::ostream& out, std::ostream& err);

}  // namespace dereth::app
