"""file:line:col for engine errors in files written with the Czech key spellings (kola, kroky, tělo…).

The engine reports problems with the models' ASCII paths (`rounds/0/steps/1`); the source map has to
find the key the file really uses, or every such error would point at line 1.
"""

from __future__ import annotations

import textwrap

from typer.testing import CliRunner

from drd_cli.cli.app import app

SCENARIO = """\
format: drd/1
title: dvakrát z iniciativy
{participants}:
  a:
    pools: {{{telo}: 3, duse: 3, vliv: 3}}
    levels: {{bojovnik: 1}}
  b:
    sudba: 5
{rounds}:
  - initiative: [a, b]
    {steps}:
      - test: {{actor: a, pool: telo, roll: 10}}
      - test: {{actor: a, pool: telo, roll: 10}}
"""


def _run(tmp_path, name, **keys):
    path = tmp_path / name
    path.write_text(SCENARIO.format(**keys), encoding="utf-8")
    result = CliRunner().invoke(app, ["resolve", str(path)])
    return result.exit_code, result.output


def test_R_RND_1_error_in_a_czech_spelled_file_points_at_the_second_step(tmp_path):
    code, out = _run(tmp_path, "cz.yaml", participants="účastníci", rounds="kola", steps="kroky", telo="tělo")
    assert code == 1
    assert "cz.yaml:13:9" in out and "R-RND-1" in out


def test_czech_and_ascii_spellings_give_the_same_location(tmp_path):
    _, cz = _run(tmp_path, "s.yaml", participants="účastníci", rounds="kola", steps="kroky", telo="tělo")
    _, en = _run(tmp_path, "s.yaml", participants="participants", rounds="rounds", steps="steps", telo="telo")
    assert cz == en


def test_source_map_finds_a_czech_pool_key(tmp_path):
    from drd_cli.scenario import models  # noqa: F401 - registers the alias groups
    from drd_cli.scenario.load import load_document

    path = tmp_path / "p.yaml"
    path.write_text(textwrap.dedent("""\
        participants:
          a:
            pools: {tělo: 3, duše: 2, vliv: 1}
        """), encoding="utf-8")
    _, source = load_document(str(path))
    loc = source.locate(("participants", "a", "pools", "duse"))
    assert (loc.line, loc.col) == (3, 22)      # the `duše` key itself
