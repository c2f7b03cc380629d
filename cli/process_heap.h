// Heap settings for the processes that parse documents again and again: the language server
// on every edit, the CLI on every file, the benchmark on every iteration.
#pragma once

namespace blockls::cli {

// By default glibc gives a large freed region at the top of the heap back to the system (it
// "trims" anything over 128 KiB until the first large block is freed) and serves large
// requests with fresh mappings. A parse's large arrays (line starts, blocks, verdicts: some
// megabytes for a 10 MB transcript) are freed with its document, so the next parse would
// page-fault them in again. This keeps up to 64 MiB of freed heap and serves requests below
// 32 MiB from the heap. Call it once, first thing in main(); it does nothing on other libcs.
void configure_process_heap();

} // namespace blockls::cli
