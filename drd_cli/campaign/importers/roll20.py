"""Roll20's „Draci doupe II" sheet, as the VTT Enhancement Suite exports a character (JSON,
schema 1–3), docs/kampan-import.md; and `drd export roll20 ID` back.

`sheet_type` says hero (`pc`) or creature (`npc`). An attribute never edited is absent and means
the sheet's default (pools: level 5, current 5, scarred 0). A hero pool's maximum is recomputed as
`level − scarred`; its current value above that is clamped. Values the sheet's own inputs could not
hold (a negative pool, a level above 16, a basic profession above 5) are refused.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from ...i18n import _
from .common import POOL_WORDS, Imported, Report, abilities, ident_of, lines_of, number, read_json, refuse, short, text

GROUPS = {"telo": "body", "duse": "spirit", "vliv": "influence"}
BASIC = ("bojovnik", "lovec", "kejklir", "mastickar", "zarikavac")
ADVANCED = ("valecnik", "hranicar", "saman", "druid", "lupic", "zved", "vedmak", "alchymista", "carodej", "mag")
MASTER = ("cernokneznik", "divotvurce", "inkvizitor", "mstitel", "nicitel", "paladin", "stin", "vudce", "zivlomag",
          "zrec")
SECTIONS = ("rasove", "scars", "effects", "amulets", "runic") + BASIC + ADVANCED + MASTER
POOL_MAX = 16
_UI = re.compile(r"^(sheet_tab|whisper_option|journal_page|networks_page|orgs_page|skills_page|categories_shown|"
                 r"(body|spirit|influence)\d+|companion_bond\d+|network\d_bond\d+|.*_pool|.*_current_max|"
                 r"professions_total|character_level|amulets_total|_reporder_.*)$")
USED = {"sheet_type", "danger", "advantages", "materials", "inv_equipment", "inv_gear", "load", "tenacity_current",
        "tenacity_default", "group_size", "group_count", "npc_characteristic", "npc_characteristic_desc",
        "npc_inventory", "npc_special_skills", "npc_owner"}


def parse(path: str, *, creature: bool, params: Any, keys: dict | None = None) -> Imported:
    data = read_json(path, "Roll20 (VTTES)")
    ch = _character(path, data)
    attrs, rows = _attributes(path, ch)
    sheet = text((attrs.get("sheet_type") or ["", ""])[0])
    name = text(ch.get("name"))
    ident = ident_of(name, path)
    report = Report()
    if sheet == "npc":
        imported = _creature(path, ident, name, attrs, rows, report, keys)
    elif sheet == "pc":
        if creature:
            raise refuse(path, _("the sheet is a hero (Hrdina); --bestie needs a creature sheet (Bytost)"))
        imported = _hero(path, ident, name, attrs, rows, report, params, keys)
    else:
        raise refuse(path, _("the sheet's type was never chosen (sheet_type is neither pc nor npc)"),
                     hint=_("open the character in Roll20 and choose Hrdina or Bytost; nothing was written"))
    for key in sorted(attrs):
        if key not in USED and not _UI.match(key) and not _consumed(key) and attrs[key][0] not in ("", None, " "):
            report.unmapped(f"{key} ({short(attrs[key][0])})")
    return imported


def _character(path: str, data: Any) -> dict:
    if not isinstance(data, dict) or "schema_version" not in data:
        raise refuse(path, _("this is not a Roll20 character exported by VTTES (no schema_version)"),
                     hint=_("drd import ikaros reads Projekt Ikaros, drd import denik drd2-denik; nothing was written"))
    version = data.get("schema_version")
    if version == 3:
        if data.get("type") != "character":
            raise refuse(path, _("this VTTES file is a {type!r}, not a character").format(type=data.get("type")))
        ch = data.get("character")
    elif version in (1, 2):
        ch = data
    else:
        raise refuse(path, _("VTTES schema_version {version} is not one drd reads (1, 2, 3)").format(version=version))
    if not isinstance(ch, dict) or not isinstance(ch.get("attribs"), list):
        raise refuse(path, _("the character has no attribute list (the file is cut short?)"))
    return ch


def _attributes(path: str, ch: dict) -> tuple[dict, dict]:
    """{lower name: [current, max]} (X_max folded into X's max) and {(section, row): {field: value}}."""
    attrs: dict = {}
    rows: dict = {}
    for a in ch["attribs"]:
        if not isinstance(a, dict) or not isinstance(a.get("name"), str):
            raise refuse(path, _("an attribute without a name (the file is damaged)"))
        key = a["name"].lower()
        if key.startswith("repeating_"):
            for section in SECTIONS:
                prefix = f"repeating_{section}_"
                if key.startswith(prefix):
                    row, _sep, field = key[len(prefix):].rpartition("_")
                    for f in ("scar_desc", "scar_target", "scar_tier", "skill_desc", "effect_desc", "effect_type",
                              "effect_duration", "scar_advantages", "amulet_charge", "amulet_desc", "runic_charge",
                              "runic_desc"):
                        if key.endswith("_" + f):
                            row, field = key[len(prefix):-len(f) - 1], f
                            break
                    rows.setdefault((section, row), {})[field] = a.get("current")
                    break
            continue
        if key.endswith("_max") and key[:-4] in attrs:
            attrs[key[:-4]][1] = a.get("current")
            continue
        attrs[key] = [a.get("current"), a.get("max")]
    return attrs, rows


def _consumed(key: str) -> bool:
    return bool(re.match(r"^(body|spirit|influence)_(level|current|scarred|exhausted)$", key)
                or re.match(r"^[a-z]+_level$", key) and key[:-6] in BASIC + ADVANCED + MASTER)


def _num(attrs: dict, key: str, default: int, report: Report, *, which: int = 0) -> int:
    raw = (attrs.get(key) or [None, None])[which]
    value = number(raw)
    if value is None:
        if raw not in (None, "", " "):
            report.guessed(_("{key} = {value!r} is not a number: the sheet's default {default}").format(
                key=key, value=raw, default=default))
        return default
    return value


def _hero(path: str, ident: str, name: str, attrs: dict, rows: dict, report: Report, params: Any,
          keys: dict | None = None) -> Imported:
    pools, caps, jizvy = {}, {}, []
    tiers = {p: 0 for p in GROUPS}
    for (section, _row), fields in rows.items():
        if section != "scars":
            continue
        target = text(fields.get("scar_target")) or "body"
        title = (lines_of(fields.get("scar_desc"), commas=False) or [_("Jizva")])[0]
        tier = number(fields.get("scar_tier"))
        tier = 1 if tier is None else tier
        pool = next((p for p, g in GROUPS.items() if g == target), None)
        if pool is None:
            report.unmapped(_("Jizva {name!r} on {target} (not a pool)").format(name=title, target=target))
            continue
        tiers[pool] += tier
        jizvy.append({"name": title, "pool": pool, "size": tier})
    for pool, g in GROUPS.items():
        level = _num(attrs, f"{g}_level", 5, report)
        scarred = _num(attrs, f"{g}_scarred", 0, report)
        now = _num(attrs, f"{g}_current", 5, report)
        if not 0 <= level <= POOL_MAX or scarred < 0 or now < 0:
            raise refuse(path, _("{group}: level {level}, scarred {scarred}, current {now} are impossible on the "
                                 "sheet (0–16, not negative)").format(group=g, level=level, scarred=scarred, now=now))
        cap = max(0, level - scarred)
        stored = number((attrs.get(f"{g}_current") or [None, None])[1])
        if stored is not None and stored != cap:
            report.guessed(_("{group}: the stored maximum {stored} differs from level − scarred = {cap}; {cap} "
                             "taken").format(group=g, stored=stored, cap=cap))
        if now > cap:
            report.clamped(_("{pool} {value} is above its maximum {cap}").format(pool=POOL_WORDS[pool], value=now, cap=cap))
            now = cap
        if tiers[pool] != scarred:
            report.guessed(_("{group}: the Jizvy rows add up to {rows}, the sheet says {scarred} scarred").format(
                group=g, rows=tiers[pool], scarred=scarred))
        pools[pool], caps[pool] = now, cap
    out: dict = {"format": "drd-postava/1", "name": name, "pools": pools, "max": caps}
    levels = {}
    for pid in BASIC + ADVANCED + MASTER:
        level = _num(attrs, f"{pid}_level", 0, report)
        if level < 0 or (pid not in MASTER and level > 5):
            raise refuse(path, _("{id}_level = {level} is impossible on the sheet (0–5)").format(id=pid, level=level))
        if level > 0:
            levels[pid] = level
    if levels:
        out["levels"] = levels
    names = [(text(f.get("skill")), [text(f.get("skill_desc"))]) for (section, _row), f in rows.items()
             if section not in ("scars", "effects", "amulets", "runic") and text(f.get("skill"))]
    found = abilities(names, report, "Roll20", keys)
    if found:
        out["abilities"] = found
    equipment = [_item(line) for line in lines_of(_text(attrs, "inv_equipment"), commas=False)
                 + lines_of(_text(attrs, "inv_gear"), commas=False)]
    if equipment:
        out["equipment"] = equipment
        if all(isinstance(item, str) for item in equipment):
            report.unmapped(_("armour: the sheet has no armour number; add `{name, armour: N}` by hand where it "
                              "applies"))
    if jizvy:
        out["jizvy"] = jizvy
    materials = _num(attrs, "materials", 0, report)
    if materials > 0:
        out["suroviny"] = materials
    _common(attrs, rows, report, params, out)
    if number((attrs.get("tenacity_current") or [0, 0])[1]):
        report.unmapped(_("the companions' shared Sudba: import the companion's Bytost sheet with --bestie"))
    return Imported("postava", ident, out, report, "roll20")


ARMOUR_MARK = re.compile(r"^(?P<name>.*\S)\s*\(zbroj (?P<armour>\d{1,2})\)$")
"""An item line `kroužková košile (zbroj 2)`: how `drd export roll20` writes an item's armour."""


def _item(line: str) -> Any:
    m = ARMOUR_MARK.match(line)
    if m is None or int(m.group("armour")) == 0:
        return line
    return {"name": m.group("name"), "armour": int(m.group("armour"))}


def _text(attrs: dict, key: str) -> str:
    return text((attrs.get(key) or ["", ""])[0])


def _common(attrs: dict, rows: dict, report: Report, params: Any, out: dict) -> None:
    for key, field in (("danger", "ohrozeni"), ("advantages", "vyhody")):
        value = _num(attrs, key, 0, report)
        if value < 0:
            report.clamped(_("{key} {value} is below 0: 0").format(key=key, value=value))
            value = 0
        if field in params.carry:
            out[field] = value
        elif value:
            report.unmapped(_("{key} = {value}: Ohrožení and Výhody belong to one conflict in this campaign "
                              "(params.carry)").format(key=key, value=value))
    if _text(attrs, "load") in ("S", "T"):
        report.unmapped(_("load {value} (naložení): which actions it makes demanding is the group's call").format(
            value=_text(attrs, "load")))
    for (section, _row), fields in rows.items():
        if section == "effects" and text(fields.get("effect_desc")):
            report.unmapped(_("long-term effect {text!r}").format(text=short(lines_of(
                fields.get("effect_desc"), commas=False)[0])))
        if section in ("amulets", "runic") and text(fields.get(section[:-1] + "_desc")):
            report.unmapped(_("{section}: {text}").format(section=section, text=short(fields.get(section[:-1] + "_desc"))))


def _creature(path: str, ident: str, name: str, attrs: dict, rows: dict, report: Report,
              keys: dict | None = None) -> Imported:
    current = _num(attrs, "tenacity_current", 0, report)
    top = _num(attrs, "tenacity_current", 0, report, which=1)
    default = _num(attrs, "tenacity_default", 0, report)
    if current < 0 or default < 0:
        raise refuse(path, _("a negative Sudba is impossible on the sheet"))
    sudba = current if top > 0 else default
    if top <= 0:
        report.guessed(_("Sudba: no current value with a maximum, the base {value} taken").format(value=default))
    if sudba == 0:
        report.guessed(_("Sudba is 0: spent, or never filled in?"))
    out: dict = {"format": "drd-bestie/1", "name": name, "sudba": sudba}
    size = _text(attrs, "group_size") or "individual"
    count = _num(attrs, "group_count", 0, report)
    if size in ("dozen", "drove", "horde"):
        if count < 2:
            report.guessed(_("group size {size} with {count} beings: 1 taken").format(size=size, count=count))
        elif count:
            out["count"] = count
    level = _num(attrs, "npc_characteristic", 0, report)
    if not 0 <= level <= 6:
        raise refuse(path, _("npc_characteristic = {value} is impossible on the sheet (0–6)").format(value=level))
    covers = lines_of(_text(attrs, "npc_characteristic_desc"))
    out["charakteristika"] = {"level": level, "covers": covers} if covers else level
    jizvy = [(lines_of(f.get("scar_desc"), commas=False) or [_("Jizva")])[0]
             for (s, _r), f in rows.items() if s == "scars" and text(f.get("scar_target")) != "bond"]
    if jizvy:
        out["jizvy"] = jizvy
    equipment = lines_of(_text(attrs, "npc_inventory"))
    if equipment:
        out["equipment"] = equipment
    found = abilities(lines_of(_text(attrs, "npc_special_skills"), commas=False), report, "Roll20", keys)
    if found:
        out["abilities"] = found
    owner = _text(attrs, "npc_owner")
    if owner:
        out["side"] = owner
        report.guessed(_("side {owner!r} taken from „Patří k\""). format(owner=owner))
    for g in GROUPS.values():
        if f"{g}_level" in attrs:
            report.unmapped(_("Hranice {group} {level} (a creature's, not a pool)").format(
                group=g, level=_text(attrs, f"{g}_level")))
    _common(attrs, rows, report, type("P", (), {"carry": []})(), out)
    return Imported("bestie", ident, out, report, "roll20")


def export(name: str, model: Any) -> dict:
    """A VTTES (schema 3) file with the attributes drd keeps for a character, for the sheet's import."""
    from ...scenario.character import jizva_name

    attribs: list[dict[str, Any]] = [{"name": "sheet_type", "current": "pc", "max": ""}]
    sizes = {p: 0 for p in GROUPS}
    rows: list[dict[str, Any]] = []
    for j in model.jizvy:
        pool = None if isinstance(j, str) else {"tělo": "telo", "duše": "duse"}.get(j.pool, j.pool)
        size = None if isinstance(j, str) else j.size
        rid = "-" + secrets.token_urlsafe(15)[:19]
        rows += [{"name": f"repeating_scars_{rid}_scar_desc", "current": jizva_name(j), "max": ""},
                 {"name": f"repeating_scars_{rid}_scar_target", "current": GROUPS.get(pool or "", "body"), "max": ""},
                 {"name": f"repeating_scars_{rid}_scar_tier", "current": size if size is not None else 1, "max": ""}]
        if pool and size:
            sizes[pool] += size
    for pool, g in GROUPS.items():
        now = getattr(model.pools, pool)
        cap = getattr(model.max, pool) if model.max is not None else None
        cap = now if cap is None else cap
        attribs += [{"name": f"{g}_level", "current": cap + sizes[pool], "max": ""},
                    {"name": f"{g}_scarred", "current": sizes[pool], "max": ""},
                    {"name": f"{g}_current", "current": now, "max": cap},
                    {"name": f"{g}_exhausted", "current": cap - now, "max": ""}]
    for key, field in (("danger", "ohrozeni"), ("advantages", "vyhody")):
        if getattr(model, field) is not None:
            attribs.append({"name": key, "current": getattr(model, field), "max": ""})
    for pid, level in model.levels.items():
        if pid in BASIC + ADVANCED + MASTER:
            attribs.append({"name": f"{pid}_level", "current": level, "max": ""})
    attribs += _equipment(model.equipment)
    for i, a in enumerate(attribs + rows):
        a["id"] = f"-drd{i:016d}"
    return {"schema_version": 3, "type": "character",
            "character": {"name": name, "avatar": "", "bio": "", "gmnotes": "", "defaulttoken": "", "tags": "[]",
                          "controlledby": "", "inplayerjournals": "", "attribs": attribs + rows, "abilities": []}}


def _equipment(items: list) -> list[dict]:
    """The sheet's two free-text fields: an item with armour (`name (zbroj N)`, read back by the
    importer) under „Zbraně, zbroje, nástroje" (`inv_gear`), the others under „Vybavení"
    (`inv_equipment`), one per line in the file's order. Empty fields are left out."""
    plain, gear = [], []
    for item in items:
        if isinstance(item, str):
            plain.append(item)
        elif item.armour:
            gear.append(f"{item.name} (zbroj {item.armour})")
        else:
            plain.append(item.name)
    return [{"name": key, "current": "\n".join(lines), "max": ""}
            for key, lines in (("inv_equipment", plain), ("inv_gear", gear)) if lines]


def not_exported(model: Any) -> list[str]:
    """What of a character the sheet has no place for (said on the standard error by `drd export`)."""
    out = []
    for item in model.equipment:
        if not isinstance(item, str) and (item.free or item.needs or item.enables):
            out.append(_("{item}: its free manoeuvre, `needs` and `enables` (the sheet keeps items as text)").format(
                item=item.name))
    return out
