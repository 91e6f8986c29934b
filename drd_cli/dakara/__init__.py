"""Dakara skill use (RULES.md §4, SK-1..SK-9): 1k6 + skill against 1k6 + difficulty.

`rules` is the pure arithmetic, `odds` the exact distributions, `models` the scenario schema
(`system: dakara`), `engine` resolves a whole scenario into the result contract.
Nothing here is imported at package import time (CLI startup speed).
"""
