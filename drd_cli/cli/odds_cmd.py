"""`drd odds …` (exact DrD2 odds) and `drd simulate` (Monte Carlo over a scenario's open dice).

Startup speed: only typer at import time; odds, engine and rich are imported inside commands.
"""

from __future__ import annotations

import json
from typing import Any, List, Optional

import typer

from ._common import use_option
from ._common import (N_, Lang, disable_option, enable_option, group_option, lang_option, parse_params, set_option,
                      use_language)
from ._help import DrdGroup, DrdTyper


class _OddsGroup(DrdGroup):
    """`drd odds FILE STEP` is `drd odds file FILE STEP`: a first word that names no sub-command
    (and is no option) is taken as the scenario file."""

    def resolve_command(self, ctx, args):  # noqa: ANN001, ANN201
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["file", *args]
        return super().resolve_command(ctx, args)


odds_app = DrdTyper(help=N_("Exact DrD2 odds: zkouška (test), střet (contest), vyčerpání (exhaustion), "
                               "a scenario step (`drd odds FILE STEP`)."), no_args_is_help=True, cls=_OddsGroup)


def _pct(p) -> str:
    from ..odds import fmt

    return fmt(p)


def _emit(data: dict, as_json: bool, lines: list[str]) -> None:
    from ..odds import as_json as conv

    if as_json:
        typer.echo(json.dumps(conv(data), ensure_ascii=False, indent=2))
    else:
        for line in lines:
            typer.echo(line)


@odds_app.command("test", help=N_("Test (zkouška): the chance that 2d6 + bonus (+ přesně) reaches the target."))
def odds_test(bonus: int = typer.Option(0, "--bonus", "-b", help=N_("Bonus added to 2d6.")),
              presne: int = typer.Option(0, "--presne", min=0, max=100, help=N_("How many times přesně is used.")),
              presne_mode: str = typer.Option("plus-one", "--presne-mode", help=N_("plus-one | keep-best-2-of-3")),
              target: int = typer.Option(9, "--target", min=0, help=N_("Target number of the test.")),
              as_json: bool = typer.Option(False, "--json", help=N_("Print JSON instead of text.")),
              lang: Optional[Lang] = lang_option()) -> None:
    """Zkouška (test): P(2d6 + bonus (+ přesně) ≥ target)."""
    use_language(lang)
    from ..i18n import _
    from ..odds import test_odds

    try:
        r = test_odds(bonus, presne, presne_mode, target)
    except ValueError as exc:
        raise typer.BadParameter(str(exc))
    _emit({"bonus": bonus, "presne": presne, "presne_mode": presne_mode, "target": target, **r}, as_json,
          [_("Test 2d6{bonus}").format(bonus=f"{bonus:+d}")
           + (_(", přesně ×{count} ({mode})").format(count=presne, mode=presne_mode) if presne else "")
           + f" ≥ {target}",
           _("  SUCCESS: {p}").format(p=_pct(r["success"])), _("  FAILURE: {p}").format(p=_pct(r["failure"]))])


@odds_app.command("contest", help=N_("Contest (střet) of one pair: 2d6 + bonus against 2d6 + vs."))
def odds_contest(bonus: int = typer.Option(0, "--bonus", "-b", help=N_("The actor's bonus.")),
                 vs: int = typer.Option(0, "--vs", help=N_("The counter-actor's bonus.")),
                 tie: str = typer.Option("actor", "--tie", help=N_("actor | counter | reroll")),
                 as_json: bool = typer.Option(False, "--json", help=N_("Print JSON instead of text.")),
                 lang: Optional[Lang] = lang_option()) -> None:
    """Střet (contest) of one pair: 2d6 + bonus against 2d6 + vs."""
    use_language(lang)
    from ..i18n import _
    from ..odds import contest_odds
    from ..render.values import tie_words

    try:
        r = contest_odds(bonus, vs, tie)
    except ValueError as exc:
        raise typer.BadParameter(str(exc))
    _emit({"bonus": bonus, "vs": vs, "tie": tie, **r}, as_json,
          [_("Contest 2d6{bonus} against 2d6{vs} ({tie})").format(bonus=f"{bonus:+d}", vs=f"{vs:+d}", tie=tie_words(tie)),
           _("  actor wins:  {p}").format(p=_pct(r["win"])), _("  actor loses: {p}").format(p=_pct(r["lose"])),
           _("  tied roll:   {p}").format(p=_pct(r["tie"]))])


@odds_app.command("exhaust", help=N_("Exhaustion (vyčerpání): the cost is Ohrožení (− armour, + mocně); with --bonus also the expected cost for that test."))
def odds_exhaust(ohrozeni: int = typer.Option(..., "--ohrozeni", min=0, help=N_("Current Ohrožení of the one who pays.")),
                 armour: int = typer.Option(0, "--armour", min=0, help=N_("Armour (only against bodily actions).")),
                 mocne: int = typer.Option(0, "--mocne", min=0, help=N_("Uses of mocně by the winning action.")),
                 mental: bool = typer.Option(False, "--mental", help=N_("A non-bodily action: armour does not count.")),
                 bonus: Optional[int] = typer.Option(None, "--bonus",
                                                     help=N_("Bonus of the test, for the expected cost.")),
                 as_json: bool = typer.Option(False, "--json", help=N_("Print JSON instead of text.")),
                 lang: Optional[Lang] = lang_option()) -> None:
    """Vyčerpání (exhaustion): cost = Ohrožení (− armour, + mocně) and the expected cost for a given test."""
    use_language(lang)
    from ..i18n import _, fmt_decimal
    from ..odds import expected_exhaustion_cost

    r = expected_exhaustion_cost(ohrozeni, bonus, armour, mocne, not mental)
    lines = [_("Exhaustion at Ohrožení {ohrozeni}: cost {cost}, Ohrožení afterwards {after}").format(
        ohrozeni=ohrozeni, cost=r["cost"], after=r["ohrozeni_after"])]
    if bonus is not None:
        lines.append(_("  FAILURE of the test 2d6{bonus}: {p}; expected cost {expected} ≈ {approx}").format(
            bonus=f"{bonus:+d}", p=_pct(r["p_failure"]), expected=r["expected"],
            approx=fmt_decimal(float(r["expected"]), 2)))
    _emit({"ohrozeni": ohrozeni, "armour": armour, "mocne": mocne, **r}, as_json, lines)


@odds_app.command("file", help=N_("Exact odds of one scenario step over every die the file leaves open in it.\n\nAlso written shortly as `drd odds FILE STEP`."))
def odds_file(file: str = typer.Argument(..., help=N_("The scenario (YAML).")),
              step: str = typer.Argument(..., help=N_("The step id.")),
              choose: str = typer.Option("accept", "--choose",
                                         help=N_("accept | exhaust | cheapest (for choices the file leaves open)")),
              seed: int = typer.Option(0, "--seed", help=N_("Seed for the dice the file leaves open BEFORE the step.")),
              set_: Optional[List[str]] = set_option(),
              enable: Optional[List[str]] = enable_option(),
              disable: Optional[List[str]] = disable_option(), use: Optional[List[str]] = use_option(),
              group: Optional[str] = group_option(),
              budget: int = typer.Option(4000, "--budget", min=0,
                                         help=N_("Most classes of dice resolved for an exact answer; more: an "
                                                 "estimate by simulation (0: always estimate).")),
              samples: Optional[int] = typer.Option(None, "--samples", min=1, max=1_000_000,
                                                    help=N_("An estimate draws exactly this many samples (default: "
                                                            "as many as fit in about 3 times the start-up).")),
              what_if: bool = typer.Option(False, "--what-if",
                                           help=N_("Also the odds with each manoeuvre a roller can still afford "
                                                   "that changes them (přesně), and what it costs.")),
              who: Optional[str] = typer.Option(None, "--who",
                                                help=N_("With --what-if: only this roller's options (a participant "
                                                        "id).")),
              as_json: bool = typer.Option(False, "--json", help=N_("Print JSON instead of text.")),
              lang: Optional[Lang] = lang_option()) -> None:
    """Exact odds of one scenario step over every die the file leaves open in it.

    Also written shortly as `drd odds FILE STEP`.
    """
    import time

    use_language(lang)
    from ._common import guarded
    from .. import api

    if choose not in ("accept", "exhaust", "cheapest"):
        raise typer.BadParameter("accept | exhaust | cheapest", param_hint="--choose")
    with guarded():
        loaded = api.load_scenario(file)
        if who is not None and who not in loaded.scenario.participants:
            from ..i18n import _

            typer.echo(f"{file}: " + _("unknown participant {id}; participants are {known}").format(
                id=repr(who), known=", ".join(sorted(loaded.scenario.participants))), err=True)
            raise typer.Exit(2)
        t = time.perf_counter()
        from ..odds.budget import time_budget
        from ..odds.step import exact_deadline

        if loaded.system == "dakara":
            _dakara_odds(loaded, file, step, seed, set_, enable, disable, group, what_if, as_json, t)
            return

        rules: dict[str, Any] = {"seed": seed, "params": parse_params(set_), "enable": tuple(enable or ()),
                 "disable": tuple(disable or ()), "group": group, "time_limit": time_budget()}
        rules["exact_time"] = exact_deadline(rules["time_limit"])
        r, w = _file_odds(loaded, file, step, choose, rules, budget=budget, samples=samples, what_if=what_if, who=who)
    r["elapsed_ms"] = round((time.perf_counter() - t) * 1000, 1)
    names = {pid: (p.name or pid) for pid, p in loaded.scenario.participants.items()}
    if what_if:
        from ..odds import what_if_lines

        w["elapsed_ms"] = r["elapsed_ms"]
        _emit(w, as_json, _step_lines(_titled(r, loaded, step, as_json), names) + [""] + what_if_lines(w, names))
    else:
        _emit(r, as_json, _step_lines(_titled(r, loaded, step, as_json), names))


def _file_odds(loaded: Any, file: str, step: str, choose: str, rules: dict, *, budget: int, samples: Optional[int],
               what_if: bool, who: Optional[str]) -> tuple[dict, dict]:
    """The step's odds (and the what-if data, or {}), a bad step id said as exit 2."""
    from .. import api
    from ..errors import DrdError
    from ..odds import step_odds

    w: dict = {}
    try:
        with _progress_bar() as progress:
            if what_if:
                from ..odds import what_if as run_what_if

                w = run_what_if(loaded, step, choose, budget=budget, samples=samples, progress=progress,
                                only=who, **rules)
                r = w["base"]
            else:
                r = step_odds(loaded, step, choose, budget=budget, samples=samples, progress=progress, **rules)
    except KeyError as exc:
        typer.echo(f"{file}: {exc.args[0]}", err=True)
        raise typer.Exit(2) from None
    except DrdError as exc:
        api.locate(exc, loaded)
        raise
    return r, w


def _dakara_title(loaded: Any, step_id: str) -> str | None:
    """`Mistr Hanuš — Šifrování`: a Dakara step as its transcript heads it (who acts, in which skill)."""
    from ..dakara.skills import display_name

    scenario = loaded.scenario
    for rnd in scenario.rounds:
        for step in rnd.steps:
            spec = getattr(step, "skill", None)
            if step.id != step_id or spec is None:
                continue
            person = scenario.participants.get(spec.actor)
            who = (person.name if person is not None and person.name else spec.actor)
            return f"{who} — {display_name(spec.skill)}"
    return None


def _dakara_odds(loaded, file, step, seed, set_, enable, disable, group, what_if, as_json, t) -> None:  # noqa: ANN001
    """`drd odds FILE STEP` of a Dakara file: the exact odds of the skill step (odds/dakara.py)."""
    import time

    from ..i18n import _
    from ..odds.dakara import TooManyDice, dakara_step_odds

    if what_if:
        typer.echo(_("{file}: --what-if offers DrD II manoeuvres and a Dakara step has none; ask without --what-if").format(file=file), err=True)
        raise typer.Exit(2)
    try:
        r = dakara_step_odds(loaded, step, seed=seed, params=parse_params(set_), enable=tuple(enable or ()),
                             disable=tuple(disable or ()), group=group)
    except KeyError as exc:
        typer.echo(f"{file}: {exc.args[0]}", err=True)
        raise typer.Exit(2) from None
    except TooManyDice:
        typer.echo(_("{file}: step {step} rolls too many dice to count every one of them; try fewer helpers "
                     "(docs/odds.md)").format(file=file, step=step), err=True)
        raise typer.Exit(1) from None
    r["elapsed_ms"] = round((time.perf_counter() - t) * 1000, 1)
    from .dakara import _label

    from ..i18n import ngettext

    dice = ngettext("{n} die", "{n} dice", r["open_dice"]).format(n=r["open_dice"])
    resolutions = ngettext("{n} resolution", "{n} resolutions", r["resolutions"]).format(n=r["resolutions"])
    title = _dakara_title(loaded, step)
    lines = [_("{title} (Dakara skill use): exact over every value of its dice ({dice}), {resolutions}").format(
        title=title, dice=dice, resolutions=resolutions) if title else
        _("Step {step} (Dakara skill use): exact over every value of its dice ({dice}), {resolutions}").format(
        step=step, dice=dice, resolutions=resolutions)]
    for row in r["outcomes"]:
        word, _style = _label((row["outcome"], row["complication"], row["injury"]), r["risk"])
        lines.append(f"  {word}: {_pct(row['p'])}")
    if r["dead"]:
        lines.append(_("  death (injury over kondice): {p}").format(p=_pct(r["dead"])))
    if r["refused"]:
        lines.append(_("The rules forbid it (a choice from the file cannot be paid): {p}").format(p=_pct(r["refused"])))
    _emit(r, as_json, lines)


class _progress_bar:
    """A rich progress bar on stderr while odds are computed, only when stderr is a terminal
    (never mixed into stdout or --json); `progress(done, total)` is what the odds call."""

    def __enter__(self):  # noqa: ANN204
        import sys

        self._prog = None
        if not sys.stderr.isatty():
            return None
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        from ..i18n import _
        from ._common import make_console

        self._prog = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}"),
                              TimeElapsedColumn(), console=make_console(stderr=True), transient=True)
        self._prog.start()
        self._task = self._prog.add_task(_("Computing odds"), total=None)
        return self._update

    def _update(self, done: int, total: int) -> None:
        self._prog.update(self._task, completed=done, total=total)

    def __exit__(self, *exc) -> None:  # noqa: ANN002
        if self._prog is not None:
            self._prog.stop()


def _complement(p):  # noqa: ANN001, ANN202
    """1 − p for an exact probability or an estimate (its interval flipped)."""
    from fractions import Fraction

    if isinstance(p, Fraction):
        return 1 - p
    return type(p)(1 - p.value, 1 - p.high, 1 - p.low, p.n)


def _titled(r: dict, loaded: Any, step: str, as_json: bool) -> dict:
    """The report with the step's title for the text lines (the JSON keeps its keys as they were)."""
    if as_json:
        return r
    from ..render.values import scenario_step_title

    return {**r, "title": scenario_step_title(loaded.scenario, step)}


def _step_lines(r: dict, names: dict) -> list[str]:
    """The text report of `drd odds FILE STEP` (in the active language, one fact a line)."""
    from ..i18n import _, fmt_decimal, ngettext

    step, choose = r["step"], r["choose"]
    rollers = ", ".join(_("{who} ({dice}d6)").format(who=names.get(o["who"], o["who"]), dice=o["dice"])
                        for o in r["open_rolls"]) or _("none")
    # Thousands grouped with a space in both languages (12 960): unambiguous either way.
    combos = f"{r['combinations']:,}".replace(",", " ")
    combinations = ngettext("{n} dice combination", "{n} dice combinations", r["combinations"]).format(n=combos)
    from ..play.session import STEP_KINDS

    kind = _(STEP_KINDS[r["kind"]]) if r["kind"] in STEP_KINDS else r["kind"]
    choose = _policy_words(choose)
    title = r.get("title")   # set by the command from the file: people read the step's name, not its id
    lines = [_("{title} ({kind}), choices: {choose}").format(title=title, kind=kind, choose=choose) if title else
             _("Step {step} ({kind}), choices: {choose}").format(step=step, kind=kind, choose=choose),
             _("  open rolls: {rollers}").format(rollers=rollers)]
    if r.get("method") in FAST_WORDS:
        lines.append(_(FAST_WORDS[r["method"]]).format(
            combinations=combinations,
            resolutions=ngettext("{n} resolution", "{n} resolutions", r["resolutions"]).format(n=r["resolutions"]),
            ms=fmt_decimal(r["elapsed_ms"], 1)))
    elif r.get("exact", True):
        lines.append(_("  {combinations} → {classes}, {resolutions}, {ms} ms").format(
            combinations=combinations,
            classes=ngettext("{n} class", "{n} classes", r["classes"]).format(n=r["classes"]),
            resolutions=ngettext("{n} resolution", "{n} resolutions", r["resolutions"]).format(n=r["resolutions"]),
            ms=fmt_decimal(r["elapsed_ms"], 1)))
    else:
        samples = f"{r['samples']:,}".replace(",", " ")
        lines.append(_("  {combinations}: more classes than the budget ({budget}) for an exact answer; ESTIMATE "
                       "from {samples} ({resolutions}), {ms} ms").format(
            combinations=combinations, budget=f"{r.get('budget', 0):,}".replace(",", " "),
            samples=ngettext("{n} sample", "{n} samples", r["samples"]).format(n=samples),
            resolutions=ngettext("{n} resolution", "{n} resolutions", r["resolutions"]).format(n=r["resolutions"]),
            ms=fmt_decimal(r["elapsed_ms"], 1)))
        lines.append(_("  ≈ marks an estimate, in brackets its 95% confidence interval"))
    why = _why_not_fast(r)
    if why:
        lines.append(_("  not by the fast method: {why}").format(why=why))
    if r["success"]:
        lines.append(_("Actions:"))
    for pid, p in r["success"].items():
        lines.append(_("  {who}: SUCCESS {p}, FAILURE {q}").format(who=names.get(pid, pid), p=_pct(p),
                                                                   q=_pct(_complement(p))))
    if r["pairs"]:
        lines.append(_("Pairs (who wins, exact):") if r.get("pairs_exact") else _("Pairs (who wins):"))
    for pair, d in r["pairs"].items():
        a, _sep, c = pair.partition(" vs ")
        lines.append(_("  {a} against {c}: ").format(a=names.get(a, a), c=names.get(c, c))
                     + ", ".join(f"{names.get(w, w)} {_pct(p)}" for w, p in d.items()))
    if r["hit"]:
        lines.append(_("Hit:"))
        lines += [f"  {names.get(pid, pid)}: {_pct(p)}" for pid, p in r["hit"].items()]
    if r["exhausts"]:
        lines.append(_("Exhausts:"))
        lines += [f"  {names.get(pid, pid)}: {_pct(p)}" for pid, p in r["exhausts"].items()]
    lines.append(_("Ohrožení after the step:"))
    for pid, d in r["ohrozeni"].items():
        # `Mistr Hanuš: 5 — 1/1 (100,0 %)`: one colon a line, the value and its chance told apart
        lines.append(f"  {names.get(pid, pid)}: " + ", ".join(f"{o} — {_pct(p)}" for o, p in d.items()))
    if r["refused"]:
        lines.append(_("The rules forbid it (a choice from the file cannot be paid): {p}").format(p=_pct(r["refused"])))
    if r["dropped"]:
        lines.append(_("  (repeated ties cut off: {p}, the rest renormalised)").format(p=_pct(r["dropped"])))
    return lines


#: How each fast method's answer is said (the JSON's `method`).
FAST_WORDS = {
    "independent": N_("  {combinations}: exact by the fast method (each roller on its own dice, checked against "
                      "the rules: {resolutions}), {ms} ms"),
    "sequence": N_("  {combinations}: exact by the fast method (payments in the order of the rolls, learnt "
                   "from the rules by the number of winners and checked: {resolutions}), {ms} ms"),
}


def _policy_words(choose: str) -> str:
    """A policy (`accept`, `exhaust`, `cheapest`) in the words the transcript gives a defaulted
    decision (`answer.exhaust`, …), in the active language."""
    from ..i18n import _
    from ..wording import TEMPLATES

    policy = TEMPLATES.get(f"answer.{choose}")
    return _(policy) if policy else choose


def _why_not_fast(r: dict) -> str:
    """Why the fast method did not answer (`why_not_fast`, odds.fast.WHY), in words; "" when it did
    or when nothing was asked of it."""
    from ..i18n import _

    why = r.get("why_not_fast")
    if not why or r.get("method") == "independent":
        return ""
    words = {
        "hooks": _("a plugin may decide from the dice ({hooks})").format(hooks=", ".join(r.get("deciding_hooks") or ())),
        "protect": _("protecting counters (who is shielded depends on which protectors win)"),
        "area": _("a plošná counter"),
        "obstacle": _("an obstacle on a counter"),
        "reroll": _("tie: reroll"),
        "long": _("a long action or a follow-up"),
        "followup": _("a follow-up whose výzva rolls dice only when the action gets through"),
        "totals": _("totals given by the file or a roller rolling twice"),
        "kind": _("no model for this kind of step"),
        "model": _("the rules did not follow its model on a checked roll"),
        "policy": _("payments whose order matters (exhaust or cheapest)"),
        "exhaustion": _("an exhaustion the file writes (who pays what depends on the order of payments)"),
        "refused": _("a rule refuses the step with some of the dice"),
    }
    return words.get(why, why)


SIMULATE_HELP = N_("Monte Carlo: the scenario N times with random open dice; distributions of Ohrožení, pools "
                   "and Jizvy, and how often each side's goals succeed. The result depends only on the seed, "
                   "not on the number of processes.")


def simulate_cmd(file: str = typer.Argument(..., help=N_("The scenario (YAML).")),
                 n: int = typer.Option(1000, "-n", min=1, max=10_000_000,
                                       help=N_("Number of runs (at most 10 000 000).")),
                 seed: int = typer.Option(0, "--seed", help=N_("Run i uses seed + i.")),
                 policy: str = typer.Option("accept", "--policy",
                                            help=N_("accept | exhaust | cheapest (exhausts only when it costs "
                                                    "at most 1)")),
                 workers: Optional[int] = typer.Option(None, "--workers", min=1,
                                                       help=N_("Processes (default: all cores; 1 = no pool).")),
                 set_: Optional[List[str]] = set_option(),
                 enable: Optional[List[str]] = enable_option(),
                 disable: Optional[List[str]] = disable_option(),
                 use: Optional[List[str]] = use_option(),
                 group: Optional[str] = group_option(),
                 as_json: bool = typer.Option(False, "--json", help=N_("Print JSON instead of tables.")),
                 lang: Optional[Lang] = lang_option()) -> None:
    """Monte Carlo: the scenario N times with random open dice; distributions of Ohrožení, pools and
    Jizvy, and how often each side's goals succeed. The result depends only on the seed, not on the
    number of processes."""

    from ._common import guarded

    use_language(lang)
    from ..i18n import _

    if policy not in ("accept", "exhaust", "cheapest"):
        raise typer.BadParameter("accept | exhaust | cheapest", param_hint="--policy")
    rules: dict[str, Any] = {"params": parse_params(set_), "enable": tuple(enable or ()),
                             "disable": tuple(disable or ()), "group": group}
    with guarded():
        from ..api import setup_rules
        from ..simulate import _load

        loaded = _load(file)   # invalid file → exit 2 with file:line:col before any worker starts
        if loaded.system == "dakara":
            typer.echo(_("{file}: drd simulate plays DrD II scenarios; for the exact odds of a Dakara step use "
                         "drd odds {file} STEP (docs/dakara.md)").format(file=file), err=True)
            raise typer.Exit(2)
        setup_rules(loaded, **rules)   # and a bad --set/--group/plugin id: exit 1/2 here, not in every run
        r = _interruptible(file, n, seed, policy, workers, rules)
    if as_json:
        typer.echo(json.dumps(r, ensure_ascii=False, indent=2, default=str))
        return
    _simulate_tables(r, {pid: (p.name or pid) for pid, p in loaded.scenario.participants.items()}, loaded.scenario)


def _interruptible(file: str, n: int, seed: int, policy: str, workers: Optional[int], rules: dict) -> dict:
    """`simulate`, with a progress bar for a person watching (stderr, a terminal, N ≥ 2,000) and
    Ctrl-C ending it at once: one line, exit 130, no traceback (the pool's workers are killed)."""
    import os
    import sys

    from ..i18n import _
    from ..simulate import simulate
    from ._common import make_console

    try:
        if sys.stderr.isatty() and n >= 2000:
            from rich.progress import Progress

            with Progress(console=make_console(stderr=True), transient=True) as prog:
                task = prog.add_task(_("Simulation (Ctrl+C stops it)"), total=n)
                return simulate(file, n, seed=seed, policy=policy, workers=workers, rules=rules,
                                progress=lambda k: prog.advance(task, k))
        return simulate(file, n, seed=seed, policy=policy, workers=workers, rules=rules)
    except KeyboardInterrupt:
        sys.stderr.write(_("drd: interrupted") + "\n")
        sys.stderr.flush()
        # Nothing is half-written (the tables come after); leave now rather than wait for any
        # thread of the ended pool at interpreter exit.
        os._exit(130)


def _step_title(scenario: Any, step: str) -> str:
    """A step's title from the file (`útěk`), else its id; the whole scenario's row keeps its words."""
    from ..render.values import scenario_step_title

    return (scenario_step_title(scenario, step) if scenario is not None else None) or step


def _simulate_tables(r: dict, names: dict, scenario: Any = None) -> None:
    """Per participant: Ohrožení, pools left, Jizvy; per step and side: how often its goal succeeds."""
    from rich.table import Table

    from ..i18n import _, fmt_decimal, fmt_percent
    from ._common import make_console

    console = make_console()
    runs = max(r["runs"], 1)
    head = _("Simulation {n}× (seed {seed}, choices: {policy}): {runs} finished").format(
        n=r["n"], seed=r["seed"], policy=_policy_words(r["policy"]), runs=r["runs"])
    if r["errors"]:
        count = sum(r["errors"].values())
        other = {kind: n for kind, n in r["errors"].items() if kind != "RuleViolation"}
        if not other:   # the usual case: a rule refused a path (an unaffordable exhaustion, …)
            head += _(", stopped by the rules {count}").format(count=count)
        else:           # anything else is a fault, named as the JSON's `errors` names it
            errors = ", ".join(f"{kind}: {n}" for kind, n in sorted(other.items()))
            head += _(", stopped by the rules {count} ({errors})").format(count=count, errors=errors)
    console.print(head)
    t = Table(title=_("Final state of the participants"), title_justify="left")
    for col in (_("participant"), _("Ohrožení (distribution)"), _("left on average"), _("Jizvy")):
        t.add_column(col)
    for pid, d in r["ohrozeni"].items():
        dist = ", ".join(f"{o}: {fmt_percent(c / runs, 0)}" for o, c in d.items())
        pools = ", ".join(f"{_POOLS_CS.get(pool, pool)} {fmt_decimal(sum(v * k for v, k in c.items()) / runs, 1)}"
                          for pool, c in r["pools"].get(pid, {}).items())
        jz = r["jizvy"].get(pid, {})
        scars = _("average {mean}; at least one {share}").format(
            mean=fmt_decimal(sum(v * k for v, k in jz.items()) / runs, 2),
            share=fmt_percent(sum(k for v, k in jz.items() if v) / runs, 0))
        t.add_row(names.get(pid, pid), dist, pools, scars)
    from ..render.fit import fit

    console.print(fit(t))
    s = Table(title=_("How often a side gets its way (all its actions in the step succeed)"), title_justify="left")
    for col in (_("step"), _("side"), _("SUCCESS")):
        s.add_column(col)
    for step, d in r["side_rate"].items():
        for side, v in d.items():
            if v is not None:
                s.add_row(_step_title(scenario, step), names.get(side, side), fmt_percent(v))
    for side, v in r["side_all_rate"].items():
        if v is not None:
            s.add_row(_("whole scenario"), names.get(side, side), fmt_percent(v))
    console.print(fit(s))


_POOLS_CS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba"}
