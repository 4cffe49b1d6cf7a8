#!/usr/bin/env bash
# Runs two processes that write one users cache at the same time, one saving the current user and
# the other the list, and checks that neither loses the other's writes (issue 12, item 8).
#
# Each round starts both writers together on a fresh directory; each saves `writes` times. When
# both are done, the file must hold the last current user of the first and the whole list of the
# second. A lost write shows as a round whose file holds an older value from either. The writer is
# a small executable built in a temporary package against the AppCore at PACKAGE (default: this
# checkout), so the same script can be pointed at an older checkout to see it fail there.
#
# Usage: IntegrationTests/users-cache-two-processes.sh [PACKAGE] [rounds] [writes]
#   exits 0 when no round lost a write, 1 otherwise. Bounded: each round is killed after 60 s.
set -euo pipefail

package=$(cd "${1:-$(dirname "$0")/..}" && pwd)
rounds=${2:-5}
writes=${3:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/writer/Sources/writer"
cat >"$work/writer/Package.swift" <<SWIFT
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "writer",
    dependencies: [.package(path: "$package")],
    targets: [.executableTarget(name: "writer", dependencies: [.product(name: "AppCore", package: "$(basename "$package")")])]
)
SWIFT
cat >"$work/writer/Sources/writer/main.swift" <<'SWIFT'
import AppCore
import Foundation

// writer DIRECTORY current|all COUNT
let arguments = CommandLine.arguments
let store = UsersFileCacheStore(directory: URL(fileURLWithPath: arguments[1], isDirectory: true))
let count = Int(arguments[3])!
let users = (0..<count).map { User(id: "u\($0)", name: "User \($0)", email: "u\($0)@example.com") }
for index in 0..<count {
    if arguments[2] == "current" {
        try await store.save(current: users[index])
    } else {
        try await store.save(all: Array(users.prefix(index + 1)))
    }
}
SWIFT

echo "== building the writer against $package"
swift build --package-path "$work/writer" --scratch-path "$work/build" >"$work/build.log" 2>&1 || {
    cat "$work/build.log"
    exit 1
}
writer="$work/build/debug/writer"

lost=0
for round in $(seq 1 "$rounds"); do
    directory="$work/cache-$round"
    timeout 60 "$writer" "$directory" current "$writes" &
    first=$!
    timeout 60 "$writer" "$directory" all "$writes" &
    second=$!
    wait "$first"
    wait "$second"
    verdict=$(python3 - "$directory/users-cache.json" "$writes" <<'PY'
import json, sys
contents = json.load(open(sys.argv[1]))
count = int(sys.argv[2])
current = (contents.get("current") or {}).get("id")
listed = len(contents.get("all") or [])
ok = current == f"u{count - 1}" and listed == count
print(("kept both" if ok else "LOST A WRITE") + f": current {current}, list of {listed}")
PY
)
    echo "round $round: $verdict"
    [[ $verdict == kept* ]] || lost=$((lost + 1))
done

echo "users-cache-two-processes: $lost of $rounds rounds lost a write"
[[ $lost -eq 0 ]]
