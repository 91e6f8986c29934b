"""Issue #14's speed table in one run: each row as a ratio to `python -c "import typer"`.

    python benchmarks/bench_speed.py [--runs 7] [--pytest] [--check]

Every command runs as a whole process, `--runs` times, interleaved (one of each per round, in
an order shuffled per round, so a busy spell of a shared machine hits all rows alike), after one untimed warm-up run each and
with bytecode caching on (as installed for a user); medians are compared. Rows:

* `drd --version`, `drd --help`, `drd abilities ID` (one card, to `--help`), `drd resolve <README example> --json`, `drd check scenarios/*.yaml`
  against the floor `python -c "import typer"`;
* the generated 500-participant, 5,000-step battle (`drd resolve --json`): its time against the
  README example's run and against the 1,250-step file, and its peak memory (the process's peak
  resident set *above* that of the README example's run, i.e. what the file itself costs) against
  the file's size;
* the engine in process: time per step with 500 and with 2,000 participants (same steps; the
  marginal cost of a step, so a resolution's one-off setup is not spread over its steps);
* with `--pytest`: the suite's wall time as configured (parallel) against `-n 0` (serial).

With `--check`, exits 1 when a row misses its goal (on a noisy machine, run it again before
believing a single miss).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_scale import make_scenario  # noqa: E402


def drd() -> list[str]:
    here = Path(sys.executable).parent / "drd"
    if here.exists():
        return [str(here)]
    found = shutil.which("drd")
    return [found] if found else [sys.executable, "-c", "from drd_cli.cli.app import main; main()"]


# As on a user's machine: compiled modules are cached (__pycache__). With PYTHONDONTWRITEBYTECODE
# (set in some development shells) every drd module would be compiled from source on every run,
# while the floor's typer comes precompiled from site-packages: the ratios would say nothing.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_once(cmd: list[str], ok: tuple[int, ...] = (0,)) -> tuple[float, int, int, float]:
    """(seconds, peak RSS in kB, exit code, CPU seconds) of one whole process."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    proc.returncode = code
    if code not in ok:
        raise SystemExit(f"{' '.join(cmd)} failed (exit {code}): {err[-800:]}")
    return elapsed, usage.ru_maxrss, code, usage.ru_utime + usage.ru_stime


# --------------------------------------------------------------------------- inputs

def readme_example(folder: Path) -> Path:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"Save this as `hanus.yaml`:\n\n```yaml\n(.*?)```", text, re.S)
    if not m:
        raise SystemExit("README.md has no `hanus.yaml` example any more")
    path = folder / "hanus.yaml"
    path.write_text(m.group(1), encoding="utf-8")
    return path


_PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


def _flow(v: object) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(_flow(x) for x in v) + "]"
    if isinstance(v, str):
        plain = _PLAIN.fullmatch(v) and v.lower() not in {"true", "false", "null", "yes", "no", "on", "off"}
        return v if plain else json.dumps(v, ensure_ascii=False)
    return json.dumps(v)


def battle(folder: Path, steps: int, participants: int = 500) -> Path:
    """The generated battle of `bench_scale.py` as YAML: one participant and one step per line."""
    doc = make_scenario(participants, steps)
    out = [f"format: {doc['format']}", f"title: {_flow(doc['title'])}", f"seed: {doc['seed']}", "participants:"]
    out += [f"  {pid}: {_flow(p)}" for pid, p in doc["participants"].items()]
    out.append("rounds:")
    for rnd in doc["rounds"]:
        out.append("  - steps:")
        out += [f"      - {_flow(s)}" for s in rnd["steps"]]
    path = folder / f"battle-{participants}x{steps}.yaml"
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


# --------------------------------------------------------------------------- engine

def engine_per_step(sizes: tuple[int, ...], steps: int, repeat: int) -> dict[int, float]:
    """{participants: seconds per step} of `engine.run.resolve` (validation excluded), at the
    margin: the best time of 2×`steps` minus that of `steps`, over `steps`, so that what a
    resolution does once (the initial state of every participant, the reference check) is not
    counted per step. The four runs of a round are interleaved (each size, each length), so a
    slow spell of a shared machine cannot fall on one size only."""
    from drd_cli.dice import SeededDice
    from drd_cli.engine.hooks import Hooks
    from drd_cli.engine.run import resolve
    from drd_cli.gcpause import collector_paused
    from drd_cli.plugins import build_manager, default_states, discover
    from drd_cli.rules import build_profile
    from drd_cli.scenario.models import Scenario

    entries = discover()
    states = {pid: on and pid in entries for pid, on in default_states(entries).items()}
    profile = build_profile([], states)
    hooks = Hooks(build_manager(profile.enabled, entries), profile.enabled)
    files = {(p, n): Scenario.model_validate(make_scenario(p, n)) for p in sizes for n in (steps, 2 * steps)}
    fastest = {k: float("inf") for k in files}
    for _ in range(repeat):
        for k, sc in files.items():
            gc.collect()
            t0 = time.perf_counter()
            with collector_paused():        # as api.resolve_scenario runs the engine
                resolve(sc, profile, SeededDice(1), hooks, seed=1)
            fastest[k] = min(fastest[k], time.perf_counter() - t0)
    return {p: (fastest[(p, 2 * steps)] - fastest[(p, steps)]) / steps for p in sizes}


# --------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="runs of each command (median taken)")
    ap.add_argument("--pytest", action="store_true", help="also time the test suite (minutes)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    args = ap.parse_args(argv)

    folder = Path(tempfile.mkdtemp(prefix="drd-bench-"))
    # drd's cache folder (docs/cli.md "Environment") of this run alone, filled by the warm-up run:
    # the steady state of a user's second run, whatever another drd left in ~/.cache.
    cache = folder / "cache"
    cache.mkdir(mode=0o700)
    ENV["DRD_CACHE_DIR"] = str(cache)
    try:
        hanus = readme_example(folder)
        b1250, b5000 = battle(folder, 1250), battle(folder, 5000)
        scenarios = sorted(str(p) for p in (ROOT / "scenarios").glob("*.yaml"))
        d = drd()
        commands = {
            "floor": ([sys.executable, "-c", "import typer"], (0,)),
            "version": (d + ["--version"], (0,)),
            "help": (d + ["--help"], (0,)),
            "card": (d + ["abilities", "gladiator"], (0,)),
            "card-name": (d + ["abilities", "Rameno na rameno"], (0,)),
            "resolve": (d + ["resolve", str(hanus), "--json"], (0,)),
            "check": (d + ["check", *scenarios], (0, 1)),
            # exit 2: refused (a file over a size limit); reported as such, not as a crash
            "b1250": (d + ["resolve", str(b1250), "--json"], (0, 2)),
            "b5000": (d + ["resolve", str(b5000), "--json"], (0, 2)),
        }
        times: dict[str, list[float]] = {k: [] for k in commands}
        rss: dict[str, list[int]] = {k: [] for k in commands}
        codes: dict[str, int] = {}
        heavy = {"b1250", "b5000", "check"}
        for cmd, ok in commands.values():   # warm-up, not timed: writes the bytecode caches
            run_once(cmd, ok)
        cpu: dict[str, list[float]] = {k: [] for k in commands}
        # Each round in its own order (a fixed seed): a command run right after the 5,000-step
        # battle starts a little slower (its memory is the kernel's to give back), which must not
        # always fall on the same row — before, it always fell on the floor.
        order = random.Random(14)
        for i in range(args.runs):
            names = list(commands)
            order.shuffle(names)
            for name in names:
                cmd, ok = commands[name]
                if name in heavy and i >= max(3, args.runs // 2):
                    continue  # a few runs of the slow ones are enough
                t, m, codes[name], c = run_once(cmd, ok)
                cpu[name].append(c)
                times[name].append(t)
                rss[name].append(m)
        med = {k: statistics.median(v) for k, v in times.items()}
        floor = med["floor"]
        cmed = {k: statistics.median(v) for k, v in cpu.items()}
        rows_cpu: dict[str, float] = {}   # the same ratio in CPU time: what a busy machine blurs least

        rows: list[tuple[str, str, float, float]] = []  # (row, measured, ratio, goal)

        def row(label: str, ratio: float, goal: float, detail: str) -> None:
            rows.append((label, detail, ratio, goal))

        def timed(label: str, name: str, base: str, goal: float, detail: str) -> None:
            rows_cpu[label] = cmed[name] / cmed[base]
            row(label, med[name] / med[base], goal, detail)

        timed("drd --version", "version", "floor", 1.25, f"{med['version'] * 1000:.0f} ms")
        timed("drd --help", "help", "floor", 2.0, f"{med['help'] * 1000:.0f} ms")
        timed("drd abilities gladiator / drd --help", "card", "help", 1.5, f"{med['card'] * 1000:.0f} ms")
        timed("drd abilities \"Rameno na rameno\" / drd --help", "card-name", "help", 1.5,
              f"{med['card-name'] * 1000:.0f} ms")
        timed("drd resolve <README example> --json", "resolve", "floor", 3.0, f"{med['resolve'] * 1000:.0f} ms")
        timed(f"drd check scenarios/*.yaml ({len(scenarios)} files)", "check", "floor", 8.0,
              f"{med['check'] * 1000:.0f} ms")
        timed("5,000-step battle / README example run", "b5000", "resolve", 8.0, f"{med['b5000'] * 1000:.0f} ms")
        timed("5,000-step battle / 1,250-step battle", "b5000", "b1250", 4.6,
              f"{med['b1250'] * 1000:.0f} ms for 1,250")
        for name in ("b1250", "b5000"):
            if codes[name]:
                rows.append((f"{name}: REFUSED (exit {codes[name]})", "", float("inf"), 0.0))
        size = b5000.stat().st_size
        extra = (max(rss["b5000"]) - max(rss["resolve"])) * 1024
        row("5,000-step battle: peak memory / file size", extra / size, 60.0,
            f"{extra / 2**20:.1f} MiB over the README run; file {size / 2**20:.2f} MiB; "
            f"process peak {max(rss['b5000']) / 1024:.0f} MiB")

        per_step = engine_per_step((500, 2000), 2000, 5)
        small, large = per_step[500], per_step[2000]
        row("engine per step, 500 → 2,000 participants", large / small, 1.2,
            f"{small * 1e3:.3f} → {large * 1e3:.3f} ms/step")

        if args.pytest:
            def suite(extra: list[str]) -> float:
                t0 = time.perf_counter()
                subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra],
                               cwd=ROOT, stdout=subprocess.DEVNULL, check=True, env=ENV)
                return time.perf_counter() - t0
            parallel = suite([])
            serial = suite(["-n", "0"])
            row("pytest wall: as configured / serial", parallel / serial, 0.60,
                f"{parallel:.0f} s vs {serial:.0f} s")

        print(f"floor: python -c 'import typer' {floor * 1000:.0f} ms (median of {args.runs})\n")
        width = max(len(r[0]) for r in rows)
        print(f"{'row':<{width}}  {'ratio':>7}  {'goal':>7}  ok  {'CPU':>6}  measured")
        missed = 0
        for label, detail, ratio, goal in rows:
            ok = ratio <= goal
            missed += not ok
            by_cpu = f"{rows_cpu[label]:>5.2f}×" if label in rows_cpu else "     -"
            print(f"{label:<{width}}  {ratio:>6.2f}×  ≤{goal:>5.2f}×  {'✓' if ok else '✗'}   {by_cpu}  {detail}")
        print("\n(ratio: wall-clock medians, as the goals are set; CPU: the same ratio in CPU time)")
        print(f"\n{len(rows) - missed} of {len(rows)} goals met")
        return 1 if args.check and missed else 0
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
