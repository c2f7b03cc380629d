// Per-document debounced analysis, clangd's TUScheduler in small: an update restarts the
// document's steady_timer; when it fires the newest job runs on the worker thread; the result
// comes back on the io thread tagged with its generation, and the server drops it when a newer
// generation exists. At most one job per document runs at a time; updates that arrive while it
// runs are coalesced into one rerun. The delay adapts to the last run time, within bounds.
#pragma once

#include "lsp/analysis.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace blockls::lsp {

struct DebouncePolicy {
  std::chrono::milliseconds min{50}; // 0: no debounce at all (tests, benchmarks)
  std::chrono::milliseconds max{500};
  // The delay for a document whose last analysis took `last`.
  std::chrono::milliseconds compute(std::chrono::microseconds last) const;
};

class Scheduler {
public:
  using Job = std::function<std::shared_ptr<const Analysis>()>;
  using Done = std::function<void(const std::string& uri, std::shared_ptr<const Analysis>)>;

  Scheduler(boost::asio::io_context& io, DebouncePolicy policy, Done done);
  ~Scheduler();

  // Replaces the document's pending job and (re)starts its debounce timer.
  void update(const std::string& uri, Job job);
  // Runs the document's pending job now (skips the rest of the debounce).
  void flush(const std::string& uri);
  void flush_all();
  // Forgets the document; a running job's result is still delivered (and dropped by the server).
  void remove(const std::string& uri);
  // Stops the worker (waits for a running job).
  void stop();
  // Drops a reference to an analysis on the worker, after the jobs posted so far and before
  // any posted later: freeing a large document's analysis (its model, plan and simulation:
  // ~4 ms at 10 MB) is not the protocol thread's work, and done before the next analysis
  // allocates, its memory is there for that analysis to reuse, in the worker's own caches.
  // (On a thread of its own it raced the next keystroke's analysis, which at 10 MB wrote its
  // plan or its simulation's blocks into fresh pages, ~4,000 page faults and 8-10 ms more, on
  // ~3 keystrokes in a hundred; half as many now, the rest being pages the allocator gave
  // back meanwhile.)
  // Its plan's actions and simulated blocks are kept (spare_storage) for the next job to
  // write over.
  void dispose(std::shared_ptr<const Analysis> analysis);
  // The storage of the analysis disposed of last, for a job's analyze to write its own over
  // (lsp/analysis.h, spare_storage). Only on the worker, from a job.
  SpareStorage& spare() { return spare_; }

private:
  struct Entry {
    std::unique_ptr<boost::asio::steady_timer> timer;
    Job pending;
    bool running = false;
    bool removed = false;
    std::chrono::microseconds last{0};
  };
  void start(const std::string& uri);

  boost::asio::io_context& io_;
  DebouncePolicy policy_;
  Done done_;
  boost::asio::thread_pool worker_{1};
  std::map<std::string, Entry> entries_;
  bool stopped_ = false;
  SpareStorage spare_; // the worker's only
};

} // namespace blockls::lsp
