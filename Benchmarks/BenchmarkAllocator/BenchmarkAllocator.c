#include "BenchmarkAllocator.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

long long benchmark_allocated_bytes(void) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info = mallinfo2();
  return (long long)info.uordblks;
#else
  return -1;
#endif
}
