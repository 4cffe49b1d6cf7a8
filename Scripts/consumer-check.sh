#!/usr/bin/env bash
# Builds and runs ConsumerCheck/, a small package that uses DependencyKit the way a Swift 6.2 app
# does: default MainActor isolation, approachable-concurrency features, `@MainActor` and `async`
# resolves, warnings as errors. A library change that causes an isolation error or warning in
# such a consumer fails here.
set -euo pipefail
cd "$(dirname "$0")/../ConsumerCheck"

swift build --build-tests -Xswiftc -warnings-as-errors
swift run --skip-build ConsumerCheck
swift test --skip-build
