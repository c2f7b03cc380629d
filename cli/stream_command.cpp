// `blockls stream` (see stream_command.h): the read loop around StreamSession.
#include "cli/stream_command.h"

#include "cli/app.h"
#include "cli/option_checks.h"
#include "cli/stream_apply.h"
#include "cli/stream_session.h"
#include "diagnostics/json_text.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <ostream>
#include <unistd.h>

namespace blockls::cli {
namespace {

// The options of applying, as given: without --apply they would be ignored, silently.
std::vector<std::string> apply_only_options(const ApplyRequest& o) {
  std::vector<std::string> given;
  if (!o.root.empty()) given.push_back("--root");
  if (o.dry_run) given.push_back("--dry-run");
  if (o.allow_exec) given.push_back("--allow-exec");
  if (!o.deny.empty()) given.push_back("--deny");
  if (!o.allow_roots.empty()) given.push_back("--allow-root");
  if (o.max_file_size) given.push_back("--max-file-size");
  if (o.exec_timeout_seconds != ApplyRequest{}.exec_timeout_seconds)
    given.push_back("--exec-timeout");
  return given;
}

} // namespace

int run_stream(const StreamRequest& request, std::ostream& out, std::ostream& err) {
  CheckOptions options;
  options.parse.dialects = request.dialects;
  options.catalog = request.catalog;
  // One event per line. The events of a read are gathered and written together before the next
  // read (and before a block is applied): the reader has each block_end before the stream waits
  // for more input, as the spec asks, without a write(2) per event (a 2 MB transcript has
  // thousands of events; one system call each was more than the whole check).
  std::string pending;
  const auto write_line = [&pending](std::string_view line) {
    pending.append(line);
    pending.push_back('\n');
  };
  // Whether standard output could not be written (its reader gone with SIGPIPE ignored, a full
  // disk), and why: the stream then stops, and applies no block whose block_end was not written.
  std::optional<std::string> output_error;
  const auto flush = [&pending, &out, &output_error] {
    if (pending.empty() || output_error) return;
    errno = 0;
    out.write(pending.data(), static_cast<std::streamsize>(pending.size()));
    out.flush();
    pending.clear();
    if (!out) output_error = errno != 0 ? std::strerror(errno) : "write error";
  };
  const auto stop_on_output_error = [&]() {
    err << "blockls stream: cannot write to standard output (" << *output_error
        << "); stopped: no block after the last event written was applied\n";
    return kExitUsage;
  };
  StreamSession session(options, [&](const StreamEvent& event) { write_line(event.json); });
  std::unique_ptr<StreamApplier> applier;
  if (request.apply) {
    if (request.apply_options.root.empty()) {
      err << "blockls stream: --apply needs --root DIR (the directory the blocks change)\n";
      return kExitUsage;
    }
    applier = std::make_unique<StreamApplier>(request.apply_options, request.catalog);
    if (!applier->start(err)) return kExitUsage;
    // Each block right after its block_end: applied (or skipped) before the next byte is read.
    session.set_on_block_end(
        [&](std::string_view text, const CheckedDocument& checked, size_t block) {
          flush();                  // the block_end is out before the files are touched
          if (output_error) return; // the reader was not told: not applied
          write_line(dump_json(applier->apply_block(text, checked, block)));
        });
  } else if (const std::vector<std::string> given = apply_only_options(request.apply_options);
             !given.empty()) {
    err << "blockls stream: " << list_options(given) << (given.size() == 1 ? " is" : " are")
        << " only used with --apply\n";
    return kExitUsage;
  }
  // read(2), not a buffered stream: a chunk is parsed as soon as it arrives, whatever its size.
  char buffer[64 * 1024];
  size_t total = 0;
  for (;;) {
    const ssize_t n = ::read(request.input_fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      err << "blockls stream: cannot read standard input: " << std::strerror(errno) << '\n';
      return kExitUsage;
    }
    const std::string_view chunk(buffer, static_cast<size_t>(n));
    // An input error stops the stream where it is found: what came before it in the same read
    // is parsed first (its closed blocks reported and applied), as if it had come in a read of
    // its own — the blocks applied must not depend on how the input was cut into reads.
    const size_t nul = chunk.find('\0');
    const size_t room = request.limits.max_bytes - std::min(total, request.limits.max_bytes);
    const size_t usable = std::min({nul, room, chunk.size()});
    session.feed(chunk.substr(0, usable));
    flush();
    if (output_error) return stop_on_output_error();
    if (nul != std::string_view::npos && nul <= room) {
      err << fmt::format("blockls stream: standard input is binary (a NUL byte at offset {}); "
                         "stopped\n",
                         total + nul);
      return kExitUsage;
    }
    total += chunk.size();
    if (total > request.limits.max_bytes) {
      err << fmt::format("blockls stream: standard input is larger than --max-size ({} bytes); "
                         "stopped\n",
                         request.limits.max_bytes);
      return kExitUsage;
    }
  }
  const size_t errors = session.finish();
  flush();
  if (output_error) return stop_on_output_error();
  if (applier && applier->io_error()) return kExitUsage;
  return errors > 0 || (applier && applier->any_failed()) ? kExitFindings : kExitOk;
}

} // namespace blockls::cli
