// Word-sized atomics for DependencyKit's hot path.
//
// `Synchronization.Atomic` needs macOS 15 / iOS 18; C11 atomics work on every
// platform DependencyKit supports and add no package dependency. The functions
// are `static inline` so Swift inlines them at the call site.
#ifndef DEPENDENCYKIT_ATOMICS_H
#define DEPENDENCYKIT_ATOMICS_H

#include <stdatomic.h>
#include <stdint.h>

#include "DependencyKitDiagnosticsWord.h"
#include "DependencyKitResolutionDepth.h"

static inline intptr_t dk_atomic_load_acquire(const intptr_t *word) {
    return atomic_load_explicit((const _Atomic(intptr_t) *)word, memory_order_acquire);
}

static inline intptr_t dk_atomic_load_relaxed(const intptr_t *word) {
    return atomic_load_explicit((const _Atomic(intptr_t) *)word, memory_order_relaxed);
}

static inline void dk_atomic_store_release(intptr_t *word, intptr_t value) {
    atomic_store_explicit((_Atomic(intptr_t) *)word, value, memory_order_release);
}

static inline intptr_t dk_atomic_fetch_add(intptr_t *word, intptr_t delta) {
    return atomic_fetch_add_explicit((_Atomic(intptr_t) *)word, delta, memory_order_acq_rel);
}

static inline _Bool dk_atomic_compare_exchange(intptr_t *word, intptr_t *expected, intptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        (_Atomic(intptr_t) *)word, expected, desired, memory_order_acq_rel, memory_order_acquire);
}

// A monotonic clock in nanoseconds, for the cold path that notices containers installed in a loop.
int64_t dk_monotonic_nanoseconds(void);

// Writes `message` to the standard error stream and flushes it: the engine's one warning channel,
// so the library needs no Foundation.
void dk_write_standard_error(const char *message);

#endif
