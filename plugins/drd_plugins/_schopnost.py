"""What every catalogue ability shares: its card (`drd_plugin_info`), its activation, scope helpers.

An ability of the catalogue (docs/abilities.md) is an instance of a small family class (a
subclass of `Ability`) declared in that family's module; pluggy registers the instance as the
plugin whose id is the ability's id. The card is plain data, so `drd plugins` and `drd
abilities` read it without a participant. Imports only drd_cli.plugin (the public API).
"""

from __future__ import annotations

import unicodedata
from typing import Any, Mapping

from drd_cli.plugin import hookimpl, translator

_, ngettext = translator()
# The catalogue's own texts are written in Czech (the mechanics, the parts of an activation): their
# English is this package's catalog `drd_schopnosti` (locale/en/LC_MESSAGES/drd_schopnosti.po,
# updated by `python -m drd_cli.abilities po`); Czech has no catalog, the text is shown as written.
czech_text, _ngettext_cs = translator("drd_schopnosti", __file__)


def N_(message: str) -> str:
    """Marks an English text for drd's catalog; translated when shown (`localise`)."""
    return message


#: The English words of the cards (scope values, owners, the help of an ability's own keys), by
#: the value a declaration writes; shown in drd's language through drd's own catalog.
CARD_WORDS = {
    "same zone": N_("same zone"),
    "hide (situation auto)": N_("hide (situation auto)"),
    "no condition spí": N_("no condition spí"),
    "muž | žena (actor and every target)": N_("muž | žena (actor and every target)"),
    "sapient (no trait zvíře)": N_("sapient (no trait zvíře)"),
    "ward (obrazec, symbol)": N_("ward (obrazec, symbol)"),
    "hiding (ukrýt se, plížení, …)": N_("hiding (ukrýt se, plížení, …)"),
    "any race": N_("any race"),
    "round": N_("once per round"),
    "enables": N_("a held item that enables it"),
    "a held weapon of the chosen type": N_("a held weapon of the chosen type"),
    "the chosen weapon type (the action's means fits it and he holds such a weapon)":
        N_("the chosen weapon type (the action's means fits it and he holds such a weapon)"),
    "area": N_("a plošná action"),
    "party": N_("the targets are the hero's own party"),
    "the melee weapon type (a held item whose name contains it)":
        N_("the melee weapon type (a held item whose name contains it)"),
    "the throwing weapon type (a held item whose name contains it)":
        N_("the throwing weapon type (a held item whose name contains it)"),
    "the missile weapon type (a held item whose name contains it)":
        N_("the missile weapon type (a held item whose name contains it)"),
    "the instrument or art prop (a held item)": N_("the instrument or art prop (a held item)"),
    "the improvised cloth he uses (default: any cloak or cloth held)":
        N_("the improvised cloth he uses (default: any cloak or cloth held)"),
    "ward links the hero already holds (each adds 1 náročnost)":
        N_("ward links the hero already holds (each adds 1 náročnost)"),
    "dlouho: 1 Vliv; velmi-dlouho (a curse only): 3 Vliv": N_("dlouho: 1 Vliv; velmi-dlouho (a curse only): 3 Vliv"),
    "obrazce: protective symbols, 1 Duše per improvised Surovina; predmet: the ritual item, free":
        N_("obrazce: protective symbols, 1 Duše per improvised Surovina; predmet: the ritual item, free"),
    "improvised Suroviny made for this activation":
        N_("improvised Suroviny made for this activation"),
    "the held improvised weapon he wrecks (default: the one plain item he holds that is no weapon, armour or tool)":
        N_("the held improvised weapon he wrecks (default: the one plain item he holds that is no weapon, armour or tool)"),
    "himself or his side":
        N_("himself or his side"),
    "≥ 2 this round (or trait více protivníků)":
        N_("≥ 2 this round (or trait více protivníků)"),
    "rychly / dvoufazovy: 1 Surovina; dlouhy: 3 Suroviny":
        N_("rychly / dvoufazovy: 1 Surovina; dlouhy: 3 Suroviny"),
    "chytry: 1 Surovina; trvaly: 3 Suroviny":
        N_("chytry: 1 Surovina; trvaly: 3 Suroviny"),
    "improvised Suroviny made for this activation, 1 Duše each":
        N_("improvised Suroviny made for this activation, 1 Duše each"),
    "false: only the improvised Suroviny, without the base (1 Duše)":
        N_("false: only the improvised Suroviny, without the base (1 Duše)"),
}


def localise(text: Any) -> Any:
    """A card's text in drd's language: an English word of `CARD_WORDS` through drd's catalog, a
    Czech text through `drd_schopnosti` (English only); anything else (codes, lists) as it is."""
    if not isinstance(text, str) or not text:
        return text
    if text in CARD_WORDS:
        return _(CARD_WORDS[text])
    return czech_text(text)


def localise_card(card: Mapping[str, Any]) -> dict:
    """A copy of a card (`Ability.card`, or a plain dict) with its words in drd's language; ids,
    codes and the values a scenario writes stay as they are."""
    out = dict(card)
    for field in ("mechanic", "owner"):
        if out.get(field):
            out[field] = localise(out[field])
    out["scope"] = {k: ({kk: localise(vv) for kk, vv in v.items()} if isinstance(v, dict) else localise(v))
                    for k, v in (card.get("scope") or {}).items()}
    if out.get("activation") and out["activation"].get("part"):
        out["activation"] = dict(out["activation"], part=localise(out["activation"]["part"]))
    out["keys"] = {k: dict(d, help=localise(d["help"])) if d.get("help") else dict(d)
                   for k, d in (card.get("keys") or {}).items()}
    return out

CLASS_STATUS = {"A": "shipped", "B": "outside the engine", "C": "narrative", "D": "narrative"}
PAYABLE = ("telo", "duse", "vliv", "suroviny")     # what an activation may cost (Suroviny: R-ABIL-ACT)
POOL_WORD = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba", "suroviny": "Suroviny"}


def slug(text: str) -> str:
    """ASCII slug of a Czech word or phrase (for comparing labels, traits, item names)."""
    plain = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode("ascii").lower()
    out: list[str] = []
    for ch in plain:
        if ch.isalnum():
            out.append(ch)
        elif out and out[-1] != "-":
            out.append("-")
    return "".join(out).strip("-")


def words(text: str) -> str:
    """`text` as " w1 w2 " of slugged words, for whole-word containment tests."""
    return " " + slug(text).replace("-", " ") + " "


def has_word(haystack: str, needle: str) -> bool:
    """Does `haystack` contain the whole words of `needle` (`dlouhý meč` contains `meč`)?"""
    return words(needle) in words(haystack)


def field_of(action: Any, name: str, default: Any = None) -> Any:
    """An action's field from a view (API 2), or from the scenario spec behind an API 1 action."""
    if action is None:
        return default
    if hasattr(action, name):
        return getattr(action, name)
    spec = getattr(action, "spec", None)
    return getattr(spec, name, default) if spec is not None else default


def same_place(a: Any, b: Any) -> bool:
    """Near each other: the same `zone`, or no zone given for either (the scenario did not say)."""
    za, zb = getattr(a, "zone", None), getattr(b, "zone", None)
    return za is None or zb is None or za == zb


def marks(participant: Any) -> set[str]:
    """The participant's traits and conditions, slugged (what scope conditions look at)."""
    return {slug(t) for t in getattr(participant, "traits", ()) or ()} | \
        {slug(c) for c in getattr(participant, "conditions", ()) or ()}


def held_item(participant: Any, kind: str) -> str | None:
    """The name of a working item `participant` holds whose name contains the words of `kind`."""
    for item in getattr(participant, "equipment", ()) or ():
        if getattr(item, "works", True) and has_word(item.name, kind):
            return item.name
    return None


class Ability:
    """One catalogue ability: a plugin whose id is the ability's id.

    `klass` is the class of docs/abilities.md (A: changes the conflict's numbers or rights; B:
    mechanical outside the conflict engine; C: narrative with an activation cost; D: narrative).
    `activation` is ``(cost, pool)`` or None; `part` names the part it pays for when only one part
    of the ability costs something. `keys` declares the ability's own keys (docs/abilities.md).
    `reads` names the rules parameters it reads where that is fewer than its rules' (a card shows
    only those).
    """

    family = "narrative-authority"
    rules: tuple[str, ...] = ("R-ABIL-FACT",)

    def __init__(self, id: str, name: str, owner: str, category: str, klass: str, mechanic: str, *,
                 family: str | None = None, scope: Mapping[str, Any] | None = None,
                 activation: tuple[int, str] | None = None, part: str | None = None,
                 keys: Mapping[str, Mapping[str, Any]] | None = None, reading: str | None = None,
                 status: str | None = None, rules: tuple[str, ...] | None = None,
                 reads: tuple[str, ...] | None = None, **extra: Any):
        self.id = id
        self.name = name
        self.owner = owner
        self.category = category
        self.klass = klass
        self.mechanic = mechanic
        if family is not None:
            self.family = family
        if rules is not None:
            self.rules = rules
        self.scope = dict(scope or {})
        self.activation = activation
        self.part = part
        self.keys = {k: dict(v) for k, v in (keys or {}).items()}
        self.reading = reading
        self.reads = reads      # the rules parameters it reads, when not all those of its rules
        self.status = status or CLASS_STATUS[klass]
        self.extra = extra

    def __repr__(self) -> str:
        return f"<ability {self.id}>"

    def __dir__(self) -> list[str]:
        # pluggy registers a plugin by inspecting every name dir() gives; drd registers ~90 of these
        # objects per run, so only the hook implementations are listed (the rest is plain Python).
        return [n for n in dir(type(self)) if n.startswith("drd_")]

    # -- the card ---------------------------------------------------------------------------
    def card(self) -> dict:
        act = None
        if self.activation is not None:
            cost, pool = self.activation
            act = {"cost": cost, "pool": pool}
            if self.part:
                act["part"] = self.part
        out = {"name": self.name, "owner": self.owner, "category": self.category, "family": self.family,
               "class": self.klass, "scope": dict(self.scope), "activation": act, "mechanic": self.mechanic,
               "status": self.status, "keys": {k: dict(v) for k, v in self.keys.items()}}
        if self.reading:
            out["reading"] = self.reading
        if self.reads is not None:
            out["reads"] = list(self.reads)     # the card shows only these parameters
        example = self.extra.get("example") or example_of(self.id)
        if example:
            out["example"] = list(example)   # the body of its example scenario (`drd abilities ID`)
        elif self.status != "shipped":
            out["example_note"] = self.example_note()
        return out

    def example_note(self) -> str:
        """What the card says instead of an example: the ability changes no number of a conflict
        beyond what its activation costs (drd's language now)."""
        if self.activation is None:
            return _("none: the ability changes no number of a conflict; what it establishes goes into an "
                     "action's `note`")
        cost, pool = self.activation
        return _("none in the conflict's numbers: naming it in an action's `activate:` costs {cost} {pool}; what "
                 "it establishes or makes goes into the action's `note`").format(
                     cost=cost, pool=POOL_WORD.get(pool, pool))

    @hookimpl
    def drd_plugin_info(self) -> dict:
        # The card in drd's language at the moment of the call (`--lang`): `card()` is the data as
        # declared. (drd keeps what it read per language: plugins.plugin_info.)
        return {"title": self.name, "kind": "ability", "rules": list(self.rules), "api_version": 2,
                "description": localise(self.mechanic), "ability": localise_card(self.card())}

    # -- activation (R-ABIL-ACT) -------------------------------------------------------------
    @hookimpl
    def drd_activation(self, participant: Any, ability: str, action: Any, options: Any) -> dict | None:
        if ability != self.id or self.activation is None:
            return None
        cost, pool = self.activation
        if pool not in PAYABLE:
            return None
        return {"cost": cost, "pool": pool}

    # -- helpers for the families ------------------------------------------------------------
    def chosen(self, participant: Any, options: Any) -> Mapping[str, Any]:
        """The ability's own keys for one activation: `options` as the engine gives them (the
        `activate:` item's over the `abilities:` entry's), else the participant's entry."""
        if options is not None:
            return options
        return self.options(participant) or {}

    def options(self, participant: Any) -> Mapping[str, Any] | None:
        """The ability's own keys for `participant`, or None when it does not have the ability (now)."""
        if participant is None or not participant.has_ability(self.id):
            return None
        getter = getattr(participant, "ability", None)
        if callable(getter):
            return getter(self.id)
        return dict((getattr(participant, "ability_options", None) or {}).get(self.id) or {})   # API 1 state

    def say(self, participant: Any, text: str) -> str:
        """A transcript note: "<who>: <ability> — <text>"."""
        return _("{name}: {ability} — {text}").format(name=participant.name, ability=self.name, text=text)


def example_of(aid: str) -> tuple[str, ...] | None:
    """The lines of the ability's example scenario (priklady.py), read when a card is built."""
    from .priklady import examples

    return examples().get(aid)


def activation_of(card: Mapping[str, Any]) -> str:
    """`1 Duše`, `1 Duše (part)`, `–` for a card's activation (docs/abilities.md)."""
    act = card.get("activation")
    if not act:
        return "–"
    text = f"{act['cost']} {POOL_WORD.get(act['pool'], act['pool'])}"
    return text + (f" ({act['part']})" if act.get("part") else "")
