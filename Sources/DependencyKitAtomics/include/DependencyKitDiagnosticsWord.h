// The one word every DependencyKit resolution reads to decide whether diagnostics run.
//
// It is a C global rather than a Swift `static let` so that reading it is a single relaxed
// load, inlined into the caller even across modules: a Swift global of class type would add
// a lazy-initialisation check and a call on every resolution.
#ifndef DEPENDENCYKIT_DIAGNOSTICS_WORD_H
#define DEPENDENCYKIT_DIAGNOSTICS_WORD_H

#include <stdatomic.h>
#include <stdint.h>

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

#endif
