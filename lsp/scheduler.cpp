// The scheduler runs on the io thread; only Job bodies run on the worker.
#include "lsp/scheduler.h"

#include <algorithm>
#include <boost/asio/post.hpp>

namespace blockls::lsp {

std::chrono::milliseconds DebouncePolicy::compute(std::chrono::microseconds last) const {
  if (min.count() == 0) return min;
  const auto scaled = std::chrono::duration_cast<std::chrono::milliseconds>(last);
  return std::clamp(scaled, min, std::max(min, max));
}

Scheduler::Scheduler(boost::asio::io_context& io, DebouncePolicy policy, Done done)
    : io_(io), policy_(policy), done_(std::move(done)) {}

Scheduler::~Scheduler() {
  stop();
}

void Scheduler::stop() {
  if (stopped_) return;
  stopped_ = true;
  for (auto& [uri, entry] : entries_)
    if (entry.timer) entry.timer->cancel();
  worker_.join();
}

void Scheduler::dispose(std::shared_ptr<const Analysis> analysis) {
  if (!analysis) return;
  if (stopped_) return analysis.reset();
  boost::asio::post(
      worker_, [this, a = std::move(analysis)]() mutable { spare_ = spare_storage(std::move(a)); });
}

void Scheduler::update(const std::string& uri, Job job) {
  Entry& entry = entries_[uri];
  entry.pending = std::move(job);
  entry.removed = false;
  if (entry.running) return; // started again when the running job ends
  const auto delay = policy_.compute(entry.last);
  if (delay.count() == 0) {
    start(uri);
    return;
  }
  if (!entry.timer) entry.timer = std::make_unique<boost::asio::steady_timer>(io_);
  entry.timer->expires_after(delay);
  entry.timer->async_wait([this, uri](const boost::system::error_code& ec) {
    if (!ec) start(uri);
  });
}

void Scheduler::flush(const std::string& uri) {
  auto it = entries_.find(uri);
  if (it == entries_.end() || !it->second.pending || it->second.running) return;
  if (it->second.timer) it->second.timer->cancel();
  start(uri);
}

void Scheduler::flush_all() {
  std::vector<std::string> uris;
  for (const auto& [uri, entry] : entries_)
    uris.push_back(uri);
  for (const std::string& uri : uris)
    flush(uri);
}

void Scheduler::remove(const std::string& uri) {
  auto it = entries_.find(uri);
  if (it == entries_.end()) return;
  if (it->second.timer) it->second.timer->cancel();
  if (it->second.running) {
    it->second.pending = nullptr;
    it->second.removed = true; // erased when the job returns
  } else {
    entries_.erase(it);
  }
}

void Scheduler::start(const std::string& uri) {
  auto it = entries_.find(uri);
  if (it == entries_.end() || !it->second.pending || stopped_) return;
  Entry& entry = it->second;
  Job job = std::move(entry.pending);
  entry.pending = nullptr;
  entry.running = true;
  boost::asio::post(worker_, [this, uri, job = std::move(job)]() mutable {
    std::shared_ptr<const Analysis> result = job();
    boost::asio::post(io_, [this, uri, result = std::move(result)]() mutable {
      auto it = entries_.find(uri);
      if (it != entries_.end()) {
        it->second.running = false;
        if (result) it->second.last = result->elapsed;
        if (it->second.removed) {
          entries_.erase(it);
        } else if (it->second.pending) {
          // Updates arrived while running: go again (after the debounce).
          Job next = std::move(it->second.pending);
          update(uri, std::move(next));
        }
      }
      done_(uri, std::move(result)); // the server holds the only reference now
    });
    // The job holds the base analysis (the document's published one: rarely the last
    // reference), dropped here once the result is on its way.
    job = nullptr;
  });
}

} // namespace blockls::lsp
