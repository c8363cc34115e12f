"""The documentation site's sources: the README cut into pages, and every page
in the table of contents.  (.ci/run builds the site itself with Sphinx, with
warnings as errors, and runs its examples.)"""

from __future__ import annotations

import doctest
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _readme_pages():
    spec = importlib.util.spec_from_file_location("readme_pages", DOCS / "readme_pages.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_splitter_examples():
    result = doctest.testmod(_readme_pages())
    assert result.attempted >= 3 and result.failed == 0


def test_every_readme_section_lands_on_a_page(tmp_path):
    pages = _readme_pages()
    pages.write(ROOT / "README.md", tmp_path)  # raises for a section with no page
    written = {p.stem for p in tmp_path.glob("*.md")}
    assert written == set(pages.PAGES)
    text = "".join(p.read_text(encoding="utf-8") for p in tmp_path.glob("*.md"))
    # links across pages name a page that exists; pictures point inside docs/
    for page in re.findall(r"\]\(([\w-]+)\.md#", text):
        assert (DOCS / f"{page}.md").is_file(), page
    for picture in re.findall(r"\]\((pictures/[^)]+)\)", text):
        assert (DOCS / picture).is_file(), picture
    assert "](docs/" not in text


def test_a_section_with_no_page_is_refused(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# x\n## Knight's tours\n## Brand new\n", encoding="utf-8")
    with pytest.raises(ValueError, match="Brand new"):
        _readme_pages().write(readme, tmp_path / "out")


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
    texts = [p.read_text(encoding="utf-8") for p in DOCS.glob("*.md")]
    included = {m for t in texts for m in re.findall(r"_readme/([\w-]+)\.md", t)}
    assert included == set(_readme_pages().PAGES)
