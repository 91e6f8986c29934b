"""`drd odds FILE STEP` with 4, 6 and 9 open rollers against `drd resolve` of the same file (#14).

    python benchmarks/bench_odds.py [--runs 5] [--no-cli] [--what-if]

Rows (issue #14's goals): the whole command `drd odds FILE boj` over the whole command
`drd resolve FILE`, medians of `--runs` interleaved runs of each, for a contest with 4 open
rollers (goal ≤ ×1.3), 6 (≤ ×6) and 9 (≤ ×6), and the peak memory of the odds command (≤ 300 MB,
the child's own maximum resident set). Before them, in process: `odds.step_odds` of each step
(exact or estimate, classes, resolutions, samples) against one `api.resolve_scenario`. With
`--what-if`, the command with `--what-if` as well (no goal of its own: the odds goals per run).
Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
ROWS = [("ctyri-ve-stretu.yaml", 4, 1.3), ("sest-ve-stretu.yaml", 6, 6.0), ("devet-ve-stretu.yaml", 9, 6.0)]
MEMORY_MB = 300


def best(fn, runs: int) -> float:
    out = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one child process (its own rusage, via wait4)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}")
    return wall, usage.ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-cli", action="store_true", help="skip the subprocess timings")
    ap.add_argument("--what-if", action="store_true", help="time `--what-if` too")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from drd_cli import api, odds

    print("in process (best of runs):")
    for name, rollers, _goal in ROWS:
        path = str(DATA / name)
        loaded = api.load_scenario(path)
        r = odds.step_odds(loaded, "boj")      # warm imports and caches
        t_odds = best(lambda: odds.step_odds(loaded, "boj"), max(1, args.runs // 2))
        t_res = best(lambda: api.resolve_scenario(loaded), args.runs)
        how = (f"exact, {r['classes']} classes, {r['resolutions']} resolutions" if r["exact"] else
               f"ESTIMATE, {r['samples']} samples, {r['resolutions']} resolutions")
        print(f"  {rollers} rollers: {r['combinations']:.3g} combinations, {how}; "
              f"odds {t_odds * 1000:7.1f} ms, one resolve {t_res * 1000:5.1f} ms")
    if args.no_cli:
        return 0
    drd = [sys.executable, "-c", "from drd_cli.cli.app import main; main()"]
    failed = False
    print(f"\nwhole commands (median of {args.runs} interleaved runs):")
    print(f"  {'rollers':>7} {'odds s':>8} {'resolve s':>9} {'ratio':>7} {'goal':>6} {'peak MB':>8}")
    for name, rollers, goal in ROWS:
        path = str(DATA / name)
        t_odds, t_res, t_wif, mem = [], [], [], 0.0
        for _ in range(args.runs):
            w, m = timed(drd + ["odds", path, "boj"])
            t_odds.append(w)
            mem = max(mem, m)
            t_res.append(timed(drd + ["resolve", path])[0])
            if args.what_if:
                w, m = timed(drd + ["odds", path, "boj", "--what-if"])
                t_wif.append(w)
        o, res = statistics.median(t_odds), statistics.median(t_res)
        ok = o / res <= goal and mem <= MEMORY_MB
        failed |= not ok
        line = (f"  {rollers:>7} {o:8.2f} {res:9.2f} {o / res:6.2f}× {goal:5.1f}× {mem:8.0f}"
                f"  {'ok' if ok else 'OVER'}")
        if t_wif:
            line += f"   --what-if {statistics.median(t_wif):.2f} s ({statistics.median(t_wif) / res:.2f}×)"
        print(line)
    if failed:
        print(f"FAIL: a row is over its goal (time ratio, or peak memory over {MEMORY_MB} MB)")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
