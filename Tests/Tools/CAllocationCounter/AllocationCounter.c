// Counts heap allocations by interposing the C allocator, for the benchmarks only.
//
// On glibc, an executable that defines malloc and friends replaces them for the whole
// process, including the Swift runtime and every shared library (glibc's own allocator is
// interposable by design). Each replacement forwards to glibc's implementation, exported as
// __libc_malloc and friends, and bumps a relaxed atomic counter. Elsewhere (Darwin, musl)
// nothing is replaced and the count reports -1, which the benchmarks print as "n/a".
//
// Every call that hands out memory counts once, including a realloc that may move a block;
// free does not count. Counting is on only while the benchmarks ask for it (their counting
// pass, outside the timed rounds): a shared counter bumped by two threads that allocate at
// once moves its cache line between their cores at every call, a cost of the measurement that
// the timed rounds of a multi-threaded entry would otherwise pay and its reference would not.

#include "CAllocationCounter.h"

#include <stdlib.h>

#if defined(__GLIBC__)

#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);

static _Atomic int64_t allocationCount = 0;
static _Atomic int isCounting = 0;

static inline void countAllocation(void) {
    if (atomic_load_explicit(&isCounting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocationCount, 1, memory_order_relaxed);
    }
}

int ensign_allocation_counting(int isOn) {
    return atomic_exchange_explicit(&isCounting, isOn != 0, memory_order_seq_cst);
}

int64_t ensign_allocation_count(void) {
    return atomic_load_explicit(&allocationCount, memory_order_relaxed);
}

int64_t ensign_heap_bytes_in_use(void) {
#if __GLIBC_PREREQ(2, 33)
    struct mallinfo2 info = mallinfo2();
    return (int64_t)(info.uordblks + info.hblkhd);
#else
    return -1;
#endif
}

void ensign_trim_heap(void) {
    malloc_trim(0);
}

void *malloc(size_t size) {
    countAllocation();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    countAllocation();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    countAllocation();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    countAllocation();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    countAllocation();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // POSIX: the alignment must be a power of two and a multiple of sizeof(void *).
    if (alignment == 0 || alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    countAllocation();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}

#else

int64_t ensign_allocation_count(void) {
    return -1;
}

int ensign_allocation_counting(int isOn) {
    (void)isOn;
    return 0;
}

int64_t ensign_heap_bytes_in_use(void) {
    return -1;
}

void ensign_trim_heap(void) {}

#endif
