// blockls entry point: everything happens in cli::run.
#include "cli/app.h"
#include "cli/process_heap.h"

#include <iostream>

int main(int argc, char** argv) {
  blockls::cli::configure_process_heap();
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  return blockls::cli::run(args, std::cout, std::cerr);
}
