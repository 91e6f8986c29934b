"""How long `drd odds FILE STEP` takes for a contest with 4 open rollers, against one `resolve`.

    python benchmarks/bench_odds.py [--runs 5] [--limit-ms 100] [--no-cli]

In-process: the best of `--runs` of `odds.step_odds` (rules setup, resolving up to the step,
enumerating 36^4 dice combinations in classes, resolving each class once) against the best of
`api.resolve_scenario` of the same file (rules setup and one resolution). Then the same two as
commands (`drd odds FILE STEP` and `drd resolve FILE`, wall time including interpreter start and
loading). Prints times and ratios; with `--limit-ms`, exits 1 when the in-process odds time is over it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCENARIO = (Path(__file__).resolve().parents[1] / "tests" / "data" / "ctyri-ve-stretu.yaml").read_text(encoding="utf-8")


def best(fn, runs: int) -> float:
    out = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t0)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--limit-ms", type=float, default=None)
    ap.add_argument("--no-cli", action="store_true", help="skip the subprocess timings")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from drd_cli import api, odds

    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "c4.yaml")
        Path(path).write_text(SCENARIO, encoding="utf-8")
        loaded = api.load_scenario(path)
        r = odds.step_odds(loaded, "boj")      # warm imports and caches, as a second run in a session
        t_odds = best(lambda: odds.step_odds(loaded, "boj"), args.runs)
        t_exh = best(lambda: odds.step_odds(loaded, "boj", "exhaust"), args.runs)
        t_res = best(lambda: api.resolve_scenario(loaded), args.runs)
        print(f"step with {len(r['open_rolls'])} open rollers: {r['combinations']:,} combinations, "
              f"{r['classes']} classes, {r['resolutions']} resolutions")
        print(f"odds (accept)     : {t_odds * 1000:7.1f} ms")
        print(f"odds (exhaust)    : {t_exh * 1000:7.1f} ms")
        print(f"one resolve       : {t_res * 1000:7.1f} ms")
        print(f"ratio odds/resolve: {t_odds / t_res:7.1f}×")
        if not args.no_cli:
            drd = [sys.executable, "-c", "from drd_cli.cli.app import main; main()"]

            def cli(*words: str) -> None:
                subprocess.run(drd + list(words), check=True, stdout=subprocess.DEVNULL)

            c_odds = best(lambda: cli("odds", path, "boj"), args.runs)
            c_res = best(lambda: cli("resolve", path), args.runs)
            print(f"`drd odds FILE boj`: {c_odds * 1000:7.1f} ms (whole process)")
            print(f"`drd resolve FILE` : {c_res * 1000:7.1f} ms (whole process)")
            print(f"ratio              : {c_odds / c_res:7.2f}×")
    if args.limit_ms is not None and t_odds * 1000 > args.limit_ms:
        print(f"FAIL: odds over {args.limit_ms} ms")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
