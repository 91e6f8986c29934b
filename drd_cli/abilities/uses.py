"""The checks of what a scenario says about abilities, once the rules profile and the run's
plugins are known (`check_plugin_uses`, called by drd_cli.api before the engine runs):

* abilities listed by a participant (`abilities:`, with their own keys) or enabled by an item
  (`enables:`): an ability no plugin provides → exit 2 at file:line:col with "did you mean" over
  the catalogue; an ability key its plugin does not declare, a value it cannot take, a required
  key missing → exit 2 at the key (`check_uses`). (`activate:` naming an ability the actor does
  not list, or one without an activation, is refused by the engine: exit 1, R-ABIL-ACT.)
* a manoeuvre made free `via:` an ability whose plugin is off → exit 1 naming the plugin (the
  `via` walk below).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..citations import RULES_LAYERS
from ..errors import Problem, ScenarioError
from ..i18n import _
from ..plugins.errors import enable_hint
from .cards import PARTICIPANTS, check_keys, suggest
from .catalogue import catalogue


def _plugin(pm: Any, pid: str, *, wake: bool = True) -> Any:
    """The plugin object of an enabled plugin `pid`: registered, loaded but idle, or (with
    `wake`) one of drd's own that the run left unimported (plugins.dormant), imported now."""
    if pm is None:
        return None
    try:
        # An enabled ability plugin the scenario does not list is loaded but not registered.
        got = pm.get_plugin(pid) or (getattr(pm, "idle", None) or {}).get(pid)
    except Exception:  # noqa: BLE001 - a manager without it
        return None
    if got is None and wake and pid in (getattr(pm, "dormant", None) or ()):
        from ..plugins import load_plugin

        got = load_plugin(pm.entries[pid])
    return got


def check_uses(scenario: Any, profile: Any, pm: Any = None) -> None:
    """The ability checks of one scenario (see the module docstring); raises ScenarioError (exit 2)."""
    from ..scenario.models import ability_id

    known = set(profile.known_plugins)
    participants = getattr(scenario, "participants", None) or {}
    cards: dict[str, dict] | None = None

    def card_of(aid: str, *, every: bool = False) -> dict | None:
        """The card of `aid` among the enabled plugins' (`every`: with all their cards, for a "did
        you mean"). One of drd's own plugins the run left unimported is imported for its card."""
        nonlocal cards
        if cards is None or every:
            pairs = [(pid, _plugin(pm, pid, wake=every)) for pid in sorted(profile.enabled)]
            cards = catalogue([(pid, obj) for pid, obj in pairs if obj is not None])
        if aid not in cards and aid in profile.enabled:
            obj = _plugin(pm, aid)
            if obj is not None:
                cards = dict(sorted({**cards, **catalogue([(aid, obj)])}.items()))
        return cards.get(aid)

    invalid: list[Problem] = []
    for pid, part in participants.items():
        named: list[tuple[tuple, str, Mapping]] = []
        for i, item in enumerate(getattr(part, "abilities", None) or []):
            opts = {} if isinstance(item, str) else item.options()
            named.append((("participants", pid, "abilities", i), ability_id(item), opts))
        for j, thing in enumerate(getattr(part, "equipment", None) or []):
            for i, aid in enumerate(getattr(thing, "enables", None) or []):
                named.append((("participants", pid, "equipment", j, "enables", i), aid, {}))
        for path, aid, opts in named:
            if aid not in known:
                card_of(aid, every=True)
                close = suggest(aid, [a for a in known if a in (cards or {})] or known, cards)
                hint = (_("did you mean {option}?").format(option=repr(close)) + " " if close else "") + \
                    _("the abilities are listed by `drd plugins --kind ability` and in docs/abilities.md; an ability "
                      "of another package needs that package installed (or `--plugins-dir DIR`)")
                invalid.append(Problem(_("unknown ability {name}").format(name=repr(aid)), rule=PARTICIPANTS,
                                       path=path, hint=hint))
                continue
            if aid not in profile.enabled or path[2] != "abilities":
                continue         # off: it does nothing, so its keys are not read
            card = card_of(aid)
            if card is not None:
                invalid += check_keys(aid, card, opts, path)
    if invalid:
        raise ScenarioError(invalid)


def check_plugin_uses(scenario: Any, profile: Any, pm: Any = None) -> None:
    """Abilities a scenario names must come from a known plugin; one used explicitly must be on.

    * abilities listed by a participant (`abilities:`, with their own keys) or enabled by an item
      (`enables:`): `drd_cli.abilities.check_uses` (an unknown ability or key is exit 2 at
      file:line:col with "did you mean"; `pm` holds the enabled plugins whose cards declare the keys);
    * a manoeuvre made free `via:` an ability whose plugin is off → exit 1 naming the plugin and how
      to enable it. An ability that is merely listed while its plugin is off does nothing (that is
      how a group profile switches an ability off).
    """
    from ..errors import Problem, RuleViolation

    check_uses(scenario, profile, pm)
    known = set(profile.known_plugins)
    problems: list[Problem] = []
    for path, man in _manoeuvres(scenario, ()):
        via = man.via
        if via in known and via not in profile.enabled:
            problems.append(Problem(
                _("manoeuvre {name} is made free via the ability {via}, whose plugin {plugin} is disabled").format(
                    name=repr(man.name), via=repr(via), plugin=via),
                rule=RULES_LAYERS, path=path + ("via",),
                hint=enable_hint(via, "ability")))
    if problems:
        raise RuleViolation(problems)


def _manoeuvres(node: Any, path: tuple) -> list[tuple[tuple, Any]]:
    """(document path, ManoeuvreSpec) of every manoeuvre given as a mapping with `via`."""
    from pydantic import BaseModel

    # Imported once per walk, not once per node (a battle has ~150,000 nodes); one list filled
    # by plain calls, not a generator per level that every find passes through.
    found: list[tuple[tuple, Any]] = []
    _walk_manoeuvres(node, path, BaseModel, found)
    return found


def _walk_manoeuvres(node: Any, path: tuple, BaseModel: Any, found: list) -> None:  # noqa: N803
    if isinstance(node, BaseModel):
        if type(node).__name__ == "ManoeuvreSpec":
            if getattr(node, "via", None):
                found.append((path, node))
            return
        for name, key in _manoeuvre_fields(type(node), BaseModel):
            value = getattr(node, name, None)
            if value is not None and not isinstance(value, (str, int, float)):   # a scalar holds no manoeuvre
                _walk_manoeuvres(value, path + (key,), BaseModel, found)
    elif isinstance(node, (list, tuple)):
        for i, item in enumerate(node):
            if item.__class__ is not str:        # `manoeuvres: [mocne]`: a name holds no mapping
                _walk_manoeuvres(item, path + (i,), BaseModel, found)
    elif isinstance(node, dict):
        for key, item in node.items():
            _walk_manoeuvres(item, path + (key,), BaseModel, found)


_MANOEUVRE_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {}


def _manoeuvre_fields(cls: Any, BaseModel: Any) -> tuple[tuple[str, str], ...]:  # noqa: N803
    """(attribute, document key) of the fields of model `cls` whose values may hold a manoeuvre,
    read from the annotations once per class: a battle's 500 participants and their pools are not
    walked (an annotation drd cannot read, `Any` or a plain `dict`, counts as "may")."""
    got = _MANOEUVRE_FIELDS.get(cls)
    if got is None:
        got = _MANOEUVRE_FIELDS[cls] = tuple(
            (name, field.alias or name) for name, field in cls.model_fields.items()
            if _may_hold_manoeuvre(field.annotation, BaseModel, set()))
    return got


def _may_hold_manoeuvre(ann: Any, BaseModel: Any, seen: set) -> bool:  # noqa: N803
    import typing

    if isinstance(ann, type) and issubclass(ann, BaseModel):
        if ann.__name__ == "ManoeuvreSpec":
            return True
        if ann in seen:
            return False       # a cycle: whatever it holds is found through its first visit
        seen.add(ann)
        fields: Any = getattr(ann, "model_fields", {})
        return any(_may_hold_manoeuvre(f.annotation, BaseModel, seen) for f in fields.values())
    if typing.get_origin(ann) is typing.Literal:
        return False
    args = typing.get_args(ann)
    if args:
        return any(_may_hold_manoeuvre(a, BaseModel, seen) for a in args if a is not Ellipsis)
    return ann not in (str, int, float, bool, type(None))
