"""The installed release of solvers, as ``__version__``: owned here so that
modules needing it (the checkpoint ledger, the CLI) read it without importing
the package root, which imports every family.

>>> isinstance(__version__, str)
True
"""

from importlib.metadata import PackageNotFoundError, version

__all__ = ["__version__"]

try:
    __version__: str = version("solvers")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"
