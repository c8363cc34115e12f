"""``python -m solvers`` runs the command-line interface."""

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the package is imported: no traceback
    print("solvers: interrupted", file=sys.stderr)
    raise SystemExit(130) from None

raise SystemExit(main())
