#!/usr/bin/env bash
# Times the graph on one thread and on two threads at once, hand-written against DependencyKit, and
# prints the ratio of each round and the median of the rounds.
#
# Each round runs the hand-written graph and the `HasDependencies` graph back to back, so a change in
# the machine's load between rounds moves both; the ratio within a round is what to read. On two
# threads, each thread runs the whole loop, so the time is per iteration on each thread while the
# other thread resolves too.
#
# Usage: Benchmarks/Scripts/benchmarks-threads.sh [rounds] [iterations]   (default: 5 rounds of 1,000,000)
#   BENCHMARKS="graph.global graph.scoped" to choose what is compared with graph.hand-written.
set -euo pipefail

cd "$(dirname "$0")/.."
rounds=${1:-5}
iterations=${2:-1000000}
read -r -a benchmarks <<<"${BENCHMARKS:-graph.global graph.scoped}"

echo "== building the probe (release)" >&2
# SwiftPM keeps a release build plan that does not notice source files added to or removed from
# the DependencyKit package this one depends on by path; remove it so the plan is made again
# (the build itself stays incremental).
rm -f .build/release.yaml
swift build -c release --product DependencyKitProbe >&2
probe=$(swift build -c release --show-bin-path)/DependencyKitProbe

for threads in 1 2; do
    for name in "${benchmarks[@]}"; do
        ratios=()
        line=""
        for _ in $(seq "$rounds"); do
            base=$("$probe" time graph.hand-written "$iterations" "$threads")
            time=$("$probe" time "$name" "$iterations" "$threads")
            ratio=$(python3 -c "print(f'{$time / $base:.3f}')")
            ratios+=("$ratio")
            line+=" ${base}/${time}=${ratio}"
        done
        median=$(printf '%s\n' "${ratios[@]}" | sort -n | sed -n "$(((rounds + 1) / 2))p")
        printf '%d thread(s) %-14s median %sx   (hand-written/ns, %s/ns per round:%s)\n' \
            "$threads" "$name" "$median" "$name" "$line"
    done
done
