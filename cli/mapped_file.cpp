// Read-only file mappings and the SIGBUS handler that keeps a truncated file from killing the
// process (see mapped_file.h). The handler only reads a fixed table of atomics and calls
// mmap, so it is safe to run at any point of any thread.
#include "cli/mapped_file.h"

#include <array>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

namespace blockls::cli {
namespace {

// One live mapping: [begin, end). The handler reads begin and end under a sequence lock
// (odd `sequence` while they change), so it never acts on a half-written entry.
struct Slot {
  std::atomic<bool> taken{false};
  std::atomic<unsigned> sequence{0};
  std::atomic<uintptr_t> begin{0}, end{0};
  std::atomic<bool> truncated{false};
};

// Inputs mapped at once: `check` keeps every file until its output is written, so a run over
// more files than this reads the rest (small files are read anyway, see cli/input.cpp).
constexpr size_t kSlots = 1024;
std::array<Slot, kSlots> g_slots;
struct sigaction g_previous {};
uintptr_t g_page_size = 4096;
std::once_flag g_installed;

void set_range(Slot& s, uintptr_t begin, uintptr_t end) {
  s.sequence.fetch_add(1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  s.begin.store(begin, std::memory_order_relaxed);
  s.end.store(end, std::memory_order_relaxed);
  s.sequence.fetch_add(1, std::memory_order_release);
}

// A fault inside a registered mapping is a page past the end of its (now shorter) file: zero
// pages are mapped from there to the mapping's end, the slot is marked, and the faulting
// access runs again and reads zeros. Anything else gets the previous disposition back (the
// default: the process dies with SIGBUS, as it would have without this handler).
void on_sigbus(int, siginfo_t* info, void*) {
  if (info->si_code > 0) { // raised by the kernel for an access, not sent with kill()
    const uintptr_t at = reinterpret_cast<uintptr_t>(info->si_addr);
    for (Slot& s : g_slots) {
      const unsigned before = s.sequence.load(std::memory_order_acquire);
      if (before % 2 != 0) continue;
      const uintptr_t begin = s.begin.load(std::memory_order_relaxed);
      const uintptr_t end = s.end.load(std::memory_order_relaxed);
      std::atomic_thread_fence(std::memory_order_acquire);
      if (s.sequence.load(std::memory_order_relaxed) != before || begin == 0 || at < begin ||
          at >= end)
        continue;
      const uintptr_t page = at & ~(g_page_size - 1);
      if (::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
        break;
      s.truncated.store(true, std::memory_order_relaxed);
      return;
    }
  }
  ::sigaction(SIGBUS, &g_previous, nullptr);
  if (info->si_code <= 0) ::raise(SIGBUS); // delivered when this handler returns
}

void install_handler() {
  std::call_once(g_installed, [] {
    const long page = ::sysconf(_SC_PAGESIZE);
    if (page > 0) g_page_size = static_cast<uintptr_t>(page);
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
  });
}

int claim_slot(uintptr_t begin, uintptr_t end) {
  for (size_t i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    if (s.taken.exchange(true, std::memory_order_acq_rel)) continue;
    s.truncated.store(false, std::memory_order_relaxed);
    set_range(s, begin, end);
    return static_cast<int>(i);
  }
  return -1;
}

} // namespace

std::optional<MappedFile> MappedFile::map(int fd, size_t size) {
  install_handler();
  const size_t length = (size + g_page_size - 1) & ~(g_page_size - 1);
  // MAP_POPULATE: the whole file is read in and mapped in one call, not one fault per few
  // pages as the check reaches them.
  void* p = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
  if (p == MAP_FAILED) return std::nullopt;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(p);
  const int slot = claim_slot(begin, begin + length);
  if (slot < 0) {
    ::munmap(p, length);
    return std::nullopt;
  }
  return MappedFile(static_cast<const char*>(p), size, length, slot);
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : data_(other.data_), size_(other.size_), length_(other.length_), slot_(other.slot_) {
  other.data_ = nullptr;
  other.slot_ = -1;
}

MappedFile& MappedFile::operator=(MappedFile&& other) noexcept {
  if (this != &other) {
    release();
    data_ = other.data_;
    size_ = other.size_;
    length_ = other.length_;
    slot_ = other.slot_;
    other.data_ = nullptr;
    other.slot_ = -1;
  }
  return *this;
}

MappedFile::~MappedFile() {
  release();
}

void MappedFile::release() {
  if (!data_) return;
  Slot& s = g_slots[static_cast<size_t>(slot_)];
  set_range(s, 0, 0); // out of the handler's table before the pages go
  s.taken.store(false, std::memory_order_release);
  ::munmap(const_cast<char*>(data_), length_);
  data_ = nullptr;
  slot_ = -1;
}

bool MappedFile::truncated() const {
  return data_ && g_slots[static_cast<size_t>(slot_)].truncated.load(std::memory_order_relaxed);
}

} // namespace blockls::cli
