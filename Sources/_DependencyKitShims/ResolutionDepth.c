#include "_DependencyKitShims.h"

DK_DEPTH_THREAD_LOCAL intptr_t dk_resolution_depth = 0;
DK_DEPTH_THREAD_LOCAL void *_Nullable dk_graph_record = 0;

// Defined in Swift (DependencyKit's Resolution.swift): releases a graph with ordinary reference
// counting.
extern void dk_graph_release(void *_Nonnull record);

void dk_graph_end(void) {
    void *record = dk_graph_record;
    dk_graph_record = 0;
    dk_graph_release(record);
}
