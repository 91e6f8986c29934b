"""The shortcuts behind the 5,000-step battle's speed (issue #14) keep the engine's behaviour."""

from __future__ import annotations

import copy
import gc

import pytest

from drd_cli.engine import run
from drd_cli.engine.state import PState, Working, initial_state
from drd_cli.gcpause import collector_paused
from drd_cli.scenario import models


def test_collector_paused_restores_and_hands_over_young_objects():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():             # nested: the outer one acts
            assert not gc.isenabled()
        assert not gc.isenabled()
        built = [[i] for i in range(1000)]
    assert gc.isenabled()
    # Handed to the oldest generation without a pass over it: nothing young is left of it.
    assert gc.get_count()[0] < 1000
    oldest = {id(x) for x in gc.get_objects(generation=2)}
    assert id(built) in oldest and id(built[500]) in oldest
    with pytest.raises(ValueError):
        with collector_paused():
            raise ValueError
    assert gc.isenabled()


def test_collector_paused_collects_cycles_later():
    class Node:
        pass

    with collector_paused():
        a, b = Node(), Node()
        a.other, b.other = b, a
        del a, b
    assert gc.collect() >= 2


def test_collector_paused_leaves_a_disabled_collector_disabled():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_collector_paused_leaves_frozen_objects_frozen():
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            [[] for _ in range(10)]
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


def test_maybe_present_drops_only_what_a_strict_model_cannot_have():
    keys = run._ID_KEYS + run._BY_ID_KEYS + run._NESTED_KEYS
    for cls in (models.ActionSpec, models.CounterSpec, models.TestSpec, models.ChallengeSpec, models.Step):
        kept = run._maybe_present(cls, keys)
        spec = cls.model_construct()
        for key in keys:
            assert (key in kept) == hasattr(spec, key), (cls.__name__, key)
    # Not a pydantic model, or one that takes extra keys: every key is kept.
    assert run._maybe_present(dict, keys) == keys
    assert run._maybe_present(models.AbilityRef, keys) == keys


def test_unknown_participants_are_still_found_everywhere():
    from drd_cli.errors import ScenarioError

    sc = models.Scenario.model_validate({
        "format": "drd/1",
        "participants": {"a": {"name": "A", "sudba": 3}, "b": {"name": "B", "sudba": 3}},
        "rounds": [{"steps": [
            {"contest": {"action": {"actor": "a", "pool": "telo", "targets": ["x"], "roll": 9},
                         "counters": [{"actor": "y", "pool": "telo", "roll": 5}]}},
            {"test": {"actor": "z", "pool": "telo", "roll": 9}},
        ]}]})
    with pytest.raises(ScenarioError) as err:
        run.check_references(sc)
    assert [p.path for p in err.value.problems] == [
        ("rounds", 0, "steps", 0, "contest", "action", "targets", 0),
        ("rounds", 0, "steps", 0, "contest", "counters", 0, "actor"),
        ("rounds", 0, "steps", 1, "test", "actor"),
    ]


def _state():
    sc = models.Scenario.model_validate({
        "format": "drd/1",
        "participants": {"h": {"name": "H", "pools": {"telo": 3, "duse": 2, "vliv": 1},
                               "equipment": [{"name": "štít", "free": "obrana"}], "conditions": ["unavený"],
                               "jizvy": ["jizva"], "levels": {"bojovnik": 2}}}})
    return initial_state(sc)


def test_a_participant_copy_shares_no_container_and_equals_the_old_copy():
    p = _state().participants["h"]
    new = p.__deepcopy__({})
    old = copy.copy(p)
    for key, value in p.__dict__.items():
        if isinstance(value, (list, dict, set)):
            old.__dict__[key] = value.copy()
    assert new == old and new.__dict__ == old.__dict__ and list(new.__dict__) == list(old.__dict__)
    assert new._item_abilities is p._item_abilities
    for key, value in p.__dict__.items():
        if isinstance(value, (list, dict, set)):
            assert new.__dict__[key] is not value, key
    new.pools["telo"] -= 1
    new.jizvy.append("další")
    assert p.pools["telo"] == 3 and p.jizvy == ["jizva"]


def test_working_copies_a_subclass_its_own_way():
    class Marked(PState):
        def __deepcopy__(self, memo):
            got = super().__deepcopy__(memo)
            got.marked = True
            return got

    state = _state()
    base = state.participants["h"]
    sub = Marked(**{k: v for k, v in base.__dict__.items() if k != "_item_abilities"})
    state.participants["h"] = sub
    w = Working(state)
    assert w["h"].marked and w["h"] is not sub and type(w["h"]) is Marked


def test_a_generated_battle_resolves_to_the_same_json_as_before(tmp_path):
    """bench_speed.py's battle generator (40 participants, 300 steps): the result's JSON text and
    digest as the engine gave them before the battle's speed work (a pinned fingerprint)."""
    import hashlib
    import sys
    from pathlib import Path

    from drd_cli import api
    from drd_cli.digest import digest
    from drd_cli.render.jsonout import dumps

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        from bench_speed import battle
    finally:
        sys.path.pop(0)
    loaded = api.load_scenario(str(battle(tmp_path, 300, 40)))
    result = api.resolve_scenario(loaded, release_document=True)
    result["digest"] = digest(result, loaded.digest_source())
    assert len(result["steps"]) == 300
    assert result["digest"] == "sha256:b8bda48539f4188ecac336ce8f5579227f6c31f3815cb1f2e377df41d1092aae"
    # Since then `titles` also names the rules switched on (for the transcript's heading); the
    # rest of the JSON is what it was.
    assert set(result["titles"]) == set(result["rules"]["enabled"])
    assert hashlib.sha256(dumps(result).encode()).hexdigest() == \
        "40af46f297207b655602cb1758f4a60ce30201a9fc6cb54e90a3f80ec407f240"
    del result["titles"]
    assert hashlib.sha256(dumps(result).encode()).hexdigest() == \
        "bc1af62dd3e41dad344aa8b7e283f5d0e1c1f040741db41430c0d45d02c80363"


@pytest.mark.parametrize("text", [
    "a: 1\nb: [x, 2.5, null, true]\n",
    "a: {b: 2026-01-01}\n",            # a date: not plain
    "1: one\n",                        # a number as a key
    "null: x\n",
    "true: x\n",
    "a: [1, {b: -3, c: .inf}]\n",
    "a: '2026-01-01'\nb: \"1\"\n",     # quoted: text
    "a: 0x1F\nb: 1_000\nc: 0o17\n",
    "b: ~\nc:\n",
    "a:\n  - 1.5e3\n  - +1\n  - .NaN\n",
])
def test_the_readers_plain_flag_is_already_plain(text):
    from drd_cli import digest
    from drd_cli.scenario import fastload
    from drd_cli.scenario.load import MAX_DEPTH, MAX_NODES, load_text

    out: list = []
    data = fastload.load_fast(text, MAX_NODES, MAX_DEPTH, positions=False, plain_out=out)
    assert out == [digest._already_plain(data)]
    loaded, source = load_text(text)
    assert source.plain_document == digest._already_plain(loaded)


def test_the_plain_flag_of_every_book_scenario_and_its_digest_bytes():
    import glob
    from pathlib import Path

    from drd_cli import digest
    from drd_cli.scenario.load import load_document

    root = Path(__file__).resolve().parents[2]
    for path in sorted(glob.glob(str(root / "scenarios" / "*.yaml"))):
        data, source = load_document(path)
        assert source.plain_document == (isinstance(data, dict) and digest._already_plain(data)), path
        assert digest.document_bytes(data, known_plain=source.plain_document) == digest.document_bytes(data), path


def test_consumed_states_give_the_same_result_and_observed_states_stay_as_they_were():
    """engine.run.resolve updates each step's state mapping in place only without an observer;
    with one (drd diff), every state it was shown stays as it was."""
    import sys
    from pathlib import Path

    from drd_cli.dice import SeededDice

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    try:
        from bench_scale import engine_setup, make_scenario
    finally:
        sys.path.pop(0)
    profile, hooks = engine_setup()
    sc = models.Scenario.model_validate(make_scenario(12, 60))
    plain = run.resolve(sc, profile, SeededDice(1), hooks, seed=1)
    seen = []
    observed = run.resolve(sc, profile, SeededDice(1), hooks, seed=1,
                           observe=lambda rec, state: seen.append((state, {pid: p.ohrozeni for pid, p in
                                                                           state.participants.items()})))
    assert observed == plain and len(seen) == 60
    for state, ohrozeni in seen:
        assert {pid: p.ohrozeni for pid, p in state.participants.items()} == ohrozeni
    assert len({id(state.participants) for state, _ in seen}) == 60


def test_a_consuming_commit_updates_the_base_mapping_and_a_plain_one_copies_it():
    state = _state()
    w = Working(state)
    w["h"].ohrozeni += 1
    copied = w.commit()
    assert copied.participants is not state.participants and state.participants["h"].ohrozeni == 0
    w = Working(state)
    w["h"].ohrozeni += 2
    consumed = w.commit(consume=True)
    assert consumed.participants is state.participants and consumed.participants["h"].ohrozeni == 2


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_each_step_worded_as_it_is_made_reads_as_the_result_worded_at_the_end(lang):
    """api.resolve_scenario words each step's log as soon as the engine makes it (a battle never
    holds every step's events): the same words as wording the finished result, with the
    participants the result names."""
    import glob
    from pathlib import Path

    from drd_cli import api
    from drd_cli.dice import SeededDice
    from drd_cli.engine.hooks import Hooks
    from drd_cli.errors import DrdError
    from drd_cli.i18n import using
    from drd_cli.wording import step_wording, word_result

    root = Path(__file__).resolve().parents[2]
    compared = 0
    with using(lang):
        for path in sorted(glob.glob(str(root / "scenarios" / "*.yaml"))):
            loaded = api.load_scenario(path)
            if loaded.system == "dakara":
                continue
            setup = api.setup_rules(loaded)
            seen: list = []
            word_step = step_wording()

            def each(record, participants, title):
                word_step(record, participants, title)
                seen.append((record, participants))
                assert all("event" not in entry for entry in record.get("log") or ())

            def hooks():
                return Hooks(setup.pm, setup.profile.enabled, params=setup.profile.params)

            try:
                at_the_end = word_result(run.resolve(loaded.scenario, setup.profile, SeededDice(5), hooks(), seed=5))
            except DrdError:
                continue
            as_made = run.resolve(loaded.scenario, setup.profile, SeededDice(5), hooks(), seed=5, each_record=each)
            assert word_result(copy.deepcopy(as_made)) == as_made == at_the_end, path
            assert len(seen) == len(as_made["steps"]) and all(p == as_made["participants"] for _, p in seen)
            compared += 1
    assert compared > 40
