#!/usr/bin/env bash
# Shows what each way of reading the container compiles to: which of them retain and release it.
#
# Reading `dependencies` retains and releases the container around each resolve call. This compiles
# the experiment in Benchmarks/ReadAccessors — an engine, a container and a consumer module, the
# library's layout — with `swiftc -O`, and prints the calls in each consumer function:
#
#   readGet                 the shipped getter, which borrows the box
#   readAddress             an `unsafeAddress` into never-freed memory holding the container
#   readReadThroughAddress  a `_read` that yields through that address
#   readReadUnowned         a `_read` that yields the container of an `unowned(unsafe)` box
#   readStrongBox           a `_read` that holds the box strongly and yields its `let` borrowed (the
#                           shape of a per-thread box, whose count would stay on one core); the
#                           optimiser moves the retain from the box onto the container: it
#                           compiles to the same body as readGet
#   readClosure             a closure that receives the borrowed container (another spelling)
#
# Then it tries a `borrow` accessor and prints the compiler's answer.
#
# Usage: Benchmarks/Scripts/benchmarks-read-accessors.sh
set -euo pipefail

source=$(cd "$(dirname "$0")/../ReadAccessors" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

swiftc -O -swift-version 6 -parse-as-library -module-name Engine -emit-module -emit-library \
    "$source/Engine.swift" -o libEngine.so
swiftc -O -swift-version 6 -parse-as-library -module-name Container -emit-module -emit-library \
    -I . -L . -lEngine "$source/Container.swift" -o libContainer.so
swiftc -O -swift-version 6 -module-name Consumer -I . -L . -lEngine -lContainer \
    -emit-assembly "$source/Consumer.swift" -o consumer.s

# Prints the calls and jumps of every function whose name contains $1, following the
# compiler's merged copies (a function may be a jump to an identical one).
calls() {
    awk -v name="$1" '
        /^\$s8Consumer[0-9A-Za-z_]*:/ { inside = index($0, name) > 0; if (inside) print "  " $1 }
        inside && /(call|jmp)[a-z]*[ \t]/ && !/\.L/ { sub(/^[ \t]+/, "    "); print }
        /\.cfi_endproc/ { inside = 0 }
    ' consumer.s | swift demangle --simplified
}

for name in readGet readAddress readReadThroughAddress readReadUnowned readStrongBox readClosure; do
    echo "== $name"
    calls "$name"
done
echo
echo "== merged bodies the functions above jump to"
awk '
    /^\$s8Consumer[0-9A-Za-z_]*Tm[0-9A-Za-z_]*:/ { inside = 1; print "  " $1 }
    inside && /(call|jmp)[a-z]*[ \t]/ && !/\.L/ { sub(/^[ \t]+/, "    "); print }
    /\.cfi_endproc/ { inside = 0 }
' consumer.s | swift demangle --simplified

echo
echo "== the shipped getter's body, which readStrongBox compiles to as well (the function merger"
echo "   folds the two): the register passed to swift_retain is loaded at offset 16 of the box, its"
echo "   container field; the box itself is never retained"
awk '
    /^\$s8Consumer7readGet[0-9A-Za-z_]*Tm:/ { inside = 1; print "  " $1; next }
    inside && /^[ \t]+[a-z]/ { print }
    /\.cfi_endproc/ { inside = 0 }
' consumer.s | grep -v "^\s*\.cfi" | swift demangle --simplified

echo
echo "== a borrow accessor"
cat >borrow.swift <<'SWIFT'
final class Box: @unchecked Sendable {
    let container: AnyObject
    init(_ container: AnyObject) { self.container = container }
}
struct Holder {
    var box: Box
    var container: AnyObject { borrow { return box.container } }
}
SWIFT
swiftc -typecheck borrow.swift 2>&1 | head -3 || true
swiftc -typecheck -enable-experimental-feature BorrowAndMutateAccessors borrow.swift 2>&1 | head -3 || true
