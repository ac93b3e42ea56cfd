#include "HeapStatistics.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

long long heap_statistics_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  // In use from the heap arenas, plus blocks glibc mapped on their own (`hblkhd`: large
  // allocations such as a big array's buffer), which `uordblks` leaves out.
  return (long long)info.uordblks + (long long)info.hblkhd;
}
#else
long long heap_statistics_bytes_in_use(void) { return -1; }
#endif
