# Sourced by the measure-*.sh scripts: a throwaway release executable that links DependencyKit and can
# read the heap's size. Linux (glibc) only.
#
# heap_probe NAME PACKAGE_PATH — makes $work (removed on exit) holding a package NAME with an executable
# target NAME (its main.swift is the caller's to write, at $work/Sources/NAME/main.swift) that depends
# on DependencyKit at PACKAGE_PATH and on a C module `Heap` with `heap_in_use()`: the heap bytes in use,
# small blocks and mapped ones (glibc's `mallinfo2`; Swift's Glibc module does not import <malloc.h>).
# heap_probe_build NAME — builds it in release, printing the build log only when it fails.

heap_probe() {
    local name=$1 package_path=$2
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    mkdir -p "$work/Sources/$name" "$work/Sources/Heap/include"
    cat >"$work/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "$name",
    dependencies: [.package(path: "$package_path")],
    targets: [
        .target(name: "Heap"),
        .executableTarget(
            name: "$name",
            dependencies: ["Heap", .product(name: "DependencyKit", package: "$(basename "$package_path")")]
        ),
    ]
)
MANIFEST
    cat >"$work/Sources/Heap/include/Heap.h" <<'SOURCE'
#include <stddef.h>
/// The heap bytes in use, from glibc's allocator statistics.
size_t heap_in_use(void);
SOURCE
    cat >"$work/Sources/Heap/Heap.c" <<'SOURCE'
#include <malloc.h>
#include "Heap.h"
size_t heap_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
SOURCE
}

heap_probe_build() {
    swift build -c release --package-path "$work" >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
}
