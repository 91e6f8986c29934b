"""The player's view of a result (`drd resolve --view player`, `drd play --view player`).

A scenario may mark participants and steps `secret: true` (our extension, docs/scenario-format.md).
`player_view` returns a copy of the result in which what the players must not see is "?" and a
secret step is only a stub (`secret: true`, which the transcript prints as a one-line note). It
reads the result and the scenario's marks only; the digest is left as it is — it is the full
result's, so the GM can `--verify` a player's transcript against the full run.

What a secret participant hides: its Sudba, pools, Suroviny and Ohrožení (in `final` and in the exhaustions
it pays, whose cost is its Ohrožení), and its rolls in hiding steps (a deceived's roll tells the
hidden how close it came). Log lines are free text: those that could state a hidden number (an
exhaustion, a denial or a payment of a secret participant, any line with Ohrožení or a pool word, anything
of theirs in a hiding step) keep their rule id and have every number replaced by "?".
"""

from __future__ import annotations

import copy
import re
from typing import Any

HIDDEN = "?"
SECRET_FINAL_KEYS = ("sudba", "telo", "duse", "vliv", "ohrozeni", "suroviny")
# Log lines of these rules state a payer's cost or Ohrožení (R-EXH-*, CS-SEQ-1, CS-FOR-*, a denial
# CS-MULTI-5); so does any line with the book's words for them, which no translation changes.
PAYMENT_RULES = ("R-EXH", "CS-SEQ", "CS-FOR", "CS-MULTI-5")
HIDDEN_WORDS = ("Ohrožení", "Sudba", "Tělo", "Duše", "Vliv", "Surovin")


def secret_marks(scenario: Any) -> tuple[set[str], set[tuple[int, str]]]:
    """(ids of secret participants, {(round number, step id)} of secret steps) of a scenario model."""
    people = {pid for pid, p in (getattr(scenario, "participants", None) or {}).items() if getattr(p, "secret", False)}
    steps = set()
    for ri, rnd in enumerate(getattr(scenario, "rounds", None) or []):
        for si, step in enumerate(rnd.steps):
            if getattr(step, "secret", False):
                steps.add((ri + 1, step.id or f"{ri + 1}.{si + 1}"))
    return people, steps


def player_view(result: dict, scenario: Any) -> dict:
    """A copy of `result` with the secret values "?" and the secret steps reduced to a stub."""
    people, steps = secret_marks(scenario)
    out = copy.deepcopy(result)
    out.pop("notes", None)       # the file's notes are the GM's
    names = {pid: (info or {}).get("name") or pid for pid, info in (out.get("participants") or {}).items()}
    secret_names = [names.get(pid, pid) for pid in people]
    shown = []
    for step in out.get("steps") or []:
        if not isinstance(step, dict):
            shown.append(step)
            continue
        if (step.get("round"), step.get("id")) in steps:
            shown.append({"id": step.get("id"), "round": step.get("round"), "kind": step.get("kind"), "secret": True})
            continue
        _mask_step(step, people, secret_names)
        shown.append(step)
    out["steps"] = shown
    for pid in people:
        state = (out.get("final") or {}).get(pid)
        if isinstance(state, dict):
            for key in SECRET_FINAL_KEYS:
                if key in state:
                    state[key] = HIDDEN
    return out


def _mask_step(step: dict, people: set[str], secret_names: list[str]) -> None:
    hiding = step.get("kind") == "hide"
    if hiding:
        for pid in people:
            roll = (step.get("rolls") or {}).get(pid)
            if isinstance(roll, dict):
                roll.update(total=HIDDEN, dice=None, bonus=None)
                roll.pop("modifiers", None)
        for pair in step.get("pairs") or []:
            if isinstance(pair, dict) and pair.get("totals") and (pair.get("actor") in people
                                                                   or pair.get("counter") in people):
                pair["totals"] = [HIDDEN] * len(pair["totals"])
    for e in step.get("exhaustions") or []:
        if isinstance(e, dict) and e.get("by") in people:
            e["cost"] = HIDDEN
            if isinstance(e.get("ohrozeni"), list):
                e["ohrozeni"] = [HIDDEN] * len(e["ohrozeni"])
            e.pop("breakdown", None)
    for entry in step.get("log") or []:
        if not isinstance(entry, dict):
            continue
        text = str(entry.get("text", ""))
        rule = str(entry.get("rule") or "")
        names_one = any(n and n in text for n in secret_names)
        if names_one and (hiding or rule.startswith(PAYMENT_RULES) or any(w in text for w in HIDDEN_WORDS)):
            entry["text"] = re.sub(r"\d+", HIDDEN, text)


__all__ = ["HIDDEN", "player_view", "secret_marks"]
