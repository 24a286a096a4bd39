#pragma once

namespace dereth::app {

// Parses the command line and runs the chosen command; returns the exit code.
int run_cli(int argc, char** argv);

}  // namespace dereth::app
