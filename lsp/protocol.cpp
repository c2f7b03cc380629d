// JSON field helpers and position conversion for the protocol layer.
#include "lsp/protocol.h"

#include "grammar/unicode.h"

namespace blockls::lsp {
namespace {

std::string_view type_name(json::value_t type) {
  switch (type) {
  case json::value_t::string:
    return "string";
  case json::value_t::object:
    return "object";
  case json::value_t::array:
    return "array";
  case json::value_t::boolean:
    return "boolean";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
    return "integer";
  case json::value_t::number_float:
    return "number";
  default:
    return "value";
  }
}

// Walks `path`; nullptr when a segment is missing or null.
const json* walk(const json& object, std::string_view path) {
  const json* at = &object;
  while (!path.empty()) {
    const size_t dot = path.find('.');
    const std::string key(path.substr(0, dot));
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    if (!at->is_object()) return nullptr;
    auto it = at->find(key);
    if (it == at->end() || it->is_null()) return nullptr;
    at = &*it;
  }
  return at;
}

bool is_integer(const json& j) {
  return j.is_number_integer() || j.is_number_unsigned();
}

} // namespace

void invalid_field(std::string_view path, std::string_view expected, bool missing) {
  throw LspError(kInvalidParams, std::string(missing ? "missing field '" : "invalid field '") +
                                     std::string(path) + "' (expected " + std::string(expected) +
                                     ")");
}

const json& require_field(const json& object, std::string_view path) {
  const json* at = walk(object, path);
  if (!at) invalid_field(path, "a value", true);
  return *at;
}

std::string require_string(const json& object, std::string_view path) {
  const json* at = walk(object, path);
  if (!at) invalid_field(path, "string", true);
  if (!at->is_string()) invalid_field(path, "string", false);
  return at->get<std::string>();
}

int64_t require_int(const json& object, std::string_view path) {
  const json* at = walk(object, path);
  if (!at) invalid_field(path, "integer", true);
  if (!is_integer(*at)) invalid_field(path, "integer", false);
  return at->get<int64_t>();
}

const json& require_object(const json& object, std::string_view path) {
  const json* at = walk(object, path);
  if (!at) invalid_field(path, "object", true);
  if (!at->is_object()) invalid_field(path, "object", false);
  return *at;
}

const json& require_array(const json& object, std::string_view path) {
  const json* at = walk(object, path);
  if (!at) invalid_field(path, "array", true);
  if (!at->is_array()) invalid_field(path, "array", false);
  return *at;
}

const json* optional_field(const json& object, std::string_view path, json::value_t type) {
  const json* at = walk(object, path);
  if (!at) return nullptr;
  const bool ok = type == json::value_t::number_integer ? is_integer(*at) : at->type() == type;
  if (!ok) invalid_field(path, type_name(type), false);
  return at;
}

bool capability(const json& capabilities, std::string_view path) {
  const json* at = walk(capabilities, path);
  return at && at->is_boolean() && at->get<bool>();
}

std::string_view encoding_name(PositionEncoding encoding) {
  switch (encoding) {
  case PositionEncoding::utf8:
    return "utf-8";
  case PositionEncoding::utf32:
    return "utf-32";
  case PositionEncoding::utf16:
    break;
  }
  return "utf-16";
}

Position PositionMapper::position(size_t offset) const {
  if (offset > text_.size()) offset = text_.size();
  Position p;
  p.line = lines_.line_of(offset);
  // An offset inside a line break ("\r" of "\r\n") is reported at the line end.
  const size_t end = lines_.line_end(text_, p.line);
  if (offset > end) offset = end;
  switch (encoding_) {
  case PositionEncoding::utf8:
    p.character = static_cast<uint32_t>(lines_.utf8_column(offset));
    break;
  case PositionEncoding::utf16:
    p.character = static_cast<uint32_t>(lines_.utf16_column(text_, offset));
    break;
  case PositionEncoding::utf32: { // code points (an invalid byte counts as one, as U+FFFD)
    const size_t start = lines_.line_start(p.line);
    p.character =
        static_cast<uint32_t>(offset <= lines_.ascii_prefix()
                                  ? offset - start // (no scan where all is ASCII)
                                  : unicode::codepoint_count(text_.substr(start, offset - start)));
    break;
  }
  }
  return p;
}

json PositionMapper::position_json(size_t offset) const {
  const Position p = position(offset);
  return {{"line", p.line}, {"character", p.character}};
}

json PositionMapper::range_json(ByteRange range) const {
  return {{"start", position_json(range.begin)}, {"end", position_json(range.end)}};
}

std::optional<size_t> PositionMapper::offset(Position position) const {
  size_t out = 0;
  bool ok = false;
  switch (encoding_) {
  case PositionEncoding::utf8:
    ok = lines_.offset_of_utf8(text_, position.line, position.character, &out);
    break;
  case PositionEncoding::utf16:
    ok = lines_.offset_of_utf16(text_, position.line, position.character, &out);
    break;
  case PositionEncoding::utf32:
    // `character` code points from the line's start; past the line's end it clamps there.
    if (position.line < lines_.line_count()) {
      const size_t end = lines_.line_end(text_, position.line);
      out = lines_.line_start(position.line);
      for (uint32_t n = 0; n < position.character && out < end; ++n)
        out += unicode::decode(text_, out).length;
      out = std::min(out, end);
      ok = true;
    }
    break;
  }
  if (!ok) {
    // One past the last line at column 0 is the end of the document (some clients send it).
    if (position.line == lines_.line_count() && position.character == 0) return text_.size();
    return std::nullopt;
  }
  return out;
}

std::optional<ByteRange> PositionMapper::range(const json& range) const {
  const Position start = parse_position(range, "start");
  const Position end = parse_position(range, "end");
  const auto b = offset(start);
  const auto e = offset(end);
  if (!b || !e || *e < *b) return std::nullopt;
  return ByteRange{*b, *e};
}

Position parse_position(const json& object, std::string_view path) {
  const std::string prefix = path.empty() ? "" : std::string(path) + ".";
  const int64_t line = require_int(object, prefix + "line");
  const int64_t character = require_int(object, prefix + "character");
  if (line < 0 || line > UINT32_MAX)
    invalid_field(prefix + "line", "a non-negative integer", false);
  if (character < 0 || character > UINT32_MAX)
    invalid_field(prefix + "character", "a non-negative integer", false);
  return {static_cast<uint32_t>(line), static_cast<uint32_t>(character)};
}

int lsp_severity(Severity severity) {
  switch (severity) {
  case Severity::block_fatal:
  case Severity::command_error:
    return 1;
  case Severity::parameter_warning:
    return 2;
  case Severity::syntax_info:
    return 3;
  }
  return 1;
}

} // namespace blockls::lsp
