"""The `system: dakara` scenario (SCENARIO-FORMAT §4.8) as strict pydantic models.

These check shape only (types, ranges, unknown keys). References between ids and the rules
(finta cap, missing skills, a helper who is the actor, …) are checked by the engine with document
paths, so every error can still be shown at file:line:col.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from drd_cli.errors import Problem, ScenarioError
from drd_cli.i18n import _
from drd_cli.scenario.models import Expect, RulesBlock, StrictModel, cz, no_rules

#: Participant ids the result uses for other things (the narrator's roll in a test).
RESERVED_IDS = frozenset({"narrator", "vypravec", "all", "actor"})

Die = Field(ge=1, le=6)


class DakaraParticipant(StrictModel):
    """A character in a Dakara scenario: skill ratings, accumulated injury, armour."""

    name: str | None = cz("name", "jméno", default=None)
    side: str | None = cz("side", "strana", default=None)
    skills: dict[str, int] = cz("skills", "dovednosti", default_factory=dict)
    injury: int = cz("injury", "zranění", default=0, ge=0)
    armour: int = cz("armour", "zbroj", default=0, ge=0)
    conditions: list[str] = cz("conditions", "stavy", default_factory=list)
    notes: str | None = cz("notes", "poznámky", default=None)

    @field_validator("skills")
    @classmethod
    def _ratings_not_negative(cls, value: dict[str, int]) -> dict[str, int]:
        from drd_cli.dakara.skills import skill_key

        seen: dict[str, str] = {}
        for skill in value:
            if skill_key(skill) in seen:   # `Síla` and `sila` are one skill (docs/dakara.md "Skills")
                raise ValueError(_("the skill {skill} is listed twice ({first}, {second})").format(
                    skill=skill, first=seen[skill_key(skill)], second=skill))
            seen[skill_key(skill)] = skill
        for skill, rating in value.items():
            if rating < 0:
                raise ValueError(_("skill rating {skill}: {rating} is negative (ratings start at 0)").format(
                    skill=skill, rating=rating))
        return value


class DicePair(StrictModel):
    """The two dice of a roll: the player's 1k6 and the narrator's 1k6 (SK-3). Either may be
    omitted; a missing die comes from the seeded generator."""

    player: int | None = cz("player", "hráč", default=None, ge=1, le=6)
    narrator: int | None = cz("narrator", "vypravěč", default=None, ge=1, le=6)


def _check_tools(value: int | str) -> int | str:
    if isinstance(value, str):
        if value != "none":
            raise ValueError(_("tools is an integer from -2 to +2, or `none` (no tools at all)"))
    elif not -2 <= value <= 2:
        raise ValueError(_("tools {value} is outside -2..+2 (SK-8: poor or no tools down to -2, exceptional up to "
                           "+2)").format(value=f"{value:+d}"))
    return value


class Helper(StrictModel):
    """A helper (SK-7): who, with which skill (default: the step's skill), its own modifiers."""

    actor: str
    skill: str | None = cz("skill", "dovednost", default=None)
    finta: int = Field(default=0, ge=0)
    tools: int | str = cz("tools", "nástroje", default=0)
    situational: list[int] = cz("situational", "situační", default_factory=list)
    declines: bool = cz("declines", "odmítá", default=False)   # does not roll when below its difficulty

    @field_validator("tools")
    @classmethod
    def _tools_range(cls, value: int | str) -> int | str:
        return _check_tools(value)


class SkillStep(StrictModel):
    """One skill use (SCENARIO-FORMAT §4.8): a test against `difficulty`, or a contest against
    `opponent` (whose `opponent_skill`, default the same skill, is the difficulty, SK-1)."""

    actor: str
    skill: str = cz("skill", "dovednost")
    difficulty: int | None = cz("difficulty", "obtížnost", default=None)
    opponent: str | None = cz("opponent", "protivník", default=None)
    opponent_skill: str | None = None
    # The opponent's own modifiers raise the difficulty (research §2.2): an NPC's finta (SK-6) etc.
    opponent_finta: int = Field(default=0, ge=0)
    opponent_tools: int | str = 0
    opponent_situational: list[int] = Field(default_factory=list)
    finta: int = Field(default=0, ge=0)
    tools: int | str = cz("tools", "nástroje", default=0)
    tools_required: bool = False
    situational: list[int] = cz("situational", "situační", default_factory=list)
    helpers: list[Helper] = cz("helpers", "pomocníci", default_factory=list)
    risk: Literal["injury", "complication"] | None = cz("risk", "riziko", default=None)
    injury_modifier: int | None = None
    risk_it: bool | None = None
    dice: DicePair | None = cz("dice", "kostky", default=None)
    helper_dice: dict[str, DicePair] = Field(default_factory=dict)

    @field_validator("tools", "opponent_tools")
    @classmethod
    def _tools_range(cls, value: int | str) -> int | str:
        return _check_tools(value)


class DakaraStep(StrictModel):
    """A step of a round; Dakara has one step type, `skill`."""

    id: str | None = None
    skill: SkillStep
    note: str | None = cz("note", "poznámka", default=None)


class DakaraRound(StrictModel):
    steps: list[DakaraStep] = cz("steps", "kroky", default_factory=list)
    note: str | None = cz("note", "poznámka", default=None)


class DakaraScenario(StrictModel):
    """A scenario with `system: dakara` (SCENARIO-FORMAT §1, §4.8)."""

    format: Literal["drd/1"]
    title: str | None = cz("title", "název", default=None)
    notes: str | None = cz("notes", "poznámky", default=None)
    system: Literal["dakara"]
    seed: int | None = None
    rules: RulesBlock = cz("rules", "pravidla", default_factory=no_rules)
    participants: dict[str, DakaraParticipant] = cz("participants", "účastníci")
    rounds: list[DakaraRound] = cz("rounds", "kola", default_factory=list)
    expect: Expect | None = None

    @field_validator("participants")
    @classmethod
    def _no_reserved_ids(cls, value: dict[str, DakaraParticipant]) -> dict[str, DakaraParticipant]:
        bad = sorted(RESERVED_IDS & value.keys())
        if bad:
            raise ValueError(_("participant id {id} is reserved (the narrator's roll is reported under it)").format(
                id=repr(bad[0])))
        return value


def parse_dakara(data: Any) -> DakaraScenario:
    """Validate a loaded YAML document as a Dakara scenario.

    Raises ScenarioError (exit 2) with one Problem per validation error, each carrying the
    document `path` of the offending key so a caller with a source map can add file:line:col.
    """
    try:
        return DakaraScenario.model_validate(data)
    except ValidationError as exc:
        problems: dict[tuple, Problem] = {}
        for err in exc.errors():
            prob = _problem(err)
            if prob.path in problems:   # one key failing every member of a union: one message
                problems[prob.path].message += " " + _("or") + " " + prob.message.split(": ", 1)[1]
            else:
                problems[prob.path] = prob
        raise ScenarioError(list(problems.values())) from None


def _problem(err: Any) -> Problem:
    # pydantic appends type tags to the location of union members ("int", "str",
    # "literal['none']"); they are not keys of the document, so drop them from the path.
    path = tuple(p for p in err["loc"] if isinstance(p, int) or not _is_type_tag(p))
    where = ".".join(str(p) for p in path) or "(document)"
    msg = err["msg"].removeprefix("Value error, ")
    if err["type"] == "extra_forbidden":
        msg = _("unknown key {key}").format(key=repr(path[-1]))
    elif err["type"] == "missing":
        msg = _("missing required key {key}").format(key=repr(path[-1]))
    return Problem(f"{where}: {msg}", path=path)


def _is_type_tag(part: str) -> bool:
    return part in {"int", "str", "bool", "list[int]", "DicePair", "Helper"} or part.startswith(
        ("literal[", "function-", "constrained-", "dict[", "list["))
