#!/usr/bin/env python3
"""Checks that the documentation's relative links resolve.

Every relative link and image in README.md, docs/**/*.md and models/README.md must name a file or folder
that exists, and a `#anchor` on a Markdown file must name one of its headings (GitHub's
slug) or an explicit `<a id="...">`. Every `docs/FILE#anchor` or `docs/FILE.md` cited in
configs/, in source comments and in scripts must resolve the same way.

    doc_links_test.py ROOT          check the repository at ROOT
    doc_links_test.py --self-test   check that broken links are found
"""
import pathlib
import re
import sys
import tempfile

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CITATION = re.compile(r"\bdocs/[A-Za-z0-9_./-]+\.md(?:#[A-Za-z0-9_.-]+)?")
EXPLICIT_ID = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
CITING = ("configs", "env", "mcts", "nets", "play", "trainer", "tools", "web", "protocol",
          "distributed", "parallel", "roles", "fuzz", "tests")
CITING_SUFFIXES = {".yaml", ".cpp", ".hpp", ".h", ".sh", ".py", ".txt", ".js", ".html"}


def github_slug(heading):
    text = re.sub(r"<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def prose_lines(text):
    """The lines outside fenced code blocks, with inline code removed."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            yield number, re.sub(r"`[^`]*`", "", line)


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        text = path.read_text(encoding="utf-8")
        for _, line in prose_lines(text):
            found.update(EXPLICIT_ID.findall(line))
        fenced = False
        for line in text.split("\n"):
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(r"#{1,6} ", line):
                slug = github_slug(line.lstrip("#").replace("`", ""))
                count = seen.get(slug, 0)
                seen[slug] = count + 1
                found.add(slug if count == 0 else f"{slug}-{count}")
        cache[path] = found
    return cache[path]


def check_target(base, target, root):
    """None when `target` (relative to folder `base`) resolves, else why not."""
    path_part, _, anchor = target.partition("#")
    path = (base / path_part).resolve() if path_part else None
    if path is not None:
        try:
            path.relative_to(root)
        except ValueError:
            return "points outside the repository"
        if not path.exists():
            return "no such file"
    if anchor:
        md = path if path is not None else None
        if md is None or md.suffix != ".md" or not md.is_file():
            return None if md is not None else "no file for the anchor"
        if anchor not in anchors(md):
            return f"no heading or anchor '{anchor}' in {md.relative_to(root)}"
    return None


def check(root):
    root = root.resolve()
    problems = []
    documents = [root / "README.md"] + sorted((root / "docs").rglob("*.md"))
    documents += [p for p in (root / "models" / "README.md",) if p.exists()]
    for doc in documents:
        if not doc.is_file():
            continue
        text = doc.read_text(encoding="utf-8")
        for number, line in prose_lines(text):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):
                    continue  # http:, https:, mailto:
                if target.startswith("#"):
                    why = check_target(doc.parent, doc.name + target, root)
                else:
                    why = check_target(doc.parent, target, root)
                if why:
                    problems.append(f"{doc.relative_to(root)}:{number}: ({target}) {why}")
    for folder in CITING:
        for source in sorted((root / folder).rglob("*")):
            if (source.suffix not in CITING_SUFFIXES or not source.is_file()
                    or "node_modules" in source.parts or "corpus" in source.parts
                    or source.name == pathlib.Path(__file__).name):
                continue
            text = source.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.split("\n"), 1):
                for target in CITATION.findall(line):
                    why = check_target(root, target, root)
                    if why:
                        problems.append(f"{source.relative_to(root)}:{number}: ({target}) {why}")
    return problems


def self_test():
    with tempfile.TemporaryDirectory() as tmp:
        root = pathlib.Path(tmp)
        (root / "docs").mkdir()
        (root / "configs").mkdir()
        (root / "README.md").write_text(
            "# T\n[ok](docs/a.md#the-key-figures) [bad](docs/missing.md)\n"
            "```\n[in code](docs/nowhere.md)\n```\n[anchor](docs/a.md#nope)\n")
        (root / "docs" / "a.md").write_text(
            "## The `key` figures\n<a id=\"train.x\"></a>\n[up](../README.md#t)\n")
        (root / "configs" / "c.yaml").write_text(
            "a: 1  # docs/a.md#train.x\nb: 2  # docs/a.md#train.y\n")
        problems = check(root)
        expected = ["README.md:2: (docs/missing.md)", "README.md:6: (docs/a.md#nope)",
                    "configs/c.yaml:2: (docs/a.md#train.y)"]
        got = [p.split(" no ")[0].split(" points")[0] for p in problems]
        if sorted(got) != sorted(expected):
            print("self-test failed: expected", expected, "got", problems)
            return 1
    print("self-test: broken links found, good ones passed")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__.strip())
        return 2
    problems = check(pathlib.Path(argv[1]))
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} broken link(s)")
        return 1
    print("every relative link resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
