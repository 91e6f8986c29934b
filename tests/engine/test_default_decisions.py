"""A loser's decision no `choices:` answer makes is decided by the default (SCENARIO-FORMAT §5), and
drd says so: the step's JSON lists it under `decisions` with `decided_by: default`, the transcript
says a default decided, and `drd check` names the step whose default may have made a difference."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from drd_cli.cli.app import app

SCENARIO = """\
format: drd/1
title: kousnutí
participants:
  jur: {{name: Jur, sudba: 6, ohrozeni: 1, levels: {{bojovnik: 1}}}}
  vlk: {{name: Vlk, sudba: 4, charakteristika: 1}}
rounds:
  - initiative: [vlk, jur]
    steps:
      - id: kousnuti
        contest:
          action: {{actor: vlk, targets: [jur], pool: telo, roll: 10, effect: {{condition: pokousán}}}}
          counters:
            - {{actor: jur, kind: harm, pool: telo, roll: 7, effect: {{ohrozeni: 1}}}}
{choices}expect:
  final:
    jur: {{conditions: []}}
"""


def write(tmp_path, choices=""):
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(choices=choices), encoding="utf-8")
    return str(path)


def test_the_json_says_a_default_decided(tmp_path):
    res = CliRunner().invoke(app, ["resolve", write(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    step = json.loads(res.stdout)["steps"][0]
    assert step["decisions"] == [{"who": "jur", "vs": "vlk", "answer": "accept", "decided_by": "default"}]


def test_a_written_answer_is_no_default(tmp_path):
    res = CliRunner().invoke(app, ["resolve", write(tmp_path, "        choices: {jur: exhaust}\n"), "--json"])
    assert res.exit_code == 0, res.output
    assert "decisions" not in json.loads(res.stdout)["steps"][0]


def test_the_transcript_says_a_default_decided(tmp_path):
    res = CliRunner().invoke(app, ["resolve", write(tmp_path)])
    assert "výchozí" in res.stdout and "Jur" in res.stdout
    res = CliRunner().invoke(app, ["resolve", write(tmp_path), "--lang", "en"])
    assert "the default decided" in res.stdout


def test_check_names_the_step_whose_default_made_the_difference(tmp_path):
    res = CliRunner().invoke(app, ["check", write(tmp_path)])
    assert res.exit_code == 1, res.output
    assert "kousnuti" in res.stdout and "choices" in res.stdout
    line = next(ln for ln in res.stdout.splitlines() if "kousnuti" in ln)
    assert ":9:" in line          # at the step in the file
