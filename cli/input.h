// Reading the documents the CLI is given: files or standard input ("-"), with a size cap
// and binary detection, so bad input gets one clear message instead of garbage output.
// Regular files are mapped, not copied (cli/mapped_file.h); pipes, devices and standard input
// are read into one buffer.
#pragma once

#include "cli/mapped_file.h"

#include <cstddef>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace blockls::cli {

struct InputLimits {
  size_t max_bytes = 512u * 1024 * 1024;
  // Regular files of at least this many bytes are mapped (when map_files); smaller ones are
  // read: copying them costs less than mapping and unmapping them (an unmapping while another
  // thread runs interrupts that thread's core to flush its TLB). Measured with `check` over
  // many files: reading wins at 100 and 200 KB, mapping at 1 MB.
  bool map_files = true;
  size_t map_from_bytes = 256 * 1024;
};

// What identifies a regular file's contents at one moment (fstat when it was opened).
struct FileStamp {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  timespec modified{}, changed{};
};

struct FreeBytes {
  void operator()(char* p) const { std::free(p); }
};

struct InputFile {
  std::string path; // as given ("-" for standard input, shown as "<stdin>")
  // The whole input: a view of `mapping` or `buffer` below. Both keep their bytes where they
  // are when the InputFile is moved, so the view (and every view of a check into it) stays
  // valid as long as the InputFile, wherever it was moved to, lives.
  std::string_view text;

  // nullopt while a regular file is still the one that was read; else why it is not: it was
  // truncated under the mapping (the missing bytes were read as zeros), or its size or times
  // changed (written in place). Call it after the text was used: a result computed from a
  // file that changed meanwhile may mix old and new bytes and must be refused. A file
  // replaced by another (renamed over, as editors save) is not a change: the mapping or the
  // buffer still holds the whole file that was read.
  std::optional<std::string> changed_since_read() const;

  std::optional<MappedFile> mapping;
  std::unique_ptr<char, FreeBytes> buffer;
  std::optional<FileStamp> stamp; // regular files only
};

// Reads `path`; on failure returns nullopt and sets `error` to a complete sentence.
std::optional<InputFile> read_input(const std::string& path, const InputLimits& limits,
                                    std::string* error);

// Writes `text` to `path` atomically (temporary file in the same directory, fsync, rename),
// keeping the original file's permissions, and its owner and group where the process may give
// them (apply::keep_owner). A symbolic link stays a link: its target is rewritten. Other hard
// links to the file are not: they keep the old text (the rename makes a new inode).
bool write_file_atomically(const std::string& path, const std::string& text, std::string* error);

std::string display_path(const std::string& path);

} // namespace blockls::cli
