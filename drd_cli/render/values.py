"""Words for the values of a result (render/text.py builds the transcript with them): codes →
translated terms, participant ids → names (with their gender and forms), plugin ids → titles.
The result being worded is held in context variables while `build` runs."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from ..i18n import N_, _, ngettext
from ..terms import MANOEUVRES
from .doc import Span
from ..wording import Who, choose

# Result codes → English msgids, translated when used (the language is chosen at run time).
POOLS = {"telo": N_("Body"), "duse": N_("Soul"), "vliv": N_("Influence"), "sudba": N_("Fate"),
         "suroviny": N_("Ingredients"),
         "vyhoda": N_("Advantage"), "vyhody": N_("Advantages"), "free": N_("free")}
KINDS = {"test": N_("test"), "contest": N_("contest"), "race": N_("race"), "declare": N_("obvious action"),
         "challenge": N_("challenge"), "hide": N_("hiding"), "skill": N_("skill (Dakara)")}
SOURCES = {"given": N_("from the file"), "seeded": N_("random (seed)"), "entered": N_("entered at the table")}
LONG_STATUS = {"completed": N_("completed"), "continuing": N_("continuing"), "interrupted": N_("interrupted")}
SITUATIONS = {"unaware": N_("unaware (S1)"), "chance": N_("may notice by chance (S2)"),
              "search": N_("searching (S3)")}
RESOLVED_AS = {"none": N_("no roll"), "challenge": N_("challenge"), "test": N_("test"), "contest": N_("contest")}
OUTCOMES = {
    "auto-success": (N_("SUCCESS without a roll"), "ok"), "success": (N_("SUCCESS"), "ok"),
    "win": (N_("WIN"), "ok"), "draw": (N_("DRAW"), "warn"), "failure": (N_("FAILURE"), "bad"),
    "loss": (N_("LOSS"), "bad"), "withdrawn": (N_("WITHDRAWN"), "dim"), "impossible": (N_("IMPOSSIBLE"), "bad"),
}
DAKARA_MODIFIERS = {"finta": N_("finta"), "tools": N_("tools"), "situational": N_("situational"),
                    "helpers": N_("helpers")}
DAKARA_ANSWERS = {"yes": N_("YES (no roll needed)"), "no": N_("NO (not sure to succeed)"),
                  "impossible": N_("IMPOSSIBLE")}
# The values of the rule `tie` (R-CONT) in a sentence: the value itself is what `--set tie=…` types.
TIES = {"actor": N_("a tie goes to the actor"), "counter": N_("a tie goes to the counter-action"),
        "reroll": N_("a tie is rolled again")}
COMPLICATIONS = {"none": N_("no complications"), "mild": N_("mild complications"),
                 "serious": N_("serious complications")}


# Who the ids are (the result's `participants`), for the transcript being built: people read names.
_PEOPLE: ContextVar[dict] = ContextVar("drd_transcript_people", default={})
# What the plugin ids the result records are called (the result's `titles`): Kruhový sek, not kruhovy-sek.
_TITLES: ContextVar[dict] = ContextVar("drd_transcript_titles", default={})


def _title(source: Any) -> str:
    if source == "presne":
        return _t(MANOEUVRES, "presne")
    if source == "floor":
        return _("not below 0")
    if source == "armour":
        return _("armour")
    return str(_TITLES.get().get(str(source), source))


def _who(pid: Any) -> str:
    """A participant's name where the result gives one; anything else (a label, "?") unchanged."""
    entry = _PEOPLE.get().get(str(pid)) if pid is not None else None
    name = entry.get("name") if isinstance(entry, dict) else None
    if not name and pid == "narrator":
        return _("Narrator")       # Dakara: the narrator's roll in a test (a reserved id)
    return str(name) if name else str(pid)


def _person(pid: Any) -> Who:
    """A participant's name with its gender, number and forms where the result gives them (docs/i18n.md)."""
    entry = _PEOPLE.get().get(str(pid)) if pid is not None else None
    entry = entry if isinstance(entry, dict) else {}
    rod = entry.get("rod") or ("mn" if isinstance(entry.get("count"), int) and entry["count"] > 1 else None)
    forms = entry.get("pady")
    forms = forms if isinstance(forms, dict) else {}
    return Who(_who(pid), rod, {int(k): str(v) for k, v in forms.items() if str(k).isdigit()})


def _say(msgid: str, subject: str, **fields: Any) -> str:
    """`msgid` translated, its `[[…]]` alternatives chosen for the participants in `fields`."""
    return choose(_(msgid), subject, fields)


def _people(items: Any) -> str:
    """A list of participant ids as names ("–" when empty)."""
    if not items:
        return "–"
    return ", ".join(_who(i) for i in (items if isinstance(items, (list, tuple)) else [items]))


def _t(table: dict, key: Any) -> str:
    """A code looked up in one of the tables above and translated; unknown codes unchanged."""
    msgid = table.get(str(key)) if key is not None else None
    return _(msgid) if msgid else str(key)


def tie_words(tie: Any) -> str:
    """`actor` → `při remíze vyhrává aktér` (a value no table knows unchanged)."""
    return _t(TIES, tie)


def pool_name(pool: Any) -> str:
    """`telo` → `Tělo` (unknown names unchanged)."""
    return _t(POOLS, pool)


def _words(items: Any) -> str:
    if not items:
        return "–"
    if isinstance(items, (list, tuple)):
        return ", ".join(_item(i) for i in items)
    return _item(items)


def _item(value: Any) -> str:
    if isinstance(value, dict):
        if "name" in value:
            extra = []
            if value.get("rounds") is not None:
                rounds = value["rounds"]
                extra.append(ngettext("{n} more round", "{n} more rounds", rounds).format(n=rounds)
                             if isinstance(rounds, int) else f"{rounds}")
            if value.get("armour"):
                extra.append(_("armour {n}").format(n=value["armour"]))
            return f"{value['name']} ({', '.join(extra)})" if extra else str(value["name"])
        return ", ".join(f"{k}: {_item(v)}" for k, v in value.items())
    if value is True:
        return _("yes")
    if value is False:
        return _("no")
    if value is None:
        return "–"
    return str(value)


def _verdict(success: Any) -> Span:
    if success is True:
        return Span(_("SUCCESS"), "ok")
    if success is False:
        return Span(_("FAILURE"), "bad")
    return Span(str(success))


def _signed(value: Any) -> str:
    return f"{value:+d}" if isinstance(value, int) and not isinstance(value, bool) else str(value)


def step_name(step: dict, who: Any = None) -> str | None:
    """What a reader calls a step of a result: its title (a výzva's name, the main action's label),
    else who acts in it; None when the result says neither (then only its id is left). Every output
    that names a step uses it — the transcript's heading, `drd explain`, `drd play`, `drd diff`,
    `drd simulate` — so a reader sees `útěk`, not the id `utek`."""
    who = who or _who
    title = step.get("title")
    if title:
        return str(title)
    tries = step.get("tries")
    if isinstance(tries, dict) and tries:
        return ", ".join(who(pid) for pid in tries)
    if step.get("kind") == "skill" and step.get("actor"):
        return str(who(step["actor"]))
    return None


def scenario_step_title(scenario: Any, step_id: str) -> str | None:
    """The title a step of a loaded scenario gets in the transcript (engine/run.py `_step_title`):
    a výzva's name, the main action's label; None when the file gives neither."""
    for rnd in getattr(scenario, "rounds", None) or ():
        for step in getattr(rnd, "steps", None) or ():
            if getattr(step, "id", None) != step_id:
                continue
            challenge = getattr(step, "challenge", None)
            if challenge is not None:
                return getattr(challenge, "name", None)
            contest = getattr(step, "contest", None)
            if contest is not None:
                return getattr(getattr(contest, "action", None), "label", None)
            for kind in ("test", "race", "declare", "hide"):
                label = getattr(getattr(step, kind, None), "label", None)
                if isinstance(label, str) and label:
                    return label
            return None
    return None
