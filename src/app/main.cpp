#include "dereth/app/cli.hpp"

int main(int argc, char** argv) {
  return dereth::app::run_cli(argc, argv);
}
