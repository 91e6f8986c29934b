"""The old name of `drd_cli.odds.whatif` (kept for code that imports it): what-if odds of a step."""

from .odds.whatif import what_if, what_if_lines  # noqa: F401
