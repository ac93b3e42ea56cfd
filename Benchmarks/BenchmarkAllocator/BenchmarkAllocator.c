#include "BenchmarkAllocator.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

long long benchmark_allocated_bytes(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  // In use from the heap arenas, plus blocks glibc mapped on their own (`hblkhd`: large
  // allocations such as a big array's buffer), which `uordblks` leaves out.
  return (long long)info.uordblks + (long long)info.hblkhd;
#else
  return -1;
#endif
}
