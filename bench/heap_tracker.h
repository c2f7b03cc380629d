// Heap accounting for the benchmark binary only: heap_tracker.cpp replaces the global
// operator new/delete and counts the bytes malloc hands out, so the report can state the
// peak heap one check_document needs relative to its input.
#pragma once

#include <cstddef>

namespace blockls::bench {

// Bytes currently allocated through operator new (as malloc_usable_size counts them).
size_t heap_current();
// Highest heap_current() since the last reset_heap_peak().
size_t heap_peak();
// Restarts the peak at the current level.
void reset_heap_peak();

} // namespace blockls::bench
