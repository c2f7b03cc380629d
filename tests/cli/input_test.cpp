// cli/input.cpp: regular files mapped (empty ones read), FIFOs, pipes and standard input read
// as streams, the size limit refused before mapping, NUL bytes found in both paths, and a file
// changed, truncated or replaced while it is read.
#include "cli/input.h"
#include "support/process.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using blockls::cli::InputFile;
using blockls::cli::InputLimits;
using blockls::cli::read_input;
namespace test = blockls::test;

namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = test::make_temp_dir() + "/" + name;
  test::write_text(path, text);
  return path;
}

// Lines of NESL-looking text, `bytes` long, with no NUL.
std::string text_of(size_t bytes) {
  std::string s;
  while (s.size() < bytes)
    s += "path = \"src/line" + std::to_string(s.size()) + ".txt\"\n";
  s.resize(bytes);
  return s;
}

std::optional<InputFile> read(const std::string& path, const InputLimits& limits = {}) {
  std::string error;
  std::optional<InputFile> file = read_input(path, limits, &error);
  INFO(error);
  return file;
}

} // namespace

TEST_CASE("input: a regular file is mapped from map_from_bytes on, read below", "[cli][input]") {
  const std::string big = text_of(300000);
  REQUIRE(big.size() >= InputLimits{}.map_from_bytes);
  const std::string path = temp_file("big.md", big);
  auto file = read(path);
  REQUIRE(file);
  CHECK(file->mapping.has_value());
  CHECK(file->text == big);
  CHECK_FALSE(file->changed_since_read());
  // Moved, the view still points at the same (mapped) bytes.
  const char* data = file->text.data();
  InputFile moved = std::move(*file);
  CHECK(moved.text.data() == data);
  CHECK(moved.text == big);

  InputLimits unmapped;
  unmapped.map_files = false;
  file = read(path, unmapped);
  REQUIRE(file);
  CHECK_FALSE(file->mapping.has_value());
  CHECK(file->text == big);

  const std::string small = temp_file("small.md", "x = \"1\"\n");
  file = read(small);
  REQUIRE(file);
  CHECK_FALSE(file->mapping.has_value());
  CHECK(file->text == "x = \"1\"\n");
}

TEST_CASE("input: an empty file is an empty text, never a mapping", "[cli][input]") {
  InputLimits limits;
  limits.map_from_bytes = 0; // even when everything else would be mapped
  const std::string path = temp_file("empty.md", "");
  auto file = read(path, limits);
  REQUIRE(file);
  CHECK_FALSE(file->mapping.has_value());
  CHECK(file->text.empty());
  const auto r = test::run_blockls({"check", path});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("1 file checked: 0 blocks") != std::string::npos);
}

TEST_CASE("input: a file over --max-size is refused before it is mapped or read", "[cli][input]") {
  const std::string path = temp_file("big.md", text_of(200000));
  InputLimits limits;
  limits.max_bytes = 100000;
  std::string error;
  CHECK_FALSE(read_input(path, limits, &error));
  CHECK(error == path + ": file is 200000 bytes, over the limit of 100000 (raise it with "
                        "--max-size)");
  const auto r = test::run_blockls({"check", "--max-size", "100000", path});
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("file is 200000 bytes, over the limit of 100000") != std::string::npos);
}

TEST_CASE("input: a NUL byte in a mapped file is found with its offset", "[cli][input]") {
  std::string text = text_of(300000);
  REQUIRE(text.size() >= InputLimits{}.map_from_bytes);
  text[250001] = '\0';
  const std::string path = temp_file("nul.md", text);
  std::string error;
  CHECK_FALSE(read_input(path, {}, &error));
  CHECK(error == path + ": looks like a binary file (NUL byte at offset 250001); not checked");
}

TEST_CASE("input: a FIFO is read as a stream, to its end", "[cli][input]") {
  const std::string path = test::make_temp_dir() + "/pipe";
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  const std::string text = text_of(200000); // more than a pipe holds: written as it is read
  std::thread writer([&] {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC); // waits for the reader
    for (size_t done = 0; fd >= 0 && done < text.size();) {
      const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    if (fd >= 0) ::close(fd);
  });
  InputLimits limits;
  limits.map_from_bytes = 0;
  auto file = read(path, limits);
  writer.join();
  REQUIRE(file);
  CHECK_FALSE(file->mapping.has_value());
  CHECK_FALSE(file->stamp.has_value());
  CHECK(file->text == text);
  CHECK_FALSE(file->changed_since_read());
}

TEST_CASE("input: standard input and a pipe give the same report as the mapped file",
          "[cli][input]") {
  // Several read chunks and buffer growths on standard input; one mapping from the disk.
  const std::string text = "Prose.\n\n#!nesl [@three-char-SHA-256: k7m]\naction = \"write_file\"\n"
                           "path = \"/tmp/a.txt\"\ncontent = \"hi\"\n#!end_k7x\n\n" +
                           text_of(700000) + "\n";
  const std::string path = temp_file("t.md", text);
  const auto from_disk = test::run_blockls({"check", "--format", "json", path});
  const auto from_stdin = test::run_blockls({"check", "--format", "json", "-"}, text);
  REQUIRE(from_disk.exit_code == 1);
  CHECK(from_stdin.exit_code == 1);
  auto a = nlohmann::json::parse(from_disk.out), b = nlohmann::json::parse(from_stdin.out);
  a["files"][0].erase("path");
  b["files"][0].erase("path");
  CHECK(a == b);
  CHECK(a["files"][0]["summary"]["blocks_parsed"] == 1);
}

TEST_CASE("input: a mapped file truncated while it is read reads as zeros and is refused",
          "[cli][input]") {
  const std::string text = text_of(1 << 20);
  const std::string path = temp_file("shrinks.md", text);
  InputLimits limits;
  limits.map_from_bytes = 1;
  auto file = read(path, limits);
  REQUIRE(file);
  REQUIRE(file->mapping.has_value());
  REQUIRE(::truncate(path.c_str(), 1000) == 0);
  // Without the SIGBUS handler this loop would kill the test: the pages past the new end.
  size_t zeros = 0;
  for (char c : file->text)
    zeros += c == '\0';
  CHECK(zeros >= text.size() - 4096 - 1000);
  CHECK(file->text.substr(0, 1000) == text.substr(0, 1000));
  CHECK(file->mapping->truncated());
  const auto why = file->changed_since_read();
  REQUIRE(why);
  CHECK(*why == "was truncated while it was being read");
  // Another mapping of another file is not affected.
  const std::string other = temp_file("other.md", text);
  auto second = read(other, limits);
  REQUIRE(second);
  CHECK_FALSE(second->mapping->truncated());
  CHECK(second->text == text);
}

TEST_CASE("input: a file written in place after it was read is refused: one renamed over is not",
          "[cli][input]") {
  const std::string text = text_of(300000);
  for (const bool mapped : {true, false}) {
    INFO("mapped: " << mapped);
    InputLimits limits;
    limits.map_files = mapped;
    const std::string path = temp_file("grows.md", text);
    auto file = read(path, limits);
    REQUIRE(file);
    CHECK(file->mapping.has_value() == mapped);
    { // appended: the size differs
      const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
      REQUIRE(fd >= 0);
      REQUIRE(::write(fd, "more\n", 5) == 5);
      ::close(fd);
    }
    auto why = file->changed_since_read();
    REQUIRE(why);
    CHECK(*why == "was changed while it was being read");

    // Same size, rewritten in place: the times differ (set here, so the test does not depend
    // on the clock's granularity).
    const std::string same = temp_file("same.md", text);
    file = read(same, limits);
    REQUIRE(file);
    const timespec times[2] = {{1000000, 0}, {1000000, 0}};
    REQUIRE(::utimensat(AT_FDCWD, same.c_str(), times, 0) == 0);
    why = file->changed_since_read();
    REQUIRE(why);
    CHECK(*why == "was changed while it was being read");

    // Renamed over (as editors save): the file read is still whole, nothing to refuse.
    const std::string renamed = temp_file("renamed.md", text);
    file = read(renamed, limits);
    REQUIRE(file);
    const std::string next = renamed + ".new";
    test::write_text(next, "new contents\n");
    REQUIRE(std::rename(next.c_str(), renamed.c_str()) == 0);
    CHECK_FALSE(file->changed_since_read());
    CHECK(file->text == text);
  }
}

TEST_CASE("input: fix --in-place rewrites a mapped file (the mapping outlives the rename)",
          "[cli][input]") {
  // Over map_from_bytes: read through a mapping, which stays on the old file while the fixed
  // text replaces it.
  const std::string broken = "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\na.txt\n"
                             "--CONTENT abc--\nhi\n--END abx--\n";
  const std::string prose = "Some prose, not a block.\n";
  std::string padding;
  while (padding.size() < InputLimits{}.map_from_bytes + 4096)
    padding += prose;
  const std::string path = temp_file("big.telt", broken + padding);
  auto r = test::run_blockls({"fix", "--in-place", path});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  auto file = read(path);
  REQUIRE(file);
  CHECK(file->text.substr(0, broken.size()) ==
        "#!telt [3-char SHA: abc]\n=== CREATE_FILE ===\n--FILE abc--\na.txt\n"
        "--CONTENT abc--\nhi\n--END abc--\n");
  CHECK(file->text.substr(broken.size()) == padding);
  r = test::run_blockls({"check", path});
  CHECK(r.exit_code == 0);
}
