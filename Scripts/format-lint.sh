#!/usr/bin/env bash
# Checks that every Swift file follows .swift-format. Fails on the first finding.
#
#   Scripts/format-lint.sh            # lint
#   swift format --in-place --recursive Sources Tests   # fix, then review the diff
set -euo pipefail
cd "$(dirname "$0")/.."

roots=()
for dir in Sources Tests Examples Benchmarks IntegrationTests; do
    [[ -d $dir ]] && roots+=("$dir")
done

# Build directories hold checked-out dependencies; they are not ours to format.
mapfile -t files < <(find "${roots[@]}" -name '*.swift' -not -path '*/.build*' -not -path '*/.swiftpm/*' | sort)
files+=(Package.swift)
if [[ ${#files[@]} -eq 0 ]]; then
    echo "format-lint: no Swift files found" >&2
    exit 1
fi

swift format lint --strict --parallel --configuration .swift-format "${files[@]}"
echo "format-lint: ${#files[@]} files clean"
