#!/usr/bin/env bash
# Builds the benchmarks (Benchmarks/, release) and runs every benchmark for one iteration.
#
# A smoke pass, not a measurement: it proves that each benchmark still builds, runs and resolves
# the graph it claims to (a benchmark that builds the wrong graph fails the run). It judges no
# timing; timings on a shared CI machine mean nothing. For real numbers see
# Sources/DependencyKit/DependencyKit.docc/Articles/Performance.md.
#
# Usage: Scripts/benchmarks-smoke.sh   (from anywhere; exits non-zero on any failure)
set -euo pipefail

cd "$(dirname "$0")/../Benchmarks"

echo "== building the benchmarks (release)"
swift build -c release --product DependencyKitBenchmarks

echo "== listing the benchmarks"
expected=$(swift package benchmark list 2>/dev/null | sed -n '/available benchmarks:$/,$p' | tail -n +2)

echo "== running every benchmark once"
output=$(DEPENDENCYKIT_BENCHMARK_SMOKE=1 swift package benchmark --no-progress --format markdown 2>&1) || {
    echo "$output"
    echo "benchmarks-smoke: a benchmark failed" >&2
    exit 1
}

missing=0
count=0
while IFS= read -r name; do
    [ -z "$name" ] && continue
    count=$((count + 1))
    if ! grep -qF "$name" <<<"$output"; then
        echo "benchmarks-smoke: no result for '$name'" >&2
        missing=1
    fi
done <<<"$expected"

if [ "$count" -eq 0 ]; then
    echo "$output"
    echo "benchmarks-smoke: could not list the benchmarks" >&2
    exit 1
fi
if [ "$missing" -ne 0 ]; then
    echo "$output"
    exit 1
fi
echo "benchmarks-smoke: all $count benchmarks ran"
