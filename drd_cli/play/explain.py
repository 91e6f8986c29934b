"""Explanations: how every number of a step came about, in words with rule ids (`drd explain`,
`?` at a `drd play` prompt).

Only the result's own breakdowns are read (SCENARIO-FORMAT §7: `rolls.<id>` with `dice`, `bonus`
and `modifiers`; `order` and `pairs`; `exhaustions[]` with `breakdown` when the engine gives it;
`manoeuvres[]`; the `log`). Nothing is recomputed: where a breakdown is missing, the explanation
says what the rule makes the number (cost = Ohrožení, R-EXH-1) and where it stops knowing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable

from ..i18n import N_, _
from ..render.values import _TITLES, _title, step_name, tie_words

Names = Callable[[Any], str]


def names_of(result: dict) -> Names:
    """id → display name from a result's `participants` (the id itself when unknown)."""
    found = result.get("participants")
    people = found if isinstance(found, dict) else {}

    def name(pid: Any) -> str:
        info = people.get(pid) if isinstance(pid, str) else None
        return str((info or {}).get("name") or pid)

    from ..wording import Words

    name.who = Words(people).who    # type: ignore[attr-defined]  # with gender and number, for the verbs
    return name


def step_heading(step: dict, name: Names) -> str:
    """`útěk · kolo 1 · střet`: a step as the transcript heads it (render/values.py `step_name`);
    `Krok 1.2 (kolo 1)` only when the result gives it no title and no actor."""
    from ..render.values import KINDS, _t

    title = step_name(step, name)
    if title:
        return _("{title} · round {round} · {kind}").format(title=title, round=step.get("round"),
                                                           kind=_t(KINDS, step.get("kind")))
    return _("Step {id} (round {round})").format(id=step.get("id"), round=step.get("round"))


def _signed(n: Any) -> str:
    return f"{n:+d}" if isinstance(n, int) and not isinstance(n, bool) else str(n)


def _source(source: Any) -> str:
    """A modifier's or adjustment's source in words: přesně, the floor, an item or a plugin id."""
    if source in ("presne", "přesně"):
        return _("přesně (R-ROLL-3)")
    if source == "floor":
        return _("the floor: a cost is never below 0")
    if source == "armour":
        return _("armour (R-EXH-3)")
    return _title(source)       # an ability by its name (`Zubří kůže`) where the result says it


# --------------------------------------------------------------------------- rolls

SOURCES = {"given": N_("from the file"), "seeded": N_("rolled by drd from the seed"),
           "entered": N_("entered at the table")}


def explain_roll(pid: str, roll: dict, name: Names) -> list[str]:
    """`Mistr Hanuš: 10 = dice 4 + 3, bonus +3 (R-ROLL-1), +1 přesně (R-ROLL-3)`, or why a total stands alone."""
    total = roll.get("total")
    dice = roll.get("dice")
    bonus = roll.get("bonus")
    source = roll.get("source")
    how = _(SOURCES[source]) if source in SOURCES else str(source or "?")
    if not isinstance(dice, list) or not dice:
        return [_("{name}: {total}, a total ({how}) — no dice or bonus are known for it (R-ROLL-2)").format(
            name=name(pid), total=total, how=how)]
    counted = sorted(dice, reverse=True)[:2] if len(dice) > 2 else dice
    parts = [_("dice {dice}").format(dice=" + ".join(map(str, counted)))]
    if len(dice) > 2:
        parts[0] += _(" (the best two of {all}, přesně as keep-best-2-of-3, R-ROLL-3)").format(
            all=", ".join(map(str, dice)))
    bonus_from = roll.get("bonus_from")
    if bonus_from:
        parts.append(_("bonus {bonus} ({source}, R-ROLL-1)").format(bonus=_signed(bonus or 0), source=bonus_from))
    else:
        parts.append(_("bonus {bonus} (profession level or charakteristika, R-ROLL-1)").format(
            bonus=_signed(bonus or 0)))
    for m in roll.get("modifiers") or []:
        if isinstance(m, dict):
            parts.append(_("{amount} {source}").format(amount=_signed(m.get("amount")),
                                                       source=_source(m.get("source"))))
    return [_("{name}: {total} = {parts} ({how})").format(name=name(pid), total=total, parts=", ".join(parts), how=how)]


def explain_order(step: dict, name: Names, rules: dict) -> list[str]:
    """The order of the rolls and of the pairs (R-ORDER), and who won each pair (R-CONT, `tie`)."""
    out = []
    rolls = step.get("rolls") or {}
    order = step.get("order") or []
    if len(order) > 1:
        listed = ", ".join(f"{name(p)} {(rolls.get(p) or {}).get('total', '?')}" for p in order)
        out.append(_("Order (R-ORDER): from the highest roll down — {order}").format(order=listed))
    tie = ((rules or {}).get("params") or {}).get("tie")
    for i, pair in enumerate(step.get("pairs") or [], 1):
        if not isinstance(pair, dict):
            continue
        a, c = pair.get("actor"), pair.get("counter")
        ta, tc = (pair.get("totals") or ["?", "?"])[:2]
        line = _("Pair {i}: {actor} {ta} against {counter} {tc} — {winner} wins").format(
            i=i, actor=name(a), ta=ta, counter=name(c), tc=tc, winner=name(pair.get("winner")))
        if pair.get("tie"):
            line += _("; a tie: {tie}").format(tie=tie_words(tie) if tie else "?")
        if pair.get("reroll"):
            line += _(" (rerolled)")
        out.append(line + f" ({pair.get('rule') or 'R-CONT'})")
    return out


# --------------------------------------------------------------------------- exhaustions

def _breakdown_line(part: dict, name: Names) -> str:
    who = part.get("protected")
    bits = [_("Ohrožení {n} (R-EXH-1)").format(n=part.get("ohrozeni"))]
    for a in part.get("armour") or []:
        if isinstance(a, dict):
            bits.append(_("{amount} armour: {item} (R-EXH-3)").format(amount=_signed(a.get("amount")),
                                                                      item=a.get("source")))
    if part.get("mocne"):
        bits.append(_("{amount} mocně").format(amount=_signed(part.get("mocne"))))
    for adj in part.get("adjustments") or []:
        if isinstance(adj, dict):
            bits.append(f"{_signed(adj.get('amount'))} {_source(adj.get('source'))}")
    whom = name(who) if who is not None else _("the winner's gain")
    return _("for {whom}: {parts} = {cost}").format(whom=whom, parts=", ".join(bits), cost=part.get("cost"))


def explain_exhaustion(e: dict, name: Names, earlier: Sequence[dict] = ()) -> list[str]:
    """Why an exhaustion costs what it costs: per protected participant from `breakdown`, or (without
    one) the rule that the cost is the payer's Ohrožení; CS-SEQ-1 when an earlier payment raised it."""
    by, vs = e.get("by"), e.get("vs")
    pool = e.get("pool")
    from ..wording import choose
    from ..render.text import pool_name

    against = _("the test") if vs == "test" else name(vs)
    # The Czech translation chooses its verb by the payer's number (docs/i18n.md): the default here.
    who = getattr(name, "who", None)
    fields = {"who": who(by) if who is not None and isinstance(by, str) else name(by)}
    head = choose(_("{who} exhausts against {vs}: {cost} {pool}"), "who", fields).format(
        who=fields["who"], vs=against, cost=e.get("cost"), pool=pool_name(pool))
    out = [head]
    ohro = e.get("ohrozeni") if isinstance(e.get("ohrozeni"), list) else None
    before = ohro[0] if ohro else None
    raised = [x for x in earlier if x.get("by") == by]
    if raised and before is not None:
        out.append("  " + _("its Ohrožení is {n}: already raised by its exhaustion against {vs} earlier in this "
                            "step (CS-SEQ-1)").format(n=before, vs=name(raised[-1].get("vs"))))
    breakdown = e.get("breakdown") or []
    protected = e.get("protected") or []
    plain = (isinstance(breakdown, list) and len(breakdown) == 1 and isinstance(breakdown[0], dict)
             and not breakdown[0].get("armour") and not breakdown[0].get("mocne")
             and not breakdown[0].get("adjustments") and breakdown[0].get("protected") is not None)
    if plain:
        # Nothing but the payer's Ohrožení for one protected: said in one phrase (R-EXH-1).
        out.append("  " + _("cost = its Ohrožení {n} (R-EXH-1)").format(n=breakdown[0].get("ohrozeni")))
    elif isinstance(breakdown, list) and breakdown:
        for part in breakdown:
            if isinstance(part, dict):
                out.append("  " + _breakdown_line(part, name))
        if len(breakdown) > 1:
            out.append("  " + _("one payment per protected participant, added up (CS-FOR-2): {cost}").format(
                cost=e.get("cost")))
    elif before is not None:
        k = max(1, len(protected))
        if e.get("cost") == before * k:
            if k > 1:
                out.append("  " + _("cost = Ohrožení {n} for each of the {k} protected (R-EXH-1, CS-FOR-2)").format(
                    n=before, k=k))
            else:
                out.append("  " + _("cost = its Ohrožení {n} (R-EXH-1)").format(n=before))
        else:
            out.append("  " + _("cost {cost} = Ohrožení {n} changed by armour, mocně or a plugin (R-EXH-1, R-EXH-3); "
                                "this result has no breakdown of it").format(cost=e.get("cost"), n=before))
    if ohro:
        out.append("  " + _("Ohrožení {before}→{after}: exhausting raises it by 1 (R-EXH-2)").format(
            before=ohro[0], after=ohro[1]))
    if protected:
        out.append("  " + _("protects: {who}").format(who=", ".join(name(p) for p in protected))
                   + (_(" (for others, CS-FOR-1/2)") if any(p != by for p in protected) else ""))
    if e.get("denied"):
        out.append("  " + _("cancels the gain of {who} (CS-MULTI-5)").format(who=name(e["denied"])))
    from .previews import payers_text

    paid = payers_text(e, name)
    if paid:
        out.append("  " + paid)
    gained = e.get("gained") or {}
    if isinstance(gained, dict) and gained.get("jizva"):
        j = gained["jizva"]
        out.append("  " + _("paid with the Jizva „{name}“: it first adds {gain} to the pool (R-EXH-4)").format(
            name=j.get("name"), gain=j.get("gain")))
    if isinstance(gained, dict) and gained.get("sacrifice"):
        s = gained["sacrifice"]
        out.append("  " + _("paid by sacrificing {name}: it first adds {gain} to the pool (R-EXH-4)").format(
            name=s.get("name"), gain=s.get("gain")))
    return out


# --------------------------------------------------------------------------- manoeuvres, answers, a step

def explain_manoeuvre(m: dict, name: Names) -> str:
    from ..render.text import MANOEUVRES, pool_name

    key = m.get("name")
    what = _(MANOEUVRES[key]) if isinstance(key, str) and key in MANOEUVRES else str(key)
    paid, cost, via = m.get("paid"), m.get("cost"), m.get("via")
    if paid == "free" or cost == 0:
        why = _("free thanks to {via} (R-MAN-2)").format(via=_title(via)) if via else _("free (R-MAN-2)")
        return _("{who}: {manoeuvre} — {why}").format(who=name(m.get("by")), manoeuvre=what, why=why)
    if paid == "vyhoda":
        return _("{who}: {manoeuvre} — paid with a Výhoda (R-MAN-2)").format(who=name(m.get("by")), manoeuvre=what)
    return _("{who}: {manoeuvre} — costs {cost} {pool} (R-MAN-2)").format(who=name(m.get("by")), manoeuvre=what,
                                                                          cost=cost, pool=pool_name(paid))


ANSWER_RULES = ("SCENARIO-FORMAT §5",)
# The engine's own sentences of a test's or výzva's result (`10 ≥ 9 — ÚSPĚCH`): the target is there.
OUTCOME_RULES = ("R-TEST", "R-CHAL")


def explain_outcome(step: dict, name: Names) -> list[str]:
    """Who succeeded (`actions.<id>.success`), with the engine's sentence for a test or výzva, and
    a success bought by exhausting against the test (R-EXH-1)."""
    out = []
    for entry in step.get("log") or []:
        if isinstance(entry, dict) and entry.get("rule") in OUTCOME_RULES:
            out.append(f"{entry.get('text')} ({entry.get('rule')})")
    bought = {e.get("by") for e in step.get("exhaustions") or [] if isinstance(e, dict) and e.get("vs") == "test"}
    for pid, action in (step.get("actions") or {}).items():
        if not isinstance(action, dict) or "success" not in action:
            continue
        word = _("success") if action["success"] else _("failure")
        line = f"{name(pid)}: {word}"
        if action["success"] and pid in bought:
            line += _(" — bought by exhausting against the test (R-EXH-1)")
        out.append(line)
    return out


def explain_step(step: dict, name: Names, rules: dict | None = None) -> list[str]:
    """Every number of one result step, explained (lines without a trailing newline)."""
    out = []
    rolls = step.get("rolls") or {}
    if rolls:
        out.append(_("Rolls:"))
        out += ["  " + line for pid, r in rolls.items() if isinstance(r, dict) for line in explain_roll(pid, r, name)]
    order = explain_order(step, name, rules or {})
    if order:
        out.append(_("Order and pairs:"))
        out += ["  " + line for line in order]
    outcome = explain_outcome(step, name)
    if outcome:
        out.append(_("Outcome:"))
        out += ["  " + line for line in outcome]
    if step.get("manoeuvres"):
        out.append(_("Manoeuvres:"))
        out += ["  " + explain_manoeuvre(m, name) for m in step["manoeuvres"] if isinstance(m, dict)]
    exhaustions = [e for e in step.get("exhaustions") or [] if isinstance(e, dict)]
    if exhaustions:
        out.append(_("Exhaustion:"))
        for i, e in enumerate(exhaustions):
            out += ["  " + line for line in explain_exhaustion(e, name, exhaustions[:i])]
    answers = [entry for entry in step.get("log") or []
               if isinstance(entry, dict) and entry.get("rule") in ANSWER_RULES]
    if answers:
        out.append(_("Answers ignored or refused:"))
        out += [f"  {entry.get('text')} ({entry.get('rule')})" for entry in answers]
    if not out:
        out.append(_("Nothing was rolled or paid in this step."))
    return out


def explain_result(result: dict, step_id: str | None = None) -> list[str]:
    """The explanation of every step of `result` (or only `step_id`); raises KeyError for an unknown step."""
    name = names_of(result)
    steps = [s for s in result.get("steps") or [] if isinstance(s, dict)]
    if step_id is not None:
        steps = [s for s in steps if s.get("id") == step_id]
        if not steps:
            raise KeyError(step_id)
    out = []
    titles = result.get("titles")
    token = _TITLES.set(titles if isinstance(titles, dict) else {})   # abilities by name: `Gladiátor`
    try:
        for s in steps:
            out.append(step_heading(s, name))
            out += ["  " + line for line in explain_step(s, name, result.get("rules"))]
    finally:
        _TITLES.reset(token)
    return out


# --------------------------------------------------------------------------- `?` at a drd play prompt

def explain_now_empty() -> list[str]:
    """What `explain_now` says before anything was rolled (then the usage says enough)."""
    return [_("Nothing has been rolled yet.")]


def explain_now(session: Any) -> list[str]:
    """`?` in `drd play`: the current step as far as the engine has resolved it, and at a decision
    what each offered exhaustion would cost and why (from the previews the options were priced by)."""
    from .previews import name_of, reason

    seen = session.seen
    if seen is None:
        return [_("Nothing has been rolled yet.")]
    data = seen.ctx.record.data
    if not data.get("rolls") and not data.get("exhaustions") and not getattr(session, "offered", None):
        return explain_now_empty()
    name = lambda pid: name_of(seen.w, pid)  # noqa: E731
    rules = {"params": {"tie": seen.ctx.param("tie")}}
    title = step_name(data, name)
    out = [_("Step “{title}” so far:").format(title=title) if title else
           _("Step {id} so far:").format(id=data.get("id"))]
    out += ["  " + line for line in explain_step(data, name, rules)]
    offered = getattr(session, "offered", None)
    if offered:
        earlier = [e for e in data.get("exhaustions") or [] if isinstance(e, dict)]
        for key, pv in offered["previews"].items():
            for e in pv.entries:
                out.append(_("[{key}] would be:").format(key=key))
                out += ["  " + line for line in explain_exhaustion(e, name, earlier)]
        short = offered.get("short")
        if short is not None:
            out.append(_("exhausting: {reason}").format(reason=reason(short)))
            mine = [e for e in earlier if e.get("by") == offered["who"]]
            if mine and isinstance(mine[-1].get("ohrozeni"), list):
                last = mine[-1]
                out.append("  " + _("its Ohrožení is {n}: already raised by its exhaustion against {vs} earlier in "
                                    "this step (CS-SEQ-1)").format(n=last["ohrozeni"][1], vs=name(last.get("vs"))))
    return out
