"""The ways a count can be made, as small objects: a :class:`Method` says which
optional keywords it takes; :func:`pick` resolves ``method="auto"`` and
:func:`refuse` is the one rule that turns away a keyword a method does not
take, in the same words for every family.  Each family lists its methods in
its own subpackage; this module names none.

The run options (:data:`solvers._engine._run.NAMES`) are the keywords a
method may take: ``threads``, ``progress`` and ``timeout`` (:data:`BASIC`)
every count takes, so a method lists only which of :data:`OPTIONS` it
takes; a finder or lister says its :data:`BASIC` ones too.

>>> search = Method("search", SPLITS)
>>> frontier = Method("frontier", frozenset({"executor", "checkpoint", "memory", "spill"}),
...                   not_together=(frozenset({"executor", "memory"}),))
>>> pick("count_tours", (search, frontier), "auto", given(memory="1MiB")).name
'frontier'
>>> pick("count_tours", (search, frontier), "search", given(memory="1MiB"))
Traceback (most recent call last):
...
ValueError: count_tours(method='search') does not take memory= (it takes: executor, checkpoint); the methods that take memory=: frontier
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import _validate

__all__ = ["BASIC", "OPTIONS", "SPLITS", "Method", "given", "names", "pick", "refuse"]

#: The run options every count takes.
BASIC: tuple[str, ...] = ("threads", "progress", "timeout")

#: The optional keywords a method may or may not take, in the order they are
#: listed in messages.
OPTIONS: tuple[str, ...] = ("executor", "parts", "checkpoint", "memory", "spill")

#: What a method takes that splits its count into subproblems: an executor
#: shares them out, a checkpoint records each one finished.
SPLITS: frozenset[str] = frozenset({"executor", "checkpoint"})

#: Keywords that mean nothing without another one: ``parts`` cuts the layers
#: an executor counts.
_NEEDS: dict[str, str] = {"parts": "executor"}


@dataclass(frozen=True)
class Method:
    """One way to count: its ``name`` (the ``method=`` value), the optional
    keywords it ``takes`` (among :data:`OPTIONS`), the pairs of them it does
    ``not_together``, and a one-line ``summary`` for docs and help."""

    name: str
    takes: frozenset[str]
    not_together: tuple[frozenset[str], ...] = ()
    summary: str = ""
    basic: frozenset[str] = frozenset(BASIC)

    def __post_init__(self) -> None:
        unknown = self.takes.difference(OPTIONS) | self.basic.difference(BASIC)
        if unknown:
            raise ValueError(f"method {self.name!r} takes unknown keywords {sorted(unknown)}")

    @property
    def run_options(self) -> frozenset[str]:
        """Every run option this method takes."""
        return self.takes | self.basic

    def takes_all(self, keywords: frozenset[str]) -> bool:
        """Whether ``keywords`` (given together) are all this method's."""
        return keywords <= self.run_options and not any(
            pair <= keywords for pair in self.not_together
        )


def given(**options: Any) -> frozenset[str]:
    """The names of the optional keywords given (not ``None``; nor
    ``False``: ``spill=False``, no files, asks nothing of a method, which
    then never spills, so every method takes it)."""
    return frozenset(
        name for name, value in options.items() if value is not None and value is not False
    )


def names(methods: Iterable[Method]) -> tuple[str, ...]:
    """The ``method=`` values of ``methods``, with ``"auto"`` first."""
    return ("auto", *(m.name for m in methods))


def _listed(keywords: Iterable[str]) -> str:
    ordered = [k for k in OPTIONS if k in set(keywords)]
    return ", ".join(ordered) if ordered else "none of them"


def _listed_all(method: Method) -> str:
    """What ``method`` takes: its optional keywords, and its basic ones
    where it lacks one of them (a finder, a lister)."""
    if method.basic == frozenset(BASIC):
        return _listed(method.takes)
    ordered = [k for k in (*BASIC, *OPTIONS) if k in method.run_options]
    return ", ".join(ordered) if ordered else "none of them"


def refuse(
    function: str, method: Method, methods: Sequence[Method], keywords: frozenset[str]
) -> None:
    """``ValueError`` in the common words if ``method`` does not take every
    keyword of ``keywords``, or takes two of them but not together, or one
    of them needs another that is missing.  A function of one method (no
    ``method=`` to choose) is named alone."""
    who = function if len(methods) == 1 else f"{function}(method={method.name!r})"
    for keyword in (*BASIC, *OPTIONS):
        if keyword in keywords and keyword not in method.run_options:
            others = [m.name for m in methods if keyword in m.run_options]
            where = (
                ""
                if len(methods) == 1
                else f"; the methods that take {keyword}=: {', '.join(others)}"
                if others
                else f"; no method of {function} takes {keyword}="
            )
            raise ValueError(
                f"{who} does not take {keyword}= (it takes: {_listed_all(method)}){where}"
            )
    for pair in method.not_together:
        if pair <= keywords:
            first, second = (k for k in OPTIONS if k in pair)
            raise ValueError(f"{who} does not take {first}= and {second}= together")
    for keyword, needed in _NEEDS.items():
        if keyword in keywords and needed not in keywords:
            raise ValueError(f"{who} takes {keyword}= only with {needed}=")


def pick(
    function: str,
    methods: Sequence[Method],
    method: Any,
    keywords: frozenset[str],
    preferred: Sequence[str] | None = None,
) -> Method:
    """The method ``method`` names (checked against ``methods``), or for
    ``"auto"`` the first of ``preferred`` (method names, the family's order
    for the problem at hand; default: the order of ``methods``) that takes
    every keyword given; then :func:`refuse` checks what was given."""
    by_name = {m.name: m for m in methods}
    name = _validate.choice(method, "method", names(methods))
    if name == "auto":
        order = [by_name[n] for n in preferred] if preferred is not None else list(methods)
        chosen = next((m for m in order if m.takes_all(keywords)), order[0])
    else:
        chosen = by_name[name]
    refuse(function, chosen, methods, keywords)
    return chosen
