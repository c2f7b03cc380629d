// Running independent per-file work on several threads (`check`, `fix` and `apply` -j N).
#pragma once

#include <cstddef>
#include <functional>

namespace blockls::cli {

// Calls produce(i) for every i in [0, count) and consume(i) in index order, each as soon as
// produce(i) has returned, on up to `jobs` threads (0: one per core) counting the calling one.
// Every thread consumes when the next index is ready and no other thread is consuming, and
// produces otherwise: so writing file i's report overlaps checking the files after it, and no
// thread beyond `jobs` competes for the cores (a separate writer thread did, and every handoff
// to it cost two context switches). Consumes never overlap, and each one happens-after the one
// before it, so consume may use state of its own without locks, but must not care which thread
// runs it. No index is produced more than `ahead` (>= 1) beyond the last one consumed, so
// memory follows `ahead`, not `count`. produce(i) must only touch index i's data; consume(i) may
// read it. With one job: produce(i) then consume(i), in order, on the calling thread. The
// first exception thrown by either is rethrown after every thread has stopped.
void for_each_ordered(size_t count, unsigned jobs, size_t ahead,
                      const std::function<void(size_t)>& produce,
                      const std::function<void(size_t)>& consume);

} // namespace blockls::cli
