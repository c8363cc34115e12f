"""Knuth's DLX text format, read (:func:`parse`) and written (:func:`write`):
the input of his DLX1, DLX2 and SSXCC programs, so their files work here
unchanged.

* Lines whose first non-blank character is ``|`` are comments; blank lines
  are skipped.
* The first other line names the items, separated by blanks: the primary
  ones, then optionally ``|`` and the secondary ones.
* Every later line is one option: its items, separated by blanks; a
  secondary item may carry a colour, ``item:colour``.
* A name (of an item or a colour) is any run of non-blank characters
  without ``:`` or ``|``.

Malformed text is refused with a ``ValueError`` naming the line and column
(both from 1).

>>> parse("| a comment\\na b | x\\na x:red\\nb x:red\\n")
([('a', ('x', 'red')), ('b', ('x', 'red'))], ['a', 'b'], ['x'], True)
>>> parse("a b\\na c\\n")
Traceback (most recent call last):
...
ValueError: DLX text, line 2, column 3: unknown item 'c' (the item line is line 1)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .problem import ExactCover

__all__ = ["parse", "write"]

_TOKEN = re.compile(r"\S+")
_FORBIDDEN = re.compile(r"[:|]")


def _fail(line: int, column: int, why: str) -> ValueError:
    return ValueError(f"DLX text, line {line}, column {column}: {why}")


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines that are neither blank nor comments, with their numbers."""
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        if stripped and not stripped.startswith("|"):
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
            f"{what} name {token!r} holds {bad.group()!r} (names hold neither ':' nor '|')",
        )
    return token


def _header(line: int, text: str) -> tuple[list[str], list[str]]:
    """The primary and secondary items of the item line."""
    primary: list[str] = []
    secondary: list[str] = []
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
        name = _name(token, line, column, "item")
        if name in where:
            raise _fail(line, column, f"the item {name!r} is listed twice (first at column "
                        f"{where[name]})")  # fmt: skip
        where[name] = column
        current.append(name)
    if not primary:
        raise _fail(line, 1, "no primary items (they come first on the item line, before '|')")
    return primary, secondary


def parse(text: str) -> tuple[list[tuple[Any, ...]], list[str], list[str], bool]:
    """``(options, primary, secondary, colored)`` of DLX ``text``: the
    arguments of :class:`~solvers.ExactCover` (items and colours are strings;
    a coloured entry is ``(item, colour)``, and ``colored`` says whether any is)."""
    if not isinstance(text, str):
        what = "decode it first" if isinstance(text, (bytes, bytearray)) else "the file's text"
        raise TypeError(f"DLX text must be a str ({what}), got {type(text).__name__}")
    lines = _lines(text)
    try:
        head, first = next(lines)
    except StopIteration:
        raise ValueError(
            "DLX text has no item line (its first line that is neither blank nor a "
            "'|' comment names the items)"
        ) from None
    primary, secondary = _header(head, first)
    kinds = dict.fromkeys(primary, True) | dict.fromkeys(secondary, False)
    options: list[tuple[Any, ...]] = []
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
        options.append(_option(line, content, head, kinds))
        colored = colored or any(isinstance(entry, tuple) for entry in options[-1])
    return options, primary, secondary, colored


def _option(line: int, content: str, head: int, kinds: dict[str, bool]) -> tuple[Any, ...]:
    """The entries of the option on line ``line``, checked one by one (``kinds``:
    whether each item is primary)."""
    entries: list[Any] = []
    seen: set[str] = set()
    has_primary = False
    for column, token in _tokens(content):
        name, colon, colour = token.partition(":")
        name = _name(name, line, column, "item")
        if name not in kinds:
            raise _fail(line, column, f"unknown item {name!r} (the item line is line {head})")
        if name in seen:
            raise _fail(line, column, f"the item {name!r} is twice in this option")
        seen.add(name)
        has_primary = has_primary or kinds[name]
        if not colon:
            entries.append(name)
            continue
        if kinds[name]:
            raise _fail(
                line,
                column + len(name),
                f"the primary item {name!r} has a colour (only secondary items have colours)",
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
    return tuple(entries)


def _written(value: Any, what: str, names: dict[str, Any]) -> str:
    """``str(value)`` if it is a valid name not already written for another value."""
    text = str(value)
    if not text or _TOKEN.fullmatch(text) is None or _FORBIDDEN.search(text):
        raise ValueError(
            f"the {what} {value!r} cannot be written as DLX text: its str {text!r} must be "
            "a non-empty run of non-blank characters without ':' or '|'"
        )
    other = names.setdefault(text, value)
    if other != value:
        raise ValueError(
            f"the {what}s {other!r} and {value!r} are both written {text!r} in DLX text"
        )
    return text


def write(problem: ExactCover) -> str:
    """``problem`` as DLX text: the item line, then one option per line.
    Items and colours are written by their ``str``, which must be a valid
    name (``ValueError`` saying which is not)."""
    items: dict[str, Any] = {}
    colours: dict[str, Any] = {}
    head = " ".join(_written(item, "item", items) for item in problem.primary)
    if problem.secondary:
        head += " | " + " ".join(_written(item, "item", items) for item in problem.secondary)
    lines = [head]
    for k in range(len(problem)):
        words = []
        for item, colour in problem.option(k):
            word = _written(item, "item", items)
            if colour is not None:
                word += ":" + _written(colour, "colour", colours)
            words.append(word)
        lines.append(" ".join(words))
    return "\n".join(lines) + "\n"
