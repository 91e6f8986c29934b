"""A total written in the file (`roll:`, `rolls:`) must be one 2k6 plus the roll's bonus can make
(R-ROLL-2): anything else is exit 2 at the value, naming the possible range, unless the action
keeps it on purpose with `roll_beyond_dice: true` (docs/scenario-format.md §4.1)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

SCENARIO = """\
format: drd/1
title: hod mimo kostky
participants:
  jur: {{name: Jur, sudba: 6, levels: {{bojovnik: 2}}}}
  vlk: {{name: Vlk, sudba: 4, charakteristika: 1}}
rounds:
  - initiative: [jur, vlk]
    steps:
      - id: utok
        contest:
          action: {{actor: vlk, targets: [jur], pool: telo, roll: {roll}{extra}, effect: {{ohrozeni: 1}}}}
          counters:
            - {{actor: jur, kind: harm, pool: telo, bonus_from: bojovnik, roll: 8}}
"""


def resolve(tmp_path, roll, extra=""):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(roll=roll, extra=extra), encoding="utf-8")
    return CliRunner().invoke(app, ["resolve", str(path)])


@pytest.mark.parametrize("roll", [0, -3, 2, 14, 99])
def test_a_total_two_dice_and_the_bonus_cannot_make_is_refused_at_the_value(tmp_path, roll):
    res = resolve(tmp_path, roll)
    assert res.exit_code == 2, res.output
    assert ":11:" in res.output                   # the line of the roll
    assert "3" in res.output and "13" in res.output    # 2k6 + 1: 3 to 13
    assert "R-ROLL-2" in res.output
    assert "Traceback" not in res.output


@pytest.mark.parametrize("roll", [3, 13])
def test_the_ends_of_the_range_are_accepted(tmp_path, roll):
    assert resolve(tmp_path, roll).exit_code == 0


@pytest.mark.parametrize("key", ["roll_beyond_dice", "hod_mimo_kostky"])
def test_an_explicit_key_keeps_a_total_beyond_the_dice(tmp_path, key):
    res = resolve(tmp_path, 17, extra=f", {key}: true")
    assert res.exit_code == 0, res.output


def test_several_actors_totals_are_checked_too(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text("""\
format: drd/1
participants:
  a: {name: A, sudba: 4, charakteristika: 0}
  b: {name: B, sudba: 4, charakteristika: 0}
rounds:
  - steps:
      - test: {actors: [a, b], pool: telo, rolls: {a: 7, b: 13}}
""", encoding="utf-8")
    res = CliRunner().invoke(app, ["resolve", str(path)])
    assert res.exit_code == 2, res.output
    assert "2" in res.output and "12" in res.output
