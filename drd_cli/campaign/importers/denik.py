"""drd2-denik (matejcik/drd2-denik): the character JSON the app keeps in the browser's
localStorage (`localStorage.getItem("character")`), docs/kampan-import.md.

`resources.<pool>._limit` is the Hranice before Jizvy (the app allows 0–15), `_available` the points
now, `scars[]` the Jizvy of that pool, each lowering the maximum by its `value`.
"""

from __future__ import annotations

from typing import Any

from ...i18n import _
from ...skills import slug
from .common import POOL_WORDS, Imported, Report, ident_of, number, read_json, refuse, short, text

KNOWN = {"name", "role", "level", "experience", "resources", "skillLevels"}
POOLS = ("telo", "duse", "vliv")
LIMIT_MAX = 15
LEVEL_RANGE = (1, 5)


def parse(path: str, *, creature: bool, params: Any, keys: dict | None = None) -> Imported:
    """drd2-denik keeps no abilities: `keys` (`--klic`) finds none here and is said so by the caller."""
    data = read_json(path, "drd2-denik")
    if not isinstance(data, dict) or "resources" not in data or "name" not in data:
        raise refuse(path, _("this is not a drd2-denik character (no `name` and `resources`)"),
                     hint=_("drd import roll20 reads Roll20 (VTTES) files, drd import ikaros Projekt Ikaros; "
                            "nothing was written"))
    if creature:
        raise refuse(path, _("drd2-denik keeps heroes only; --bestie cannot make a creature of one"))
    unknown = sorted(set(data) - KNOWN)
    if unknown:
        raise refuse(path, _("unknown keys for drd2-denik: {keys}").format(keys=", ".join(unknown)))
    report = Report()
    name = text(data.get("name"))
    ident = ident_of(name, path)
    pools: dict[str, int] = {}
    caps: dict[str, int] = {}
    jizvy: list[dict] = []
    resources = data["resources"]
    if not isinstance(resources, dict) or any(p not in resources for p in POOLS):
        raise refuse(path, _("`resources` must hold telo, duse and vliv (the file is cut short?)"))
    for pool in POOLS:
        pools[pool], caps[pool] = _pool(path, pool, resources[pool], report, jizvy)
    out: dict = {"format": "drd-postava/1", "name": name, "pools": pools, "max": caps}
    levels = _levels(path, data.get("skillLevels") or [], report)
    if levels:
        out["levels"] = levels
    if jizvy:
        out["jizvy"] = jizvy
    for key in ("role", "level", "experience"):
        if data.get(key) not in (None, ""):
            report.unmapped(f"{key} ({short(data[key])})")
    return Imported("postava", ident, out, report, "denik")


def _pool(path: str, pool: str, res: Any, report: Report, jizvy: list) -> tuple[int, int]:
    if not isinstance(res, dict):
        raise refuse(path, _("resources.{pool} is not an object").format(pool=pool))
    if res.get("type") not in (None, pool):
        raise refuse(path, _("resources.{pool}.type is {value!r}").format(pool=pool, value=res.get("type")))
    limit, avail = number(res.get("_limit")), number(res.get("_available"))
    if limit is None or avail is None:
        raise refuse(path, _("resources.{pool} lacks _limit or _available").format(pool=pool))
    if not 0 <= limit <= LIMIT_MAX or avail < 0:
        raise refuse(path, _("resources.{pool}: _limit {limit}, _available {avail} are impossible in drd2-denik "
                             "(0–{max})").format(pool=pool, limit=limit, avail=avail, max=LIMIT_MAX))
    scarred = 0
    for scar in res.get("scars") or []:
        value = number(scar.get("value")) if isinstance(scar, dict) else None
        if value is None or value < 0:
            raise refuse(path, _("resources.{pool}.scars: a scar without a valid value").format(pool=pool))
        scarred += value
        jizvy.append({"name": text(scar.get("description")) or _("Jizva"), "pool": pool, "size": value})
    cap = max(0, limit - scarred)
    if avail > cap:
        report.clamped(_("{pool} {value} is above its maximum {cap} (Hranice {limit} − Jizvy {scars})").format(
            pool=POOL_WORDS[pool], value=avail, cap=cap, limit=limit, scars=scarred))
        avail = cap
    return avail, cap


def _levels(path: str, items: Any, report: Report) -> dict:
    if not isinstance(items, list):
        raise refuse(path, _("skillLevels is not a list"))
    levels: dict = {}
    for item in items:
        level = number(item.get("level")) if isinstance(item, dict) else None
        name = text(item.get("name")) if isinstance(item, dict) else ""
        if level is None or not name:
            raise refuse(path, _("skillLevels: an entry without a name or level"))
        if not LEVEL_RANGE[0] <= level <= LEVEL_RANGE[1]:
            raise refuse(path, _("skillLevels: {name} level {level} is impossible in drd2-denik (1–5)").format(
                name=name, level=level))
        key = slug(name)
        if key in levels:
            report.guessed(_("{name} is listed twice: the higher level {level} taken").format(
                name=name, level=max(level, levels[key])))
            level = max(level, levels[key])
        levels[key] = level
    if levels:
        report.guessed(_("drd2-denik sets a random level when a profession is added: check the levels"))
    return levels
