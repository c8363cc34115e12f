"""The documentation's sources: the pages in ``docs/`` hold the long text and the
README welcomes, short, with links into them.  (.ci/run builds the site itself
with Sphinx, with warnings as errors, and runs its examples;
tests/test_doctests.py runs the examples here too.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
README = ROOT / "README.md"

#: The README is the welcome; the long text lives in docs/ (issue 28).
README_MAX_LINES = 200

#: Every Markdown file whose links must lead somewhere.
SOURCES = [README, *sorted(DOCS.glob("*.md"))]

#: Headings of these levels get anchors (``myst_heading_anchors`` in docs/conf.py;
#: GitHub anchors every level, so the site's rule is the narrower one).
ANCHOR_LEVELS = 3


def slug(heading: str) -> str:
    """The anchor that GitHub and MyST give a heading (``Memory`` -> ``memory``)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _prose(text: str) -> tuple[list[str], list[str]]:
    """The lines outside code fences, and the arguments of MyST's file directives."""
    prose, files = [], []
    fence = None
    for line in text.splitlines():
        opening = re.match(r"^(`{3,}|~{3,})(.*)$", line)
        if fence is None and opening:
            fence = opening.group(1)
            directive = re.match(r"\{(image|include|figure)\}\s+(\S+)", opening.group(2))
            if directive:
                files.append(directive.group(2))
        elif fence is not None and line.strip() == fence:
            fence = None
        elif fence is None:
            prose.append(line)
    return prose, files


def anchors(path: Path) -> set[str]:
    prose, _ = _prose(path.read_text(encoding="utf-8"))
    pattern = re.compile(rf"^#{{1,{ANCHOR_LEVELS}}} (.+)$")
    return {slug(m.group(1)) for line in prose if (m := pattern.match(line))}


def links(path: Path) -> list[str]:
    """Every link and picture target of a Markdown file, code left out."""
    prose, files = _prose(path.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", "\n".join(prose))  # inline code is not a link
    return re.findall(r"\]\(([^)\s]+)\)", text) + files


def test_the_link_helpers(tmp_path):
    assert slug("Counts that outgrow one machine: executors and checkpoints") == (
        "counts-that-outgrow-one-machine-executors-and-checkpoints"
    )
    assert slug("The French board (peg solitaire)") == "the-french-board-peg-solitaire"
    page = tmp_path / "page.md"
    page.write_text(
        "# T\n```python\n[x](nowhere.md)\n# not a heading\n```\n"
        "```{image} pictures/a.svg\n```\n`[y](z)` [a](b.md#c)\n#### Deep\n",
        encoding="utf-8",
    )
    assert links(page) == ["b.md#c", "pictures/a.svg"]
    assert anchors(page) == {"t"}


def test_the_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines: move text to docs/"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(source):
    for target in links(source):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
            continue
        file, _, anchor = target.partition("#")
        path = (source.parent / file).resolve() if file else source
        assert path.exists(), f"{source.name}: link to {target}: no such file"
        if anchor and path.suffix == ".md":
            assert anchor in anchors(path), f"{source.name}: link to {target}: no such heading"


def test_the_readme_links_to_every_page():
    targets = {t.partition("#")[0] for t in links(README)}
    pages = {f"docs/{p.name}" for p in DOCS.glob("*.md")} - {"docs/index.md", "docs/changelog.md"}
    assert pages <= targets, f"pages the README does not link to: {sorted(pages - targets)}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_examples_ask_for_few_threads(source):
    # A reader copies the examples onto a laptop or a 2-core runner: two
    # threads, or the default (all cores), never a count picked for a big box.
    asked = {int(n) for n in re.findall(r"threads=(\d+)", source.read_text(encoding="utf-8"))}
    assert asked <= {1, 2}, f"{source.name}: threads={sorted(asked)}"


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    # the first line of code after the comment (CI's timing stamp aside)
    after = ci.split("# The README's second command, verbatim", 1)[1].splitlines()[1:]
    command = next(line for line in after if line and not line.startswith(("#", "stamp ")))
    assert f"```bash\n{command}\n```" in README.read_text(encoding="utf-8")


def test_every_page_is_in_the_table_of_contents():
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    trees = re.findall(r"^```\{toctree\}\n(.*?)^```$", index, flags=re.M | re.S)
    listed = {
        line.strip()
        for tree in trees
        for line in tree.splitlines()
        if line.strip() and not line.startswith(":")
    }
    pages = {p.relative_to(DOCS).with_suffix("").as_posix() for p in DOCS.glob("*.md")}
    pages |= {p.relative_to(DOCS).with_suffix("").as_posix() for p in DOCS.glob("examples/*.ipynb")}
    assert pages - {"index"} == listed


# ---------------------------------------------------------------- the layout page

LAYOUT = DOCS / "layout.md"


def layout_paths(text: str) -> list[str]:
    """The paths of the layout page's tables: the first cell of each row, in
    backticks (``| `src/lib.rs` | the crate root |``)."""
    return re.findall(r"^\| `([^`]+)` \|", text, flags=re.M)


def test_the_layout_reader():
    text = "| Path | Its job |\n| --- | --- |\n| `src/a.rs` | a |\n| `b/` | `c.rs` |\nnot `d.rs`\n"
    assert layout_paths(text) == ["src/a.rs", "b/"]


def test_every_path_of_the_layout_exists():
    named = layout_paths(LAYOUT.read_text(encoding="utf-8"))
    assert len(named) > 100, "the layout page's tables were not read"
    missing = [p for p in named if not (ROOT / p).exists()]
    assert missing == [], f"docs/layout.md names paths that do not exist: {missing}"
    assert len(named) == len(set(named)), "docs/layout.md lists a path twice"


def test_every_source_file_is_in_the_layout():
    named = set(layout_paths(LAYOUT.read_text(encoding="utf-8")))
    sources = [*(ROOT / "src").rglob("*.rs"), *(ROOT / "python" / "solvers").rglob("*.py")]
    sources += (ROOT / "python" / "solvers").rglob("*.pyi")
    on_disk = {p.relative_to(ROOT).as_posix() for p in sources if "__pycache__" not in p.parts}
    unlisted = sorted(on_disk - named)
    assert unlisted == [], f"source files docs/layout.md does not list: {unlisted}"


def test_the_verbs_table_is_the_code_s():
    from solvers._families import verbs_table

    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    start, end = "<!-- verbs: start -->\n", "\n<!-- verbs: end -->"
    assert start in page and end in page
    shown = page.split(start, 1)[1].split(end, 1)[0]
    assert shown == verbs_table(), (
        "docs/api.md: paste solvers._families.verbs_table() between the markers"
    )
