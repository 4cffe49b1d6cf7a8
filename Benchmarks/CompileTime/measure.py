#!/usr/bin/env python3
"""Measures what a container's wiring costs to compile: CPU seconds and object size, per style and width.

The graph's classes are a module of their own, `WideTypes`, as an app's types are: they exist
whichever way the app is wired. Every style (see generate.py) is one module that imports them and
holds only the wiring, in a small package of its own under Benchmarks/.build-compile-time. The
package is built once per configuration with `swift build -v` to read the exact compiler command
SwiftPM runs for each module. Then, for each width, it writes the graph's types and compiles
`WideTypes` once (timed on its own, the `types` row), writes each style's container into its
module's one source file and runs that module's command again: the rounds alternate between the
styles, and each result is the median of the rounds. The modules of the swift-dependencies and
Swinject styles depend on those packages; SwiftPM builds them once, and the recorded command carries
their module search paths, so each run compiles the generated module only.

Each style row gives CPU seconds, object bytes (total and per dependency), and, against the
hand-written wiring (`hand`, when measured): the CPU ratio, the object ratio, and the CPU the style
adds per dependency in milliseconds, (style - hand) / width.

- CPU seconds are user + system time of the compiler and every process it waits for (the driver and
  the frontend), so other work on a shared machine does not count, unlike wall time.
- Object size is text + data + bss of the module's object files (`size`), without debug information.

The command is SwiftPM's verbatim but for `-incremental`, `-parseable-output` and `-v`, dropped so
that every run compiles the whole module and prints plain diagnostics. EXTRA (`--extra`) flags are
appended, for instance `--extra=-Xfrontend --extra=-debug-time-function-bodies`.

Usage:
    measure.py [--styles dk,dk-nopartial,hand,swift-dependencies,swinject] [--widths 10,100,500,1000]
               [--configs debug,release] [--rounds 3] [--max-ratio STYLE=CPU[/SIZE]] [--json FILE]
               [--keep DIR] [--extra FLAG ...]

Styles: dk, dk-nopartial, dk-inline, dk-inline-nopartial, dk-body, dk-body-nopartial, hand,
swift-dependencies, swinject (generate.py says what each writes).

`--max-ratio dk=4/12` fails (exit 1) when a style's CPU seconds exceed 4 times the hand-written
wiring's, or its object size 12 times, at any measured point (`dk=4` checks CPU and size against
the same ratio): the CI smoke run's guard against a gross regression. `--json` writes every row.
"""

import argparse
import json
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))
import generate  # noqa: E402

PACKAGES = {
    "dk": ('.package(name: "DependencyKit", path: "ROOT")', '.product(name: "DependencyKit", package: "DependencyKit")'),
}
for _style in generate.DK_SHAPES:
    PACKAGES[_style] = PACKAGES["dk"]
# The versions the Benchmarks package's run-time comparison uses; resolved like any package.
PACKAGES["swift-dependencies"] = (
    '.package(url: "https://github.com/pointfreeco/swift-dependencies", exact: "1.17.1")',
    '.product(name: "Dependencies", package: "swift-dependencies")',
)
PACKAGES["swinject"] = (
    '.package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0")',
    '.product(name: "Swinject", package: "Swinject")',
)


TYPES = "types"


def module(style: str) -> str:
    return "WideTypes" if style == TYPES else "Wide" + "".join(
        part.capitalize() for part in re.split(r"[-_]", style)
    )


def source(directory: Path, style: str) -> Path:
    return directory / "Sources" / module(style) / ("Types.swift" if style == TYPES else "Container.swift")


def write_package(directory: Path, styles: list[str]) -> None:
    dependencies = sorted({PACKAGES[s][0].replace("ROOT", str(ROOT)) for s in styles if s in PACKAGES})
    targets = [f'        .target(name: "{module(TYPES)}"),']
    for style in [TYPES, *styles]:
        path = source(directory, style)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(generate.generate(style, 10))
        if style == TYPES:
            continue
        product = [PACKAGES[style][1]] if style in PACKAGES else []
        targets.append(
            f'        .target(name: "{module(style)}", dependencies: ["{module(TYPES)}", {", ".join(product)}]),'
        )
    # Modules of styles no longer asked for would still be built, against types they do not match.
    for stale in (directory / "Sources").iterdir():
        if stale.name not in {module(s) for s in [TYPES, *styles]}:
            shutil.rmtree(stale)
    manifest = "\n".join(
        [
            "// swift-tools-version: 6.1",
            "// Written by Benchmarks/CompileTime/measure.py.",
            "import PackageDescription",
            "",
            "let package = Package(",
            '    name: "CompileTime",',
            "    platforms: [.macOS(.v13)],",
            "    dependencies: [",
            *[f"        {d}," for d in dependencies],
            "    ],",
            "    targets: [",
            *targets,
            "    ],",
            "    swiftLanguageModes: [.v6]",
            ")",
            "",
        ]
    )
    (directory / "Package.swift").write_text(manifest)


def compiler_commands(directory: Path, config: str, styles: list[str]) -> dict[str, list[str]]:
    """Builds the package and returns the compiler command SwiftPM ran for each style's module."""
    # A clean build of our modules only, at a small width, so that `-v` prints their commands.
    styles = [TYPES, *styles]
    for style in styles:
        source(directory, style).write_text(generate.generate(style, 10))
        for built in (directory / ".build").glob(f"*/{config}/{module(style)}.build"):
            shutil.rmtree(built)
    build = subprocess.run(
        ["swift", "build", "-v", "-c", config, "--package-path", str(directory)],
        capture_output=True,
        text=True,
    )
    if build.returncode != 0:
        sys.stderr.write(build.stdout[-4000:] + build.stderr[-4000:])
        sys.exit(f"measure: swift build -c {config} failed")
    commands = {}
    for line in build.stdout.splitlines():
        words = shlex.split(line) if "-module-name" in line else []
        if not words or not words[0].endswith("swiftc"):
            continue
        name = words[words.index("-module-name") + 1]
        for style in styles:
            if name == module(style):
                commands[style] = [w for w in words if w not in ("-incremental", "-parseable-output", "-v")]
    missing = [s for s in styles if s not in commands]
    if missing:
        sys.exit(f"measure: no compiler command for {missing} in `swift build -v -c {config}`")
    return commands


def objects(command: list[str]) -> list[Path]:
    output_map = json.loads(Path(command[command.index("-output-file-map") + 1]).read_text())
    return [Path(entry["object"]) for entry in output_map.values() if "object" in entry]


def object_size(paths: list[Path]) -> int:
    total = 0
    for path in paths:
        if path.exists():
            fields = subprocess.run(["size", str(path)], capture_output=True, text=True, check=True).stdout
            text, data, bss = fields.splitlines()[1].split()[:3]
            total += int(text) + int(data) + int(bss)
    return total


def compile_once(command: list[str], extra: list[str]) -> tuple[float, int, str]:
    outputs = objects(command)
    for path in outputs:
        path.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = subprocess.run(command + extra, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        sys.stderr.write(run.stdout[-6000:] + run.stderr[-6000:])
        sys.exit("measure: the compiler failed")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, object_size(outputs), run.stdout + run.stderr


def limit(text: str) -> tuple[float, float]:
    """`4` is CPU and size within 4x; `4/12` is CPU within 4x and size within 12x."""
    cpu, _, size = text.partition("/")
    return float(cpu), float(size or cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--styles", default="dk,hand")
    parser.add_argument("--widths", default="10,100,1000")
    parser.add_argument("--configs", default="debug,release")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--max-ratio", action="append", default=[])
    parser.add_argument("--json", help="write every row to this file (JSON)")
    parser.add_argument("--keep", help="copy each compiler output (with --extra's reports) into this folder")
    parser.add_argument("--extra", action="append", default=[])
    parser.add_argument("--scratch", default=str(ROOT / "Benchmarks" / ".build-compile-time"))
    args = parser.parse_args()

    styles = args.styles.split(",")
    unknown = [s for s in styles if s not in generate.STYLES or s == TYPES]
    if unknown:
        known = ", ".join(s for s in generate.STYLES if s != TYPES)
        sys.exit(f"measure: unknown styles {unknown}; known: {known}")
    widths = [int(w) for w in args.widths.split(",")]
    limits = {}
    for item in args.max_ratio:
        style, ratio = item.split("=")
        limits[style] = limit(ratio)
    if limits and "hand" not in styles:
        sys.exit("measure: --max-ratio compares with the hand-written wiring; add hand to --styles")

    scratch = Path(args.scratch)
    scratch.mkdir(parents=True, exist_ok=True)
    write_package(scratch, styles)
    if args.keep:
        Path(args.keep).mkdir(parents=True, exist_ok=True)

    results = []
    failures = []
    print(f"# {'config':6} {'width':>6} {'style':20} {'CPU':>9} {'object':>10}   {'per dep':>8} "
          f"{'CPU/hand':>8} {'obj/hand':>8} {'added/dep':>9}")
    for config in args.configs.split(","):
        started = time.time()
        commands = compiler_commands(scratch, config, styles)
        print(f"# {config}: packages built in {time.time() - started:.0f} s; compiler command of each module:")
        for style in [TYPES, *styles]:
            print(f"#   {style}: {shlex.join(commands[style])}")
        for width in widths:
            # The graph's types, compiled once: every style's module imports them.
            source(scratch, TYPES).write_text(generate.generate(TYPES, width))
            cpu, size, output = compile_once(commands[TYPES], args.extra)
            if args.keep:
                Path(args.keep, f"{TYPES}-{width}-{config}.txt").write_text(output)
            results.append({"style": TYPES, "width": width, "config": config, "cpu": cpu, "size": size, "rounds": [cpu]})
            print(f"{config:8} {width:6} {'(types, own module)':20} {cpu:8.2f} s {size:10} B {size / width:8.0f} B/dep", flush=True)
            samples = {style: [] for style in styles}
            for round_ in range(args.rounds):
                for style in styles:
                    source(scratch, style).write_text(generate.generate(style, width))
                    cpu, size, output = compile_once(commands[style], args.extra)
                    samples[style].append((cpu, size))
                    if args.keep:
                        Path(args.keep, f"{style}-{width}-{config}-{round_}.txt").write_text(output)
            hand = None
            if "hand" in samples:
                hand = (
                    statistics.median(c for c, _ in samples["hand"]),
                    statistics.median(s for _, s in samples["hand"]),
                )
            for style in styles:
                cpu = statistics.median(c for c, _ in samples[style])
                size = statistics.median(s for _, s in samples[style])
                row = {
                    "style": style,
                    "width": width,
                    "config": config,
                    "cpu": cpu,
                    "size": size,
                    "rounds": [c for c, _ in samples[style]],
                }
                ratio = ""
                if hand:
                    row["cpu_ratio"], row["size_ratio"] = cpu / hand[0], size / hand[1]
                    row["added_ms_per_dependency"] = (cpu - hand[0]) / width * 1000
                    ratio = f"{row['cpu_ratio']:7.2f}x {row['size_ratio']:7.2f}x {row['added_ms_per_dependency']:6.1f} ms"
                    if style in limits:
                        max_cpu, max_size = limits[style]
                        if row["cpu_ratio"] > max_cpu or row["size_ratio"] > max_size:
                            failures.append((row, max_cpu, max_size))
                results.append(row)
                print(
                    f"{config:8} {width:6} {style:20} {cpu:8.2f} s {size:10} B {size / width:8.0f} B/dep {ratio}",
                    flush=True,
                )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    if failures:
        for row, max_cpu, max_size in failures:
            print(
                f"measure: {row['style']} at width {row['width']} ({row['config']}) is {row['cpu_ratio']:.2f}x the "
                f"hand-written wiring's CPU and {row['size_ratio']:.2f}x its object (limits {max_cpu:g}x, {max_size:g}x)",
                file=sys.stderr,
            )
        sys.exit(1)


if __name__ == "__main__":
    main()
