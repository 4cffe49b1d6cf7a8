#include "_DependencyKitShims.h"

intptr_t dk_diagnostics_word = 0;
