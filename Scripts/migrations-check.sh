#!/usr/bin/env bash
# Builds the migration programs (IntegrationTests/Migrations/) with warnings as errors and runs their
# suite: each test runs against the program written with Swinject or swift-dependencies and against its
# DependencyKit port. Then prints the line counts the migration articles quote.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root/IntegrationTests/Migrations"
swift build --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build
python3 count-di-lines.py --check
