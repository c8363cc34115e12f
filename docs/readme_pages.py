"""Cut the README into the fragments that the documentation pages include.

The README is where the project's long-form text lives (the families, how it
counts, the measured tables); the site shows the same text split into pages.
:func:`write` puts each page's sections into ``docs/_readme/<page>.md`` with
three edits, so that they read right from ``docs/<page>.md``:

* the page's first section heading becomes its title (``##`` -> ``#`` and its
  ``###`` -> ``##``); later sections keep their levels;
* a link to a heading of the README (``[Memory](#memory)``) points at the page
  that now holds it (``memory.md#memory``);
* paths under ``docs/`` lose that prefix (``docs/pictures/x.svg`` ->
  ``pictures/x.svg``).

>>> sections = split("# t\\nintro\\n## A b\\none [x](#c)\\n## C\\ntwo\\n")
>>> [(s.title, s.body) for s in sections]
[('', 'intro\\n'), ('A b', 'one [x](#c)\\n'), ('C', 'two\\n')]
>>> slug("Counts that outgrow one machine: executors and checkpoints")
'counts-that-outgrow-one-machine-executors-and-checkpoints'
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

#: Which page holds each ``##`` section of the README, in page order.  A
#: README section missing here fails the build (a new section must be placed).
PAGES: dict[str, tuple[str, ...]] = {
    "intro": ("",),
    "install": ("Installing",),
    "knights": ("Knight's tours",),
    "queens": ("N-Queens",),
    "peg": ("Peg solitaire",),
    "cli": ("Command line",),
    "pictures": ("Pictures",),
    "scale-out": (
        "Counts that outgrow one machine: executors and checkpoints",
        "Progress, Ctrl-C and timeouts",
    ),
    "how-it-counts": ("How it counts",),
    "performance": ("Performance",),
    "memory": ("Memory", "Limits"),
    "layout": ("Layout",),
}


class Section(NamedTuple):
    """A ``##`` section of the README: its title ('' before the first) and text."""

    title: str
    body: str


def split(text: str) -> list[Section]:
    """The README's ``##`` sections in order; the ``#`` title line is dropped."""
    sections = [Section("", "")]
    fence = False
    for line in text.splitlines(keepends=True):
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("## "):
            sections.append(Section(line[3:].strip(), ""))
        elif not fence and line.startswith("# "):
            continue
        else:
            title, body = sections[-1]
            sections[-1] = Section(title, body + line)
    return sections


def slug(heading: str) -> str:
    """The anchor GitHub (and MyST's ``myst_heading_anchors``) give a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _headings(body: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^#{3,6} (.+)$", body, flags=re.M)]


def write(readme: Path, out: Path) -> None:
    """Write ``out/<page>.md`` for every page of :data:`PAGES` from ``readme``."""
    sections = {s.title: s.body for s in split(readme.read_text(encoding="utf-8"))}
    unplaced = set(sections) - {t for titles in PAGES.values() for t in titles}
    if unplaced:
        missing = sorted(unplaced)
        raise ValueError(f"README sections with no page in docs/readme_pages.py: {missing}")
    page_of = {}
    for page, titles in PAGES.items():
        for title in titles:
            page_of[slug(title)] = page
            for heading in _headings(sections[title]):
                page_of[slug(heading)] = page

    def relink(match: re.Match[str], page: str) -> str:
        anchor = match.group(1)
        if anchor not in page_of:
            raise ValueError(f"README link to #{anchor}: no heading has that anchor")
        target = page_of[anchor]
        return f"](#{anchor})" if target == page else f"]({target}.md#{anchor})"

    out.mkdir(exist_ok=True)
    for page, titles in PAGES.items():
        parts = []
        for i, title in enumerate(titles):
            body = re.sub(r"\]\(#([^)]+)\)", lambda m, p=page: relink(m, p), sections[title])
            body = body.replace("](docs/", "](")
            if i == 0 and title:
                body = re.sub(r"^###", "##", body, flags=re.M)
                parts.append(f"# {title}\n{body}")
            elif title:
                parts.append(f"## {title}\n{body}")
            else:
                parts.append(body)
        text = "".join(parts)
        path = out / f"{page}.md"
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
