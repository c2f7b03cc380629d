// exec: nothing runs here; the effect carries the code for the backend, which runs it only
// when exec is allowed (--allow-exec; the language server's execAllowed setting). The working
// directory must exist.
#include "apply/actions/runners.h"

#include <fmt/format.h>

namespace blockls::apply {

void run_exec(ActionHost& host) {
  FileEffect e;
  e.kind = FileEffect::Kind::exec;
  e.seq = host.planned().seq;
  e.code = host.value("code");
  e.lang = host.value("lang");
  e.cwd = host.config().root;
  if (host.planned().param("cwd")) {
    const auto cwd = host.resolve_param_path("cwd");
    if (!cwd) return;
    if (host.read_path(*cwd).kind != FileState::Kind::directory) {
      const std::string msg =
          fmt::format("exec: Working directory does not exist '{}'", host.shown_path("cwd"));
      host.report("FILE_NOT_FOUND", "cwd", msg, "Use an existing directory inside the root", msg);
      return;
    }
    e.cwd = *cwd;
  }
  if (!host.config().allow_exec) {
    host.report("EXEC_DISABLED", "", "exec is disabled: the code is not run",
                "Run blockls apply with --allow-exec (language server: the execAllowed setting) to "
                "allow it",
                "exec: disabled (run with --allow-exec to allow it)");
    return;
  }
  host.add_effect(std::move(e));
  host.set_data(nullptr); // filled in when it runs
}

} // namespace blockls::apply
