#include "DependencyKitAtomics.h"

intptr_t dk_diagnostics_word = 0;
