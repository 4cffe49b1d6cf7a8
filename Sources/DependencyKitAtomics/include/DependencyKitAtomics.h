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

// The scope bound by the innermost synchronous scope running on this thread, and the task it runs in
// (`NULL` outside any task). `bound` is 0 when no synchronous scope runs on this thread; when it is 1,
// `frame` is the innermost frame (`NULL` for a scope that binds no container). Only ScopeFrame.bind
// writes it, and restores the previous value before it returns.
typedef struct {
    const void *task;
    const void *frame;
    intptr_t bound;
} dk_thread_scope;

#if defined(__linux__) && !defined(__ANDROID__)
// Initial-exec: a thread-pointer-relative load, even from a shared library, instead of a call.
#define DK_SCOPE_THREAD_LOCAL DK_THREAD_LOCAL __attribute__((tls_model("initial-exec")))
#else
#define DK_SCOPE_THREAD_LOCAL DK_THREAD_LOCAL
#endif

extern DK_SCOPE_THREAD_LOCAL dk_thread_scope dk_current_thread_scope;

// The running task's address (NULL outside any task): the concurrency runtime's entry point that
// `withUnsafeCurrentTask` calls, without that function's generic closure and retain. DependencyKit
// only compares the address with another, never dereferences it.
extern void *swift_task_getCurrent(void) __attribute__((swiftcall));

static inline const void *dk_current_task(void) { return swift_task_getCurrent(); }

static inline dk_thread_scope dk_thread_scope_get(void) { return dk_current_thread_scope; }

static inline void dk_thread_scope_set(dk_thread_scope scope) { dk_current_thread_scope = scope; }

// A monotonic clock in nanoseconds, for the cold path that notices containers installed in a loop.
int64_t dk_monotonic_nanoseconds(void);

// Writes `message` to the standard error stream and flushes it: the engine's one warning channel,
// so the library needs no Foundation.
void dk_write_standard_error(const char *message);

#endif
