// Text and JSON reports of a check in parts (see parted_report.h).
#include "cli/parted_report.h"

#include "fixits/parted_check.h"
#include "grammar/router/document_parser.h"

#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>
#include <utility>

namespace blockls::cli {

PartedCheck print_text_in_parts(std::ostream& out, const std::string& shown, const InputFile& file,
                                const CheckOptions& options, size_t part_bytes,
                                const TextStyle& style, bool pipelined) {
  PartedCheck result;
  // The text report is one diagnostic after another in check order, each read from the text
  // and the whole text's line index: the parts' reports, one after the other, are the whole's.
  LineIndex lines = index_document_lines(file.text, options.parse);
  result.parts = check_in_parts(
      file.text, lines, options, part_bytes,
      [&](const CheckedDocument& part) {
        if ((result.changed = file.changed_since_read())) return false;
        print_text_diagnostics(out, shown, file.text, part, style);
        result.summary += summarize(part);
        return true;
      },
      pipelined);
  if (!result.changed) result.changed = file.changed_since_read();
  return result;
}

namespace {

// An unnamed file (O_TMPFILE: gone when closed) in $TMPDIR, else /tmp; null when none can be
// made there.
std::FILE* unnamed_temporary_file() {
  const char* dir = std::getenv("TMPDIR");
  const int fd = ::open(dir && *dir ? dir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0) return nullptr;
  std::FILE* file = ::fdopen(fd, "w+");
  if (!file) ::close(fd);
  return file;
}

// Text put aside to be written later, in order: in an unnamed temporary file when one can be
// made (its pages are the kernel's to drop, as the mapped input's are), else in memory.
class AsideText {
public:
  AsideText() : file_(unnamed_temporary_file()) {}
  ~AsideText() {
    if (file_) std::fclose(file_);
  }
  AsideText(const AsideText&) = delete;
  AsideText& operator=(const AsideText&) = delete;

  void write(std::string_view text) {
    if (file_ && std::fwrite(text.data(), 1, text.size(), file_) == text.size()) {
      in_file_ += text.size();
      return;
    }
    if (file_) to_memory();
    memory_.append(text);
  }
  // Hands everything written, in order, to `take`, 64 KiB at a time.
  template <typename Take> void read_back(Take&& take) {
    if (file_ && std::fflush(file_) == 0 && std::fseek(file_, 0, SEEK_SET) == 0) {
      std::string chunk(size_t{1} << 16, '\0');
      while (const size_t n = std::fread(chunk.data(), 1, chunk.size(), file_))
        take(std::string_view(chunk.data(), n));
    }
    take(std::string_view(memory_));
  }

private:
  // A write to the file failed (the disk is full): what the writes before it put there is
  // read back into memory (not the failed write's part), and the rest goes there too.
  void to_memory() {
    std::string held(in_file_, '\0');
    std::fseek(file_, 0, SEEK_SET); // (a failed read leaves zeros: nothing better is left)
    held.resize(std::fread(held.data(), 1, held.size(), file_));
    std::fclose(file_);
    file_ = nullptr;
    memory_ = std::move(held);
  }

  std::FILE* file_;
  size_t in_file_ = 0; // bytes written to the file
  std::string memory_;
};

} // namespace

// The document object has its blocks before its errors, but a part's errors are written while
// the part is still there (its blocks give their context), by a fork of the writer that stands
// where the errors begin; what it writes is put aside and spliced in after the last block.
PartedCheck write_json_in_parts(JsonWriter& w, const std::string& shown, const InputFile& file,
                                const CheckOptions& options, const ActionCatalog& catalog,
                                size_t part_bytes, bool pipelined) {
  PartedCheck result;
  AsideText aside;
  w.begin_object();
  std::string errors_text;
  JsonWriter errors = w.fork(&errors_text);
  errors.key("blocks"); // the state after the blocks array (its text is not kept)
  errors.begin_array();
  errors.end_array();
  errors_text.clear();
  errors.key("errors");
  errors.begin_array();
  errors.spill_every(size_t{1} << 18, [&aside](std::string_view part) { aside.write(part); });
  w.key("blocks");
  w.begin_array();
  LineIndex lines = index_document_lines(file.text, options.parse);
  result.parts = check_in_parts(
      file.text, lines, options, part_bytes,
      [&](const CheckedDocument& part) {
        if ((result.changed = file.changed_since_read())) return false;
        for (size_t b = 0; b < part.parsed.blocks.size(); ++b)
          write_block(w, file.text, part, b, catalog);
        for (const Diagnostic& d : part.diagnostics)
          write_diagnostic(errors, file.text, part, d);
        result.summary += summarize(part);
        return true;
      },
      pipelined);
  w.end_array();
  errors.end_array();
  errors.field("path", shown);
  errors.key("summary");
  write_summary(errors, result.summary);
  errors.end_object();
  aside.write(errors_text);
  aside.read_back([&w](std::string_view text) { w.splice(text); });
  w.adopt(errors);
  if (!result.changed) result.changed = file.changed_since_read();
  return result;
}

} // namespace blockls::cli
