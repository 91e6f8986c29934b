"""Memoised resolution for `drd simulate`: the same results as resolving every run, faster.

The engine is a pure function of the state before a step, the round's bookkeeping, the rules,
the answer policy and the dice it is given — and it reads dice only through their kept sum (the
same fact `drd odds` rests on, docs/odds.md). So each step's outcome is remembered, keyed by the
state before it (interned: see `Memo._intern`) and the round's bookkeeping, in a tree of its dice: each
node knows how many dice the engine asks for next, each branch is one kept sum. A run walks the
tree drawing its dice from its own generator exactly as `SeededDice` would; only a branch not
seen yet is resolved by the engine (the dice already drawn replayed, the rest drawn on), and
added. A run thus costs about its dice plus a few dictionary look-ups. The tree stops growing
past `MAX_NODES`; `simulate` then resolves the remaining runs in full.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

#: Most tree nodes (over all steps) one process remembers (a few hundred bytes each).
MAX_NODES = 400_000


class _Node:
    __slots__ = ("n", "kids", "out")

    def __init__(self) -> None:
        self.n = 0            # dice the engine asks for next (0: not known yet)
        self.kids: dict[int, _Node] = {}
        self.out: Any = None  # the outcome, at the end of a branch


class _Replay:
    """Dice source of a miss: first the dice the walk already drew, then on from the run's
    generator; every request is recorded (for adding the branch)."""

    name = "seeded"

    def __init__(self, drawn: list[list[int]], rng: random.Random):
        self._drawn, self._i, self._rng = drawn, 0, rng
        self.calls: list[list[int]] = []

    def roll(self, n: int, who: str, purpose: str) -> list[int]:
        if self._i < len(self._drawn):
            vals = self._drawn[self._i]
            self._i += 1
            if len(vals) != n:   # the engine would not be a function of its dice: a bug, not an outcome
                raise RuntimeError("simulate memo: the engine asked for other dice on the same path")
        else:
            vals = [self._rng.randint(1, 6) for _ in range(n)]
        self.calls.append(vals)
        return list(vals)


class Memo:
    """One scenario under one rules profile and answer policy, resolved run after run."""

    def __init__(self, scenario: Any, profile: Any, hooks: Any, policy: str):
        from .engine.run import check_references
        from .engine.state import initial_state

        self.scenario, self.profile, self.hooks, self.policy = scenario, profile, hooks, policy
        self.broken: str | None = None
        self.keep_best = profile.params.get("presne") == "keep-best-2-of-3"
        self.plugin_kinds = sorted(hooks.step_types)
        self._states: list[Any] = []
        self._state_ids: dict[bytes, int] = {}
        self._finals: dict[tuple, tuple] = {}
        self._rounds: dict[tuple, Any] = {}
        self._roots: dict[tuple, _Node] = {}
        self.nodes = 0
        self.start = 0
        try:
            check_references(scenario)   # once: the scenario does not change between runs
            self.start = self._intern(initial_state(scenario))
        except Exception as exc:  # noqa: BLE001 - every run would stop here: counted per run, as before
            self.broken = type(exc).__name__

    @property
    def full(self) -> bool:
        return self.nodes >= MAX_NODES

    # ----------------------------------------------------------------- one run

    def run(self, rng: random.Random) -> tuple[list, tuple] | str:
        """One run with dice from `rng`: (step summaries, final summary), or the name of the
        error a rule (or anything else) stopped it with, as `simulate` counts them."""
        if self.broken is not None:
            return self.broken
        token = self.start
        steps: list[tuple] = []
        step_no = 0
        last_round = 0
        for ri, rnd in enumerate(self.scenario.rounds):
            last_round = ri + 1
            begun = self._begin(ri, rnd, token)
            if isinstance(begun, str):
                return begun
            token, rsnap = begun
            for si in range(len(rnd.steps)):
                step_no += 1
                out = self._walk((ri, si, token, rsnap), rng, self._resolve_step)
                if isinstance(out, str):
                    return out
                token, rsnap, summary = out
                steps.append(summary)
            out = self._walk((ri, -1, token, rsnap, step_no), rng, self._resolve_end)
            if isinstance(out, str):
                return out
            token, summaries = out
            steps.extend(summaries)
            step_no += len(summaries)
        return steps, self._final(token, last_round)

    def _walk(self, key: tuple, rng: random.Random, resolve: Any) -> Any:
        root = self._roots.get(key)
        if root is None:
            root = self._roots[key] = _Node()
            self.nodes += 1
        node = root
        drawn: list[list[int]] = []
        randint = rng.randint
        while node.out is None:
            if not node.n:
                return self._miss(key, root, drawn, rng, resolve)
            vals = [randint(1, 6) for _ in range(node.n)]
            drawn.append(vals)
            child = node.kids.get(self._kept(vals))
            if child is None:
                return self._miss(key, root, drawn, rng, resolve)
            node = child
        return node.out

    def _kept(self, vals: list[int]) -> int:
        if self.keep_best and len(vals) > 2:
            return sum(sorted(vals, reverse=True)[:2])
        return sum(vals)

    def _miss(self, key: tuple, root: _Node, drawn: list[list[int]], rng: random.Random, resolve: Any) -> Any:
        dice = _Replay(drawn, rng)
        try:
            out = resolve(key, dice)
        except Exception as exc:  # noqa: BLE001 - simulate counts every stopped run by its error
            out = type(exc).__name__
        node = root
        for vals in dice.calls:
            node.n = len(vals)
            k = self._kept(vals)
            child = node.kids.get(k)
            if child is None:
                child = node.kids[k] = _Node()
                self.nodes += 1
            node = child
        node.out = out
        return out

    # ----------------------------------------------------------------- the engine, on a miss

    def _begin(self, ri: int, rnd: Any, token: int) -> Any:
        """The round's start (expired conditions, its bookkeeping) from a state, remembered."""
        key = (ri, token)
        got = self._rounds.get(key)
        if got is None:
            from .engine.run import begin_round

            try:
                state, rinfo = begin_round(self._states[token], ri, rnd)
                got = (self._intern(state, token), _snap(rinfo))
            except Exception as exc:  # noqa: BLE001
                got = type(exc).__name__
            self._rounds[key] = got
        return got

    def _ctx(self, ri: int, rsnap: tuple, dice: Any) -> Any:
        from .engine.context import Ctx, RoundInfo

        used, delayed, free_used = rsnap
        rinfo = RoundInfo(ri + 1, used=set(used), delayed=set(delayed), free_used=set(free_used),
                          initiative=self.scenario.rounds[ri].initiative,
                          steps=tuple(self.scenario.rounds[ri].steps))
        return Ctx(self.profile, dice, self.hooks, rinfo, self.policy)

    def _resolve_step(self, key: tuple, dice: Any) -> tuple:
        from .engine.run import run_step

        ri, si, token, rsnap = key
        ctx = self._ctx(ri, rsnap, dice)
        state, data = run_step(ctx, self._states[token], self.scenario.rounds[ri].steps[si], ri, si,
                                self.plugin_kinds)
        return self._intern(state, token), _snap(ctx.round), _summary(data)

    def _resolve_end(self, key: tuple, dice: Any) -> tuple:
        from .engine.run import end_round

        ri, _si, token, rsnap, step_no = key
        ctx = self._ctx(ri, rsnap, dice)
        state = self._states[token]
        summaries = []
        for data, state in end_round(ctx, state, self.scenario, ri, self.scenario.rounds[ri], step_no):
            summaries.append(_summary(data))
        return self._intern(state, token), tuple(summaries)

    # ----------------------------------------------------------------- states

    def _intern(self, state: Any, prev: int | None = None) -> int:
        """A small number per distinct state, so runs reaching the same state share its trees.

        A state is named by the state it came from and the content of the participants the step
        replaced (a step copies only what it touches, so the others are the very same objects):
        O(changed), not O(participants), and equal content from the same state is one number.
        A digest (BLAKE2b) of that stands for it, so memory does not grow with the participants.
        """
        if prev is not None:
            before = self._states[prev]
            if state is before:
                return prev
            old = before.participants
            changed = [(pid, p) for pid, p in state.participants.items() if old.get(pid) is not p]
            if len(state.participants) != len(old):
                changed.append(("", tuple(state.participants)))
            text = repr((prev, changed, sorted(state.longs.items(), key=repr), sorted(state.free_used, key=repr)))
        else:
            text = repr((list(state.participants.values()), sorted(state.longs.items(), key=repr),
                         sorted(state.free_used, key=repr)))
        fp = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20).digest()
        token = self._state_ids.get(fp)
        if token is None:
            token = self._state_ids[fp] = len(self._states)
            self._states.append(state)
        return token

    def _final(self, token: int, last_round: int) -> tuple:
        key = (token, last_round)
        got = self._finals.get(key)
        if got is None:
            out = []
            for pid, p in self._states[token].participants.items():
                f = p.final(last_round)
                pools = tuple((pool, f[pool]) for pool in ("telo", "duse", "vliv", "sudba") if f.get(pool) is not None)
                out.append((pid, f.get("ohrozeni", 0), pools, len(f.get("jizvy") or [])))
            got = self._finals[key] = tuple(out)
        return got


def _snap(rinfo: Any) -> tuple:
    return (frozenset(rinfo.used), frozenset(rinfo.delayed), frozenset(rinfo.free_used))


def _summary(data: dict) -> tuple:
    """What `simulate` counts of a step: its id and each action's success, in record order."""
    return (data["id"], tuple((pid, bool(a.get("success"))) for pid, a in data.get("actions", {}).items()))
