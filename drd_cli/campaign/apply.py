"""Writing a conflict's outcome back into the character files, and undoing the last entry.

What carries (docs/kampan.md "What carries"): the final pools; new Jizvy (with their pool and size
when the result says them: a Jizva taken for points, R-EXH-4, has the size of its gain and, by the
campaign parameter `jizva_lowers_max`, lowers its pool's maximum by it); items lost or broken
(gone from the character's equipment); lasting conditions (those without a time limit, except
the conditions of the moment the scenario gave beside the reference). Ohrožení and Výhody belong
to one conflict unless the campaign's `carry` names them. Creatures are kinds: not written back.
"""

from __future__ import annotations

from typing import Any

from ..errors import DrdError, Location, RuleViolation
from ..i18n import _
from ..scenario.references import shown_path
from . import chronicle, state as st

POOL_WORDS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv"}


def apply_conflict(campaign: Any, result: dict, scenario_path: str, *, player: dict | None = None) -> dict:
    """Applies `result` (with `campaign.start`) to the characters; returns the chronicle entry."""
    start = (result.get("campaign") or {}).get("start") or {}
    rel = conflict_id(campaign.rel(scenario_path))
    if not any(s.get("kind") == "postava" for s in start.values()):
        raise DrdError(_("{file} names no campaign character (postava:): there is nothing to write back").format(
            file=rel), Location(scenario_path))
    with campaign.changing() as tx:
        existing = chronicle.entries(campaign)
        prior = chronicle.applied(existing, rel)
        if prior is not None:
            same = rel == campaign.rel(scenario_path)      # else a replay of it (its file is named)
            message = (_("this conflict was applied already: chronicle entry {number} ({when}, {who})") if same
                       else _("{file} was applied already: chronicle entry {number} ({when}, {who})"))
            raise RuleViolation(message.format(file=rel, number=prior["number"], when=prior["when"], who=prior["who"]),
                                Location(scenario_path),
                                hint=_("`drd kronika vrat` undoes the last entry; a new conflict is a new file"))
        chars = {}
        for pid, s in start.items():
            if s.get("kind") != "postava":
                continue
            model = campaign.read("postava", s["id"])
            now_hash = st.current_hash(model)
            if now_hash != s["hash"]:
                raise _changed(campaign, existing, s, scenario_path)
            before = st.file_state(model)
            after, notes = outcome(before, result["final"][pid], result, pid, s, campaign.params)
            text_before = st.read_text(campaign.entity_path("postava", s["id"]))
            new_hash = st.write_state(tx, campaign, s["id"], after, before)
            chars[s["id"]] = {"file": s["file"], "before": before, "after": after, "hash_before": now_hash,
                              "hash_after": new_hash, "notes": notes, "text_before": text_before}
        entry = chronicle.new_entry(chronicle.next_number(existing), "conflict", file=rel, title=result.get("title"),
                                    digest=result.get("digest"), seed=result.get("seed"), characters=chars)
        chronicle.write_entry(tx, campaign, entry, label=result.get("title") or rel, result=result, player=player)
    return entry


def conflict_id(rel: str) -> str:
    """The conflict a file stands for: a replay of `drd play` (`boj.replay.yaml`) is its scenario's."""
    return rel[:-len(".replay.yaml")] + ".yaml" if rel.endswith(".replay.yaml") else rel


def _changed(campaign: Any, existing: list[dict], s: dict, scenario_path: str) -> RuleViolation:
    import datetime as _dt
    import os

    last = chronicle.last_touching(existing, s["id"])
    if last is not None:
        by = _("chronicle entry {number} ({kind}, {when}, {who})").format(
            number=last["number"], kind=kind_word(last["kind"]), when=last["when"], who=last["who"])
    else:
        stamp = os.stat(campaign.entity_path("postava", s["id"])).st_mtime
        when = _dt.datetime.fromtimestamp(stamp, _dt.timezone.utc).replace(microsecond=0).isoformat()
        by = _("an edit of the file outside drd ({when})").format(when=when.replace("+00:00", "Z"))
    return RuleViolation(_("{id} changed since this conflict started from it: {by}").format(id=s["id"], by=by),
                         Location(scenario_path),
                         hint=_("resolve the conflict again from the character as it is now"))


def kind_word(kind: str) -> str:
    words = {"conflict": _("conflict"), "adjust": _("adjustment"), "heal": _("healing"), "import": _("import"),
             "undo": _("undo")}
    return words.get(kind, kind)


def _names(items: list) -> list[str]:
    from .yamlfile import item_name

    return [item_name(i) for i in items]


def _kept(before: list, wanted: list[str]) -> list:
    """The items of `before` whose names are in `wanted` (as many times as there), in order."""
    from .yamlfile import item_name

    left = list(wanted)
    out = []
    for item in before:
        n = item_name(item)
        if n in left:
            left.remove(n)
            out.append(item)
    return out


def outcome(before: dict, final: dict, result: dict, pid: str, start: dict, params: Any) -> tuple[dict, list]:
    """The character's state after the conflict, and notes on what was clamped."""
    after: dict[str, Any] = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                             for k, v in before.items()}
    notes: list[str] = []
    after["pools"] = {p: final.get(p, before["pools"][p]) for p in st.POOLS}
    old_names = _names(before["jizvy"])
    new_jizvy = list(after["jizvy"])
    gained = _gained_jizvy(result, pid)
    for name in final.get("jizvy", []):
        if name in old_names:
            old_names.remove(name)
            continue
        pool, size = gained.pop(name, (None, None))
        new_jizvy.append({"name": name, "pool": pool, "size": size} if pool or size else name)
        if size and pool and params.jizva_lowers_max and after["max"] and after["max"].get(pool) is not None:
            after["max"][pool] = max(0, after["max"][pool] - size)
    after["jizvy"] = new_jizvy
    if after["max"]:
        for p, cap in after["max"].items():
            if after["pools"][p] > cap:
                notes.append(f"{POOL_WORDS[p]}: {after['pools'][p]} → {cap}")
                after["pools"][p] = cap
    after["equipment"] = _kept(before["equipment"], list(final.get("equipment", [])))
    after["conditions"] = _conditions(before["conditions"], final.get("conditions", []), start.get("moment", []))
    for key in ("ohrozeni", "vyhody"):
        if key in params.carry:
            after[key] = final.get(key, 0)
    return after, notes


def _gained_jizvy(result: dict, pid: str) -> dict:
    """{name: (pool, size)} of the Jizvy `pid` took for points (R-EXH-4) in the result."""
    out = {}
    for step in result.get("steps", []):
        for e in step.get("exhaustions", []) or []:
            g = (e.get("gained") or {}).get("jizva")
            if e.get("by") == pid and g:
                out[g["name"]] = (e.get("pool") if e.get("pool") in st.POOLS else None, g.get("gain"))
    return out


def _conditions(before: list, final: list, moment: list[str]) -> list:
    lasting = [c if isinstance(c, str) else c.get("name") for c in final
               if isinstance(c, str) or c.get("rounds") is None]
    old = _names(before)
    lasting = [c for c in lasting if c in old or c not in moment]
    kept = _kept(before, lasting)
    kept_names = _names(kept)
    for c in lasting:
        if c in kept_names:
            kept_names.remove(c)
        else:
            kept.append(c)
    return kept


def undo_last(campaign: Any) -> dict:
    """Undoes the last entry not undone yet (only while its characters are as it left them)."""
    with campaign.changing() as tx:
        existing = chronicle.entries(campaign)
        target = next((e for e in reversed(existing) if e["kind"] != "undo" and not e["undone"]), None)
        if target is None:
            raise RuleViolation(_("the chronicle has nothing to undo"), Location(shown_path(campaign.path(chronicle.FOLDER))))
        changes = target.get("characters") or {}
        blocked = []
        for ident, c in changes.items():
            kind = c.get("kind", "postava")
            path = campaign.entity_path(kind, ident)
            if not st.exists(campaign, kind, ident):
                if c.get("hash_after") is not None:
                    blocked.append(_("{id}: its file is gone").format(id=ident))
                continue
            now_hash = st.current_hash(campaign.read(kind, ident), kind)
            if now_hash != c.get("hash_after"):
                later = [e for e in existing if e["number"] > target["number"] and ident in (e.get("characters") or {})]
                blocked.append(_("{id} changed since: {by}").format(id=ident, by=(
                    _("chronicle entry {number} ({kind}, {when}, {who})").format(
                        number=later[-1]["number"], kind=kind_word(later[-1]["kind"]), when=later[-1]["when"],
                        who=later[-1]["who"]) if later else _("an edit of {file} outside drd").format(
                            file=campaign.rel(path)))))
        if blocked:
            raise RuleViolation(_("entry {number} cannot be undone: {reasons}").format(
                number=target["number"], reasons="; ".join(blocked)), Location(shown_path(campaign.path(chronicle.FOLDER))),
                hint=_("undo the later entries first, or put the character back as the entry left it"))
        undone = {}
        for ident, c in changes.items():
            path = campaign.entity_path(c.get("kind", "postava"), ident)
            if c.get("before") is None:          # the entry created the character (an import)
                tx.remove(path)
                new_hash = None
            elif c.get("text_before") is not None:
                tx.write(path, c["text_before"])
                new_hash = c.get("hash_before")
            else:
                new_hash = st.write_state(tx, campaign, ident, c["before"])
            undone[ident] = {"kind": c.get("kind", "postava"), "file": c.get("file"), "before": c.get("after"), "after": c.get("before"),
                             "hash_before": c.get("hash_after"), "hash_after": new_hash}
        entry = chronicle.new_entry(chronicle.next_number(existing), "undo", undoes=target["number"],
                                    characters=undone)
        chronicle.write_entry(tx, campaign, entry, label=_("undo {number}").format(number=target["number"]))
    return entry
