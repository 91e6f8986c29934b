"""Pure Dakara skill-use resolution (RULES.md §4, SK-1..SK-9): no I/O, no randomness.

Everything here takes numbers (and dice already drawn) and returns numbers or small frozen
records, so the engine, the odds module, the CLI and the tests share one definition of the rules.
A ValueError's text (a call with impossible numbers) is in the active language (drd_cli.i18n).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Literal

from ..i18n import _

Kind = Literal["test", "contest"]
Answer = Literal["yes", "no", "impossible"]
Risk = Literal["injury", "complication"]
Complication = Literal["none", "mild", "serious"]
Outcome = Literal["auto-success", "success", "failure", "win", "draw", "loss", "impossible", "withdrawn"]
HelperMode = Literal["escalating", "shared"]

#: Built-in defaults of the Dakara rules profile (RULES.md §4, docs/dakara.md).
DEFAULT_PARAMS: dict = {
    "helpers": "escalating",   # SK-7: k-th helper faces difficulty + k; `shared`: difficulty + n
    "finta_cap": 2,            # SK-6: at most +2
    "kondice": 18,             # SK-5: dead when accumulated injury > kondice
    "injury_floor": 0,         # SK-5: a test's injury is never below this
    "missing_skill": "zero",   # a skill the participant does not list: `zero` (rating 0) | `error`
}

TOOLS_MIN, TOOLS_MAX = -2, 2
#: `tools: none` (no tools at all) counts as the worst tool penalty (SK-8).
NO_TOOLS_MODIFIER = TOOLS_MIN
DIE_FACES = range(1, 7)


def tool_modifier(tools: int | str) -> int:
    """SK-8: the modifier for `tools` (an int in −2..+2, or `"none"` = no tools, −2)."""
    if tools == "none":
        return NO_TOOLS_MODIFIER
    if isinstance(tools, bool) or not isinstance(tools, int) or not TOOLS_MIN <= tools <= TOOLS_MAX:
        raise ValueError(_("tools must be an integer from {low} to +{high} or 'none', not {value}").format(
            low=TOOLS_MIN, high=TOOLS_MAX, value=repr(tools)))
    return tools


def is_impossible(tools: int | str, tools_required: bool) -> bool:
    """SK-8: an action that needs tools is impossible (no roll) when there are none."""
    return bool(tools_required) and tools == "none"


def modified_rating(rating: int, *, finta: int = 0, tools: int | str = 0,
                    situational: Iterable[int] = (), helper_bonus: int = 0) -> int:
    """SK-2: rating + finta (SK-6) + helpers (SK-7) + tools (SK-8) + situational (SK-9).

    Modifiers go on the rating (never on the die); the result is not clamped, it may be negative.
    """
    return rating + finta + helper_bonus + tool_modifier(tools) + sum(situational)


def pre_roll_answer(mod_rating: int, difficulty: int, *, impossible: bool = False) -> Answer:
    """SK-2 / SK-8: `yes` (success, no roll) when the modified rating reaches the difficulty."""
    if impossible:
        return "impossible"
    return "yes" if mod_rating >= difficulty else "no"


def test_outcome(margin: int) -> Literal["success", "failure"]:
    """SK-3: in a test (zkouška) a tie succeeds ("stačí Vypravěčův hod dorovnat")."""
    return "success" if margin >= 0 else "failure"


def contest_outcome(margin: int) -> Literal["win", "draw", "loss"]:
    """SK-3: in a contest (střet) a tie is a draw; the higher total wins."""
    if margin > 0:
        return "win"
    return "draw" if margin == 0 else "loss"


def complication_for(fail_margin: int) -> Complication:
    """SK-4: failure by 1–2 → none (plain failure), 3–5 → mild, ≥ 6 → serious."""
    if fail_margin <= 2:
        return "none"
    return "mild" if fail_margin <= 5 else "serious"


def injury_for(fail_margin: int, injury_modifier: int = 0, armour: int = 0, floor: int = 0) -> int:
    """SK-5: failure margin + injury modifier − armour, never below `floor` (default 0)."""
    return max(floor, fail_margin + injury_modifier - armour)


def is_dead(accumulated_injury: int, kondice: int = 18) -> bool:
    """SK-5: a character dies only when accumulated injury exceeds kondice (18 alive, 19 dead)."""
    return accumulated_injury > kondice


def helper_difficulties(difficulty: int, n: int, mode: HelperMode = "escalating") -> list[int]:
    """SK-7: the difficulty each of `n` helpers faces, in the order they were declared.

    `escalating`: the k-th helper (1-based) faces difficulty + k. `shared`: all face difficulty + n.
    """
    if mode == "escalating":
        return [difficulty + k for k in range(1, n + 1)]
    if mode == "shared":
        return [difficulty + n] * n
    raise ValueError(_("unknown helper mode {mode} (escalating | shared)").format(mode=repr(mode)))


@dataclass(frozen=True)
class HelperResult:
    """One helper's attempt (SK-7): `auto` = no roll needed; `margin` only when rolled."""

    mod_rating: int
    difficulty: int
    auto: bool
    rolled: bool
    success: bool
    margin: int | None = None


def helper_needs_roll(mod_rating: int, difficulty: int, declines: bool = False) -> bool:
    """SK-7: a helper rolls only when its modified rating is below its difficulty (and it tries)."""
    return mod_rating < difficulty and not declines


def resolve_helper(mod_rating: int, difficulty: int, dice: tuple[int, int] | None = None,
                   declines: bool = False) -> HelperResult:
    """SK-7: a helper meeting its difficulty helps without a roll; otherwise it rolls, a tie
    succeeding (it is a test). A helper that declines or fails gives nothing, with no consequence."""
    if mod_rating >= difficulty:
        return HelperResult(mod_rating, difficulty, auto=True, rolled=False, success=True)
    if declines:
        return HelperResult(mod_rating, difficulty, auto=False, rolled=False, success=False)
    if dice is None:
        raise ValueError(_("a helper below its difficulty needs dice"))
    p, g = _check_dice(dice)
    margin = (mod_rating + p) - (difficulty + g)
    return HelperResult(mod_rating, difficulty, auto=False, rolled=True, success=margin >= 0, margin=margin)


def _check_dice(dice: tuple[int, int]) -> tuple[int, int]:
    p, g = dice
    for d in (p, g):
        if isinstance(d, bool) or not isinstance(d, int) or d not in DIE_FACES:
            raise ValueError(_("a die shows 1 to 6, not {value}").format(value=repr(d)))
    return p, g


@dataclass(frozen=True)
class Resolution:
    """The result of one skill use (one `skill` step without the bookkeeping)."""

    kind: Kind
    answer: Answer | None          # None in a contest (no pre-roll answer, SK-1/SK-3)
    outcome: Outcome
    rolled: bool
    player_total: int | None = None
    narrator_total: int | None = None
    margin: int | None = None      # player total − narrator total; None without a roll
    complication: Complication = "none"
    injury: int = 0
    notes: tuple[str, ...] = field(default=())


def needs_roll(kind: Kind, answer: Answer | None, risk_it: bool) -> bool:
    """SK-2/SK-3: a test is rolled only on `no` when the player risks it; a contest always,
    unless the player withdraws (`risk_it` false) or the action is impossible without tools."""
    if answer == "impossible" or not risk_it:
        return False
    if kind == "contest":
        return True
    return answer == "no"


def resolve(kind: Kind, mod_rating: int, difficulty: int, *, risk: Risk | None = None,
            risk_it: bool = True, dice: tuple[int, int] | None = None, injury_modifier: int = 0,
            armour: int = 0, injury_floor: int = 0, impossible: bool = False) -> Resolution:
    """Resolve a test or contest (SK-1..SK-5) given the modified rating and difficulty.

    `dice` = (player die, narrator die); needed exactly when `needs_roll(...)` is true.
    `risk` is the consequence the narrator declared before the roll (SK-4): on a failed test or a
    lost contest, `complication` gives a complication class and `injury` an injury value, never both;
    without a declared risk a failure has no consequence.
    """
    answer: Answer | None
    if kind == "test":
        answer = pre_roll_answer(mod_rating, difficulty, impossible=impossible)
    else:
        answer = "impossible" if impossible else None
    if answer == "impossible":
        return Resolution(kind, answer, "impossible", rolled=False)
    if kind == "test" and answer == "yes":
        return Resolution(kind, answer, "auto-success", rolled=False)
    if not needs_roll(kind, answer, risk_it):
        return Resolution(kind, answer, "withdrawn", rolled=False)
    if dice is None:
        raise ValueError(_("this skill use is rolled and needs dice"))
    p, g = _check_dice(dice)
    player, narrator = mod_rating + p, difficulty + g
    margin = player - narrator
    outcome: Outcome = test_outcome(margin) if kind == "test" else contest_outcome(margin)
    complication: Complication = "none"
    injury = 0
    if outcome in ("failure", "loss"):
        f = -margin
        if risk == "complication":
            complication = complication_for(f)
        elif risk == "injury":
            injury = injury_for(f, injury_modifier, armour, injury_floor)
    return Resolution(kind, answer, outcome, True, player, narrator, margin, complication, injury)
