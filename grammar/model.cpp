// Names of the model's enums as they appear in every outward format, and seal_block.
#include "grammar/model.h"

#include "grammar/dialects.h"

namespace blockls {

std::string_view dialect_name(Dialect dialect) {
  return dialect == Dialect::none ? "document" : dialect_info(dialect).name;
}

std::string_view era_name(Era era) {
  switch (era) {
  case Era::telt:
    return "telt";
  case Era::sham:
    return "sham";
  case Era::nesl_upper:
    return "NESL";
  case Era::nesl:
    return "nesl";
  case Era::heredoc:
    return "heredoc";
  case Era::editblock:
    return "editblock";
  case Era::replacer:
    return "replacer";
  case Era::sections:
    return "sections";
  case Era::patch:
    return "patch";
  case Era::xml:
    return "xml";
  }
  return "nesl";
}

std::string_view severity_name(Severity severity) {
  switch (severity) {
  case Severity::block_fatal:
    return "block_fatal";
  case Severity::command_error:
    return "command_error";
  case Severity::parameter_warning:
    return "parameter_warning";
  case Severity::syntax_info:
    return "syntax_info";
  }
  return "block_fatal";
}

void seal_block(Block& block, const std::pmr::memory_resource* arena) {
  block.commands.seal_if(arena, [arena](Command& command) {
    const bool params = command.params.seal_if(arena, [](const Parameter& p) {
      return (int{string_owns_no_heap(p.name)} & int{p.decoded.empty()}) != 0;
    });
    // An action name too long for the inline buffer is in the arena too.
    return params &&
           (string_owns_no_heap(command.name) || command.name.get_allocator().resource() == arena);
  });
}

std::string_view command_path(std::string_view text, const Command& command) {
  const auto names_file = [](std::string_view name) {
    std::string lowered(name);
    for (char& c : lowered)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return lowered.find("path") != std::string::npos || lowered.find("file") != std::string::npos;
  };
  for (const Parameter& p : command.params)
    if (names_file(p.name)) return p.value(text);
  return {};
}

} // namespace blockls
