"""`drd explain FILE [STEP]` and `?` in `drd play` (issue #15 item 3): every number of a step in
words with rule ids, read from the result's own breakdowns — never computed again."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.play.explain import explain_exhaustion, explain_roll, explain_step

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
HANUS = str(ROOT / "scenarios" / "hanus-utek.yaml")
BOOK = sorted(p for p in (ROOT / "scenarios").glob("*.yaml") if not p.name.startswith("dakara"))


def name(pid):
    return {"hanus": "Mistr Hanuš", "stary": "Nejstarší zlobr", "ulrich": "Ulrich"}.get(pid, str(pid))


def test_explain_the_book_escape_of_hanus_3_then_4():
    """CS-SEQ-1 / R-EXH-1: the first exhaustion costs Ohrožení 3, the second 4 because the first raised
    it (R-EXH-2); the totals from the file are totals (R-ROLL-2); the pairs by R-ORDER."""
    res = runner.invoke(app, ["explain", HANUS, "utek"])
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert out.startswith("útěk · kolo 1 · střet\n")    # the step as the transcript heads it, not its id
    assert "Nejstarší zlobr: 13, součet (ze souboru) — kostky ani bonus k němu nejsou známy (R-ROLL-2)" in out
    assert "Pořadí (R-ORDER): od nejvyššího hodu dolů — Nejstarší zlobr 13, Prostřední zlobr 11, Mistr Hanuš 10" in out
    assert "Dvojice 1: Mistr Hanuš 10 ✗ Nejstarší zlobr 13 — vyhrává Nejstarší zlobr (R-CONT)" in out
    first, second = out.split("Mistr Hanuš se vyčerpává (proti:")[1:3]
    assert "cena = Ohrožení 3 (R-EXH-1)" in first and "Ohrožení 3→4" in first
    assert "placeno Jizvou „Pád z výšky“: nejdřív přidá 3 do zdroje (R-EXH-4)" in first
    assert "seed" not in out                                  # every roll is in the file
    assert "Ohrožení je už 4: zvýšilo ho dřívější vyčerpání v tomto kroku (proti: Nejstarší zlobr; CS-SEQ-1)" \
        in second
    assert "cena = Ohrožení 4 (R-EXH-1)" in second


def test_explain_in_english_and_every_step_without_step_argument():
    res = runner.invoke(app, ["explain", HANUS, "--lang", "en"])
    assert res.exit_code == 0, res.output
    assert "útěk · round 1 · contest" in res.stdout
    assert "cost = its Ohrožení 3 (R-EXH-1)" in res.stdout
    assert "already raised by its exhaustion against Nejstarší zlobr earlier in this step (CS-SEQ-1)" in res.stdout


def test_explain_an_unknown_step_or_a_bad_file_is_exit_2():
    res = runner.invoke(app, ["explain", HANUS, "nikde"])
    assert res.exit_code == 2 and "nemá krok nikde" in res.output and "utek" in res.output
    res = runner.invoke(app, ["explain", str(ROOT / "scenarios" / "dakara-kapsar.yaml")])
    assert res.exit_code == 2 and "Traceback" not in res.output


def test_a_roll_with_dice_bonus_and_modifiers():
    """SCENARIO-FORMAT §7: total = dice + bonus + the modifiers, each named by its source."""
    roll = {"total": 12, "dice": [4, 3], "bonus": 3, "source": "entered",
            "modifiers": [{"source": "presne", "amount": 1}, {"source": "luk", "amount": 1}]}
    (line,) = explain_roll("hanus", roll, name)
    assert line == ("Mistr Hanuš: 12 = kostky 4 + 3, bonus +3 (úroveň povolání nebo charakteristika, R-ROLL-1), "
                    "+1 přesně (R-ROLL-3), +1 luk (zadáno u stolu)")
    (three,) = explain_roll("hanus", {"total": 11, "dice": [6, 2, 5], "bonus": 0, "source": "seeded"}, name)
    assert "kostky 6 + 5 (dvě nejlepší z 6, 2, 5" in three and "hodil drd ze semínka" in three


BREAKDOWN = {"by": "ulrich", "vs": "stary", "pool": "telo", "cost": 7, "protected": ["ulrich", "hanus"],
             "denied": None, "ohrozeni": [4, 5], "gained": {"jizva": None, "sacrifice": None},
             "breakdown": [
                 {"protected": "ulrich", "ohrozeni": 4, "armour": [{"source": "kroužková košile", "amount": -1}],
                  "mocne": 1, "adjustments": [], "cost": 4},
                 {"protected": "hanus", "ohrozeni": 4, "armour": [], "mocne": 0,
                  "adjustments": [{"source": "stit-predku", "amount": -1}], "cost": 3}]}


def test_an_exhaustion_with_a_breakdown_per_protected_participant():
    """R-EXH-1 Ohrožení, R-EXH-3 armour by item, mocně, a plugin's adjustment; CS-FOR-2 adds them up."""
    lines = explain_exhaustion(BREAKDOWN, name)
    assert lines[0] == "Ulrich se vyčerpává (proti: Nejstarší zlobr): 7 Tělo"
    assert "  Ulrich: Ohrožení 4 (R-EXH-1), -1 zbroj: kroužková košile (R-EXH-3), +1 mocně = 4" in lines
    assert "  Mistr Hanuš: Ohrožení 4 (R-EXH-1), -1 stit-predku = 3" in lines
    assert "  platí se za každého chráněného zvlášť a sečte se (CS-FOR-2): 7" in lines
    assert any("(za druhé, CS-FOR-1/2)" in line for line in lines)


def test_without_a_breakdown_the_rule_is_said_not_recomputed():
    """A cost that is not the Ohrožení (armour, a plugin) is reported as given, with the reason it may differ."""
    e = dict(BREAKDOWN, cost=3, protected=["ulrich"])
    del e["breakdown"]
    lines = explain_exhaustion(e, name)
    assert any("cena 3 = Ohrožení 4 upravené zbrojí, mocně nebo pluginem" in line for line in lines)
    e = dict(e, cost=8, protected=["ulrich", "hanus"])
    assert any("cena = Ohrožení 4 za každého z 2 chráněných (R-EXH-1, CS-FOR-2)" in line
               for line in explain_exhaustion(e, name))


def test_manoeuvres_and_ignored_answers():
    step = {"id": "t", "round": 1, "kind": "test", "rolls": {}, "order": [],
            "manoeuvres": [{"by": "ulrich", "name": "presne", "paid": "free", "cost": 0, "via": "luk"},
                           {"by": "ulrich", "name": "mocne", "paid": "telo", "cost": 1, "via": None},
                           {"by": "hanus", "name": "obrana", "paid": "vyhoda", "cost": 1, "via": None}],
            "exhaustions": [],
            "log": [{"rule": "SCENARIO-FORMAT §5", "text": "Volba mladsi proti hanus: nic, ignorována"},
                    {"rule": "CS-MULTI-4", "text": "jiné"}]}
    lines = explain_step(step, name)
    assert "  Ulrich: přesně — zdarma (luk; R-MAN-2)" in lines
    assert "  Ulrich: mocně — stojí 1 Tělo (R-MAN-2)" in lines
    assert "  Mistr Hanuš: obrana — placeno Výhodou (R-MAN-2)" in lines
    assert "  Volba mladsi proti hanus: nic, ignorována (SCENARIO-FORMAT §5)" in lines
    assert not any("jiné" in line for line in lines)


COSTS = st.integers(0, 12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.fixed_dictionaries({
    "by": st.sampled_from(["hanus", "ulrich"]), "vs": st.sampled_from(["stary", "test"]),
    "pool": st.sampled_from(["telo", "duse", "vliv", "sudba"]), "cost": COSTS,
    "protected": st.lists(st.sampled_from(["hanus", "ulrich"]), max_size=2, unique=True),
    "denied": st.none() | st.just("stary"), "ohrozeni": st.tuples(COSTS, COSTS).map(list),
    "gained": st.just({"jizva": None, "sacrifice": None})}), max_size=4))
def test_every_exhaustion_is_explained_with_its_own_cost(exhaustions):
    """Invariant: whatever the result says, each exhaustion's explanation starts with that cost and
    the Ohrožení it gives — the numbers come from the result, none is made up."""
    step = {"id": "s", "round": 1, "kind": "contest", "rolls": {}, "exhaustions": exhaustions, "log": []}
    lines = explain_step(step, name)
    heads = [line for line in lines if " se vyčerpává (proti: " in line]
    assert len(heads) == len(exhaustions)
    for head, e in zip(heads, exhaustions):
        assert head.strip().endswith(f": {e['cost']} " + {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv",
                                                           "sudba": "Sudba"}[e["pool"]])
    text = "\n".join(lines)
    for e in exhaustions:
        assert f"Ohrožení {e['ohrozeni'][0]}→{e['ohrozeni'][1]}" in text


@pytest.mark.parametrize("src", BOOK, ids=lambda p: p.stem)
def test_every_book_scenario_is_explained(src):
    res = runner.invoke(app, ["explain", str(src)])
    assert res.exit_code in (0, 1), res.output
    assert "Traceback" not in res.output and "vnitřní chyba" not in res.output
    if res.exit_code == 0:
        assert " · kolo 1 · " in res.stdout


def test_why_at_a_decision_in_english_through_the_runner(tmp_path):
    """`?` is not an answer: the explanation is printed and the same question asked again."""
    from tests.play.test_play import BOOK_INPUT, SKELETON

    path = tmp_path / "hanus.yaml"
    path.write_text(SKELETON, encoding="utf-8")
    lines = BOOK_INPUT[:4] + ["?"] + BOOK_INPUT[4:]
    res = runner.invoke(app, ["play", str(path), "--seed", "5", "--lang", "en", "--json"],
                        input="\n".join(lines) + "\n")
    assert res.exit_code == 0, res.output
    assert "(z = undo, ? = why) Choice [p/v/j/o, Enter = p]: " in res.output
    assert "Step “útěk” so far:" in res.output and "[v] would be:" in res.output
    assert "cost = its Ohrožení 3 (R-EXH-1)" in res.output
    import json

    assert [e["cost"] for e in json.loads(res.stdout)["steps"][0]["exhaustions"]] == [3, 4]


def test_the_outcome_quotes_the_engine_and_says_a_success_was_bought():
    """R-TEST: the engine's own sentence (with the target) and, when the actor exhausted against the
    test, that the success was bought (R-EXH-1)."""
    step = {"id": "splh", "round": 1, "kind": "test",
            "rolls": {"hanus": {"total": 7, "dice": [2, 2], "bonus": 3, "source": "given"}},
            "order": ["hanus"], "actions": {"hanus": {"success": True, "affected": []}},
            "exhaustions": [{"by": "hanus", "vs": "test", "pool": "telo", "cost": 3, "protected": ["hanus"],
                             "denied": None, "ohrozeni": [3, 4], "gained": {}}],
            "log": [{"rule": "R-TEST", "text": "Mistr Hanuš: 7 < 9 — NEÚSPĚCH"}]}
    lines = explain_step(step, name)
    assert "  Mistr Hanuš: 7 < 9 — NEÚSPĚCH (R-TEST)" in lines
    assert "  Mistr Hanuš: úspěch — vykoupený vyčerpáním proti zkoušce (R-EXH-1)" in lines
    assert not any("Pořadí" in line for line in lines)          # one roll: no order to explain
    assert any("se vyčerpává (proti:" in line and line.endswith(": 3 Tělo") for line in lines)
