"""Properties of follow-ups over generated contests (CS-FOL-1, CS-IND-1, §5): nobody undergoes a
follow-up whom the action did not get through to or whose protection won, and a general `exhaust`
of someone outside the contest is used by the follow-up or refused — never silently ignored."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drd_cli.errors import DrdError
from drdtest import run, step

PEOPLE = ["jur", "ota", "kel", "mir"]


@st.composite
def contests(draw):
    targets = draw(st.lists(st.sampled_from(PEOPLE), min_size=0, max_size=3, unique=True))
    others = [p for p in PEOPLE if p not in targets]
    counters = []
    reactors = draw(st.lists(st.sampled_from(PEOPLE), max_size=2, unique=True))
    for pid in reactors:
        kind = draw(st.sampled_from(["harm", "protect"]))
        if pid not in targets and kind == "protect":
            kind = "harm"
        src = "" if pid in targets else ", from: initiative"
        counters.append(f"{{actor: {pid}, kind: {kind}, pool: telo, roll: {draw(st.integers(2, 14))}{src},"
                        f" effect: {{ohrozeni: 1}}}}")
    named = draw(st.one_of(st.none(), st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=3, unique=True)))
    affects = f"affects: [{', '.join(named)}], " if named else ""
    if not targets and not named:
        affects = f"affects: [{others[0]}], "
    threatens = "" if targets else f"threatens: [{', '.join(named or [others[0]])}]\n            "
    answers = {p: draw(st.sampled_from([None, "accept", "exhaust"])) for p in PEOPLE}
    choices = ", ".join([f"{p}: {a}" for p, a in answers.items() if a] + ["vlkava: accept"])
    roll = draw(st.integers(2, 14))
    text = f"""
format: drd/1
title: t
participants:
  vlkava: {{name: Vlkava, pools: {{telo: 30, duse: 5, vliv: 4}}, ohrozeni: 1}}
""" + "".join(f"  {p}: {{name: {p.title()}, pools: {{telo: 30, duse: 5, vliv: 4}}, ohrozeni: 1}}\n" for p in PEOPLE) + f"""
rounds:
  - initiative: [vlkava, {', '.join(PEOPLE)}]
    steps:
      - id: s
        contest:
          action:
            actor: vlkava
            pool: telo
            targets: [{', '.join(targets)}]
            {threatens}roll: {roll}
            effect: {{ohrozeni: 1}}
            followup:
              challenge: {{name: jed, {affects}pool: telo, effect: {{jizva: otrava}}}}
          counters: [{', '.join(counters)}]
        choices: {{{choices}}}
"""
    return text, targets, [c.split(",")[0].split(": ")[1] for c in counters], answers


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(contests())
def test_a_follow_up_lands_only_where_its_action_got_through(case):
    text, targets, reactors, answers = case
    try:
        r = run(text)
    except DrdError as e:
        assert e.exit_code in (1, 2), e.format()
        return
    s = step(r, "s")
    poisoned = {p for p in PEOPLE if "otrava" in r["final"][p]["jizvy"]}
    if targets:
        reached = set(s["actions"]["vlkava"]["affected"]) | {e["by"] for e in s["exhaustions"]
                                                             if e["vs"] == "vlkava" and e["by"] in targets}
        for e in s["exhaustions"]:
            if e["vs"] == "vlkava":
                reached |= set(e["protected"])
        assert poisoned <= reached, (poisoned, reached)
    shielded = {p for p in reactors if p not in targets and s["actions"].get(p, {}).get("success")
                and p in poisoned}
    assert not shielded
    for who, ans in answers.items():
        if ans == "exhaust" and who not in reactors:
            # used somewhere in the step (an exhaustion it paid), or the run would have been refused
            assert any(e["by"] == who for e in s["exhaustions"]), (who, [l["text"] for l in s["log"]])
