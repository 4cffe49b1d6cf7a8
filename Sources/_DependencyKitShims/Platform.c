#if defined(_WIN32)
#include <windows.h>
#else
#include <time.h>
#endif
#include <stdio.h>

#include "_DependencyKitShims.h"

DK_SCOPE_THREAD_LOCAL dk_thread_scope dk_current_thread_scope = {0, 0, 0};

int64_t dk_monotonic_nanoseconds(void) {
#if defined(_WIN32)
    LARGE_INTEGER frequency, counter;
    QueryPerformanceFrequency(&frequency);
    QueryPerformanceCounter(&counter);
    return (int64_t)((double)counter.QuadPart * 1e9 / (double)frequency.QuadPart);
#else
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000000000 + (int64_t)now.tv_nsec;
#endif
}

void dk_write_standard_error(const char *_Nonnull message) {
    fputs(message, stderr);
    fflush(stderr);
}
