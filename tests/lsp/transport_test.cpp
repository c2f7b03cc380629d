// FrameParser: Content-Length framing over byte streams cut anywhere, with garbage and
// oversized messages in between.
#include "lsp/transport.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using blockls::lsp::Frame;
using blockls::lsp::frame_message;
using blockls::lsp::FrameParser;

namespace {

std::vector<Frame> feed_in_pieces(FrameParser& parser, const std::string& bytes, size_t piece) {
  std::vector<Frame> out;
  for (size_t pos = 0; pos < bytes.size(); pos += piece) {
    parser.feed(std::string_view(bytes).substr(pos, piece));
    Frame f;
    while (parser.next(&f))
      out.push_back(f);
  }
  return out;
}

} // namespace

TEST_CASE("frames survive every split of the stream (short reads)", "[lsp][transport]") {
  const std::string stream =
      frame_message(R"({"a":1})") + frame_message("{\"b\":\"é👋\"}") +
      "Content-Type: application/vscode-jsonrpc\r\nContent-Length: 2\r\n\r\n{}";
  for (size_t piece = 1; piece <= stream.size(); ++piece) {
    FrameParser parser(1 << 20);
    const std::vector<Frame> frames = feed_in_pieces(parser, stream, piece);
    REQUIRE(frames.size() == 3);
    CHECK(frames[0].body == R"({"a":1})");
    CHECK(frames[1].body == "{\"b\":\"é👋\"}"); // length counts bytes, not characters
    CHECK(frames[2].body == "{}");
  }
}

TEST_CASE("bad headers are reported and skipped: the next frame still parses", "[lsp][transport]") {
  FrameParser parser(1 << 20);
  const std::string stream = std::string("garbage\r\n\r\n") + "Content-Length: x\r\n\r\n" +
                             "Content-Type: a/b\r\n\r\n" + frame_message("{}");
  const std::vector<Frame> frames = feed_in_pieces(parser, stream, 3);
  REQUIRE(frames.size() == 4);
  CHECK(frames[0].kind == Frame::Kind::error);
  CHECK(frames[1].kind == Frame::Kind::error);
  CHECK(frames[2].kind == Frame::Kind::error);
  CHECK(frames[2].error == "Header block without Content-Length; it was skipped.");
  CHECK(frames[3].kind == Frame::Kind::message);
  CHECK(frames[3].body == "{}");
}

TEST_CASE("a message over the cap is discarded without being buffered", "[lsp][transport]") {
  FrameParser parser(10);
  const std::string big(1000, 'x');
  const std::string stream = frame_message(big) + frame_message("{\"ok\":1}");
  for (size_t piece : {1u, 7u, 100u, 5000u}) {
    FrameParser p(10);
    const std::vector<Frame> frames = feed_in_pieces(p, stream, piece);
    REQUIRE(frames.size() == 2);
    CHECK(frames[0].kind == Frame::Kind::error);
    CHECK(frames[0].error.find("1000 bytes exceeds the limit of 10 bytes") != std::string::npos);
    CHECK(frames[1].body == "{\"ok\":1}");
  }
}

TEST_CASE("a header that never ends is cut off", "[lsp][transport]") {
  FrameParser parser(1 << 20);
  const std::vector<Frame> frames = feed_in_pieces(parser, std::string(70000, 'a'), 4096);
  REQUIRE(frames.size() == 1);
  CHECK(frames[0].kind == Frame::Kind::error);
}

TEST_CASE("invalid UTF-8 in outgoing JSON is replaced, not thrown", "[lsp][transport]") {
  const nlohmann::json message = {{"text", std::string("a\xff"
                                                       "b")}};
  CHECK(blockls::lsp::dump_message(message) == "{\"text\":\"a\xEF\xBF\xBD"
                                               "b\"}");
}

TEST_CASE("after a header without a usable length, the next message is found again",
          "[lsp][transport]") {
  // Each bad header block leaves its body unread; those bytes reach the next header first.
  const std::string stream =
      std::string("Content-Type: x\r\n\r\n{}") + "Content-Length: abc\r\n\r\n{\"lost\":1}" +
      frame_message("{\"a\":1}") + "noise without a header" + frame_message("{\"b\":2}");
  for (size_t piece = 1; piece <= stream.size(); ++piece) {
    FrameParser parser(1 << 20);
    const std::vector<Frame> frames = feed_in_pieces(parser, stream, piece);
    REQUIRE(frames.size() == 4);
    CHECK(frames[0].error == "Header block without Content-Length; it was skipped.");
    CHECK(frames[1].error == "Content-Length is not a number; the header block was skipped.");
    CHECK(frames[2].kind == Frame::Kind::message);
    CHECK(frames[2].body == "{\"a\":1}");
    CHECK(frames[3].kind == Frame::Kind::message);
    CHECK(frames[3].body == "{\"b\":2}");
  }
}

TEST_CASE("header lines ending in a bare line feed are read", "[lsp][transport]") {
  const std::string stream = std::string("Content-Length: 2\n\n{}") +
                             "Content-Type: a/b\nContent-Length: 7\r\n\n{\"c\":3}" +
                             frame_message("{\"d\":4}");
  for (size_t piece = 1; piece <= stream.size(); ++piece) {
    FrameParser parser(1 << 20);
    const std::vector<Frame> frames = feed_in_pieces(parser, stream, piece);
    REQUIRE(frames.size() == 3);
    CHECK(frames[0].body == "{}");
    CHECK(frames[1].body == "{\"c\":3}");
    CHECK(frames[2].body == "{\"d\":4}");
  }
}
