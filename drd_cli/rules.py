"""The rules profile: which plugins (rule areas, abilities) are on and every [default] parameter.

Layered, lowest first: built-in defaults ← group profile ← scenario `rules:` ← command line
(SCENARIO-FORMAT §6). Each setting remembers which layer set it, so `drd rules` can say why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .errors import Problem, ScenarioError


@dataclass(frozen=True)
class ParamSpec:
    """A rules parameter: its default, allowed values or type, and where RULES.md defines it."""

    name: str
    default: Any
    rule: str
    help: str
    choices: tuple[str, ...] = ()
    kind: type = str
    allow_none: bool = False

    def parse(self, value: Any) -> Any:
        """Checks (and converts, for `--set k=v` strings) a value; raises ValueError."""
        if self.allow_none and value in (None, "none"):
            return "none"
        if self.choices:
            if value not in self.choices:
                raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, not {value!r}")
            return value
        if self.kind is int:
            if isinstance(value, bool):
                raise ValueError(f"{self.name} must be a whole number, not {value!r}")
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise ValueError(f"{self.name} must be a whole number, not {value!r}") from None
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{self.name} must be a whole number ≥ 0, not {value!r}")
            return value
        return value


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
}


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


@dataclass
class RulesProfile:
    """The effective rules: enabled plugin ids, parameter values, and where each came from."""

    enabled: frozenset[str]
    params: dict[str, Any]
    origins: dict[str, str]
    known_plugins: dict[str, bool]

    def is_on(self, plugin_id: str) -> bool:
        return plugin_id in self.enabled

    def to_result(self) -> dict:
        """The `rules` block of the result contract."""
        return {"enabled": sorted(self.enabled), "params": dict(self.params)}


def build_profile(layers: list[Layer], known_plugins: dict[str, bool] | None = None,
                  param_specs: dict[str, ParamSpec] | None = None) -> RulesProfile:
    """Applies `layers` over the defaults; unknown ids or params are ScenarioError (exit 2)."""
    known = dict(BUILTIN_PLUGINS if known_plugins is None else known_plugins)
    specs = dict(CORE_PARAMS if param_specs is None else param_specs)
    enabled = {pid for pid, on in known.items() if on}
    origins: dict[str, str] = {pid: "default" for pid in known}
    params = {name: spec.default for name, spec in specs.items()}
    origins.update({f"param:{name}": "default" for name in specs})
    problems: list[Problem] = []

    def where(layer: Layer, *keys: Any) -> dict:
        path = layer.path_prefix + keys
        loc = layer.locate(path) if layer.locate else None
        return {"location": loc, "path": path} if loc else {"path": path}

    for layer in layers:
        for key, ids, on in (("enable", layer.enable, True), ("disable", layer.disable, False)):
            for i, pid in enumerate(ids):
                if pid not in known:
                    problems.append(Problem(_unknown("rule or plugin id", pid, known), rule="SCENARIO-FORMAT §6",
                                            **where(layer, key, i)))
                    continue
                (enabled.add if on else enabled.discard)(pid)
                origins[pid] = layer.origin
        for name, value in layer.params.items():
            spec = specs.get(name)
            if spec is None:
                problems.append(Problem(_unknown("rules parameter", name, specs), rule="SCENARIO-FORMAT §6",
                                        **where(layer, "params", name)))
                continue
            try:
                params[name] = spec.parse(value)
            except ValueError as exc:
                problems.append(Problem(str(exc), rule=spec.rule, **where(layer, "params", name)))
                continue
            origins[f"param:{name}"] = layer.origin
    if problems:
        raise ScenarioError(problems)
    return RulesProfile(frozenset(enabled), params, origins, known)


def _unknown(what: str, name: str, known: dict) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(known), n=1)
    hint = f"; did you mean {close[0]!r}?" if close else f"; known: {', '.join(sorted(known))}"
    return f"unknown {what} {name!r}{hint}"


def parse_cli_sets(sets: list[str]) -> dict[str, str]:
    """`--set key=value` items as a dict; a malformed item is a ScenarioError."""
    out: dict[str, str] = {}
    for item in sets:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise ScenarioError(f"--set expects KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out
