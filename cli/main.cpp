// blockls entry point: everything happens in cli::run.
#include "cli/app.h"
#include "cli/process_heap.h"

#include <cerrno>
#include <cstring>
#include <exception>
#include <iostream>
#include <new>

namespace {

// The exit status once standard output is flushed: `status`, or 2 with a message when a write
// to it failed (a full disk, a closed pipe with SIGPIPE ignored). Without this, `blockls fix
// t.md > t.new && mv t.new t.md` on a full disk exited 0 over a cut-off t.new. The stream and
// the language server write their own output and check each write.
int after_output(int status) {
  const bool failed_earlier = !std::cout; // a buffer flushed while the command ran
  errno = 0;
  std::cout.flush();
  if (std::cout) return status;
  const int error = errno;
  std::cerr << "blockls: cannot write standard output";
  if (!failed_earlier && error != 0) std::cerr << ": " << std::strerror(error);
  std::cerr << "; the output is incomplete\n";
  return blockls::cli::kExitUsage;
}

} // namespace

int main(int argc, char** argv) {
  blockls::cli::configure_process_heap();
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  // What no command handles ends here with a message and exit status 2, not with an abort (a
  // core dump and "terminate called after throwing"). Running out of memory is the one a user
  // can meet: a transcript with a mistake on nearly every line holds a diagnostic or three per
  // line, ~100 times the input's size at worst. An apply interrupted so is rolled back by its
  // journal, like one killed mid-way.
  try {
    return after_output(blockls::cli::run(args, std::cout, std::cerr));
  } catch (const std::bad_alloc&) {
    std::cout.flush();
    std::cerr << "blockls: out of memory: the system gave no more memory to hold what the input "
                 "made (a transcript with a mistake on nearly every line can need ~100 times its "
                 "size); any output above is incomplete. Check the transcript in smaller pieces.\n";
  } catch (const std::exception& e) {
    std::cout.flush();
    std::cerr << "blockls: internal error: " << e.what() << "; any output above is incomplete.\n";
  }
  return blockls::cli::kExitUsage;
}
