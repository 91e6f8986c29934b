"""What-if odds of one step (#15): beside the current odds, the odds with each manoeuvre a roller
can still afford that changes them — přesně (R-ROLL-3, R-MAN-1/2; under `presne:
keep-best-2-of-3` its third die) — and what it costs; for a counter, the chance that the actor
will have to exhaust against it and the expected cost (R-EXH-1/3).

Every variant is the same step resolved by the engine with the manoeuvre added to the roller's
action, so its price, its effect on the roll and everything it changes later in the step come
from the rules themselves (docs/odds.md, "What-if").
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from .step import DEFAULT_BUDGET, DEFAULT_TIME, StepPrep, odds_for


def what_if(loaded: Any, step_id: str, choose: str = "accept", *, seed: int = 0, params: dict | None = None,
            enable: tuple[str, ...] = (), disable: tuple[str, ...] = (), group: str | None = None,
            budget: int = DEFAULT_BUDGET, samples: int | None = None, time_limit: float | None = DEFAULT_TIME,
            progress: Callable[[int, int], None] | None = None, only: str | None = None,
            exact_time: float | None = None) -> dict[str, Any]:
    """The step's odds and, per open roller (or only the roller `only`), its options.

    Returns {"step", "choose", "presne_mode", "base": the step's odds (as `step_odds`), "rollers":
    [{"who", "role": "actor" | "counter", "vs" (a counter's actor), "win", "exact", and for a
    counter "actor_exhausts" / "actor_cost", "options": [{"manoeuvre": "presne", "win", "delta",
    "cost": {"paid", "amount", "via"}, …}], "unavailable": [{"manoeuvre", "reason"}]}]}.
    A counter's exhaustion numbers are under the `exhaust` policy (the actor buys off every loss
    it can afford), whatever `choose` is; who wins a pair does not depend on the policy.
    """
    from ..errors import RuleViolation

    prep = StepPrep(loaded, step_id, seed=seed, params=params, enable=enable, disable=disable, group=group)
    rollers = _rollers(prep.step)
    base = odds_for(prep, choose, budget=budget, samples=samples, time_limit=time_limit, progress=progress,
                    exact_time=exact_time)
    open_whos = [o["who"] for o in base["open_rolls"]]
    chosen = [(who, role, vs, spec) for who, role, vs, spec in rollers if who in open_whos and (only in (None, who))]
    # An estimate's time is shared by every variant; all variants sample the same dice (one seed),
    # so their differences are far steadier than each number alone.
    runs = len(chosen) + (1 if any(r[1] == "counter" for r in chosen) and choose != "exhaust" else 0)
    # One budget for all: the variants have about as many classes as the step itself, so when
    # they do not fit what is left of it, they are estimated at once (no enumeration to give up on).
    exact_base = base.get("exact", True)
    left = budget - base["classes"] if exact_base else 0
    exact_variants = exact_base and base["classes"] * runs <= left
    share = None if time_limit is None else time_limit / max(1, runs)
    kw: dict[str, Any] = {"budget": budget if exact_variants else 0, "samples": samples, "time_limit": share,
          "exact_time": exact_time}
    exh_base: dict[str, Any] | None = None
    out_rollers = []
    for who, role, vs, spec in chosen:
        # The state before the step stays the one `choose` leads to; only the step's own
        # decisions are answered `exhaust` for a counter's numbers.
        policy = "exhaust" if role == "counter" else choose
        if role == "counter" and exh_base is None:
            exh_base = base if choose == "exhaust" else odds_for(prep, choose, step_choose="exhaust", **kw)
        now = exh_base if role == "counter" and exh_base is not None else base
        entry: dict[str, Any] = {"who": who, "role": role, "vs": vs, "win": _win(now, who, role, vs),
                                 "exact": bool(now.get("exact", True)), "options": [], "unavailable": []}
        if role == "counter":
            entry.update(_exhaust_numbers(now, vs, who))
        step = _with_presne(prep.step, spec)
        try:
            r = odds_for(prep, choose, step=step, step_choose=policy, **kw)
        except RuleViolation as exc:
            # The rules refuse přesně here whatever the dice (nothing left to pay it with, acting
            # from obrana, a cap on manoeuvres): the engine's own words say why.
            entry["unavailable"].append({"manoeuvre": "presne", "reason": exc.problems[0].message,
                                         "rule": exc.problems[0].rule})
        else:
            win = _win(r, who, role, vs)
            opt: dict[str, Any] = {"manoeuvre": "presne", "win": win, "delta": _delta(win, entry["win"]),
                                   "cost": _cost(r, who), "exact": bool(r.get("exact", True))}
            if role == "counter":
                opt.update(_exhaust_numbers(r, vs, who))
            entry["options"].append(opt)
        out_rollers.append(entry)
    return {"step": step_id, "choose": choose, "presne_mode": prep.profile.params.get("presne", "plus-one"),
            "base": base, "rollers": out_rollers}


def _rollers(step: Any) -> list[tuple[str, str, str | None, Any]]:
    """(who, role, against whom, the action spec that may carry manoeuvres) per roller of a core
    contest or a one-actor test; other steps (a joint test, a výzva, a race, a plugin's step) have
    no per-roller manoeuvre list in the format, so none."""
    out: list[tuple[str, str, str | None, Any]] = []
    contest = getattr(step, "contest", None)
    if contest is not None:
        a = contest.action
        out.append((a.actor, "actor", None, a))
        for c in contest.counters:
            out.append((c.actor, "counter", a.actor, c))
        return out
    test = getattr(step, "test", None)
    if test is not None and test.actor is not None:
        out.append((test.actor, "actor", None, test))
    return out


def _with_presne(step: Any, spec: Any) -> Any:
    """A copy of `step` in which the action `spec` uses přesně once more."""
    new = step.model_copy(deep=True)
    contest = getattr(step, "contest", None)
    if contest is not None:
        if spec is contest.action:
            target = new.contest.action
        else:
            target = new.contest.counters[contest.counters.index(spec)]
    else:
        target = new.test
    target.manoeuvres = [*target.manoeuvres, "presne"]
    return new


def _win(r: dict, who: str, role: str, vs: str | None) -> Any:
    """The roller's chance: its action's success, or for a counter winning its pair."""
    if role == "counter":
        return r["pairs"].get(f"{vs} vs {who}", {}).get(who, Fraction(0))
    return r["success"].get(who, Fraction(0))


def _delta(new: Any, old: Any) -> Any:
    if isinstance(new, Fraction) and isinstance(old, Fraction):
        return new - old
    return float(new) - float(old)


def _exhaust_numbers(r: dict, actor: str | None, counter: str) -> dict[str, Any]:
    got = r.get("exhaust_vs", {}).get(f"{actor} vs {counter}")
    if got is None:
        return {"actor_exhausts": Fraction(0), "actor_cost": Fraction(0)}
    return {"actor_exhausts": got["p"], "actor_cost": got["cost"]}


def _cost(r: dict, who: str) -> dict[str, Any]:
    """How the added přesně is paid (the last přesně of `who` in the step's record)."""
    paid = [m for m in r.get("manoeuvres", []) if m.get("by") == who and m.get("name") == "presne"]
    if not paid:
        return {"paid": "free", "amount": 0, "via": None}
    m = paid[-1]
    return {"paid": m.get("paid"), "amount": m.get("cost", 0), "via": m.get("via")}


# --------------------------------------------------------------------------- text

def what_if_lines(data: dict, names: dict[str, str] | None = None) -> list[str]:
    """One line per roller (its odds now) and one per option, in the active language:
    "  s přesně: výhra 72,2 % (+9,6), stojí 1 Tělo"."""
    from ..i18n import _, fmt_decimal, fmt_percent

    names = names or {}
    name = lambda pid: names.get(pid, pid)  # noqa: E731
    lines = [_("What if (přesně {mode}):").format(mode=_mode(data.get("presne_mode")))]
    if not data["rollers"]:
        lines.append(_("  no roller here can add a manoeuvre that changes the odds"))
    for ro in data["rollers"]:
        if ro["role"] == "counter":
            lines.append(_("  {who} (counter against {actor}): wins {p}; {actor} has to exhaust {q}, expected cost "
                           "{cost}").format(who=name(ro["who"]), actor=name(ro["vs"]), p=_p(ro["win"]),
                                            q=_p(ro["actor_exhausts"]), cost=_num(ro["actor_cost"])))
        else:
            lines.append(_("  {who}: success {p}").format(who=name(ro["who"]), p=_p(ro["win"])))
        for opt in ro["options"]:
            delta = fmt_decimal(float(opt["delta"]) * 100, 1)
            if not delta.startswith("-"):
                delta = "+" + delta
            text = (_("    with přesně: win {p} ({delta}), {cost}") if ro["role"] == "counter"
                    else _("    with přesně: success {p} ({delta}), {cost}")).format(
                p=fmt_percent(float(opt["win"])), delta=delta, cost=_cost_text(opt["cost"]))
            if ro["role"] == "counter":
                text += _("; {actor} has to exhaust {q}, expected cost {cost}").format(
                    actor=name(ro["vs"]), q=fmt_percent(float(opt["actor_exhausts"])), cost=_num(opt["actor_cost"]))
            if not opt.get("exact", True):
                text += " " + _("(estimate)")
            lines.append(text)
        for un in ro["unavailable"]:
            lines.append(_("    přesně not possible: {reason}").format(reason=un["reason"]))
    return lines


def _mode(mode: str | None) -> str:
    from ..i18n import _

    return _("3d6, the best two kept") if mode == "keep-best-2-of-3" else _("+1 to the roll")


def _p(p: Any) -> str:
    from ..i18n import fmt_percent

    text = fmt_percent(float(p))
    return text if isinstance(p, Fraction) else "≈ " + text


def _num(x: Any) -> str:
    from ..i18n import fmt_decimal

    return fmt_decimal(float(x), 2)


def _cost_text(cost: dict) -> str:
    from ..i18n import _

    paid = cost.get("paid")
    if paid == "free" or not cost.get("amount"):
        return _("free thanks to {via}").format(via=cost["via"]) if cost.get("via") else _("free")
    if paid == "vyhoda":
        return _("costs {n} Výhoda").format(n=cost["amount"])
    pools = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba"}
    return _("costs {n} {pool}").format(n=cost["amount"], pool=pools.get(str(paid), paid))
