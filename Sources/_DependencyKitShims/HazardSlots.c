// The hazard slots' cold paths: claiming a slot on a thread's first read, giving it back when the
// thread exits, and an installer's scan. The reader's path is inline, in the header.
#if defined(_WIN32)
#include <malloc.h>
#include <windows.h>
#else
#include <pthread.h>
#endif
#include <stdio.h>
#include <stdlib.h>

#include "_DependencyKitShims.h"

DK_HAZARD_THREAD_LOCAL dk_hazard_slot *_Nullable dk_thread_hazard_slot = 0;

// Every slot ever claimed, newest first. Slots are never freed, so the list may be walked without a
// lock; a slot is pushed with a sequentially consistent compare-and-swap, and the scan loads the head
// the same way (see dk_hazard_is_protected).
static _Atomic(dk_hazard_slot *) dk_hazard_slots = 0;

// Gives a slot back when its thread exits. The thread cleared the slot's box after its last read.
static void dk_hazard_slot_give_back(void *_Nullable slot) {
    if (slot == 0) return;
    dk_hazard_slot *given = (dk_hazard_slot *)slot;
    // A later thread-exit handler that reads an injector claims a slot again.
    if (dk_thread_hazard_slot == given) dk_thread_hazard_slot = 0;
    atomic_store_explicit((_Atomic(intptr_t) *)&given->word, 0, memory_order_release);
    atomic_store_explicit((_Atomic(intptr_t) *)&given->owned, 0, memory_order_release);
}

#if defined(_WIN32)
// A fiber-local slot whose callback runs when the thread exits.
static DWORD dk_hazard_key = FLS_OUT_OF_INDEXES;
static INIT_ONCE dk_hazard_key_once = INIT_ONCE_STATIC_INIT;

static void WINAPI dk_hazard_fls_callback(void *slot) { dk_hazard_slot_give_back(slot); }

static BOOL CALLBACK dk_hazard_make_key(PINIT_ONCE once, void *parameter, void **context) {
    (void)once;
    (void)parameter;
    (void)context;
    dk_hazard_key = FlsAlloc(dk_hazard_fls_callback);
    return TRUE;
}

static void dk_hazard_watch_thread_exit(dk_hazard_slot *slot) {
    InitOnceExecuteOnce(&dk_hazard_key_once, dk_hazard_make_key, 0, 0);
    if (dk_hazard_key != FLS_OUT_OF_INDEXES) FlsSetValue(dk_hazard_key, slot);
}

static dk_hazard_slot *dk_hazard_allocate(void) {
    return (dk_hazard_slot *)_aligned_malloc(sizeof(dk_hazard_slot), 64);
}
#else
// A pthread key whose destructor runs when the thread exits.
static pthread_key_t dk_hazard_key;
static int dk_hazard_key_made = 0;
static pthread_once_t dk_hazard_key_once = PTHREAD_ONCE_INIT;

static void dk_hazard_make_key(void) {
    dk_hazard_key_made = pthread_key_create(&dk_hazard_key, dk_hazard_slot_give_back) == 0;
}

static void dk_hazard_watch_thread_exit(dk_hazard_slot *slot) {
    pthread_once(&dk_hazard_key_once, dk_hazard_make_key);
    // Without a key (the process ran out of them), the slot stays the thread's after it exits: a
    // slot of 64 bytes per thread, never a freed box read.
    if (dk_hazard_key_made) pthread_setspecific(dk_hazard_key, slot);
}

static dk_hazard_slot *dk_hazard_allocate(void) {
    void *memory = 0;
    return posix_memalign(&memory, 64, sizeof(dk_hazard_slot)) == 0 ? (dk_hazard_slot *)memory : 0;
}
#endif

dk_hazard_slot *_Nonnull dk_hazard_slot_claim(void) {
    dk_hazard_slot *slot = atomic_load_explicit(&dk_hazard_slots, memory_order_acquire);
    for (; slot != 0; slot = slot->next) {
        intptr_t expected = 0;
        if (atomic_load_explicit((_Atomic(intptr_t) *)&slot->owned, memory_order_relaxed) == 0 &&
            atomic_compare_exchange_strong_explicit((_Atomic(intptr_t) *)&slot->owned, &expected, 1,
                                                    memory_order_acq_rel, memory_order_relaxed))
            break;
    }
    if (slot == 0) {
        slot = dk_hazard_allocate();
        if (slot == 0) {
            dk_write_standard_error("DependencyKit: out of memory for a thread's hazard slot (64 bytes).\n");
            abort();
        }
        *slot = (dk_hazard_slot){0};
        slot->owned = 1;
        dk_hazard_slot *head = atomic_load_explicit(&dk_hazard_slots, memory_order_relaxed);
        do {
            slot->next = head;
        } while (!atomic_compare_exchange_weak_explicit(&dk_hazard_slots, &head, slot, memory_order_seq_cst,
                                                        memory_order_relaxed));
    }
    dk_thread_hazard_slot = slot;
    dk_hazard_watch_thread_exit(slot);
    return slot;
}

_Bool dk_hazard_is_announced(const intptr_t *_Nonnull word) {
    // Sequentially consistent: the caller exchanged `word` before it scans, so a reader whose
    // announcement came before that exchange is seen here (see Injector.swift, `global`).
    dk_hazard_slot *slot = atomic_load_explicit(&dk_hazard_slots, memory_order_seq_cst);
    for (; slot != 0; slot = slot->next) {
        if (atomic_load_explicit((_Atomic(intptr_t) *)&slot->word, memory_order_seq_cst) == (intptr_t)word)
            return 1;
    }
    return 0;
}

intptr_t dk_hazard_slot_count(void) {
    intptr_t count = 0;
    for (dk_hazard_slot *slot = atomic_load_explicit(&dk_hazard_slots, memory_order_acquire); slot != 0;
         slot = slot->next)
        count += 1;
    return count;
}
