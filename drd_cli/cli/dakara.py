"""`drd dakara …`: quick Dakara skill tests and contests for the table (RULES.md §4).

Startup speed: this module imports only typer; rich, pydantic and the Dakara modules are
imported inside the commands.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, List, Optional, Tuple, TypeVar

import typer

from ._common import Lang, lang_option, use_language
from ._help import DrdTyper

if TYPE_CHECKING:      # the Dakara modules are imported inside the commands
    from ..dakara.rules import HelperMode, Kind, Risk

_Choice = TypeVar("_Choice", bound=Optional[str])
HELPER_MODES: tuple[HelperMode, ...] = ("escalating", "shared")
RISKS: tuple[Risk | None, ...] = ("injury", "complication", None)


def N_(message: str) -> str:
    """Marks a message for the catalogs (drd_cli.i18n.N_) without importing gettext at startup."""
    return message


app = DrdTyper(
    help=N_("Dakara: skill test (zkouška) and contest (střet), 1d6 + skill against 1d6 + difficulty, exact odds."),
    no_args_is_help=True,
)

# English msgids, translated when printed (drd_cli/locale).
OUTCOME_WORDS = {
    "auto-success": (N_("SUCCESS without a roll"), "bold green"),
    "success": (N_("SUCCESS"), "green"),
    "win": (N_("WIN"), "green"),
    "draw": (N_("DRAW"), "yellow"),
    "failure": (N_("FAILURE"), "red"),
    "loss": (N_("LOSS"), "red"),
    "withdrawn": (N_("WITHDRAWN"), "dim"),
    "impossible": (N_("IMPOSSIBLE"), "bold red"),
}
COMPLICATION_WORDS = {"none": N_("without complications"), "mild": N_("mild complications"),
                      "serious": N_("serious complications")}
RISK_WORDS = {"injury": N_("injury"), "complication": N_("complication")}


def _tools(value: str) -> int | str:
    if value == "none":
        return "none"
    try:
        n = int(value)
    except ValueError:
        from ..i18n import gettext

        raise typer.BadParameter(gettext("{value}: expected an integer from -2 to +2, or 'none'").format(
            value=repr(value)), param_hint="--tools")
    if not -2 <= n <= 2:
        from ..i18n import gettext

        raise typer.BadParameter(gettext("{n}: tools are -2..+2 (poor or none down to -2, exceptional up to +2; "
                                         "SK-8)").format(n=n), param_hint="--tools")
    return n


def _dice(pair: Optional[Tuple[int, int]], hint: str) -> Optional[Tuple[int, int]]:
    if pair is None:
        return None
    for d in pair:
        if not 1 <= d <= 6:
            from ..i18n import gettext

            raise typer.BadParameter(gettext("a die shows 1 to 6, not {value}").format(value=d), param_hint=hint)
    return pair


def _pair(text: str) -> Tuple[int, int]:
    parts = text.replace(":", ",").split(",")
    try:
        p, g = (int(x) for x in parts)
    except ValueError:
        from ..i18n import gettext

        raise typer.BadParameter(gettext("{text}: expected PLAYER,NARRATOR, e.g. 4,1").format(text=repr(text)),
                                 param_hint="--helper-dice")
    return p, g


def _run(kind: Kind, skill: int, difficulty: int, finta: int, tools: str, tools_required: bool,
         situational: List[int], helper: List[int], helper_dice: List[str], helpers_mode: str,
         risk: Optional[str], injury_modifier: int, armour: int, injured: Optional[int], kondice: int,
         finta_cap: int, injury_floor: int, roll: bool, dice: Optional[Tuple[int, int]], seed: Optional[int],
         opponent_finta: int, as_json: bool, lang: Optional[Lang], name: Optional[str] = None) -> None:
    """Validate the options, print the pre-roll answer, the exact odds and (optionally) the result."""
    use_language(lang)
    mode = _check_choice(helpers_mode, HELPER_MODES, "--helpers-mode")
    chosen_risk = _check_choice(risk, RISKS, "--risk")
    from ..i18n import gettext      # only messages below; the catalog is read when one is needed

    over_cap = gettext("+{finta} is over the finta cap +{cap} (SK-6)")
    if finta > finta_cap:
        raise typer.BadParameter(over_cap.format(finta=finta, cap=finta_cap), param_hint="--finta")
    if opponent_finta > finta_cap:
        raise typer.BadParameter(over_cap.format(finta=opponent_finta, cap=finta_cap), param_hint="--opponent-finta")
    tool_value = _tools(tools)
    dice = _dice(dice, "--dice")
    helper_pairs = [_dice(_pair(p), "--helper-dice") for p in helper_dice]
    if len(helper_pairs) > len(helper):
        raise typer.BadParameter(gettext("more pairs of dice ({pairs}) than helpers ({helpers})").format(
            pairs=len(helper_pairs), helpers=len(helper)), param_hint="--helper-dice")
    if chosen_risk != "injury" and injury_modifier:
        raise typer.BadParameter(gettext("needs --risk injury (injury or complication, never both; SK-4)"),
                                 param_hint="--injury-modifier")
    if roll and dice is not None:
        raise typer.BadParameter(gettext("give --roll or --dice, not both"), param_hint="--roll")
    if chosen_risk is None:
        chosen_risk = "complication"   # the quick command assumes a complication unless told (docs/dakara.md)

    from drd_cli.dakara import odds as odds_mod, rules

    impossible = rules.is_impossible(tool_value, tools_required)
    base = rules.modified_rating(skill, finta=finta, tools=tool_value, situational=situational)
    diffs = rules.helper_difficulties(difficulty, len(helper), mode)
    sure_bonus = sum(1 for h, d in zip(helper, diffs) if h >= d)
    helpers_roll = any(h < d for h, d in zip(helper, diffs))
    answer = None
    if kind == "test":
        answer = rules.pre_roll_answer(base + sure_bonus, difficulty, impossible=impossible)
    odds = odds_mod.skill_odds(kind, base, difficulty, helpers=[odds_mod.HelperSpec(h) for h in helper],
                               helper_mode=mode, risk=chosen_risk, injury_modifier=injury_modifier,
                               armour=armour, injury_floor=injury_floor, impossible=impossible,
                               accumulated_injury=injured, kondice=kondice)
    result = None
    if roll or dice is not None:
        result = _resolve(kind, skill, difficulty, finta, tool_value, tools_required, situational, helper,
                          helper_pairs, mode, chosen_risk, injury_modifier, armour, injured, kondice, finta_cap,
                          injury_floor, dice, seed, opponent_finta, name)
    if as_json:
        import json
        out = {"kind": kind, "answer": answer, "modified_rating": base + sure_bonus, "difficulty": difficulty,
               "helpers_may_change_answer": helpers_roll, "odds": odds.to_dict(),
               "result": result}
        typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    _print(kind, skill, base, sure_bonus, helpers_roll, difficulty, helper, diffs, answer, chosen_risk, injury_modifier,
           armour, injured, kondice, odds, result)


def _resolve(kind, skill, difficulty, finta, tools, tools_required, situational, helper, helper_dice,
             helpers_mode, risk, injury_modifier, armour, injured, kondice, finta_cap, injury_floor, dice, seed,
             opponent_finta, name=None) -> dict:
    """Build a one-step scenario and run it through the engine, so the table and files agree."""
    from drd_cli.dakara.engine import resolve_dakara
    from drd_cli.dakara.models import parse_dakara
    from drd_cli.dice import SeededDice, new_seed
    from drd_cli.i18n import _

    # The skill's name only shows in the result's lines: `--name`, else "…" (an unnamed skill).
    sk = name.strip() if name and name.strip() else "…"
    participants = {"hrac": {"name": _("the character"), "skills": {sk: skill}, "armour": armour,
                             "injury": injured or 0}}
    step: dict = {"actor": "hrac", "skill": sk, "finta": finta, "tools": tools,
                  "tools_required": tools_required, "situational": list(situational), "risk": risk,
                  "risk_it": True}
    if risk == "injury" and injury_modifier:
        step["injury_modifier"] = injury_modifier
    if kind == "contest":
        # `difficulty` already includes the opponent's finta; the step adds it back from opponent_finta.
        participants["protivnik"] = {"name": _("the opponent"), "skills": {sk: difficulty - opponent_finta}}
        step.update(opponent="protivnik", opponent_finta=opponent_finta)
    else:
        step["difficulty"] = difficulty
    step["helpers"] = []
    for k, rating in enumerate(helper, 1):
        participants[f"pomocnik{k}"] = {"name": _("helper {n}").format(n=k), "skills": {sk: rating}}
        step["helpers"].append({"actor": f"pomocnik{k}"})
    step["helper_dice"] = {f"pomocnik{k}": {"player": p, "narrator": g}
                           for k, (p, g) in enumerate(helper_dice, 1)}
    if dice is not None:
        step["dice"] = {"player": dice[0], "narrator": dice[1]}
    doc = {"format": "drd/1", "system": "dakara", "participants": participants,
           "rounds": [{"steps": [{"id": kind, "skill": step}]}]}
    seed = seed if seed is not None else new_seed()
    params = {"helpers": helpers_mode, "finta_cap": finta_cap, "kondice": kondice, "injury_floor": injury_floor}
    res = resolve_dakara(parse_dakara(doc), params, SeededDice(seed), seed)
    st = res["steps"][0]
    return {"seed": seed, **{k: st[k] for k in ("answer", "modified_rating", "difficulty", "rolls", "helpers",
                                                 "outcome", "margin", "complication", "injury", "injury_total",
                                                 "dead", "log")}}


def _label(key: tuple[str, str, int], risk: str | None) -> tuple[str, str]:
    from drd_cli.i18n import _

    outcome, comp, injury = key
    word, style = OUTCOME_WORDS[outcome]
    word = _(word)
    if outcome in ("failure", "loss"):
        if risk == "injury":
            word += _(", injury {injury}").format(injury=injury)
        elif risk == "complication":
            word += f", {_(COMPLICATION_WORDS[comp])}"
            style = {"none": "red", "mild": "yellow", "serious": "bold red"}[comp]
    elif outcome == "success":
        word += _(" (roll)")
    return word, style


def _print(kind, skill, base, sure_bonus, helpers_roll, difficulty, helper, diffs, answer, risk, injury_modifier,
           armour, injured, kondice, odds, result) -> None:
    from rich.console import Console
    from rich.table import Table

    from drd_cli.i18n import _, fmt_decimal, fmt_percent

    con = Console(highlight=False, no_color=bool(os.environ.get("NO_COLOR")) or None)
    if kind == "test":
        con.print(_("[bold]Dakara — test[/]: skill {skill}, modified rating {base} against difficulty "
                    "{difficulty}").format(skill=skill, base=base, difficulty=difficulty))
    else:
        con.print(_("[bold]Dakara — contest[/]: skill {skill}, modified rating {base} against an opponent rated "
                    "{difficulty}").format(skill=skill, base=base, difficulty=difficulty))
    for k, (h, d) in enumerate(zip(helper, diffs), 1):
        how = _("helps without a roll (+1)") if h >= d else _("rolls (a tie is enough)")
        con.print(_("  helper {n}: {rating} against difficulty {difficulty}: {how}").format(
            n=k, rating=h, difficulty=d, how=how))
    if answer == "yes":
        con.print(_("Answer: [bold green]YES[/], you surely manage this — success without a roll "
                    "({mod} ≥ {difficulty}).").format(mod=base + sure_bonus, difficulty=difficulty))
    elif answer == "no":
        con.print(_("Answer: [bold red]NO[/], success is not certain ({mod} < {difficulty}); you may improve "
                    "the odds, do something else, or risk the roll.").format(mod=base + sure_bonus,
                                                                              difficulty=difficulty))
    elif answer == "impossible" or (kind == "contest" and odds.by_outcome().get("impossible")):
        con.print(_("Answer: [bold red]IMPOSSIBLE[/] — without suitable tools it cannot be done, no roll."))
    else:
        con.print(_("Contest: it is always rolled; a tie is a draw."))
    if helpers_roll and kind == "test":
        con.print(_("  (helpers who roll may turn the answer into YES — see the odds)"))
    extra = ""
    if risk == "injury":
        extra = _(" (injury modifier {mod}, armour {armour})").format(mod=f"{injury_modifier:+d}", armour=armour)
    con.print(_("Risk on a failure: {risk}{extra}").format(risk=_(RISK_WORDS[risk]), extra=extra))
    table = Table(title=_("Exact odds"), show_header=True, header_style="bold")
    table.add_column(_("outcome"))
    table.add_column(_("fraction"), justify="right")
    table.add_column("%", justify="right")
    for key, q in odds.sorted_items():
        word, style = _label(key, risk)
        table.add_row(f"[{style}]{word}[/]", f"{q.numerator}/{q.denominator}", fmt_percent(q, 2))
    from ..render.fit import fit

    con.print(fit(table))
    if odds.dead is not None and risk == "injury":
        q = odds.dead
        con.print(_("Death (total injury {injured} + new > {kondice}): {num}/{den} = {pct} %").format(
            injured=injured, kondice=kondice, num=q.numerator, den=q.denominator, pct=fmt_decimal(float(q) * 100, 2)))
    if result is not None:
        con.print(_("[bold]Result[/] (seed {seed}):").format(seed=result["seed"]))
        for entry in result["log"]:
            con.print(f"  [dim]{entry['rule']}[/] {entry['text']}")
        word, style = _label((result["outcome"], result["complication"], result["injury"]),
                             result.get("risk", risk))
        margin = (_(", difference {margin}").format(margin=f"{result['margin']:+d}")
                  if result["margin"] is not None else "")
        con.print(f"→ [{style}]{word}[/]" + margin)


# Options shared by both commands (typer needs them spelled out per command).
_NAME = typer.Option(None, "--name", "-n", metavar="NAME",
                     help=N_("The skill's name in the result's lines, e.g. Kapsářství (default: …)."))
_HELP_DICE = N_("A helper's dice as PLAYER,NARRATOR, e.g. 4,1 (repeat per helper, in order).")


@app.command("test", help=N_("Skill test (zkouška): the answer before the roll, exact odds of every outcome, and with --roll or --dice the result."))
def test_cmd(
    skill: int = typer.Option(..., "--skill", "-s", help=N_("Skill rating (hodnocení dovednosti).")),
    difficulty: int = typer.Option(..., "--difficulty", "-d", help=N_("Difficulty set by the narrator (obtížnost).")),
    finta: int = typer.Option(0, "--finta", "-f", min=0, max=2, help=N_("Finta +1 / +2 (SK-6).")),
    tools: str = typer.Option("0", "--tools", "-t", help=N_("Tools -2..+2, or 'none' (SK-8).")),
    tools_required: bool = typer.Option(False, "--tools-required", help=N_("Impossible without tools (SK-8).")),
    situational: List[int] = typer.Option([], "--situational", help=N_("Situational modifier (repeatable, SK-9).")),
    helper: List[int] = typer.Option([], "--helper", help=N_("A helper's modified rating (repeatable, SK-7).")),
    helper_dice: List[str] = typer.Option([], "--helper-dice", help=_HELP_DICE),
    helpers_mode: str = typer.Option("escalating", "--helpers-mode",
                                     help=N_("escalating (k-th helper faces +k) | shared.")),
    risk: Optional[str] = typer.Option(None, "--risk", "-r", help=N_("injury | complication (default complication).")),
    injury_modifier: int = typer.Option(0, "--injury-modifier", help=N_("Added to the injury (SK-5).")),
    armour: int = typer.Option(0, "--armour", min=0, help=N_("Subtracted from the injury (SK-5).")),
    injured: Optional[int] = typer.Option(None, "--injured", min=0, help=N_("Injury so far: also print P(death).")),
    kondice: int = typer.Option(18, "--kondice", min=0, help=N_("Death when total injury exceeds this.")),
    finta_cap: int = typer.Option(2, "--finta-cap", min=0, max=2, help=N_("Highest finta allowed (SK-6).")),
    injury_floor: int = typer.Option(0, "--injury-floor", min=0, help=N_("Lowest injury after armour (SK-5).")),
    roll: bool = typer.Option(False, "--roll", help=N_("Also roll (seeded) and show the result.")),
    dice: Optional[Tuple[int, int]] = typer.Option(None, "--dice", help=N_("Player's and narrator's die.")),
    seed: Optional[int] = typer.Option(None, "--seed", help=N_("Seed for --roll.")),
    as_json: bool = typer.Option(False, "--json", help=N_("Machine-readable output.")),
    lang: Optional[Lang] = lang_option(),
    name: Optional[str] = _NAME,
) -> None:
    """Zkouška: pre-roll answer, exact odds of every outcome, and with --roll/--dice the result."""
    _run("test", skill, difficulty, finta, tools, tools_required, situational, helper, helper_dice, helpers_mode,
         risk, injury_modifier, armour, injured, kondice, finta_cap, injury_floor, roll, dice, seed, 0, as_json, lang,
         name)


@app.command("contest", help=N_("Contest (střet): always rolled, a tie is a draw; exact odds of win, draw and loss, and the result."))
def contest_cmd(
    skill: int = typer.Option(..., "--skill", "-s", help=N_("Skill rating (hodnocení dovednosti).")),
    opponent: int = typer.Option(..., "--opponent", "--difficulty", "-d",
                                 help=N_("The opponent's rating in its skill = the difficulty (SK-1).")),
    opponent_finta: int = typer.Option(0, "--opponent-finta", min=0, max=2, help=N_("An NPC's finta (SK-6).")),
    finta: int = typer.Option(0, "--finta", "-f", min=0, max=2, help=N_("Finta +1 / +2 (SK-6).")),
    tools: str = typer.Option("0", "--tools", "-t", help=N_("Tools -2..+2, or 'none' (SK-8).")),
    tools_required: bool = typer.Option(False, "--tools-required", help=N_("Impossible without tools (SK-8).")),
    situational: List[int] = typer.Option([], "--situational", help=N_("Situational modifier (repeatable, SK-9).")),
    helper: List[int] = typer.Option([], "--helper", help=N_("A helper's modified rating (repeatable, SK-7).")),
    helper_dice: List[str] = typer.Option([], "--helper-dice", help=_HELP_DICE),
    helpers_mode: str = typer.Option("escalating", "--helpers-mode", help=N_("escalating | shared.")),
    risk: Optional[str] = typer.Option(None, "--risk", "-r", help=N_("injury | complication (default complication).")),
    injury_modifier: int = typer.Option(0, "--injury-modifier", help=N_("Added to the injury (SK-5).")),
    armour: int = typer.Option(0, "--armour", min=0, help=N_("Subtracted from the injury (SK-5).")),
    injured: Optional[int] = typer.Option(None, "--injured", min=0, help=N_("Injury so far: also print P(death).")),
    kondice: int = typer.Option(18, "--kondice", min=0, help=N_("Death when total injury exceeds this.")),
    finta_cap: int = typer.Option(2, "--finta-cap", min=0, max=2, help=N_("Highest finta allowed (SK-6).")),
    injury_floor: int = typer.Option(0, "--injury-floor", min=0, help=N_("Lowest injury after armour (SK-5).")),
    roll: bool = typer.Option(False, "--roll", help=N_("Also roll (seeded) and show the result.")),
    dice: Optional[Tuple[int, int]] = typer.Option(None, "--dice", help=N_("Player's and narrator's die.")),
    seed: Optional[int] = typer.Option(None, "--seed", help=N_("Seed for --roll.")),
    as_json: bool = typer.Option(False, "--json", help=N_("Machine-readable output.")),
    lang: Optional[Lang] = lang_option(),
    name: Optional[str] = _NAME,
) -> None:
    """Střet: always rolled, a tie is a draw; exact odds of win/draw/loss and the result."""
    _run("contest", skill, opponent + opponent_finta, finta, tools, tools_required, situational, helper,
         helper_dice, helpers_mode, risk, injury_modifier, armour, injured, kondice, finta_cap, injury_floor, roll,
         dice, seed, opponent_finta, as_json, lang, name)


def _check_choice(value: str | None, allowed: tuple[_Choice, ...], hint: str) -> _Choice:
    """`value` as the one of `allowed` it equals; another is a usage error naming them."""
    for choice in allowed:
        if value == choice:
            return choice
    shown = " | ".join(a for a in allowed if a is not None)
    from ..i18n import gettext

    raise typer.BadParameter(gettext("{value} is not one of {shown}").format(value=repr(value), shown=shown),
                             param_hint=hint)
