// TELT parser (stub until implemented).
#include "grammar/telt_parser.h"

namespace blockls {
bool TeltParser::is_start_line(std::string_view line) { return line.starts_with("#!telt ["); }
bool TeltParser::try_start(const LineRef&, ParseContext&) { return false; }
void TeltParser::on_line(const LineRef&, ParseContext&) {}
void TeltParser::finish(ParseContext&, uint32_t) {}
} // namespace blockls
