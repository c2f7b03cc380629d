// The LSP types blockls uses, as plain structs and JSON helpers on nlohmann::json. Readers are
// tolerant of unknown fields and strict about the ones they need: a missing or mistyped field
// throws ParamError naming its path ("textDocument.uri"), which the server answers with
// InvalidParams. Positions are converted only through LineIndex (see PositionMapper).
#pragma once

#include "grammar/line_index.h"
#include "grammar/model.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace blockls::lsp {

using json = nlohmann::json;

// JSON-RPC and LSP error codes.
enum ErrorCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kServerNotInitialized = -32002,
  kRequestFailed = -32803,
  kContentModified = -32801,
  kRequestCancelled = -32800,
};

// An error reply: thrown by handlers, caught by the dispatcher.
struct LspError : std::runtime_error {
  LspError(int code, const std::string& message) : std::runtime_error(message), code(code) {}
  int code;
};

// Field access with the path in the error. `path` is dotted ("context.diagnostics").
const json& require_field(const json& object, std::string_view path);
std::string require_string(const json& object, std::string_view path);
int64_t require_int(const json& object, std::string_view path);
const json& require_object(const json& object, std::string_view path);
const json& require_array(const json& object, std::string_view path);
// nullptr when absent (or null); throws when present with another type than `type`.
const json* optional_field(const json& object, std::string_view path, json::value_t type);
// Throws the InvalidParams error for field `path`: "missing field 'PATH' (expected EXPECTED)"
// or "invalid field 'PATH' (expected EXPECTED)". The one wording of every field error.
[[noreturn]] void invalid_field(std::string_view path, std::string_view expected, bool missing);
// Capability lookup: true when the dotted path exists and is `true`.
bool capability(const json& capabilities, std::string_view path);

enum class PositionEncoding { utf8, utf16, utf32 };
std::string_view encoding_name(PositionEncoding encoding);

struct Position {
  uint32_t line = 0;
  uint32_t character = 0;
  bool operator==(const Position&) const = default;
};

// Converts between byte offsets of one text and LSP positions in the negotiated encoding.
class PositionMapper {
public:
  PositionMapper(std::string_view text, const LineIndex& lines, PositionEncoding encoding)
      : text_(text), lines_(lines), encoding_(encoding) {}

  Position position(size_t offset) const;
  json position_json(size_t offset) const;
  json range_json(ByteRange range) const;
  // A byte offset for `position`; columns past the line end clamp to it, a line past the
  // last line is an error (nullopt).
  std::optional<size_t> offset(Position position) const;
  std::optional<ByteRange> range(const json& range_json) const; // throws ParamError shape

private:
  std::string_view text_;
  const LineIndex& lines_;
  PositionEncoding encoding_;
};

Position parse_position(const json& object, std::string_view path);

// Diagnostic severity of the LSP: block_fatal/command_error -> Error (1), parameter_warning ->
// Warning (2), syntax_info -> Information (3).
int lsp_severity(Severity severity);

} // namespace blockls::lsp
