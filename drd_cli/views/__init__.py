"""Read-only views: what a plugin's hook is shown of a participant, an action and a decision.

Every view is a frozen dataclass (assigning a field raises `dataclasses.FrozenInstanceError`);
collections are tuples or read-only mappings. The engine builds them from its own state for each
hook call, so a plugin can neither change the conflict behind the engine's back nor depend on how
the engine stores it. Field by field documentation: docs/plugins.md "Views".

Each view class is made the first time it is asked for (`drd_cli.views.ActionView`, or
`from drd_cli.views import ActionView`): creating a frozen dataclass costs up to a millisecond,
and most runs use few of them (issue #14). The classes are defined in this package's
modules `_participant`, `_action`, `_costs`, `_records`, `_exhaustion`, `_event` and `_history`.
"""

from __future__ import annotations

import importlib
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Mapping

from ._empty import _EMPTY

if TYPE_CHECKING:     # for checkers (`X as X`: exported); at run time each class is imported when first asked for
    from ._action import ActionView as ActionView, PairView as PairView
    from ._costs import CostView as CostView, ManoeuvreView as ManoeuvreView
    from ._event import EventView as EventView
    from ._exhaustion import ExhaustionView as ExhaustionView
    from ._history import ConflictView as ConflictView, HistoryView as HistoryView, Tally as Tally
    from ._participant import ItemView as ItemView, ParticipantView as ParticipantView
    from ._records import BreakdownEntry as BreakdownEntry, JizvaView as JizvaView


def _ro(mapping: Mapping | None) -> Mapping:
    return MappingProxyType(dict(mapping)) if mapping else _EMPTY


class ReadOnly:
    """A read-only proxy of a scenario object (API 1's `action.spec`): attributes read through,
    assignment refused."""

    __slots__ = ("_obj",)

    def __init__(self, obj: Any):
        object.__setattr__(self, "_obj", obj)

    def __getattr__(self, name: str) -> Any:
        value = getattr(object.__getattribute__(self, "_obj"), name)
        if isinstance(value, list):
            return tuple(value)
        if isinstance(value, dict):
            return MappingProxyType(value)
        if hasattr(value, "model_fields"):      # a nested scenario object (an effect, a follow-up)
            return ReadOnly(value)
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"read-only view: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"read-only view: cannot delete {name!r}")

    def __repr__(self) -> str:
        return f"ReadOnly({object.__getattribute__(self, '_obj')!r})"


# Where each view class is defined (a module of this package, imported on first use).
VIEW_CLASSES = {
    "ItemView": "_participant", "ParticipantView": "_participant",
    "ActionView": "_action", "PairView": "_action",
    "ManoeuvreView": "_costs", "CostView": "_costs",
    "BreakdownEntry": "_records", "JizvaView": "_records",
    "ExhaustionView": "_exhaustion",
    "EventView": "_event",
    "Tally": "_history", "HistoryView": "_history", "ConflictView": "_history",
}


def __getattr__(name: str) -> Any:
    where = VIEW_CLASSES.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    view = getattr(importlib.import_module(f"{__name__}.{where}"), name)
    globals()[name] = view
    return view


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(VIEW_CLASSES))


__all__ = [*VIEW_CLASSES, "ReadOnly", "_ro"]
