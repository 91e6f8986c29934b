"""The steps of every scenario in scenarios/, with the rolls the file gives left open: where the
fast method answers, its exact numbers equal the class method's (exact there too)."""

from __future__ import annotations

from pathlib import Path

from drd_cli import api
from drd_cli.errors import DrdError
from drd_cli.odds.step import StepPrep, odds_for

from opened import with_open_step

ROOT = Path(__file__).resolve().parents[2]
NUMBERS = ("pairs", "ohrozeni", "success", "hit", "exhausts", "exhaust_cost", "exhaust_vs", "refused")


def test_fast_method_equals_class_method_on_every_scenario_step():
    compared, differ = 0, []
    for path in sorted((ROOT / "scenarios").glob("*.yaml")):
        loaded = api.load_scenario(str(path))
        if loaded.system != "drd2":
            continue
        for ri, rnd in enumerate(loaded.scenario.rounds):
            for si, step in enumerate(rnd.steps):
                sid = step.id or f"{ri + 1}.{si + 1}"
                try:
                    prep = StepPrep(with_open_step(loaded, ri, si), sid)
                    fast = odds_for(prep, "accept", time_limit=None)
                except DrdError:
                    continue        # opened, the step breaks a rule (a file that shows a refusal)
                if fast["method"] != "independent":
                    continue
                classes = odds_for(prep, "accept", fast_method=False, time_limit=None)
                assert classes["exact"]
                compared += 1
                if any(fast[k] != classes[k] for k in NUMBERS):
                    differ.append(f"{path.name} {sid}")
    assert not differ
    assert compared >= 8
