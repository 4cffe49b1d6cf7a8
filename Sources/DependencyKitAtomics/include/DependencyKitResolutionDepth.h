// How deeply the current thread is nested in synchronous resolutions.
//
// Every synchronous resolution adds one on entry and takes one on exit: two thread-local
// increments, no atomics, no call. A depth no real graph reaches means a resolution that keeps
// requiring itself; the engine then names the cycle instead of letting the stack overflow, in
// release builds too, where the full cycle check is off.
#ifndef DEPENDENCYKIT_RESOLUTION_DEPTH_H
#define DEPENDENCYKIT_RESOLUTION_DEPTH_H

#include <stdint.h>

#if defined(_MSC_VER)
#define DK_THREAD_LOCAL __declspec(thread)
#else
#define DK_THREAD_LOCAL _Thread_local
#endif

// Initial-exec: one %fs-relative access instead of a call to __tls_get_addr on every resolution.
#if defined(__ELF__)
#define DK_DEPTH_THREAD_LOCAL DK_THREAD_LOCAL __attribute__((tls_model("initial-exec")))
#else
#define DK_DEPTH_THREAD_LOCAL DK_THREAD_LOCAL
#endif

// Only ever touched through the functions below. Starts at 0 on every thread.
extern DK_DEPTH_THREAD_LOCAL intptr_t dk_resolution_depth;
// While a runaway resolution is being diagnosed on this thread: the record of what it resolved.
extern DK_THREAD_LOCAL void *_Nullable dk_runaway_record;

static inline intptr_t dk_resolution_depth_enter(void) { return ++dk_resolution_depth; }

static inline void dk_resolution_depth_exit(void) { --dk_resolution_depth; }

static inline intptr_t dk_resolution_depth_get(void) { return dk_resolution_depth; }

static inline void *_Nullable dk_runaway_record_get(void) { return dk_runaway_record; }

static inline void dk_runaway_record_set(void *_Nullable record) { dk_runaway_record = record; }

#endif
