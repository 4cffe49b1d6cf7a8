#include "DependencyKitAtomics.h"

DK_DEPTH_THREAD_LOCAL intptr_t dk_resolution_depth = 0;
DK_DEPTH_THREAD_LOCAL void *_Nullable dk_graph_record = 0;
