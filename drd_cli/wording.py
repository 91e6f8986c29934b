"""The engine's events in words (docs/i18n.md "Events, then words").

The engine records what happened as data (drd_cli/engine/events.py): a kind, the participants by
id, the numbers, the plugin that acted. This module words each event in the run's language when
the result is written: a template per kind (an English msgid, translated through the gettext
catalogs), its fields worded first (a participant → its name, a manoeuvre → its word, a nested
phrase → its words). `word_result` turns every `{"rule", "event"}` of a result's step logs into
the contract's `{"rule", "text"}` (SCENARIO-FORMAT §7), in place.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .i18n import N_, _, language, ngettext
from .terms import manoeuvre_name

POOL_CS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba", "suroviny": "Suroviny"}

# kind → template. Templates are English msgids (translated when used) except the few in RAW,
# which hold no words.
TEMPLATES: dict[str, str] = {
    'ability.activates': N_("{name} activates {ability}: {cost}"),
    'ability.activates_pool': N_("{name} activates {ability}: {cost} {pool}"),
    'ability.fact': N_("{name} establishes: {fact}"),
    'aware.asleep_reacts': N_("{name} is asleep ({condition}) but reacts as if awake, thanks to {source}"),
    'challenge': N_("challenge"),
    'challenge.cannot_pay': N_("{name} cannot pay for the demanding challenge ({cost} {pool}), cannot react"),
    'challenge.demanding': N_("{name}: the challenge is demanding, costs {cost} {pool}"),
    'challenge.for': N_("Challenge „{title}“ for: {who}"),
    'challenge.obrana_free': N_("{name}: obrana for free thanks to {via}"),
    'challenge.very': N_("{name}: the challenge is very demanding, costs {cost} {pool}"),
    'challenge.withstood': N_("{name}: {roll} ≥ {target}, withstood"),
    'choice.defaulted': N_("No answer in `choices`, the default decided: {names}"),
    'choice.defaulted_one': N_("{who} against {vs}: {answer}"),
    'answer.accept': N_("accept"),
    'answer.exhaust': N_("exhaust"),
    'answer.cheapest': N_("exhaust if cheap"),
    'the_nine': N_("the 9"),
    'choice.unused': N_("Choice of {who}: decides nothing in this step, ignored"),
    'choice.unused_vs': N_("Choice of {who} against {vs}: decides nothing in this step, ignored"),
    'contest.already_stopped': N_("{name} lost, but the action of {actor} was already stopped"),
    'contest.gain_denied': N_("{name} won, but its gain was denied by an exhaustion"),
    'contest.stopped': N_("{name} stopped the action of {actor} against all targets"),
    'cost.activation': N_("activation of {name}"),
    'cost.exhaustion': N_("exhaustion"),
    'cost.manoeuvre': N_("manoeuvre {name}"),
    'cost.narocnost': N_("náročnost"),
    'counter_word.counter': N_("counter-action"),
    'counter_word.protect': N_("protection"),
    'declare': N_("{name}: obvious action without a roll"),
    'declare.note': N_("{name}: obvious action without a roll ({note})"),
    'defence.for_others': N_("{name} may react from defence to an action harming others, thanks to {source}"),
    'deny.already': N_("{name} would deny {winner} its gain, but it is already denied: the answer is ignored and costs nothing"),
    'effect.cannot_use': N_("cannot use {item}"),
    'effect.condition': N_("condition „{name}“"),
    'effect.loses': N_("loses {item}"),
    'effect.no_longer': N_("no longer „{name}“"),
    'effect.nothing_to_lose': N_("{name} does not have {item}, has nothing to lose"),
    'effect.suspicion': N_("suspicion of {item}"),
    'env.deadly_cannot': N_("Watch out: {name} has nothing to react with to the deadly challenge „{title}“"),
    'env.deadly_no_react': N_("Watch out: {name} does not react to the deadly challenge „{title}“ and succumbs to it"),
    'env.protected_nobody': N_("{name} protected nobody ({roll} < {target})"),
    'env.protects': N_("{name} protects {who}"),
    'env.round_end': N_("Environment action at the end of round {number}"),
    'exhaust': N_("{name} exhausts{whom} against {vs}: {cost} {pool}, Ohrožení {before}→{after}"),
    'exhaust.cannot_afford': N_("{name} would have to exhaust for {cost} {pool}, but has only {have}: accepts the failure"),
    'exhaust.denies': N_(" (denies {name} its gain)"),
    'exhaust.for': N_(" for {who}"),
    'exhaust.forbidden': N_("{name} may not exhaust here ({source}: {note}): accepts the failure"),
    'exhaust.too_dear': N_("{name} would have to exhaust for {cost} {pool}, more than {max} (choice cheapest): accepts the failure"),
    'followup': N_("Follow-up action „{title}“ right after the action of {name}"),
    'group.failed': N_("Everyone had to succeed: the group failed"),
    'group.one_exhaustion': N_("One exhaustion is enough: {name}"),
    'group.one_success': N_("One success is enough: the group succeeded"),
    'initiative.counter_delayed': N_("{name}: {what} from a delayed initiative"),
    'initiative.counter_obrana': N_("{name}: {what} from defence"),
    'initiative.delayed': N_("{name} acts from a delayed initiative"),
    'inner.hits': N_("{name}: roll {roll} ≥ {target}, hits those who did not react"),
    'inner.hits_overcomes': N_("{name}: roll {roll} ≥ {target}, hits those who did not react and overcomes the obstacle"),
    'inner.misses': N_("{name}: roll {roll} < {target} and does not exhaust: {who} did not react and the action does not hit them"),
    'inner.no_exhaust': N_("{name}: roll {roll} < {target} and does not exhaust"),
    'inner.once': N_("roll {roll} < {target}: once for all who did not react"),
    'inner.once_obstacle': N_("roll {roll} < {target}: once for all who did not react and for the obstacle"),
    'inner.overcomes': N_("{name}: roll {roll} ≥ {target}, overcomes the obstacle"),
    'itself': N_("itself"),
    'jizva.sacrifices': N_("{name} sacrifices {item} and gains {amount} {pool}"),
    'jizva.takes': N_("{name} takes the Jizva „{jizva}“ and gains {amount} {pool}"),
    'jizva.yields_more': N_("{name}: the Jizva „{jizva}“ yields {n} more thanks to {source}"),
    'long.barred': N_("Watch out: {name} already accepted a failure against this long action; it should not interrupt it the same way again unless the circumstances changed a lot"),
    'long.completed': N_("Long action {id}: completed"),
    'long.continues': N_("Long action {id}: continues"),
    'long.interrupted': N_("Long action {id} interrupted"),
    'long.interrupted_retry': N_("Long action {id} interrupted (may try again by exhausting)"),
    'manoeuvre.free': N_("{name}: manoeuvre {manoeuvre} for free thanks to {via} (it counts)"),
    'manoeuvre.obrana_required': N_("{name} reacts from defence: the manoeuvre obrana is required and counts"),
    'manoeuvre.over_cap': N_("{name}: {source} allows {n} more manoeuvre(s) than the group's cap {cap}"),
    'narocnost.changed': N_("{name}: {source} changes the action's náročnost from {before} to {after}"),
    'narocnost.demanding': N_("{name}: the action is demanding, costs {cost} {pool}"),
    'narocnost.very': N_("{name}: the action is very demanding, costs {cost} {pool}"),
    'nobody': N_("nobody"),
    'order': '{heading}: {rolls}',
    'order.heading': N_("Roll order"),
    'order.roll': '{name} {total}',
    'pair.decided': N_("{winner} wins over {loser}: {ra} : {rc}, decided by {source}"),
    'pair.greater': '{a} > {b}',
    'pair.overruled': N_("{plugin} would have given the pair to {who}; {first} decides (first by plugin id)"),
    'pair.tie': N_("tie {ra} = {rc}, {who} wins (tie: {tie})"),
    'pair.tie_reroll': N_("Tie of {a} and {c}: they roll again ({dice}) {shown_a}→{ra} against {shown_c}→{rc}"),
    'pair.wins': N_("{winner} wins over {loser}: {why}"),
    'pool.over_max': N_("{name}: {pool} over the maximum {max}, {lost} is lost"),
    'protected.others': N_("{name} protected {who}"),
    'protected.self': N_("{name} protected itself"),
    'protected.self_and': N_("{name} protected itself and {who}"),
    'race.faster': N_("{faster} ({a}) is faster than {name} ({b})"),
    'race.overcomes': N_("{name}: {total} ≥ {target}, overcomes the obstacle"),
    'race.same': N_("{a} and {b} have the same ({total}): neither is faster"),
    'roll.modifier': N_("{name}: {amount:+d} to the roll from {source}"),
    'share.pays': N_("{payer} pays {amount} {pool} for {name} ({what}) thanks to {source}"),
    'src.accepted_failure': N_("accepted failure"),
    'src.accepts': N_("{roll} < {target}, accepts"),
    'src.action': N_("action of {name}"),
    'src.cannot_react': N_("cannot react (CS-ENV-2)"),
    'src.group_failure': N_("failure of the group"),
    'src.hit_by': N_("hit by the action of {name}"),
    'src.inner_test': N_("test within the contest"),
    'src.no_roll': N_("takes the challenge without a roll"),
    'src.obstacle': N_("obstacle"),
    'src.own_gain': N_("own gain"),
    'src.preparation': N_("preparation"),
    'src.slower': N_("slower than {name}"),
    'src.softened': N_("softened by an exhaustion"),
    'src.softened_plain': N_("softened"),
    'src.success': N_("success"),
    'src.victory': N_("victory of {name}"),
    'suroviny.left': N_("{name} has {left} left"),
    'suroviny.improvised': N_("{name}: {ability} — {improvised} improvised for this action"),
    'suroviny.improvised_held': N_("{name}: {ability} — {improvised} improvised ({sources}), {own} from the Suroviny held"),
    'suroviny.spends': N_("{name} spends {cost} on {ability}"),
    'test.below': N_("{name}: {roll} < {target} — below {target}"),
    'test.success': N_("{name}: {roll} ≥ {target} — SUCCESS"),
    'tie.actor': N_("actor"),
    'tie.counter': N_("counter"),
    'tie.reroll': N_("reroll"),
    'the_actor': N_("the actor"),
    'the_counter_actor': N_("the counter-actor"),
    'the_test': N_("the test"),
    'vyhoda': N_("Výhoda"),
    'why.denies_gain': N_("denies the winner its gain"),
    'why.each_protected': N_("for each protected"),
    'why.keeps_up': N_("keeps up"),
    'why.long_goes_on': N_("the long action goes on, but it may try to interrupt it again"),
    'why.once_protected': N_("once for all protected"),
    'why.several_targets': N_("a test on several targets: once, whatever their number"),
}
RAW = frozenset(['order', 'order.roll', 'pair.greater'])


_ALT = re.compile(r"\[\[(.*?)\]\]", re.S)
# The field whose gender and number a sentence agrees with, when it is not `name`.
SUBJECT = {"pair.wins": "winner", "pair.decided": "winner", "share.pays": "payer", "race.faster": "faster",
           "race.same": "a", "choice.unused": "who", "choice.unused_vs": "who", "pair.tie_reroll": "a"}
GENDERS = ("m", "ž", "s", "mn")


class Who(str):
    """A participant's name that knows its gender (`rod`) and its declined forms (`pady`):
    `{loser:7}` in a template is the 7th case when the scenario gives it, else the name."""

    rod: str | None
    forms: Mapping[int, str]

    def __new__(cls, name: str, rod: str | None = None, forms: Mapping[int, str] | None = None) -> "Who":
        obj = super().__new__(cls, name)
        obj.rod, obj.forms = rod, dict(forms or {})
        return obj

    def __format__(self, spec: str) -> str:
        if spec.isdigit():
            return self.forms.get(int(spec), str(self))
        return format(str(self), spec)


class Many(str):
    """Several values in words (`Bořek, Zira`): a plural subject when more than one."""

    rod: str | None

    def __new__(cls, text: str, parts: list) -> "Many":
        obj = super().__new__(cls, text)
        obj.rod = "mn" if len(parts) > 1 else getattr(parts[0], "rod", None) if parts else None
        return obj


def _rod(value: Any) -> str | None:
    return getattr(value, "rod", None)


def choose(text: str, subject: str | None, fields: Mapping[str, Any]) -> str:
    """Resolves `[[key:words|key:words|*:words]]` in a translated template: the first
    alternative whose key holds — `m`, `ž`, `s`, `mn` (the subject's gender or number),
    `FIELD=mn` (another field's), `FIELD@7` (that field's 7th case is known), `*` (always)."""
    if "[[" not in text:
        return text
    rod = _rod(fields.get(subject)) if subject else None

    def holds(key: str) -> bool:
        if key == "*":
            return True
        if key in GENDERS:
            return rod == key
        if "=" in key:
            name, want = key.split("=", 1)
            return _rod(fields.get(name)) == want
        if "@" in key:
            name, case = key.split("@", 1)
            forms = getattr(fields.get(name), "forms", None) or {}
            return case.isdigit() and int(case) in forms
        return False

    def pick(m: re.Match) -> str:
        for alt in m.group(1).split("|"):
            key, _sep, body = alt.partition(":")
            if holds(key.strip()):
                return body
        return ""

    return _ALT.sub(pick, text)


class Words:
    """Words for the events of one result: who the participant ids are (name, gender, forms)."""

    def __init__(self, participants: Mapping[str, Mapping[str, Any]],
                 titles: Mapping[str, Any] | _TitleLookup | None = None):
        self.participants = participants
        self.titles: Mapping[str, Any] | _TitleLookup = titles or {}      # plugin id → its name (the result's `titles`): `Dar tvoření`
        self._who: dict[str, Who] = {}
        # kind → (its template in the active language, or None for a RAW one; whether it has
        # alternatives to choose from): a battle words tens of thousands of events of a few kinds.
        self._templates: dict[tuple[str, str], tuple[str | None, bool]] = {}

    def who(self, pid: str) -> Who:
        got = self._who.get(pid)
        if got is None:
            p = self.participants.get(pid) or {}
            rod = p.get("rod")
            if rod is None and int(p.get("count") or 1) > 1:
                rod = "mn"
            forms = {int(k): str(v) for k, v in (p.get("pady") or {}).items()}
            got = self._who[pid] = Who(str(p.get("name", pid)) if p else pid, rod, forms)
        return got

    def name(self, pid: str) -> str:
        return str(self.who(pid))

    def value(self, v: Any) -> Any:
        """A field's value in words (numbers stay numbers, for format specs such as `{amount:+d}`)."""
        if isinstance(v, dict):
            if "kind" in v:      # a phrase first: its own fields may be called `who` or `manoeuvre`
                return self.word(v)
            if "who" in v:
                pid = v["who"]
                return self._who.get(pid) or self.who(pid)
            if "manoeuvre" in v:
                return manoeuvre_name(v["manoeuvre"])
            if "join" in v:
                parts = [self.value(x) for x in v["join"]]
                return Many(v.get("sep", ", ").join(str(x) for x in parts), parts)
            if "kind" in v:
                return self.word(v)
        return v

    def word(self, event: Mapping[str, Any]) -> str:
        """One event (or phrase) in words."""
        kind = event["kind"]
        # Only a mapping is worded (a marker or a phrase); the rest stays as it is. A participant
        # already met (`{"who": id}`, most fields of a battle's events) is taken in line.
        value, known = self.value, self._who
        fields = {k: (known.get(v["who"]) or value(v) if v.__class__ is dict and "kind" not in v and "who" in v
                      else value(v) if isinstance(v, dict) else v)
                  for k, v in event.items() if k != "kind"}
        special = _SPECIAL.get(kind)
        if special is not None:
            text = special(self, fields)
        else:
            key = (kind, language())
            known_template = self._templates.get(key)
            if known_template is None:
                translated = None if kind in RAW else _(TEMPLATES[kind])
                known_template = self._templates[key] = (translated, translated is not None and "[[" in translated)
            template, alternatives = known_template
            if template is None:
                template = TEMPLATES[kind]
            elif alternatives:
                template = choose(template, SUBJECT.get(kind, "name"), fields)
            text = template.format(**fields)
        tail = fields.get("tail")
        return f"{text} — {tail}" if tail else text


def _amount(words: Words, f: dict) -> str:
    n, pool = f["n"], f.get("pool")
    if pool == "suroviny":
        return ngettext("{n} Surovina", "{n} Suroviny", n).format(n=n)
    return f"{n} {POOL_CS.get(pool or 'telo', pool or 'telo')}"


def _effect_applied(words: Words, f: dict) -> str:
    source = f.get("source")
    return f"{f['name']}: {f['what']}" + (f" ({source})" if source else "")


def _activation(words: Words, f: dict) -> str:
    """`aktivace: Dar tvoření` — the ability by its name where the result knows it, not its id."""
    name = f.get("name")
    return _(TEMPLATES["cost.activation"]).format(name=words.titles.get(str(name), name))


_SPECIAL = {"amount": _amount, "effect.applied": _effect_applied, "cost.activation": _activation}


def word_log(log: list, words: Words) -> None:
    """A step's log: every event entry gets its text (in place, keys in the contract's order)."""
    for i, entry in enumerate(log):
        event = entry.get("event")
        if event is not None:
            out = {"rule": entry["rule"], "text": words.word(event)}
            out.update((k, v) for k, v in entry.items() if k not in ("rule", "event", "text"))
            log[i] = out


class Said(Protocol):
    """What drd_cli.errors.Message holds (this module is below errors: it does not import it)."""

    key: str
    args: dict[str, Any]
    tail: str
    plural_key: str | None
    n: int


def say(message: Said) -> str:
    """A refusal's words: its key translated through the catalogs (the active language),
    (`ngettext` for a plural message), formatted with its arguments — a Message among them is worded by the format itself — then
    its tail (a plugin's note, ` — note`)."""
    template = _(message.key) if message.plural_key is None else ngettext(message.key, message.plural_key, message.n)
    text = template.format(**message.args)
    return f"{text} — {message.tail}" if message.tail else text


class _TitleLookup:
    """The result's `titles` before there is a result: a plugin id → its title, asked of the run."""

    def __init__(self, title: Callable[[str], str]):
        self._title = title

    def get(self, key: str, default: Any = None) -> Any:
        return self._title(key) or default


def step_wording() -> Callable[[dict, Mapping[str, Mapping[str, Any]], Callable[[str], str]], None]:
    """A step record's log in words as soon as the engine makes it (`engine.run.resolve`'s
    `each_record`): the same words `word_result` gives the finished result, for the same
    participants and plugin titles, without keeping every step's events until the end."""
    words: list[Words] = []

    def word_step(step: dict, participants: Mapping[str, Mapping[str, Any]], title: Callable[[str], str]) -> None:
        if not words:
            words.append(Words(participants, _TitleLookup(title)))
        log = step.get("log")
        if log:
            word_log(log, words[0])

    return word_step


def word_result(result: dict) -> dict:
    """Every step log of `result` in words, in the active language; returns `result`."""
    titles = result.get("titles")
    words = Words(result.get("participants") or {}, titles if isinstance(titles, dict) else None)
    for step in result.get("steps") or ():
        log = step.get("log")
        if log:
            word_log(log, words)
    return result
