// Running independent per-file work on several threads (`check -j N`).
#pragma once

#include <cstddef>
#include <functional>

namespace blockls::cli {

// Calls work(i) for every i in [0, count) on up to `jobs` threads (0: one per core), each
// index exactly once, and returns when all are done. `work` must only touch index i's data.
// An exception thrown by work is rethrown here (the first one) after every thread has stopped.
void for_each_parallel(size_t count, unsigned jobs, const std::function<void(size_t)>& work);

} // namespace blockls::cli
