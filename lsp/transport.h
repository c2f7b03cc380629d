// Bytes <-> JSON-RPC messages: Content-Length framing (LSP base protocol). FrameParser is a
// pure byte-stream state machine (unit-tested with short reads and garbage); StdioTransport
// runs a blocking reader thread on a file descriptor and a single serialised writer.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <thread>

namespace blockls::lsp {

// One event out of the byte stream: a complete message body, or a framing error after which
// the parser has resynchronised (skipped the bad header or the oversized body).
struct Frame {
  enum class Kind { message, error };
  Kind kind = Kind::message;
  std::string body;  // message: the body bytes
  std::string error; // error: a complete sentence
};

class FrameParser {
public:
  explicit FrameParser(size_t max_message_bytes) : max_message_bytes_(max_message_bytes) {}

  void feed(std::string_view bytes);
  // Next complete frame, false when more bytes are needed.
  bool next(Frame* frame);

private:
  size_t max_message_bytes_;
  std::string buffer_;
  size_t pos_ = 0;         // consumed prefix of buffer_
  size_t body_length_ = 0; // while reading a body
  bool in_body_ = false;
  size_t skip_ = 0; // bytes of an oversized body still to discard
};

// "Content-Length: N\r\n\r\n" + body.
std::string frame_message(std::string_view body);
// JSON text of a message; invalid UTF-8 in strings is replaced, never thrown.
std::string dump_message(const nlohmann::json& message);

// Reads frames from `in_fd` on its own thread and hands them to `on_frame`; calls `on_eof`
// once when the input ends. Writes are serialised and flushed per message.
class StdioTransport {
public:
  StdioTransport(int in_fd, int out_fd, size_t max_message_bytes);
  ~StdioTransport();

  // Starts the reader thread. The callbacks run on the reader thread.
  void start(std::function<void(Frame)> on_frame, std::function<void()> on_eof);
  void send(const nlohmann::json& message);
  // Lets the reader thread go (it may stay blocked in read() until the input ends).
  void detach_reader();

private:
  int in_fd_, out_fd_;
  size_t max_message_bytes_;
  std::mutex write_mutex_;
  std::thread reader_;
};

} // namespace blockls::lsp
