"""Prostředí (`prostredi`): environment actions, follow-up actions and indirect threats.

CS-ENV-1..3, CS-FOL-1, CS-IND-1. The plugin returns data — which výzvy happen at the end of a
round, which výzva follows an action, whom an action threatens indirectly — and the core resolves
them as ordinary výzvy.
"""

from __future__ import annotations

from typing import Any

from drd_cli.plugin import hookimpl


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Akce prostředí, následné akce a nepřímé ohrožení", "kind": "rule area",
            "rules": ["CS-ENV-1", "CS-ENV-2", "CS-ENV-3", "CS-FOL-1", "CS-IND-1"],
            "description": "výzvy na konci kola, následné akce hned po své příčině, obrana proti nepřímému ohrožení"}


@hookimpl
def drd_indirect_threats(action: Any) -> list[str]:
    ids = list(action.threatens or [])
    fu = action.followup
    if fu is not None and fu.challenge.affects not in (None, "all"):
        aff = fu.challenge.affects
        ids += [x for x in ([aff] if isinstance(aff, str) else aff) if x not in ids]
    return ids


@hookimpl
def drd_followup(followup: Any) -> Any:
    return followup.challenge


@hookimpl
def drd_round_end(scenario: Any, round_index: int, round: Any) -> list:
    """File-level entries repeat every round up to `until`; a round entry with the same id adds its
    react, rolls, counters and choices; other round entries are this round's own."""
    out = []
    local = {e.id: (i, e) for i, e in enumerate(round.environment) if e.id} if round is not None else {}
    used = set()
    for i, entry in enumerate(scenario.environment):
        if entry.challenge is None or (entry.until is not None and round_index > entry.until):
            continue
        spec = entry.challenge
        choices = dict(entry.choices)
        path = ("environment", i)
        if entry.id in local:
            j, over = local[entry.id]
            used.add(entry.id)
            if over.challenge is not None:
                # "adds": the round's answers join the file-level ones (the round's win for the same
                # participant), its counters come after the file-level counters.
                update = {}
                for k in ("react", "rolls", "dice", "bonus_from"):
                    extra = getattr(over.challenge, k)
                    if extra:
                        update[k] = {**(getattr(spec, k) or {}), **extra}
                if over.challenge.counters:
                    update["counters"] = list(spec.counters) + list(over.challenge.counters)
                spec = spec.model_copy(update=update)
            choices.update(over.choices)
            path = ("rounds", round_index - 1, "environment", j)
        out.append((entry.id, spec, choices, path))
    if round is not None:
        for j, entry in enumerate(round.environment):
            if entry.id in used or entry.challenge is None:
                continue
            out.append((entry.id, entry.challenge, dict(entry.choices), ("rounds", round_index - 1, "environment", j)))
    return out
