"""The tests of what the families share (``solvers._engine``: checkpoints,
spilling, memory, cancelling, workers, executors, progress, keywords, messages,
pictures and animations), across every family (a package: see
``tests/knights/__init__.py``)."""
