"""`drd odds FILE STEP` of one actor against 3, 5, 8, 11 and 19 open counters, against `drd resolve`.

    python benchmarks/bench_odds.py [--runs 5] [--no-cli] [--classes]

Rows (issue #26's goals): the whole command `drd odds FILE boj` over the whole command
`drd resolve FILE` for `tests/data/jeden-proti-N.yaml` (one actor against N harming counters,
every roll open: 4, 6, 9, 12 and 20 rollers), medians of `--runs` interleaved runs of each: exact,
at most ×1.5, and the odds command's peak memory (the child's own maximum resident set) under
150 MB. Then, in process, one what-if option (the actor's přesně) of the 9-roller step, the model
of the step already learnt, against the median `drd resolve` process: under 5 %. `--classes` also
times the class method (`fast_method=False`) in process where it can answer, for comparison.
Exits 1 when a goal is missed. The machine the numbers in benchmarks/README.md come from is
shared: read the ratios, not the seconds.
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
COUNTERS = (3, 5, 8, 11, 19)
RATIO, MEMORY_MB, WHAT_IF_SHARE = 1.5, 150, 0.05


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak resident MB of one child process (its own rusage, via wait4)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed")
    return wall, usage.ru_maxrss / 1024


def best(fn, runs: int) -> float:
    out = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def in_process(runs: int, classes: bool) -> None:
    from drd_cli import api
    from drd_cli.odds.step import StepPrep, odds_for

    print("in process (best of runs):")
    for n in COUNTERS:
        loaded = api.load_scenario(str(DATA / f"jeden-proti-{n}.yaml"))
        r = odds_for(StepPrep(loaded, "boj"), "accept", time_limit=None)
        t = best(lambda: odds_for(StepPrep(loaded, "boj"), "accept", time_limit=None), runs)
        line = (f"  {n + 1:>2} rollers: {r['method']}, exact {r['exact']}, {r['resolutions']} resolutions, "
                f"{t * 1000:7.1f} ms")
        if classes:
            c = odds_for(StepPrep(loaded, "boj"), "accept", fast_method=False, time_limit=10.0)
            tc = best(lambda: odds_for(StepPrep(loaded, "boj"), "accept", fast_method=False, time_limit=10.0), 1)
            line += f"; class method: {c['method']}, {tc * 1000:.0f} ms"
        print(line)


def what_if_option(runs: int) -> float:
    """Seconds of one what-if option (the actor's přesně) of the 9-roller step, in process, once
    the step's own odds are known (the model is reused and checked, `odds.step._fast`)."""
    from drd_cli import api
    from drd_cli.odds.step import StepPrep, odds_for
    from drd_cli.odds.whatif import _with_presne

    loaded = api.load_scenario(str(DATA / "jeden-proti-8.yaml"))
    prep = StepPrep(loaded, "boj")
    odds_for(prep, "accept", time_limit=None)
    variant = _with_presne(prep.step, prep.step.contest.action)
    r = odds_for(prep, "accept", step=variant, time_limit=None)
    assert r["exact"] and r["method"] == "independent", r["method"]
    return best(lambda: odds_for(prep, "accept", step=variant, time_limit=None), runs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--no-cli", action="store_true", help="skip the subprocess timings")
    ap.add_argument("--classes", action="store_true", help="also time the class method in process")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    if args.no_cli:
        in_process(max(1, args.runs // 2), args.classes)
        print(f"  one what-if option of the 9-roller step: {what_if_option(args.runs) * 1000:.1f} ms")
        return 0
    # The commands first: a child's peak memory (wait4) counts the parent it was forked from, so
    # the parent must not have grown by the in-process part yet.
    drd = [sys.executable, "-c", "from drd_cli.cli.app import main; main()"]
    failed = False
    all_res: list[float] = []
    print(f"\nwhole commands (median of {args.runs} interleaved runs):")
    print(f"  {'rollers':>7} {'odds s':>8} {'resolve s':>9} {'ratio':>7} {'goal':>6} {'peak MB':>8}")
    for n in COUNTERS:
        path = str(DATA / f"jeden-proti-{n}.yaml")
        t_odds, t_res, mem = [], [], 0.0
        for _ in range(args.runs):
            w, m = timed(drd + ["odds", path, "boj"])
            t_odds.append(w)
            mem = max(mem, m)
            t_res.append(timed(drd + ["resolve", path])[0])
        o, res = statistics.median(t_odds), statistics.median(t_res)
        all_res += t_res
        ok = o / res <= RATIO and mem < MEMORY_MB
        failed |= not ok
        print(f"  {n + 1:>7} {o:8.2f} {res:9.2f} {o / res:6.2f}× {RATIO:5.1f}× {mem:8.0f}  {'ok' if ok else 'OVER'}")
    print()
    in_process(max(1, args.runs // 2), args.classes)
    option = what_if_option(args.runs)
    share = option / statistics.median(all_res)
    ok = share < WHAT_IF_SHARE
    failed |= not ok
    print(f"  what-if option of 9 rollers: {option * 1000:.1f} ms = {share * 100:.1f} % of a resolve process "
          f"(goal < {WHAT_IF_SHARE * 100:.0f} %)  {'ok' if ok else 'OVER'}")
    if failed:
        print(f"FAIL: a row is over its goal (×{RATIO}, {MEMORY_MB} MB, {WHAT_IF_SHARE * 100:.0f} %)")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
