"""A hero's three pools (Tělo, Duše, Vliv) and their maxima, shared by scenario participants and
campaign character files (re-exported by `scenario.models`)."""

from __future__ import annotations

from typing import Any

POOLS = ("telo", "duse", "vliv")


def pool_over_maximum(pools: Any, maxima: Any) -> tuple[str, int, int] | None:
    """The first pool above its given maximum (`max:`, hranice), as (pool, value, cap); None when
    every pool keeps within its maximum (participants and character files check it alike)."""
    for key in POOLS:
        cap = getattr(maxima, key)
        if cap is not None and getattr(pools, key) > cap:
            return key, getattr(pools, key), cap
    return None
