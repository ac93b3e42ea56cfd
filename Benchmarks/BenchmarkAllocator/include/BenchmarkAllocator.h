#ifndef BENCHMARK_ALLOCATOR_H
#define BENCHMARK_ALLOCATOR_H

#include <stddef.h>
#include <stdlib.h>

/// Bytes currently allocated through malloc (glibc's mallinfo2: `uordblks`, in use in the
/// arenas, plus `hblkhd`, blocks mapped on their own), or -1 where the C library does not
/// report it.
long long benchmark_allocated_bytes(void);

#endif
