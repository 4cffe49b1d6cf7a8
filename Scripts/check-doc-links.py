#!/usr/bin/env python3
"""Fails when the README or Docs/ name an article, a file or an API name that does not exist.

DocC checks the links inside the catalogs (`<doc:…>`, ``Symbol``); nothing checks the Markdown
that GitHub renders. This script does, for README.md, CONTRIBUTING.md and Docs/*.md:

1. Every relative link target (`[text](path)`, `![alt](path)`) exists in the repository.
2. A link to an article (`Sources/<Module>/<Module>.docc/Articles/<Name>.md`) shows the
   article's title as its text: `[Lifetimes](…/Lifetimes.md)`, never `[Shared Instances](…)`.
3. Every article named in prose as "the <Title> article" is an article of that title.
4. Every item of the README's "Learn more" list is a link to an article (rule 2 then checks its title).
5. No article, landing page, README or Docs file uses a name the API no longer has
   (`RETIRED_NAMES` below, each with what replaced it).
6. Every test an article names as `Suite/test` (Writing Tests' guard table) is a test of that suite
   in Tests/ or IntegrationTests/.
7. Each module's landing page (Sources/<Module>/<Module>.docc/<Module>.md) names every public type
   the module declares, and AppCore's lists every resolve of its container protocol, so the page a
   reader copies from matches the code.

Usage: Scripts/check-doc-links.py [--self-test]

--self-test first plants a wrong title, a missing file and a retired name in copies of the
README and checks that each one fails, then checks the real files.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Names the API had once, and what a reader writes now. A passage that still uses one describes an
# API that no longer exists. Matched as whole words.
RETIRED_NAMES = {
    "GreetingInjector": "`greetingInjector`, an `Injector<any GreetingDependency>` value",
    "WeatherInjector": "`weatherInjector`, an `Injector<any WeatherDependency>` value",
    "DependencyInjecting": "`Injector<Container>`",
    "ContainerStorage": "`Injector<Container>`",
    "withTestDependencies": "`useDependencies` from `setUp()`",
}
# Phrases that describe the retired API without naming a type.
RETIRED_PHRASES = {
    "injector once in a `typealias`": "the injector is a value: `let appInjector = Injector<…> { … }`",
    "fixes its injector to": "a container protocol refines `DependencyContainer` and names no injector",
}

LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)\)")
NAMED_ARTICLE = re.compile(r"\b([A-Z][\w-]*(?: (?:[A-Z][\w-]*|and|from|the))*) articles?\b")
# "the DocC article", "An article": words before "article" that name no article.
NOT_A_TITLE = {"DocC", "An", "The", "A", "Link", "Add", "User", "This", "That", "Each", "Every"}


def shown(path):
    """The path as messages show it: relative to the root when inside it."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return path.as_posix()


def article_titles():
    """Maps each article's path (relative to the root) to its title as DocC shows it."""
    titles = {}
    for path in sorted(ROOT.glob("Sources/*/*.docc/**/*.md")):
        for line in path.read_text().splitlines():
            if line.startswith("# "):
                title = line[2:].strip()
                symbol = re.fullmatch(r"``(?:[\w.]+/)*([\w.]+)``", title)
                titles[shown(path)] = symbol.group(1) if symbol else title
                break
    return titles


def code_free(text):
    """The text with fenced code blocks blanked (line numbers kept), so samples are not read as prose."""
    out, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return out


def check_links(path, lines, titles, problems, here):
    for number, line in enumerate(lines, 1):
        for text, target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            file_part = target.split("#", 1)[0]
            resolved = (here / file_part).resolve()
            where = f"{shown(path)}:{number}"
            if not resolved.exists():
                problems.append(f"{where}: the link target `{target}` does not exist")
                continue
            try:
                relative = resolved.relative_to(ROOT).as_posix()
            except ValueError:
                continue
            # Prose links ("[measured](…/Performance.md)") are free; a capitalised text names the article.
            label = text.strip("`*_ ")
            if relative in titles and label[:1].isupper() and label != titles[relative]:
                problems.append(
                    f"{where}: the link to {relative} reads \"{text}\"; the article's title is "
                    f"\"{titles[relative]}\": write [{titles[relative]}]({target})"
                )


def check_named_articles(path, lines, titles, problems):
    known = set(titles.values())
    for number, line in enumerate(lines, 1):
        prose = LINK.sub(lambda m: "", line)
        for match in NAMED_ARTICLE.finditer(prose):
            words = match.group(1).split(" ")
            # The longest run of words before "article" that names an article, or the last
            # capitalised run when none does.
            candidates = [" ".join(words[i:]) for i in range(len(words))]
            if any(c in known for c in candidates):
                continue
            name = candidates[-1] if len(words) == 1 else " ".join(w for w in words if w not in ("the",))
            if words[-1] in NOT_A_TITLE or name in NOT_A_TITLE:
                continue
            problems.append(
                f"{shown(path)}:{number}: \"{match.group(0)}\" names no article; the articles are: "
                + ", ".join(sorted(known))
            )


def check_learn_more(path, text, titles, problems):
    section = re.search(r"^## Learn more\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not section:
        problems.append(f"{shown(path)}: no \"## Learn more\" section listing the articles")
        return
    first_paragraph = section.group(1).strip().split("\n\n", 1)[0]
    listing = first_paragraph.split(":\n", 1)[1] if ":\n" in first_paragraph else first_paragraph
    for item in re.split(r"\s+·\s+", listing.strip()):
        item = item.strip().rstrip(".")
        link = LINK.match(item)
        if not link or link.group(2).split("#")[0].rsplit("/", 1)[-1] not in {
            p.rsplit("/", 1)[-1] for p in titles
        }:
            problems.append(
                f"{shown(path)}: the Learn more item \"{item[:60]}\" is not a link to an article; "
                "write [Title](Sources/<Module>/<Module>.docc/Articles/<Name>.md)"
            )


def check_retired(path, text, problems):
    for number, line in enumerate(text.splitlines(), 1):
        for name, now in RETIRED_NAMES.items():
            if re.search(rf"\b{re.escape(name)}\b", line):
                problems.append(f"{shown(path)}:{number}: `{name}` no longer exists; use {now}")
        for phrase, now in RETIRED_PHRASES.items():
            if phrase in line:
                problems.append(f"{shown(path)}:{number}: \"{phrase}\" describes a retired API; now {now}")


TEST_NAME = re.compile(r"`([A-Z]\w*Tests)/([a-z]\w*)`")


def test_sources():
    """Every Swift test file's text, for looking up the tests an article names."""
    return "\n".join(
        path.read_text()
        for root in ("Tests", "IntegrationTests")
        for path in sorted((ROOT / root).rglob("*.swift"))
        if ".build" not in path.parts
    )


def check_named_tests(paths, problems):
    sources = None
    for path in paths:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for suite, test in TEST_NAME.findall(line):
                if sources is None:
                    sources = test_sources()
                start = re.search(rf"\b(?:struct|class|enum) {suite}\b", sources)
                if not start or not re.search(rf"\bfunc {test}\(", sources[start.start():]):
                    problems.append(f"{shown(path)}:{number}: the test `{suite}/{test}` does not exist in Tests/")


PUBLIC_TYPE = re.compile(r"^(?:public (?:final |indirect )?(?:class|struct|enum|protocol|actor)|open class) (\w+)", re.M)


def check_landing_pages(problems):
    for page in sorted(ROOT.glob("Sources/*/*.docc/*.md")):
        module = page.parent.name.removesuffix(".docc")
        if page.stem != module:
            continue
        text = page.read_text()
        declared = set()
        for source in sorted((ROOT / "Sources" / module).rglob("*.swift")):
            declared.update(PUBLIC_TYPE.findall(source.read_text()))
        for name in sorted(declared):
            if not re.search(rf"``(?:\w+/)*{name}\b", text):
                problems.append(f"{shown(page)}: the public type {name} of {module} is not on its landing page")
    container = ROOT / "Sources" / "AppCore" / "Container" / "Dependency.swift"
    if container.exists():
        protocol = re.search(r"public protocol Dependency\b.*?\n}", container.read_text(), re.S)
        page = ROOT / "Sources" / "AppCore" / "AppCore.docc" / "AppCore.md"
        for resolve in re.findall(r"func (resolve\w+)\(", protocol.group(0) if protocol else ""):
            if f"``Dependency/{resolve}(" not in page.read_text():
                problems.append(f"{shown(page)}: the graph table does not list ``Dependency/{resolve}()``")


def check(files, titles, base=None):
    """The problems in `files`; their links resolve from `base` when given (the self-test's copies)."""
    problems = []
    for path in files:
        text = path.read_text()
        lines = code_free(text)
        check_links(path, lines, titles, problems, base or path.parent)
        check_named_articles(path, lines, titles, problems)
        if path.name == "README.md" and (base or path.parent) == ROOT:
            check_learn_more(path, text, titles, problems)
    # Docs/Measurements.md is a log of decisions: it names the API as it was when each was made.
    current = [f for f in files if f.name != "Measurements.md"]
    for path in (sorted(ROOT.glob("Sources/*/*.docc/**/*.md")) if base is None else []) + current:
        check_retired(path, path.read_text(), problems)
    if base is None:
        check_named_tests(sorted(ROOT.glob("Sources/*/*.docc/**/*.md")) + files, problems)
        check_landing_pages(problems)
    return problems


def self_test(titles):
    import tempfile

    readme = (ROOT / "README.md").read_text()
    plants = {
        "a wrong title": readme.replace("[Lifetimes](", "[Shared Instances](", 1),
        "a missing file": readme.replace("(LICENSE)", "(LICENCE)", 1),
        "a Learn more item that is no link": readme.replace(
            "[Tagged Registry](Sources/DependencyKit/DependencyKit.docc/Articles/TaggedRegistry.md)", "The Tagged Registry"
        ),
        "an article named in prose that does not exist": readme + "\nSee the Shared Instances article.\n",
        "a retired name": readme + "\nName the `GreetingInjector` once.\n",
    }
    with tempfile.TemporaryDirectory() as scratch:
        planted = pathlib.Path(scratch) / "README.md"
        planted.write_text(readme)
        clean = {p.split(": ", 1)[1] for p in check([planted], titles, base=ROOT)}
        for what, text in plants.items():
            if text == readme:
                print(f"check-doc-links: self-test could not plant {what}", file=sys.stderr)
                return False
            planted.write_text(text)
            found = [p for p in check([planted], titles, base=ROOT) if p.split(": ", 1)[1] not in clean]
            if not found:
                print(f"check-doc-links: self-test: {what} in the README was not caught", file=sys.stderr)
                return False
            print(f"check-doc-links: self-test: {what} fails: {found[0].split(': ', 1)[1]}")
    return True


def main():
    titles = article_titles()
    if "--self-test" in sys.argv[1:] and not self_test(titles):
        return 1
    files = [ROOT / "README.md", ROOT / "CONTRIBUTING.md"] + sorted((ROOT / "Docs").glob("*.md"))
    problems = check(files, titles)
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        print(f"check-doc-links: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check-doc-links: {len(files)} files, {len(titles)} articles: every named article and link exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
