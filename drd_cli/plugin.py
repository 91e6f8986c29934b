"""The public plugin API of drd (API_VERSION 3): everything a plugin needs, and nothing else.

A plugin imports only from this module::

    from drd_cli.plugin import hookimpl, translator

    _, ngettext = translator("drd_moje_pravidlo", __file__)

    @hookimpl
    def drd_pair_winner(pair, params):
        ...

Hook arguments are read-only views (re-exported here): frozen dataclasses whose fields cannot be
assigned. The hooks, their arguments and how their answers combine are documented in
docs/plugins.md, and so is every other name here: a plugin written from that page needs no other
module of drd (`drd_cli.testing` for its pytest tests).

This module is import-light (no pydantic, rich, ruamel): the scenario models, the error types
and the resolver toolkit are loaded the first time a plugin touches them.
"""

from __future__ import annotations

import gettext as _gettext
import os
from typing import Any, Callable

from .awareness import ASLEEP, is_asleep
from .hookspecs import API_VERSION, StepType, hookimpl

# API_VERSION: the version of this API (defined beside the hooks, in drd_cli/hookspecs.py). A plugin
# that needs a newer one says so in ``drd_plugin_info()["api_version"]``; drd then refuses to run it,
# naming the plugin. Versions only grow: whatever worked against version N keeps working against N+1.

__all__ = [
    "API_VERSION", "hookimpl", "StepType", "translator", "manoeuvre_name", "ASLEEP", "is_asleep",
    "ParticipantView", "ItemView", "ActionView", "PairView", "ExhaustionView", "BreakdownEntry", "CostView",
    "ManoeuvreView", "JizvaView", "EventView", "HistoryView", "ConflictView", "Tally",
    "field",
    # loaded on first use (see __getattr__):
    "DrdError", "ScenarioError", "RuleViolation", "PluginError", "StepModel", "StrictModel", "StepAPI", "ParamSpec",
    "scenario_models", "toolkit", "resolve_text", "drd_resolve",
]


# --------------------------------------------------------------------------- messages

class _Translator:
    """`_` and `ngettext` of one catalog, in the language drd speaks at the moment of the call
    (`--lang`, or the environment: docs/i18n.md)."""

    def __init__(self, domain: str, localedir: str | None):
        self.domain = domain
        self.localedir = localedir
        self._cache: dict[str, _gettext.NullTranslations] = {}

    def _catalog(self) -> _gettext.NullTranslations:
        from . import i18n

        lang = i18n.language()
        cat = self._cache.get(lang)
        if cat is None:
            if self.localedir is None:
                cat = i18n.translation(lang)
            else:
                cat = _gettext.translation(self.domain, self.localedir, languages=[lang], fallback=True)
            self._cache[lang] = cat
        return cat

    def gettext(self, message: str) -> str:
        return self._catalog().gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._catalog().ngettext(singular, plural, n)


def manoeuvre_name(name: str) -> str:
    """A manoeuvre's id (`presne`) in the words of drd's language now ("přesně"); another name as it is."""
    from .terms import manoeuvre_name as words

    return words(name)


def translator(domain: str | None = None, where: str | os.PathLike | None = None
               ) -> tuple[Callable[[str], str], Callable[[str, str, int], str]]:
    """``(_, ngettext)`` bound to a plugin's own message catalog.

    `domain` is the catalog's name (``<where>/locale/<lang>/LC_MESSAGES/<domain>.mo``); `where` is
    the plugin's folder or any file in it (pass ``__file__``). Without arguments: drd's own catalog
    (what the built-in plugins use). The language follows drd's (`--lang`, then the environment);
    a message missing from the catalog is shown as written (its English msgid).
    """
    if domain is None:
        t = _Translator("drd", None)
    else:
        base = os.fspath(where) if where is not None else os.getcwd()
        if os.path.isfile(base):
            base = os.path.dirname(base)
        t = _Translator(domain, os.path.join(base, "locale"))
    return t.gettext, t.ngettext


# --------------------------------------------------------------------------- step models

_UNSET: Any = object()


def field(default: Any = _UNSET, *, ge: int | None = None, le: int | None = None, alias: str | None = None,
          aliases: tuple[str, ...] = (), description: str | None = None,
          default_factory: Callable[[], Any] | None = None) -> Any:
    """One field of a plugin step's model (a `StepModel`), without importing pydantic yourself::

        class Jednani(StepModel):
            actor: str
            tries: int = field(3, ge=1, le=5, alias="pokusy")

    `default` (absent: the key is required) or `default_factory`; `ge` / `le` bound a number
    (a value outside is exit 2 at the key); `alias` / `aliases` are other spellings the scenario
    may use (Czech, with or without diacritics) besides the field's own name; `description`
    shows in `drd schema`.
    """
    from pydantic import AliasChoices, Field

    kw: dict[str, Any] = {}
    if default_factory is not None:
        kw["default_factory"] = default_factory
    elif default is not _UNSET:
        kw["default"] = default
    if ge is not None:
        kw["ge"] = ge
    if le is not None:
        kw["le"] = le
    if description is not None:
        kw["description"] = description
    spellings = tuple(a for a in ((alias,) if alias else ()) + tuple(aliases))
    if spellings:
        kw["validation_alias"] = AliasChoices(*spellings)
    return Field(**kw)


# --------------------------------------------------------------------------- lazily loaded names

def __getattr__(name: str) -> Any:
    """Names whose modules are heavy (pydantic, pytest) load the first time they are used; so
    does each view class (drd_cli.views makes it on first use)."""
    from . import views

    if name in views.VIEW_CLASSES:
        return getattr(views, name)
    if name in ("ScenarioError", "RuleViolation", "DrdError"):
        from . import errors

        return getattr(errors, name)
    if name == "ParamSpec":
        from .rules import ParamSpec

        return ParamSpec
    if name == "StepAPI":
        from .engine.run import StepAPI

        return StepAPI
    if name == "PluginError":
        from .plugins import PluginError

        return PluginError
    if name in ("StrictModel", "StepModel"):
        from .scenario.models import StrictModel

        return StrictModel
    if name == "scenario_models":
        from .scenario import models

        return models
    if name == "toolkit":
        from . import toolkit

        return toolkit
    if name in ("resolve_text", "drd_resolve"):
        from . import testing

        return getattr(testing, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
