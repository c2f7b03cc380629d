#include "cli/process_heap.h"

#include <cstdlib> // on glibc, defines __GLIBC__

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace blockls::cli {

void configure_process_heap() {
#if defined(__GLIBC__)
  mallopt(M_TRIM_THRESHOLD, 64 * 1024 * 1024);
  mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); // glibc's largest accepted value
#endif
}

} // namespace blockls::cli
