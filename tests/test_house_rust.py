"""The house rules of the Rust crate (issue 28): its top-level modules form no
circle, and the shared ones know no puzzle family.

The graph is read from the text of ``src/**/*.rs``, with no build: an edge
``a -> b`` for every ``crate::b`` path in module ``a`` (``use crate::b::X``,
``use crate::{b, c}``, ``crate::b::f()`` in code) and every ``super::`` chain
that climbs out of ``a`` to the crate root.  Comments, strings and
``pub(in crate::x)`` visibilities are not dependencies and are left out.

The bindings (``python``) may use every module, and no module may use them:
they are the crate's front door, the one place that knows every family.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

#: The modules every family may use; they must not use a family back.
SHARED = {"engine", "layers", "memory", "cpu", "symmetry", "error"}

#: The pyo3 bindings: they use everything and nothing uses them.
BINDINGS = "python"


#: Where a comment, a string or a char literal may begin, in the order a
#: scan from left to right tries them at each place.
LITERAL = re.compile(r"""//|/\*|b?r(#*)"|b?"|b?'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'""")
STRING_END = re.compile(r'(?:\\.|[^"\\])*"', re.S)


def strip_code(text: str) -> str:
    """``text`` with comments, string and char literals blanked out (each
    replaced by a space), so only code is left for the paths and braces."""
    out: list[str] = []
    i, n = 0, len(text)
    while (found := LITERAL.search(text, i)) is not None:
        out.append(text[i : found.start()])
        token = found.group()
        if token == "//":
            end = text.find("\n", found.end())
            i = n if end < 0 else end
            continue
        if token == "/*":  # block comments nest
            depth, i = 1, found.end()
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif found.group(1) is not None:  # a raw string: r"..." or r#"..."#
            close = '"' + found.group(1)
            end = text.find(close, found.end())
            i = n if end < 0 else end + len(close)
        elif token.endswith('"'):
            end = STRING_END.match(text, found.end())
            i = n if end is None else end.end()
        else:  # a char literal
            i = found.end()
        out.append(" ")
    out.append(text[i:])
    return "".join(out)


def module_path(path: Path, root: Path) -> list[str]:
    """The module path of a source file: ``src/knights/frontier/pairs.rs``
    is ``["knights", "frontier", "pairs"]``, ``src/queens/mod.rs`` is
    ``["queens"]``, ``src/lib.rs`` is ``[]``."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main") and (len(parts) > 1 or parts[-1] != "mod"):
        parts.pop()
    return parts


PATH = re.compile(r"\b(crate|super)\s*::\s*((?:super\s*::\s*)*)(\{|[A-Za-z_][A-Za-z0-9_]*)")
INLINE_MOD = re.compile(r"\bmod\s+[A-Za-z_][A-Za-z0-9_]*\s*\{")
VISIBILITY = re.compile(r"\bpub\s*\(\s*in\s+[^)]*\)")


def group_heads(code: str, start: int) -> set[str]:
    """The first names of the paths in the braces opening at ``start``:
    ``{engine::Control, error::{A, B}, memory}`` gives engine, error, memory."""
    heads: set[str] = set()
    depth, i, expect = 0, start, False
    while i < len(code):
        c = code[i]
        if c == "{":
            depth += 1
            expect = depth == 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                break
        elif c == "," and depth == 1:
            expect = True
        elif expect and (word := re.match(r"[A-Za-z_][A-Za-z0-9_]*", code[i:])):
            heads.add(word.group())
            i += word.end()
            expect = False
            continue
        elif expect and not c.isspace():
            expect = False
        i += 1
    return heads


def uses(code: str, where: list[str]) -> set[str]:
    """The top-level modules that the code of the module at path ``where``
    names (its own included; the caller drops it)."""
    code = VISIBILITY.sub(" ", code)
    # The inline modules (``mod tests { ... }``) open at these offsets and
    # close at the matching brace: a ``super::`` inside climbs one more.
    opens = {m.end() - 1 for m in INLINE_MOD.finditer(code)}
    nesting_at: list[int] = []
    stack: list[bool] = []
    for i, c in enumerate(code):
        if c == "{":
            stack.append(i in opens)
        elif c == "}" and stack:
            stack.pop()
        nesting_at.append(sum(stack))
    found: set[str] = set()
    for m in PATH.finditer(code):
        if m.group(1) == "super":
            # The module at this point is `where` plus its inline modules;
            # the chain climbs out of them, then out of the file's module.
            climbs = 1 + m.group(2).count("super")
            if len(where) + nesting_at[m.start()] - climbs != 0:
                continue  # still inside the module (or past the root)
        head = m.group(3)
        if head == "{":
            found |= group_heads(code, m.start(3))
        elif head not in ("self", "super", "crate"):
            found.add(head)
    return found


def crate_graph(root: Path = SRC) -> dict[str, set[str]]:
    """``module -> modules it uses`` between the crate's top-level modules."""
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.rs")):
        where = module_path(path, root)
        if not where:
            continue  # the crate root declares the modules; it uses none
        top = where[0]
        code = strip_code(path.read_text(encoding="utf-8"))
        graph.setdefault(top, set()).update(uses(code, where) - {top})
    tops = set(graph)
    return {m: {u for u in used if u in tops} for m, used in graph.items()}


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``edges`` as a list of modules (first = last), or None."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


GRAPH = crate_graph()
FAMILIES = set(GRAPH) - SHARED - {BINDINGS}


def test_the_graph_sees_the_crate():
    assert SHARED | {BINDINGS} <= set(GRAPH)
    assert {"knights", "queens", "peg"} <= FAMILIES
    assert {"engine", "error", "layers"} <= GRAPH["knights"]
    assert "frontier" not in GRAPH, "the frontier is a knight's-tour method"


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None


def test_the_reader_finds_every_form_of_path(tmp_path: Path):
    files = {
        "lib.rs": "pub mod a;\npub mod b;\npub mod c;\npub mod d;\n",
        # A grouped use, a path in code, and a comment and a string that
        # name a module without using it.
        "a.rs": (
            "use crate::{b::X, c};\n"
            "fn f() { crate::d::g(); }\n"
            "// crate::e is only a comment\n"
            'const S: &str = "crate::e";\n'
        ),
        # `super::` that climbs to the root, and one that stays inside.
        "b/mod.rs": "mod inner;\nuse super::c::Y;\n",
        "b/inner.rs": "use super::Z;\nmod tests {\n    use super::super::super::d;\n}\n",
        "c.rs": "pub(in crate::a) fn h() {}\nmod tests { use super::*; }\n",
        "d.rs": "use crate::a;\n",
        "e.rs": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = crate_graph(tmp_path)
    assert graph == {"a": {"b", "c", "d"}, "b": {"c", "d"}, "c": set(), "d": {"a"}, "e": set()}
    assert find_cycle(graph) == ["a", "b", "d", "a"]


def test_no_module_circle():
    # The bindings may use everything; the rest must form no circle.
    rest = {m: used - {BINDINGS} for m, used in GRAPH.items() if m != BINDINGS}
    cycle = find_cycle(rest)
    assert cycle is None, "module circle: " + " -> ".join(cycle or [])


def test_nothing_uses_the_bindings():
    users = sorted(m for m, used in GRAPH.items() if BINDINGS in used)
    assert users == [], f"{users} use the bindings, which only Python may use"


@pytest.mark.parametrize("shared", sorted(SHARED))
def test_shared_modules_use_no_family(shared):
    families = sorted(GRAPH[shared] & FAMILIES)
    assert families == [], f"{shared} uses the families {families}"
