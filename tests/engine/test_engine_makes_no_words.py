"""The engine makes no words (docs/architecture.md, "How to add a rule violation"): no `_()`,
`gettext()` or `ngettext()` call in drd_cli/engine/ — it records events (wording.py words them)
and raises refusals as `errors.Message` values (worded where they are shown)."""

from __future__ import annotations

import ast
import pickle
from pathlib import Path

from drd_cli.errors import Message, Problem, RuleViolation, ScenarioError
from drd_cli.i18n import N_, using
from drd_cli.wording import say

ENGINE = Path(__file__).resolve().parents[2] / "drd_cli" / "engine"
WORDING = {"_", "gettext", "ngettext"}

def _calls(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in WORDING:
                lines.append(node.lineno)
    return lines


def test_no_engine_file_calls_the_catalogs():
    found = {p.name: _calls(p) for p in sorted(ENGINE.glob("*.py"))}
    bad = {name: lines for name, lines in found.items() if lines}
    assert not bad, f"_()/ngettext() in the engine (raise a Message, record an event): {bad}"


def test_the_guard_sees_a_call_to_the_catalogs(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('from x import _, i18n\nA = _("a")\nB = i18n.ngettext("b", "bs", 2)\nC = N_("c")\n',
                      encoding="utf-8")
    assert _calls(sample) == [2, 3]


def test_a_refusal_keeps_its_words_as_data_and_reads_in_the_language_it_was_raised_in():
    with using("en"):
        exc = RuleViolation(Message(N_("{name} already acts in this contest"), name="Bořek"), rule="R-CONT",
                            hint=Message(N_("none")))
    with using("cs"):
        assert exc.format() == "Bořek already acts in this contest [R-CONT]\n  → none"
        assert str(exc) == exc.format()
        assert say(exc.problems[0].said) == "Bořek už v tomto střetu jedná"
        assert exc.problems[0].said.args == {"name": "Bořek"}


def test_nested_messages_plurals_and_a_plugins_note():
    inner = Message.plural("{n} Surovina", "{n} Suroviny", 5, n=5)
    outer = Message(N_("{name} has no profession {profession} (has: {has})"), name="Zira", profession="'x'",
                    has=inner).followed_by("a note")
    with using("en"):
        assert str(outer) == "Zira has no profession 'x' (has: 5 Suroviny) — a note"
        assert f"{Message(N_('jizva: is {{name, pool, gain, tags}}'))}" == "jizva: is {name, pool, gain, tags}"


def test_a_refusal_survives_pickling_and_plain_text_stays_as_it_is():
    with using("en"):
        exc = ScenarioError(Message(N_("a die shows 1 to 6, not {value}"), value=7), rule="R-ROLL-2")
    copy = pickle.loads(pickle.dumps(exc))
    assert copy.problems[0].said == exc.problems[0].said and copy.exit_code == 2
    with using("cs"):
        assert copy.problems[0].message == "a die shows 1 to 6, not 7"
    assert Problem("plain").message == "plain" and Problem("plain").lang is None
