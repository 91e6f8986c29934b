"""Ability cards and the checks of an ability's own keys against its card — pure functions of
the cards (RULES.md §3.1), and the words the catalogue's pages use for them.

A card's `keys` declare the ability's own keys: ``{key: {"choices": [...] | "type": "int"|"bool"|"str",
"required": bool, "default": …, "per_use": bool, "help": str}}``. A `per_use` key is chosen for
each activation (on the `activate:` item, or as the participant's usual choice on the `abilities:`
entry); one without a `default` must be given one of the two ways when the ability is activated.
"""

from __future__ import annotations

import difflib
from typing import Any, Iterable, Mapping

from ..citations import FORMAT_DOC
from ..errors import Problem
from ..i18n import N_, _


PARTICIPANTS = f"{FORMAT_DOC} §2"   # participants, their abilities and the abilities' own keys


def _slug(text: str) -> str:
    from ..skills import slug

    return slug(text)


def suggest(name: str, ids: Iterable[str], cards: Mapping[str, Mapping] | None = None) -> str | None:
    """The ability id closest to `name`: its id or Czech name written another way, else difflib."""
    ids = list(ids)
    key = _slug(name)
    if key in ids:
        return key
    for aid, card in (cards or {}).items():
        if card.get("name") and _slug(card["name"]) == key:
            return aid
    close = difflib.get_close_matches(key, ids, n=1, cutoff=0.6)
    if not close and cards:
        names = {_slug(c["name"]): aid for aid, c in cards.items() if c.get("name")}
        close = [names[n] for n in difflib.get_close_matches(key, list(names), n=1, cutoff=0.6)]
    return close[0] if close else None


def check_keys(aid: str, card: Mapping, options: Mapping[str, Any], path: tuple, *, rule: str = PARTICIPANTS,
               also: Iterable[str] = (), required: bool = True) -> list[Problem]:
    """Problems (exit 2) of one ability's own keys against its card's declaration.

    `also`: other keys the mapping may have (for "did you mean"); `required`: check the keys the
    card marks required (an `activate:` item's keys go over the `abilities:` entry's, which has them).
    """
    decls = card.get("keys") or {}
    name = card.get("name") or aid
    problems: list[Problem] = []
    for key, value in options.items():
        decl = decls.get(key)
        if decl is None:
            close = difflib.get_close_matches(str(key), list(decls) + list(also), n=1)
            hint = (_("did you mean {option}?").format(option=repr(close[0])) if close else
                    _("{ability} takes the keys: {keys}").format(ability=name, keys=", ".join(decls)) if decls else
                    _("{ability} takes no keys of its own: list it as a plain id").format(ability=name))
            problems.append(Problem(_("the ability {id} has no key {key}").format(id=repr(aid), key=repr(key)),
                                    rule=rule, path=path + (key,), hint=hint))
            continue
        choices = [str(c) for c in decl.get("choices") or ()]
        if choices:
            if not isinstance(value, str) or value not in choices:
                close = difflib.get_close_matches(str(value), choices, n=1) if isinstance(value, str) else []
                hint = (_("did you mean {option}?").format(option=repr(close[0])) if close
                        else _("one of: {choices}").format(choices=", ".join(choices)))
                problems.append(Problem(_("{ability} cannot have {key}: {value}").format(
                    ability=name, key=key, value=repr(value)), rule=rule, path=path + (key,),
                    hint=hint))
            continue
        kind = decl.get("type", "str")
        if kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            what = _("a whole number ≥ 0")
        elif kind == "bool":
            ok, what = isinstance(value, bool), _("true or false")
        else:
            ok, what = isinstance(value, str) and bool(value.strip()), _("a text")
        if not ok:
            problems.append(Problem(_("{ability}: {key} must be {what}, got {value}").format(
                ability=name, key=key, value=repr(value), what=what),
                rule=rule, path=path + (key,)))
    for key, decl in decls.items():
        if required and decl.get("required") and key not in options:
            problems.append(Problem(_("the ability {id} needs its key {key}").format(id=repr(aid), key=repr(key)),
                                    rule=PARTICIPANTS, path=path,
                                    hint=_("write it as a mapping: {{id: {id}, {key}: …}} ({help})").format(
                                        id=aid, key=key, help=decl.get("help") or key)))
    return problems


#: The shared parameters (declared by the `schopnosti` plugin, `padny_uder_natural` by padny-uder)
#: that every ability of a rule reads; a parameter only one ability reads is named by its card's
#: `reading` (`takovy_prcek: once | per-foe`).
RULE_PARAMS: dict[str, tuple[str, ...]] = {
    "R-ABIL-ZB": ("zbehlost",),
    "R-ABIL-NAD": ("nadani",),
    "R-ABIL-PROT": ("padny_uder_natural",),
}


def card_params(card: Mapping[str, Any]) -> set[str]:
    """The names of the parameters an ability's card shows: those it says it reads (`reads`), else
    its rules' shared ones and its reading's."""
    if card.get("reads") is not None:
        return set(card["reads"])
    names = {n for rule in card.get("rules") or () for n in RULE_PARAMS.get(rule, ())}
    reading = card.get("reading")
    if isinstance(reading, str) and ":" in reading:
        names.add(reading.split(":", 1)[0].strip())
    return names


STATUS_WORDS = {"shipped": N_("shipped"), "narrative": N_("narrative"), "outside the engine": N_("outside the conflict engine")}


#: How a card shows its scope keys (the built-in families' keys; another plugin's key is shown as written).
SCOPE_WORDS = {
    "skill": N_("skill"), "means": N_("means"), "area": N_("plošná"), "group": N_("group size"),
    "item": N_("item"), "per": N_("how often"), "counter_pool": N_("pool of the counter"), "range": N_("range"),
    "threat_pool": N_("pool of the threat"), "pool": N_("pool"), "opponents": N_("opponents"),
    "traits": N_("traits"), "targets": N_("targets"), "label": N_("action label"), "event": N_("event"),
    "jizva_tags": N_("tags of the Jizva"), "jizva_pool": N_("pool of the Jizva"), "near": N_("helper"),
    "condition": N_("condition"), "step": N_("step"), "awake": N_("awake"), "rozsahle": N_("rozsáhle free"),
    "when": N_("when"),
}


#: How the type of a value is said (a parameter's `allowed`, an ability key's `type`).
KIND_WORDS = {"whole number ≥ 0": N_("whole number ≥ 0"), "int": N_("whole number ≥ 0"), "text": N_("text"),
              "str": N_("text")}


def allowed_text(allowed: str) -> str:
    """A parameter's allowed values (`ParamSpec.describe`, English in JSON) as the listing says them:
    the kind in words, the values (codes the user types) as they are."""
    head, sep, rest = str(allowed).partition(" | none")
    return (_(KIND_WORDS[head]) if head in KIND_WORDS else head) + sep + rest


def value_text(value: Any) -> str:
    """A default or scope value as the user writes it (`true`, not Python's `True`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# How an action is done (`means:` in a scenario) in words; the value itself follows in brackets,
# since that is what a scenario writes.
MEANS_WORDS = {"melee": N_("close combat"), "shooting": N_("shooting"), "throwing": N_("throwing"),
               "dealing": N_("dealing with people"), "magic": N_("magic"), "poison": N_("poison"),
               "other": N_("other means")}


def scope_text(scope: Mapping[str, Any]) -> str:
    """`dovednost: Běžný boj zblízka; prostředek: boj zblízka (melee)` — a card's scope in the run's
    language: a skill by its Czech name, a means in words with the value a scenario writes."""
    from ..skills import name_of

    def named(key: str, value: Any) -> str:
        if key == "skill" and isinstance(value, str):
            return name_of(value) or value
        if key == "means" and isinstance(value, str) and value in MEANS_WORDS:
            return f"{_(MEANS_WORDS[value])} ({value})"
        if isinstance(value, (list, tuple)) and key in ("skill", "means"):
            return ", ".join(named(key, v) for v in value)
        return plain(value)

    def plain(value: Any) -> str:
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if isinstance(value, (list, tuple)):
            return ", ".join(map(value_text, value))
        if isinstance(value, Mapping):
            return ", ".join(f"{word(k)}: {named(k, v)}" for k, v in value.items() if v is not None)
        return value_text(value)

    def word(key: str) -> str:
        return _(SCOPE_WORDS[key]) if key in SCOPE_WORDS else str(key)

    return "; ".join(f"{word(k)}: {named(k, v)}" for k, v in scope.items()) or "–"


def scope_keys(card: Mapping) -> str:
    """`skill, means` — the names of the scope keys and of the ability's own keys (`weapon*` = required)."""
    keys = list((card.get("scope") or {}).keys())
    own = [k + ("*" if d.get("required") else "") for k, d in (card.get("keys") or {}).items()]
    return ", ".join(dict.fromkeys(keys + [f"`{k}`" for k in own])) or "–"


def activation_text(card: Mapping) -> str:
    act = card.get("activation")
    if not act:
        return "–"
    pool = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "suroviny": "Suroviny"}.get(act["pool"], act["pool"])
    cost = "/".join(str(c) for c in sorted(set((act.get("tiers") or {}).values()))) or str(act["cost"])
    return f"{cost} {pool}" + (f" ({act['part']})" if act.get("part") else "")
