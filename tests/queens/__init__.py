"""The N-Queens family's tests (a package: see ``tests/knights/__init__.py``)."""
