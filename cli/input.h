// Reading the documents the CLI is given: files or standard input ("-"), with a size cap
// and binary detection, so bad input gets one clear message instead of garbage output.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace blockls::cli {

struct InputFile {
  std::string path; // as given ("-" for standard input, shown as "<stdin>")
  std::string text;
};

struct InputLimits {
  size_t max_bytes = 512u * 1024 * 1024;
};

// Reads `path`; on failure returns nullopt and sets `error` to a complete sentence.
std::optional<InputFile> read_input(const std::string& path, const InputLimits& limits,
                                    std::string* error);

// Writes `text` to `path` atomically (temporary file in the same directory, fsync, rename),
// keeping the original file's permissions. A symbolic link stays a link: its target is
// rewritten.
bool write_file_atomically(const std::string& path, const std::string& text, std::string* error);

std::string display_path(const std::string& path);

} // namespace blockls::cli
