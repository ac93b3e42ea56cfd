#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

/// Bytes the heap has handed out and not freed (glibc's mallinfo2), or -1 where the C library
/// has no such call.
long heap_statistics_bytes_in_use(void);

#endif
