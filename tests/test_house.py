"""The house rules of the Python package (issue 13): no import cycle between
its modules, not even one hidden inside a function; the shared helpers import
no family; no module reads another's private names (``knights._board``);
every module says at its top what it owns.

Issue 28: a family lives in one subpackage and is registered once (in
``solvers._families``); the shared subpackage ``solvers._engine`` names no
family, and no other module holds a list of the families.

The modules are read with :mod:`ast`, not imported, so an import that runs
only when a function is called counts as much as one at the top.  Imports
under ``if TYPE_CHECKING:`` are left out: they never run, and a type checker
needs no acyclic graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "python" / "solvers"

#: The subpackages that are not a family: the shared helpers and the CLI shell.
NOT_FAMILIES = {"_engine", "cli"}

#: The families: every subpackage of the package but those above (found on disk,
#: so a new family is seen without editing this test).
FAMILIES = {
    p.parent.name
    for p in PACKAGE.glob("*/__init__.py")
    if p.parent.name not in NOT_FAMILIES and not p.parent.name.startswith("__")
}


def module_name(path: Path) -> str:
    """``solvers.x.y`` for ``python/solvers/x/y.py`` (``solvers.x`` for ``x/__init__.py``)."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}

#: Helpers every family may use; they must not import a family back: the
#: shared subpackage and the version.
SHARED = {name.removeprefix("solvers.") for name in MODULES if name.startswith("solvers._engine")}
SHARED.add("_version")
#: Modules without Python source: the compiled core (known by its stub).
EXTENSIONS = {module_name(p) for p in PACKAGE.rglob("*.pyi")} - set(MODULES)


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that can run: at module level, in functions and
    classes, under any ``if`` or ``try``, but not under ``if TYPE_CHECKING:``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def resolve(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The modules of the package that ``node`` (in module ``name``) needs.

    ``from . import knights`` and ``from .knights import Tour`` need the
    module ``knights``; ``from . import __version__`` needs the package root
    (its attribute).  A package's ``__init__`` always runs before its
    submodules, so that alone is no edge: the root is an edge only where a
    name is taken from it.
    """
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in MODULES} - {name}
    if node.level:
        package = name.split(".")
        if MODULES[name].name != "__init__.py":
            package = package[:-1]
        base = ".".join(package[: len(package) - (node.level - 1)])
        stem = f"{base}.{node.module}" if node.module else base
    else:
        stem = node.module or ""
    if stem not in MODULES:
        return set()
    out = set()
    for alias in node.names:
        sub = f"{stem}.{alias.name}"
        if sub not in EXTENSIONS:
            out.add(sub if sub in MODULES else stem)
    return out - {name}


def graph() -> dict[str, set[str]]:
    edges = {}
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        edges[name] = set().union(*(resolve(name, n) for n in runtime_imports(tree)))
    return edges


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``edges`` as a list of modules, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_graph_sees_the_package():
    assert EXTENSIONS == {"solvers._core"}
    # at least these: a new family is found on disk, with no line to edit here
    assert {"knights", "nqueens", "peg"} <= FAMILIES
    assert {"_engine", "_engine._plan", "_engine._validate", "_version"} <= SHARED
    edges = graph()
    assert "solvers.knights" in edges and "solvers._engine._plan" in edges
    # the package root imports the families
    assert "solvers.knights" in edges["solvers"]
    assert "solvers._engine._plan" in edges["solvers.knights.count"]


def test_the_cycle_finder_finds_cycles():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set(), "c": {"a", "b"}}) is None
    # an import hidden in a function is an edge
    tree = ast.parse("def f():\n    from .. import knights\n")
    assert resolve("solvers._engine._draw", runtime_imports(tree)[0]) == {"solvers.knights"}
    # a name taken from the package root needs the root, which imports every family
    tree = ast.parse("def f():\n    from .. import __version__\n")
    assert resolve("solvers._engine._checkpoint", runtime_imports(tree)[0]) == {"solvers"}
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import peg\n")
    assert [n for n in runtime_imports(tree) if isinstance(n, ast.ImportFrom)][1:] == []


def test_no_import_cycle():
    cycle = find_cycle(graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_nothing_imports_the_front_door_back():
    edges = graph()
    importers = sorted(name for name, targets in edges.items() if "solvers.distributed" in targets)
    # only the package root, so that `import solvers` reaches `solvers.distributed`
    assert importers == ["solvers"]


@pytest.mark.parametrize("helper", sorted(SHARED))
def test_shared_helpers_import_no_family(helper):
    name = f"solvers.{helper}"
    assert name in MODULES, f"{name} is missing"
    edges = graph()
    seen, todo = set(), [name]
    while todo:  # what the helper imports, directly or through other modules
        for nxt in edges[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    families = sorted(f for f in seen if f.split(".")[1] in FAMILIES)
    assert families == [], f"{name} imports the families {families}"
    assert "solvers._families" not in seen
    assert "solvers.distributed" not in seen and not any(s.startswith("solvers.cli") for s in seen)


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_says_what_it_owns(name):
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    doc = ast.get_docstring(tree)
    assert doc and len(doc.split()) >= 5, f"{name} has no module docstring saying what it owns"


def private_reads(name: str, tree: ast.AST) -> list[str]:
    """``module._name`` reads in ``tree`` (module ``name``) of another module
    of the package imported by ``from ... import module``."""
    aliases = {}
    for node in runtime_imports(tree):
        if isinstance(node, ast.ImportFrom):
            for module in resolve(name, node):
                for alias in node.names:
                    if module.endswith("." + alias.name):
                        aliases[alias.asname or alias.name] = module
    return sorted(
        f"{node.value.id}.{node.attr} (line {node.lineno})"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in aliases
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
    )


def test_private_reads_are_seen():
    tree = ast.parse("from . import knights\ndef f():\n    return knights._board(1, 2)\n")
    assert private_reads("solvers.distributed", tree) == ["knights._board (line 3)"]
    tree = ast.parse("from . import _validate\n_validate.integer(1, 'n')\n")
    assert private_reads("solvers.peg", tree) == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_reads_the_privates_of_another(name):
    # `knights._board(...)` from another module: a name used across modules
    # is public (or lives in the shared helper that owns it).
    reads = private_reads(name, ast.parse(MODULES[name].read_text(encoding="utf-8")))
    assert reads == [], f"{name} reads privates of other modules: {reads}"


# ---------------------------------------------------------------- registered once


def test_every_family_is_registered_in_one_place():
    # the registry lists exactly the family subpackages on disk, each
    # described in its own subpackage
    from solvers._families import FAMILIES as REGISTERED

    assert sorted(f.name for f in REGISTERED) == sorted(FAMILIES)
    commands = [command for f in REGISTERED for command, _ in f.commands()]
    assert len(set(commands)) == len(commands)
    for family in REGISTERED:
        assert type(family).__module__ == "solvers._engine._family"
        for _, module in family.commands():
            assert module.startswith(f"solvers.{family.name}.")
        for split in family.splits:
            assert split.count.__module__.startswith(f"solvers.{family.name}.")
        for count in family.counts:
            assert count.__module__.startswith(f"solvers.{family.name}.")


def family_tokens() -> dict[str, str]:
    """The words that stand for a family in code, each with its family: the
    subpackage's name, its CLI command and its public counts."""
    from solvers._families import FAMILIES as REGISTERED

    tokens = {}
    for family in REGISTERED:
        tokens[family.name] = tokens[family.command] = family.name
        for count in family.counts:
            tokens[count.__name__] = family.name
    return tokens


def families_listed(node: ast.AST, tokens: dict[str, str]) -> set[str]:
    """The families a tuple, list, set or dict literal names (by a name, an
    attribute or a string)."""
    elements = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", [])
    values = node.values if isinstance(node, ast.Dict) else []
    named = set()
    for element in [*elements, *values]:
        if isinstance(element, ast.Name):
            word = element.id
        elif isinstance(element, ast.Attribute):
            word = element.attr
        elif isinstance(element, ast.Constant) and isinstance(element.value, str):
            word = element.value
        else:
            continue
        if word in tokens:
            named.add(tokens[word])
    return named


def test_the_family_list_finder_finds_lists():
    tokens = {"knights": "knights", "count_tours": "knights", "queens": "nqueens", "peg": "peg"}
    tree = ast.parse("X = (knights.count_tours, nqueens.count_queens)\nY = {'queens': q, 'peg': p}")
    found = [
        families_listed(n, tokens) for n in ast.walk(tree) if isinstance(n, ast.Tuple | ast.Dict)
    ]
    assert found == [{"knights"}, {"nqueens", "peg"}]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_other_module_lists_the_families(name):
    # Adding a family must not mean editing a list somewhere else: only the
    # registry holds a literal that names two families or more (the
    # re-exports of the package root's __all__ are the one other line).
    if name == "solvers._families":
        return
    tokens = family_tokens()
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    exports = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and [getattr(target, "id", None) for target in node.targets] == ["__all__"]
    }
    lists = [
        (node.lineno, sorted(named))
        for node in ast.walk(tree)
        if isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict)
        and id(node) not in exports
        and len(named := families_listed(node, tokens)) >= 2
    ]
    assert lists == [], f"{name} lists families (line, families): {lists}"


# ---------------------------------------------------------------- no family named


#: The modules outside the families that may name them: the package root (one
#: star-import of each family: what makes a family part of the package),
#: and the old paths of two peg modules, kept for one release.
NAMES_FAMILIES = {"solvers", "solvers.peg_games", "solvers.pegboard"}


def family_words() -> dict[str, str]:
    """The words that stand for one family alone, each with its family: its
    subpackage, its commands and every name it puts at the package root."""
    import importlib

    from solvers._families import FAMILIES as REGISTERED

    words = {}
    for family in REGISTERED:
        for word in (family.name, *(command for command, _ in family.commands())):
            words[word] = family.name
        for name in importlib.import_module(f"solvers.{family.name}").__all__:
            words[name] = family.name
    return words


def words_named(tree: ast.AST, words: dict[str, str]) -> set[tuple[int, str]]:
    """Where ``tree`` names a family: an identifier, an attribute, an import
    or a string equal to one of ``words`` (docstrings and comments aside)."""
    found = set()
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            word = node.id
        elif isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.alias):
            word = node.name.split(".")[-1]
        elif isinstance(node, ast.ImportFrom):
            word = (node.module or "").split(".")[0]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) in docstrings:
                continue
            word = node.value
        else:
            continue
        if word in words:
            found.add((getattr(node, "lineno", 0), word))
    return found


def test_the_word_finder_finds_families():
    words = {"knights": "knights", "count_queens": "nqueens", "peg": "peg"}
    text = '"""peg in a docstring"""\nfrom .knights import x\ny = count_queens(z)\nw = "peg"'
    tree = ast.parse(text)
    assert sorted(words_named(tree, words)) == [(2, "knights"), (3, "count_queens"), (4, "peg")]


@pytest.mark.parametrize(
    "name",
    sorted(n for n in MODULES if n.split(".")[1:2] == [] or n.split(".")[1] not in FAMILIES),
)
def test_no_shared_module_names_a_family(name):
    # Adding a family must not mean editing shared code: outside the family
    # subpackages only the package root names them (its imports of each api).
    if name in NAMES_FAMILIES:
        return
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    named = sorted(words_named(tree, family_words()))
    assert named == [], f"{name} names families (line, word): {named}"
