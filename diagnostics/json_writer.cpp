// See json_writer.h.
#include "diagnostics/json_writer.h"

#include "diagnostics/json_text.h"

#include <array>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <charconv>
#include <cstring>
#include <nlohmann/json.hpp>

namespace blockls {
namespace {

// What a byte needs in a string literal: 0 nothing, 1 an escape, 2 UTF-8 validation.
constexpr std::array<uint8_t, 256> kByteClass = [] {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 0x20; ++c)
    t[c] = 1;
  t['"'] = t['\\'] = 1;
  for (int c = 0x80; c < 0x100; ++c)
    t[c] = 2;
  return t;
}();

// Is `s` well-formed UTF-8 (Unicode's table 3-7: no overlong forms, surrogates or values past
// U+10FFFF)? Exactly what nlohmann's decoder accepts.
bool well_formed_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t length;
    unsigned char low = 0x80, high = 0xBF; // the range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) low = 0xA0;
      if (c == 0xED) high = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) low = 0x90;
      if (c == 0xF4) high = 0x8F;
    } else {
      return false;
    }
    if (n - i < length || p[i + 1] < low || p[i + 1] > high) return false;
    for (size_t k = 2; k < length; ++k)
      if (p[i + k] < 0x80 || p[i + k] > 0xBF) return false;
    i += length;
  }
  return true;
}

// The escape of each control character, as nlohmann writes it: the short forms it has, else
// \u00XX (`size` of the 6 bytes of `text` count).
struct ControlEscape {
  uint8_t size;
  char text[6];
};
constexpr std::array<ControlEscape, 0x20> kControlEscapes = [] {
  std::array<ControlEscape, 0x20> t{};
  constexpr char kHex[] = "0123456789abcdef";
  for (int c = 0; c < 0x20; ++c)
    t[c] = {6, {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]}};
  t['\b'] = {2, {'\\', 'b'}};
  t['\f'] = {2, {'\\', 'f'}};
  t['\n'] = {2, {'\\', 'n'}};
  t['\r'] = {2, {'\\', 'r'}};
  t['\t'] = {2, {'\\', 't'}};
  return t;
}();

} // namespace

namespace {

// Bits, one per byte of p[0..15], of the bytes that need a look: those an escape replaces
// (control characters, '"', '\\') and, unless `utf8_checked`, non-ASCII bytes. SSE2 (every
// x86-64) looks at 16 bytes at once; elsewhere a plain loop does.
inline uint32_t bytes_to_look_at(const unsigned char* p, bool utf8_checked) {
#if defined(__SSE2__)
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  // Signed: a byte >= 0x80 is negative, so "< 0x20" is a control character or non-ASCII.
  const uint32_t low =
      static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20))));
  const uint32_t quote =
      static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('"'))));
  const uint32_t slash =
      static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))));
  const uint32_t high = static_cast<uint32_t>(_mm_movemask_epi8(x));
  return (utf8_checked ? low & ~high : low) | quote | slash;
#else
  uint32_t bits = 0;
  for (int k = 0; k < 16; ++k)
    if (kByteClass[p[k]] == 1 || (!utf8_checked && kByteClass[p[k]] == 2)) bits |= 1u << k;
  return bits;
#endif
}

} // namespace

// The literal is written into a buffer on the stack, 16 bytes of text at a time, and appended
// to `*out` in a few large pieces: escapes (a line break every few dozen bytes of code) and
// the runs between them are copied without a call into std::string each (a value_chunk event
// of `blockls stream` is mostly one short string; this was the stream's hottest function).
void append_json_string(std::string* out, std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  const size_t start = out->size();
  char buffer[512];
  size_t b = 0;
  buffer[b++] = '"';
  bool utf8_checked = false; // the rest of the text, from the first non-ASCII byte, is valid
  // The `count` <= 16 bytes at `q`, the text's from `at` on; 32 bytes from q are readable (runs
  // are copied 16 bytes at a time: only the bytes that belong to them are kept). False when the
  // text is not valid UTF-8.
  const auto put = [&](const unsigned char* q, size_t count, size_t at) {
    if (b > sizeof buffer - 16 * 6 - 16) { // room for 16 escapes and a 16-byte copy
      out->append(buffer, b);
      b = 0;
    }
    const uint32_t in_text = count == 16 ? 0xffffu : (1u << count) - 1;
    uint32_t bits = bytes_to_look_at(q, utf8_checked) & in_text;
    size_t copied = 0; // bytes of `q` written
    while (bits != 0) {
      const size_t i = static_cast<size_t>(__builtin_ctz(bits));
      bits &= bits - 1;
      const unsigned char c = q[i];
      if (c >= 0x80) { // the first non-ASCII byte: the rest is checked once
        if (!well_formed_utf8(text.substr(at + i))) return false;
        utf8_checked = true;
        bits &= bytes_to_look_at(q, true); // non-ASCII is fine now
        continue;
      }
      std::memcpy(buffer + b, q + copied, 16);
      b += i - copied;
      if (c >= 0x20) { // '"' or '\\'
        buffer[b] = '\\';
        buffer[b + 1] = static_cast<char>(c);
        b += 2;
      } else {
        std::memcpy(buffer + b, kControlEscapes[c].text, 6);
        b += kControlEscapes[c].size;
      }
      copied = i + 1;
    }
    std::memcpy(buffer + b, q + copied, 16);
    b += count - copied;
    return true;
  };
  bool valid = true;
  size_t i = 0;
  for (; valid && i + 32 <= n; i += 16)
    valid = put(p + i, 16, i);
  if (valid && i < n) { // the last 1 to 31 bytes, from a copy that can be read past them
    unsigned char tail[48];
    std::memset(tail, 'a', sizeof tail);
    std::memcpy(tail, p + i, n - i);
    for (size_t t = 0; valid && t < n - i; t += 16)
      valid = put(tail + t, std::min<size_t>(16, n - i - t), i + t);
  }
  if (!valid) {
    // Invalid UTF-8 (rare: a binary-ish document) is left to nlohmann, whose replacement rules
    // this must match byte for byte.
    out->resize(start);
    out->append(dump_json(nlohmann::json(std::string(text))));
    return;
  }
  buffer[b++] = '"';
  out->append(buffer, b);
}

// A line break and up to 64 columns of indent in one append (reports nest a few levels).
constexpr std::string_view kBreakAndIndent =
    "\n                                                                ";

void JsonWriter::newline_and_indent(size_t depth) {
  const size_t columns = depth * static_cast<size_t>(indent_);
  if (columns < kBreakAndIndent.size()) {
    out_->append(kBreakAndIndent.data(), columns + 1);
    return;
  }
  out_->push_back('\n');
  out_->append(columns, ' ');
}

// The separator and line break a value needs before it, from where it stands.
void JsonWriter::before_value() {
  if (spill_ && out_->size() >= spill_at_) {
    spill_(*out_);
    out_->clear();
  }
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (has_items_.empty()) return; // the top-level value
  if (has_items_.back()) out_->push_back(',');
  if (indent_ >= 0) newline_and_indent(has_items_.size());
  has_items_.back() = true;
}

// Keys are nearly always short plain names: those are written with one append of a line
// built on the stack (separator, break, indent, quoted name, colon); the rest as any string.
void JsonWriter::key(std::string_view name) {
  const bool comma = has_items_.back();
  has_items_.back() = true;
  after_key_ = true;
  const size_t columns = indent_ >= 0 ? has_items_.size() * static_cast<size_t>(indent_) : 0;
  constexpr size_t kShort = 48;
  bool plain = name.size() <= kShort && columns < kBreakAndIndent.size();
  for (size_t i = 0; plain && i < name.size(); ++i)
    plain = kByteClass[static_cast<unsigned char>(name[i])] == 0;
  if (!plain) {
    if (comma) out_->push_back(',');
    if (indent_ >= 0) newline_and_indent(has_items_.size());
    append_json_string(out_, name);
    out_->append(indent_ >= 0 ? ": " : ":");
    return;
  }
  char line[128]; // at most 1 + 65 + 1 + kShort + 3
  size_t n = 0;
  if (comma) line[n++] = ',';
  if (indent_ >= 0) {
    std::memcpy(line + n, kBreakAndIndent.data(), columns + 1);
    n += columns + 1;
  }
  line[n++] = '"';
  std::memcpy(line + n, name.data(), name.size());
  n += name.size();
  line[n++] = '"';
  line[n++] = ':';
  if (indent_ >= 0) line[n++] = ' ';
  out_->append(line, n);
}

void JsonWriter::open(char bracket) {
  before_value();
  out_->push_back(bracket);
  has_items_.push_back(false);
}

// An empty container closes on its own line ("{}"), as nlohmann writes it.
void JsonWriter::close(char bracket) {
  const bool had_items = has_items_.back();
  has_items_.pop_back();
  if (had_items && indent_ >= 0) newline_and_indent(has_items_.size());
  out_->push_back(bracket);
}

void JsonWriter::string(std::string_view value) {
  before_value();
  append_json_string(out_, value);
}

void JsonWriter::number(uint64_t value) {
  before_value();
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out_->append(digits, end);
}

void JsonWriter::number_signed(int64_t value) {
  before_value();
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  out_->append(digits, end);
}

void JsonWriter::boolean(bool value) {
  before_value();
  out_->append(value ? "true" : "false");
}

void JsonWriter::null() {
  before_value();
  out_->append("null");
}

JsonWriter JsonWriter::fork(std::string* out) const {
  JsonWriter w(out, indent_);
  w.has_items_ = has_items_;
  w.after_key_ = after_key_;
  return w;
}

void JsonWriter::splice(std::string_view json_text) {
  if (!spill_) {
    out_->append(json_text);
    return;
  }
  if (!out_->empty()) {
    spill_(*out_);
    out_->clear();
  }
  spill_(json_text);
}

void JsonWriter::adopt(const JsonWriter& fork) {
  has_items_ = fork.has_items_;
  after_key_ = fork.after_key_;
}

void JsonWriter::raw(std::string_view json_text) {
  before_value();
  out_->append(json_text);
}

void JsonWriter::value(const nlohmann::json& v) {
  switch (v.type()) {
  case nlohmann::json::value_t::object:
    begin_object();
    for (const auto& [k, item] : v.items()) {
      key(k);
      value(item);
    }
    end_object();
    return;
  case nlohmann::json::value_t::array:
    begin_array();
    for (const nlohmann::json& item : v)
      value(item);
    end_array();
    return;
  case nlohmann::json::value_t::string:
    string(v.get_ref<const std::string&>());
    return;
  case nlohmann::json::value_t::boolean:
    boolean(v.get<bool>());
    return;
  case nlohmann::json::value_t::number_unsigned:
    number(v.get<uint64_t>());
    return;
  case nlohmann::json::value_t::number_integer:
    number_signed(v.get<int64_t>());
    return;
  case nlohmann::json::value_t::null:
  case nlohmann::json::value_t::discarded:
    null();
    return;
  default: // floats and binary: nlohmann's own text
    before_value();
    out_->append(dump_json(v));
  }
}

} // namespace blockls
