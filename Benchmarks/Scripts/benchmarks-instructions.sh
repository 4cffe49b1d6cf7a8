#!/usr/bin/env bash
# Counts the instructions per iteration of each benchmark, exactly, and prints each graph's ratio to
# the hand-written one.
#
# Timings on a shared machine move by 30 % between runs; instruction counts do not. This builds the
# probe executable of Benchmarks/ (release), strips a copy (valgrind cannot read the debug info of a
# Swift 6.3 release binary), and runs each benchmark body under `valgrind --tool=callgrind` at two
# iteration counts. The difference of the two totals divided by the difference of the counts is the
# cost of one iteration, with the process's start-up and set-up cancelled out.
#
# Usage: Benchmarks/Scripts/benchmarks-instructions.sh [benchmark ...]   (default: every benchmark)
#   LOW=2000 HIGH=22000 to change the two iteration counts.
#   PUBLIC_API_ONLY=1 to count DependencyKit built without its runtime shortcuts (the `PublicAPIOnly`
#   trait's build; see Sources/DependencyKit/Internal/RuntimeShortcuts.swift), in .build-public-api.
set -euo pipefail

cd "$(dirname "$0")/.."
low=${LOW:-2000}
high=${HIGH:-22000}

command -v valgrind >/dev/null || { echo "benchmarks-instructions: needs valgrind" >&2; exit 1; }

echo "== building the probe (release)" >&2
# SwiftPM keeps a release build plan that does not notice source files added to or removed from
# the DependencyKit package this one depends on by path; remove it so the plan is made again
# (the build itself stays incremental).
build=(-c release)
if [ -n "${PUBLIC_API_ONLY:-}" ]; then
    # The dependency is by path, so the trait is set as the conditions it defines.
    build+=(--scratch-path .build-public-api -Xswiftc -DPublicAPIOnly -Xcc -DDK_PUBLIC_API_ONLY)
fi
rm -f .build/release.yaml .build-public-api/release.yaml
swift build "${build[@]}" --product DependencyKitProbe >&2
binary=$(swift build "${build[@]}" --show-bin-path)/DependencyKitProbe
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$binary" "$work/probe"
strip "$work/probe"

if [ "$#" -gt 0 ]; then names=("$@"); else mapfile -t names < <("$work/probe" list); fi

# Prints the instructions callgrind counted for one run of `probe run NAME COUNT`.
count() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/probe" run "$1" "$2" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

declare -A per
for name in "${names[@]}"; do
    a=$(count "$name" "$low")
    b=$(count "$name" "$high")
    per[$name]=$(python3 -c "print(f'{($b - $a) / ($high - $low):.1f}')")
done

# The baseline each benchmark is compared with.
baseline() {
    case "$1" in
    graph.*) echo graph.hand-written ;;
    override.*) echo graph.global ;;
    width.*) echo width.hand-written ;;
    lifetime.*) echo lifetime.fresh ;;
    request.values-*) echo request.values-none ;;
    *) echo "" ;;
    esac
}

printf '%-22s %14s %8s\n' "benchmark" "instructions" "ratio"
for name in "${names[@]}"; do
    base=$(baseline "$name")
    ratio=""
    if [ -n "$base" ] && [ -n "${per[$base]:-}" ]; then
        ratio=$(python3 -c "print(f'{${per[$name]} / ${per[$base]}:.3f}x')")
    fi
    printf '%-22s %14s %8s\n' "$name" "${per[$name]}" "$ratio"
done
