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
  size_t next = 0, consumed = 0; // the next index to produce; the next to consume
  bool consuming = false, stop = false;
  size_t waiting = 0; // threads blocked on `changed`: only they need a notify
  std::exception_ptr first_error;
  // step(i) with the lock released. False when it threw: the first error is kept and every
  // thread stops. Either way the lock is held again on return.
  const auto run_unlocked = [&](const std::function<void(size_t)>& step, size_t i,
                                std::unique_lock<std::mutex>& lock) {
    lock.unlock();
    try {
      step(i);
    } catch (...) {
      lock.lock();
      if (!first_error) first_error = std::current_exception();
      stop = true;
      changed.notify_all();
      return false;
    }
    lock.lock();
    return true;
  };
  // One thread's loop. It only waits when it can neither consume (the next index is not ready,
  // or another thread consumes) nor produce (`ahead` reached, or all produced); the only events
  // that change that are a consume finishing and a stop, so only they notify. A thread that
  // produces the next index to consume goes on to consume it itself.
  const auto work = [&] {
    std::unique_lock lock(mutex);
    while (!stop && consumed < count) {
      if (!consuming && ready[consumed]) {
        consuming = true;
        const size_t i = consumed;
        if (!run_unlocked(consume, i, lock)) return;
        consuming = false;
        consumed = i + 1;
        if (waiting > 0) changed.notify_all();
      } else if (next < count && next - consumed < ahead) {
        const size_t i = next++;
        if (!run_unlocked(produce, i, lock)) return;
        ready[i] = 1;
      } else {
        ++waiting;
        changed.wait(lock);
        --waiting;
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (size_t t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work(); // the calling thread is one of the `threads`
  for (std::thread& t : pool)
    t.join();
  if (first_error) std::rethrow_exception(first_error);
}

} // namespace blockls::cli
