// A streaming JSON writer: appends JSON text to a string as values are given, with no document
// tree in between. The reports (check --format json, the stream's events) are large and written
// once; building them as nlohmann::json objects first cost more than checking the text (a node
// allocated and freed per value). The output is byte-identical to dump_json() of the same
// values: same escapes, invalid UTF-8 written as U+FFFD, the same layout with and without
// indentation. The writer does not sort keys: callers that must match a dump of nlohmann's
// (sorted) objects give the keys in sorted order.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace blockls {

class JsonWriter {
public:
  // Appends to `*out`; `indent` < 0 writes everything on one line (dump_json's default).
  explicit JsonWriter(std::string* out, int indent = -1) : out_(out), indent_(indent) {}

  // Hands `*out` to `spill` (which writes it out; the writer then clears it) whenever it has
  // grown past `bytes` between two values: a large report never sits whole in memory.
  void spill_every(size_t bytes, std::function<void(std::string_view)> spill) {
    spill_at_ = bytes, spill_ = std::move(spill);
  }

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  // The key of the next value of the enclosing object.
  void key(std::string_view name);

  void string(std::string_view value);
  void number(uint64_t value);
  void number_signed(int64_t value);
  void boolean(bool value);
  void null();
  // A value built elsewhere as nlohmann::json (rare, small parts), laid out as the rest.
  void value(const nlohmann::json& value);
  // A value already written as JSON text (on one line: only for writers without indentation).
  void raw(std::string_view json_text);

  // key(name) then the value: the common case.
  void field(std::string_view name, std::string_view value) { key(name), string(value); }
  void field(std::string_view name, const char* value) { key(name), string(value); }
  void field(std::string_view name, uint64_t value) { key(name), number(value); }
  void field(std::string_view name, uint32_t value) { key(name), number(value); }
  void field(std::string_view name, bool value) { key(name), boolean(value); }

  // A writer into `*out` (without a spill) that goes on from this one's state: open containers,
  // a key waiting for its value. What it writes is what this writer would write next, so a
  // later part of a document can be written aside before the parts ahead of it are done, then
  // put in its place with splice() and adopt().
  JsonWriter fork(std::string* out) const;
  // Puts JSON text a fork wrote after what this writer wrote (handing both to the spill, when
  // there is one). Called once or in pieces, in order.
  void splice(std::string_view json_text);
  // Goes on from `fork`'s state, once everything it wrote has been spliced in.
  void adopt(const JsonWriter& fork);

private:
  void before_value();
  void open(char bracket);
  void close(char bracket);
  void newline_and_indent(size_t depth);

  std::string* out_;
  int indent_;
  std::vector<bool> has_items_; // per open container: has it a value yet
  bool after_key_ = false;      // the next value follows its key on the same line
  size_t spill_at_ = 0;
  std::function<void(std::string_view)> spill_;
};

// `text` as a JSON string literal (quotes included), as dump_json writes it.
void append_json_string(std::string* out, std::string_view text);

} // namespace blockls
