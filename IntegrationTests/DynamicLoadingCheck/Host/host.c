// A host process that knows nothing of Swift: it loads the plug-in with dlopen, finds its entry
// point with dlsym and resolves a graph through it.
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s path/to/libGraphPlugin.so\n", argv[0]);
        return 2;
    }
    void *plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!plugin) {
        fprintf(stderr, "dlopen failed: %s\n", dlerror());
        return 1;
    }
    int (*resolve)(void) = (int (*)(void))dlsym(plugin, "dependencykit_plugin_resolve_graph");
    if (!resolve) {
        fprintf(stderr, "dlsym failed: %s\n", dlerror());
        return 1;
    }
    int wrong = resolve();
    if (wrong != 0) {
        fprintf(stderr, "the plug-in's graph was wrong (check %d)\n", wrong);
        return 1;
    }
    printf("dlopen-check: the plug-in resolved its graphs\n");
    return 0;
}
