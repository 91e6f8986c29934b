"""How the engine scales: scenarios of growing size resolved through the engine (no CLI).

    python benchmarks/bench_scale.py [--max-steps 5000] [--participants 500] [--repeat 3] [--limit 2.2]

Generates scenarios with up to 500 participants and up to 5,000 steps (contests and tests with
given rolls, exhaustions included), validates them with the strict models and resolves them.
Prints steps per second for each size and the growth ratio when the number of steps doubles.
Exits 1 when doubling the steps costs more than `--limit` times (growth is not linear), judged on
the average growth per doubling from the smallest to the largest size (single ratios are printed
too; on a busy machine one of them can be noisy).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from drd_cli.dice import SeededDice  # noqa: E402
from drd_cli.engine.hooks import Hooks  # noqa: E402
from drd_cli.engine.run import resolve  # noqa: E402
from drd_cli.plugins import build_manager, default_states, discover  # noqa: E402
from drd_cli.rules import build_profile  # noqa: E402
from drd_cli.scenario.models import Scenario  # noqa: E402


def make_scenario(participants: int, steps: int) -> dict:
    """`participants` heroes and creatures; `steps` contests and tests spread over rounds so that
    nobody acts twice from initiative in a round. Rolls are given; some losers exhaust."""
    ids = [f"p{i}" for i in range(participants)]
    parts = {}
    for i, pid in enumerate(ids):
        if i % 2:
            parts[pid] = {"name": f"Bytost {i}", "sudba": 10**6, "ohrozeni": i % 4, "armour": i % 2}
        else:
            parts[pid] = {"name": f"Hrdina {i}", "pools": {"telo": 10**6, "duse": 10**6, "vliv": 10**6},
                          "ohrozeni": i % 3, "levels": {"bojovnik": 2},
                          "equipment": [{"name": "štít", "free": "obrana"}, {"name": "zbroj", "armour": 1}]}
    per_round = max(1, participants // 2)
    rounds: list[dict] = []
    n = 0
    while n < steps:
        rnd = []
        for k in range(per_round):
            if n >= steps:
                break
            a, b = ids[2 * k % participants], ids[(2 * k + 1) % participants]
            roll_a, roll_b = 5 + (n * 7) % 9, 5 + (n * 5) % 9
            if n % 3 == 2:
                rnd.append({"id": f"t{n}", "test": {"actor": a, "pool": "duse", "roll": roll_a,
                                                     "failure": {"ohrozeni": 1}, "self_effect": {"ohrozeni": -1}},
                            "choices": {a: "exhaust" if n % 2 else "accept"}})
            else:
                rnd.append({"id": f"c{n}", "contest": {
                    "action": {"actor": a, "pool": "telo", "targets": [b], "roll": roll_a,
                               "manoeuvres": ["mocne"] if n % 5 == 0 else [],
                               "effect": {"ohrozeni": 1}, "self_effect": {"ohrozeni": -1}},
                    "counters": [{"actor": b, "pool": "telo", "roll": roll_b, "effect": {"ohrozeni": 1},
                                  "self_effect": {"vyhody": 1}}]},
                    "choices": {b: "exhaust" if n % 2 else "accept", a: "accept"}})
            n += 1
        rounds.append({"steps": rnd})
    return {"format": "drd/1", "title": f"bench {participants}×{steps}", "seed": 1,
            "participants": parts, "rounds": rounds}


def engine_setup():
    entries = discover()
    states = {pid: on and pid in entries for pid, on in default_states(entries).items()}
    profile = build_profile([], states)
    return profile, Hooks(build_manager(profile.enabled, entries), profile.enabled)


def measure(participants: int, steps: int, repeat: int) -> tuple[float, float]:
    """(seconds to validate, seconds to resolve): the best of `repeat` runs."""
    doc = make_scenario(participants, steps)
    profile, hooks = engine_setup()
    best_v = best_r = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        sc = Scenario.model_validate(doc)
        t1 = time.perf_counter()
        result = resolve(sc, profile, SeededDice(1), hooks, seed=1)
        t2 = time.perf_counter()
        assert len(result["steps"]) == steps
        best_v, best_r = min(best_v, t1 - t0), min(best_r, t2 - t1)
    return best_v, best_r


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-steps", type=int, default=5000)
    ap.add_argument("--participants", type=int, default=500)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=float, default=2.2, help="the most doubling the steps may cost")
    args = ap.parse_args(argv)

    sizes = []
    s = args.max_steps
    while s >= 300 and len(sizes) < 5:
        sizes.insert(0, s)
        s //= 2
    print(f"Steps grow, {args.participants} participants:")
    print(f"{'steps':>7} {'validate s':>11} {'resolve s':>10} {'steps/s':>9} {'×time':>7}")
    worst = 0.0
    prev = first = None
    for steps in sizes:
        v, r = measure(args.participants, steps, args.repeat)
        total = v + r
        ratio = total / prev if prev else None
        if ratio:
            worst = max(worst, ratio)
        print(f"{steps:>7} {v:>11.3f} {r:>10.3f} {steps / total:>9.0f} "
              f"{(f'{ratio:.2f}' if ratio else '-'):>7}")
        prev = total
        first = first or total
    print(f"\nParticipants grow, {sizes[-1] // 2} steps:")
    print(f"{'participants':>12} {'resolve s':>10} {'steps/s':>9}")
    for p in (10, 100, args.participants):
        v, r = measure(p, sizes[-1] // 2, 1)
        print(f"{p:>12} {r:>10.3f} {sizes[-1] // 2 / (v + r):>9.0f}")
    average = (prev / first) ** (1 / max(1, len(sizes) - 1))
    print(f"\nGrowth when doubling the steps: ×{average:.2f} on average, worst single ×{worst:.2f} "
          f"(limit ×{args.limit})")
    if average > args.limit:
        print("FAIL: resolving grows faster than linearly with the number of steps")
        return 1
    print("OK: linear")
    return 0


if __name__ == "__main__":
    sys.exit(main())
