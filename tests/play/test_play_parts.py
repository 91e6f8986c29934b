"""The parts of `drd play` each on their own (issue #15 item 5): reading what is typed, the
previews of a decision, the decision dialog, and the replay writer — no session loop involved."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drd_cli.api import load_scenario
from drd_cli.engine.context import Answer
from drd_cli.errors import RuleViolation
from drd_cli.play.offers import Offers
from drd_cli.play.previews import Preview, Previewer, describe, reason
from drd_cli.play.reading import Table, parse_roll
from drd_cli.play.replay import place_of, replay_text

from tests.play.test_play import SKELETON

# ----------------------------------------------------------------------------- reading


@given(st.integers(2, 3).flatmap(lambda n: st.lists(st.integers(1, 6), min_size=n, max_size=n)),
       st.integers(-2, 6))
def test_any_dice_that_can_be_rolled_are_read_as_they_are(dice, bonus):
    assert parse_roll(" ".join(map(str, dice)), len(dice), bonus, True) == (dice, None)
    assert parse_roll(",".join(map(str, dice)), len(dice), bonus, False) == (dice, None)


@given(st.integers(-2, 6), st.integers(-5, 25))
def test_a_total_is_read_exactly_when_it_can_be_rolled(bonus, total):
    value, error = parse_roll(str(total), 2, bonus, True) if total >= 0 else (None, "negative")
    if 2 + bonus <= total <= 12 + bonus:
        assert (value, error) == (total, None)
    else:
        assert value is None and error


@given(st.integers(1, 6), st.integers(1, 6))
def test_a_total_is_refused_where_it_cannot_be_written(a, b):
    value, error = parse_roll(str(a + b), 2, 0, False)
    assert value is None and "ne součet" in error


def test_table_reads_lines_says_nothing_while_quiet_and_ends_with_eof():
    out = io.StringIO()
    table = Table(io.StringIO("4 3\r\n"), out)
    assert table.ask("? ") == "4 3"
    table.quiet = True
    table.say("hidden")
    table.quiet = False
    table.say("shown")
    with pytest.raises(EOFError):
        table.ask("? ")
    assert out.getvalue() == "? shown\n? "


# ----------------------------------------------------------------------------- previews

def _previewer(tmp_path):
    path = tmp_path / "hanus.yaml"
    path.write_text(SKELETON, encoding="utf-8")
    loaded = load_scenario(str(path))
    from drd_cli.api import resolve_scenario

    return Previewer(lambda **kw: resolve_scenario(loaded, seed=5, **kw))


# Hanuš 4 3 (+3 = 10), the ogres 12, 11 and 7: he loses to the first two (CS-SEQ-1).
CALLS = [[4, 3], [6, 6], 11, [4, 3]]


def test_previewer_reads_the_engines_price_of_an_option(tmp_path):
    """R-EXH-1: against the eldest ogre exhausting costs Ohrožení 3; after that (CS-SEQ-1) the next
    costs the raised Ohrožení 4 — both read from the engine's own run, not computed here."""
    pv = _previewer(tmp_path)
    base = pv.run(CALLS, [], None)
    assert base[1] is None and base[0]["exhaustions"] == []
    first = pv.preview(CALLS, [], "hanus", "stary", Answer(exhaust=True), base)
    assert [(e["cost"], e["ohrozeni"], e["protected"]) for e in first.entries] == [(3, [3, 4], ["hanus"])]
    answered = [Answer(exhaust=True)]
    base2 = pv.run(CALLS, answered, None)
    second = pv.preview(CALLS, answered, "hanus", "prostredni", Answer(exhaust=True), base2)
    assert second.error is not None and second.error.problems[0].rule == "R-EXH-4"   # 1 Tělo left
    jizva = Answer(exhaust=True, jizva={"name": "Pád", "gain": 3})
    third = pv.preview(CALLS, answered, "hanus", "prostredni", jizva, base2)
    assert [(e["cost"], e["ohrozeni"]) for e in third.entries] == [(4, [4, 5])]


def test_describe_and_reason_say_the_engines_numbers():
    entry = {"by": "a", "vs": "b", "pool": "telo", "cost": 3, "protected": ["a"], "denied": None,
             "ohrozeni": [3, 4], "gained": {"jizva": {"name": "Pád", "gain": 3}, "sacrifice": None}}
    assert describe(Preview([entry], None), None) == "3 Tělo, Ohrožení 3→4; chrání: a; Jizva „Pád“ (+3)"
    short = RuleViolation("x", rule="R-EXH-4", data={"cost": 4, "pool": "telo", "have": 1, "missing": 3})
    assert reason(short) == "nemá dost: stojí 4 Tělo, má 1, chybí 3 [R-EXH-4]"
    assert reason(RuleViolation("no way", rule="CS-FOR-2")) == "no way [CS-FOR-2]"


# ----------------------------------------------------------------------------- offers

class _FakePreviewer:
    """Prices from a table, so the dialog is tested without the engine."""

    def __init__(self, prices: dict):
        self.prices = prices
        self.asked: list = []

    def run(self, calls, answers, candidate):
        return {"exhaustions": []}, None

    def preview(self, calls, answers, who, vs, candidate, base):
        self.asked.append(candidate)
        key = "deny" if candidate.deny else "exhaust"
        return Preview(self.prices.get(key, []), None)


def _offers(lines: list[str], prices: dict):
    out = io.StringIO()
    table = Table(io.StringIO("".join(x + "\n" for x in lines)), out)
    session = SimpleNamespace(table=table, seen=None, previewer=_FakePreviewer(prices),
                              dice=SimpleNamespace(calls=[]), answers=[], ask=lambda prompt, taken=(): table.ask(prompt))
    return Offers(session), out


ENTRY = {"by": "a", "vs": "b", "pool": "telo", "cost": 2, "protected": ["a"], "denied": None,
         "ohrozeni": [2, 3], "gained": {}}


def test_offers_lists_the_priced_options_and_returns_the_answer_chosen():
    offers, out = _offers(["x", "v"], {"exhaust": [ENTRY]})
    assert offers.offer("a", "b") == Answer(exhaust=True)
    text = out.getvalue()
    assert "[v] vyčerpat se (R-EXH): 2 Tělo, Ohrožení 2→3; chrání: a" in text
    assert "✗ napište jedno z: p/v/j" in text and "→ 2 Tělo" in text


def test_offers_asks_nothing_where_nothing_is_at_stake():
    offers, out = _offers([], {})
    assert offers.offer("a", "b") is None
    assert out.getvalue() == ""


def test_offers_jizva_asks_name_and_points():
    offers, _ = _offers(["j", "Pád", "0", "3"], {"exhaust": [ENTRY]})
    assert offers.offer("a", "b") == Answer(exhaust=True, jizva={"name": "Pád", "gain": 3})


# ----------------------------------------------------------------------------- the replay

def test_replay_text_puts_each_entry_where_the_format_has_a_place(tmp_path):
    path = tmp_path / "hanus.yaml"
    path.write_text(SKELETON, encoding="utf-8")
    scenario = load_scenario(str(path)).scenario
    action = ("rounds", 0, "steps", 0, "contest", "action")
    counter = ("rounds", 0, "steps", 0, "contest", "counters", 1)
    assert place_of(scenario, action, "hanus") == ("direct", action, "hanus")
    assert place_of(scenario, ("environment", 0), "hanus") is None
    places = [place_of(scenario, action, "hanus"), place_of(scenario, counter, "prostredni"), None]
    decided = [(("rounds", 0, "steps", 0, "choices"), "hanus", "stary", Answer(exhaust=True), 1)]
    text = replay_text(scenario, SKELETON, places, [[4, 3], 11, [2, 2]], decided, 7)
    assert "dice: [4, 3]" in text and "roll: 11" in text and "extra_dice: [2, 2]" in text
    assert "seed: 7" in text and "hanus: {stary: exhaust}" in text
    assert "# Komentář, který má replay zachovat." in text
    again = tmp_path / "again.yaml"
    again.write_text(text, encoding="utf-8")
    model = load_scenario(str(again)).scenario
    assert model.rounds[0].steps[0].contest.action.dice == [4, 3] and model.extra_dice == [2, 2]


# ----------------------------------------------------------------------------- resuming at a step

def test_resume_at_takes_the_step_out_and_returns_its_entries_for_redo(tmp_path):
    """`--from utek` on a played replay: no roll or answer of the step stays in the text, and the
    entries kept for redo are the step's own, in the order the questions come."""
    from drd_cli.api import resolve_scenario
    from drd_cli.play.resume import resume_at

    from tests.play.test_play import BOOK_INPUT, play, write

    assert play(write(tmp_path), BOOK_INPUT).exit_code == 0
    replay = tmp_path / "hanus.replay.yaml"
    text = replay.read_text(encoding="utf-8")
    loaded = load_scenario(str(replay))
    short, short_text, redo = resume_at(
        loaded, text, "utek", lambda scen: (lambda **kw: resolve_scenario(scen, seed=5, **kw)), 5)
    assert "dice:" not in short_text and "roll:" not in short_text and "choices" not in short_text
    assert "# Komentář, který má replay zachovat." in short_text
    assert short.scenario.rounds[0].steps[0].contest.action.dice is None
    assert [e.value for e in redo if e.kind == "roll"] == [[4, 3], [6, 6], 11, [4, 3]]
    answers = [e.value for e in redo if e.kind == "answer" and e.value is not None]
    assert answers[0].jizva == {"name": "Pád z výšky", "gain": 3} or answers[0].jizva["name"] == "Pád z výšky"
    assert answers[1].exhaust and not answers[1].jizva


def test_undo_words_give_way_to_a_decisions_own_keys():
    """`u` denies and `z` exhausts for others at a decision that offers them; undo is then the other
    letter, or the word `zpět`/`undo`, which always works (docs/play.md)."""
    from drd_cli.play.reading import control_word, undo_key

    assert control_word("z") == control_word(" U ") == "undo" and control_word("r") == "redo"
    assert control_word("?") == "explain" and control_word("4 3") is None and control_word("") is None
    assert control_word("u", taken=("p", "v", "u")) is None and control_word("z", taken=("p", "v", "u")) == "undo"
    assert undo_key(("p", "v", "u")) == "z" and undo_key(("p", "z")) == "u"
    both = ("p", "v", "u", "z")
    assert control_word("z", both) is None and control_word("u", both) is None
    assert undo_key(both) == "zpět" and control_word("zpět", both) == control_word("undo", both) == "undo"
    assert control_word("znovu", both) == "redo"
