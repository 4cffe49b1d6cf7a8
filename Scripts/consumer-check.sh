#!/usr/bin/env bash
# Compiles what the docs tell a newcomer to write, the way a newcomer's project builds it:
#
# 1. IntegrationTests/ConsumerCheck/: a package that uses DependencyKit the way a Swift 6.2 app does — default
#    MainActor isolation, approachable-concurrency features, `@MainActor` and `async` resolves —
#    and holds Getting Started's code verbatim (snippet regions). A library change that causes an
#    isolation error or warning in such a consumer fails here.
# 2. IntegrationTests/ReadmeCheck/: the README's quick start verbatim, against exactly the products the README
#    lists (DependencyKit for the app target, DependencyKitTesting for tests), in the layout where an
#    isolation mistake in the docs shows: the container in a core module with the default isolation,
#    the README's Swift Testing tests and XCTest case in a test target with default MainActor isolation.
#
# Warnings are errors in both. Scripts/check-snippets.py checks that the articles and the README
# show this code.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

echo "--- ConsumerCheck (default MainActor isolation, Getting Started verbatim)"
cd "$root/IntegrationTests/ConsumerCheck"
swift build --build-tests -Xswiftc -warnings-as-errors
swift run --skip-build ConsumerCheck
swift test --skip-build

echo "--- ReadmeCheck (the README quick start, with the README's products only; tests with default MainActor isolation)"
cd "$root/IntegrationTests/ReadmeCheck"
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
