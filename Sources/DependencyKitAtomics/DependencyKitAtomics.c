#include "DependencyKitAtomics.h"
