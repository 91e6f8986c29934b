"""`python -m drd_cli.abilities docs|po|manifest` (drd_cli/abilities/docs.py)."""

import sys

from .docs import _main

raise SystemExit(_main(sys.argv[1:]))
