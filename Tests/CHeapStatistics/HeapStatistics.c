// Reads the heap in use without replacing the allocator, so it also works in sanitized builds.

#include "CHeapStatistics.h"

#include <stddef.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// Defined by the sanitizer runtimes only; weak, so it is NULL in a normal build.
extern size_t __sanitizer_get_current_allocated_bytes(void) __attribute__((weak));

int64_t ensign_heap_in_use(void) {
    if (__sanitizer_get_current_allocated_bytes != NULL) {
        return (int64_t)__sanitizer_get_current_allocated_bytes();
    }
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 33)
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}

void ensign_heap_trim(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
