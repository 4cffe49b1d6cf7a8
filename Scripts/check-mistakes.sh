#!/usr/bin/env bash
# Proves the compile-time guarantees that the Overriding and Subclassing article claims: every
# file in IntegrationTests/CompileFailures/ is a newcomer's mistake, and must fail to type-check against the
# built DependencyKit and AppCore modules with the error on its first line
# (`// expected-error: <text>`), and with no other error.
#   bash Scripts/check-mistakes.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --target AppCore >/dev/null
bin=$(swift build --show-bin-path)
modules="$bin/Modules"  # SwiftPM 6.3 puts .swiftmodule files here; older ones put them in $bin
[ -d "$modules" ] || modules="$bin"
flags=(
    -typecheck -swift-version 6
    -I "$modules"
    -Xcc "-fmodule-map-file=$bin/_DependencyKitShims.build/module.modulemap"
    -Xcc -I -Xcc Sources/_DependencyKitShims/include
)

failures=0
count=0
for fixture in IntegrationTests/CompileFailures/*.swift; do
    count=$((count + 1))
    expected=$(head -n 1 "$fixture" | sed -n 's|^// expected-error: ||p')
    if [ -z "$expected" ]; then
        echo "FAIL $fixture: the first line must be '// expected-error: <text>'"
        failures=$((failures + 1))
        continue
    fi
    if output=$(swiftc "${flags[@]}" "$fixture" 2>&1); then
        echo "FAIL $fixture: compiled, but must fail with: $expected"
        failures=$((failures + 1))
        continue
    fi
    errors=$(printf '%s\n' "$output" | grep -E "^[^ ].*: error: " | sed 's/^.*: error: //' | sort -u)
    if ! printf '%s\n' "$errors" | grep -qxF "$expected"; then
        echo "FAIL $fixture: expected error: $expected"
        printf '%s\n' "$output" | sed 's/^/    /'
        failures=$((failures + 1))
    elif [ "$(printf '%s\n' "$errors" | wc -l)" -ne 1 ]; then
        echo "FAIL $fixture: other errors besides the expected one:"
        printf '%s\n' "$errors" | sed 's/^/    /'
        failures=$((failures + 1))
    else
        echo "ok   $fixture: $expected"
    fi
done

if [ "$failures" -ne 0 ]; then
    echo "check-mistakes: $failures of $count fixture(s) failed" >&2
    exit 1
fi
echo "check-mistakes: all $count mistakes are compile errors"
