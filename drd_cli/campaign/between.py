"""Between conflicts: an adjustment (`drd postava uprav hanus telo=+2 --duvod "noc v hostinci"`)
and healing a Jizva (`drd postava vylec hanus "Pád z výšky"`), each a chronicle entry.

Healing (docs/kampan.md "Healing"): the rules leave the numbers to the group, so they are campaign
parameters: `heal_cost` (default 5 points, the base the ability catalogue's healing discounts
speak of), paid from `heal_pool` (default `jizva`: the Jizva's own pool). Vznešenost (Vliv),
Nezdolnost (Tělo) and Dobrá nálada (Duše) lower the cost of healing a Jizva on that pool by 1
(4 instead of 5). A Jizva of known size gives its pool's maximum back (`jizva_lowers_max`).
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import DrdError, Location, RuleViolation
from ..i18n import _
from . import chronicle, state as st

_KEYS = {"telo": "telo", "tělo": "telo", "duse": "duse", "duše": "duse", "vliv": "vliv",
         "ohrozeni": "ohrozeni", "ohrožení": "ohrozeni", "vyhody": "vyhody", "výhody": "vyhody"}
_CHANGE = re.compile(r"^\s*(max\.|hranice\.)?([^=\s]+)\s*=\s*([+-]?)(\d+)\s*$")
POOL_WORDS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv"}
HEAL_DISCOUNTS = {"vznesenost": "vliv", "nezdolnost": "telo", "dobra-nalada": "duse"}


def parse_change(text: str) -> tuple[bool, str, str, int]:
    """`telo=+2` → (False, 'telo', '+', 2); `max.telo=6` → (True, 'telo', '', 6)."""
    m = _CHANGE.match(text)
    key = _KEYS.get(m.group(2).lower()) if m else None
    if m is None or key is None or (m.group(1) and key not in st.POOLS):
        raise DrdError(_("{change}: expected POOL=+N, POOL=-N or POOL=N (telo, duse, vliv, ohrozeni, vyhody; "
                         "max.telo=N for a maximum)").format(change=repr(text)), Location("uprav"))
    return bool(m.group(1)), key, m.group(3), int(m.group(4))


def adjust(campaign: Any, ident: str, changes: list[str], reason: str | None) -> tuple[dict, list[str]]:
    """Applies `changes`; returns the chronicle entry and notes on clamped values."""
    parsed = [parse_change(c) for c in changes]
    with campaign.changing() as tx:
        existing = chronicle.entries(campaign)
        model = campaign.read("postava", ident)
        before = st.file_state(model)
        after: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                                 for k, v in before.items()}
        notes: list[str] = []
        for is_max, key, sign, n in parsed:
            if is_max:
                caps = dict(after["max"] or {})
                caps[key] = _moved(caps.get(key, after["pools"][key]), sign, n)
                after["max"] = caps
            elif key in st.POOLS:
                after["pools"][key] = _moved(after["pools"][key], sign, n)
            else:
                after[key] = _moved(after[key] or 0, sign, n)
        for p in st.POOLS:
            cap = (after["max"] or {}).get(p)
            if cap is not None and after["pools"][p] > cap:
                notes.append(_("{pool} {value} is above its maximum {cap}: {cap} kept").format(
                    pool=POOL_WORDS[p], value=after["pools"][p], cap=cap))
                after["pools"][p] = cap
        entry = _entry(tx, campaign, existing, ident, model, before, after, "adjust", reason=reason, notes=notes)
    return entry, notes


def _moved(value: int, sign: str, n: int) -> int:
    if sign == "+":
        return value + n
    if sign == "-":
        return max(0, value - n)
    return n


def _entry(tx: Any, campaign: Any, existing: list, ident: str, model: Any, before: dict, after: dict, kind: str,
           **fields: Any) -> dict:
    text_before = st.read_text(campaign.entity_path("postava", ident))
    hash_after = st.write_state(tx, campaign, ident, after, before)
    entry = chronicle.new_entry(chronicle.next_number(existing), kind, characters={ident: {
        "file": f"postavy/{ident}.yaml", "before": before, "after": after,
        "hash_before": st.current_hash(model), "hash_after": hash_after, "text_before": text_before}}, **fields)
    label = f"{kind}-{ident}"
    chronicle.write_entry(tx, campaign, entry, label=label)
    return entry


def heal(campaign: Any, ident: str, jizva: str, pool: str | None = None) -> tuple[dict, int, str]:
    """Heals Jizva `jizva`; returns the entry, the cost paid and the pool it was paid from."""
    params = campaign.params
    with campaign.changing() as tx:
        existing = chronicle.entries(campaign)
        model = campaign.read("postava", ident)
        before = st.file_state(model)
        names = [j if isinstance(j, str) else j["name"] for j in before["jizvy"]]
        if jizva not in names:
            import difflib

            close = difflib.get_close_matches(jizva, names, n=1, cutoff=0.5)
            where = Location(campaign.rel(campaign.entity_path("postava", ident)))
            raise DrdError(_("{id} has no Jizva {name!r}").format(id=ident, name=jizva), where,
                           hint=_("did you mean {option}?").format(option=repr(close[0])) if close else
                           (_("its Jizvy: {names}").format(names=", ".join(names)) if names else _("it has no Jizvy")))
        index = names.index(jizva)
        record = before["jizvy"][index]
        jpool = None if isinstance(record, str) else _pool(record.get("pool"))
        payer = params.heal_pool if params.heal_pool != "jizva" else (pool or jpool)
        if payer is None:
            raise DrdError(_("the Jizva {name!r} has no pool in the file: say which pool pays with --zdroj "
                             "telo|duse|vliv").format(name=jizva), Location(campaign.rel(campaign.entity_path(
                                 "postava", ident))))
        cost = heal_cost(model, jpool or payer, params.heal_cost)
        if before["pools"][payer] < cost:
            from .entities import POOL_WORDS

            raise RuleViolation(_("healing the Jizva “{name}” costs {cost} {pool}; {who} has {have}").format(
                name=jizva, cost=cost, pool=POOL_WORDS.get(payer, payer), who=model.name or ident,
                have=before["pools"][payer]), Location(ident),
                hint=_("rest first (`drd postava uprav {id} {pool}=+N`), or change heal_cost in drd-kampan.yaml")
                .format(id=ident, pool=payer))
        after: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
                                 for k, v in before.items()}
        after["pools"][payer] -= cost
        del after["jizvy"][index]
        size = None if isinstance(record, str) else record.get("size")
        if size and jpool and params.jizva_lowers_max and after["max"] and after["max"].get(jpool) is not None:
            after["max"][jpool] += size
        entry = _entry(tx, campaign, existing, ident, model, before, after, "heal", jizva=jizva, cost=cost,
                       paid_from=payer)
    return entry, cost, payer


def _pool(value: Any) -> str | None:
    return {"tělo": "telo", "duše": "duse"}.get(value, value)


def heal_cost(model: Any, pool: str, base: int) -> int:
    from ..scenario.models import ability_id

    held = {ability_id(a) for a in model.abilities}
    discount = sum(1 for aid, p in HEAL_DISCOUNTS.items() if aid in held and p == pool)
    return max(0, base - discount)
