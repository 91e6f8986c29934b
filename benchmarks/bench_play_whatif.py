"""The what-if odds before each roll of `drd play` (#15 item 2): the extra time per roll prompt.

    python benchmarks/bench_play_whatif.py [--runs 3]

Plays two files in process with scripted input (every roll left to drd with Enter, every decision
answered with Enter): the README's Hanuš escape (4 rollers) and `tests/data/sest-ve-stretu.yaml`
(6 rollers). Each roll prompt's what-if lines (`drd_cli.play.previews.what_if_lines`: the game so
far loaded again and `odds.what_if` for that roller) are timed on their own; printed per prompt:
the roller, exact or estimate, and the median time over `--runs` plays. Exits 1 when a prompt took
more than LIMIT seconds in its median (the table must never wait for seconds).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
LIMIT = 1.0


def play_once(path: Path) -> list[tuple[str, bool, float]]:
    """One scripted play of `path`: (roller, every option exact, seconds) per roll prompt."""
    from typer.testing import CliRunner

    from drd_cli.cli.app import app
    from drd_cli.play import previews, session

    got: list[tuple[str, bool, float]] = []
    real = previews.what_if_lines

    def timed(scenario, s, n, bonus, **kw):  # noqa: ANN001, ANN202
        t = time.perf_counter()
        lines = real(scenario, s, n, bonus, **kw)
        got.append((s.pid, not any("odhad" in x or "≈" in x for x in lines), time.perf_counter() - t))
        return lines

    session.what_if_lines = timed
    try:
        r = CliRunner().invoke(app, ["play", str(path), "--seed", "3", "--no-replay", "--lang", "cs"],
                               input="\n" * 60)
    finally:
        session.what_if_lines = real
    if r.exit_code != 0:
        raise SystemExit(f"{path}: exit {r.exit_code}\n{r.output[-2000:]}")
    return got


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    import tempfile

    from test_play import SKELETON

    tmp = Path(tempfile.mkdtemp())
    hanus = tmp / "hanus.yaml"
    hanus.write_text(SKELETON, encoding="utf-8")
    bad = 0
    for path in (hanus, ROOT / "tests" / "data" / "sest-ve-stretu.yaml"):
        plays = [play_once(path) for _ in range(args.runs)]
        print(f"{path.name}: {len(plays[0])} roll prompts")
        for i, (who, exact, _t) in enumerate(plays[0]):
            med = statistics.median(p[i][2] for p in plays)
            bad += med > LIMIT
            print(f"  prompt {i + 1} ({who}): {'exact' if exact else 'estimate'}, {med * 1000:.0f} ms")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
