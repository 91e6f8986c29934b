"""What a step resolution needs besides the state: rules, dice, answers, round bookkeeping,
and the record of what happened (which becomes the step's part of the result).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import Message, RuleViolation, ScenarioError, Text
from ..plugins.errors import enable_hint as _enable_hint
from ..i18n import N_
from ..citations import CHOICES

if TYPE_CHECKING:    # types only: the engine imports neither at run time from here
    from ..dice import DiceSource
    from ..errors import Location
    from ..rules import RulesProfile
    from .hooks import Hooks

ANSWER_WORDS = ("accept", "exhaust", "deny")
ANSWER_KEYS = {"exhaust", "deny", "jizva", "sacrifice", "accept", "paid_by", "platí"}
# The `cheapest` policy (drd simulate/odds) exhausts only when it costs at most this many points,
# i.e. while Ohrožení (less armour) is still low; a dearer exhaustion is declined (docs/odds.md).
CHEAP_COST = 1


@dataclass
class Answer:
    """One answer to a decision (SCENARIO-FORMAT §5)."""

    exhaust: bool = False
    exhaust_for: list[str] | None = None     # None = oneself
    deny: bool = False
    jizva: dict | None = None                 # {name, pool, gain}
    sacrifice: str | None = None
    path: tuple = ()
    explicit: bool = True                     # False when it comes from --choose
    max_cost: int | None = None               # a policy answer exhausts only up to this cost (cheapest)
    paid_by: str | None = None                # someone else pays the points (R-ABIL-SHARE)

    @property
    def accept(self) -> bool:
        return not self.exhaust and not self.deny


class Choices:
    """The answers of one step, looked up by who decides and against whom (`vs`)."""

    def __init__(self, raw: dict, path: tuple, participants: set[str], policy: Any = "accept"):
        # `policy` is "accept", "exhaust", or an object with `decide(choices, who, vs, optional=)`
        # that asks at the table (`--choose ask`, `drd play`).
        self.policy = policy
        self._global: dict[str, Answer] = {}
        self._per: dict[str, dict[str, Answer]] = {}
        self._used: set[tuple[str, str | None]] = set()
        self.defaulted: list[tuple[str, str, str]] = []   # (who, vs, answer) the default decided
        self._path = path
        for who, value in (raw or {}).items():
            wpath = path + (who,)
            if who not in participants:
                raise ScenarioError(Message(N_("choices name an unknown participant {id}"), id=repr(who)), path=wpath,
                                    rule=CHOICES)
            if isinstance(value, str) or (isinstance(value, dict) and value and set(value) <= ANSWER_KEYS):
                self._global[who] = _parse_answer(value, wpath)
            elif isinstance(value, dict):
                per = {}
                for vs, ans in value.items():
                    if vs != "test" and vs not in participants:
                        raise ScenarioError(Message(N_("choices of {who} answer against an unknown participant {id}"),
                            who=repr(who), id=repr(vs)),
                                            path=wpath + (vs,), rule=CHOICES)
                    per[vs] = _parse_answer(ans, wpath + (vs,))
                self._per[who] = per
            else:
                raise ScenarioError(Message(N_("the answer of {who} must be accept, exhaust, deny or a mapping"), who=repr(who)),
                                    path=wpath, rule=CHOICES)

    def get(self, who: str, vs: str) -> Answer:
        """The answer of `who` against `vs` (a participant id or "test"); the policy if none."""
        written = self._written(who, vs)
        if written is None:
            written = self._ask(who, vs, optional=False)
        if written is not None:
            return written
        word = self.policy if self.policy in ("exhaust", "cheapest") else "accept"
        if (who, vs, word) not in self.defaulted:
            self.defaulted.append((who, vs, word))
        return Answer(exhaust=self.policy in ("exhaust", "cheapest"), explicit=False,
                      max_cost=CHEAP_COST if self.policy == "cheapest" else None)

    def explicit(self, who: str, vs: str) -> Answer | None:
        """Only an answer written in the file (for optional decisions such as exhausting for others),
        or, with an asking policy, one given at the table."""
        written = self._written(who, vs)
        return written if written is not None else self._ask(who, vs, optional=True)

    def _ask(self, who: str, vs: str, *, optional: bool) -> Answer | None:
        """`--choose ask` / `drd play`: the policy object decides; its answer then stands in the step
        exactly as if the file had it written under `choices: {who: {vs: …}}` (so a replay file that
        writes it there resolves the same)."""
        decide = getattr(self.policy, "decide", None)
        if decide is None:
            return None
        answer = decide(self, who, vs, optional=optional)
        if answer is None:
            return None
        answer.explicit = True
        answer.path = self._path + (who, vs)
        self._per.setdefault(who, {})[vs] = answer
        self._used.add((who, vs))
        return answer

    @property
    def path(self) -> tuple:
        """Where this step's `choices` sit in the scenario."""
        return self._path

    def _written(self, who: str, vs: str) -> Answer | None:
        per = self._per.get(who, {})
        if vs in per:
            self._used.add((who, vs))
            return per[vs]
        if who in self._global:
            self._used.add((who, None))
            return self._global[who]
        return None

    def peek(self, who: str, vs: str, include_global: bool = True) -> Answer | None:
        """The written answer of `who` against `vs`, without marking it used."""
        per = self._per.get(who, {})
        if vs in per:
            return per[vs]
        return self._global.get(who) if include_global else None

    def answered(self) -> list[str]:
        return sorted(set(self._global) | set(self._per))

    def unused(self) -> list[tuple[str, str | None, tuple]]:
        """Answers that no decision asked for (the log says they were ignored)."""
        out: list[tuple[str, str | None, tuple]] = []
        for who, a in self._global.items():
            if (who, None) not in self._used:
                out.append((who, None, a.path))
        for who, per in self._per.items():
            for vs, a in per.items():
                if (who, vs) not in self._used:
                    out.append((who, vs, a.path))
        return out


def _parse_answer(value: Any, path: tuple) -> Answer:
    if isinstance(value, str):
        if value not in ANSWER_WORDS:
            raise ScenarioError(Message(N_("unknown answer {value}; use accept, exhaust or deny"), value=repr(value)), path=path,
                                rule=CHOICES)
        return Answer(exhaust=value == "exhaust", deny=value == "deny", path=path)
    if not isinstance(value, dict):
        raise ScenarioError(Message(N_("an answer is accept, exhaust, deny or a mapping")), path=path,
                            rule=CHOICES)
    extra = set(value) - ANSWER_KEYS
    if extra:
        raise ScenarioError(Message(N_("unknown answer key {key}; use exhaust, deny, jizva, sacrifice, paid_by"),
                                key=repr(sorted(extra)[0])),
                            path=path + (sorted(extra)[0],), rule=CHOICES)
    ans = Answer(path=path)
    ex = value.get("exhaust")
    if isinstance(ex, list):
        if not all(isinstance(x, str) for x in ex):
            raise ScenarioError(Message(N_("exhaust: lists participant ids")), path=path + ("exhaust",))
        ans.exhaust, ans.exhaust_for = True, list(ex)
    elif isinstance(ex, bool):
        ans.exhaust = ex
    elif ex is not None:
        raise ScenarioError(Message(N_("exhaust: is true or a list of ids protected")), path=path + ("exhaust",))
    deny = value.get("deny")
    if deny is not None and not isinstance(deny, bool):
        raise ScenarioError(Message(N_("deny: is true or false")), path=path + ("deny",))
    ans.deny = bool(deny)
    j = value.get("jizva")
    if j is not None:
        if isinstance(j, str):
            j = {"name": j}
        if not isinstance(j, dict) or "name" not in j or not isinstance(j.get("gain", 0), int) \
                or isinstance(j.get("gain", 0), bool) or set(j) - {"name", "pool", "gain", "tags"}:
            raise ScenarioError(Message(N_("jizva: is {{name, pool, gain, tags}}")), path=path + ("jizva",),
                                rule="R-EXH-4")
        ans.jizva = dict(j)
        if "exhaust" not in value and not ans.deny:
            ans.exhaust = True
    s = value.get("sacrifice")
    if s is not None:
        if not isinstance(s, str):
            raise ScenarioError(Message(N_("sacrifice: names one held item")), path=path + ("sacrifice",), rule="R-EXH-4")
        ans.sacrifice = s
        if "exhaust" not in value and not ans.deny:
            ans.exhaust = True
    payer = value.get("paid_by", value.get("platí"))
    if payer is not None:
        if not isinstance(payer, str):
            raise ScenarioError(Message(N_("paid_by: names one participant")), path=path + ("paid_by",), rule="R-ABIL-SHARE")
        ans.paid_by = payer
    return ans


@dataclass
class RoundInfo:
    """Per-round bookkeeping: who has spent its initiative action, free manoeuvres used."""

    number: int
    used: set[str] = field(default_factory=set)
    delayed: set[str] = field(default_factory=set)
    free_used: set[tuple[str, str]] = field(default_factory=set)   # (participant, item or ability)
    initiative: Any = None     # the round's `initiative` as written (story order, rolls, "roll" or None)
    steps: tuple = ()          # the round's steps as written (round context of the views: `opponents`)
    opponents: dict = field(default_factory=dict)   # participant → (opponent ids, beings), computed once


class StepRecord:
    """What happened in one step, in the shape of the result contract (§7)."""

    def __init__(self, step_id: str, round_no: int, kind: str):
        self.data: dict[str, Any] = {
            "id": step_id, "round": round_no, "kind": kind, "rolls": {}, "order": [],
            "manoeuvres": [], "actions": {}, "exhaustions": [], "log": []}
        # (payer, vs) → the plugin whose drd_may_exhaust turned a --choose policy's exhaust into
        # accepting: the step's `decisions` say what was done, and who made it so.
        self.forbidden: dict[tuple[str, str], str] = {}

    def log(self, rule: str, text: str) -> None:
        """A line of text as it is (a plugin's note, StepAPI.log)."""
        self.data["log"].append({"rule": rule, "text": text})

    def event(self, rule: str, kind: str, **fields: Any) -> None:
        """What happened, as data (drd_cli/engine/events.py); put into words when the result is
        written (drd_cli/wording.py)."""
        self.data["log"].append({"rule": rule, "event": {"kind": kind, **fields}})

    def tried(self, pid: str, label: str | None, role: str, pool: str) -> None:
        """What `pid` tried in this step, for the transcript's story: the action's label (or note)
        from the file, else its role (action, test, race, harm, protect) and pool (an extension of §7)."""
        self.data.setdefault("tries", {})[pid] = {"label": label} if label else {"role": role, "pool": pool}

    def action(self, pid: str) -> dict:
        return self.data["actions"].setdefault(pid, {"success": False, "affected": []})

    def affected(self, pid: str, target: str) -> None:
        lst = self.action(pid)["affected"]
        if target not in lst:
            lst.append(target)


@dataclass
class Ctx:
    """Everything a resolution reads besides the state. `hooks` is the plugin façade."""

    profile: RulesProfile
    dice: DiceSource
    hooks: Hooks
    round: RoundInfo
    choose: Any = "accept"     # "accept", "exhaust", "cheapest", or an object that asks (Choices.policy)
    locate: Callable[[tuple], Location] | None = None   # path → Location, for messages only
    record: StepRecord | None = None                     # the step being resolved (set by run)

    @property
    def target(self) -> int:
        return int(self.profile.params["target"])

    def param(self, name: str) -> Any:
        return self.profile.params[name]


def violation(message: Text, rule: str, path: tuple, hint: Text | None = None,
              data: dict | None = None) -> RuleViolation:
    """A RuleViolation (exit 1) pointing at `path` in the scenario; `data` carries its numbers.
    `message` and `hint` are Messages (`Message(N_("…{name}…"), name=…)`): worded where the
    violation is shown, never here (docs/architecture.md, "How to add a rule violation")."""
    return RuleViolation(message, rule=rule, path=path, hint=hint, data=data)


def enable_hint(plugin: str, cli: bool = True) -> str:
    """The hint of a violation that an optional rule (plugin) would allow: how to enable it
    (worded in one place, drd_cli/plugins/errors.py)."""
    return _enable_hint(plugin, "run" if cli else "scenario")