// Framing follows the LSP base protocol: ASCII header lines ending in "\r\n", a blank line,
// then exactly Content-Length bytes. Only Content-Length is interpreted; a bad header is
// reported and skipped, an oversized body is discarded without being buffered. Header lines
// ending in a bare "\n" are accepted too (a hand-written client's), and after a header block
// without a usable length the parser finds the next "Content-Length" header again.
#include "lsp/transport.h"

#include "diagnostics/json_text.h"

#include <cerrno>
#include <charconv>
#include <unistd.h>

namespace blockls::lsp {
namespace {

constexpr size_t kMaxHeaderBytes = 64 * 1024;

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// Parses a header block (without the final blank line); returns the body length or sets
// `error`.
bool parse_headers(std::string_view headers, size_t* length, std::string* error) {
  bool found = false;
  while (!headers.empty()) {
    const size_t eol = headers.find('\n');
    std::string_view line = headers.substr(0, eol);
    headers = eol == std::string_view::npos ? std::string_view() : headers.substr(eol + 1);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      *error = "Malformed header line (no ':'); the header block was skipped.";
      return false;
    }
    if (!iequals(trim(line.substr(0, colon)), "Content-Length")) continue; // Content-Type etc.
    const std::string_view value = trim(line.substr(colon + 1));
    size_t n = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || end != value.data() + value.size() || value.empty()) {
      *error = "Content-Length is not a number; the header block was skipped.";
      return false;
    }
    *length = n;
    found = true;
  }
  if (!found) {
    *error = "Header block without Content-Length; it was skipped.";
    return false;
  }
  return true;
}

// The end of the header block starting at `from`: the offset of its blank line's terminator
// ("\r\n\r\n", or "\n\n" for bare line feeds) and that terminator's size; npos when the
// bytes hold no end yet.
std::pair<size_t, size_t> find_header_end(const std::string& buffer, size_t from) {
  const size_t crlf = buffer.find("\r\n\r\n", from);
  const size_t lf = buffer.find("\n\n", from);
  if (lf < crlf) return {lf, 2};
  return {crlf, 4};
}

// Where the last "Content-Length" (any case) after the first byte of a header block starts, or
// npos. A header block without a usable length leaves its body unread: that body's bytes are
// then glued to the front of the next header ("{}Content-Length: 2"), whose block fails in
// turn, and so would every later one. Resuming at the header name found inside the block costs
// the one bad message instead of the session.
size_t resync_offset(std::string_view block) {
  constexpr std::string_view kName = "content-length";
  for (size_t at = block.size() >= kName.size() ? block.size() - kName.size() : 0; at > 0; --at)
    if (iequals(block.substr(at, kName.size()), kName)) return at;
  return std::string_view::npos;
}

} // namespace

void FrameParser::feed(std::string_view bytes) {
  if (skip_ > 0) {
    const size_t n = std::min(skip_, bytes.size());
    skip_ -= n;
    bytes.remove_prefix(n);
  }
  if (pos_ > 0 && pos_ == buffer_.size()) {
    buffer_.clear();
    pos_ = 0;
  }
  buffer_.append(bytes);
}

bool FrameParser::next(Frame* frame) {
  if (skip_ > 0) return false;
  if (in_body_) {
    if (buffer_.size() - pos_ < body_length_) return false;
    frame->kind = Frame::Kind::message;
    frame->body.assign(buffer_, pos_, body_length_);
    frame->error.clear();
    pos_ += body_length_;
    in_body_ = false;
    if (pos_ * 2 > buffer_.size()) { // compact
      buffer_.erase(0, pos_);
      pos_ = 0;
    }
    return true;
  }
  // Tolerate stray line breaks between messages.
  while (pos_ < buffer_.size() && (buffer_[pos_] == '\r' || buffer_[pos_] == '\n')) {
    if (buffer_[pos_] == '\r' && pos_ + 1 == buffer_.size()) return false;
    ++pos_;
  }
  const auto [end, terminator] = find_header_end(buffer_, pos_);
  if (end == std::string::npos) {
    if (buffer_.size() - pos_ > kMaxHeaderBytes) {
      frame->kind = Frame::Kind::error;
      frame->error = "No end of header within 64 KiB; the input was skipped.";
      buffer_.clear();
      pos_ = 0;
      return true;
    }
    return false;
  }
  size_t length = 0;
  std::string error;
  const std::string_view headers(buffer_.data() + pos_, end - pos_);
  if (!parse_headers(headers, &length, &error)) {
    // Bytes before a Content-Length header (the unread body of a message already reported,
    // or noise): skipped without a report of their own.
    if (const size_t resume = resync_offset(headers); resume != std::string_view::npos) {
      pos_ += resume;
      return next(frame);
    }
    pos_ = end + terminator;
    frame->kind = Frame::Kind::error;
    frame->error = std::move(error);
    return true;
  }
  pos_ = end + terminator;
  if (length > max_message_bytes_) {
    frame->kind = Frame::Kind::error;
    frame->error = "Message of " + std::to_string(length) + " bytes exceeds the limit of " +
                   std::to_string(max_message_bytes_) +
                   " bytes (--max-message-bytes); it was discarded.";
    const size_t available = std::min(length, buffer_.size() - pos_);
    pos_ += available;
    skip_ = length - available;
    buffer_.erase(0, pos_);
    pos_ = 0;
    return true;
  }
  body_length_ = length;
  in_body_ = true;
  return next(frame);
}

std::string frame_message(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

std::string dump_message(const nlohmann::json& message) {
  return dump_json(message);
}

StdioTransport::StdioTransport(int in_fd, int out_fd, size_t max_message_bytes)
    : in_fd_(in_fd), out_fd_(out_fd), max_message_bytes_(max_message_bytes) {}

StdioTransport::~StdioTransport() {
  detach_reader();
}

void StdioTransport::start(std::function<void(Frame)> on_frame, std::function<void()> on_eof) {
  reader_ = std::thread([fd = in_fd_, cap = max_message_bytes_, on_frame = std::move(on_frame),
                         on_eof = std::move(on_eof)] {
    FrameParser parser(cap);
    std::string chunk(1 << 16, '\0');
    for (;;) {
      const ssize_t n = ::read(fd, chunk.data(), chunk.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      parser.feed(std::string_view(chunk.data(), static_cast<size_t>(n)));
      Frame frame;
      while (parser.next(&frame))
        on_frame(std::move(frame));
    }
    on_eof();
  });
}

void StdioTransport::send(const nlohmann::json& message) {
  const std::string bytes = frame_message(dump_message(message));
  std::lock_guard<std::mutex> lock(write_mutex_);
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(out_fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return; // the client is gone; the reader will see EOF
    done += static_cast<size_t>(n);
  }
}

void StdioTransport::detach_reader() {
  if (reader_.joinable()) reader_.detach();
}

} // namespace blockls::lsp
