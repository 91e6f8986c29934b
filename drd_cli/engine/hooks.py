"""The engine's typed façade over the plugin hooks.

Every call collects the plugins' answers, sorts them by plugin id and combines them with a
documented policy, so a result never depends on installation or registration order.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, _
from .context import Choices, Ctx, StepRecord, enable_hint, violation
from .state import PState, Working


class Hooks:
    """Calls into the enabled plugins (`pm` may be None: no plugins at all)."""

    def __init__(self, pm: Any = None, enabled: frozenset[str] = frozenset(), params: dict | None = None):
        self.pm = pm
        self.enabled = enabled
        # The parameters in effect (core and enabled plugins), shown read-only to hooks that take
        # a `params` argument; calls that have a Ctx use its profile instead.
        # A manager built by api.setup_rules carries them as `drd_params` (for callers that do not pass them).
        self.params: dict = dict(params if params is not None else getattr(pm, "drd_params", None) or {})
        self.step_types: dict[str, Any] = {}
        if pm is not None:
            for name, types in self._named("drd_step_types"):
                for kind, st in (types or {}).items():
                    self.step_types[kind] = st

    def _named(self, hook: str, **kwargs: Any) -> list[tuple[str, Any]]:
        """(plugin id, result) for every implementation, sorted by plugin id."""
        if self.pm is None:
            return []
        caller = getattr(self.pm.hook, hook)
        from types import MappingProxyType

        kwargs["params"] = MappingProxyType(dict(kwargs.get("params") or self.params))
        out = []
        for impl in caller.get_hookimpls():
            name = self.pm.get_name(impl.plugin)
            args = {k: v for k, v in kwargs.items() if k in impl.argnames}
            res = impl.function(**args)
            if res is not None:
                out.append((name, res))
        return sorted(out, key=lambda x: x[0])

    # -- manoeuvres and armour -------------------------------------------------------------
    def free_manoeuvre(self, ctx: Ctx, w: Working, p: PState, prep: Any, name: str, via: str | None) -> str | None:
        """First (by plugin id) plugin that makes the manoeuvre free; notes of the others are logged."""
        rec = getattr(ctx, "record", None)
        prep.target_states = [w.peek(t) for t in prep.targets]
        for pid, res in self._named("drd_free_manoeuvre", participant=p, action=prep, manoeuvre=name,
                                     params=ctx.profile.params):
            if res.get("free"):
                if via and via not in (res.get("via"), res.get("key")):
                    continue
                if res.get("per") == "round":
                    key = (p.id, "ability:" + str(res.get("key", pid)))
                    if key in ctx.round.free_used:
                        continue
                    ctx.round.free_used.add(key)
                if res.get("note") and rec is not None:  # a warning that does not refuse (CS-RANGE-4)
                    rec.log(res.get("rule", pid), res["note"])
                return res.get("via") or pid
            if res.get("note") and rec is not None:
                rec.log(res.get("rule", pid), res["note"])
        return None

    def armour_adjust(self, ctx: Ctx, w: Working, protected: PState, winner: Any) -> int:
        attacker = w.peek(winner.actor) if winner.actor else None
        return sum(int(r) for _, r in self._named("drd_armour_adjustment", protected=protected,
                                                  attacker=attacker, action=winner,
                                                  params=ctx.profile.params))

    # -- environment, follow-ups, indirect threats (plugin `prostredi`) ----------------------
    def _need(self, plugin: str, what: str, rule: str, path: tuple) -> None:
        if plugin not in self.enabled:
            raise violation(_("{what} needs the plugin {plugin}, which is disabled").format(what=_(what), plugin=plugin),
                            rule, path, hint=enable_hint(plugin))

    def indirect_threats(self, ctx: Ctx, w: Working, action: Any, path: tuple) -> list[str]:
        if not action.threatens and action.followup is None:
            return []
        if action.threatens:
            self._need("prostredi", N_("`threatens` (indirect threat)"), "CS-IND-1", path + ("threatens",))
        if action.followup is not None:
            # Say it here: otherwise a reaction to the follow-up is refused first, for a reason
            # (not threatened) that hides the real one (the plugin is off).
            self._need("prostredi", N_("a follow-up action (`followup`)"), "CS-FOL-1", path + ("followup",))
        ids: list[str] = []
        for _, res in self._named("drd_indirect_threats", action=action, params=ctx.profile.params):
            ids += [x for x in res if x not in ids]
        return ids

    def run_followup(self, ctx: Ctx, w: Working, rec: StepRecord, actor: str, followup: Any,
                     affects: list[str] | None, choices: Choices | None, path: tuple) -> None:
        self._need("prostredi", N_("a follow-up action (`followup`)"), "CS-FOL-1", path)
        from .steps import resolve_challenge

        for _plugin, spec in self._named("drd_followup", action=None, followup=followup,
                                         params=ctx.profile.params):
            rec.log("CS-FOL-1", _("Follow-up action „{title}“ right after the action of {name}").format(
                title=spec.name or _("challenge"), name=w.peek(actor).name))
            aff = affects
            if aff is not None and spec.affects not in (None, "all"):
                named = [spec.affects] if isinstance(spec.affects, str) else list(spec.affects)
                aff = [p for p in named if p in aff] if aff else named
            resolve_challenge(ctx, w, rec, spec, choices, path + ("challenge",), affects=aff, followup=True)

    def round_end(self, scenario: Any, index: int, rnd: Any, path: tuple) -> list:
        if scenario.environment or (rnd is not None and rnd.environment):
            where = ("environment",) if scenario.environment else path + ("environment",)
            self._need("prostredi", N_("an environment action (`environment`)"), "CS-ENV-1", where)
        out = []
        for _, res in self._named("drd_round_end", scenario=scenario, round_index=index, round=rnd):
            out += list(res)
        return out

    # -- whole-step plugins -----------------------------------------------------------------
    def resolve_contest(self, ctx: Ctx, w: Working, rec: StepRecord, spec: Any, choices: Choices,
                        path: tuple) -> bool:
        if self.pm is None:
            return False
        from .run import StepAPI

        return bool(self.pm.hook.drd_resolve_contest(engine=StepAPI(ctx, w, rec), spec=spec, choices=choices,
                                                     path=path))
