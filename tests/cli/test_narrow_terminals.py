"""Narrow terminals lose nothing (issue #12, item 9): at `COLUMNS=20..60` every value of every
table is still shown — a table that does not fit is stacked as `Header: value` lines, never cut
to "…" — in the transcript, and in the odds, simulate, diff and Dakara tables."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
WIDTHS = list(range(20, 61, 5))
FILES = ["hanus-utek.yaml", "vlkava-rabiati-ctibor-vyssi.yaml", "zlatka-zaves.yaml", "dakara-pomocnici.yaml"]


def run(width: int, *args: str) -> str:
    res = CliRunner().invoke(app, list(args), env={"COLUMNS": str(width), "NO_COLOR": "1"})
    assert res.exit_code == 0, res.output
    return res.stdout


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _values(result: dict) -> list[str]:
    """What the transcript's tables must show: each roll's total and each participant's numbers."""
    out = []
    for step in result["steps"]:
        for roll in step.get("rolls", {}).values():
            out.append(str(roll["total"]))
    for pid, state in result["final"].items():
        name = (result.get("participants") or {}).get(pid, {}).get("name") or pid
        out.append(name)
        for key in ("ohrozeni", "vyhody", "injury"):
            if key in state:
                out.append(str(state[key]))
        out.extend(str(j) for j in state.get("jizvy", []))
    return out


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("width", WIDTHS)
def test_the_transcript_keeps_every_value(name, width):
    path = str(ROOT / "scenarios" / name)
    result = json.loads(run(100, "resolve", path, "--json"))
    text = run(width, "resolve", path)
    # the file's notes may quote with "…" themselves; nothing else may be cut
    assert text.count("…") == str(result.get("notes") or "").count("…")
    flat = squeezed(text)
    for value in _values(result):
        assert squeezed(value) in flat, (width, value)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("args", [
    ["dakara", "test", "--skill", "3", "--difficulty", "4"],
    ["simulate", str(ROOT / "scenarios" / "hanus-utek.yaml"), "-n", "20"],
    ["diff", str(ROOT / "scenarios" / "vlkava-rabiati-ctibor-vyssi.yaml"), "--set", "tie=counter", "--seed", "3"],
    ["odds", "test", "--bonus", "2"],
], ids=lambda a: a[0] + (" " + a[1] if a[0] in ("dakara", "odds") else ""))
def test_command_tables_are_never_cut(args, width):
    wide, narrow = run(200, *args), run(width, *args)
    assert "…" not in narrow
    # every number of the wide output is still there
    assert sorted(re.findall(r"\d+(?:[,.]\d+)?", wide)) == sorted(re.findall(r"\d+(?:[,.]\d+)?", narrow))
