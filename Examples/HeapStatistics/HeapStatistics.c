#include "HeapStatistics.h"

#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

long heap_statistics_bytes_in_use(void) {
  struct mallinfo2 info = mallinfo2();
  return (long)info.uordblks;
}
#else
long heap_statistics_bytes_in_use(void) { return -1; }
#endif
