// Running independent per-file work on several threads (`check`, `fix` and `apply` -j N).
#pragma once

#include <cstddef>
#include <functional>

namespace blockls::cli {

// Calls produce(i) for every i in [0, count) on up to `jobs` threads (0: one per core), and
// consume(i) on the calling thread in index order, each as soon as produce(i) has returned: so
// writing file i's report overlaps checking the files after it, instead of every thread waiting
// for the writer at the end of each batch. No index is produced more than `ahead` (>= 1) beyond
// the last one consumed, so memory follows `ahead`, not `count`. produce(i) must only touch
// index i's data; consume(i) may read it. With one job: produce(i) then consume(i), in order.
// The first exception thrown by either is rethrown after every thread has stopped.
void for_each_ordered(size_t count, unsigned jobs, size_t ahead,
                      const std::function<void(size_t)>& produce,
                      const std::function<void(size_t)>& consume);

} // namespace blockls::cli
