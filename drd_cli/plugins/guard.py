"""The guard around plugin code: whatever a plugin does wrong is the plugin's failure.

Every hook implementation registered for a run is wrapped once, at registration
(`guard_hooks`), so every caller — the engine's façade, pluggy's own `pm.hook.X(...)`, the step
types — gets the same treatment:

* an exception (any, `SystemExit` too; not KeyboardInterrupt, which stays the user's Ctrl-C, 130)
  becomes `hook_failed`'s PluginError naming the plugin and the hook (exit 1). A DrdError is the
  plugin's message to the user (a toolkit `violation`) and passes unchanged;
* an answer of the wrong type (a string where a mapping is documented, NaN, 10**5000, …) is a
  PluginError naming the plugin, the hook and what was wrong (docs/plugins.md, each hook's
  answer);
* what the plugin prints goes to stderr, so machine output on stdout (`--json`) stays parseable;
* with DRD_TRACE_PLUGINS=1 every call is shown on stderr: `[drd] hook → plugin`.

`plugin_code()` gives the same protection to plugin code run outside a hook (its import,
`drd_plugin_info`).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Callable

from ..errors import DrdError
from ..i18n import N_, _
from .errors import PluginError, disable_hint, hook_failed

#: A whole number a hook may answer: anything larger is a plugin's mistake, not a rule.
LIMIT = 10 ** 9


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and -LIMIT <= value <= LIMIT


def _amount(value: Any) -> bool:
    if isinstance(value, Mapping):
        note = value.get("note")
        return _int(value.get("amount", 0)) and (note is None or isinstance(note, str))
    return _int(value)


def _flag_or_mapping(value: Any) -> bool:
    return isinstance(value, (bool, Mapping))


def _strings(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value)


def _step_types(value: Any) -> bool:
    return isinstance(value, Mapping) and all(
        isinstance(k, str) and callable(getattr(v, "resolve", None)) and isinstance(getattr(v, "model", None), type)
        for k, v in value.items())


def _gains(value: Any) -> bool:
    return isinstance(value, Mapping) or (isinstance(value, (list, tuple)) and all(isinstance(x, Mapping)
                                                                                  for x in value))


def _followup(value: Any) -> bool:
    return hasattr(value, "affects") and hasattr(value, "name")


def _lines(value: Any) -> bool:
    return isinstance(value, str) or _strings(value)


# hook → (is the answer right, what the hook answers: in words). None (no answer) is always right.
ANSWERS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "drd_plugin_info": (lambda v: isinstance(v, Mapping), N_("a mapping")),
    "drd_step_types": (_step_types, N_("a mapping of step keys to StepType")),
    "drd_free_manoeuvre": (lambda v: isinstance(v, Mapping), N_("a mapping")),
    "drd_manoeuvre_price": (lambda v: isinstance(v, Mapping), N_("a mapping")),
    "drd_activation": (lambda v: isinstance(v, Mapping), N_("a mapping")),
    "drd_armour_adjustment": (_int, N_("a whole number")),
    "drd_exhaustion_cap": (_int, N_("a whole number")),
    "drd_manoeuvre_allowance": (_int, N_("a whole number")),
    "drd_jizva_yield": (_int, N_("a whole number")),
    "drd_narocnost": (_int, N_("a whole number")),
    "drd_roll_modifier": (_amount, N_("a whole number or {amount, note}")),
    "drd_exhaustion_cost": (_amount, N_("a whole number or {amount, note}")),
    "drd_indirect_threats": (_strings, N_("a list of participant ids")),
    "drd_round_end": (lambda v: isinstance(v, (list, tuple)), N_("a list")),
    "drd_followup": (_followup, N_("a challenge (ChallengeSpec)")),
    "drd_resolve_contest": (lambda v: isinstance(v, bool), N_("true or false")),
    "drd_pair_winner": (lambda v: v in ("actor", "counter"), N_("\"actor\" or \"counter\"")),
    "drd_may_pay": (_flag_or_mapping, N_("true or a mapping")),
    "drd_may_react": (_flag_or_mapping, N_("true or a mapping")),
    "drd_may_react_asleep": (_flag_or_mapping, N_("true or a mapping")),
    "drd_resource_gain": (_gains, N_("a mapping or a list of mappings")),
    "drd_render_entry": (_lines, N_("a line or a list of lines")),
}


def _shown(value: Any) -> str:
    """What the plugin answered, briefly (its type, and the value when it is short)."""
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    if isinstance(value, int) and not isinstance(value, bool) and not -LIMIT <= value <= LIMIT:
        return _("a whole number with {n} digits").format(n=len(str(abs(value))) if abs(value) < 10 ** 4000
                                                         else ">4000")
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - only wording a message
        text = type(value).__name__
    return text if len(text) <= 40 else type(value).__name__


def wrong_answer(pid: str, hook: str, value: Any, expected: str) -> PluginError:
    """The PluginError of a hook answer of the wrong type."""
    err = PluginError(_("plugin {id} answered {hook} with {value}; the hook answers {expected}").format(
        id=repr(pid), hook=hook, value=_shown(value), expected=_(expected)),
        hint=_("this is a bug in the plugin, not in drd or your file; {how}").format(how=disable_hint(pid)))
    err.plugin, err.hook = pid, hook
    return err


def check_answer(pid: str, hook: str, value: Any) -> None:
    """A PluginError when `value` is not what `hook` answers (None: no answer, always right)."""
    if value is None:
        return
    rule = ANSWERS.get(hook)
    if rule is not None and not rule[0](value):
        raise wrong_answer(pid, hook, value, rule[1])


@contextmanager
def plugin_code(pid: str, what: str, entries: Mapping[str, Any] | None = None) -> Iterator[None]:
    """Runs plugin code (an import, `drd_plugin_info`) with stdout sent to stderr; any exception but
    a DrdError and Ctrl-C becomes `hook_failed`'s PluginError naming the plugin and `what`."""
    out = sys.stdout
    sys.stdout = sys.stderr
    try:
        yield
    except (DrdError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # noqa: BLE001 - SystemExit included: a plugin never ends drd
        raise hook_failed(pid, what, exc, dict(entries) if entries is not None else None) from None
    finally:
        sys.stdout = out


def guarded(pid: str, hook: str, function: Callable[..., Any], entries: Mapping[str, Any] | None,
            trace: bool) -> Callable[..., Any]:
    """`function` (a hook implementation of plugin `pid`) behind the guard (see the module)."""
    check = ANSWERS.get(hook, (None, ""))[0]
    expected = ANSWERS.get(hook, (None, ""))[1]

    def call(*args: Any, **kwargs: Any) -> Any:
        if trace:
            print(f"[drd] {hook} → {pid}", file=sys.stderr)
        out = sys.stdout
        sys.stdout = sys.stderr
        try:
            answer = function(*args, **kwargs)
        except (DrdError, KeyboardInterrupt):
            raise
        except BaseException as exc:  # noqa: BLE001 - SystemExit included: a plugin never ends drd
            raise hook_failed(pid, hook, exc, dict(entries) if entries is not None else None) from None
        finally:
            sys.stdout = out
        if answer is not None and check is not None and not check(answer):
            raise wrong_answer(pid, hook, answer, expected)
        return answer

    call.__wrapped__ = function  # type: ignore[attr-defined]
    call.drd_guarded = True  # type: ignore[attr-defined]
    return call


def guard_hooks(pm: Any, plugin: Any, pid: str, entries: Mapping[str, Any] | None, *, trace: bool = False) -> None:
    """Puts every hook implementation of `plugin` (registered on `pm` as `pid`) behind the guard."""
    for caller in pm.get_hookcallers(plugin) or ():
        for impl in caller.get_hookimpls():
            if impl.plugin is plugin and not getattr(impl.function, "drd_guarded", False):
                impl.function = guarded(pid, caller.name, impl.function, entries, trace)
