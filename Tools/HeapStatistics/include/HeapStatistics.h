#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

/// Bytes malloc has handed out and not taken back (glibc's mallinfo2: `uordblks`, in use in
/// the arenas, plus `hblkhd`, blocks mapped on their own), or -1 where the C library has no
/// such call. The one heap reading of the showcase's `/stats` and of tether-bench.
long long heap_statistics_bytes_in_use(void);

#endif
