"""How long `drd --version` takes to start, against a bare `python -c pass`.

    python benchmarks/bench_startup.py [--runs 10] [--limit RATIO]

Both commands run `--runs` times; the best times are compared as a ratio (startup cost of the CLI's
imports over the interpreter's own). With `--limit`, exits 1 when the ratio exceeds it.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path


def best_of(cmd: list[str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed (exit {proc.returncode}): {proc.stderr.decode()[-500:]}")
        best = min(best, elapsed)
    return best


def drd_command() -> list[str]:
    """The `drd` script next to this interpreter, else on PATH, else `python -m drd_cli`."""
    here = Path(sys.executable).parent / ("drd.exe" if os.name == "nt" else "drd")
    if here.exists():
        return [str(here)]
    found = shutil.which("drd")
    if found:
        return [found]
    return [sys.executable, "-m", "drd_cli"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--limit", type=float, default=None, help="fail when drd/python exceeds this ratio")
    args = ap.parse_args(argv)
    drd = drd_command() + ["--version"]
    python = best_of([sys.executable, "-c", "pass"], args.runs)
    cli = best_of(drd, args.runs)
    ratio = cli / python
    print(f"python -c pass : {python * 1000:7.1f} ms")
    print(f"{' '.join(Path(drd[0]).name if i == 0 else x for i, x in enumerate(drd)):<15}: {cli * 1000:7.1f} ms")
    print(f"ratio          : {ratio:7.2f}× (best of {args.runs})")
    if args.limit is not None and ratio > args.limit:
        print(f"FAIL: over the limit ×{args.limit}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
