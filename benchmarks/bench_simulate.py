"""Throughput of `drd simulate` against a bare loop that only rolls the same dice.

    python benchmarks/bench_simulate.py [-n 3000] [--file FILE] [--workers W] [--limit 15]

The scenario (default: a 3-participant scenario with a joint test and a contest, every roll open)
is simulated n times in one process (`workers=1`) and with the process pool (all cores, or
`--workers`). The bare loop does only what the dice cost: per run a `random.Random(seed + i)` and
as many `randint(1, 6)` as one run of the scenario rolls (counted from a probe run). Prints
scenarios per second for each and the ratios simulate/bare: how much the engine costs over rolling
(issue #14's goal: ≤ ×15 in one process; exit 1 over `--limit`). Each timed simulate starts
without the memo of an earlier one, as a new `drd simulate` process does; the same runs without
the memo (`memo=False`, every run resolved in full) are timed too, and all results must agree.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

SCENARIO = (Path(__file__).resolve().parents[1] / "tests" / "data" / "prepad.yaml").read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=3000)
    ap.add_argument("--file", default=None)
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--limit", type=float, default=15.0, help="fail when simulate/bare (1 process) is over this")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from drd_cli import api
    from drd_cli.simulate import simulate

    with tempfile.TemporaryDirectory() as tmp:
        path = args.file
        if path is None:
            path = str(Path(tmp) / "prepad.yaml")
            Path(path).write_text(SCENARIO, encoding="utf-8")

        class Counting:
            name = "seeded"
            dice = 0

            def __init__(self) -> None:
                self._rng = random.Random(0)

            def roll(self, n: int, who: str, purpose: str) -> list[int]:
                Counting.dice += n
                return [self._rng.randint(1, 6) for _ in range(n)]

        api.resolve_scenario(api.load_scenario(path), dice=Counting(), seed=0)
        per_run = Counting.dice
        n = args.n

        t0 = time.perf_counter()
        total = 0
        for i in range(n):
            rng = random.Random(i)
            for _ in range(per_run):
                total += rng.randint(1, 6)
        bare = time.perf_counter() - t0

        from drd_cli import simulate as sim_mod

        def cold() -> None:
            """Forget the memo a previous run left (each `drd simulate` process starts without one)."""
            for prepared in sim_mod._PREPARED.values():
                prepared[4].clear()

        simulate(path, 50, workers=1)            # warm imports, as every real run pays them once
        cold()
        t0 = time.perf_counter()
        one = simulate(path, n, workers=1)
        single = time.perf_counter() - t0
        t0 = time.perf_counter()
        full = simulate(path, n, workers=1, memo=False)
        unmemo = time.perf_counter() - t0
        cold()
        t0 = time.perf_counter()
        # The pool itself, whatever simulate would choose for this n (it pools only from POOL_FROM runs).
        many = simulate(path, n, workers=args.workers or os.cpu_count() or 1)
        pooled = time.perf_counter() - t0
        assert one == many, "results must not depend on the worker count"
        assert one == full, "the memo must not change any result"

    cores = args.workers or os.cpu_count()
    ratio = single / bare
    print(f"scenario: {per_run} dice per run, {n} runs, {one['runs']} resolved")
    print(f"bare dice loop           : {n / bare:10,.0f} runs/s")
    print(f"simulate, 1 process      : {n / single:10,.0f} runs/s   (simulate/bare ×{ratio:.1f}; "
          f"goal ≤ ×{args.limit:g})")
    print(f"simulate, no memo        : {n / unmemo:10,.0f} runs/s   (simulate/bare ×{unmemo / bare:.1f})")
    print(f"simulate, {cores} workers     : {n / pooled:10,.0f} runs/s   (simulate/bare ×{pooled / bare:.1f}, "
          f"pool speed-up ×{single / pooled:.2f})")
    if ratio > args.limit:
        print(f"FAIL: simulate is ×{ratio:.1f} the bare loop, over ×{args.limit:g}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
