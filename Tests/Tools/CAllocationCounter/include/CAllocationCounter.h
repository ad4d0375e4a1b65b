// Counts heap allocations for the benchmarks (EnsignBenchmarks only; no product links this).
#ifndef ENSIGN_ALLOCATION_COUNTER_H
#define ENSIGN_ALLOCATION_COUNTER_H

#include <stdint.h>

/// The number of heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc,
/// memalign) made by the process so far, or -1 when counting is unavailable on this platform.
int64_t ensign_allocation_count(void);

/// Turns counting on (nonzero) or off (zero, the start) and returns whether it was on;
/// allocations made while it is off are not counted. Does nothing where counting is unavailable.
int ensign_allocation_counting(int isOn);

/// The bytes the C heap has handed out and not yet freed (glibc's mallinfo2: in-use chunks
/// plus mmapped blocks), or -1 when unavailable on this platform.
int64_t ensign_heap_bytes_in_use(void);

/// Returns the heap's free memory to the operating system where the allocator supports it
/// (glibc's malloc_trim), so that a resident-size reading counts live data, not free lists.
void ensign_trim_heap(void);

#endif
