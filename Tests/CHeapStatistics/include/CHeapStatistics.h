// The heap in use, for the test probe's memory checks.
#ifndef ENSIGN_HEAP_STATISTICS_H
#define ENSIGN_HEAP_STATISTICS_H

#include <stdint.h>

/// The bytes the process has allocated on the heap and not freed: the sanitizer allocator's
/// count under the address or thread sanitizer, else glibc's mallinfo2 (in-use chunks plus
/// mmapped blocks); -1 where neither is available.
int64_t ensign_heap_in_use(void);

/// Returns the allocator's free memory to the system where it can (glibc's malloc_trim);
/// does nothing elsewhere. For the soak, to tell free pages the allocator keeps from a leak.
void ensign_heap_trim(void);

#endif
