// Heap accounting for the benchmark binary only: heap_tracker.cpp replaces the global
// operator new/delete and, while tracking is on, counts the bytes malloc hands out, so the
// report can state the peak heap one check_document needs relative to its input. While
// tracking is off (the throughput benchmarks) new/delete are plain malloc/free plus one
// relaxed load, so the timings do not pay for the accounting.
#pragma once

#include <cstddef>

namespace blockls::bench {

// Bytes currently allocated through operator new by tracked allocations (as
// malloc_usable_size counts them): those made while tracking was on and not yet freed.
size_t heap_current();
// Highest heap_current() since the last reset_heap_peak().
size_t heap_peak();
// Restarts the peak at the current level.
void reset_heap_peak();
// True when more blocks were live than the tracker can record: the figures are then too low.
bool heap_tracking_overflowed();

// Counts allocations while alive (scopes do not nest). Blocks allocated under it are
// recognised when freed, whether tracking is still on or not; blocks allocated before it
// are never counted, also when freed under it.
class HeapTracking {
public:
  HeapTracking();
  ~HeapTracking();
  HeapTracking(const HeapTracking&) = delete;
  HeapTracking& operator=(const HeapTracking&) = delete;
};

} // namespace blockls::bench
