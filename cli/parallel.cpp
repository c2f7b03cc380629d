// Running independent per-file work on several threads in order (see parallel.h).
#include "cli/parallel.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace blockls::cli {

void for_each_ordered(size_t count, unsigned jobs, size_t ahead,
                      const std::function<void(size_t)>& produce,
                      const std::function<void(size_t)>& consume) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  const size_t threads = std::min<size_t>(jobs, count);
  if (threads <= 1) {
    for (size_t i = 0; i < count; ++i) {
      produce(i);
      consume(i);
    }
    return;
  }
  ahead = std::max<size_t>(ahead, 1);
  std::mutex mutex; // guards everything below
  std::condition_variable changed;
  std::vector<char> ready(count, 0);
  size_t next = 0, consumed = 0;
  bool stop = false;
  std::exception_ptr first_error;
  const auto fail = [&] {
    const std::lock_guard lock(mutex);
    if (!first_error) first_error = std::current_exception();
    stop = true;
    changed.notify_all();
  };
  const auto produce_all = [&] {
    while (true) {
      size_t i = 0;
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return stop || next >= count || next - consumed < ahead; });
        if (stop || next >= count) return;
        i = next++;
      }
      try {
        produce(i);
      } catch (...) {
        return fail();
      }
      const std::lock_guard lock(mutex);
      ready[i] = 1;
      changed.notify_all();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (size_t t = 0; t < threads; ++t)
    pool.emplace_back(produce_all);
  for (size_t i = 0; i < count; ++i) {
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return stop || ready[i]; });
      if (stop) break;
    }
    try {
      consume(i);
    } catch (...) {
      fail();
      break;
    }
    const std::lock_guard lock(mutex);
    consumed = i + 1;
    changed.notify_all();
  }
  for (std::thread& t : pool)
    t.join();
  if (first_error) std::rethrow_exception(first_error);
}

} // namespace blockls::cli
