"""Knuth's DLX text format, read (:func:`parse`) and written (:func:`write`):
the input of his DLX1, DLX2 and SSXCC programs, so their files work here
unchanged.

* Lines whose first non-blank character is ``|``, or whose first non-blank
  characters are ``//`` (as in the files of the ``xcover`` package), are
  comments; blank lines are skipped, and so is a byte-order mark (U+FEFF)
  at the start of the text (a file saved by some Windows editors).
* The first other line names the items, separated by blanks: the primary
  ones, then optionally ``|`` and the secondary ones.  A primary item may
  carry bounds (DLX3's multiplicities, :mod:`solvers.cover.bounds`):
  ``a:b|name`` for between ``a`` and ``b`` options, ``b|name`` for exactly
  ``b``.
* Every later line is one option: its items, separated by blanks; a
  secondary item may carry a colour, ``item:colour``.  An entry ``|n`` (a
  nonnegative integer) adds ``n`` to the option's cost (DLX5's costs,
  :mod:`solvers.cover.costs`); an option without one costs 0.
* A name (of an item or a colour) is any run of non-blank characters
  without ``:`` or ``|``.

Text read well is read in one pass in Rust (:func:`read_numbered`: a
million options in well under a second); anything else goes through
:func:`parse`, which says what is wrong.

Malformed text is refused with a ``ValueError`` naming the line and column
(both from 1), and the name at fault, shortened to one readable line.

:func:`write` writes each item and colour by its ``str`` where that is a
valid name, not the name of another, and not starting with ``//``.  Any
other, such as the tuple ``("cell", 3, 4)``, is written under a name made
from it: a tuple's parts joined by ``_``, each run of characters a name
cannot hold turned into ``_`` (``cell_3_4``), then ``~2``, ``~3``, ... where
that name is taken.  The text then begins with ``|`` comment lines that
list each such name with the value it stands for.  Reading the text back
gives string items and the options in the same order: the same covers, by
the same option numbers.

>>> parse("| a comment\\na b | x\\na x:red\\nb x:red\\n")
([('a', ('x', 'red')), ('b', ('x', 'red'))], ['a', 'b'], ['x'], True, {}, None)
>>> parse("\\ufeff// an xcover comment\\na\\na\\n")
([('a',)], ['a'], [], False, {}, None)
>>> parse("a b\\na b |3 |4\\na\\nb |1\\n")[5]
[7, 0, 1]
>>> parse("2:3|a b\\na b\\na\\n")[4]
{'a': (2, 3)}
>>> parse("a b\\na c\\n")
Traceback (most recent call last):
...
ValueError: DLX text, line 2, column 3: unknown item 'c' (the item line is line 1)
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .. import _core
from .._engine import _packing, _validate
from .reading import MAX_ENTRIES

if TYPE_CHECKING:
    from .problem import ExactCover

__all__ = ["parse", "read_numbered", "write"]

#: A problem numbered: ``(starts, items, colours, palette)``.
Numbered = tuple["array[int]", "array[int]", "array[int]", tuple[str, ...]]

_TOKEN = re.compile(r"\S+")
_FORBIDDEN = re.compile(r"[:|]")
#: What a name cannot hold, in a name made for a value (:func:`write`).
_NOT_IN_NAMES = re.compile(r"[\s:|]+")
#: The byte-order mark some editors put at the start of a UTF-8 file.
_BOM = "\ufeff"


def _fail(line: int, column: int, why: str) -> ValueError:
    return ValueError(f"DLX text, line {line}, column {column}: {why}")


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines that are neither blank nor comments (``|`` or ``//``), with
    their numbers."""
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith(("|", "//")):
            yield number, line


def _tokens(line: str) -> Iterator[tuple[int, str]]:
    """The blank-separated words of ``line``, each with its column."""
    for match in _TOKEN.finditer(line):
        yield match.start() + 1, match.group()


def _name(token: str, line: int, column: int, what: str) -> str:
    """``token`` if it is a valid name, else the error at the bad character."""
    if not token:
        raise _fail(line, column, f"an empty {what} name")
    bad = _FORBIDDEN.search(token) if ":" in token or "|" in token else None
    if bad:
        raise _fail(
            line,
            column + bad.start(),
            f"{what} name {_validate.shown(token)} holds {bad.group()!r} (names hold neither "
            "':' nor '|')",
        )
    return token


_BOUNDS = re.compile(r"(?:(\d+):)?(\d+)\|")


def _header(line: int, text: str) -> tuple[list[str], list[str], dict[str, tuple[int, int]]]:
    """The primary and secondary items of the item line, and the primary
    items' bounds (``a:b|name``, ``b|name``) where given."""
    primary: list[str] = []
    secondary: list[str] = []
    bounds: dict[str, tuple[int, int]] = {}
    where: dict[str, int] = {}
    current = primary
    for column, token in _tokens(text):
        if token.startswith("|"):
            if current is secondary:
                raise _fail(line, column, "the item line holds '|' twice")
            current = secondary
            token, column = token[1:], column + 1
            if not token:
                continue
        limits = _BOUNDS.match(token)
        if limits is not None:
            if current is secondary:
                raise _fail(
                    line, column, "bounds on a secondary item (only primary items take them)"
                )
            most = int(limits.group(2))
            least = most if limits.group(1) is None else int(limits.group(1))
            if least > most:
                raise _fail(
                    line, column, f"the bounds {least}:{most} have the least above the most"
                )
            token, column = token[limits.end() :], column + limits.end()
            bounds[token] = (least, most)
        name = _name(token, line, column, "item")
        if name in where:
            raise _fail(line, column, f"the item {_validate.shown(name)} is listed twice (first "
                        f"at column {where[name]})")  # fmt: skip
        where[name] = column
        current.append(name)
    if not primary:
        raise _fail(line, 1, "no primary items (they come first on the item line, before '|')")
    return primary, secondary, bounds


def parse(
    text: str,
) -> tuple[
    list[tuple[Any, ...]], list[str], list[str], bool, dict[str, tuple[int, int]], list[int] | None
]:
    """``(options, primary, secondary, colored, bounds, costs)`` of DLX
    ``text``: the arguments of :class:`~solvers.ExactCover` (items and
    colours are strings; a coloured entry is ``(item, colour)``, and
    ``colored`` says whether any is; ``bounds`` holds the primary items'
    bounds given; ``costs`` each option's cost, ``None`` if none has one)."""
    if not isinstance(text, str):
        what = "decode it first" if isinstance(text, (bytes, bytearray)) else "the file's text"
        raise TypeError(f"DLX text must be a str ({what}), got {type(text).__name__}")
    lines = _lines(text[1:] if text.startswith(_BOM) else text)
    try:
        head, first = next(lines)
    except StopIteration:
        raise ValueError(
            "DLX text has no item line (its first line that is neither blank nor a "
            "comment, '|' or '//', names the items)"
        ) from None
    primary, secondary, bounds = _header(head, first)
    kinds = dict.fromkeys(primary, True) | dict.fromkeys(secondary, False)
    options: list[tuple[Any, ...]] = []
    costs: dict[int, int] = {}
    colored = False
    for line, content in lines:
        # The common line, plain items all known and distinct, is read in a
        # few calls; any other goes through _option, which says what is
        # wrong and where.
        if ":" not in content and "|" not in content:
            words = content.split()
            if (
                all(map(kinds.__contains__, words))
                and len(set(words)) == len(words)
                and any(map(kinds.__getitem__, words))
            ):
                options.append(tuple(words))
                continue
        entries, cost = _option(line, content, head, kinds)
        options.append(entries)
        if cost:
            costs[len(options) - 1] = cost
        colored = colored or any(isinstance(entry, tuple) for entry in entries)
    priced = [costs.get(k, 0) for k in range(len(options))] if costs else None
    return options, primary, secondary, colored, bounds, priced


def read_numbered(text: Any) -> tuple[tuple[str, ...], tuple[str, ...], Numbered] | None:
    """``(primary, secondary, (starts, items, colours, palette))`` of DLX
    ``text`` read in one pass in Rust (see
    :meth:`~solvers.ExactCover.arrays`), or ``None`` where :func:`parse`
    must read it: anything amiss, which it reports with the line and
    column, or text past ASCII.

    >>> primary, secondary, (starts, items, colours, palette) = read_numbered("a | x\\na x:red\\n")
    >>> primary, secondary, list(items), list(colours), palette
    (('a',), ('x',), [0, 1], [0, 1], ('red',))
    >>> read_numbered("a\\nb\\n") is None
    True
    """
    if not isinstance(text, str):
        return None
    fast = _core.read_dlx(text, MAX_ENTRIES)
    if fast is None:
        return None
    primary, secondary, starts, items, colours, palette = fast
    unpack = _packing.unpack
    numbered = (unpack(starts), unpack(items), unpack(colours), tuple(palette))
    return tuple(primary), tuple(secondary), numbered


def _option(
    line: int, content: str, head: int, kinds: dict[str, bool]
) -> tuple[tuple[Any, ...], int]:
    """The entries of the option on line ``line``, checked one by one (``kinds``:
    whether each item is primary), and its cost (the sum of its ``|n``)."""
    entries: list[Any] = []
    seen: set[str] = set()
    has_primary = False
    cost = 0
    for column, token in _tokens(content):
        if token.startswith("|"):
            if not token[1:].isdigit() or not token[1:].isascii():
                got = _validate.shown(token)
                raise _fail(line, column, f"a cost is '|' and a number, got {got}")
            cost += int(token[1:])
            continue
        name, colon, colour = token.partition(":")
        name = _name(name, line, column, "item")
        if name not in kinds:
            raise _fail(
                line,
                column,
                f"unknown item {_validate.shown(name)} (the item line is line {head})",
            )
        if name in seen:
            raise _fail(line, column, f"the item {_validate.shown(name)} is twice in this option")
        seen.add(name)
        has_primary = has_primary or kinds[name]
        if not colon:
            entries.append(name)
            continue
        if kinds[name]:
            raise _fail(
                line,
                column + len(name),
                f"the primary item {_validate.shown(name)} has a colour (only secondary items "
                "have colours)",
            )
        colour = _name(colour, line, column + len(name) + 1, "colour")
        entries.append((name, colour))
    if not has_primary:
        raise _fail(
            line,
            1,
            "this option has no primary item (every option must cover one; Knuth's "
            "programs skip such an option with a warning, this reader refuses it)",
        )
    return tuple(entries), cost


def _valid(text: str) -> bool:
    """Whether ``text`` can be written as a name that reads back as itself."""
    return (
        _TOKEN.fullmatch(text) is not None
        and _FORBIDDEN.search(text) is None
        and not text.startswith("//")
    )


def _str(value: Any) -> str | None:
    """``str(value)``, or ``None`` where its ``__str__`` fails."""
    try:
        return str(value)
    except Exception:  # noqa: BLE001 - a hostile __str__: the value gets a made name
        return None


def _flat(value: Any) -> str:
    """A name made from ``value``: a tuple's parts joined by ``_`` (nested
    tuples flattened), each run of characters a name cannot hold turned into
    ``_``; ``"item"`` where nothing is left."""
    if isinstance(value, tuple):
        text = "_".join(_flat(part) for part in value)
    else:
        text = _str(value) or ""
    text = _NOT_IN_NAMES.sub("_", text).strip("_").lstrip("/")
    return text or "item"


def _names(values: list[Any]) -> dict[Any, str]:
    """The name of each of ``values`` (distinct): its ``str`` where that is
    valid and not taken by an earlier value, else a name made from it."""
    names: dict[Any, str] = {}
    taken: set[str] = set()
    for value in values:
        text = _str(value)
        if text is not None and _valid(text) and text not in taken:
            names[value] = text
            taken.add(text)
    for value in values:
        if value in names:
            continue
        base = _flat(value)
        text, number = base, 1
        while text in taken:
            number += 1
            text = f"{base}~{number}"
        names[value] = text
        taken.add(text)
    return names


def _legend(kind: str, names: dict[Any, str]) -> list[str]:
    """The comment lines that list the values written under a made name."""
    made = [
        f"|   {name} = {_validate.shown(value)}"
        for value, name in names.items()
        if _str(value) != name
    ]
    if not made:
        return []
    return [f"| {kind} written under a name made from their value (name = value):", *made]


def _bounded(name: str, bound: Any) -> str:
    """An item's name on the item line, with its bounds (``a:b|``) if any."""
    if bound is None:
        return name
    if isinstance(bound, int):
        return f"{bound}|{name}"
    return f"{bound[0]}:{bound[1]}|{name}"


def write(problem: ExactCover) -> str:
    """``problem`` as DLX text: the item line, then one option per line.
    Items and colours are written by their ``str`` where that is a valid
    name, not another's; any other under a name made from it, listed in
    ``|`` comments at the top (see the module's text)."""
    items = _names(list(problem.items))
    colours = _names(list(problem._palette))  # the colours, in order of first use
    limits = problem.bounds
    head = " ".join(_bounded(items[item], limits.get(item)) for item in problem.primary)
    if problem.secondary:
        head += " | " + " ".join(items[item] for item in problem.secondary)
    lines = [*_legend("items", items), *_legend("colours", colours), head]
    costs = problem._costs
    for k in range(len(problem)):
        words = []
        for item, colour in problem.option(k):
            word = items[item]
            if colour is not None:
                word += ":" + colours[colour]
            words.append(word)
        if costs is not None and costs[k]:
            words.append(f"|{costs[k]}")
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"
