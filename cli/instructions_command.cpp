// `blockls instructions DIALECT` (see instructions_command.h): every registered dialect's text
// comes from its DialectInfo, so a new dialect needs no change here.
#include "cli/instructions_command.h"

#include "grammar/dialect_set.h"
#include "grammar/dialects.h"

#include <ostream>

namespace blockls::cli {

int run_instructions(const std::string& dialect, std::ostream& out, std::ostream& err) {
  const std::optional<Dialect> d = find_dialect(dialect);
  if (!d) {
    err << "blockls: unknown dialect '" << dialect << "' (known: " << dialect_names(", ") << ")\n";
    return 2;
  }
  const DialectInfo& info = dialect_info(*d);
  out << info.instructions << "\nExample:\n\n" << info.example;
  return 0;
}

} // namespace blockls::cli
