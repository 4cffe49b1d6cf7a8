#include "_DependencyKitShims.h"

DK_DEPTH_THREAD_LOCAL intptr_t dk_resolution_depth = 0;
DK_DEPTH_THREAD_LOCAL void *_Nullable dk_graph_record = 0;

void dk_graph_end(void) {
    void *record = dk_graph_record;
    dk_graph_record = 0;
    swift_release(record);
}
