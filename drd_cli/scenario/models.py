"""The scenario format, version 1 (SCENARIO-FORMAT.md), as strict pydantic models.

Strict: unknown keys are errors, `roll: deset` is an error, nothing is coerced. Every key a user
types in Czech (`tělo`, `ohrožení`, `výhody`, …) is accepted as an alias of the ASCII field.
These models check *shape*; cross references (a step naming an unknown participant) and rules
(a choice the rules forbid) are checked later with document paths, so errors still point at
file:line:col.
"""

# No `from __future__ import annotations` here: pydantic would have to evaluate (compile) every
# annotation string of every model at import, a fifth of the time this module takes to load.

from typing import Any, Literal, Union

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from ..i18n import _
from . import aliases
from .pools import POOLS, pool_over_maximum

RESERVED_IDS = frozenset({"test", "accept", "exhaust", "deny", "jizva", "sacrifice", "actor", "payer", "all"})
MANOEUVRES = ("presne", "rozsahle", "obrana", "mocne", "lstive")
MANOEUVRE_ALIASES = {"přesně": "presne", "rozsáhle": "rozsahle", "mocně": "mocne", "lstivě": "lstive"}
POOL_ALIASES = {"tělo": "telo", "duše": "duse"}
for _cz, _ascii in POOL_ALIASES.items():
    aliases.register(_ascii, _cz)

Pool = Literal["telo", "duse", "vliv", "tělo", "duše"]
NonNeg = Field(ge=0)
new_list: Any = lambda: []  # noqa: E731 - a default_factory whose signature pydantic reads fast (`list`'s: 0.1 ms)


def cz(name: str, *aliases_: str, **kw: Any) -> Any:
    """A field accepted under its ASCII name and its Czech spelling(s)."""
    aliases.register(name, *aliases_)
    return Field(validation_alias=AliasChoices(name, *aliases_), **kw)


def norm_pool(value: str | None) -> str | None:
    """`tělo` → `telo`; None stays None."""
    return POOL_ALIASES.get(value, value) if value is not None else None


def as_list(value: Any) -> list:
    """A scalar or a list, as a list (`targets: jur` == `targets: [jur]`)."""
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


class StrictModel(BaseModel):
    """Base of every scenario model: strict types, unknown keys forbidden, Czech aliases."""

    # defer_build: a model's validator is built when it is first used, not at import (about
    # 30 models; a run needs the scenario's, and plugin step models only if a file has them).
    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True, frozen=False, defer_build=True)


# --------------------------------------------------------------------------- effects

class JizvaSpec(StrictModel):
    name: str
    pool: Pool | None = None


class ConditionSpec(StrictModel):
    """A named condition; `rounds: N` lasts through the next N rounds after the current one."""

    name: str
    forbids: list[str] = Field(default_factory=new_list)
    demanding: list[str] = cz("demanding", "náročné", default_factory=new_list)
    rounds: int | None = Field(default=None, ge=0)


class Effect(StrictModel):
    """One consequence (§4.1 Effects). Numbers are signed changes."""

    ohrozeni: int | None = cz("ohrozeni", "ohrožení", default=None)
    vyhody: int | None = cz("vyhody", "výhody", default=None)
    jizva: str | JizvaSpec | None = None
    condition: str | ConditionSpec | None = cz("condition", "stav", default=None)
    remove_condition: str | list[str] | None = cz("remove_condition", "zrušit_stav", default=None)
    lose: str | list[str] | None = cz("lose", "ztráta", default=None)
    disable: str | list[str] | None = None
    suspicion: str | list[str] | None = cz("suspicion", "podezření", default=None)
    note: str | None = cz("note", "poznámka", default=None)
    to: str | list[str] | None = cz("to", "komu", default=None)


EffectSpec = Union[Effect, list[Effect]]


def effects_of(spec: EffectSpec | None) -> list[Effect]:
    """An effect mapping or list of mappings, as a list."""
    if spec is None:
        return []
    return list(spec) if isinstance(spec, list) else [spec]


# --------------------------------------------------------------------------- participants

class Equipment(StrictModel):
    """An item: armour while held, a free manoeuvre per round, abilities it enables."""

    name: str
    armour: int = cz("armour", "zbroj", default=0, ge=0)
    free: str | None = None
    per: Literal["round", "conflict"] = "round"
    needs: list[str] = Field(default_factory=new_list)
    enables: list[str] = Field(default_factory=new_list)


class Charakteristika(StrictModel):
    level: int = cz("level", "úroveň", ge=0)
    covers: list[str] = cz("covers", "pokrývá", default_factory=new_list)


class Pools(StrictModel):
    telo: int = cz("telo", "tělo", default=0, ge=0)
    duse: int = cz("duse", "duše", default=0, ge=0)
    vliv: int = Field(default=0, ge=0)


class MaxPools(StrictModel):
    """Optional maxima of a hero's pools (RULES §1.1 "and optionally a maximum"); absent = no cap."""

    telo: int | None = cz("telo", "tělo", default=None, ge=0)
    duse: int | None = cz("duse", "duše", default=None, ge=0)
    vliv: int | None = Field(default=None, ge=0)


class JizvaGain(StrictModel):
    """A Jizva taken to gain points (R-EXH-4); `tags` state its story circumstances (R-ABIL-SCAR)."""

    name: str
    pool: Pool | None = None
    gain: int = Field(ge=0)
    tags: list[str] = cz("tags", "okolnosti", default_factory=new_list)


class AbilityRef(BaseModel):
    """An ability listed with its own keys (`{id: cit-pro-zbran, weapon: meč}`, SCENARIO-FORMAT §2).

    The keys besides `id` belong to the plugin providing the ability, which checks them once the
    rules profile is known (docs/plugins.md "Ability keys").
    """

    model_config = ConfigDict(strict=True, extra="allow", populate_by_name=True, defer_build=True)

    id: str

    def options(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


def ability_id(item: "str | AbilityRef") -> str:
    """The id of an `abilities:` item (a plain id or a mapping with `id`)."""
    return item if isinstance(item, str) else item.id


GENDERS = {"m": "m", "ž": "ž", "z": "ž", "s": "s", "mn": "mn",
           "masculine": "m", "feminine": "ž", "neuter": "s", "plural": "mn"}
CASES = {**{str(n): n for n in range(2, 8)},
         "genitiv": 2, "dativ": 3, "akuzativ": 4, "vokativ": 5, "lokál": 6, "lokal": 6, "instrumentál": 7,
         "instrumental": 7, "genitive": 2, "dative": 3, "accusative": 4, "vocative": 5, "locative": 6}


class Participant(StrictModel):
    """A hero (`pools`) or a creature (`sudba`), never both (§2)."""

    name: str | None = cz("name", "jméno", default=None)
    side: str | None = cz("side", "strana", default=None)
    pools: Pools | None = cz("pools", "zdroje", default=None)
    max: MaxPools | None = cz("max", "maximum", default=None)
    sudba: int | None = Field(default=None, ge=0)
    ohrozeni: int = cz("ohrozeni", "ohrožení", default=0, ge=0)
    vyhody: int = cz("vyhody", "výhody", default=0, ge=0)
    # Our extension (docs/scenario-format.md §2): bought crafting ingredients held; absent = none,
    # and the result then has no `suroviny` for this participant (R-ABIL-ACT).
    suroviny: int | None = Field(default=None, ge=0)
    levels: dict[str, int] = cz("levels", "povolání", default_factory=dict)
    equipment: list[str | Equipment] = cz("equipment", "vybavení", default_factory=new_list)
    conditions: list[str | ConditionSpec] = cz("conditions", "stavy", default_factory=new_list)
    jizvy: list[str] = Field(default_factory=new_list)
    suspicion: list[str] = cz("suspicion", "podezření", default_factory=new_list)
    zone: str | None = cz("zone", "zóna", default=None)
    count: int = cz("count", "počet", default=1, ge=1)
    armour: int = cz("armour", "zbroj", default=0, ge=0)
    charakteristika: int | Charakteristika | None = None
    abilities: list[str | AbilityRef] = cz("abilities", "schopnosti", default_factory=new_list)
    traits: list[str] = cz("traits", "rysy", default_factory=new_list)
    events: list[str] = cz("events", "události", default_factory=new_list)
    # Our extension (docs/scenario-format.md §5.8): hidden from the players' view of a transcript.
    secret: bool = cz("secret", "tajné", default=False)
    # Our extension (docs/scenario-format.md §2, docs/i18n.md): grammatical gender (m, ž, s, mn) and
    # declined forms by case number, so a Czech transcript can agree and decline.
    rod: Literal["m", "ž", "z", "s", "mn", "masculine", "feminine", "neuter", "plural"] | None = cz(
        "rod", "gender", default=None)
    pady: dict[int | str, str] | None = cz("pady", "pády", "cases", default=None)

    @field_validator("rod")
    @classmethod
    def _gender(cls, value: str | None) -> str | None:
        return None if value is None else GENDERS[value]

    @field_validator("pady")
    @classmethod
    def _cases(cls, value: dict | None) -> dict[int, str] | None:
        if value is None:
            return None
        out: dict[int, str] = {}
        for key, form in value.items():
            case = CASES.get(str(key).strip().lower())
            if case is None:
                raise ValueError(_("unknown case {key}; use 2–7 or genitiv, dativ, akuzativ, vokativ, lokál, "
                                   "instrumentál").format(key=repr(key)))
            out[case] = form
        return out

    @model_validator(mode="after")
    def _hero_or_creature(self) -> "Participant":
        if self.pools is not None and self.sudba is not None:
            raise ValueError(_("a participant is a hero (`pools`) or a creature (`sudba`), never both"))
        if self.pools is None and self.sudba is None:
            raise ValueError(_("a participant needs `pools` (a hero: tělo, duše, vliv) or `sudba` (a creature)"))
        if self.max is not None:
            if self.pools is None:
                raise ValueError(_("`max` gives maxima of a hero's pools (tělo, duše, vliv); a creature has none"))
            over = pool_over_maximum(self.pools, self.max)
            if over:
                raise ValueError(_("{pool} starts at {value}, above its maximum {cap}").format(
                    pool=over[0], value=over[1], cap=over[2]))
        return self


# --------------------------------------------------------------------------- actions

class ManoeuvreSpec(StrictModel):
    name: str
    pay: Literal["pool", "vyhoda", "výhoda", "free", "telo", "duse", "vliv", "sudba", "tělo", "duše"] | None = None
    via: str | None = None
    paid_by: str | None = cz("paid_by", "platí", default=None)


class ActivateSpec(StrictModel):
    """An ability activated for an action, paid by someone else (`{id: styky, paid_by: hrun}`), or
    with the ability's own keys for this one activation (`{id: neobvykle-jedy, variant: dlouhy}`,
    `{id: umeni-improvizace, improvised: 2}`): they go over the `abilities:` entry's, and the
    providing ability checks them when the action is prepared (docs/scenario-format.md §4.1).
    """

    model_config = ConfigDict(strict=True, extra="allow", populate_by_name=True, defer_build=True)

    id: str
    paid_by: str | None = cz("paid_by", "platí", default=None)

    def options(self) -> dict[str, Any]:
        return dict(self.model_extra or {})


class GainSpec(StrictModel):
    """Points gained before paying an action's manoeuvres or náročnost (R-EXH-4)."""

    jizva: JizvaGain | None = None
    sacrifice: str | None = None


class FollowupSpec(StrictModel):
    challenge: "ChallengeSpec"


def check_demanding(value: bool | int | None) -> bool | int | None:
    """`demanding` is true/1 (náročná), 2 (velmi náročná), false/0 (R-NAR); other numbers are errors."""
    if value is not None and not isinstance(value, bool) and value not in (0, 1, 2):
        raise ValueError(_("demanding is true/1 (náročná), 2 (velmi náročná) or false, not {value}").format(value=value))
    return value


def check_skill(value: str | None) -> str | None:
    """`skill` is a skill id or Czech name (drd_cli.skills); normalised to the id, unknown ones are errors."""
    if value is None:
        return value
    from .. import skills

    found = skills.normalise(value)
    if found is None:
        close = skills.suggestion(value)
        hint = (_("did you mean {option}?").format(option=repr(close)) if close
                else _("the skills are listed in docs/scenario-format.md \"Skills\""))
        raise ValueError(_("unknown skill {name}; {hint}").format(name=repr(value), hint=hint))
    return found


class ActionSpec(StrictModel):
    """What any action may carry (§4.1)."""

    actor: str | None = None
    label: str | None = None
    pool: Pool | None = None
    threat_pool: Pool | None = None
    bonus_from: str | None = None
    roll: int | None = cz("roll", "hod", default=None)
    roll_beyond_dice: bool = cz("roll_beyond_dice", "hod_mimo_kostky", default=False)
    dice: list[int] | None = cz("dice", "kostky", default=None)
    targets: str | list[str] | None = cz("targets", "cíle", default=None)
    area: bool = cz("area", "plošná", default=False)
    area_via: Literal["rozsahle", "environment", "skill"] | None = None
    zone: str | None = None
    group: str | None = None
    means: Literal["melee", "shooting", "throwing", "dealing", "magic", "poison", "other"] | None = None
    skill: str | None = cz("skill", "dovednost", default=None)
    activate: list[str | ActivateSpec] = cz("activate", "aktivace", default_factory=new_list)
    paid_by: str | None = cz("paid_by", "platí", default=None)
    manoeuvres: list[str | ManoeuvreSpec] = cz("manoeuvres", "manévry", default_factory=new_list)
    demanding: bool | int | None = cz("demanding", "náročná", default=None)
    from_: Literal["initiative", "delayed", "obrana"] | None = cz("from", "from_", default=None)
    threatens: list[str] = Field(default_factory=new_list)
    long: str | None = None
    obstacle: EffectSpec | None = cz("obstacle", "překážka", default=None)
    effect: EffectSpec | None = cz("effect", "účinek", default=None)
    softened: EffectSpec | None = cz("softened", "zmírněný", default=None)
    self_effect: EffectSpec | None = None
    failure: EffectSpec | None = cz("failure", "neúspěch", default=None)
    followup: FollowupSpec | None = None
    gain: GainSpec | None = None
    note: str | None = cz("note", "poznámka", default=None)

    _demanding = field_validator("demanding")(check_demanding)
    _skill = field_validator("skill")(check_skill)


class CounterSpec(ActionSpec):
    """A protiakce (§4.3): `harm` (alias `oppose`) stops the action; `protect` shields `protects`."""

    kind: Literal["harm", "oppose", "protect"] = "harm"
    protects: list[str] | None = None
    answers: str | None = None


class TestSpec(ActionSpec):
    """A zkouška (§4.2): one actor (`actor`) or several (`actors`, `mode`, `rolls`)."""

    actors: list[str] | None = None
    mode: Literal["individual", "any", "all"] = "individual"
    rolls: dict[str, int] | None = None
    # several actors: dice per actor, `{id: [d, d]}` (docs/scenario-format.md §5.1; resolve_test reads it)
    dice: list[int] | dict[str, list[int]] | None = cz("dice", "kostky", default=None)  # type: ignore[assignment]
    target: int | None = None

    @model_validator(mode="after")
    def _one_or_many(self) -> "TestSpec":
        if self.actor is None and not self.actors:
            raise ValueError(_("a test needs `actor` or `actors`"))
        if self.actor is not None and self.actors:
            raise ValueError(_("give either `actor` or `actors`, not both"))
        return self


class ContestSpec(StrictModel):
    action: ActionSpec
    counters: list[CounterSpec] = cz("counters", "protiakce", default_factory=new_list)


class RaceSpec(StrictModel):
    """Rivals racing through one obstacle (CS-RACE-1)."""

    actors: list[str]
    pool: Pool | None = None
    label: str | None = None
    bonus_from: str | dict[str, str] | None = None
    rolls: dict[str, int] | None = None
    roll_beyond_dice: bool = cz("roll_beyond_dice", "hod_mimo_kostky", default=False)
    dice: dict[str, list[int]] | None = None
    obstacle: EffectSpec | None = None
    effect: EffectSpec | None = None
    softened: EffectSpec | None = None
    means: str | None = None
    demanding: bool | int | None = cz("demanding", "náročná", default=None)
    # Every racer's action may carry manoeuvres (§4.1): one list for all, or a list per racer id.
    manoeuvres: list[str | ManoeuvreSpec] | dict[str, list[str | ManoeuvreSpec]] = cz(
        "manoeuvres", "manévry", default_factory=new_list)
    long: str | None = None
    note: str | None = None

    _demanding = field_validator("demanding")(check_demanding)


class ExemptSpec(StrictModel):
    """Who a výzva spares (§4.6): holders of `condition`."""

    condition: str = cz("condition", "stav")


class ReactSpec(StrictModel):
    """How one participant undergoes a výzva, as a mapping (§5.5): where the reaction comes from
    (`from`, as the plain value: delayed / initiative / obrana; omitted: his initiative while
    unused, else obrana) and the abilities activated for it (`activate`, paid before the roll,
    R-ABIL-ACT) — e.g. `{from: obrana, activate: [jedno-oko-otevrene]}` for a sleeper (R-AWARE)."""

    from_: Literal["delayed", "obrana", "initiative"] | None = cz("from", "from_", default=None)
    activate: list[str | ActivateSpec] = cz("activate", "aktivace", default_factory=new_list)


class ChallengeSpec(StrictModel):
    """A výzva (§4.6): a step, an environment action, or a follow-up."""

    name: str | None = cz("name", "název", default=None)
    affects: Literal["all"] | list[str] | str | None = None
    exempt: ExemptSpec | None = cz("exempt", "vyjma", default=None)
    pool: Pool | None = None
    label: str | None = None
    effect: EffectSpec | None = None
    softened: EffectSpec | None = None
    target: int | None = None
    deadly: bool = False
    react: dict[str, Literal["delayed", "obrana", "initiative"] | ReactSpec] = Field(default_factory=dict)
    rolls: dict[str, int] = Field(default_factory=dict)
    roll_beyond_dice: bool = cz("roll_beyond_dice", "hod_mimo_kostky", default=False)
    dice: dict[str, list[int]] = Field(default_factory=dict)
    bonus_from: dict[str, str] = Field(default_factory=dict)
    counters: list[CounterSpec] = Field(default_factory=new_list)
    demanding: bool | int | None = cz("demanding", "náročná", default=None)
    note: str | None = None

    _demanding = field_validator("demanding")(check_demanding)


# No `FollowupSpec.model_rebuild()` here: with `defer_build` pydantic resolves the forward
# reference when the model is first used, and an explicit rebuild would build it at import.


from .plugin_step import PluginStep  # noqa: E402 - kept importable from here (plugins and tests use it)


class Step(StrictModel):
    """One step of a round: exactly one step type, plus `id`, `choices`, `note`.

    The core step types are fields. A step whose single step key is none of them is a plugin
    step (`plugin_step`): its kind and mapping are kept and checked once the rules profile says
    which plugins are on (api.setup_rules). With a core step type present, any other unknown key
    is an error as usual.
    """

    id: str | None = None
    note: str | None = None
    secret: bool = cz("secret", "tajné", default=False)   # our extension: only a note in the players' view
    choices: dict[str, Any] = cz("choices", "volby", default_factory=dict)
    test: TestSpec | None = cz("test", "zkouška", default=None)
    contest: ContestSpec | None = cz("contest", "střet", default=None)
    race: RaceSpec | None = cz("race", "závod", default=None)
    declare: ActionSpec | None = None
    challenge: ChallengeSpec | None = cz("challenge", "výzva", default=None)

    _plugin: PluginStep | None = PrivateAttr(default=None)

    @model_validator(mode="wrap")
    @classmethod
    def _split_plugin_step(cls, data: Any, handler: Any) -> "Step":
        if not isinstance(data, dict):
            return handler(data)
        own = _own_keys(cls)
        unknown = []
        for k in data:              # one pass: this runs for every step of a file
            name = own.get(k) if isinstance(k, str) else None
            if name is None:
                unknown.append(k)
            elif name in _CORE_KINDS:
                return handler(data)     # a core step: any unknown key is reported as usual
        if len(unknown) != 1 or not isinstance(unknown[0], str):
            return handler(data)     # no plugin step, or unknown keys reported as usual
        kind = unknown[0]
        step = handler({k: v for k, v in data.items() if k != kind})
        step._plugin = PluginStep(kind, data[kind])
        return step

    @property
    def plugin_step(self) -> PluginStep | None:
        """The plugin step this step is, or None for a core step (from pydantic's slot: a battle asks 15,000 times)."""
        private = self.__pydantic_private__
        return private["_plugin"] if private is not None and "_plugin" in private else self._plugin


CORE_STEP_KINDS = ("test", "contest", "race", "declare", "challenge")
_CORE_KINDS = frozenset(CORE_STEP_KINDS)

_OWN_KEYS: dict[type, dict[str, str]] = {}


def _own_keys(model: type[BaseModel]) -> dict[str, str]:
    """{name or alias: field name} of a model (cached per class)."""
    keys = _OWN_KEYS.get(model)
    if keys is None:
        keys = {}
        for name, field in model.model_fields.items():
            keys[name] = name
            alias = field.validation_alias
            for choice in (alias.choices if isinstance(alias, AliasChoices) else [alias]):
                if isinstance(choice, str):
                    keys[choice] = name
        _OWN_KEYS[model] = keys
    return keys


def core_step_keys() -> list[str]:
    """The core step keys with their Czech spellings (`test`, `zkouška`, …), for "did you mean"."""
    return [k for k, name in _own_keys(Step).items() if name in CORE_STEP_KINDS]


class EnvironmentEntry(StrictModel):
    """An environment action resolved at the end of rounds (§4.6)."""

    id: str | None = None
    challenge: ChallengeSpec | None = None
    until: int | None = Field(default=None, ge=1)
    choices: dict[str, Any] = Field(default_factory=dict)
    note: str | None = None


class InitiativeRolls(StrictModel):
    rolls: dict[str, int]


class Round(StrictModel):
    initiative: list[str] | InitiativeRolls | Literal["roll"] | None = cz("initiative", "iniciativa", default=None)
    spent: list[str] = Field(default_factory=new_list)
    delay: list[str] = cz("delay", "odložená", default_factory=new_list)
    steps: list[Step] = cz("steps", "kroky", default_factory=new_list)
    environment: list[EnvironmentEntry] = cz("environment", "prostředí", default_factory=new_list)
    note: str | None = None


class RulesBlock(StrictModel):
    """`rules:` of a scenario (and the same keys of a group profile)."""

    enable: list[str] = Field(default_factory=new_list)
    disable: list[str] = Field(default_factory=new_list)
    params: dict[str, str | int | bool] = Field(default_factory=dict)


def no_rules() -> RulesBlock:
    """An empty `rules:` block (the default), made without running a validator: calling
    `RulesBlock()` here would build that model's own validator in every run for nothing. The
    empty values are given (none counts as set), so pydantic does not read the signature of each
    default factory (`list`, `dict`) again on every call."""
    return RulesBlock.model_construct(_fields_set=set(), enable=[], disable=[], params={})


class Expect(StrictModel):
    """What resolving the file must give (§8): a subset of the result."""

    exit: int = 0
    final: dict[str, Any] = Field(default_factory=dict)
    steps: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    # §8: "a subset of the result" — the result's other top-level keys may be expected too.
    format: Any = None
    title: Any = None
    system: Any = None
    seed: Any = None
    rules: Any = None


class Scenario(StrictModel):
    """A DrD II scenario file (`system: drd2`)."""

    format: Literal["drd/1"]
    title: str | None = cz("title", "název", default=None)
    notes: str | None = cz("notes", "poznámky", default=None)
    system: Literal["drd2"] = "drd2"
    seed: int | None = None
    # Dice for rolls the format has no other place for (tie rerolls, hiding initiative), used in
    # order before the seed; `drd play` writes them into its replay file.
    extra_dice: list[Literal[1, 2, 3, 4, 5, 6]] = cz("extra_dice", "další_kostky", default_factory=new_list)
    rules: RulesBlock = cz("rules", "pravidla", default_factory=no_rules)
    participants: dict[str, Participant] = cz("participants", "účastníci")
    environment: list[EnvironmentEntry] = cz("environment", "prostředí", default_factory=new_list)
    rounds: list[Round] = cz("rounds", "kola", default_factory=new_list)
    expect: Expect | None = None


def build_scenario_model(plugin_steps: dict[str, type[BaseModel]]) -> type[Scenario]:
    """The Scenario model with plugin-provided step types added as optional, typed step keys.

    `drd schema` uses it to describe the plugin steps for editors. Validation does not need it:
    the plain `Scenario` keeps plugin steps as `Step.plugin_step` and api.setup_rules checks them
    with the enabled plugins' models (a typed key here is still accepted by the engine).
    """
    if not plugin_steps:
        return Scenario
    from types import GenericAlias

    from pydantic import create_model

    fields: dict[str, Any] = {name: (model | None, None) for name, model in sorted(plugin_steps.items())}
    step_model = create_model("Step", __base__=Step, **fields)   # GenericAlias: list[…] of a model made here
    steps: dict[str, Any] = {"steps": (GenericAlias(list, step_model), cz("steps", "kroky", default_factory=new_list))}
    round_model = create_model("Round", __base__=Round, **steps)
    rounds: dict[str, Any] = {"rounds": (GenericAlias(list, round_model),
                                         cz("rounds", "kola", default_factory=new_list))}
    return create_model("Scenario", __base__=Scenario, **rounds)
