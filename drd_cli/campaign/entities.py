"""Characters and creatures for people: summaries, descriptions, new commented files, JSON Schemas."""

from __future__ import annotations

import json
import os
from typing import Any

from ..errors import DrdError, Location
from ..i18n import _
from ..scenario.character import jizva_name
from .folder import valid_id

POOLS = ("telo", "duse", "vliv")
POOL_WORDS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv"}


def schema_of(what: str) -> dict:
    from ..scenario.character import CampaignFile, CharacterFile, CreatureFile

    models: dict[str, Any] = {"postava": CharacterFile, "bestie": CreatureFile, "kampan": CampaignFile}
    if what not in models:
        raise DrdError(_("{what!r}: expected postava, bestie or kampan").format(what=what), Location("schema"))
    schema = models[what].model_json_schema(by_alias=False)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def summary_of(kind: str, ident: str, model: Any) -> dict:
    row: dict = {"id": ident, "name": model.name}
    if kind == "postava":
        row["pools"] = {p: getattr(model.pools, p) for p in POOLS}
        row["max"] = {p: getattr(model.max, p) for p in POOLS} if model.max else None
        row["levels"] = dict(model.levels)
    else:
        row["sudba"] = model.sudba
        row["count"] = model.count
    row["jizvy"] = [jizva_name(j) for j in model.jizvy]
    return row


def _pools_text(row: dict) -> str:
    caps = row.get("max") or {}
    return ", ".join(f"{POOL_WORDS[p]} {row['pools'][p]}" + (f"/{caps[p]}" if caps.get(p) is not None else "")
                     for p in POOLS)


def summary_line(row: dict) -> str:
    name = f" ({row['name']})" if row.get("name") else ""
    if "pools" in row:
        body = _pools_text(row)
    else:
        body = f"Sudba {row['sudba']}" + (f" ×{row['count']}" if row.get("count", 1) > 1 else "")
    scars = _("Jizvy: {names}").format(names=", ".join(row["jizvy"])) if row["jizvy"] else ""
    return "  ".join(x for x in (f"{row['id']}{name}", body, scars) if x)


def character_namer(campaign: Any) -> Any:
    """id → the character's name from its file, for the chronicle (its entries keep ids); the id
    when the file is gone or gives no name."""
    known: dict[str, str] = {}

    def name(ident: str) -> str:
        if ident not in known:
            known[ident] = ident    # a file removed since: the entry still names it by its id
            for kind in ("postava", "bestie"):
                try:
                    known[ident] = str(campaign.read(kind, ident).name or ident)
                    break
                except Exception:
                    continue
        return known[ident]

    return name


def ability_name(ident: str) -> str:
    """An ability's name from its card (`kruhovy-sek` → `Kruhový sek`); the id when no plugin has it."""
    from ..abilities import installed_catalogue

    try:
        card = installed_catalogue(only=ident).get(ident) or {}
    except Exception:   # a broken plugin must not hide the character: its id is shown instead
        card = {}
    return str(card.get("name") or ident)


def describe(kind: str, ident: str, model: Any) -> list[str]:
    from ..scenario.models import ability_id
    from ..terms import profession_name

    row = summary_of(kind, ident, model)
    lines = [f"{model.name or ident} [{ident}]"]
    if kind == "postava":
        lines.append(_("pools (now/maximum): {pools}").format(pools=_pools_text(row)))
        if model.levels:
            lines.append(_("professions: {levels}").format(
                levels=", ".join(f"{profession_name(k)} {v}" for k, v in model.levels.items())))
    else:
        lines.append(f"Sudba {model.sudba}" + (f" ×{model.count}" if model.count > 1 else ""))
        if model.charakteristika is not None:
            ch = model.charakteristika
            lines.append(_("charakteristika: {value}").format(
                value=ch if isinstance(ch, int) else f"{ch.level} ({', '.join(ch.covers)})" if ch.covers else ch.level))
    if model.jizvy:
        lines.append(_("Jizvy: {names}").format(names=", ".join(_jizva_text(j) for j in model.jizvy)))
    if model.abilities:
        lines.append(_("abilities: {ids}").format(ids=", ".join(ability_name(ability_id(a)) for a in model.abilities)))
    if model.equipment:
        lines.append(_("equipment: {items}").format(items=", ".join(
            e if isinstance(e, str) else e.name for e in model.equipment)))
    if model.conditions:
        lines.append(_("conditions: {items}").format(items=", ".join(
            c if isinstance(c, str) else c.name for c in model.conditions)))
    for key, word in (("ohrozeni", "Ohrožení"), ("vyhody", "Výhody")):
        if getattr(model, key) is not None:
            lines.append(f"{word} {getattr(model, key)}")
    if model.notes:
        lines.append(_("notes: {text}").format(text=model.notes))
    return lines


def _jizva_text(j: Any) -> str:
    if isinstance(j, str):
        return j
    extra = ", ".join(x for x in (POOL_WORDS.get({"tělo": "telo", "duše": "duse"}.get(j.pool, j.pool), "")
                                  if j.pool else "", str(j.size) if j.size is not None else "") if x)
    return f"{j.name} ({extra})" if extra else j.name


def change_lines(change: dict) -> list[str]:
    """What changed between a chronicle change's `before` and `after`, one line each."""
    if change.get("before") is None and change.get("after") is not None:       # an import made the file
        return [_("new file: {state}").format(state=_state_text(change["after"]))]
    if change.get("after") is None and change.get("before") is not None:       # an undo of that import
        return [_("file removed: {state}").format(state=_state_text(change["before"]))]
    before, after = change.get("before") or {}, change.get("after") or {}
    lines = []
    for p in POOLS:
        a, b = (before.get("pools") or {}).get(p), (after.get("pools") or {}).get(p)
        if a != b:
            lines.append(f"{POOL_WORDS[p]} {_shown(a)} → {_shown(b)}")
        ma, mb = (before.get("max") or {}).get(p), (after.get("max") or {}).get(p)
        if ma != mb:
            lines.append(_("{pool} maximum {old} → {new}").format(pool=POOL_WORDS[p], old=_shown(ma), new=_shown(mb)))
    for key, word in (("ohrozeni", "Ohrožení"), ("vyhody", "Výhody")):
        if before.get(key) != after.get(key):
            lines.append(f"{word} {before.get(key) or 0} → {after.get(key) or 0}")
    for key, gained, lost in (("jizvy", _("new Jizva"), _("Jizva healed")),
                              ("equipment", _("item gained"), _("item lost")),
                              ("conditions", _("condition"), _("condition gone"))):
        old = [_name(x) for x in before.get(key) or []]
        new = [_name(x) for x in after.get(key) or []]
        for n in new:
            if n in old:
                old.remove(n)
            else:
                lines.append(f"{gained}: {n}")
        for n in old:
            lines.append(f"{lost}: {n}")
    return lines


def _shown(value: Any) -> str:
    return "–" if value is None else str(value)


def _state_text(state: dict) -> str:
    """`Tělo 3/5, Duše 5/5, Vliv 2/4` of a character's state, `Sudba 12` of a creature's."""
    if "pools" not in state:
        return f"Sudba {state.get('sudba', '?')}"
    return _pools_text({"pools": state["pools"], "max": state.get("max")})


def _name(x: Any) -> str:
    return x if isinstance(x, str) else str(x.get("name"))


def new_file(camp: Any, kind: str, ident: str, name: str | None) -> str:
    from ..safefiles import replace_atomically

    if not valid_id(ident) or ident != ident.strip():
        raise DrdError(_("{id!r} cannot be an id (a file name without / and not starting with a dot)").format(
            id=ident), Location(ident))
    path = camp.entity_path(kind, ident)
    if os.path.exists(path):
        raise DrdError(_("the file exists already"), Location(camp.rel(path)),
                       hint=_("choose another id, or change the file itself (drd {kind} show {id})").format(
                           kind=kind, id=ident))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    replace_atomically(path, character_text(name or ident) if kind == "postava" else creature_text(name or ident))
    return path


def character_text(name: str) -> str:
    q = json.dumps(name, ensure_ascii=False)
    head = _("A character of the campaign (docs/kampan.md); the keys are those of a scenario participant.")
    now, caps = _("now"), _("maxima (hranice)")
    levels, abil = _("professions, e.g. {bojovnik: 2}"), _("ability ids (drd abilities)")
    scars, lasting = _("e.g. {name: Zlomené žebro, pool: telo, size: 1}"), _("lasting conditions")
    return (f"# {head}\n"
            "format: drd-postava/1\n"
            f"name: {q}\n"
            f"pools: {{telo: 5, duse: 5, vliv: 5}}      # {now}\n"
            f"max: {{telo: 5, duse: 5, vliv: 5}}        # {caps}\n"
            f"levels: {{}}                              # {levels}\n"
            f"abilities: []                           # {abil}\n"
            "equipment: []\n"
            f"jizvy: []                               # {scars}\n"
            f"conditions: []                          # {lasting}\n"
            "# side: družina\n")


def creature_text(name: str) -> str:
    q = json.dumps(name, ensure_ascii=False)
    head = _("A creature (or a kind of creature) of the campaign (docs/kampan.md).")
    plain, count = _("or a plain number (covers everything)"), _("how many beings it stands for")
    return (f"# {head}\n"
            "format: drd-bestie/1\n"
            f"name: {q}\n"
            "sudba: 6\n"
            f"charakteristika: {{level: 2, covers: []}}   # {plain}\n"
            "abilities: []\n"
            f"count: 1                                 # {count}\n")
