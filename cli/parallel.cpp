// Running independent per-file work on several threads (see parallel.h).
#include "cli/parallel.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace blockls::cli {

void for_each_parallel(size_t count, unsigned jobs, const std::function<void(size_t)>& work) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = std::min<size_t>(jobs, count);
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i)
      work(i);
    return;
  }
  // Indices are handed out one at a time, so one huge file does not hold back a whole share.
  std::atomic<size_t> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  const auto run = [&] {
    for (size_t i; (i = next.fetch_add(1)) < count;) {
      try {
        work(i);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
        next = count; // stop handing out work
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t)
    pool.emplace_back(run);
  run();
  for (std::thread& t : pool)
    t.join();
  if (first_error) std::rethrow_exception(first_error);
}

} // namespace blockls::cli
