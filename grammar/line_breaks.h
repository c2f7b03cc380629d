// Line breaks of values: what a parser stores for a value written with CRLF breaks (the
// model's values use "\n"), and how a fix writes a value back into a block in the block's own
// line breaks. One place for what every dialect with multi-line values needs.
#pragma once

#include "grammar/model.h"

#include <string>
#include <string_view>

namespace blockls {

// `text` with every CRLF pair made LF (a lone '\r' stays).
std::string crlf_to_lf(std::string_view text);
// The same, appended to `*out` (a caller that reuses one buffer allocates nothing).
void append_crlf_to_lf(std::string* out, std::string_view text);

// Whether `block`'s first line ends with CRLF: the break a fix writes inside it.
bool block_uses_crlf(std::string_view text, const Block& block);

// `value` (LF breaks) as a fix writes it into `block`: with CRLF breaks if the block uses them,
// and a final break when `own_line` (the value takes the place of a section that had no line).
std::string in_block_line_breaks(std::string_view text, const Block& block, std::string_view value,
                                 bool own_line = false);

// `range` without a final '\r' that stands before a '\n' of `text`: the "\r" of a CRLF break that
// a TELT value keeps (spec/telt.md) is no text a diagnostic should underline or a fix replace
// (a fix writing over it made the transcript's CRLF an LF).
ByteRange without_break_cr(std::string_view text, ByteRange range);

} // namespace blockls
