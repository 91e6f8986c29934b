"""The rules profile: which plugins (rule areas, abilities) are on and every [default] parameter.

Layered, lowest first: built-in defaults ← group profile ← scenario `rules:` ← command line
(SCENARIO-FORMAT §6). Each setting remembers which layer set it, so `drd rules` can say why.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import Location, Problem, ScenarioError
from .i18n import _
from .citations import RULES_LAYERS

COMMAND_LINE = "command line"


@dataclass(frozen=True)
class ParamSpec:
    """A rules parameter: its default, allowed values or type, and where RULES.md defines it.

    `plugin` is the id of the plugin that declares it (None for the core parameters).
    """

    name: str
    default: Any
    rule: str
    help: str
    choices: tuple[str, ...] = ()
    kind: type = str
    allow_none: bool = False
    plugin: str | None = None

    def parse(self, value: Any) -> Any:
        """Checks (and converts, for `--set k=v` strings) a value; raises ValueError."""
        if self.allow_none and value in (None, "none"):
            return "none"
        if self.choices:
            if value not in self.choices:
                raise ValueError(_("{name} must be one of {choices}, not {value}").format(
                    name=self.name, choices=", ".join(self.choices), value=repr(value)))
            return value
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            word = str(value).strip().lower()
            if word in _TRUE or word in _FALSE:
                return word in _TRUE
            raise ValueError(_("{name} must be true or false, not {value}").format(name=self.name, value=repr(value)))
        if self.kind is int:
            if isinstance(value, bool):
                raise ValueError(_("{name} must be a whole number, not {value}").format(
                    name=self.name, value=repr(value)))
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise ValueError(_("{name} must be a whole number, not {value}").format(
                        name=self.name, value=repr(value))) from None
            if not isinstance(value, int) or value < 0:
                raise ValueError(_("{name} must be a whole number ≥ 0, not {value}").format(
                    name=self.name, value=repr(value)))
            return value
        if not isinstance(value, str):
            raise ValueError(_("{name} must be text, not {value}").format(name=self.name, value=repr(value)))
        return value

    def describe(self) -> str:
        """The allowed values in a few words (for `drd rules` and messages)."""
        if self.choices:
            return " | ".join(self.choices)
        kind = {int: "whole number ≥ 0", bool: "true | false"}.get(self.kind, "text")
        return kind + (" | none" if self.allow_none else "")


_TRUE = {"true", "yes", "on", "1", "ano"}
_FALSE = {"false", "no", "off", "0", "ne"}
_KINDS = {"int": int, "integer": int, "str": str, "text": str, "string": str, "bool": bool, "boolean": bool,
          int: int, str: str, bool: bool}


def param_spec_from(plugin: str, name: str, decl: Any) -> ParamSpec:
    """A plugin's parameter declaration as a ParamSpec owned by `plugin`.

    `decl` is a ParamSpec, or a mapping ``{"default": …, "choices": [...] | "type": "int" | "bool" |
    "str", "rule": "R-…", "help": "…", "allow_none": bool}``. The default must pass its own check.
    Raises ValueError describing what is wrong (the caller names the plugin).
    """
    import dataclasses

    if isinstance(decl, ParamSpec):
        spec = dataclasses.replace(decl, name=name, plugin=plugin)
    elif isinstance(decl, dict):
        unknown = set(decl) - {"default", "choices", "type", "rule", "help", "allow_none"}
        if unknown:
            raise ValueError(_("parameter {name}: unknown key(s) {keys}").format(
                name=repr(name), keys=", ".join(sorted(map(str, unknown)))))
        if "default" not in decl:
            raise ValueError(_("parameter {name} has no default").format(name=repr(name)))
        choices = tuple(str(c) for c in decl.get("choices") or ())
        kind = decl.get("type")
        if kind is None:
            kind = type(decl["default"]) if isinstance(decl["default"], (bool, int)) and not choices else str
        if kind not in _KINDS:
            raise ValueError(_("parameter {name}: type must be int, bool or str, not {kind}").format(
                name=repr(name), kind=repr(kind)))
        spec = ParamSpec(name, decl["default"], str(decl.get("rule") or plugin), str(decl.get("help") or ""),
                         choices=choices, kind=_KINDS[kind], allow_none=bool(decl.get("allow_none")), plugin=plugin)
    else:
        raise ValueError(_("parameter {name}: expected a ParamSpec or a mapping, got {kind}").format(
            name=repr(name), kind=type(decl).__name__))
    if not name or not isinstance(name, str) or any(c.isspace() or c == "=" for c in name):
        raise ValueError(_("parameter name {name} must be a word without spaces or '='").format(name=repr(name)))
    spec.parse(spec.default)      # a default that fails its own check is the plugin's bug
    return spec


CORE_PARAMS: dict[str, ParamSpec] = {p.name: p for p in [
    ParamSpec("target", 9, "R-TEST", "the number a test, výzva or test-within-a-contest must reach", kind=int),
    ParamSpec("tie", "actor", "R-CONT", "who wins a tied pair", choices=("actor", "counter", "reroll")),
    ParamSpec("presne", "plus-one", "R-ROLL-3", "what manoeuvre přesně does to the roll",
              choices=("plus-one", "keep-best-2-of-3")),
    ParamSpec("max_manoeuvres", "none", "R-MAN-2", "the most manoeuvres one action may use", kind=int,
              allow_none=True),
    ParamSpec("sacrifice_gain", 1, "R-EXH-4", "points an ordinary sacrificed item yields", kind=int),
    ParamSpec("narocnost_cost", 1, "R-NAR", "points a náročná action costs before the roll (velmi náročná: twice)",
              kind=int),
    ParamSpec("challenge_protect_cost", "once", "CS-ENV-3",
              "a protector below 9 against a výzva exhausts once for all, or once per protected",
              choices=("once", "per-target")),
    # Dakara (RULES.md §4)
    ParamSpec("helpers", "escalating", "SK-7", "difficulty helpers face", choices=("escalating", "shared")),
    ParamSpec("finta_cap", 2, "SK-6", "the highest finta bonus", kind=int),
    ParamSpec("kondice", 18, "SK-5", "accumulated injury above which a character dies", kind=int),
    ParamSpec("injury_floor", 0, "SK-5", "the least injury a failed risky roll gives", kind=int),
    ParamSpec("missing_skill", "zero", "SK-2", "a skill the participant lacks: rating 0, or an error",
              choices=("zero", "error")),
]}

# Built-in plugin ids and whether they are on by default (SCENARIO-FORMAT §6).
BUILTIN_PLUGINS: dict[str, bool] = {
    "rozsahla-protiakce": False,
    "plosna-protiakce": False,
    "ukryvani": True,
    "prostredi": True,
    "kruhovy-sek": True,
    "dest-strel": True,
    "smrst-dyk": True,
    "pusobivy-recnik": True,
    "rodova-zbran": True,
    "padny-uder": True,
    # house rules: off unless a group, scenario or command line enables them (docs/plugins.md)
    "remiza-nizsi-ohrozeni": False,
    "strop-vycerpani": False,
}

# Step types of built-in plugins, known even when the plugin is not installed, so that a scenario
# using one says which plugin to install or enable instead of "unknown step type".
BUILTIN_STEP_TYPES: dict[str, str] = {"hide": "ukryvani"}


@dataclass
class Layer:
    """One layer of settings: `origin` names it (default, group NAME, scenario, command line)."""

    origin: str
    enable: list[str] = field(default_factory=list)
    disable: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    # Turns a key path inside this layer into a Problem location (the CLI supplies it).
    locate: Callable[[tuple], Any] | None = None
    path_prefix: tuple = ()
    # Which plugin an id claimed by several means (a group's `use:`, docs/plugins.md "Ids and
    # clashes"): {id: distribution}.
    use: dict[str, str] = field(default_factory=dict)
    # A layer merged from several files (a group and the groups it `extends`): per setting,
    # ("enable" | "disable", id), ("params", name) or ("use", id) → (origin, locate, path in its own file).
    sources: dict[tuple, tuple[str, Callable[[tuple], Any] | None, tuple]] = field(default_factory=dict)


@dataclass
class RulesProfile:
    """The effective rules: enabled plugin ids, parameter values, and where each came from.

    `params` holds the parameters in effect (core and enabled plugins). A parameter of a plugin
    that is off is kept apart in `inactive` (checked, never used). `specs` has the ParamSpec of
    every parameter in either.
    """

    enabled: frozenset[str]
    params: dict[str, Any]
    origins: dict[str, str]
    known_plugins: Mapping[str, bool]   # may be lazy: a default is read when looked up
    inactive: dict[str, Any] = field(default_factory=dict)
    specs: dict[str, ParamSpec] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)   # enabled plugin id → why it failed to load
    # Ids of enabled-or-not plugins drd does not ship (plugins.third_party): a result names them
    # only when they acted (to_result).
    third_party: frozenset[str] = frozenset()
    # The plugin folders of an untrusted group profile (drd_cli.trust.Untrusted), or None.
    untrusted: Any = None
    # {id: distribution} of the third-party plugins that replace a built-in one of their id
    # (docs/plugins.md "Ids and clashes"): the result names the distribution (to_result).
    replaced: dict[str, str] = field(default_factory=dict)

    def is_on(self, plugin_id: str) -> bool:
        return plugin_id in self.enabled

    def in_effect(self, acted: Any = (), asleep: Any = ()) -> list[str]:
        """The enabled plugins a result names: every built-in one, and the others that `acted`.
        `asleep`: ability plugins none of whose abilities the scenario lists — they cannot act, so
        the result names them only if they did (never, in practice)."""
        acted = set(acted or ())
        asleep = set(asleep or ())
        return sorted(pid for pid in self.enabled
                      if pid in acted or (pid not in self.third_party and pid not in asleep))

    def to_result(self, acted: Any = (), asleep: Any = ()) -> dict:
        """The `rules` block of the result contract (docs/plugins.md "Lifecycle").

        `enabled`: the built-in plugins that are on, plus the other plugins in `acted` (the ids
        whose answers changed something in this run, `plugins.plugins_acted`); `params`: the core
        parameters and those of the plugins listed; `replaced` (only when there is one): {id:
        distribution} of a listed third-party plugin that replaces a built-in one of its id. A
        plugin that is installed but off, or on but changed nothing, so leaves the result and its
        digest as they would be without it.
        """
        ids = self.in_effect(acted, asleep)
        listed = set(ids)

        def shown(name: str) -> bool:
            spec = self.specs.get(name)
            owner = spec.plugin if spec is not None else None
            return owner is None or owner in listed

        out = {"enabled": ids, "params": {name: value for name, value in self.params.items() if shown(name)}}
        replaced = {pid: dist for pid, dist in sorted(self.replaced.items()) if pid in listed}
        if replaced:
            out["replaced"] = replaced
        return out


PluginParams = Callable[[frozenset], dict]
"""`plugin_params(enabled_ids)` → {name: ParamSpec} declared by those plugins."""

InactiveParam = Callable[[str], "ParamSpec | None"]
"""`find_inactive(name)` → the ParamSpec of a plugin that is off declaring `name`, or None."""


def build_profile(layers: list[Layer], known_plugins: Mapping[str, bool] | None = None,
                  param_specs: dict[str, ParamSpec] | None = None, *,
                  plugin_params: PluginParams | None = None,
                  find_inactive: InactiveParam | None = None) -> RulesProfile:
    """Applies `layers` over the defaults; unknown ids or params are ScenarioError (exit 2).

    Plugin ids are settled first (all layers), then parameters: the core ones plus those the
    enabled plugins declare (`plugin_params`). A parameter nobody enabled declares is looked up
    with `find_inactive` among the plugins that are off: it is accepted (and checked) but
    inactive; otherwise it is unknown.
    """
    # Not copied: `known_plugins` may read a plugin's default only when it is looked up
    # (plugins.DefaultStates), and only ids no layer decides are looked up below.
    known = dict(BUILTIN_PLUGINS) if known_plugins is None else known_plugins
    specs = dict(CORE_PARAMS if param_specs is None else param_specs)
    decided: dict[str, bool] = {}
    origins: dict[str, str] = {pid: "default" for pid in known}
    problems: list[Problem] = []

    def source(layer: Layer, kind: str, key: Any, *keys: Any) -> tuple[str, dict]:
        """(origin, Problem location kwargs) of one setting of a layer."""
        origin, locate, path = layer.sources.get((kind, key), (layer.origin, layer.locate,
                                                               layer.path_prefix + keys))
        loc = locate(path) if locate else None
        if loc is None and origin == COMMAND_LINE:
            # Not in any file: say so, rather than point into the scenario.
            return origin, {"location": Location(COMMAND_LINE)}
        return origin, ({"location": loc, "path": path} if loc else {"path": path})

    for layer in layers:
        for key, ids, on in (("enable", layer.enable, True), ("disable", layer.disable, False)):
            for i, pid in enumerate(ids):
                origin, where = source(layer, key, pid, key, i)
                if pid not in known:
                    problems.append(Problem(_unknown(_("unknown rule or plugin id {name}"), pid, known), rule=RULES_LAYERS,
                                            **where))
                    continue
                decided[pid] = on        # the last layer saying it wins
                origins[pid] = origin

    frozen = frozenset(pid for pid in known if (decided[pid] if pid in decided else known[pid]))
    if plugin_params is not None:
        for name, spec in plugin_params(frozen).items():
            if name in specs:
                owner = specs[name].plugin
                raise ScenarioError(
                    (_("plugin {plugin} declares the parameter {name}, which the core already has") if owner is None
                     else _("plugin {plugin} declares the parameter {name}, which plugin {other} already has")).format(
                        plugin=repr(spec.plugin), name=repr(name), other=repr(owner)),
                    hint=_("rename it in {plugin}, or disable one of them").format(plugin=spec.plugin))
            specs[name] = spec
    params = {name: spec.default for name, spec in specs.items()}
    origins.update({f"param:{name}": "default" for name in specs})
    inactive: dict[str, Any] = {}
    for layer in layers:
        for name, value in layer.params.items():
            origin, where = source(layer, "params", name, "params", name)
            spec = specs.get(name)
            if spec is None and find_inactive is not None:
                spec = find_inactive(name)
                if spec is not None:
                    specs[name] = spec
            if spec is None:
                problems.append(Problem(_unknown(_("unknown rules parameter {name}"), name, specs), rule=RULES_LAYERS,
                                        **where))
                continue
            try:
                value = spec.parse(value)
            except ValueError as exc:
                problems.append(Problem(str(exc), rule=spec.rule, **where))
                continue
            (params if name in params else inactive)[name] = value
            origins[f"param:{name}"] = origin
    if problems:
        raise ScenarioError(problems)
    return RulesProfile(frozen, params, origins, known, inactive, specs)


def _unknown(what: str, name: str, known: Mapping[str, Any]) -> str:
    """`what` (a translated "unknown … {name}") plus the closest known name or the list of them."""
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1)
    if close:
        hint = _("did you mean {option}?").format(option=repr(close[0]))
    else:
        hint = _("known: {known}").format(known=", ".join(sorted(known)))
    return what.format(name=repr(name)) + "; " + hint


def parse_cli_sets(sets: list[str]) -> dict[str, str]:
    """`--set key=value` items as a dict; a malformed item is a ScenarioError."""
    out: dict[str, str] = {}
    for item in sets:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ScenarioError(_("--set expects KEY=VALUE, got {item}").format(item=repr(item)))
        out[key.strip()] = value.strip()
    return out
