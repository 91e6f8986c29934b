"""Resolve a `system: dakara` scenario into the result contract (SCENARIO-FORMAT §7).

Pure apart from the dice source it is given: no printing, no files. Every problem it finds is
raised with the document path of the offending key (`("rounds", 0, "steps", 1, "skill", "finta")`)
so the caller can point at file:line:col: ScenarioError (exit 2) for a broken reference,
RuleViolation (exit 1, with the SK rule id) for something the rules forbid.
"""

from __future__ import annotations

from typing import Any, Mapping

from drd_cli.dakara import rules
from drd_cli.dakara.models import DakaraParticipant, DakaraScenario, SkillStep
from drd_cli.dakara.skills import display_name, given_names, skill_id, skill_key
from drd_cli.dice import DiceSource, SeededDice, new_seed
from drd_cli.errors import RuleViolation, ScenarioError
from drd_cli.i18n import N_, _

NARRATOR = "narrator"

_PARAM_CHOICES = {"helpers": ("escalating", "shared"), "missing_skill": ("zero", "error")}
_PARAM_INTS = {"finta_cap": 0, "kondice": 0, "injury_floor": 0}   # name → minimum

# Words for the log, translated where they are used (drd_cli/i18n.py).
RISK_CZ = {"injury": N_("injury"), "complication": N_("complication")}
COMPLICATION_CZ = {"none": N_("no complications"), "mild": N_("mild complications"),
                   "serious": N_("serious complications")}
OUTCOME_CZ = {"auto-success": N_("SUCCESS without a roll"), "success": N_("SUCCESS"), "failure": N_("FAILURE"),
              "win": N_("WIN"), "draw": N_("DRAW"), "loss": N_("LOSS"), "impossible": N_("IMPOSSIBLE"),
              "withdrawn": N_("WITHDRAWN")}


def dakara_params(*layers: Mapping[str, Any] | None, path: tuple = ("rules", "params")) -> dict:
    """The effective Dakara parameters: DEFAULT_PARAMS overlaid with each layer in order.

    Values may be strings (from `--set kondice=20`); they are checked and converted. An unknown
    name or a bad value is a ScenarioError whose path is `path + (name,)`.
    """
    out = dict(rules.DEFAULT_PARAMS)
    for layer in layers:
        for name, value in (layer or {}).items():
            out[name] = _check_param(name, value, path + (name,))
    return out


def _check_param(name: str, value: Any, path: tuple) -> Any:
    if name in _PARAM_CHOICES:
        if value not in _PARAM_CHOICES[name]:
            raise ScenarioError(_("parameter {name}: {value} is not one of {choices}").format(
                                    name=name, value=repr(value), choices=" | ".join(_PARAM_CHOICES[name])),
                                path=path)
        return value
    if name in _PARAM_INTS:
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < _PARAM_INTS[name]:
            raise ScenarioError(_("parameter {name}: {value} is not a whole number ≥ {min}").format(
                                    name=name, value=repr(value), min=_PARAM_INTS[name]),
                                path=path)
        return value
    known = ", ".join(sorted(rules.DEFAULT_PARAMS))
    raise ScenarioError(_("unknown Dakara parameter {name} (known: {known})").format(name=repr(name), known=known),
                        path=path)


def resolve_dakara(scenario: DakaraScenario, params: Mapping[str, Any] | None = None,
                   dice: DiceSource | None = None, seed: int | None = None, *,
                   rules_block: dict | None = None) -> dict:
    """Resolve every `skill` step in order; return the result dict (SCENARIO-FORMAT §7).

    `params`: the effective parameters (defaults ← group ← scenario ← command line) as merged by the
    caller; names that are not Dakara parameters are ignored (the shared profile carries DrD II's
    too). None = the built-in defaults overlaid with the scenario's own `rules.params` (then an
    unknown name is an error). Values are validated either way. `dice`: where dice the file does not give come from; None = a SeededDice
    seeded with `seed`, else the scenario's `seed`, else a fresh one (reported as `seed`).
    `rules_block`: the `rules` entry of the result; None = `{"enabled": [], "params": …}`.
    """
    _check_rules_block(scenario)
    if params is None:
        eff = dakara_params(scenario.rules.params)
    else:
        # The shared rules profile carries every parameter (DrD II's `tie`, `target`, … too) and has
        # validated them already; Dakara reads only its own.
        eff = dakara_params({k: v for k, v in params.items() if k in rules.DEFAULT_PARAMS})
    used_seed = seed if seed is not None else scenario.seed
    if dice is None:
        if used_seed is None:
            used_seed = new_seed()
        dice = SeededDice(used_seed)
    state = {pid: {"injury": p.injury, "dead": rules.is_dead(p.injury, eff["kondice"]),
                   "conditions": list(p.conditions)}
             for pid, p in scenario.participants.items()}
    steps: list[dict] = []
    seen_ids: set[str] = set()
    names = given_names(_spellings(scenario))
    for i, rnd in enumerate(scenario.rounds):
        for j, step in enumerate(rnd.steps):
            step_id = step.id if step.id is not None else f"{i + 1}.{j + 1}"
            if step_id in seen_ids:
                raise ScenarioError(_("step id {id} is used twice").format(id=repr(step_id)),
                                    path=("rounds", i, "steps", j, "id"))
            seen_ids.add(step_id)
            ctx = _StepContext(scenario, eff, dice, state, ("rounds", i, "steps", j, "skill"), names)
            result = ctx.resolve(step.skill)
            steps.append({"id": step_id, "round": i + 1, "kind": "skill", **result,
                          **({"note": step.note} if step.note else {})})
    return {
        "format": "drd-result/1",
        "title": scenario.title,
        "system": "dakara",
        "seed": used_seed,
        "rules": rules_block if rules_block is not None else {"enabled": [], "params": eff},
        "steps": steps,
        "final": state,
        # As for DrD II (an extension of the result): who the ids are, so the transcript uses names.
        "participants": {pid: {"name": p.name or pid, "side": p.side}
                         for pid, p in scenario.participants.items()},
        # The skills' names for a reader (`kapsarstvi` → `Kapsářství`), by the ids the steps report.
        "skill_names": {skill_id(sk): display_name(sk, names) for sk in _spellings(scenario)},
    }


def _spellings(scenario: DakaraScenario) -> list[str]:
    """Every skill spelling the file writes: participants' skills, the steps' and helpers' skills."""
    out = [sk for p in scenario.participants.values() for sk in p.skills]
    for rnd in scenario.rounds:
        for step in rnd.steps:
            s = step.skill
            out += [s.skill, *([s.opponent_skill] if s.opponent_skill else []), *(h.skill for h in s.helpers if h.skill)]
    return out


def _check_rules_block(scenario: DakaraScenario) -> None:
    # Dakara has no optional rules to switch; naming one is an unknown rule id (SCENARIO-FORMAT §6).
    for key in ("enable", "disable"):
        for k, rule_id in enumerate(getattr(scenario.rules, key)):
            raise ScenarioError(_("unknown rule {id}: Dakara has no optional rules, only parameters ({known})").format(
                                    id=repr(rule_id), known=", ".join(sorted(rules.DEFAULT_PARAMS))),
                                path=("rules", key, k))


class _StepContext:
    """Resolves one `skill` step against the running state; collects the log."""

    def __init__(self, scenario: DakaraScenario, params: dict, dice: DiceSource, state: dict, path: tuple,
                 names: dict[str, str] | None = None):
        self.sc = scenario
        self.names = names or {}
        self.params = params
        self.dice = dice
        self.state = state
        self.path = path
        self.log: list[dict] = []

    # ------------------------------------------------------------------ helpers
    def say(self, rule: str, text: str) -> None:
        self.log.append({"rule": rule, "text": text})

    def name(self, pid: str) -> str:
        p = self.sc.participants.get(pid)
        return (p.name if p is not None and p.name else pid)

    def skill_name(self, skill: str) -> str:
        """The skill as a reader sees it: its Czech name with diacritics (drd_cli/dakara/skills.py)."""
        return display_name(skill, self.names)

    def participant(self, pid: str, *where: Any) -> DakaraParticipant:
        if pid not in self.sc.participants:
            raise ScenarioError(_("unknown participant {id} (participants: {known})").format(
                                    id=repr(pid), known=", ".join(self.sc.participants)),
                                path=self.path + where)
        return self.sc.participants[pid]

    def alive(self, pid: str, *where: Any) -> None:
        if self.state[pid]["dead"]:
            raise RuleViolation(_("{name} is dead (injury {injury} > kondice {kondice}) and cannot act").format(
                                    name=self.name(pid), injury=self.state[pid]["injury"],
                                    kondice=self.params["kondice"]), rule="SK-5", path=self.path + where)

    def rating(self, pid: str, skill: str, *where: Any) -> int:
        """The participant's rating in `skill`; a missing skill per the `missing_skill` parameter."""
        skills = {skill_key(k): v for k, v in self.sc.participants[pid].skills.items()}
        if skill_key(skill) in skills:
            return skills[skill_key(skill)]
        if self.params["missing_skill"] == "error":
            has = ", ".join(self.skill_name(k) for k in self.sc.participants[pid].skills)
            raise RuleViolation(_("{name} has no skill {skill} (has: {has}); the rules profile says missing_skill: "
                                  "error").format(name=self.name(pid), skill=self.skill_name(skill),
                                                  has=has or _("none")), rule="SK-2",
                                path=self.path + where)
        self.say("SK-2", _("{name} does not have the skill {skill}: it counts as rating 0.").format(
            name=self.name(pid), skill=self.skill_name(skill)))
        return 0

    def check_finta(self, value: int, *where: Any) -> None:
        cap = self.params["finta_cap"]
        if value > cap:
            raise RuleViolation(_("finta +{value} is over the cap +{cap} (finta is +1 or +2)").format(
                                    value=value, cap=cap), rule="SK-6",
                                path=self.path + where)

    def die(self, given: int | None, who: str, purpose: str) -> tuple[int, str]:
        if given is not None:
            return given, "given"
        value = self.dice.roll(1, who, purpose)[0]
        return value, getattr(self.dice, "name", "seeded")

    # ------------------------------------------------------------------ the step
    def resolve(self, s: SkillStep) -> dict:
        self.participant(s.actor, "actor")
        self.alive(s.actor, "actor")
        kind: rules.Kind = "contest" if s.opponent is not None else "test"
        self._check_shape(s, kind)
        difficulty = self._difficulty(s, kind)
        rating = self.rating(s.actor, s.skill, "skill")
        self.check_finta(s.finta, "finta")
        if s.risk != "injury" and s.injury_modifier is not None:
            raise RuleViolation(_("injury_modifier needs `risk: injury` (the narrator declares injury or a "
                                  "complication, never both)"), rule="SK-4", path=self.path + ("injury_modifier",))
        impossible = rules.is_impossible(s.tools, s.tools_required)
        tools = rules.tool_modifier(s.tools)
        base = rules.modified_rating(rating, finta=s.finta, tools=s.tools, situational=s.situational)
        mods = self._modifiers(s, tools)
        helper_results: list[dict] = []
        bonus = 0
        if impossible:
            self.say("SK-8", _("Without suitable tools it cannot be done: IMPOSSIBLE, no roll."))
        else:
            helper_results, bonus = self._helpers(s, difficulty)
        if bonus:
            mods.append(_("helpers {mod}").format(mod=f"{bonus:+d}"))
        mod = base + bonus

        risk_it = s.risk_it
        if risk_it is None:
            # A contest is always rolled (SK-3); in a test the player risks the roll exactly when the
            # narrator has declared what is at stake (SK-4).
            risk_it = True if kind == "contest" else s.risk is not None
        answer = (rules.pre_roll_answer(mod, difficulty, impossible=impossible) if kind == "test"
                  else ("impossible" if impossible else None))
        rolled = rules.needs_roll(kind, answer, risk_it)
        if kind == "test" and answer == "no" and rolled and s.risk is None:
            raise RuleViolation(_("a risked roll needs the narrator's declared risk first: add `risk: injury` or "
                                  "`risk: complication`"), rule="SK-4", path=self.path + ("risk_it",))
        self._say_answer(s, kind, answer, rolled, impossible, mod, difficulty,
                         ", ".join([f"{self.skill_name(s.skill)} {rating}", *mods]))
        dice_pair, roll_record = self._roll(s, kind, rolled, mod, difficulty)
        res = rules.resolve(kind, mod, difficulty, risk=s.risk, risk_it=risk_it, dice=dice_pair,
                            injury_modifier=s.injury_modifier or 0,
                            armour=self.sc.participants[s.actor].armour,
                            injury_floor=self.params["injury_floor"], impossible=impossible)
        if res.rolled and dice_pair is not None:
            self._explain_roll(s, res, kind, dice_pair, mod, difficulty)
        injury_total = self._apply_injury(s, res)
        return {
            "mode": kind, "actor": s.actor, "skill": skill_id(s.skill), "opponent": s.opponent, "rating": rating,
            "modifiers": {"finta": s.finta, "tools": tools, "situational": sum(s.situational), "helpers": bonus},
            "modified_rating": mod, "difficulty": difficulty, "answer": res.answer, "risk": s.risk,
            "rolls": roll_record, "helpers": helper_results, "outcome": res.outcome, "margin": res.margin,
            "complication": res.complication, "injury": res.injury, "injury_total": injury_total,
            "dead": self.state[s.actor]["dead"], "log": self.log,
        }

    def _difficulty(self, s: SkillStep, kind: rules.Kind) -> int:
        """SK-1: the difficulty — set by the narrator, or the opponent's rating (+ its modifiers)."""
        actor = self.name(s.actor)
        if kind == "test":
            assert s.difficulty is not None   # _check_shape
            self.say("SK-1", _("{actor}: skill test {skill}, difficulty {difficulty} (set by the narrator).").format(
                actor=actor, skill=self.skill_name(s.skill), difficulty=s.difficulty))
            return s.difficulty
        assert s.opponent is not None
        self.participant(s.opponent, "opponent")
        if s.opponent == s.actor:
            raise RuleViolation(_("a participant cannot oppose itself"), rule="SK-1", path=self.path + ("opponent",))
        self.check_finta(s.opponent_finta, "opponent_finta")
        opp_skill = s.opponent_skill or s.skill
        opp_rating = self.rating(s.opponent, opp_skill, "opponent_skill" if s.opponent_skill else "opponent")
        difficulty = rules.modified_rating(opp_rating, finta=s.opponent_finta, tools=s.opponent_tools,
                                           situational=s.opponent_situational)
        extra = ("" if difficulty == opp_rating else
                 _(", with the opponent's modifiers {mods}").format(mods=f"{difficulty - opp_rating:+d}"))
        self.say("SK-1", _("{actor}: contest in the skill {skill} against {opponent} — difficulty {difficulty} = "
                           "its {opp_skill} {opp_rating}{extra}; a contest is always rolled.").format(
            actor=actor, skill=self.skill_name(s.skill), opponent=self.name(s.opponent), difficulty=difficulty,
            opp_skill=self.skill_name(opp_skill), opp_rating=opp_rating, extra=extra))
        return difficulty

    def _modifiers(self, s: SkillStep, tools: int) -> list[str]:
        """SK-6, SK-8, SK-9: the actor's own modifiers, logged; returns their short forms."""
        mods = []
        if s.finta:
            mods.append(f"finta {s.finta:+d}")
            self.say("SK-6", f"Finta {s.finta:+d}.")
        if s.tools != 0:
            what = _("no tools") if s.tools == "none" else _("tools")
            mods.append(f"{what} {tools:+d}")
            self.say("SK-8", f"{what.capitalize()}: {tools:+d}.")
        if s.situational:
            mods.append(_("situational {mod}").format(mod=f"{sum(s.situational):+d}"))
            self.say("SK-9", _("Situational modifiers {mods}.").format(
                mods=", ".join(f"{m:+d}" for m in s.situational)))
        return mods

    def _say_answer(self, s: SkillStep, kind: str, answer: str | None, rolled: bool, impossible: bool, mod: int,
                    difficulty: int, shown: str) -> None:
        """SK-2 / SK-3: the answer before the roll, and whether the player rolls."""
        actor = self.name(s.actor)
        if kind == "test" and answer == "yes":
            self.say("SK-2", _("Modified rating {mod} ({shown}) ≥ difficulty {difficulty}: YES, you surely manage "
                               "this — success without a roll.").format(mod=mod, shown=shown, difficulty=difficulty))
        elif kind == "test" and answer == "no":
            self.say("SK-2", _("Modified rating {mod} ({shown}) < difficulty {difficulty}: NO, success is not "
                               "certain.").format(mod=mod, shown=shown, difficulty=difficulty))
            if not rolled:
                self.say("SK-2", _("{actor} does not risk it and does something else.").format(actor=actor))
        elif kind == "contest" and not impossible:
            self.say("SK-3", _("Modified rating {mod} ({shown}) against difficulty {difficulty}.").format(
                mod=mod, shown=shown, difficulty=difficulty))
            if not rolled:
                self.say("SK-3", _("{actor} withdraws from the contest.").format(actor=actor))

    def _roll(self, s: SkillStep, kind: str, rolled: bool, mod: int,
              difficulty: int) -> tuple[tuple[int, int] | None, dict]:
        """SK-3 / SK-4: the declared risk and the two dice (the file's, else drawn); the roll record."""
        if not rolled:
            if s.dice is not None:
                self.say("SK-2", _("The dice in the file were not used: no roll."))
            return None, {}
        narrator_key = s.opponent if kind == "contest" and s.opponent else NARRATOR
        if s.risk:
            self.say("SK-4", _("Before the roll the narrator declared the risk: {risk}.").format(risk=_(RISK_CZ[s.risk])))
        if kind == "test" and difficulty - mod >= 6:
            self.say("SK-3", _("Difference {diff} ≥ 6: the roll cannot succeed, but it may be played.").format(
                diff=difficulty - mod))
        p, p_src = self.die(s.dice.player if s.dice else None, s.actor, "skill")
        g, g_src = self.die(s.dice.narrator if s.dice else None, narrator_key, "skill")
        return (p, g), {s.actor: {"total": mod + p, "dice": [p], "bonus": mod, "source": p_src},
                        narrator_key: {"total": difficulty + g, "dice": [g], "bonus": difficulty, "source": g_src}}

    def _check_shape(self, s: SkillStep, kind: rules.Kind) -> None:
        if kind == "contest" and s.difficulty is not None:
            raise ScenarioError(_("give `difficulty` (a test) or `opponent` (a contest), not both"),
                                path=self.path + ("difficulty",))
        if kind == "test":
            if s.difficulty is None:
                raise ScenarioError(_("a skill step needs `difficulty` (a test) or `opponent` (a contest)"),
                                    path=self.path)
            for key in ("opponent_skill", "opponent_finta", "opponent_tools", "opponent_situational"):
                if key in s.model_fields_set:
                    raise ScenarioError(_("`{key}` needs `opponent`").format(key=key), path=self.path + (key,))
        for key in s.helper_dice:
            if key not in {h.actor for h in s.helpers}:
                raise ScenarioError(_("helper_dice for {id}, who is not among the helpers").format(id=repr(key)),
                                    path=self.path + ("helper_dice", key))

    def _helpers(self, s: SkillStep, difficulty: int) -> tuple[list[dict], int]:
        """SK-7: resolve each helper in order; return their records and the bonus."""
        mode = self.params["helpers"]
        diffs = rules.helper_difficulties(difficulty, len(s.helpers), mode)
        seen: set[str] = set()
        out, bonus = [], 0
        for k, (h, hd) in enumerate(zip(s.helpers, diffs)):
            where = ("helpers", k)
            self.participant(h.actor, *where, "actor")
            if h.actor == s.actor:
                raise RuleViolation(_("{name} is the actor and cannot also help itself").format(name=self.name(h.actor)),
                                    rule="SK-7",
                                    path=self.path + where + ("actor",))
            if h.actor == s.opponent:
                raise RuleViolation(_("{name} is the opponent and cannot help the actor").format(name=self.name(h.actor)),
                                    rule="SK-7", path=self.path + where + ("actor",))
            if h.actor in seen:
                raise RuleViolation(_("{name} is listed as a helper twice").format(name=self.name(h.actor)), rule="SK-7",
                                    path=self.path + where + ("actor",))
            seen.add(h.actor)
            self.alive(h.actor, *where, "actor")
            self.check_finta(h.finta, *where, "finta")
            skill = h.skill or s.skill
            hr = self.rating(h.actor, skill, *where, "skill" if h.skill else "actor")
            hmod = rules.modified_rating(hr, finta=h.finta, tools=h.tools, situational=h.situational)
            hdice: tuple[int, int] | None = None
            rolls: dict = {}
            if rules.helper_needs_roll(hmod, hd, h.declines):
                given = s.helper_dice.get(h.actor)
                p, p_src = self.die(given.player if given else None, h.actor, "helper")
                g, g_src = self.die(given.narrator if given else None, NARRATOR, "helper")
                hdice = (p, g)
                rolls = {h.actor: {"total": hmod + p, "dice": [p], "bonus": hmod, "source": p_src},
                         NARRATOR: {"total": hd + g, "dice": [g], "bonus": hd, "source": g_src}}
            elif h.actor in s.helper_dice:
                self.say("SK-7", _("The dice of the helper {name} were not used: no roll.").format(name=self.name(h.actor)))
            r = rules.resolve_helper(hmod, hd, hdice, h.declines)
            who = _("{name} helps ({skill} {rating} against difficulty {difficulty})").format(
                name=self.name(h.actor), skill=self.skill_name(skill), rating=hmod, difficulty=hd)
            if r.auto:
                self.say("SK-7", _("{who}: manages it without a roll, +1.").format(who=who))
            elif not r.rolled:
                self.say("SK-7", _("{who}: does not roll, does not help.").format(who=who))
            elif hdice is not None:
                pt, gt = rolls[h.actor]["total"], rolls[NARRATOR]["total"]
                verdict = _("succeeded, +1") if r.success else _("failed, adds nothing")
                self.say("SK-7", _("{who}: roll {rating}+{die} = {total} against {difficulty}+{ndie} = {ntotal}: "
                                   "{verdict}.").format(who=who, rating=hmod, die=hdice[0], total=pt, difficulty=hd,
                                                         ndie=hdice[1], ntotal=gt, verdict=verdict))
            bonus += r.success
            out.append({"actor": h.actor, "skill": skill_id(skill), "rating": hr, "modified_rating": hmod,
                        "difficulty": hd, "auto": r.auto, "rolled": r.rolled, "success": r.success,
                        "margin": r.margin, "rolls": rolls})
        return out, bonus

    def _explain_roll(self, s: SkillStep, res: rules.Resolution, kind: str, dice_pair: tuple, mod: int,
                      difficulty: int) -> None:
        p, g = dice_pair
        margin = res.margin or 0   # rolled: always a number
        text = _("Roll: {mod}+{die} = {total} against {difficulty}+{ndie} = {ntotal}, difference {margin}: "
                 "{outcome}").format(mod=mod, die=p, total=res.player_total, difficulty=difficulty, ndie=g,
                                     ntotal=res.narrator_total, margin=_signed(margin),
                                     outcome=_(OUTCOME_CZ[res.outcome]))
        if margin == 0:
            text += _(" (in a test a tie is enough)") if kind == "test" else _(" (a tie in a contest is a draw)")
        self.say("SK-3", text + ".")
        if res.outcome in ("failure", "loss"):
            f = -margin
            if s.risk == "complication":
                self.say("SK-4", _("Failure by {by}: {what}.").format(by=f, what=_(COMPLICATION_CZ[res.complication])))
            elif s.risk == "injury":
                armour = self.sc.participants[s.actor].armour
                im = s.injury_modifier or 0
                formula = f"{f}" + (f" + {im}" if im > 0 else f" − {-im}" if im < 0 else "") + \
                          (_(" − armour {armour}").format(armour=armour) if armour else "")
                if formula == str(res.injury):   # no modifier, no armour: the margin itself
                    self.say("SK-5", _("Injury = the failure margin = {injury}.").format(injury=res.injury))
                else:
                    self.say("SK-5", _("Injury = {formula} = {injury}.").format(formula=formula, injury=res.injury))
            else:
                self.say("SK-4", _("The narrator declared no risk: a failure without consequences."))

    def _apply_injury(self, s: SkillStep, res: rules.Resolution) -> int:
        st = self.state[s.actor]
        if res.injury:
            st["injury"] += res.injury
            kondice = self.params["kondice"]
            if rules.is_dead(st["injury"], kondice):
                st["dead"] = True
                self.say("SK-5", _("{name}: total injury {injury} > {kondice} points of kondice — dies.").format(
                    name=self.name(s.actor), injury=st["injury"], kondice=kondice))
            else:
                self.say("SK-5", _("{name}: total injury {injury} of {kondice} points of kondice.").format(
                    name=self.name(s.actor), injury=st["injury"], kondice=kondice))
        return st["injury"]


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def expect_differences(result: dict, expect: Mapping[str, Any] | Any) -> list[str]:
    """Differences between a result and an `expect` block (SCENARIO-FORMAT §8), as readable lines.

    `expect.final` and `expect.steps` are subsets of the result; lists must match exactly.
    """
    if hasattr(expect, "model_dump"):
        expect = expect.model_dump()
    diffs: list[str] = []
    if expect.get("final"):
        _subset(result["final"], expect["final"], "final", diffs)
    if expect.get("steps"):
        by_id = {st["id"]: st for st in result["steps"]}
        for sid, want in expect["steps"].items():
            if sid not in by_id:
                diffs.append(f"steps.{sid}: no such step")
            else:
                _subset(by_id[sid], want, f"steps.{sid}", diffs)
    return diffs


def _subset(have: Any, want: Any, where: str, diffs: list[str]) -> None:
    if isinstance(want, Mapping) and isinstance(have, Mapping):
        for k, v in want.items():
            if k not in have:
                diffs.append(f"{where}.{k}: missing (expected {v!r})")
            else:
                _subset(have[k], v, f"{where}.{k}", diffs)
    elif have != want:
        diffs.append(f"{where}: expected {want!r}, got {have!r}")
