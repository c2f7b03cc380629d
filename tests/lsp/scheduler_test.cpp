// Scheduler: where and when a replaced analysis is freed.
#include "lsp/scheduler.h"

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

namespace blockls::lsp {

// An analysis handed to dispose() is freed on the worker, before a job scheduled after it
// starts: its memory is back before that analysis allocates. (On a disposer thread of its own,
// a slow free still ran while the job did: the thread check fails there whatever the timing.)
TEST_CASE("a disposed analysis is freed on the worker before the next job", "[lsp][scheduler]") {
  boost::asio::io_context io;
  std::atomic<bool> freed{false};
  std::thread::id freed_on, job_on;
  bool freed_before_job = false;
  Scheduler scheduler(io, DebouncePolicy{std::chrono::milliseconds(0)},
                      [&](const std::string&, std::shared_ptr<const Analysis>) { io.stop(); });
  {
    auto analysis = std::make_shared<Analysis>();
    // The text's deleter stands for a large analysis's free: it must run on the job's thread
    // (so it cannot overlap the job) and before it.
    analysis->text =
        std::shared_ptr<const std::string>(new std::string("x"), [&](const std::string* text) {
          freed_on = std::this_thread::get_id();
          delete text;
          freed = true;
        });
    scheduler.dispose(std::move(analysis));
  }
  scheduler.update("file:///a.md", [&]() -> std::shared_ptr<const Analysis> {
    job_on = std::this_thread::get_id();
    freed_before_job = freed;
    return nullptr;
  });
  io.run_for(std::chrono::seconds(10));
  scheduler.stop();
  CHECK(freed);
  CHECK(freed_before_job);
  CHECK(freed_on == job_on);
}

} // namespace blockls::lsp
