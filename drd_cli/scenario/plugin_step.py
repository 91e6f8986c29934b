"""A step whose step key is a plugin's step type, kept as written until the profile is known."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel


class PluginStep:
    """A step whose one step key is not a core step type: a step type some plugin provides.

    The scenario is validated before the rules profile is known, so the step's mapping is kept
    as written (`raw`, the ruamel node, which still knows its lines); once the enabled plugins are
    known, `validate` checks it with the model of the plugin providing `kind`. Validated specs
    are kept per model, so two profiles (`drd diff`) with different providers never mix.
    """

    __slots__ = ("kind", "raw", "validated")

    def __init__(self, kind: str, raw: Any):
        self.kind = kind
        self.raw = raw
        self.validated: dict[type, Any] = {}

    def validate(self, model: type[BaseModel], *, source: Any = None, filename: str = "<scenario>",
                 path: tuple[Any, ...] = ()) -> Any:
        """The step's mapping as an instance of `model`; ScenarioError (exit 2) at file:line:col.

        `path` is where the step key sits in the document (problems carry paths under it);
        `source` the document's SourceMap (None: the caller fills in locations from the paths).
        """
        spec = self.validated.get(model)
        if spec is None:
            from .validate import validate_at

            spec = self.validated[model] = validate_at(model, self.raw, source, filename, path)
        return spec

    def __repr__(self) -> str:
        return f"PluginStep({self.kind!r})"
