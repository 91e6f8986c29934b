"""`drd play` offers only what a rule allows: an exhaustion a plugin forbids (drd_may_exhaust, plugin
API 3) is not offered, and the table is told why."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from drd_cli.cli.app import app

PLUGIN = '''\
from drd_cli.plugin import hookimpl


@hookimpl
def drd_plugin_info():
    return {"title": "Jen jednou", "kind": "house rule", "api_version": 3}


@hookimpl
def drd_may_exhaust(payer, history):
    if history.conflict.exhaustions:
        return {"allow": False, "note": "jen jednou za konflikt"}
    return None
'''

SCENARIO = """\
format: drd/1
participants:
  jarik: {pools: {telo: 5, duse: 4, vliv: 3}, ohrozeni: 1}
rounds:
  - steps:
      - {id: prvni, test: {actor: jarik, label: šplh, pool: telo, bonus_from: none}}
  - steps:
      - {id: druhy, test: {actor: jarik, label: šplh, pool: telo, bonus_from: none}}
"""


def test_a_forbidden_exhaustion_is_not_offered_and_the_reason_is_said(tmp_path: Path):
    folder = tmp_path / "pluginy"
    folder.mkdir()
    (folder / "jen_jednou.py").write_text(PLUGIN, encoding="utf-8")
    path = tmp_path / "splh.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    res = CliRunner().invoke(app, ["play", str(path), "--seed", "5", "--json", "--no-replay"],
                             input="2 1\nv\n2 1\n", env={"COLUMNS": "250", "DRD_PLUGINS_DIR": str(folder)})
    assert res.exit_code == 0, res.output
    assert "jen jednou za konflikt" in res.output
    result = json.loads(res.stdout)
    assert [len(s["exhaustions"]) for s in result["steps"]] == [1, 0]
