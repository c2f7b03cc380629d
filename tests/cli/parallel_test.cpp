// for_each_ordered: produced and consumed on up to `jobs` threads (the caller's included),
// consumed in order one at a time, never more than `ahead` beyond the last consumed index.
#include "cli/parallel.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using blockls::cli::for_each_ordered;

TEST_CASE("for_each_ordered consumes in order, each index once, within `ahead`",
          "[cli][parallel]") {
  for (const unsigned jobs : {1u, 2u, 4u}) {
    for (const size_t ahead : {size_t{1}, size_t{3}, size_t{16}, SIZE_MAX}) {
      constexpr size_t count = 500;
      std::vector<int> produced(count, 0);
      std::vector<size_t> order;
      std::atomic<size_t> consumed{0};
      std::atomic<size_t> widest{0}; // largest i - consumed seen by a producer
      for_each_ordered(
          count, jobs, ahead,
          [&](size_t i) {
            const size_t gap = i - consumed.load();
            for (size_t w = widest.load(); gap > w && !widest.compare_exchange_weak(w, gap);) {
            }
            ++produced[i];
          },
          [&](size_t i) {
            REQUIRE(produced[i] == 1); // produced, and before it is consumed
            order.push_back(i);
            consumed = i + 1;
          });
      REQUIRE(order.size() == count);
      for (size_t i = 0; i < count; ++i)
        CHECK(order[i] == i);
      CHECK(widest.load() < ahead);
    }
  }
}

TEST_CASE("for_each_ordered runs on `jobs` threads in all, and never two consumes at once",
          "[cli][parallel]") {
  for (const unsigned jobs : {2u, 3u}) {
    std::mutex mutex;
    std::set<std::thread::id> threads; // every thread that produced or consumed
    std::atomic<int> consuming{0};
    std::atomic<int> overlaps{0};
    const auto seen = [&] {
      const std::lock_guard lock(mutex);
      threads.insert(std::this_thread::get_id());
    };
    size_t sum = 0; // written by consume alone, without a lock
    for_each_ordered(
        2000, jobs, 16,
        [&](size_t) {
          seen();
          volatile unsigned spin = 0; // enough work for the threads to interleave
          for (int k = 0; k < 2000; ++k)
            spin = spin + 1;
        },
        [&](size_t i) {
          if (consuming.fetch_add(1) != 0) ++overlaps;
          seen();
          sum += i;
          consuming.fetch_sub(1);
        });
    CHECK(overlaps.load() == 0);
    CHECK(sum == 2000 * 1999 / 2);
    CHECK(threads.size() <= jobs); // no writer thread beside the `jobs` ones
  }
}

TEST_CASE("for_each_ordered rethrows the first exception of either side after stopping",
          "[cli][parallel]") {
  for (const unsigned jobs : {1u, 2u}) {
    size_t consumed = 0;
    CHECK_THROWS_WITH(for_each_ordered(
                          100, jobs, 8,
                          [](size_t i) {
                            if (i == 40) throw std::runtime_error("produce 40");
                          },
                          [&](size_t) { ++consumed; }),
                      "produce 40");
    CHECK(consumed <= 40); // nothing after the failed index is consumed
    CHECK_THROWS_WITH(for_each_ordered(
                          100, jobs, 8, [](size_t) {},
                          [](size_t i) {
                            if (i == 7) throw std::runtime_error("consume 7");
                          }),
                      "consume 7");
  }
}
