"""How a call runs, said once: :class:`RunOptions` (``threads``,
``progress``, ``timeout``, ``executor``, ``parts``, ``checkpoint``,
``memory``, ``spill``), validated when it is made, and :class:`RunKeywords`,
the same options as keywords.  Every count, lister and finder of the
package takes them as ``**run`` (or a ready ``options=RunOptions(...)``,
the keywords given beside it winning), so each keyword has one meaning, one
check and one message everywhere; what a function or method does not take
it refuses in the one message of :func:`solvers._engine._methods.refuse`.

:meth:`RunOptions.core` hands the options to the Rust core as one
``_core.RunOptions``, where ``memory="auto"`` is resolved (half of the
memory available when the work starts).

>>> sorted(RunOptions(threads=2, timeout=5).given())
['threads', 'timeout']
>>> RunOptions.of("count_queens", {"threads": 2, "options": RunOptions(timeout=1)})
RunOptions(threads=2, timeout=1)
>>> RunOptions.of("count_queens", {"thread": 2})
Traceback (most recent call last):
...
TypeError: count_queens() got an unexpected keyword argument 'thread' (its run options: options, threads, progress, timeout, executor, parts, checkpoint, memory, spill)
"""  # noqa: E501

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from .. import _core
from . import _args, _methods, _validate

__all__ = ["FINDING", "LISTING", "NAMES", "RunKeywords", "RunOptions", "core", "taken"]

#: The run options, in the order messages list them.
NAMES: tuple[str, ...] = (*_methods.BASIC, *_methods.OPTIONS)


class RunKeywords(TypedDict, total=False):
    """The run options as keywords (``**run`` in every count, lister and
    finder), with ``options``: a :class:`RunOptions` to start from."""

    options: RunOptions
    threads: int | None
    progress: bool
    timeout: float | None
    executor: Executor | None
    parts: int | None
    checkpoint: str | os.PathLike[str] | None
    memory: int | str | None
    spill: str | os.PathLike[str] | Literal[False] | None


@dataclass(frozen=True)
class RunOptions:
    """How a call runs; every field means the same in every function:

    * ``threads``: threads of the Rust search (``None``: one per core);
      the answer never depends on it.
    * ``progress``: ``True`` draws a bar on stderr (tqdm where installed).
    * ``timeout``: seconds before ``TimeoutError`` (``None``: no limit).
    * ``executor``: a :class:`concurrent.futures.Executor` (a process pool,
      a Dask client's ``get_executor()``) that runs the call's tasks.
    * ``parts``: with ``executor``, the partitions of each layer of a
      layered DP (``None``: one per worker where the executor tells, else 8).
    * ``checkpoint``: a directory (made if missing) that keeps what is
      finished, so a rerun of the same call goes on from there.
    * ``memory``: the budget of a layered count in this process: bytes, a
      size such as ``"4GB"``, or ``"auto"`` (half of the memory available;
      also what no ``memory`` means), past which layers go through files.
    * ``spill``: the directory of those files (``None``: the system's
      temporary directory), or ``False``: no files, every layer in memory.

    Made once and passed as ``options=`` to as many calls as wanted::

        >>> import solvers
        >>> fast = solvers.RunOptions(threads=2, timeout=60)
        >>> solvers.count_queens(8, options=fast), solvers.count_tours(5, 5, options=fast)
        (92, 304)
    """

    threads: int | None = None
    progress: bool = False
    timeout: float | None = None
    executor: Executor | None = None
    parts: int | None = None
    checkpoint: str | os.PathLike[str] | None = None
    memory: int | str | None = None
    spill: str | os.PathLike[str] | Literal[False] | None = None

    def __post_init__(self) -> None:
        _validate.threads(self.threads)
        _validate.flag(self.progress, "progress")
        _validate.timeout(self.timeout)
        if self.executor is not None:
            _args.check_executor(self.executor)
        if self.parts is not None:
            _validate.positive(self.parts, "parts")
        if self.checkpoint is not None:
            _args.checkpoint_text(self.checkpoint)
        if self.memory is not None and not _is_auto(self.memory):
            _validate.memory(self.memory)
        _args.spill_directory(self.spill)
        if self.spill is False and self.memory is not None:
            raise ValueError(
                "spill=False keeps every layer in memory with no budget: not with memory="
            )

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in NAMES
            if getattr(self, name) != _DEFAULTS[name]
        )
        return f"RunOptions({shown})"

    @classmethod
    def of(cls, function: str, run: Mapping[str, Any]) -> RunOptions:
        """The options of a call to ``function`` given ``**run``: those of
        ``run["options"]`` (if given), replaced by the keywords beside it."""
        unknown = [key for key in run if key != "options" and key not in NAMES]
        if unknown:
            raise TypeError(
                f"{function}() got an unexpected keyword argument {unknown[0]!r} "
                f"(its run options: options, {', '.join(NAMES)})"
            )
        base = run.get("options")
        if base is None:
            base = _PLAIN
        elif not isinstance(base, RunOptions):
            raise TypeError(f"options must be a solvers.RunOptions, got {type(base).__name__}")
        given = {key: value for key, value in run.items() if key != "options"}
        if not given:
            return base
        # Options built from the defaults need no copy of them (a call made
        # in a loop pays for this on every call).
        return cls(**given) if base is _PLAIN else dataclasses.replace(base, **given)

    def given(self) -> frozenset[str]:
        """The options set to something other than their default (``spill=False``
        and ``progress=False`` ask nothing of a method, so are not counted)."""
        return frozenset(
            name
            for name in NAMES
            if getattr(self, name) is not None and getattr(self, name) is not False
        )

    def without(self, *names: str) -> RunOptions:
        """These options with ``names`` back at their defaults (what a part
        of the call has used up, such as a plan's budget once it is built)."""
        return dataclasses.replace(self, **{name: _DEFAULTS[name] for name in names})

    @property
    def workers(self) -> int:
        """``threads`` for the core (0: one per core)."""
        return _validate.threads(self.threads)

    def memory_asked(self) -> int | str | None:
        """What the core's ``memory`` is: bytes, ``"auto"`` (asked), ``"default"``
        (none given) or ``None`` (``spill=False``: no budget)."""
        if self.spill is False:
            return None
        if self.memory is None:
            return "default"
        if _is_auto(self.memory):
            return "auto"
        return _validate.memory(self.memory)

    def core(
        self, bar: Any = None, *, timeout: float | None = None, threads: int | None = None
    ) -> Any:
        """The options as the core takes them: ``bar`` (the call's progress
        callback), ``timeout`` (the seconds left, where the call's clock has
        run; else the option's) and ``threads`` (a task's share)."""
        return core(
            self.workers if threads is None else threads,
            _validate.timeout(self.timeout) if timeout is None else timeout,
            bar,
            memory=self.memory_asked(),
            spill=_args.spill_directory(self.spill),
            checkpoint=None if self.checkpoint is None else os.fspath(self.checkpoint),
        )


def _is_auto(memory: Any) -> bool:
    return isinstance(memory, str) and memory.strip().lower() == "auto"


_PLAIN = RunOptions()
_DEFAULTS: dict[str, Any] = {field.name: field.default for field in dataclasses.fields(RunOptions)}


def core(
    threads: int = 0,
    timeout: float | None = None,
    bar: Any = None,
    *,
    memory: int | str | None = None,
    spill: str | None = None,
    checkpoint: str | None = None,
) -> Any:
    """Core options for work a call has already set up (a task's share of
    threads, the seconds left; ``memory`` as :meth:`RunOptions.memory_asked`
    says it, ``spill`` and ``checkpoint`` checked directories)."""
    return _core.RunOptions(threads, bar, timeout, memory, spill, checkpoint)


#: What every finder takes of the run options: ``threads`` and ``timeout``
#: (its ``deterministic=`` says whether the answer may depend on ``threads``).
FINDING = _methods.Method(
    "find", frozenset(), basic=frozenset({"threads", "timeout"}), summary="one solution"
)

#: What every lister takes of the run options: ``threads`` (the list is the
#: same for every value: one thread produces it, in the documented order)
#: and ``timeout``.
LISTING = _methods.Method(
    "stream", frozenset(), basic=frozenset({"threads", "timeout"}), summary="a lazy listing"
)


def taken(function: str, verb: _methods.Method, run: Mapping[str, Any]) -> RunOptions:
    """The run options of a call to ``function`` (a finder or lister: one
    way to run, ``verb``), what it does not take refused in the one message."""
    options = RunOptions.of(function, run)
    _methods.refuse(function, verb, (verb,), options.given())
    return options
