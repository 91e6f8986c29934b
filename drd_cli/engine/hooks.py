"""The engine's typed façade over the plugin hooks.

Every call collects the plugins' answers, sorts them by plugin id and combines them with a
documented policy, so a result never depends on installation or registration order.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..errors import DocPath, DrdError, Message, RuleViolation
from ..i18n import N_
from ..plugins.errors import PluginError, disable_hint, enable_hint, hook_failed
from . import viewbuild as V
from .state import PState, Working


class Ctx(Protocol):
    """What the façade reads of the run's context (engine/context.py `Ctx`): the rules profile's
    parameters and the round's bookkeeping. A protocol, so this module needs nothing of
    context.py, which names `Hooks` as the type of its `hooks`."""

    profile: Any
    round: Any


@dataclass(frozen=True)
class Verdict:
    """The plugins' combined answer to "may he?" (`may_react`, `may_pay`, `may_exhaust`).

    `allowed`; `plugin` the plugin that allowed it — or, refused, the first (by id) that said why;
    `note` that plugin's words; `pool` and `amount` what an allowing `drd_may_pay` answer names
    (the payer's pool; the points, for a part payment); `rule` a refusal's rule id, if it gave one.
    """

    allowed: bool
    plugin: str | None = None
    note: str = ""
    pool: str | None = None
    amount: int | None = None
    rule: str | None = None


NOBODY = Verdict(False)

#: The keys a mapping answer of each hook may have (docs/plugins.md); API 3 added the second set.
#: Another key is the plugin's error (exit 1) — a warning, on stderr once, for a plugin declaring
#: an older API, whose unknown keys are ignored as before.
ANSWER_KEYS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "drd_free_manoeuvre": (frozenset({"free", "via", "key", "per", "note", "rule"}), frozenset()),
    "drd_manoeuvre_price": (frozenset({"free", "via", "key", "per", "note", "rule"}), frozenset()),
    "drd_activation": (frozenset({"cost", "pool", "fact", "improvised", "crafts", "rule"}), frozenset()),
    "drd_roll_modifier": (frozenset({"amount", "note", "rule"}), frozenset()),
    "drd_exhaustion_cost": (frozenset({"amount", "note", "rule"}), frozenset()),
    "drd_may_pay": (frozenset({"allow", "pool", "note", "rule"}), frozenset({"amount"})),
    "drd_may_react": (frozenset({"allow", "note", "rule"}), frozenset()),
    "drd_may_react_asleep": (frozenset({"allow", "note", "rule"}), frozenset()),
    "drd_resource_gain": (frozenset({"vyhody", "pool", "amount", "sacrifice", "refuse", "rule"}), frozenset()),
    "drd_may_exhaust": (frozenset(), frozenset({"allow", "note", "rule"})),
}


#: (plugin, hook, key) already warned about in this process (an older plugin's unknown answer key).
_WARNED: set[tuple[str, str, str]] = set()


class Later:
    """A hook argument built only when some implementation takes it (a view that costs)."""

    __slots__ = ("make", "value", "made")

    def __init__(self, make: Callable[[], Any]):
        self.make, self.value, self.made = make, None, False

    def get(self) -> Any:
        if not self.made:
            self.value, self.made = self.make(), True
        return self.value


def _allows(res: Any) -> bool:
    return res is True or (isinstance(res, Mapping) and res.get("allow", True) is not False)


def _amount(res: Any) -> tuple[int, str]:
    """An answer that is an int or {"amount": int, "note": str}."""
    if isinstance(res, dict):
        return int(res.get("amount", 0)), str(res.get("note") or "")
    return int(res), ""


def _wrong_answer(pid: str, hook: str, value: Any, expected: str) -> PluginError:
    """The PluginError of an answer of the wrong shape (worded as the plugin host's guard words it)."""
    shown = repr(value)
    err = PluginError(Message(N_("plugin {id} answered {hook} with {value}; the hook answers {expected}"),
                              id=repr(pid), hook=hook, value=shown if len(shown) <= 40 else type(value).__name__,
                              expected=Message(expected)),
                      hint=Message(N_("this is a bug in the plugin, not in drd or your file; {how}"),
                                   how=disable_hint(pid)))
    err.plugin, err.hook = pid, hook
    return err


def _refusal(answers: list[tuple[str, Any]]) -> Verdict:
    """Nobody allowed it: the first refusal (by plugin id) that says why, else a bare refusal."""
    for pid, res in answers:
        if isinstance(res, Mapping) and res.get("allow") is False and res.get("note"):
            return Verdict(False, pid, str(res["note"]))
    return NOBODY


class Hooks:
    """Calls into the enabled plugins (`pm` may be None: no plugins at all).

    Every hook call goes through `_named`: implementations in plugin-id order, each given only the
    arguments it names, an exception turned into a PluginError naming the plugin and the hook.
    `acted` collects the ids of plugins whose answers changed something in this run (the result
    names them, docs/plugins.md "Lifecycle"). Plugins of kind "ability" are consulted only when
    some participant of the scenario lists one of their abilities (`focus`).
    """

    #: The engine handle a plugin taking over a contest is given: `handle(ctx, w, rec)` (run.StepAPI;
    #: engine/run.py sets it, so this module does not import the run).
    handle: Any = None

    def __init__(self, pm: Any = None, enabled: frozenset[str] = frozenset(),
                 params: dict[str, Any] | None = None):
        self.pm = pm
        self.enabled = enabled
        # The parameters in effect (core and enabled plugins), shown read-only to hooks that take
        # a `params` argument; calls that have a Ctx use its profile instead.
        # A Registry built by api.setup_rules carries them (for callers that do not pass them).
        self.params: dict[str, Any] = dict(params if params is not None else getattr(pm, "params", None) or {})
        self.acted: set[str] = set()
        self._impls: dict[str, list[tuple[str, Any]]] = {}
        self._kinds: dict[str, tuple[str, tuple[str, ...]]] = {}
        self._titles: dict[str, str] = {}
        self._cards: dict[str, dict[str, Any] | None] = {}
        self._asleep: frozenset[str] = frozenset()
        self._ro_params: Any = None
        self._ro_source: Any = None
        # Collected once, by the plugin host, with its one clash behaviour (plugins.Registry).
        self.step_types: dict[str, Any] = dict(getattr(pm, "step_types", None) or {}) if pm is not None else {}

    # -- plumbing ----------------------------------------------------------------------------
    def focus(self, listed: set[str] | frozenset[str]) -> None:
        """Ability plugins none of whose abilities `listed` names are not consulted in this run
        (an ability acts only for participants who list it; R-ABIL, docs/plugins.md)."""
        if self.pm is None:
            return
        asleep = set()
        for plugin in self.pm.get_plugins():
            pid = self.pm.get_name(plugin)
            kind, ids = self._kind(pid, plugin)
            if kind == "ability" and not (set(ids) & set(listed)):
                asleep.add(pid)
        # Those api.setup_rules did not even register (plugins.build_manager, `listed`).
        asleep.update(pid for pid, plugin in (getattr(self.pm, "idle", None) or {}).items()
                      if not set(self._kind(pid, plugin)[1]) & set(listed))
        # drd's own ability plugins nobody lists, not even imported (plugins.dormant).
        asleep.update(pid for pid in getattr(self.pm, "dormant", ()) if pid not in listed)
        self._asleep = frozenset(asleep)
        self._impls.clear()

    def _kind(self, pid: str, plugin: Any) -> tuple[str, tuple[str, ...]]:
        got = self._kinds.get(pid)
        if got is None:
            # Checked and kept once per plugin object and language (plugins.plugin_info, through
            # the run's Registry); a failing hook is a PluginError naming the plugin.
            info = self.pm.plugin_info(pid, plugin)
            ids = tuple(info.get("abilities") or (pid,))
            kind = str(info.get("kind", ""))
            if kind == "ability" and getattr(self.pm, "api_version", lambda *_: 2)(pid, plugin) < 2:
                kind = ""       # API 1: consulted for every participant, as it always was
            got = self._kinds[pid] = (kind, ids)
            self._titles[pid] = str(info.get("title") or pid)
        return got

    @property
    def asleep(self) -> frozenset[str]:
        """Ability plugins this run does not consult: nobody in the scenario lists their abilities."""
        return self._asleep

    def title(self, source: str | None) -> str:
        """A display name for an id the result records (a plugin's title; an item's name as it is)."""
        if not source or self.pm is None:
            return source or ""
        if source not in self._titles:
            plugin = self.pm.get_plugin(source)
            if plugin is None:
                return source
            self._kind(source, plugin)
        return self._titles.get(source, source)

    def impls(self, hook: str) -> list[tuple[str, Any]]:
        """(plugin id, implementation) of `hook`, in plugin-id order, without the sleeping ones."""
        got = self._impls.get(hook)
        if got is None:
            got = []
            if self.pm is not None:
                caller = getattr(self.pm.hook, hook, None)
                for impl in (caller.get_hookimpls() if caller is not None else ()):
                    pid = self.pm.get_name(impl.plugin)
                    if pid not in self._asleep:
                        got.append((pid, impl))
                got.sort(key=lambda x: x[0])
            self._impls[hook] = got
        return got

    def _counts(self, hook: str, **kwargs: Any) -> list[tuple[str, int]]:
        """(plugin id, non-zero int answer) of a hook whose answers are added up."""
        return [(pid, int(r)) for pid, r in self._named(hook, **kwargs) if int(r)]

    def has(self, *hooks: str) -> bool:
        # Asked before nearly every hook call (a view is built only for a hook someone
        # implements): a dictionary lookup, without a generator, once the answer is known.
        known = self._impls
        for hook in hooks:
            got = known.get(hook)
            if got is None:
                got = self.impls(hook)
            if got:
                return True
        return False

    def _params(self, params: Any) -> Any:
        from types import MappingProxyType

        source = params if params is not None else self.params
        if source is not self._ro_source:
            self._ro_source, self._ro_params = source, MappingProxyType(dict(source))
        return self._ro_params

    def _failed(self, pid: str, hook: str, exc: BaseException) -> Exception:
        """The error a plugin's exception becomes: it names the plugin and the hook (never "a bug in drd")."""
        builder = getattr(self.pm, "hook_failed", None)
        return builder(pid, hook, exc) if builder is not None else hook_failed(pid, hook, exc)

    def _named(self, hook: str, **kwargs: Any) -> list[tuple[str, Any]]:
        """(plugin id, result) for every implementation that answered, sorted by plugin id.

        An argument given as `Later` is built the first time an implementation takes it. A mapping
        answer is checked against the hook's keys (`check_keys`)."""
        impls = self.impls(hook)
        if not impls:
            return []
        kwargs["params"] = self._params(kwargs.get("params"))
        out = []
        for pid, impl in impls:
            args = {k: (v.get() if isinstance(v, Later) else v) for k, v in kwargs.items() if k in impl.argnames}
            try:
                res = impl.function(**args)
            except Exception as exc:  # noqa: BLE001 - a plugin's bug stops the run naming the plugin
                raise self._failed(pid, hook, exc) from None
            if res is not None:
                res = self.check_keys(pid, hook, res)
                out.append((pid, res))
        return out

    def api_version(self, pid: str) -> int:
        """The plugin API version plugin `pid` declares (`api_version`; absent = 1)."""
        info_of = getattr(self.pm, "plugin_info", None)
        plugin = self.pm.get_plugin(pid) if self.pm is not None else None
        if info_of is None or plugin is None:
            from ..hookspecs import API_VERSION

            return API_VERSION
        need = info_of(pid, plugin).get("api_version", 1)
        return need if isinstance(need, int) else 1

    def check_keys(self, pid: str, hook: str, res: Any) -> Any:
        """`res` with only the keys `hook` knows: another key is the plugin's error (exit 1) — for a
        plugin declaring API < 3 a warning on stderr, once per plugin, hook and key, and the key
        (and every key API 3 added) is ignored, as before. A list answer's mappings likewise."""
        known = ANSWER_KEYS.get(hook)
        if known is None:
            return res
        if isinstance(res, list):
            return [self.check_keys(pid, hook, x) for x in res]
        if not isinstance(res, Mapping):
            return res
        old, new = known
        if all(k in old for k in res):          # the common case: nothing to say, nothing to build
            return res
        modern = self.api_version(pid) >= 3
        allowed = old | new if modern else old
        extra = sorted(str(k) for k in res if k not in allowed)
        if not extra:
            return res
        if modern:
            err = PluginError(Message(N_("plugin {id} answered {hook} with the key {key}, which the hook does not "
                                         "know; it knows {known}"), id=repr(pid), hook=hook, key=repr(extra[0]),
                                      known=", ".join(sorted(allowed))),
                              hint=Message(N_("this is a bug in the plugin, not in drd or your file; {how}"),
                                           how=disable_hint(pid)))
            err.plugin, err.hook = pid, hook
            raise err
        for key in extra:
            if (pid, hook, key) not in _WARNED:
                _WARNED.add((pid, hook, key))
                # Worded here, in the active language (the façade's own words, docs/architecture.md).
                print(Message(N_("drd: warning: plugin {id} answered {hook} with the key {key}, which the hook does "
                                 "not know: ignored (the plugin declares plugin API {api}; under API 3 this is an "
                                 "error)"), id=repr(pid), hook=hook, key=repr(key), api=self.api_version(pid)),
                      file=sys.stderr)
        return {k: v for k, v in res.items() if k in allowed}

    # -- manoeuvres and armour -------------------------------------------------------------
    def free_manoeuvre(self, ctx: Ctx, w: Working, p: PState, prep: Any, name: str, via: str | None,
                       mview: Any = None) -> str | None:
        """First plugin (by id) that makes the manoeuvre free (`drd_free_manoeuvre` or
        `drd_manoeuvre_price`); its id is returned; the notes of the others are logged."""
        if not self.has("drd_free_manoeuvre", "drd_manoeuvre_price"):
            return None
        rec = getattr(ctx, "record", None)
        pv = V.participant(p)
        av = V.action(ctx, w, prep)
        answers = self._named("drd_free_manoeuvre", participant=pv, action=av, manoeuvre=name,
                              params=ctx.profile.params)
        if mview is not None:
            answers += self._named("drd_manoeuvre_price", participant=pv, action=av, manoeuvre=mview,
                                   params=ctx.profile.params)
        answers.sort(key=lambda x: x[0])
        for pid, res in answers:
            if res.get("free"):
                if via and via not in (res.get("via"), res.get("key"), pid):
                    continue
                if res.get("per") == "round":
                    key = (p.id, "ability:" + str(res.get("key", pid)))
                    if key in ctx.round.free_used:
                        continue
                    ctx.round.free_used.add(key)
                if res.get("note") and rec is not None:  # a warning that does not refuse (CS-RANGE-4)
                    rec.log(res.get("rule", pid), res["note"])
                self.acted.add(pid)
                return str(res.get("key") or pid)
            if res.get("note") and rec is not None:
                rec.log(res.get("rule", pid), res["note"])
        return None

    def manoeuvre_allowance(self, ctx: Ctx, w: Working, p: PState, prep: Any) -> list[tuple[str, int]]:
        """(plugin id, extra manoeuvres) beyond `max_manoeuvres` (R-ABIL-NAD)."""
        if not self.has("drd_manoeuvre_allowance"):
            return []
        return self._counts("drd_manoeuvre_allowance", participant=V.participant(p), action=V.action(ctx, w, prep),
                            params=ctx.profile.params)

    def armour_adjust(self, ctx: Ctx, w: Working, protected: PState, winner: Any) -> list[tuple[str, int]]:
        """(plugin id, change) of `protected`'s armour against the bodily `winner` (API 1 hook)."""
        if not self.has("drd_armour_adjustment"):
            return []
        attacker = w.peek(winner.actor) if winner.actor else None
        return self._counts("drd_armour_adjustment", protected=V.participant(protected),
                            attacker=V.participant(attacker) if attacker is not None else None,
                            action=V.action(ctx, w, winner), params=ctx.profile.params)

    # -- exhaustion, rolls, pairs ------------------------------------------------------------
    def exhaustion_adjust(self, ctx: Ctx, w: Working, view: Any, entry: Any) -> tuple[list[tuple[str, int, str]], list[tuple[str, int]]]:
        """Additive changes `[(plugin, amount, note)]` and caps `[(plugin, cap)]` for one breakdown entry."""
        adds: list[tuple[str, int, str]] = []
        conflict = Later(lambda: V.conflict(ctx, w))
        for pid, res in self._named("drd_exhaustion_cost", exhaustion=view, entry=entry, conflict=conflict,
                                    params=ctx.profile.params):
            amount, note = _amount(res)
            if amount:
                adds.append((pid, amount, note))
        caps = [(pid, int(res)) for pid, res in self._named("drd_exhaustion_cap", exhaustion=view, entry=entry,
                                                            conflict=conflict, params=ctx.profile.params)]
        return adds, caps

    def roll_modifiers(self, ctx: Ctx, w: Working, p: PState, prep: Any) -> list[tuple[str, int, str]]:
        """(plugin id, amount, note) added to `p`'s rolled dice for `prep`."""
        if prep is None or not self.has("drd_roll_modifier"):
            return []
        out = []
        for pid, res in self._named("drd_roll_modifier", participant=V.participant(p),
                                    action=V.action(ctx, w, prep), params=ctx.profile.params):
            amount, note = _amount(res)
            if amount:
                out.append((pid, amount, note))
        return out

    def pair_winner(self, ctx: Ctx, w: Working, act: Any, c: Any, ra: int,
                    rc: int) -> tuple[str, str, list[Any]] | None:
        """("actor"|"counter", plugin id, [(overruled plugin, answer)]) when a plugin decides the pair."""
        if not self.has("drd_pair_winner"):
            return None
        pair = V.pair(ctx, w, act, c, ra, rc)
        answers = [(pid, res) for pid, res in self._named("drd_pair_winner", pair=pair, params=ctx.profile.params)
                   if res in ("actor", "counter")]
        if not answers:
            return None
        pid, res = answers[0]
        return res, pid, [(q, r) for q, r in answers[1:] if r != res]

    # -- reactions, payments, activations, náročnost, Jizvy, gains ----------------------------
    def may_react(self, ctx: Ctx, w: Working, reactor: str, prep: Any, harmed: list[str],
                  counter: Any = None) -> Verdict:
        """Whether a plugin lets `reactor` react from defence (R-ABIL-DEF): the first (by id) that
        allows it, with its note; else refused, with the first refusal's words (`{"allow": False,
        "note": …}`). `counter`: the reactor's counter as declared (a bare Prepared-like object)."""
        if not self.has("drd_may_react"):
            return NOBODY
        answers = self._named("drd_may_react", reactor=V.participant(w.peek(reactor)),
                              action=V.action(ctx, w, prep),
                              harmed=tuple(V.participant(w.peek(h)) for h in harmed),
                              counter=V.action(ctx, w, counter), params=ctx.profile.params)
        for pid, res in answers:
            if res is True or (isinstance(res, Mapping) and res.get("allow")):
                return Verdict(True, pid, str(res.get("note") or "") if isinstance(res, Mapping) else "")
        return _refusal(answers)

    def may_react_asleep(self, ctx: Ctx, w: Working, sleeper: str, prep: Any, threatened: list[str],
                         counter: Any) -> tuple[bool, str | None, str]:
        """(allowed, plugin id, note) for a sleeper's counter (R-AWARE): the first plugin that
        allows it, else the first refusal's note (plugin None when nobody answered)."""
        if not self.has("drd_may_react_asleep"):
            return False, None, ""
        refusal: tuple[str | None, str] = (None, "")
        for pid, res in self._named("drd_may_react_asleep", sleeper=V.participant(w.peek(sleeper)),
                                    action=V.action(ctx, w, prep),
                                    threatened=tuple(V.participant(w.peek(t)) for t in threatened if t in w),
                                    counter=V.action(ctx, w, counter), params=ctx.profile.params):
            if res is True or (isinstance(res, dict) and res.get("allow")):
                return True, pid, (res.get("note", "") if isinstance(res, dict) else "")
            if isinstance(res, dict) and res.get("note") and refusal[0] is None:
                refusal = (pid, str(res["note"]))
        return False, refusal[0], refusal[1]

    def may_pay(self, ctx: Ctx, w: Working, payer: str, beneficiary: str, cost: Any, prep: Any) -> Verdict:
        """Whether `payer` may pay `beneficiary`'s `cost` (R-ABIL-SHARE): the first plugin (by id)
        allowing it names the pool (`pool`, None: the cost's type) and, under API 3, how much
        (`amount`, None: all of it; a part payment leaves the rest the beneficiary's). Refused:
        the first refusal's words."""
        if not self.has("drd_may_pay"):
            return NOBODY
        answers = self._named("drd_may_pay", payer=V.participant(w.peek(payer)),
                              beneficiary=V.participant(w.peek(beneficiary)), cost=cost,
                              action=V.action(ctx, w, prep) if prep is not None else None,
                              conflict=Later(lambda: V.conflict(ctx, w)), params=ctx.profile.params)
        for pid, res in answers:
            if _allows(res):
                if not isinstance(res, Mapping):
                    return Verdict(True, pid)
                amount = res.get("amount")
                if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool) or amount < 0):
                    raise _wrong_answer(pid, "drd_may_pay", res, N_("true or a mapping whose amount is a whole number "
                                                                   "≥ 0"))
                return Verdict(True, pid, str(res.get("note") or ""), res.get("pool"), amount)
        return _refusal(answers)

    def may_exhaust(self, ctx: Ctx, w: Working, payer: str, exhaustion: Any) -> Verdict:
        """Whether `payer` may pay the exhaustion `exhaustion` (an ExhaustionView) at all
        (`drd_may_exhaust`, API 3): allowed unless some plugin refuses; refused, the first refusal
        by plugin id (its words, its rule)."""
        if not self.has("drd_may_exhaust"):
            return Verdict(True)
        answers = self._named("drd_may_exhaust", payer=V.participant(w.peek(payer)), exhaustion=exhaustion,
                              history=Later(lambda: V.history(ctx, w, payer)),
                              conflict=Later(lambda: V.conflict(ctx, w)), params=ctx.profile.params)
        for pid, res in answers:
            if not (res is True or isinstance(res, Mapping)):
                raise _wrong_answer(pid, "drd_may_exhaust", res, N_("true or a mapping"))
            if not _allows(res):
                return Verdict(False, pid, str(res.get("note") or "") if isinstance(res, Mapping) else "",
                               rule=str(res.get("rule")) if isinstance(res, Mapping) and res.get("rule") else None)
        return Verdict(True)

    def activation(self, ctx: Ctx, w: Working, p: PState, ability: str, prep: Any,
                   options: Any = None) -> tuple[str, dict[str, Any]] | None:
        """(plugin id, {"cost", "pool", …}) of `ability`'s activation; the ability's own plugin first.

        `options`: the ability's own keys for this activation (the `abilities:` entry's with the
        `activate:` item's over them)."""
        if not self.has("drd_activation"):
            return None
        from ..views import _ro

        answers = self._named("drd_activation", participant=V.participant(p), ability=ability,
                              action=V.action(ctx, w, prep), params=ctx.profile.params, options=_ro(options))
        answers.sort(key=lambda x: (x[0] != ability, x[0]))
        for pid, res in answers:
            if isinstance(res, dict) and "cost" in res:
                return pid, res
        return None

    def card(self, ability: str) -> dict[str, Any] | None:
        """The catalogue card of `ability` (its plugin's `drd_plugin_info()["ability"]`), or None."""
        cards = self._cards
        if ability not in cards:
            card = None
            plugin = self.pm.get_plugin(ability) if self.pm is not None else None
            if plugin is not None:
                from ..abilities import info_of

                got = info_of(plugin, ability).get("ability")
                card = dict(got) if isinstance(got, dict) else None
            cards[ability] = card
        return cards[ability]

    def narocnost(self, ctx: Ctx, w: Working, p: PState, prep: Any, level: int) -> list[tuple[str, int]]:
        if not self.has("drd_narocnost"):
            return []
        return self._counts("drd_narocnost", participant=V.participant(p), action=V.action(ctx, w, prep), level=level,
                            params=ctx.profile.params)

    def jizva_yield(self, ctx: Ctx, p: PState, jizva: Any) -> list[tuple[str, int]]:
        if not self.has("drd_jizva_yield"):
            return []
        return self._counts("drd_jizva_yield", participant=V.participant(p), jizva=jizva, params=ctx.profile.params)

    def resource_gain(self, ctx: Ctx, p: PState, event: Any) -> list[tuple[str, dict[str, Any]]]:
        if not self.has("drd_resource_gain"):
            return []
        out = []
        for pid, res in self._named("drd_resource_gain", participant=V.participant(p), event=event,
                                    params=ctx.profile.params):
            for item in (res if isinstance(res, list) else [res]):
                if isinstance(item, dict):
                    out.append((pid, item))
        return out

    def render_entry(self, kind: str, entry: Any, fmt: str) -> list[str] | None:
        """Lines for a plugin step's own result entry; the step type's plugin answers first."""
        if not self.has("drd_render_entry"):
            return None
        owner = getattr(self.step_types.get(kind), "plugin", None)
        answers = self._named("drd_render_entry", kind=kind, entry=entry, format=fmt)
        answers.sort(key=lambda x: (x[0] != owner, x[0]))
        for _pid, res in answers:
            if isinstance(res, str):
                return [res]
            if isinstance(res, (list, tuple)):
                return [str(x) for x in res]
        return None

    # -- environment, follow-ups, indirect threats (plugin `prostredi`) ----------------------
    def _need(self, plugin: str, what: str, rule: str, path: DocPath) -> None:
        if plugin not in self.enabled:
            raise RuleViolation(Message(N_("{what} needs the plugin {plugin}, which is disabled"), what=Message(what),
                                        plugin=plugin),
                                rule=rule, path=path, hint=enable_hint(plugin, "run"))

    def indirect_threats(self, ctx: Ctx, w: Working, action: Any, path: DocPath) -> list[str]:
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

    def followups(self, ctx: Ctx, followup: Any, path: DocPath) -> list[Any]:
        """The výzvy (ChallengeSpec) a follow-up action makes, from the plugins that read it (CS-FOL-1);
        the engine resolves them (drd_cli/engine/steps.py `resolve_followup`)."""
        self._need("prostredi", N_("a follow-up action (`followup`)"), "CS-FOL-1", path)
        return [spec for _plugin, spec in self._named("drd_followup", action=None, followup=followup,
                                                       params=ctx.profile.params)]

    def round_end(self, scenario: Any, index: int, rnd: Any, path: DocPath) -> list[Any]:
        if scenario.environment or (rnd is not None and rnd.environment):
            where = ("environment",) if scenario.environment else path + ("environment",)
            self._need("prostredi", N_("an environment action (`environment`)"), "CS-ENV-1", where)
        out = []
        for _, res in self._named("drd_round_end", scenario=scenario, round_index=index, round=rnd):
            out += list(res)
        return out

    # -- whole-step plugins -----------------------------------------------------------------
    def resolve_contest(self, ctx: Ctx, w: Working, rec: Any, spec: Any, choices: Any,
                        path: DocPath) -> bool:
        """Whether a plugin took the contest over (`drd_resolve_contest`): the implementations in
        plugin-id order until one answers; a DrdError is the plugin's message (a refusal), any other
        exception the plugin's failure. The plugin gets the run's engine handle (`handle`)."""
        impls = self.impls("drd_resolve_contest")
        if not impls:
            return False
        engine = self.handle(ctx, w, rec)
        kwargs = {"engine": engine, "spec": spec, "choices": choices, "path": path}
        for pid, impl in impls:
            try:
                res = impl.function(**{k: v for k, v in kwargs.items() if k in impl.argnames})
            except DrdError:
                raise
            except Exception as exc:  # noqa: BLE001 - a plugin's bug stops the run naming the plugin
                raise self._failed(pid, "drd_resolve_contest", exc) from None
            if res is not None:
                return bool(res)
        return False
