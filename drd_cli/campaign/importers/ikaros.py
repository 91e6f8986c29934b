"""Projekt Ikaros: a hero's diary (the GET …/diary response, or its bare `customData` map of
`drd2_*` keys) and a bestiary entry (`systemStats`), docs/kampan-import.md.

The hero sheet ("16.2e") stores scalars as text and lists as JSON text; it clamps maxima to 1–20
and Ohrožení/Výhody to 0–9, profession levels to 0–5. A value outside what the sheet can hold is
refused; a current value above its maximum (which the sheet allows while typing) is clamped.
"""

from __future__ import annotations

import json
from typing import Any

from ...i18n import _
from ...skills import slug
from .common import POOL_WORDS, Imported, Report, abilities, ident_of, lines_of, number, read_json, refuse, short, text

POOLS = {"telo": "body", "duse": "soul", "vliv": "influence"}
MAX_RANGE = (0, 20)
USED = {"drd2_name", "drd2_body", "drd2_soul", "drd2_influence", "drd2_body_max", "drd2_soul_max",
        "drd2_influence_max", "drd2_body_scars", "drd2_soul_scars", "drd2_influence_scars", "drd2_threat",
        "drd2_advantage", "drd2_state_effects", "drd2_weapons", "drd2_basic_professions",
        "drd2_advanced_professions", "drd2_master_professions", "drd2_special_abilities", "drd2_master_abilities"}


def parse(path: str, *, creature: bool, params: Any, keys: dict | None = None) -> Imported:
    data = read_json(path, "Projekt Ikaros")
    if not isinstance(data, dict):
        raise _not_ikaros(path)
    stats = _bestie_stats(data)
    if stats is not None:
        return _bestie(path, data, stats, keys)
    custom: dict = data["customData"] if isinstance(data.get("customData"), dict) else data
    if not any(isinstance(k, str) and k.startswith("drd2_") for k in custom):
        raise _not_ikaros(path)
    if creature:
        raise refuse(path, _("this is an Ikaros hero's diary; --bestie needs a bestiary entry (systemStats)"))
    return _hero(path, custom, params, keys)


def _not_ikaros(path: str) -> Any:
    return refuse(path, _("this is not a Projekt Ikaros export (no drd2_* keys, no customData, no systemStats)"),
                  hint=_("drd import roll20 reads Roll20 (VTTES) files, drd import denik drd2-denik; nothing was "
                         "written"))


def _json_list(path: str, key: str, value: Any) -> list:
    if value in (None, ""):
        return []
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError:
            raise refuse(path, _("{key} is not a valid JSON list (cut short?)").format(key=key)) from None
    if not isinstance(value, list):
        raise refuse(path, _("{key} is not a list").format(key=key))
    return [v for v in value if isinstance(v, dict)]


def _hero(path: str, custom: dict, params: Any, keys: dict | None = None) -> Imported:
    report = Report()
    name = text(custom.get("drd2_name"))
    ident = ident_of(name, path)
    pools, caps, jizvy = {}, {}, []
    for pool, key in POOLS.items():
        now, cap = number(custom.get(f"drd2_{key}")), number(custom.get(f"drd2_{key}_max"))
        for label, value in ((f"drd2_{key}", now), (f"drd2_{key}_max", cap)):
            if value is not None and not MAX_RANGE[0] <= value <= MAX_RANGE[1]:
                raise refuse(path, _("{key} = {value} is impossible on the Ikaros sheet (0–20)").format(
                    key=label, value=value))
        if now is None:
            report.guessed(_("drd2_{key} is empty: {pool} 0").format(key=key, pool=POOL_WORDS[pool]))
            now = 0
        if cap is not None and now > cap:
            report.clamped(_("{pool} {value} is above its maximum {cap}").format(pool=POOL_WORDS[pool], value=now, cap=cap))
            now = cap
        pools[pool] = now
        if cap is not None:
            caps[pool] = cap
        else:
            report.unmapped(_("drd2_{key}_max is empty: {pool} has no maximum").format(key=key, pool=POOL_WORDS[pool]))
        for scar in lines_of(custom.get(f"drd2_{key}_scars")):
            jizvy.append({"name": scar, "pool": pool})
    if jizvy:
        report.guessed(_("Jizvy are free text on the sheet: split at commas, semicolons and lines; no sizes"))
    out: dict = {"format": "drd-postava/1", "name": name, "pools": pools}
    if caps:
        out["max"] = caps
    levels = _levels(path, custom, report)
    if levels:
        out["levels"] = levels
    names = [(text(a.get("name")), [text(a.get("description")), text(a.get("note"))])
             for k in ("drd2_special_abilities", "drd2_master_abilities") for a in _json_list(path, k, custom.get(k))]
    found = abilities(names, report, "Ikaros", keys)
    if found:
        out["abilities"] = found
    equipment = _equipment(path, custom, report)
    if equipment:
        out["equipment"] = equipment
    if jizvy:
        out["jizvy"] = jizvy
    conditions = lines_of(custom.get("drd2_state_effects"), commas=False)
    if conditions:
        out["conditions"] = conditions
        report.guessed(_("drd2_state_effects taken as lasting conditions: {items}").format(items=", ".join(conditions)))
    _threat(path, custom, params, out, report)
    for key in sorted(custom):
        if isinstance(key, str) and key.startswith("drd2_") and key not in USED and custom[key] not in ("", None, "[]"):
            report.unmapped(f"{key} ({short(custom[key])})")
    return Imported("postava", ident, out, report, "ikaros")


def _threat(path: str, custom: dict, params: Any, out: dict, report: Report) -> None:
    for key, field in (("drd2_threat", "ohrozeni"), ("drd2_advantage", "vyhody")):
        value = number(custom.get(key))
        if value is None:
            continue
        if not 0 <= value <= 9:
            raise refuse(path, _("{key} = {value} is impossible on the Ikaros sheet (0–9)").format(key=key, value=value))
        if field in params.carry:
            out[field] = value
        elif value:
            report.unmapped(_("{key} = {value}: Ohrožení and Výhody belong to one conflict in this campaign "
                              "(params.carry)").format(key=key, value=value))


def _levels(path: str, custom: dict, report: Report) -> dict:
    levels: dict = {}
    for key in ("drd2_basic_professions", "drd2_advanced_professions", "drd2_master_professions"):
        for row in _json_list(path, key, custom.get(key)):
            level = number(row.get("level"))
            name = text(row.get("name"))
            pid = slug(name) or text(row.get("id"))
            if level is None or not pid:
                raise refuse(path, _("{key}: a profession without a name or level").format(key=key))
            if not 0 <= level <= 5:
                raise refuse(path, _("{key}: {name} level {level} is impossible on the Ikaros sheet (0–5)").format(
                    key=key, name=name or pid, level=level))
            if level == 0:
                report.unmapped(_("{name}: level 0 (not taken?)").format(name=name or pid))
                continue
            levels[pid] = max(level, levels.get(pid, 0))
    return levels


def _equipment(path: str, custom: dict, report: Report) -> list:
    items = []
    for row in _json_list(path, "drd2_weapons", custom.get("drd2_weapons")):
        name = text(row.get("name"))
        if not name:
            continue
        items.append(name)
        extra = ", ".join(x for x in (text(row.get("char")), text(row.get("note"))) if x)
        if extra:
            report.unmapped(_("{item}: {text} (no armour or bonus is taken from free text)").format(
                item=name, text=extra))
    return items


def _bestie_stats(data: dict) -> dict | None:
    stats = data.get("systemStats")
    if isinstance(stats, dict) and ("sudba" in stats or "charakteristiky" in stats):
        return stats
    block = ((data.get("statblocks") or {}).get("drd2") or {}).get("systemStats") \
        if isinstance(data.get("statblocks"), dict) else None
    if isinstance(block, dict):
        return block
    if isinstance(data.get("health"), dict) and data.get("systemId") == "drd2":
        return {"sudba": data["health"].get("max"), "_v1": True}
    return None


def _bestie(path: str, data: dict, stats: dict, keys: dict | None = None) -> Imported:
    report = Report()
    name = text(data.get("name"))
    ident = ident_of(name, path)
    sudba = number(stats.get("sudba"))
    if sudba is None:
        raise refuse(path, _("the bestiary entry has no Sudba"))
    if sudba < 1:
        raise refuse(path, _("Sudba {value} is impossible in the Ikaros bestiary (at least 1)").format(value=sudba))
    if stats.get("_v1"):
        report.guessed(_("an old (v1) record: health.max taken as Sudba"))
    out: dict = {"format": "drd-bestie/1", "name": name, "sudba": sudba}
    ch = _charakteristika(path, stats.get("charakteristiky") or [], report)
    if ch is not None:
        out["charakteristika"] = ch
    rows = stats.get("zvlastni_schopnosti") or stats.get("abilities") or data.get("abilities") or []
    names = [(text(r.get("nazev") or r.get("label")), [text(r.get("popis"))]) for r in rows if isinstance(r, dict)]
    found = abilities(names, report, "Ikaros", keys)
    if found:
        out["abilities"] = found
    armour = number(data.get("armor"))
    if armour:
        out["armour"] = armour
        report.guessed(_("armor {value} taken as armour").format(value=armour))
    for key in ("movement", "initiative.base", "telo", "duse", "vliv"):
        if stats.get(key) not in (None, "", 0):
            report.unmapped(f"{key} ({short(stats[key])})")
    if text(data.get("description")):
        report.unmapped(_("description (kept nowhere; add it to notes by hand)"))
    return Imported("bestie", ident, out, report, "ikaros")


def _charakteristika(path: str, rows: Any, report: Report) -> Any:
    pairs = []
    for row in rows if isinstance(rows, list) else []:
        level = number(row.get("uroven")) if isinstance(row, dict) else None
        name = text(row.get("nazev")) if isinstance(row, dict) else ""
        if not name:
            continue
        if level is None:
            level = 1
            report.guessed(_("{name}: no level, 1 taken").format(name=name))
        if level < 0:
            raise refuse(path, _("charakteristika {name} level {level} is impossible").format(name=name, level=level))
        pairs.append((name, level))
    if not pairs:
        return None
    top = max(level for _name, level in pairs)
    rest = [f"{n} {lvl}" for n, lvl in pairs if lvl != top]
    if rest:
        report.clamped(_("drd keeps one charakteristika level: {top} covers the highest; left out: {rest}").format(
            top=top, rest=", ".join(rest)))
    return {"level": top, "covers": [n for n, lvl in pairs if lvl == top]}
