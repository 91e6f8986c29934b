"""The steps of every scenario in scenarios/, with the rolls the file gives left open: where the
fast method answers, its exact numbers equal the class method's (exact there too), under every
answer policy; where it does not, the JSON says why."""

from __future__ import annotations

from pathlib import Path

from drd_cli import api
from drd_cli.errors import DrdError
from drd_cli.odds.fast import WHY
from drd_cli.odds.step import StepPrep, odds_for

from opened import with_open_step

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = ("pairs", "ohrozeni", "success", "hit", "exhausts", "exhaust_cost", "exhaust_vs", "refused")


def opened_steps():
    """(file name, step id, prepared step with its rolls open) of every DrD II scenario step."""
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        loaded = api.load_scenario(str(path))
        if loaded.system != "drd2":
            continue
        for ri, rnd in enumerate(loaded.scenario.rounds):
            for si, step in enumerate(rnd.steps):
                sid = step.id or f"{ri + 1}.{si + 1}"
                yield path.name, sid, with_open_step(loaded, ri, si)


def test_fast_method_equals_class_method_on_every_scenario_step():
    compared, kinds, differ, why = 0, set(), [], set()
    for name, sid, loaded in opened_steps():
        for choose in ("accept", "exhaust", "cheapest"):
            try:
                prep = StepPrep(loaded, sid)
                fast = odds_for(prep, choose, time_limit=None)
            except DrdError:
                break       # opened, the step breaks a rule (a file that shows a refusal)
            if fast["method"] != "independent":
                assert fast["why_not_fast"] in (None, *WHY), (name, sid)
                why.add(fast["why_not_fast"])
                continue
            classes = odds_for(prep, choose, fast_method=False, time_limit=None)
            if not classes["exact"] or classes["dropped"]:
                continue    # only the fast method is exact here
            compared += 1
            kinds.add(fast["kind"])
            if any(fast[k] != classes[k] for k in NUMBERS):
                differ.append(f"{name} {sid} {choose}")
    assert not differ
    assert compared >= 40 and {"test", "contest", "challenge"} <= kinds
    # Výzvy with protecting counters (hrun-sudy, borri-stavidla-ochrana …) are answered by the fast
    # method now: no step of the scenarios is left to the class method for them.
    assert {"policy", "hooks"} <= why and "protect" not in why
