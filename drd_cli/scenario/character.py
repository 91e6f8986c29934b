"""A campaign's files as strict models: a character (`postavy/<id>.yaml`), a creature
(`bestiar/<id>.yaml`) and the campaign itself (`drd-kampan.yaml`), docs/kampan.md.

They use the participant keys of the scenario format (§2) with the same Czech aliases, plus what
lasts between conflicts and has no place in a scenario: maxima also as `hranice`, Jizvy with their
pool and size, skills, grammatical forms, notes. Validated like scenarios (file:line:col, did you
mean) by `scenario.validate.validate_model`.
"""

from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from ..i18n import _
from .models import (AbilityRef, Charakteristika, ConditionSpec, Equipment, MaxPools, Pools, StrictModel,
                     cz)
from .pools import pool_over_maximum

CHARACTER_FORMAT = "drd-postava/1"
CREATURE_FORMAT = "drd-bestie/1"
CAMPAIGN_FORMAT = "drd-kampan/1"


class JizvaRecord(StrictModel):
    """A Jizva kept on a character: its name, its pool and its size (points it blocks) where known."""

    name: str = cz("name", "jméno", "nazev", "název")
    pool: Literal["telo", "duse", "vliv", "tělo", "duše"] | None = cz("pool", "zdroj", default=None)
    size: int | None = cz("size", "velikost", default=None, ge=0)


class _Lasting(StrictModel):
    """What a character and a creature both keep between conflicts."""

    format: str | None = None
    name: str | None = cz("name", "jméno", default=None)
    forms: dict[str | int, str] = cz("forms", "tvary", default_factory=dict)
    gender: Literal["m", "f", "n", "mz", "mn", "z", "ž", "s"] | None = cz("gender", "rod", default=None)
    side: str | None = cz("side", "strana", default=None)
    abilities: list[str | AbilityRef] = cz("abilities", "schopnosti", default_factory=list)
    equipment: list[str | Equipment] = cz("equipment", "vybavení", default_factory=list)
    armour: int = cz("armour", "zbroj", default=0, ge=0)
    conditions: list[str | ConditionSpec] = cz("conditions", "stavy", default_factory=list)
    jizvy: list[str | JizvaRecord] = Field(default_factory=list)
    traits: list[str] = cz("traits", "rysy", default_factory=list)
    notes: str | None = cz("notes", "poznámky", default=None)
    ohrozeni: int | None = cz("ohrozeni", "ohrožení", default=None, ge=0)
    vyhody: int | None = cz("vyhody", "výhody", default=None, ge=0)


class CharacterFile(_Lasting):
    """`postavy/<id>.yaml`: a hero as it stands between conflicts."""

    pools: Pools = cz("pools", "zdroje")
    max: MaxPools | None = cz("max", "maximum", "hranice", default=None)
    levels: dict[str, int] = cz("levels", "povolání", default_factory=dict)
    skills: list[str] = cz("skills", "dovednosti", default_factory=list)
    suroviny: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _within_maxima(self) -> "CharacterFile":
        if self.format not in (None, CHARACTER_FORMAT):
            raise ValueError(_("a character file has `format: {expected}`, not {value!r}").format(
                expected=CHARACTER_FORMAT, value=self.format))
        over = pool_over_maximum(self.pools, self.max) if self.max is not None else None
        if over:
            raise ValueError(_("{pool} is {value}, above its maximum {cap}").format(
                pool=over[0], value=over[1], cap=over[2]))
        return self


class CreatureFile(_Lasting):
    """`bestiar/<id>.yaml`: a creature, or a kind of creature."""

    sudba: int = Field(ge=0)
    charakteristika: int | Charakteristika | None = None
    count: int = cz("count", "počet", "pocet", default=1, ge=1)

    @model_validator(mode="after")
    def _format(self) -> "CreatureFile":
        if self.format not in (None, CREATURE_FORMAT):
            raise ValueError(_("a creature file has `format: {expected}`, not {value!r}").format(
                expected=CREATURE_FORMAT, value=self.format))
        return self


class CampaignParams(StrictModel):
    """Between-conflict parameters (docs/kampan.md "Parameters"); every default is documented there."""

    carry: list[Literal["ohrozeni", "vyhody"]] = cz("carry", "přenáší", default_factory=list)
    heal_cost: int = cz("heal_cost", "cena_léčení", default=5, ge=0)
    heal_pool: Literal["jizva", "telo", "duse", "vliv"] = cz("heal_pool", "léčení_z", default="jizva")
    jizva_lowers_max: bool = cz("jizva_lowers_max", "jizva_snižuje_hranici", default=True)


class CampaignFile(StrictModel):
    """`drd-kampan.yaml` at a campaign's root."""

    format: Literal["drd-kampan/1"]
    name: str = cz("name", "název")
    language: Literal["cs", "en"] = cz("language", "jazyk", default="cs")
    group: str | None = cz("group", "skupina", default=None)
    params: CampaignParams = cz("params", "parametry", default_factory=CampaignParams)


class ParticipantReference(StrictModel):
    """A participant naming a campaign's character or creature (docs/scenario-format.md §2.1): the
    id, and only what belongs to this conflict. Read by scenario/references.py; here for `drd schema`."""

    model_config = ConfigDict(strict=True, extra="forbid", populate_by_name=True, defer_build=True,
                              json_schema_extra={"anyOf": [{"required": [k]} for k in
                                                           ("postava", "character", "bestie", "creature")]})

    postava: str | None = cz("postava", "character", default=None)
    bestie: str | None = cz("bestie", "creature", default=None)
    name: str | None = cz("name", "jméno", default=None)
    side: str | None = cz("side", "strana", default=None)
    zone: str | None = cz("zone", "zóna", default=None)
    ohrozeni: int | None = cz("ohrozeni", "ohrožení", default=None, ge=0)
    vyhody: int | None = cz("vyhody", "výhody", default=None, ge=0)
    conditions: list[str | ConditionSpec] = cz("conditions", "stavy", default_factory=list)
    count: int | None = cz("count", "počet", "pocet", default=None, ge=1)
    suspicion: list[str] = cz("suspicion", "podezření", default_factory=list)
    secret: bool | None = cz("secret", "tajné", default=None)
    events: list[str] = cz("events", "události", default_factory=list)


def jizva_name(item: Any) -> str:
    """The name of a `jizvy:` item (a plain name or a record)."""
    return item if isinstance(item, str) else item.name
