"""Monte Carlo over a scenario's open dice: resolve it N times with `SeededDice(seed + i)`.

Run i always uses seed + i, and chunks are merged in order, so the result for a given seed is the
same whatever the number of workers.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from typing import Any, Callable

POLICIES = ("accept", "exhaust", "cheapest")
#: Runs from which `simulate` uses the process pool by itself (with the memo on).
POOL_FROM = 50_000
#: Most runs one `simulate` makes (`drd simulate -n` refuses more: at a few thousand runs a
#: second this is already hours; the estimate's interval narrows only with the square root).
MAX_RUNS = 10_000_000
#: Chunks in flight per worker process: the pool is fed as it works, never all chunks at once.
IN_FLIGHT = 2


def _empty() -> dict:
    return {"runs": 0, "errors": Counter(), "ohrozeni": defaultdict(Counter), "pools": defaultdict(lambda: defaultdict(Counter)),
            "jizvy": defaultdict(Counter), "success": defaultdict(lambda: defaultdict(lambda: [0, 0])),
            "sides": defaultdict(lambda: defaultdict(lambda: [0, 0])), "sides_all": defaultdict(lambda: [0, 0])}


# One worker process resolves many chunks of the same file: load and set up the rules once.
_PREPARED: dict[tuple, tuple] = {}


def _prepare(path: str, rules: dict) -> tuple:
    from .api import setup_rules
    from .engine.hooks import Hooks

    key = (path, repr(sorted(rules.items())))
    got = _PREPARED.get(key)
    if got is None:
        loaded = _load(path)
        setup = setup_rules(loaded, **rules)
        sides = {pid: (p.side or pid) for pid, p in loaded.scenario.participants.items()}
        got = _PREPARED[key] = (loaded, setup, Hooks(setup.pm, setup.profile.enabled), sides, {})
    return got


def _run_chunk(path: str, start: int, count: int, seed: int, policy: str, rules: dict, memo: bool = True) -> dict:
    """Resolves runs start..start+count-1 (seeds seed+i) and returns plain-dict counts (picklable)."""
    import random

    from .dice import SeededDice
    from .engine.run import resolve

    loaded, setup, hooks, sides, memos = _prepare(path, rules)
    acc = _empty()
    fast = None
    if memo:
        from .simulate_memo import Memo

        fast = memos.get(policy)
        if fast is None:
            fast = memos[policy] = Memo(loaded.scenario, setup.profile, hooks, policy)
    for i in range(start, start + count):
        if fast is not None and not fast.full:
            # The same dice as SeededDice(seed + i) draws, in the same order (dice.SeededDice).
            out = fast.run(random.Random(seed + i))
            if isinstance(out, str):
                acc["errors"][out] += 1
            else:
                _add_summary(acc, out[0], out[1], sides)
            continue
        try:
            res = resolve(loaded.scenario, setup.profile, SeededDice(seed + i), hooks, choose=policy, seed=seed + i)
        except Exception as exc:  # a rule refusing a path (e.g. unaffordable exhaustion) is an outcome too
            acc["errors"][type(exc).__name__] += 1
            continue
        _add(acc, res, sides)
    return _plain(acc)


def _load(path: str) -> Any:
    """The validated scenario (an invalid file raises ScenarioError: exit 2 with file:line:col)."""
    from .api import load_scenario

    return load_scenario(path)


def _add(acc: dict, res: dict, sides: dict) -> None:
    acc["runs"] += 1
    for pid, f in res["final"].items():
        acc["ohrozeni"][pid][f.get("ohrozeni", 0)] += 1
        for pool in ("telo", "duse", "vliv", "sudba"):
            if f.get(pool) is not None:
                acc["pools"][pid][pool][f[pool]] += 1
        acc["jizvy"][pid][len(f.get("jizvy") or [])] += 1
    _add_steps(acc, ((step["id"], ((pid, bool(a.get("success"))) for pid, a in step.get("actions", {}).items()))
                     for step in res["steps"]), sides)


def _add_summary(acc: dict, steps: list[tuple], final: tuple, sides: dict) -> None:
    """`_add` of a memoised run: the same counts from (step id, ((pid, success), …)) per step and
    (pid, Ohrožení, ((pool, left), …), number of Jizvy) per participant."""
    acc["runs"] += 1
    for pid, ohr, pools, jizvy in final:
        acc["ohrozeni"][pid][ohr] += 1
        for pool, v in pools:
            acc["pools"][pid][pool][v] += 1
        acc["jizvy"][pid][jizvy] += 1
    _add_steps(acc, steps, sides)


def _add_steps(acc: dict, steps: Any, sides: dict) -> None:
    """Counts each action's success per step, and each side's: a side reaches its goal in a step
    when every action of its members there succeeds, and in the run when it does in every step.
    `steps`: (step id, ((pid, success), …)) in order."""
    whole: dict[str, bool] = {}
    for sid, actions in steps:
        per_side: dict[str, bool] = {}
        succ = acc["success"][sid]
        for pid, ok in actions:
            cell = succ[pid]
            cell[0] += 1 if ok else 0
            cell[1] += 1
            side = sides.get(pid, pid)
            per_side[side] = per_side.get(side, True) and ok
        for side, ok in per_side.items():
            cell = acc["sides"][sid][side]
            cell[0] += ok
            cell[1] += 1
            whole[side] = whole.get(side, True) and ok
    for side, ok in whole.items():
        acc["sides_all"][side][0] += ok
        acc["sides_all"][side][1] += 1


def _plain(acc: dict) -> dict:
    return {"runs": acc["runs"], "errors": dict(acc["errors"]),
            "ohrozeni": {p: dict(c) for p, c in acc["ohrozeni"].items()},
            "pools": {p: {k: dict(c) for k, c in d.items()} for p, d in acc["pools"].items()},
            "jizvy": {p: dict(c) for p, c in acc["jizvy"].items()},
            "success": {s: {p: list(v) for p, v in d.items()} for s, d in acc["success"].items()},
            "sides": {s: {p: list(v) for p, v in d.items()} for s, d in acc["sides"].items()},
            "sides_all": {p: list(v) for p, v in acc["sides_all"].items()}}


def _merge(into: dict, part: dict) -> None:
    into["runs"] += part["runs"]
    for k, v in part["errors"].items():
        into["errors"][k] = into["errors"].get(k, 0) + v
    for key in ("ohrozeni", "jizvy"):
        for p, c in part[key].items():
            tgt = into[key].setdefault(p, {})
            for v, n in c.items():
                tgt[v] = tgt.get(v, 0) + n
    for p, d in part["pools"].items():
        for pool, c in d.items():
            tgt = into["pools"].setdefault(p, {}).setdefault(pool, {})
            for v, n in c.items():
                tgt[v] = tgt.get(v, 0) + n
    for key in ("success", "sides"):
        for s, d in part[key].items():
            for p, (ok, tot) in d.items():
                cell = into[key].setdefault(s, {}).setdefault(p, [0, 0])
                cell[0] += ok
                cell[1] += tot
    for p, (ok, tot) in part["sides_all"].items():
        cell = into["sides_all"].setdefault(p, [0, 0])
        cell[0] += ok
        cell[1] += tot


def simulate(path: str, n: int, *, seed: int = 0, policy: str = "accept", workers: int | None = None,
             chunk: int = 500, rules: dict | None = None,
             progress: Callable[[int], None] | None = None, memo: bool = True) -> dict:
    """Resolve the scenario at `path` n times (seeds seed..seed+n-1) under the `policy` answer.

    Returns counts per participant: final Ohrožení, pools/Sudba left, number of Jizvy; and per
    step and participant the success rate. Large n runs in a process pool, in chunks; `workers=1`
    (or small n) runs in-process. `progress(k)` is called with the number of runs just finished.
    With `memo` (the default) each step's outcome is remembered by the state before it and its
    dice (`simulate_memo.Memo`): the same result as resolving every run, several times faster.
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {POLICIES}")
    if n > MAX_RUNS:
        raise ValueError(f"at most {MAX_RUNS} runs")
    rules = rules or {}
    total = _plain(_empty())
    # Chunks are made as they are needed and merged as they come, in order: nothing grows with n.
    chunks = ((s, min(chunk, n - s)) for s in range(0, n, chunk))
    # With the memo one process makes thousands of runs a second and each worker would build its
    # own memo: the pool pays off only for many runs (benchmarks/README.md), unless asked for.
    small = n <= chunk or (memo and workers is None and n < POOL_FROM)
    if workers == 1 or small:
        for s, c in chunks:
            _merge(total, _run_chunk(path, s, c, seed, policy, rules, memo))
            if progress:
                progress(c)
    else:
        if workers is None:
            # The cores this process may run on (a container or taskset may allow fewer than exist).
            workers = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        _pooled(total, chunks, workers, (path, seed, policy, rules, memo), progress)
    total.update({"seed": seed, "n": n, "policy": policy})
    total["success_rate"] = {s: {p: (ok / tot if tot else None) for p, (ok, tot) in d.items()}
                             for s, d in total["success"].items()}
    total["side_rate"] = {s: {p: (ok / tot if tot else None) for p, (ok, tot) in d.items()}
                          for s, d in total["sides"].items()}
    total["side_all_rate"] = {p: (ok / tot if tot else None) for p, (ok, tot) in total["sides_all"].items()}
    return _sorted(total)


def _quiet_worker() -> None:
    """A worker leaves Ctrl-C to the main process, which ends the pool (no traceback per worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pooled(total: dict, chunks: Any, workers: int, job: tuple, progress: Callable[[int], None] | None) -> None:
    """Runs the chunks in a process pool, at most IN_FLIGHT per worker submitted at a time, and
    merges their counts in submission order (so the result does not depend on the workers).
    Ctrl-C ends the workers at once and raises KeyboardInterrupt here."""
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor

    path, seed, policy, rules, memo = job
    ex = ProcessPoolExecutor(max_workers=workers, initializer=_quiet_worker)
    pending: deque = deque()
    try:
        for s, c in chunks:
            pending.append((c, ex.submit(_run_chunk, path, s, c, seed, policy, rules, memo)))
            while len(pending) >= workers * IN_FLIGHT:
                _collect(total, pending, progress)
        while pending:
            _collect(total, pending, progress)
    except BaseException:
        _end_pool(ex)
        raise
    ex.shutdown(wait=True)


def _collect(total: dict, pending: Any, progress: Callable[[int], None] | None) -> None:
    c, fut = pending.popleft()
    _merge(total, fut.result())
    if progress:
        progress(c)


def _end_pool(ex: Any) -> None:
    """Stops a pool now: queued chunks cancelled, workers killed (no waiting for their chunks)."""
    procs = list(getattr(ex, "_processes", {}).values())
    ex.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        try:
            proc.kill()
        except (OSError, ValueError):  # already gone
            pass


def _sorted(obj: Any) -> Any:
    """Dicts with sorted keys throughout, so output does not depend on which worker saw a value first."""
    if isinstance(obj, dict):
        return {k: _sorted(obj[k]) for k in sorted(obj, key=lambda x: (str(type(x)), x))}
    return obj
