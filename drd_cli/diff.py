"""`drd diff`: one scenario resolved with the same dice under two rules profiles, and what changed.

Both runs take their open dice from `KeyedDice(seed)`: every roll is named by (step, who,
purpose, occurrence), so a profile that rolls more (a tie re-rolled) or fewer dice does not shift
the dice of any other roll. Dice the file gives are the same in both anyway.

A profile is what `drd resolve` would build from a group, `--set`, `--enable` and `--disable`
(defaults ← group ← the scenario's `rules:` ← the command line). Profile A is usually the
scenario as written, profile B the same with a house rule; `compare` says which settings differ
(with the layer each came from), then every difference in the two results: per step the rolls,
pair winners, ÚSPĚCH/NEÚSPĚCH, exhaustions with their costs and the Ohrožení after the step, and
the final state of each participant. A rule refusing something in one profile (exit 1 for
`drd resolve`) is itself a difference.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

POOLS = ("telo", "duse", "vliv", "sudba")


@dataclass
class ProfileSpec:
    """How one side's rules are built (as `drd resolve --group/--set/--enable/--disable` would)."""

    group: str | None = None
    params: dict[str, str] = field(default_factory=dict)
    enable: tuple[str, ...] = ()
    disable: tuple[str, ...] = ()

    def describe(self) -> str:
        """A short description in the active language: 'as written' or the changes, e.g.
        'group ctvrtek, tie=counter' (Czech 'jak je napsán', 'skupina ctvrtek, tie=counter')."""
        from .i18n import _

        parts = [_("group {name}").format(name=self.group)] if self.group else []
        parts += [f"{k}={v}" for k, v in self.params.items()]
        parts += [f"+{x}" for x in self.enable] + [f"−{x}" for x in self.disable]
        return ", ".join(parts) or _("as written")

    def as_dict(self) -> dict:
        return {"group": self.group, "params": dict(self.params), "enable": list(self.enable),
                "disable": list(self.disable), "describe": self.describe()}


def run_profile(loaded: Any, spec: ProfileSpec, seed: int, choose: str = "accept") -> dict:
    """Resolves `loaded` under one profile with keyed dice.

    Returns {"profile", "rules" (enabled, params, origins), "result" | "error", "after"} where
    `after[step id][pid]` is the participant's Ohrožení and pools right after that step. A
    RuleViolation is caught and returned as `error` (message, rule, location, exit code); an
    invalid profile (unknown rule id, bad value) raises.
    """
    from .api import _check_plugin_steps, locate, setup_rules
    from .dice import KeyedDice
    from .engine.hooks import Hooks
    from .engine.run import resolve
    from .errors import DrdError, RuleViolation

    # Plugin steps are checked below, inside the try: a step type whose plugin this profile switches
    # off (`hide` without ukryvani) is a refusal under this profile, i.e. a difference, not the end.
    setup = setup_rules(loaded, params=spec.params, enable=spec.enable, disable=spec.disable, group=spec.group,
                        check_steps=False)
    profile = setup.profile
    out: dict[str, Any] = {"profile": spec.as_dict(),
                           "rules": {"enabled": sorted(profile.enabled), "params": dict(profile.params),
                                     "origins": dict(profile.origins)}}
    after: dict[str, dict] = {}

    def observe(rec: dict, state: Any) -> None:
        after[rec["id"]] = {pid: _numbers(p) for pid, p in state.participants.items()}

    try:
        hooks = Hooks(setup.pm, profile.enabled)
        _check_plugin_steps(loaded, hooks, entries=setup.entries)
        from .wording import word_result

        out["result"] = word_result(resolve(loaded.scenario, profile, KeyedDice(seed), hooks, choose=choose,
                                            seed=seed, observe=observe))
    except DrdError as exc:
        locate(exc, loaded)
        if not isinstance(exc, RuleViolation):
            raise      # the file itself is wrong (exit 2): no comparison to make
        p = exc.problems[0]
        out["error"] = {"message": p.message, "rule": p.rule, "location": str(p.location),
                        "exit_code": exc.exit_code, "text": exc.format().rstrip("\n")}
    out["after"] = after
    return out


def _numbers(p: Any) -> dict:
    d = {"ohrozeni": p.ohrozeni}
    if p.pools is not None:
        d.update(p.pools)
    else:
        d["sudba"] = p.sudba
    return d


def rule_differences(a: dict, b: dict) -> list[dict]:
    """Settings whose value differs between the profiles, each with the layer that set it."""
    out = []
    ra, rb = a["rules"], b["rules"]
    for name in sorted(set(ra["params"]) | set(rb["params"])):
        va, vb = ra["params"].get(name), rb["params"].get(name)
        if va != vb:
            out.append({"setting": name, "a": va, "b": vb, "a_origin": ra["origins"].get(f"param:{name}"),
                        "b_origin": rb["origins"].get(f"param:{name}")})
    for pid in sorted(set(ra["enabled"]) ^ set(rb["enabled"])):
        out.append({"setting": pid, "a": pid in ra["enabled"], "b": pid in rb["enabled"],
                    "a_origin": ra["origins"].get(pid), "b_origin": rb["origins"].get(pid)})
    return out


def compare(loaded: Any, a: ProfileSpec, b: ProfileSpec, *, seed: int, choose: str = "accept") -> dict:
    """Both runs, the rule settings that differ, every difference and what stayed the same."""
    ra = run_profile(loaded, a, seed, choose)
    rb = run_profile(loaded, b, seed, choose)
    diffs: list[dict] = []
    same_steps: list[str] = []
    same_people: list[str] = []
    names = {pid: (p.name or pid) for pid, p in loaded.scenario.participants.items()}
    if "error" in ra or "error" in rb:
        ea, eb = ra.get("error"), rb.get("error")
        if (ea and ea["text"]) != (eb and eb["text"]):
            diffs.append({"step": None, "what": "refused", "who": None,
                          "a": ea["message"] if ea else None, "b": eb["message"] if eb else None,
                          "a_rule": ea and ea["rule"], "b_rule": eb and eb["rule"]})
    if "result" in ra and "result" in rb:
        sa = {s["id"]: s for s in ra["result"]["steps"]}
        sb = {s["id"]: s for s in rb["result"]["steps"]}
        order = list(sa) + [x for x in sb if x not in sa]
        for sid in order:
            found = _step_differences(sid, sa.get(sid), sb.get(sid), ra["after"].get(sid), rb["after"].get(sid))
            diffs += found
            if not found:
                same_steps.append(sid)
        fa, fb = ra["result"]["final"], rb["result"]["final"]
        for pid in fa:
            found = _final_differences(pid, fa[pid], fb.get(pid, {}))
            diffs += found
            if not found:
                same_people.append(pid)
    return {"format": "drd-diff/1", "title": loaded.scenario.title, "seed": seed, "choose": choose,
            "names": names, "a": ra, "b": rb, "rule_differences": rule_differences(ra, rb),
            "differences": diffs, "identical": {"steps": same_steps, "participants": same_people}}


def _step_differences(sid: str, a: dict | None, b: dict | None, after_a: dict | None,
                      after_b: dict | None) -> list[dict]:
    if a is None or b is None:
        return [{"step": sid, "what": "step", "who": None, "a": "proběhl" if a else "neproběhl",
                 "b": "proběhl" if b else "neproběhl"}]
    out: list[dict] = []

    def add(what: str, who: str | None, va: Any, vb: Any) -> None:
        if va != vb:
            out.append({"step": sid, "what": what, "who": who, "a": va, "b": vb})

    for pid in list(a["rolls"]) + [p for p in b["rolls"] if p not in a["rolls"]]:
        add("roll", pid, (a["rolls"].get(pid) or {}).get("total"), (b["rolls"].get(pid) or {}).get("total"))
    pa = {(p["actor"], p["counter"]): p for p in a.get("pairs", [])}
    pb = {(p["actor"], p["counter"]): p for p in b.get("pairs", [])}
    for key in list(pa) + [k for k in pb if k not in pa]:
        add("pair", f"{key[0]} vs {key[1]}", _pair_text(pa.get(key)), _pair_text(pb.get(key)))
    for pid in list(a["actions"]) + [p for p in b["actions"] if p not in a["actions"]]:
        xa, xb = a["actions"].get(pid), b["actions"].get(pid)
        add("success", pid, xa and xa.get("success"), xb and xb.get("success"))
        add("affected", pid, sorted((xa or {}).get("affected") or []), sorted((xb or {}).get("affected") or []))
    add("exhaustions", None, [_exhaustion_text(e) for e in a["exhaustions"]],
        [_exhaustion_text(e) for e in b["exhaustions"]])
    for pid, numbers in (after_a or {}).items():
        add("ohrozeni", pid, numbers["ohrozeni"], (after_b or {}).get(pid, {}).get("ohrozeni"))
    return out


def _pair_text(p: dict | None) -> Any:
    if p is None:
        return None
    return {"winner": p["winner"], "totals": list(p["totals"]), "tie": p.get("tie", False),
            "reroll": p.get("reroll", False)}


def _exhaustion_text(e: dict) -> dict:
    return {"by": e["by"], "vs": e["vs"], "cost": e["cost"], "pool": e["pool"], "ohrozeni": list(e["ohrozeni"]),
            "protected": list(e.get("protected") or [])}


def _final_differences(pid: str, a: dict, b: dict) -> list[dict]:
    out = []
    for key in ("ohrozeni", *POOLS, "suroviny", "vyhody", "jizvy", "conditions", "equipment"):
        if key in a or key in b:
            if a.get(key) != b.get(key):
                out.append({"step": None, "what": "final", "who": pid, "field": key, "a": a.get(key),
                            "b": b.get(key)})
    return out
