"""The transcript a table reads, built ONLY from the result dict (SCENARIO-FORMAT §7).

Nothing here looks at the scenario or the engine: whatever the result says is shown, in the
active language (drd_cli.i18n; Czech by default, with the book's game terms). Success and failure
are written as words (ÚSPĚCH / NEÚSPĚCH) as well as coloured, so the transcript reads the same
without colour. Optional step keys (`hide`, `long`, Dakara `outcome`/`margin`/`complication`/
`injury`, `race`) are shown when present; keys this module does not know are still listed, so
nothing in the result is silently dropped.

`build(result)` makes a format-neutral `Doc` (render/doc.py); render/terminal.py (`render`, `render_text`) writes it with
rich for the terminal or a .txt file, render/md.py and render/html.py write the same Doc as
Markdown and HTML. rich is imported only by the terminal writer.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from ..i18n import N_, _, language, ngettext
from ..terms import MANOEUVRES  # noqa: F401 - the names the transcript shows (also play/explain)
from .doc import Column, Doc, Either, Label, Line, Meta, Span, Step, Table, Title, fill
from .values import (_PEOPLE, _TITLES, COMPLICATIONS, DAKARA_ANSWERS, DAKARA_MODIFIERS, KINDS, LONG_STATUS, OUTCOMES,
                     POOLS, RESOLVED_AS, SITUATIONS, SOURCES, _item, _people, _person, _say, _signed, _t, _title,
                     _verdict, _who, _words, pool_name, step_name)

# The skill names of a Dakara result (`skill_names`: id → `Kapsářství`) while a transcript is built.
_SKILLS: ContextVar[dict] = ContextVar("drd_transcript_skills", default={})


def _mapping(value: Any) -> dict:
    """`value` when the result has a mapping there, else an empty one (a hand-edited result may not)."""
    return value if isinstance(value, dict) else {}


def _skill(skill_id: Any) -> str:
    """A Dakara skill as a reader sees it: the result's name for the id, else the Czech spelling of a
    common skill word, else the id (drd_cli/dakara/skills.py)."""
    from ..dakara.skills import display_name

    text = str(skill_id if skill_id is not None else "?")
    return str(_SKILLS.get().get(text) or display_name(text))


# Step keys rendered by a dedicated section; anything else is listed generically at the end.
_KNOWN_STEP_KEYS = {"id", "round", "kind", "rolls", "order", "manoeuvres", "actions", "exhaustions", "log",
                    "hide", "race", "outcome", "margin", "complication", "injury", "note",
                    "pairs",   # pairs: the R-CONT log lines already say who beat whom
                    "decisions",   # decisions: the CHOICES log line says the default decided
                    "rendered", "activations", "affected", "tries", "title",
                    # Dakara skill steps: said in words by _dakara_use
                    "mode", "actor", "skill", "opponent", "rating", "modifiers", "modified_rating",
                    "difficulty", "answer", "risk", "helpers", "injury_total", "dead"}


# --------------------------------------------------------------------------- step sections

def _heading(step: dict) -> str:
    """`útěk · kolo 1 · střet`: the step's title (a výzva's name, the action's label), else who
    acts in it (a Dakara step: who, and in which skill); the step's id only when the result says neither."""
    kind = step.get("kind", "?")
    title = step_name(step)
    if title and kind == "skill" and step.get("skill"):
        title = f"{title} — {_skill(step['skill'])}"
    if title:
        return _("{title} · round {round} · {kind}").format(title=title, round=step.get("round", "?"),
                                                           kind=_t(KINDS, kind))
    return _("Step {id} · round {round} · {kind}").format(id=step.get("id", "?"), round=step.get("round", "?"),
                                                          kind=_t(KINDS, kind))


ROLES = {"action": N_("action"), "test": N_("test"), "race": N_("race"), "harm": N_("counter-action"),
         "protect": N_("protection"), "counter": N_("counter-action")}


def _tried(step: dict, pid: Any) -> str | None:
    """What `pid` tried in `step`: the action's label from the file, else its role and pool."""
    tries = step.get("tries")
    got = tries.get(str(pid)) if isinstance(tries, dict) else None
    if not isinstance(got, dict):
        return None
    if got.get("label"):
        return str(got["label"])
    role = _t(ROLES, got.get("role")) if got.get("role") else None
    if role and got.get("pool"):
        return f"{role} ({pool_name(got['pool'])})"
    return role


def _rolls(rolls: dict) -> Table:
    columns = [Column(_("Roll"), no_wrap=True), Column(_("Total"), "right"), Column(_("Dice"), "right"),
               Column(_("Bonus"), "right"), Column(_("Source"))]
    rows = []
    for who, roll in rolls.items():
        if not isinstance(roll, dict):
            rows.append([[Span(_who(who))], [Span(str(roll))], [Span("–")], [Span("–")], [Span("–")]])
            continue
        dice = roll.get("dice")
        dice_text = " + ".join(map(str, dice)) if isinstance(dice, list) and dice else "–"
        bonus = roll.get("bonus")
        source = roll.get("source")
        rows.append([[Span(_who(who))], [Span(str(roll.get("total", "?")), "strong")], [Span(dice_text)],
                     [Span("–" if bonus is None else _signed(bonus))],
                     [Span(_t(SOURCES, source) if source is not None else "–")]])
    return Table(columns, rows, kind="rolls")


def _actions(actions: dict, step: dict | None = None) -> list[Line]:
    lines = []
    for who, action in actions.items():
        if not isinstance(action, dict):
            lines.append(Line([Span(f"{_who(who)}: {_item(action)}")]))
            continue
        what = _tried(step or {}, who)
        spans = [Span(_who(who), "strong")] + ([Span(" — "), Span(what, "note")] if what else []) + [
            Span(": "), _verdict(action.get("success"))]
        if action.get("affected"):
            spans += fill(_("; reached: {who}"), who=_people(action["affected"]))
        if action.get("kept_up") is not None:
            spans.append(Span(_("; kept up") if action["kept_up"] else _("; fell behind")))
        long = action.get("long")
        if isinstance(long, dict):
            spans += fill(_("; long action {id}: {status}"), id=long.get("id", "?"),
                          status=_t(LONG_STATUS, long.get("status")))
            if long.get("barred"):
                spans += fill(_(", gave up: {who}"), who=_people(long["barred"]))
            if long.get("retry"):
                spans.append(Span(_(", may try again")))
        for key, value in action.items():
            if key not in ("success", "affected", "kept_up", "long"):
                spans.append(Span(f"; {key}: {_item(value)}"))
        lines.append(Line(spans))
    return lines


def _manoeuvre(m: Any) -> str:
    if not isinstance(m, dict):
        return str(m)
    name = _t(MANOEUVRES, m.get("name", "?"))
    who = _who(m.get("by", "?"))
    paid, cost, via = m.get("paid"), m.get("cost"), m.get("via")
    if paid == "free" or cost == 0:
        if via:
            return _("{who}: {manoeuvre} for free ({via})").format(who=who, manoeuvre=name, via=_title(via))
        return _("{who}: {manoeuvre} for free").format(who=who, manoeuvre=name)
    if paid is not None:
        cost_text = cost if cost is not None else "?"
        if m.get("paid_by"):
            return _("{who}: {manoeuvre}, {payer} pays {cost} {pool} for it").format(
                who=who, manoeuvre=name, payer=_who(m["paid_by"]), cost=cost_text, pool=pool_name(paid))
        if via:
            return _("{who}: {manoeuvre}, pays {cost} {pool} ({via})").format(
                who=who, manoeuvre=name, cost=cost_text, pool=pool_name(paid), via=via)
        return _("{who}: {manoeuvre}, pays {cost} {pool}").format(who=who, manoeuvre=name, cost=cost_text,
                                                                   pool=pool_name(paid))
    return f"{who}: {name}"


def _vs(vs: Any) -> str:
    # The test's target is the rules' `target` or a výzva's own: the log line gives the number.
    return _("the test's target") if vs == "test" else _who(vs)


def _gains(e: dict) -> list[Span]:
    """The Jizva or sacrifice an exhaustion was paid with, as spans."""
    out: list[Span] = []
    gained = e.get("gained") or {}
    jizva = gained.get("jizva") if isinstance(gained, dict) else None
    if jizva:
        name = jizva.get("name", "?") if isinstance(jizva, dict) else str(jizva)
        gain = jizva.get("gain") if isinstance(jizva, dict) else None
        text = (_("Jizva „{name}“ (+{gain})").format(name=name, gain=gain) if gain is not None
                else _("Jizva „{name}“").format(name=name))
        out.append(Span(text, "scar"))
    sacrifice = gained.get("sacrifice") if isinstance(gained, dict) else None
    if sacrifice:
        name = sacrifice.get("name", sacrifice) if isinstance(sacrifice, dict) else sacrifice
        gain = sacrifice.get("gain") if isinstance(sacrifice, dict) else None
        text = (_("sacrifices {name} (+{gain})").format(name=name, gain=gain) if gain is not None
                else _("sacrifices {name}").format(name=name))
        out.append(Span(text, "scar"))
    return out


def _ohrozeni(e: dict) -> str | None:
    ohro = e.get("ohrozeni")
    if isinstance(ohro, (list, tuple)) and len(ohro) == 2:
        return _("Ohrožení {before}→{after}").format(before=ohro[0], after=ohro[1])
    return None


def _exhaustion(e: dict) -> Line:
    who = Span(_who(e.get("by", "?")), "strong")
    vs = _who(e.get("vs"))
    person = _person(e.get("by", "?"))
    template = (_say(N_("{who} exhausts against the test: {cost} {pool}"), "who", who=person) if e.get("vs") == "test"
                else _say(N_("{who} exhausts against {vs}: {cost} {pool}"), "who", who=person))
    spans = fill(template, who=who, vs=vs, cost=e.get("cost", "?"), pool=pool_name(e.get("pool", "?")))
    ohro = _ohrozeni(e)
    if ohro:
        spans.append(Span(", " + ohro, "ohro"))
    if e.get("protected") and list(e["protected"]) != [e.get("by")]:   # for oneself goes without saying
        spans += fill(_("; protects: {who}"), who=_people(e["protected"]))
    if e.get("denied"):
        spans += fill(_("; cancels the winner's gain: {who}"), who=_people(e["denied"]))
    for gain in _gains(e):
        spans += [Span("; "), gain]
    if isinstance(e.get("paid_by"), dict) and e["paid_by"].get("amount") is not None:
        # A part payment (API 3): the helper's points; the rest is the payer's own.
        spans += fill(_("; {who} pays {amount} {pool} of it"), who=_who(e["paid_by"].get("id")),
                      amount=e["paid_by"]["amount"], pool=pool_name(e["paid_by"].get("pool", "?")))
    elif isinstance(e.get("paid_by"), dict):
        spans += fill(_("; paid by {who} from {pool}"), who=_who(e["paid_by"].get("id")),
                      pool=pool_name(e["paid_by"].get("pool", "?")))
    return Line(spans)


def breakdown_text(e: dict) -> str | None:
    """How an exhaustion's cost came about (SCENARIO-FORMAT §7 `breakdown`), in words; None when
    it is just the payer's Ohrožení for itself (nothing to explain)."""
    parts = e.get("breakdown")
    if not isinstance(parts, list) or not parts:
        return None
    plain = len(parts) == 1 and not parts[0].get("armour") and not parts[0].get("mocne") \
        and not parts[0].get("adjustments")
    if plain:
        return None
    pieces = []
    for b in parts:
        words = [_("Ohrožení {n}").format(n=b.get("ohrozeni"))]
        for a in b.get("armour") or ():
            words.append(_("armour {amount:+d} ({source})").format(amount=a["amount"], source=_title(a["source"])))
        if b.get("mocne"):
            words.append(_("mocně {amount:+d}").format(amount=b["mocne"]))
        for a in b.get("adjustments") or ():
            words.append(f"{_title(a['source'])} {a['amount']:+d}")
        who = b.get("protected")
        text = " ".join(words) + f" = {b.get('cost')}"
        if not who:
            pieces.append(text)
        elif who == e.get("by"):
            pieces.append(_("for itself: {text}").format(text=text))
        else:
            pieces.append(_("for {who}: {text}").format(who=_who(who), text=text))
    return _("{who}, cost {cost}: {parts}").format(who=_who(e.get("by", "?")), cost=e.get("cost"),
                                                    parts="; ".join(pieces))


def _gain_text(g: dict) -> str:
    """R-ABIL-GAIN at the start of the conflict, in words."""
    what = (ngettext("{n} Výhoda", "{n} Výhody", g["vyhody"]).format(n=g["vyhody"]) if g.get("vyhody")
            else f"{g.get('amount')} {pool_name(g.get('pool', '?'))}" if g.get("amount") else None)
    sacrifice = g.get("sacrifice")
    if sacrifice:
        # Like a sacrifice paying an exhaustion (R-EXH-4): the item is gone from the equipment.
        item = sacrifice.get("name", "?") if isinstance(sacrifice, dict) else sacrifice
        if what is None:
            return _("{who} gives up {item} ({source})").format(who=_who(g.get("who")), item=item,
                                                                 source=_title(g.get("source")))
        return _("{who} sacrifices {item} and gains {what} ({source})").format(
            who=_who(g.get("who")), item=item, what=what, source=_title(g.get("source")))
    if what is None:
        what = f"{g.get('amount')} {pool_name(g.get('pool', '?'))}"
    return _("{who} gains {what} ({source})").format(who=_who(g.get("who")), what=what, source=_title(g.get("source")))


def _ingredients(n: Any) -> str:
    """`3 Ingredients` (Suroviny), in the run's language and number."""
    return ngettext("{n} Ingredient", "{n} Ingredients", n).format(n=n) if isinstance(n, int) else f"{n} {pool_name('suroviny')}"


def _activation(a: dict) -> str:
    if a.get("pool") == "suroviny":
        text = _("{who} activates {ability}: {cost}").format(
            who=_who(a.get("by")), ability=_title(a.get("ability")), cost=_ingredients(a.get("cost")))
        if a.get("from_improvised"):
            text += _(" ({n} of them improvised)").format(n=a["from_improvised"])
    else:
        text = _("{who} activates {ability}: {cost} {pool}").format(
            who=_who(a.get("by")), ability=_title(a.get("ability")), cost=a.get("cost"),
            pool=pool_name(a.get("pool", "?")))
    if a.get("improvised"):
        text += _(" (improvises {what})").format(what=_ingredients(a["improvised"]))
    if a.get("paid_by"):
        text += _(" (paid by {who})").format(who=_who(a["paid_by"]))
    return text


def _exhaustions(items: list) -> Either:
    lines = [_exhaustion(e) if isinstance(e, dict) else Line([Span(str(e))]) for e in items]
    columns = [Column(_("Who"), no_wrap=True), Column(_("Against")), Column(_("Cost"), "right"),
               Column(_("Ohrožení"), "right", no_wrap=True), Column(_("Protects")), Column(_("Cancels gain")),
               Column(_("Gained"))]
    rows = []
    for e in items:
        if not isinstance(e, dict):
            rows.append([[Span(str(e))]] + [[Span("–")]] * 6)
            continue
        ohro = e.get("ohrozeni")
        ohro_text = (f"{ohro[0]}→{ohro[1]}" if isinstance(ohro, (list, tuple)) and len(ohro) == 2 else "–")
        gains = _gains(e)
        gained: list[Span] = []
        for i, g in enumerate(gains):
            gained += ([Span("; ")] if i else []) + [g]
        rows.append([[Span(_who(e.get("by", "?")), "strong")], [Span(_vs(e.get("vs")))],
                     [Span(f"{e.get('cost', '?')} {pool_name(e.get('pool', '?'))}")], [Span(ohro_text, "ohro")],
                     [Span(_people(e.get("protected")))], [Span(_people(e.get("denied")))],
                     gained or [Span("–")]])
    return Either(lines, Table(columns, rows, kind="exhaustions"))


def _hide(h: dict) -> list[Line]:
    lines = [Line(fill(_("Hiding: {situation}, resolved as {resolved}"),
                       situation=_t(SITUATIONS, h.get("situation")) if h.get("situation") in SITUATIONS
                       else _item(h.get("situation")),
                       resolved=_t(RESOLVED_AS, h.get("resolved_as")) if h.get("resolved_as") in RESOLVED_AS
                       else _item(h.get("resolved_as"))))]
    revealed = h.get("revealed")
    if revealed is not None:
        spans = [Span(_("REVEALED"), "bad") if revealed else Span(_("HIDDEN"), "ok")]
        if h.get("revealed_by"):
            spans += fill(_(" (noticed by: {who})"), who=_people(h["revealed_by"]))
        lines.append(Line(spans))
    if h.get("suspicion_added"):
        lines.append(Line(fill(_("new suspicion: {who}"), who=_people(h["suspicion_added"]))))
    if h.get("suspicion_cleared"):
        lines.append(Line(fill(_("suspicion gone: {who}"), who=_people(h["suspicion_cleared"]))))
    if h.get("initiative") in ("hidden", "deceived"):
        # S3: who acted first in the search (the plugin's `initiative`, CS-HIDE-2)
        lines.append(Line([Span(_("the hidden has the initiative") if h["initiative"] == "hidden"
                                else _("the deceived has the initiative"))]))
    for key, value in h.items():
        if key not in ("situation", "resolved_as", "revealed", "revealed_by", "suspicion_added", "suspicion_cleared",
                       "initiative"):
            lines.append(Line([Span(f"{key}: {_item(value)}")], style="dim"))
    return lines


def _race(race: Any) -> list[Line]:
    if isinstance(race, dict) and isinstance(race.get("faster_than"), dict):
        lines = []
        for who, slower in race["faster_than"].items():
            if slower:
                template = _say(N_("{who} is faster than {slower}"), "who", who=_person(who))
                lines.append(Line(fill(template, who=_who(who), slower=_people(slower))))
        for key, value in race.items():
            if key != "faster_than":
                lines.append(Line([Span(f"{key}: {_item(value)}")], style="dim"))
        return lines or [Line([Span(_("nobody outran anybody"))])]
    return [Line(fill(_("race: {what}"), what=_item(race)))]


def _dakara_use(step: dict) -> list[Line]:
    """A Dakara skill use in words: who, which skill against what, the modifiers, the answer."""
    if step.get("kind") != "skill" or "actor" not in step:
        return []
    lines = []
    against = (_("against {who}").format(who=_who(step["opponent"])) if step.get("opponent")
               else _("difficulty {n}").format(n=step.get("difficulty", "?")))
    mods = step.get("modifiers") or {}
    parts = [f"{_t(DAKARA_MODIFIERS, k)} {_signed(v)}" for k, v in mods.items() if v]
    lines.append(Line(fill(_("{who}: skill {skill} (rating {rating}), {against}"), who=Span(_who(step["actor"]), "strong"),
                           skill=_skill(step.get("skill")), rating=step.get("rating", "?"), against=against)))
    lines.append(Line([Span(_("modifiers: {mods} → modified rating {n}").format(
        mods=", ".join(parts) or _("none"), n=step.get("modified_rating", "?")))]))
    if step.get("answer") is not None:
        lines.append(Line([Span(_("answer before the roll: {answer}").format(
            answer=_t(DAKARA_ANSWERS, step["answer"])))]))
    for h in step.get("helpers") or []:
        if not isinstance(h, dict):
            continue
        how = (_("helps without a roll") if h.get("auto") else _("helps") if h.get("success")
               else _("does not help"))
        lines.append(Line([Span(_("helper {who}: {rating} against {difficulty}, {how}").format(
            who=_who(h.get("actor")), rating=h.get("modified_rating", "?"), difficulty=h.get("difficulty", "?"),
            how=how))]))
    return lines


def _dakara(step: dict) -> list[Line]:
    lines = _dakara_use(step)
    if "outcome" in step:
        code = step["outcome"]
        word, style = OUTCOMES.get(code, (None, "strong"))
        spans = fill(_("Outcome: {word}"), word=Span(_(word) if word else str(code).upper(), style))
        if step.get("margin") is not None:
            spans += fill(_(" (margin {margin})"), margin=_signed(step["margin"]) if step["margin"] else "0")
        lines.append(Line(spans))
    # What was at stake (SK-4): complications or injury; the other one is said only when it happened.
    risk = step.get("risk", "?")
    if "complication" in step and (risk in ("complication", "?") or step["complication"] != "none"):
        lines.append(Line(fill(_("Complication: {what}"), what=_t(COMPLICATIONS, step["complication"])
                               if step["complication"] in COMPLICATIONS else _item(step["complication"]))))
    if "injury" in step and (risk in ("injury", "?") or step["injury"]):
        lines.append(Line(fill(_("Injury: {n}"), "injury" if step["injury"] else "", n=step["injury"])))
    if "injury_total" in step and (risk in ("injury", "?") or step["injury_total"] or step.get("dead")):
        dead = _(" — dead") if step.get("dead") else ""
        lines.append(Line([Span(_("injury in total: {n}").format(n=step["injury_total"]) + dead)]))
    return lines


def _log(entries: list) -> list[Line]:
    lines = []
    for entry in entries:
        if isinstance(entry, dict):
            spans = [Span(f"[{entry['rule']}] ", "rule")] if entry.get("rule") else []
            spans.append(Span(str(entry.get("text", ""))))
        else:
            spans = [Span(str(entry))]
        lines.append(Line(spans))
    return lines


def build_step(step: dict) -> Step:
    """One step of the result as format-neutral blocks."""
    out = Step(_heading(step))
    blocks = out.blocks
    if step.get("note"):
        blocks.append(Line([Span(str(step["note"]))], style="note", bullet=False))
    if step.get("rolls"):
        blocks.append(_rolls(step["rolls"]))
    if step.get("order"):
        blocks.append(Line(fill(_("Order: {order}"), order=" → ".join(map(_who, step["order"]))), bullet=False))
    if step.get("actions"):
        blocks.append(Label(_("Actions:")))
        blocks.extend(_actions(step["actions"], step))
    if step.get("manoeuvres"):
        blocks.append(Label(_("Manoeuvres:")))
        blocks.extend(Line([Span(_manoeuvre(m))]) for m in step["manoeuvres"])
    if step.get("race") is not None:
        blocks.append(Label(_("Race:")))
        blocks.extend(_race(step["race"]))
    if isinstance(step.get("hide"), dict):
        blocks.extend(_hide(step["hide"]))
    blocks.extend(_dakara(step))
    if step.get("exhaustions"):
        blocks.append(Label(_("Exhaustion:")))
        blocks.append(_exhaustions(step["exhaustions"]))
        for e in step["exhaustions"]:
            why = breakdown_text(e) if isinstance(e, dict) else None
            if why:
                blocks.append(Line([Span(why, "dim")]))
    for text in step.get("rendered") or ():   # a plugin's words for its own entries (drd_render_entry)
        blocks.append(Line([Span(str(text))]))
    for a in step.get("activations") or ():
        blocks.append(Line([Span(_activation(a))]))
    extra = [k for k in step if k not in _KNOWN_STEP_KEYS and not (step.get("rendered") and k != "hide"
                                                                    and isinstance(step[k], dict))]
    if extra:
        blocks.append(Line([Span("; ".join(f"{k}: {_item(step[k])}" for k in extra))], style="dim", bullet=False))
    if step.get("log"):
        blocks.append(Label(_("Log:")))
        blocks.extend(_log(step["log"]))
    return out


# --------------------------------------------------------------------------- final state

_POOL_KEYS = ("telo", "duse", "vliv", "sudba", "suroviny")


def _pools_cell(state: dict) -> str:
    parts = [f"{pool_name(key)} {state[key]}" for key in _POOL_KEYS if state.get(key) is not None]
    return ", ".join(parts) if parts else "–"


def build_final(final: dict) -> Table:
    """The state of every participant after the last step.

    Tělo/Duše/Vliv (a hero) or Sudba (a creature) share one column, so the table stays
    readable in an 80-column terminal.
    """
    rows_in = list(final.items())
    states = [s for _, s in rows_in if isinstance(s, dict)]
    has = lambda key: any(key in s for s in states)  # noqa: E731
    columns = [Column(_("Participant"), no_wrap=True, style="strong")]
    keys: list[str] = []
    if any(has(k) for k in _POOL_KEYS):
        keys.append("pools")
        columns.append(Column(_("Pools"), min_width=8))
    for key, msgid in (("ohrozeni", N_("Ohrožení")), ("vyhody", N_("Advantages")), ("injury", N_("Injury")),
                       ("dead", N_("Dead"))):
        if has(key):
            label = _(msgid)
            keys.append(key)
            columns.append(Column(label, "right", no_wrap=True, min_width=len(label)))
    for key, msgid in (("jizvy", N_("Jizvy")), ("conditions", N_("Conditions")), ("equipment", N_("Equipment")),
                       ("suspicion", N_("Suspicion"))):
        # Suspicion matters only in hiding scenes: an all-empty column is left out.
        if has(key) and (key != "suspicion" or any(s.get(key) for s in states)):
            label = _(msgid)
            keys.append(key)
            columns.append(Column(label, min_width=min(len(label), 6)))
    rows = []
    for who, state in rows_in:
        if not isinstance(state, dict):
            rows.append([[Span(_who(who))]] + [[Span("–")]] * len(keys))
            continue
        cells: list[list[Span]] = []
        for key in keys:
            value = state.get(key)
            if key == "pools":
                cells.append([Span(_pools_cell(state))])
            elif key == "dead":
                cells.append([Span(_("YES"), "bad")] if value else [Span(_("no"))])
            elif value is None:
                cells.append([Span("–")])
            elif key == "suspicion":          # participant ids: their names
                cells.append([Span(_people(value))])
            elif isinstance(value, (list, tuple)):
                cells.append([Span(_words(value))])
            else:
                cells.append([Span(str(value))])
        label = str(state["name"]) if state.get("name") else _who(who)
        rows.append([[Span(label)]] + cells)
    return Table(columns, rows, title=_("State at the end"), kind="final")


# --------------------------------------------------------------------------- the whole document

#: The games by their own names (proper names: the same in every language).
SYSTEMS = {"drd2": "Dračí doupě II", "dakara": "Dakara"}

def footer_text(result: dict) -> str | None:
    """`drd 0.1.0 · sha256:… · seed 7` when the result carries a digest (see drd_cli/digest.py)."""
    digest = result.get("digest")
    if not digest:
        return None
    from .. import __version__

    parts = [f"drd {__version__}", str(digest)]
    if result.get("seed") is not None:
        parts.append(_("seed {seed}").format(seed=result["seed"]))
    snapshot = (result.get("campaign") or {}).get("snapshot")
    if isinstance(snapshot, str):     # the campaign's start states (drd_cli/scenario/snapshots.py)
        parts.append(_("snapshot {hash}").format(hash=snapshot.removeprefix("sha256:")[:16]))
    return " · ".join(parts)


def _secret_step(step: dict) -> Step:
    """A step the players' view hides (drd_cli/render/view.py): its round and one line, nothing of it."""
    return Step(_("Round {round}").format(round=step.get("round", "?")),
                [Line([Span(_("Something happened that the players do not see."), "note")], bullet=False)])


def build(result: dict) -> Doc:
    """The whole transcript of `result` in the active language, format-neutral."""
    header: list[Any] = []
    title = str(result["title"]) if result.get("title") else None
    if title:
        header.append(Title(title))
    system = result.get("system", "drd2")
    info = [SYSTEMS.get(str(system), str(system))]
    if result.get("seed") is not None:
        info.append(_("seed {seed}").format(seed=result["seed"]))
    header.append(Meta(" · ".join(info)))
    rules = result.get("rules") or {}
    if rules.get("enabled") and system != "dakara":   # DrD II plugins mean nothing there
        # By the plugins' titles (the result's `titles`); a title may hold commas, hence "; ".
        titles = _mapping(result.get("titles"))
        header.append(Meta(_("Rules: {rules}").format(
            rules="; ".join(str(titles.get(str(pid), pid)) for pid in rules["enabled"]))))
    if language() != "cs":
        # The book's proper terms stay Czech in other languages (players know them from the book);
        # this one line says what they mean.
        header.append(Meta(_("Terms as in the book: Tělo = body, Duše = soul, Vliv = influence, Sudba = fate, "
                             "Ohrožení = threat, Výhody = advantages, Jizva = scar")))
    if result.get("notes"):
        header.append(Meta(" ".join(str(result["notes"]).split())))
    token = _PEOPLE.set(_mapping(result.get("participants")))
    ttoken = _TITLES.set(_mapping(result.get("titles")))
    stoken = _SKILLS.set(_mapping(result.get("skill_names")))
    try:
        for g in result.get("gains") or ():
            header.append(Meta(_gain_text(g)))
        steps = [_secret_step(s) if isinstance(s, dict) and s.get("secret") is True else
                 build_step(s) if isinstance(s, dict) else Step(str(s)) for s in result.get("steps") or []]
        final = build_final(result["final"]) if result.get("final") else None
    finally:
        _PEOPLE.reset(token)
        _TITLES.reset(ttoken)
        _SKILLS.reset(stoken)
    return Doc(title, header, steps, final, footer_text(result), lang=language())
