// workspace/executeCommand: checks the arguments of blockls.executeBlock / executeAll and runs
// them once the analysis of that version is current; blockls.showDebugInfo answers at once.
#include "lsp/handlers.h"

namespace blockls::lsp {

void execute_command(Session& s, const json& id, const json& params) {
  const ExecuteCommandParams p = params.get<ExecuteCommandParams>();
  if (p.command == "blockls.showDebugInfo") return s.reply(id, debug_info(s, p.argument));
  if (p.command != "blockls.executeBlock" && p.command != "blockls.executeAll")
    throw LspError(kInvalidParams, "command: unknown command '" + p.command + "'");
  const bool all = p.command == "blockls.executeAll";
  ExecuteBlockArguments args;
  if (all)
    static_cast<ExecuteAllArguments&>(args) = p.argument.get<ExecuteAllArguments>();
  else
    args = p.argument.get<ExecuteBlockArguments>();
  const Doc* doc = s.find_doc(args.uri);
  if (!doc)
    throw LspError(kInvalidParams, "arguments[0].uri: the document is not open: " + args.uri);
  // A line outside the document is a bad argument, not a line without a block.
  const uint32_t lines = doc->text.lines->line_count();
  if (!all && (args.line < 0 || args.line >= lines))
    throw LspError(kInvalidParams, "invalid field 'line' (expected a 0-based line of the "
                                   "document, 0 to " +
                                       std::to_string(lines - 1) + ")");
  s.with_analysis(
      id, args.uri, false,
      [&s, id, args, all, token = p.work_done_token](std::shared_ptr<const Analysis> a) {
        execute_blocks(s, id, args, all, token, std::move(a));
      });
}

} // namespace blockls::lsp
