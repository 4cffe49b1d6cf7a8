#!/usr/bin/env python3
"""Writes one container of a given width in one style, for the compile-time benchmark.

Every style declares the same graph: `width` small final classes `Dep0000` ... where every tenth is a
leaf built from nothing and every other one is built from the one before it, and every third also
from the one at half its index. What differs is how the graph is wired:

- `dk`: DependencyKit's documented shape (Getting Started, Overriding): the container protocol, one
  builder per dependency in an unconstrained extension, `PartialContainer` defaults for test
  doubles, an `open` production class whose resolves wrap the builder in `fresh {}` (`live {}` for
  the leaves), the injector, the `Has...Dependencies` protocol, and a subclass overriding 5 leaves.
- `dk-nopartial`: the same without the `PartialContainer` defaults (a production container that
  no test double implements partially).
- `hand`: the graph wired by hand: one method per dependency on a struct.
- `swift-dependencies`: swift-dependencies 1.17.1 without its macros: one `DependencyKey` per
  dependency whose `liveValue` builds it from `@Dependency` reads, and one `DependencyValues` property
  per key (what its documentation shows for a key written by hand).
- `swinject`: Swinject 2.10.0: one function that registers every dependency in a `Container`, each
  factory resolving its inputs from the resolver.

Usage: generate.py STYLE WIDTH [OUTPUT]   (prints to standard output without OUTPUT)
"""

import sys

STYLES = ("dk", "dk-nopartial", "hand", "swift-dependencies", "swinject")


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


def dk(width: int, partial: bool) -> list[str]:
    lines = [
        "public import DependencyKit",
        "",
        "public enum WideInjector: DependencyInjecting {",
        "    public static let storage = ContainerStorage<any WideDependency> { CoreWideDependency() }",
        "}",
        "",
        "public protocol WideDependency: InjectableContainer where Injector == WideInjector {",
    ]
    lines += [f"    func resolve{name(i)}() -> {name(i)}" for i in range(width)]
    lines += ["}", "", "extension WideDependency {"]
    lines += [
        f"    public func make{name(i)}() -> {name(i)} {{ {call(i, lambda a: f'resolve{name(a)}()')} }}"
        for i in range(width)
    ]
    lines.append("}")

    def resolve(index: int, modifier: str) -> str:
        wrapper = "fresh" if inputs(index) else "live"
        return f"    {modifier}func resolve{name(index)}() -> {name(index)} {{ {wrapper} {{ make{name(index)}() }} }}"

    if partial:
        lines += ["", "extension WideDependency where Self: PartialContainer {"]
        lines += [resolve(i, "public ") for i in range(width)]
        lines.append("}")
    lines += [
        "",
        "open class CoreWideDependency: DependencyContainer, WideDependency, @unchecked Sendable {",
        "    public override init() { super.init() }",
    ]
    lines += [resolve(i, "open ") for i in range(width)]
    lines += [
        "}",
        "",
        "public final class TestWideDependency: CoreWideDependency, @unchecked Sendable {",
    ]
    leaves = [i for i in range(width) if not inputs(i)][:5]
    lines += [
        f"    public override func resolve{name(i)}() -> {name(i)} {{ fresh {{ {name(i)}() }} }}" for i in leaves
    ]
    lines += [
        "}",
        "",
        "public protocol HasWideDependencies {}",
        "",
        "extension HasWideDependencies {",
        "    public var dependencies: any WideDependency { WideInjector.dependencies }",
        "}",
    ]
    return lines


def hand(width: int) -> list[str]:
    lines = ["public struct HandWrittenGraph: Sendable {", "    public init() {}"]
    lines += [
        f"    public func make{name(i)}() -> {name(i)} {{ {call(i, lambda a: f'make{name(a)}()')} }}"
        for i in range(width)
    ]
    lines.append("}")
    return lines


def property(index: int) -> str:
    return f"dep{index:04}"


def swift_dependencies(width: int) -> list[str]:
    lines = ["public import Dependencies", ""]
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
    body = {
        "dk": lambda: dk(width, partial=True),
        "dk-nopartial": lambda: dk(width, partial=False),
        "hand": lambda: hand(width),
        "swift-dependencies": lambda: swift_dependencies(width),
        "swinject": lambda: swinject(width),
    }[style]()
    header = [f"// Generated by Benchmarks/CompileTime/generate.py {style} {width}; do not edit.", ""]
    # The wiring first (it holds the imports), then the graph's types.
    return "\n".join(header + body + [""] + types(width)) + "\n"


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
