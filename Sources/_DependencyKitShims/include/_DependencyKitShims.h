// _DependencyKitShims: the C side of DependencyKit's hot path, in one header — word-sized atomics,
// the diagnostics word, the per-thread resolution depth, graph record, scope slot and hazard slot, a monotonic
// clock, unbuffered stderr writes and the one runtime declaration Swift will not take from
// `@_silgen_name`. An implementation detail (the leading underscore): not a product, and clients
// that `import DependencyKit` cannot name anything declared here.
//
// `Synchronization.Atomic` needs macOS 15 / iOS 18; C11 atomics work on every
// platform DependencyKit supports and add no package dependency. The functions
// are `static inline` so Swift inlines them at the call site.
#ifndef DEPENDENCYKIT_SHIMS_H
#define DEPENDENCYKIT_SHIMS_H

#include <stdatomic.h>
#include <stdint.h>

// MARK: - Atomics on any word

static inline intptr_t dk_atomic_load_acquire(const intptr_t *_Nonnull word) {
    return atomic_load_explicit((const _Atomic(intptr_t) *)word, memory_order_acquire);
}

static inline intptr_t dk_atomic_load_relaxed(const intptr_t *_Nonnull word) {
    return atomic_load_explicit((const _Atomic(intptr_t) *)word, memory_order_relaxed);
}

static inline void dk_atomic_store_release(intptr_t *_Nonnull word, intptr_t value) {
    atomic_store_explicit((_Atomic(intptr_t) *)word, value, memory_order_release);
}

static inline intptr_t dk_atomic_fetch_add(intptr_t *_Nonnull word, intptr_t delta) {
    return atomic_fetch_add_explicit((_Atomic(intptr_t) *)word, delta, memory_order_acq_rel);
}

static inline _Bool dk_atomic_compare_exchange(intptr_t *_Nonnull word, intptr_t *_Nonnull expected, intptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        (_Atomic(intptr_t) *)word, expected, desired, memory_order_acq_rel, memory_order_acquire);
}

// Sequentially consistent forms, for the scoped-instance readers' window: a reader's increment of
// its counter and its load of the instance, and a reset's exchange of the instance and its load of
// the counter, must fall in one total order (a store followed by a load of another word).

static inline intptr_t dk_atomic_load_seq_cst(const intptr_t *_Nonnull word) {
    return atomic_load_explicit((const _Atomic(intptr_t) *)word, memory_order_seq_cst);
}

static inline intptr_t dk_atomic_fetch_add_seq_cst(intptr_t *_Nonnull word, intptr_t delta) {
    return atomic_fetch_add_explicit((_Atomic(intptr_t) *)word, delta, memory_order_seq_cst);
}

static inline intptr_t dk_atomic_exchange_seq_cst(intptr_t *_Nonnull word, intptr_t value) {
    return atomic_exchange_explicit((_Atomic(intptr_t) *)word, value, memory_order_seq_cst);
}

// MARK: - The diagnostics word

// The one word every DependencyKit resolution reads to decide whether diagnostics run.
//
// It is a C global rather than a Swift `static let` so that reading it is a single relaxed
// load, inlined into the caller even across modules: a Swift global of class type would add
// a lazy-initialisation check and a call on every resolution.

// Only ever touched through the functions below. Starts at 0.
extern intptr_t dk_diagnostics_word;

static inline intptr_t dk_diagnostics_load_relaxed(void) {
    return atomic_load_explicit((const _Atomic(intptr_t) *)&dk_diagnostics_word, memory_order_relaxed);
}

static inline intptr_t dk_diagnostics_fetch_add(intptr_t delta) {
    return atomic_fetch_add_explicit((_Atomic(intptr_t) *)&dk_diagnostics_word, delta, memory_order_acq_rel);
}

static inline intptr_t dk_diagnostics_fetch_or(intptr_t bits) {
    return atomic_fetch_or_explicit((_Atomic(intptr_t) *)&dk_diagnostics_word, bits, memory_order_acq_rel);
}

static inline intptr_t dk_diagnostics_fetch_and(intptr_t bits) {
    return atomic_fetch_and_explicit((_Atomic(intptr_t) *)&dk_diagnostics_word, bits, memory_order_acq_rel);
}

// MARK: - Resolution depth

// How deeply the current thread is nested in synchronous resolutions.
//
// Every synchronous resolution adds one on entry and takes one on exit: a thread-local increment
// and decrement, no atomics, no call. A depth no real graph reaches means a resolution that keeps
// requiring itself; the engine then names the cycle instead of letting the stack overflow, in
// release builds too, where the full cycle check is off.
//
// The same word tells a graph's outermost resolution (depth 1) from the ones nested in it, so only
// the outermost reads the process-wide diagnostics word. When diagnostics are on there, it adds
// DK_RESOLUTION_DEPTH_BIAS for the graph's duration: every nested resolution then sees a depth
// past the limit and takes the diagnosed path too, with one compare instead of a second load.

#if defined(_MSC_VER)
#define DK_THREAD_LOCAL __declspec(thread)
#else
#define DK_THREAD_LOCAL _Thread_local
#endif

// Initial-exec on ELF: one thread-pointer-relative access instead of the general-dynamic sequence
// (about 20 instructions a graph). What it assumes, and why a shared library that contains
// DependencyKit still loads with `dlopen`: RuntimeShortcuts.swift, section 5. The public-API build
// uses the default model.
#if defined(__ELF__) && !defined(DK_PUBLIC_API_ONLY)
#define DK_DEPTH_THREAD_LOCAL DK_THREAD_LOCAL __attribute__((tls_model("initial-exec")))
#else
#define DK_DEPTH_THREAD_LOCAL DK_THREAD_LOCAL
#endif

// Only ever touched through the functions below. Starts at 0 on every thread.
extern DK_DEPTH_THREAD_LOCAL intptr_t dk_resolution_depth;

// Added to the depth while a graph whose outermost resolution saw diagnostics on is resolved.
// Far above any depth a thread can reach (its stack overflows first), on 32-bit targets too.
#define DK_RESOLUTION_DEPTH_BIAS ((intptr_t)1 << 24)

static inline intptr_t dk_resolution_depth_bias(void) { return DK_RESOLUTION_DEPTH_BIAS; }

static inline intptr_t dk_resolution_depth_enter(void) { return ++dk_resolution_depth; }

static inline void dk_resolution_depth_add(intptr_t amount) { dk_resolution_depth += amount; }

static inline intptr_t dk_resolution_depth_get(void) { return dk_resolution_depth; }

// An identifier of the calling thread, unique among live threads: the address of its depth word.
static inline uintptr_t dk_current_thread(void) { return (uintptr_t)&dk_resolution_depth; }

// The per-graph instances of the outermost synchronous resolution running on this thread (a
// Swift object retained once), or NULL when no `perGraph {}` ran in it. Ended when that
// resolution returns.
extern DK_DEPTH_THREAD_LOCAL void *_Nullable dk_graph_record;

// The Swift runtime's release of a Swift object (what `Unmanaged.release()` calls), declared here with
// the runtime's other entry points DependencyKit calls, so all of them are named in this one header.
extern void swift_release(void *_Nullable object);

// Ends the thread's graph: clears the record, then releases it with `swift_release` (ordinary
// reference counting; the instances' deinits may resolve).
void dk_graph_end(void);

#if defined(__GNUC__) || defined(__clang__)
#define DK_UNLIKELY(condition) __builtin_expect(!!(condition), 0)
#else
#define DK_UNLIKELY(condition) (condition)
#endif

// Leaves a resolution. The outermost (the depth is 0 again) ends the graph, if a `perGraph {}`
// made one. Tested on the decremented word rather than on the depth the resolution entered at,
// so that no register has to carry that depth across the resolution's body.
static inline void dk_resolution_depth_leave(void) {
    if (DK_UNLIKELY(--dk_resolution_depth == 0) && dk_graph_record != 0) dk_graph_end();
}

static inline void *_Nullable dk_graph_record_get(void) { return dk_graph_record; }

static inline void dk_graph_record_set(void *_Nullable record) { dk_graph_record = record; }

// MARK: - The thread's scope

// The scope bound by the innermost synchronous scope running on this thread, and the task it runs in
// (`NULL` outside any task): the per-thread copy of the scope chain that
// Sources/DependencyKit/Internal/RuntimeShortcuts.swift describes (section 3). `bound` is 0 when no
// synchronous scope runs on this thread; when it is 1,
// `frame` is the innermost frame (`NULL` for a scope that binds no container). Only ScopeFrame.bind
// writes it, and restores the previous value before it returns.
typedef struct {
    const void *_Nullable task;
    const void *_Nullable frame;
    intptr_t bound;
} dk_thread_scope;

// Initial-exec, as for the depth above.
#if defined(__ELF__) && !defined(DK_PUBLIC_API_ONLY)
#define DK_SCOPE_THREAD_LOCAL DK_THREAD_LOCAL __attribute__((tls_model("initial-exec")))
#else
#define DK_SCOPE_THREAD_LOCAL DK_THREAD_LOCAL
#endif

extern DK_SCOPE_THREAD_LOCAL dk_thread_scope dk_current_thread_scope;

// The running task's address, unretained (NULL outside any task): the concurrency runtime's entry
// point that `withUnsafeCurrentTask` calls. What it assumes and why it holds:
// Sources/DependencyKit/Internal/RuntimeShortcuts.swift, section 2, the only caller. Declared here
// because Swift reserves the name for its runtime and warns on `@_silgen_name` declarations of it.
// Not declared in the public-API build (the `PublicAPIOnly` trait defines DK_PUBLIC_API_ONLY).
#if !defined(DK_PUBLIC_API_ONLY)
extern void *_Nullable swift_task_getCurrent(void) __attribute__((swiftcall));

static inline const void *_Nullable dk_current_task(void) { return swift_task_getCurrent(); }

// The concurrency runtime's task-local lookup, which `TaskLocal.get()` calls: the address of the value
// bound to `key` (a `TaskLocal` object's address) in the running task, or, outside any task, on this
// thread; NULL when nothing is bound. What it assumes and why it holds: RuntimeShortcuts.swift,
// section 1, the only caller. Not declared in the public-API build.
extern void *_Nullable swift_task_localValueGet(const void *_Nonnull key) __attribute__((swiftcall));

static inline void *_Nullable dk_task_local_value(const void *_Nonnull key) {
    return swift_task_localValueGet(key);
}
#endif

static inline dk_thread_scope dk_thread_scope_get(void) { return dk_current_thread_scope; }

static inline void dk_thread_scope_set(dk_thread_scope scope) { dk_current_thread_scope = scope; }

// MARK: - Hazard slots: an injector's installed box, read while another thread replaces it

// A reader of an injector's global container borrows the installed box without reference counting
// (Sources/DependencyKit/Injection/Injector.swift). So that the box it borrows is not freed under
// it, the reader first announces, in its thread's hazard slot, the injector's word it is about to
// load the box from; an install frees a box it replaced only once no slot announces that word. A
// hazard pointer (Michael 2004) on the word rather than on the box: the reader needs no second load
// to check the box is still installed, and a read lasts a few instructions, so holding back every
// box replaced during it costs nothing.
//
// One slot per thread: a thread protects one box at a time, and nothing inside the protected
// region reads an injector. A slot is claimed on the thread's first read (a cold call), listed for
// good in a process-wide list, and given back for another thread to claim when its thread exits.
// Each slot fills a cache line of its own, so that readers on different threads never write to the
// same line.
typedef struct dk_hazard_slot {
    // The address of the injector word this thread is reading a box from, or 0. Atomic.
    intptr_t word;
    // 1 while a thread owns the slot, 0 once its thread has exited. Atomic.
    intptr_t owned;
    // The slot listed before this one; written once, before the slot is listed.
    struct dk_hazard_slot *_Nullable next;
    intptr_t padding[5];
} dk_hazard_slot;

// Initial-exec, as for the depth above: one word more of static TLS.
#if defined(__ELF__) && !defined(DK_PUBLIC_API_ONLY)
#define DK_HAZARD_THREAD_LOCAL DK_THREAD_LOCAL __attribute__((tls_model("initial-exec")))
#else
#define DK_HAZARD_THREAD_LOCAL DK_THREAD_LOCAL
#endif

// This thread's slot, NULL until its first read. Only ever touched through the functions below.
extern DK_HAZARD_THREAD_LOCAL dk_hazard_slot *_Nullable dk_thread_hazard_slot;

// The cold path of dk_hazard_slot_get: claims a slot for this thread (a free one, else a new one)
// and arranges for it to be given back when the thread exits.
dk_hazard_slot *_Nonnull dk_hazard_slot_claim(void);

// This thread's slot.
static inline dk_hazard_slot *_Nonnull dk_hazard_slot_get(void) {
    dk_hazard_slot *slot = dk_thread_hazard_slot;
    if (DK_UNLIKELY(slot == 0)) slot = dk_hazard_slot_claim();
    return slot;
}

// Announces `word` in `slot`, then loads the box it holds: from then until dk_hazard_clear, that box
// is not freed. The announcement is a sequentially consistent exchange (a store followed by a full
// fence) and the load a sequentially consistent one, so the load comes after the announcement in the
// one order every installer's exchange of the word and scan of the slots also take part in (see
// Injector.swift, `global`).
static inline intptr_t dk_hazard_protect(dk_hazard_slot *_Nonnull slot, const intptr_t *_Nonnull word) {
    atomic_exchange_explicit((_Atomic(intptr_t) *)&slot->word, (intptr_t)word, memory_order_seq_cst);
    return atomic_load_explicit((const _Atomic(intptr_t) *)word, memory_order_seq_cst);
}

// Ends the protection dk_hazard_protect began: everything the thread read of the box happens before
// an installer's scan that sees the slot cleared.
static inline void dk_hazard_clear(dk_hazard_slot *_Nonnull slot) {
    atomic_store_explicit((_Atomic(intptr_t) *)&slot->word, 0, memory_order_release);
}

// Whether a thread's slot announces `word`: the installer's scan, made after it replaced the box
// `word` held.
_Bool dk_hazard_is_announced(const intptr_t *_Nonnull word);

// How many slots exist: threads that exited gave theirs back for later threads, so this is the most
// threads alive at once that had read, not every thread that read.
intptr_t dk_hazard_slot_count(void);

// A monotonic clock in nanoseconds, for the deadline of a lock's timed wait.
int64_t dk_monotonic_nanoseconds(void);

// Writes `message` to the standard error stream and flushes it: the engine's one warning channel,
// so the library needs no Foundation.
void dk_write_standard_error(const char *_Nonnull message);

#endif
