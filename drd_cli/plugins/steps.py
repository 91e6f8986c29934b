"""Plugin step types (`drd_step_types`): collected once per registry, checked against a
scenario's plugin steps, and run for the engine (a failure is the plugin's)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..citations import RULES_LAYERS
from ..errors import DrdError, ScenarioError
from ..i18n import N_, _
from .discovery import PluginEntry
from .errors import PluginError, _claim, enable_hint, hook_failed
from .loading import load_plugin


def step_types_of(pm: Any) -> dict:
    """{step key: StepType} of the plugins registered on `pm` (a Registry: collected once, there).

    Two enabled plugins providing one step key is a PluginError naming both (as for parameters),
    and so is a plugin whose `drd_step_types` fails (its bug, not the file's).
    """
    known = getattr(pm, "step_types", None)
    if isinstance(known, Mapping):
        return dict(known)
    return collect_step_types(pm)


def collect_step_types(pm: Any) -> dict:
    """`step_types_of`, asking the plugins (the one place step types are collected)."""
    out: dict = {}
    owner: dict[str, str] = {}
    if pm is None:
        return out
    impls = sorted(pm.hook.drd_step_types.get_hookimpls(), key=lambda i: pm.get_name(i.plugin))
    for impl in impls:
        pid = pm.get_name(impl.plugin)
        try:
            types = impl.function() or {}
        except Exception as exc:  # noqa: BLE001 - third-party code: report, never a traceback
            raise hook_failed(pid, "drd_step_types", exc, getattr(pm, "entries", None)) from None
        _claim(out, owner, pid, types, N_("plugins {first} and {second} both provide the step type {name}"))
    return out


def step_type_owner(hooks: Any, kind: str) -> str | None:
    """The id of the enabled plugin providing step type `kind` (None: none, or no manager)."""
    pm = getattr(hooks, "pm", None)
    if pm is None:
        return None
    for impl in pm.hook.drd_step_types.get_hookimpls():
        if kind in (_module_step_types(impl.plugin) or {}):
            return pm.get_name(impl.plugin)
    return None


def run_plugin_step(hooks: Any, kind: str, step_type: Any, engine: Any, spec: Any, choices: Any, path: tuple) -> Any:
    """Calls a plugin step type's `resolve`; an exception from it (not a DrdError, which is the
    plugin's message to the user; nor Ctrl-C) is `hook_failed`'s error naming the plugin that
    provides `kind` — SystemExit too. What it prints goes to stderr (stdout may be `--json`)."""
    import sys

    out = sys.stdout
    sys.stdout = sys.stderr
    try:
        return step_type.resolve(engine, spec, choices, path)
    except (DrdError, KeyboardInterrupt):
        raise
    except BaseException as exc:  # noqa: BLE001 - third-party code (SystemExit too): report, never a traceback
        pid = step_type_owner(hooks, kind) or kind
        err = hook_failed(pid, f"drd_step_types: {kind}.resolve", exc,
                          getattr(getattr(hooks, "pm", None), "entries", None))
        for problem in err.problems:
            problem.path = tuple(path)      # the step it failed on, as file:line:col
        raise err from None
    finally:
        sys.stdout = out


def plugins_acted(hooks: Any, steps: list | None = None) -> set[str]:
    """The plugins that changed something in a run: the façade's `hooks.acted` (the ids whose
    answers changed something) and the providers of the plugin step types the run resolved.

    `RulesProfile.to_result` lists these (beside the built-ins in effect) in the result's `rules`.
    """
    acted = set(getattr(hooks, "acted", None) or ())
    kinds = {str(s.get("kind")) for s in steps or () if isinstance(s, dict)} & set(getattr(hooks, "step_types", None) or ())
    for kind in sorted(kinds):
        owner = step_type_owner(hooks, kind)
        if owner is not None:
            acted.add(owner)
    return acted


def _module_step_types(plugin: Any) -> dict:
    fn = getattr(plugin, "drd_step_types", None)
    if fn is None:
        return {}
    try:
        return dict(fn() or {})
    except Exception:  # noqa: BLE001 - only used to word an error message
        return {}


def _off_providers(entries: dict[str, PluginEntry] | None, enabled: frozenset | set,
                   extra: dict[str, Any] | None = None) -> dict[str, str]:
    """{step key: plugin id} of plugins that are installed (or given in `extra`) but off.

    This imports disabled plugins, which is done only to word the error about a step type that
    no enabled plugin provides (the same exception as for parameters, see ParamSource).
    Plugins that fail to import are skipped.
    """
    out: dict[str, str] = {}
    for pid in sorted(set(entries or {}) | set(extra or {})):
        if pid in enabled:
            continue
        if extra and pid in extra:
            plugin = extra[pid]
        else:
            try:
                plugin = load_plugin((entries or {})[pid])
            except PluginError:
                continue
        for kind in _module_step_types(plugin):
            out.setdefault(kind, pid)
    return out


def missing_step_type(kind: str, path: tuple, known: dict | set, *,
                      entries: dict[str, PluginEntry] | None = None, enabled: frozenset | set = frozenset(),
                      extra: dict[str, Any] | None = None) -> DrdError:
    """The error for a step key that no enabled plugin provides (`known`: the enabled ones' keys).

    * an installed plugin that is off provides it → RuleViolation (exit 1) naming it and how to
      enable it; likewise a built-in step type (`hide` → ukryvani) whose plugin is not installed;
    * nobody provides it → ScenarioError (exit 2) "unknown step type", with "did you mean" over
      every step key drd knows. `entries=None`: installed plugins are not looked at.
    """
    from ..errors import RuleViolation
    from ..rules import BUILTIN_STEP_TYPES
    from ..scenario.models import core_step_keys

    off: dict[str, str] = {}
    builtin = BUILTIN_STEP_TYPES.get(kind)
    if builtin is not None and entries is not None and builtin in entries and builtin not in enabled:
        off = {kind: builtin}      # no need to import it to know
    elif entries is not None or extra:
        off = _off_providers(entries, enabled, extra)
    if kind in off:
        pid = off[kind]
        return RuleViolation(_("step type {kind} is provided by the plugin {id}, which is disabled").format(
                                 kind=repr(kind), id=pid),
                             rule=RULES_LAYERS, path=path, hint=enable_hint(pid))
    if builtin is not None:
        return RuleViolation(_("step type {kind} is provided by the built-in plugin {id}, which is not installed or "
                               "not enabled").format(kind=repr(kind), id=builtin), rule=RULES_LAYERS, path=path,
                             hint=_("install drd with its built-in plugins (`drd plugins` lists what is installed); "
                                    "{how}").format(how=enable_hint(builtin)))
    from ..scenario.validate import _did_you_mean

    names = list(dict.fromkeys(core_step_keys() + sorted(known) + sorted(off) + sorted(BUILTIN_STEP_TYPES)))
    hint = _did_you_mean(kind, names)
    listed = ", ".join(dict.fromkeys(list(_core_kinds()) + sorted(known)))
    hint = (hint + " " if hint else "") + _("a step is one of: {listed}; a plugin's step type needs the plugin "
                                            "installed and enabled (`drd plugins`)").format(listed=listed)
    return ScenarioError(_("unknown step type {kind}").format(kind=repr(kind)), path=path, hint=hint)


def _core_kinds() -> tuple[str, ...]:
    from ..scenario.models import CORE_STEP_KINDS

    return CORE_STEP_KINDS


def step_doc_path(raw: Any, ri: int, si: int) -> tuple:
    """("rounds", ri, "steps", si) spelled as in the document (`kola`/`kroky` when written so)."""
    def key(node: Any, *names: str) -> str:
        if hasattr(node, "keys"):
            for name in names:
                if name in node:
                    return name
        return names[0]

    rk = key(raw, "rounds", "kola")
    try:
        rnd = raw[rk][ri]
    except (KeyError, IndexError, TypeError):
        rnd = None
    return (rk, ri, key(rnd, "steps", "kroky"), si)


def check_plugin_steps(scenario: Any, step_types: dict, *, source: Any = None, filename: str = "<scenario>",
                       raw: Any = None, entries: dict[str, PluginEntry] | None = None,
                       enabled: frozenset | set = frozenset(), extra: dict[str, Any] | None = None) -> None:
    """Checks every plugin step of `scenario` against the step types of the enabled plugins.

    A step whose key an enabled plugin provides is validated with that plugin's model (the
    validated spec is kept on the step for the engine); errors are exit 2 at file:line:col. A
    step no enabled plugin provides is `missing_step_type`'s error. File errors (exit 2) come
    before rule refusals (exit 1); every plugin step's problems are reported at once.
    """
    from ..errors import Problem, RuleViolation

    invalid: list[Problem] = []
    refused: list[Problem] = []
    for ri, rnd in enumerate(getattr(scenario, "rounds", None) or []):
        for si, step in enumerate(rnd.steps):
            ps = getattr(step, "plugin_step", None)
            if ps is None:
                continue
            path = step_doc_path(raw, ri, si) + (ps.kind,)
            st = step_types.get(ps.kind)
            if st is not None:
                try:
                    ps.validate(st.model, source=source, filename=filename, path=path)
                except ScenarioError as exc:
                    invalid += exc.problems
                continue
            err = missing_step_type(ps.kind, path, set(step_types), entries=entries, enabled=enabled, extra=extra)
            (invalid if isinstance(err, ScenarioError) else refused).extend(err.problems)
    for p in invalid + refused:
        if source is not None and not p.location.line:
            p.location = source.locate(p.path)
    if invalid:
        raise ScenarioError(invalid)
    if refused:
        raise RuleViolation(refused)
