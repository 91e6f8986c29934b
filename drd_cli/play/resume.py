"""`drd play REPLAY --from STEP`: resume a played game at a step, with the rest kept for redo.

The replay's rolls and answers of STEP and every later step are taken out of the document (the
`extra_dice` those steps used too); the game is then played from STEP, and what the replay had
there is offered as redo (`r`), entry by entry, until something different is entered. To know
what each later question got, the shortened scenario is run once with an *oracle* that answers
every question from the original replay, exactly where `replay.replay_text` had written it.
"""

from __future__ import annotations

import io
from typing import Any, Callable

from ..engine.context import Answer, _parse_answer
from ..errors import ScenarioError
from ..i18n import _
from .reading import Table
from .replay import _choices_holder, _key, _walk

ROLL_KEYS = ("roll", "hod", "dice", "kostky", "rolls", "hody")
ANSWER_KEYS = ("choices", "volby")


def step_position(scenario: Any, step_id: str) -> tuple[int, int]:
    """(round index, step index) of the step `step_id` (its `id`, or `R.S` as the result names it)."""
    for ri, rnd in enumerate(scenario.rounds):
        for si, step in enumerate(rnd.steps):
            if (step.id or f"{ri + 1}.{si + 1}") == step_id:
                return ri, si
    known = ", ".join(step.id or f"{ri + 1}.{si + 1}" for ri, rnd in enumerate(scenario.rounds)
                      for si, step in enumerate(rnd.steps))
    raise ScenarioError(_("--from {step}: the file has no such step (its steps: {known})").format(
        step=step_id, known=known or "–"), path=("rounds",))


def _strip(node: Any) -> None:
    if isinstance(node, dict):
        for key in list(node):
            if key in ROLL_KEYS or key in ANSWER_KEYS:
                del node[key]
            else:
                _strip(node[key])
    elif isinstance(node, list):
        for item in node:
            _strip(item)


class _Oracle:
    """Answers each question of the shortened game from the original replay document."""

    def __init__(self, doc: Any, scenario: Any, extra: list[int]):
        self.doc, self.scenario, self.extra = doc, scenario, list(extra)
        self.used_extra = 0

    def roll(self, place: tuple | None, n: int) -> Any:
        if place is not None:
            how, path, pid = place
            got = _walk(self.doc, self.scenario, path)
            if got is not None:
                node, model = got
                if how == "direct":
                    for field in ("dice", "roll"):
                        key = _key(node, model, field)
                        if key in node:
                            return list(node[key]) if field == "dice" else int(node[key])
                else:
                    for field in ("dice", "rolls"):
                        key = _key(node, model, field)
                        if isinstance(node.get(key), dict) and pid in node[key]:
                            v = node[key][pid]
                            return list(v) if isinstance(v, list) else int(v)
        if len(self.extra) >= n:
            taken, self.extra = self.extra[:n], self.extra[n:]
            self.used_extra += n
            return [int(x) for x in taken]
        return None            # the replay has nothing for it: drd rolls, as Enter would

    def answer(self, cpath: tuple, who: str, vs: str, rnd: int) -> Answer | None:
        holder = _choices_holder(self.doc, self.scenario, cpath, rnd)
        if not isinstance(holder, dict):
            return None
        raw = next((holder[k] for k in ANSWER_KEYS if k in holder), None) or {}
        value = raw.get(who)
        if isinstance(value, dict) and vs in value and not set(value) <= {"exhaust", "deny", "jizva", "sacrifice",
                                                                          "accept"}:
            value = value[vs]
        elif isinstance(value, dict) and not set(value) <= {"exhaust", "deny", "jizva", "sacrifice", "accept"}:
            return None
        if value is None:
            return None
        return _parse_answer(value, cpath + (who, vs))


def resume_at(loaded: Any, text: str, step_id: str, resolver: Callable[[Any], Callable[..., dict]],
              seed: int) -> tuple[Any, str, list]:
    """(the scenario shortened at `step_id`, its text, the redo entries of STEP and later).

    `resolver(loaded)` gives the `resolve(**kw)` of a session over `loaded` (the command line's
    rules options and seed). The shortened text is what the session's replay is written from.
    """
    from ruamel.yaml import YAML

    from ..api import LoadedScenario
    from ..scenario.load import load_text
    from ..scenario.models import build_scenario_model
    from ..scenario.validate import validate_model
    from .session import Session

    scenario = loaded.scenario
    ri, si = step_position(scenario, step_id)
    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.preserve_quotes = True
    original = yaml.load(text)
    doc = yaml.load(text)
    rounds = doc[_key(doc, scenario, "rounds")]
    for r in range(ri, len(rounds)):
        steps = rounds[r][_key(rounds[r], scenario.rounds[r], "steps")]
        for s in range(si if r == ri else 0, len(steps)):
            _strip(steps[s])
    extra = [int(x) for x in (doc.get(_key(doc, scenario, "extra_dice")) or [])]
    if _key(doc, scenario, "extra_dice") in doc:
        del doc[_key(doc, scenario, "extra_dice")]

    def load(doc_text: str) -> Any:
        data, source = load_text(doc_text, loaded.path)
        model = validate_model(build_scenario_model({}), data, source, loaded.path)
        return LoadedScenario(loaded.path, model, source, data)

    def dump(d: Any) -> str:
        out = io.StringIO()
        yaml.dump(d, out)
        return out.getvalue()

    probe_loaded = load(dump(doc))
    oracle = _Oracle(original, scenario, extra)
    probe = Session(probe_loaded, Table(None, io.StringIO()), seed, resolver(probe_loaded), oracle=oracle,
                    mark=step_id)
    probe.table.quiet = True
    probe.run()
    if probe.mark_at is None:
        return probe_loaded, dump(doc), []
    used_before = probe.extra_before
    if used_before:
        from ruamel.yaml.comments import CommentedSeq

        seq = CommentedSeq(extra[:used_before])
        seq.fa.set_flow_style()
        doc[_key(doc, scenario, "extra_dice")] = seq
    shortened = dump(doc)
    return load(shortened), shortened, probe.history[probe.mark_at:]


def open_rolls(loaded: Any, text: str) -> tuple[Any, str, int, list[str]]:
    """`drd play --reroll`: (the scenario with every roll of its rounds left open, its text, how many
    roll entries were taken out, notes for the GM). The file's `roll:`/`dice:`/`rolls:` (and Czech
    `hod`/`kostky`/`hody`) and its `extra_dice` go; its choices, notes and everything else stay. The
    file on disk is not touched: the replay is written from the returned text.

    A hero's written total needs no `bonus_from`, rolled dice do (R-ROLL-1): where an opened roll
    of a hero has none, the hero's only profession is used (else `none`), and a note says so."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.width = 4096
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.preserve_quotes = True
    doc = yaml.load(text)
    people = getattr(loaded.scenario, "participants", None) or {}
    removed, notes = [0], []

    from ..terms import profession_name

    def bonus(node: Any) -> None:
        person = people.get(node.get("actor")) if isinstance(node.get("actor"), str) else None
        if person is None or getattr(person, "pools", None) is None or "bonus_from" in node:
            return
        levels = list(getattr(person, "levels", None) or {})
        node["bonus_from"] = levels[0] if len(levels) == 1 else "none"
        name = person.name or node["actor"]
        notes.append(_("{name}: the file gives no `bonus_from` for this roll; it is rolled with the bonus of "
                       "{profession}, the only profession").format(name=name, profession=profession_name(levels[0]))
                     if len(levels) == 1 else
                     _("{name}: the file gives no `bonus_from` for this roll; it is rolled with no bonus "
                       "(`bonus_from: none`)").format(name=name))

    def strip(node: Any) -> None:
        if isinstance(node, dict):
            gone = [key for key in node if key in ROLL_KEYS]
            for key in gone:
                del node[key]
            removed[0] += len(gone)
            if gone:
                bonus(node)
            for value in node.values():
                strip(value)
        elif isinstance(node, list):
            for item in node:
                strip(item)

    strip(doc.get(_key(doc, loaded.scenario, "rounds")))
    extra = _key(doc, loaded.scenario, "extra_dice")
    if extra in doc:
        del doc[extra]
        removed[0] += 1
    out = io.StringIO()
    yaml.dump(doc, out)
    opened = out.getvalue()
    return _reload(loaded, opened), opened, removed[0], notes


def _reload(loaded: Any, text: str) -> Any:
    """`text` read and validated as `loaded`'s file (a campaign's characters expanded as
    drd_cli.api.load_scenario does)."""
    from ..api import LoadedScenario
    from ..scenario.load import load_text
    from ..scenario.models import build_scenario_model
    from ..scenario.references import expand, has_references
    from ..scenario.validate import validate_model

    data, source = load_text(text, loaded.path)
    campaign = expand(data, source, loaded.path) if has_references(data) else None
    model = validate_model(build_scenario_model({}), data, source, loaded.path)
    return LoadedScenario(loaded.path, model, source, data, campaign=campaign)
