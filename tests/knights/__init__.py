"""The knight's-tour family's tests.  Each folder is a package so that its module
names need no family prefix; the shared oracles and helpers (``oracle.py``,
``hang.py``, ...) are imported from ``tests/`` itself."""
