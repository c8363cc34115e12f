"""The peg-solitaire family's tests (a package: see ``tests/knights/__init__.py``)."""
