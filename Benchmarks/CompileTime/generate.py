#!/usr/bin/env python3
"""Writes the graph's types, or one container of a given width in one style, for the compile-time
benchmark.

The graph is `width` small final classes `Dep0000` ... where every tenth is a leaf built from nothing
and every other one is built from the one before it, and every third also from the one at half its
index. The classes are a module of their own, `WideTypes` (style `types`), as an app's types are:
they exist whichever way the app is wired, so every style's module imports them and holds only the
wiring. What differs is how the graph is wired:

- `dk`: DependencyKit's documented shape (Getting Started, Overriding): the container protocol, one
  builder per dependency in an unconstrained extension, `PartialContainer` defaults for test
  doubles, an `open` production class whose resolves wrap the builder in `fresh {}` (`live {}` for
  the leaves), the injector, the `Has...Dependencies` protocol, and a subclass overriding 5 leaves.
- `dk-nopartial`: the same without the `PartialContainer` defaults (a production container that
  no test double implements partially).
- `dk-inline`, `dk-inline-nopartial`: the same two without the `makeX()` builders: each resolve
  (and each default) builds its value in its own closure, `fresh { Dep0003(resolveDep0002(), ...) }`.
- `dk-body`, `dk-body-nopartial`: `dk-inline` and `dk-inline-nopartial` whose `fresh {}` and
  `live {}` take their closure through a result builder that makes the value's type the resolve's
  declared type (`func fresh<T>(@ResolveBody<T> _ make: () throws -> T) -> T`): a prototype,
  declared in the generated module as `freshBody`/`liveBody` over DependencyKit's `fresh`/`live`
  (`@_transparent`, so the code is what the attribute on DependencyKit's own functions would
  make), to measure what the result-builder transform costs to type-check.
- `hand`: the graph wired by hand: one method per dependency on a struct.
- `swift-dependencies`: swift-dependencies 1.17.1 without its macros: one `DependencyKey` per
  dependency whose `liveValue` builds it from `@Dependency` reads, and one `DependencyValues` property
  per key (what its documentation shows for a key written by hand).
- `swinject`: Swinject 2.10.0: one function that registers every dependency in a `Container`, each
  factory resolving its inputs from the resolver.

Every style but `types` imports `WideTypes`, which measure.py compiles first.

Usage: generate.py STYLE WIDTH [OUTPUT]   (prints to standard output without OUTPUT)
"""

import sys

# How each DependencyKit style is written: (PartialContainer defaults, makeX() builders, builder attribute).
DK_SHAPES = {
    "dk": (True, True, False),
    "dk-nopartial": (False, True, False),
    "dk-inline": (True, False, False),
    "dk-inline-nopartial": (False, False, False),
    "dk-body": (True, False, True),
    "dk-body-nopartial": (False, False, True),
}
STYLES = (*DK_SHAPES, "hand", "swift-dependencies", "swinject", "types")

# The result builder of the `dk-body` styles, and the two functions that take it: what
# `fresh`/`live` with the attribute on their closure would be (`buildExpression` takes the declared
# type; the `buildPartialBlock` overloads let `Void` statements and `let`s through).
RESOLVE_BODY = """
@resultBuilder
public enum ResolveBody<T> {
    public static func buildExpression(_ value: T) -> T { value }
    public static func buildExpression(_ value: Void) {}
    public static func buildPartialBlock(first: T) -> T { first }
    public static func buildPartialBlock(first: Void) {}
    public static func buildPartialBlock(accumulated: Void, next: T) -> T { next }
    public static func buildPartialBlock(accumulated: T, next: Void) -> T { accumulated }
    public static func buildPartialBlock(accumulated: Void, next: Void) {}
}

extension DependencyContainer.Resolving {
    @_transparent
    public func freshBody<T>(name: String = #function, @ResolveBody<T> _ make: () throws -> T) rethrows -> T {
        try fresh(name: name, make)
    }

    @_transparent
    public func liveBody<T>(name: String = #function, @ResolveBody<T> _ make: () throws -> T) rethrows -> T {
        try live(name: name, make)
    }
}
""".strip("\n").splitlines()


def inputs(index: int) -> list[int]:
    """The dependencies that dependency `index` is built from."""
    if index % 10 == 0:
        return []
    if index % 3 == 0:
        return [index - 1, index // 2]
    return [index - 1]


def name(index: int) -> str:
    return f"Dep{index:04}"


def types(width: int) -> list[str]:
    lines = []
    for index in range(width):
        args = inputs(index)
        fields = "".join(f" public let input{n}: {name(a)};" for n, a in enumerate(args))
        params = ", ".join(f"_ input{n}: {name(a)}" for n, a in enumerate(args))
        assigns = "".join(f" self.input{n} = input{n};" for n in range(len(args)))
        lines.append(
            f"public final class {name(index)}: Sendable {{{fields} public init({params}) {{{assigns} }} }}"
        )
    return lines


def call(index: int, resolve) -> str:
    return f"{name(index)}({', '.join(resolve(a) for a in inputs(index))})"


def dk(width: int, partial: bool, builders: bool, body: bool) -> list[str]:
    lines = [
        "public import DependencyKit",
        "public import WideTypes",
        "",
    ]
    if body:
        lines += RESOLVE_BODY + [""]
    lines += [
        "public let wideInjector = Injector<any WideDependency> { CoreWideDependency() }",
        "",
        "public protocol WideDependency: DependencyContainer {",
    ]
    lines += [f"    func resolve{name(i)}() -> {name(i)}" for i in range(width)]
    lines.append("}")
    if builders:
        lines += ["", "extension WideDependency {"]
        lines += [
            f"    public func make{name(i)}() -> {name(i)} {{ {call(i, lambda a: f'resolve{name(a)}()')} }}"
            for i in range(width)
        ]
        lines.append("}")

    def resolve(index: int, modifier: str) -> str:
        wrapper = ("fresh" if inputs(index) else "live") + ("Body" if body else "")
        made = f"make{name(index)}()" if builders else call(index, lambda a: f"resolve{name(a)}()")
        return f"    {modifier}func resolve{name(index)}() -> {name(index)} {{ {wrapper} {{ {made} }} }}"

    if partial:
        lines += ["", "extension WideDependency where Self: PartialContainer {"]
        lines += [resolve(i, "public ") for i in range(width)]
        lines.append("}")
    lines += [
        "",
        "open class CoreWideDependency: DependencyContainer, WideDependency, @unchecked Sendable {",
    ]
    lines += [resolve(i, "open ") for i in range(width)]
    lines += [
        "}",
        "",
        "public final class TestWideDependency: CoreWideDependency, @unchecked Sendable {",
    ]
    leaves = [i for i in range(width) if not inputs(i)][:5]
    lines += [
        f"    public override func resolve{name(i)}() -> {name(i)} {{ fresh{'Body' if body else ''} {{ {name(i)}() }} }}"
        for i in leaves
    ]
    lines += [
        "}",
        "",
        "public protocol HasWideDependencies {}",
        "",
        "extension HasWideDependencies {",
        "    public var dependencies: any WideDependency { wideInjector.dependencies }",
        "}",
    ]
    return lines


def hand(width: int) -> list[str]:
    lines = ["public import WideTypes", "", "public struct HandWrittenGraph: Sendable {", "    public init() {}"]
    lines += [
        f"    public func make{name(i)}() -> {name(i)} {{ {call(i, lambda a: f'make{name(a)}()')} }}"
        for i in range(width)
    ]
    lines.append("}")
    return lines


def property(index: int) -> str:
    return f"dep{index:04}"


def swift_dependencies(width: int) -> list[str]:
    lines = ["public import Dependencies", "public import WideTypes", ""]
    for index in range(width):
        reads = "".join(f" @Dependency(\\.{property(a)}) var input{n};" for n, a in enumerate(inputs(index)))
        build = f"{name(index)}({', '.join(f'input{n}' for n in range(len(inputs(index))))})"
        lines.append(
            f"public enum {name(index)}Key: DependencyKey {{ public static var liveValue: {name(index)} {{{reads} return {build} }} }}"
        )
    lines += ["", "extension DependencyValues {"]
    lines += [
        f"    public var {property(i)}: {name(i)} {{ get {{ self[{name(i)}Key.self] }} set {{ self[{name(i)}Key.self] = newValue }} }}"
        for i in range(width)
    ]
    lines.append("}")
    return lines


def swinject(width: int) -> list[str]:
    lines = [
        "public import Swinject",
        "public import WideTypes",
        "",
        "public enum WideContainer {",
        "    public static func make() -> Container {",
        "        let container = Container()",
    ]
    lines += [
        f"        container.register({name(i)}.self) {{ {'resolver' if inputs(i) else '_'} in "
        f"{call(i, lambda a: f'resolver.resolve({name(a)}.self)!')} }}"
        for i in range(width)
    ]
    lines += ["        return container", "    }", "}"]
    return lines


def generate(style: str, width: int) -> str:
    if style in DK_SHAPES:
        partial, builders, body = DK_SHAPES[style]
        lines = dk(width, partial=partial, builders=builders, body=body)
    else:
        lines = {
            "hand": hand,
            "swift-dependencies": swift_dependencies,
            "swinject": swinject,
            "types": types,
        }[style](width)
    header = [f"// Generated by Benchmarks/CompileTime/generate.py {style} {width}; do not edit.", ""]
    return "\n".join(header + lines) + "\n"


def main() -> None:
    if len(sys.argv) not in (3, 4) or sys.argv[1] not in STYLES:
        sys.exit(f"usage: generate.py {{{'|'.join(STYLES)}}} WIDTH [OUTPUT]")
    text = generate(sys.argv[1], int(sys.argv[2]))
    if len(sys.argv) == 4:
        with open(sys.argv[3], "w") as output:
            output.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
