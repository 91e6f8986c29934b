"""The decision dialogs of `drd play`: what is at stake for whom, the options with their
engine-computed prices, and the follow-up questions (a Jizva's name, the item, for whom).

Every option shown has been run by the engine (`previews.Previewer`); an option it refuses is
printed with the engine's reason and asked again.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any

from ..engine.context import Answer
from ..i18n import _
from .previews import Preview, describe, name_of, reason, state_line


class Offers:
    """Asks one decision of a running `Session` (its table, what it has seen, its previews)."""

    def __init__(self, session: Any):
        self.s = session

    @property
    def table(self) -> Any:
        return self.s.table

    def _base(self, candidate: Answer | None) -> tuple:
        return self.s.previewer.run(self.s.dice.calls, self.s.answers, candidate)

    def _pv(self, who: str, vs: str, candidate: Answer, base: tuple) -> Preview:
        return self.s.previewer.preview(self.s.dice.calls, self.s.answers, who, vs, candidate, base)

    def _context(self, who: str, vs: str) -> tuple[Any, str, str]:
        """(the state, the decider's name, the line saying what was lost)."""
        s = self.s.seen
        w = s.w if s else None
        name = name_of(w, who) if w else who
        rolls = s.ctx.record.data["rolls"] if s else {}
        mine = rolls.get(who, {}).get("total")
        if vs == "test":
            target = s.ctx.target if s else 9
            return w, name, (_("{name}: roll {roll} < {target}").format(name=name, roll=mine, target=target)
                             if mine is not None else _("{name} under {target}").format(name=name, target=target))
        theirs = rolls.get(vs, {}).get("total")
        return w, name, _("{name} ({mine}) lost against {other} ({theirs})").format(
            name=name, mine=mine, other=name_of(w, vs), theirs=theirs)

    def offer(self, who: str, vs: str, *, others: bool = True) -> Answer | None:
        base = self._base(None)
        w, name, head = self._context(who, vs)
        ex = self._pv(who, vs, Answer(exhaust=True), base)
        de = self._pv(who, vs, Answer(deny=True), base) if vs != "test" else Preview([], None)
        short = ex.error is not None and ex.error.problems and ex.error.problems[0].rule == "R-EXH-4"
        # A rule (a plugin's drd_may_exhaust) forbids exhausting here: not offered, and said why.
        forbidden = ex.error is not None and ex.error.problems and "forbidden_by" in ex.error.problems[0].data
        # Where nothing is at stake for the loser, `exhaust` only means denying (SCENARIO-FORMAT §5):
        # then it is offered once, as the denial.
        own = [e for e in ex.entries if e.get("protected")]
        useful_ex = bool(own) or short
        if not own:
            ex = Preview([], ex.error)
        useful_de = bool(de.entries) and all(e.get("denied") for e in de.entries)
        prefix = [who] if own else []
        opposed = _opposed(self.s)
        candidates = [p for p in (w.ids() if w is not None else []) if p not in (who, vs)
                      and _allies(w, who, p, opposed)] if others else []
        helps = [p for p in candidates
                 if self._pv(who, vs, Answer(exhaust=True, exhaust_for=prefix + [p]), base).entries]
        if not useful_ex and not useful_de and not helps:
            if forbidden:               # nothing left to choose: the failure is accepted, and the table told why
                self.table.say(_("  Decision: {head}.  [{state}]").format(head=head, state=state_line(w, who)))
                self.table.say(_("    exhaust: {reason}").format(reason=reason(ex.error)))
            return None
        self.table.say(_("  Decision: {head}.  [{state}]").format(head=head, state=state_line(w, who)))
        # The keys stay the Czech initials in both languages: replay files and muscle memory keep working.
        options: dict[str, tuple[str, Any]] = {"p": (_("accept the failure (R-ACC)"), Answer())}
        if ex.entries:
            options["v"] = (_("exhaust (R-EXH): ") + describe(ex, w), Answer(exhaust=True))
        elif short or forbidden:
            self.table.say(_("    exhaust: {reason}").format(reason=reason(ex.error)))
        if useful_de:
            options["u"] = (_("deny the winner the gain (CS-MULTI-5): ") + describe(de, w), Answer(deny=True))
        if useful_ex:
            options["j"] = (_("exhaust and take a Jizva (R-EXH-4)"), "jizva")
            items = [i.name for i in w.peek(who).equipment] if w is not None else []
            if items:
                options["o"] = (_("exhaust and sacrifice an item (R-EXH-4): ") + ", ".join(items), "sacrifice")
        if helps:
            options["z"] = ((_("exhaust for others too (CS-FOR-2): ") if own else _("exhaust for others (CS-FOR-1): "))
                            + ", ".join(name_of(w, p) for p in helps), "others")
        for key, (text, _answer) in options.items():
            self.table.say(f"    [{key}] {text}")
        self.s.offered = {"who": who, "vs": vs, "previews": {"v": ex, "u": de}, "short": ex.error if short else None}
        keys = "/".join(options)
        while True:
            # Enter accepts: the answer a file without `choices` would give (SCENARIO-FORMAT §5).
            choice = self.s.ask(_("  Choice [{keys}, Enter = p]: ").format(keys=keys),
                                taken=tuple(options)).strip().lower() or "p"
            if choice not in options:
                self.table.say(_("  ✗ type one of: {keys}").format(keys=keys))
                continue
            answer = options[choice][1]
            if answer == "jizva":
                answer = self._ask_jizva(w, who)
            elif answer == "sacrifice":
                answer = self._ask_item(w, who)
            elif answer == "others":
                answer = self._ask_ids(w, helps, prefix=prefix)
            if answer is None:
                continue
            if (answer.exhaust or answer.deny) and not self._confirm(who, vs, answer, base, w):
                continue
            return answer

    def offer_optional(self, who: str, vs: str) -> Answer | None:
        """A participant of the contest may exhaust for others threatened (CS-FOR-1/2)."""
        if who == vs or self.s.seen is None:
            return None
        base = self._base(None)
        w = self.s.seen.w
        opposed = _opposed(self.s)
        helps = [(p, pv) for p in w.ids() if p not in (who, vs) and _allies(w, who, p, opposed)
                 for pv in [self._pv(who, vs, Answer(exhaust=True, exhaust_for=[p]), base)] if pv.entries]
        if not helps:
            return None
        self.table.say(_("  {name} may exhaust for others against {other} (CS-FOR-1):  [{state}]").format(
            name=name_of(w, who), other=name_of(w, vs), state=state_line(w, who)))
        for i, (p, pv) in enumerate(helps, 1):
            self.table.say(_("    [{i}] for {name}: {what}").format(i=i, name=name_of(w, p), what=describe(pv, w)))
        while True:
            text = self.s.ask(_("  Numbers (e.g. 1 2), or Enter = no: ")).strip()
            if not text:
                return None
            parts = text.replace(",", " ").split()
            if not all(x.isdigit() and 1 <= int(x) <= len(helps) for x in parts):
                self.table.say(_("  ✗ type numbers 1–{n} or Enter").format(n=len(helps)))
                continue
            ids = list(dict.fromkeys(helps[int(x) - 1][0] for x in parts))
            answer = Answer(exhaust=True, exhaust_for=ids)
            if not self._confirm(who, vs, answer, base, w):
                continue
            return answer

    def _confirm(self, who: str, vs: str, answer: Answer, base: Any, w: Any) -> bool:
        """Says what `answer` would do (cost, Ohrožení after, whom it protects), or why it cannot be."""
        pv = self._pv(who, vs, answer, base)
        if pv.error is not None or not pv.entries:
            self.table.say("  ✗ " + (reason(pv.error) if pv.error else _("this choice changes nothing")))
            return False
        self.table.say("  → " + describe(pv, w))
        return True

    def _ask_jizva(self, w: Any, who: str) -> Answer | None:
        name = self.s.ask(_("  Name of the Jizva (Enter = back): ")).strip()
        if not name:
            return None
        while True:
            text = self.s.ask(_("  How many points the Jizva gives: ")).strip()
            if text.isdigit() and 1 <= int(text) <= 99:
                return Answer(exhaust=True, jizva={"name": name, "gain": int(text)})
            self.table.say(_("  ✗ type the number of points (1–99)"))

    def _ask_item(self, w: Any, who: str) -> Answer | None:
        items = [i.name for i in w.peek(who).equipment]
        for i, item in enumerate(items, 1):
            self.table.say(f"    [{i}] {item}")
        while True:
            text = self.s.ask(_("  Which item (a number, Enter = back): ")).strip()
            if not text:
                return None
            if text.isdigit() and 1 <= int(text) <= len(items):
                return Answer(exhaust=True, sacrifice=items[int(text) - 1])
            self.table.say(_("  ✗ type a number 1–{n}").format(n=len(items)))

    def _ask_ids(self, w: Any, helps: list[str], prefix: list[str]) -> Answer | None:
        for i, p in enumerate(helps, 1):
            self.table.say(f"    [{i}] {name_of(w, p)}")
        while True:
            text = self.s.ask(_("  For whom besides (numbers, Enter = back): ")).strip()
            if not text:
                return None
            parts = text.replace(",", " ").split()
            if all(x.isdigit() and 1 <= int(x) <= len(helps) for x in parts):
                return Answer(exhaust=True, exhaust_for=prefix + list(dict.fromkeys(helps[int(x) - 1] for x in parts)))
            self.table.say(_("  ✗ type numbers 1–{n}").format(n=len(helps)))

    # ----------------------------------------------------------------- the replay file

def _allies(w: Any, a: str, b: str, opposed: Set[Any] = frozenset()) -> bool:
    """Whom exhausting for is offered to (CS-FOR-1: the story must make it believable): not across
    different `side` labels (an ogre does not pay for the hero it fights); where a side is missing,
    not between two who act against each other in this step (`opposed`). A file may still write
    such an answer into `choices`."""
    sa, sb = w.peek(a).side, w.peek(b).side
    if sa is not None and sb is not None:
        return sa == sb
    return frozenset((a, b)) not in opposed


def _opposed(session: Any) -> set:
    """Pairs of participants acting against each other in the step being played: an action and
    its targets, a harming counter and the action (or counter) it answers, a counter and its targets."""
    from ..scenario.models import as_list

    seen = getattr(session, "seen", None)
    if seen is None:
        return set()
    data = seen.ctx.record.data
    rounds = getattr(session.loaded.scenario, "rounds", None) or []
    ri = data.get("round", 1) - 1
    steps = rounds[ri].steps if 0 <= ri < len(rounds) else []
    step = next((st for si, st in enumerate(steps) if (st.id or f"{ri + 1}.{si + 1}") == data.get("id")), None)
    contest = getattr(step, "contest", None)
    if contest is None:
        return set()
    actor = contest.action.actor
    out = {frozenset((actor, t)) for t in as_list(contest.action.targets)}
    for counter in contest.counters:
        if counter.kind in ("harm", "oppose"):
            out.add(frozenset((counter.actor, counter.answers or actor)))
        out |= {frozenset((counter.actor, t)) for t in as_list(counter.targets)}
    return out


