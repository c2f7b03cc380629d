// NESL parser (stub until implemented).
#include "grammar/nesl_parser.h"

namespace blockls {
bool NeslParser::try_start(const LineRef&, ParseContext&) { return false; }
void NeslParser::on_line(const LineRef&, ParseContext&) {}
void NeslParser::yield_to_foreign_start(const LineRef&, ParseContext&) {}
void NeslParser::finish(ParseContext&, uint32_t) {}
} // namespace blockls
