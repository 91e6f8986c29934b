"""Issue #13, item 2: group profiles are edited safely.

`drd rules enable|disable|set … --group G` is a read–modify–write under an exclusive lock
(concurrent edits lose nothing), replaces a symlinked profile's target atomically (the link stays),
and keeps comments and key order — also the comment lines after the last entry of a block.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from typer.testing import CliRunner

from drd_cli.cli.app import app

runner = CliRunner()


def drd(*args: str):
    return runner.invoke(app, [str(a) for a in args])


def _params(path: Path) -> dict:
    return dict(YAML(typ="safe").load(path.read_text(encoding="utf-8")).get("params") or {})


def _edit(path: str, key: str, value: str, barrier) -> None:     # runs in a forked process
    from drd_cli.cli.rules_cmd import edit_group

    barrier.wait()
    edit_group(path, "set", [key, value])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_twenty_concurrent_pairs_of_edits_lose_nothing(tmp_path):
    """Each pair: two processes released together, one sets `target`, the other `sacrifice_gain`;
    after every pair both values are the new ones (without the lock about half the pairs lost one)."""
    group = tmp_path / "g.yaml"
    group.write_text("name: g\n# house rules\nparams: {tie: counter}\n", encoding="utf-8")
    ctx = multiprocessing.get_context("fork")
    lost = []
    for i in range(20):
        barrier = ctx.Barrier(2)
        procs = [ctx.Process(target=_edit, args=(str(group), "target", str(10 + i), barrier)),
                 ctx.Process(target=_edit, args=(str(group), "sacrifice_gain", str(i), barrier))]
        for p in procs:
            p.start()
        for p in procs:
            p.join(60)
        assert [p.exitcode for p in procs] == [0, 0]
        params = _params(group)
        if params.get("target") != 10 + i or params.get("sacrifice_gain") != i:
            lost.append((i, params))
    assert not lost, lost
    text = group.read_text(encoding="utf-8")
    assert text.startswith("name: g\n# house rules\nparams: {tie: counter, ") and text.count("\n") == 3
    assert [n for n in os.listdir(tmp_path) if n.startswith(".drd-")] == []


def test_concurrent_cli_edits_of_one_profile_all_land(tmp_path, drd_script):
    """The same through the console script: 8 processes at once, each switching a different id."""
    import subprocess

    exe = drd_script
    group = tmp_path / "g.yaml"
    group.write_text("name: g\nenable: []\ndisable: []\n", encoding="utf-8")
    ids = ["kruhovy-sek", "dest-strel", "smrst-dyk", "pusobivy-recnik", "rodova-zbran", "padny-uder",
           "prostredi", "ukryvani"]
    procs = [subprocess.Popen([exe, "rules", "disable", pid, "--group", str(group)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE) for pid in ids]
    assert [p.wait(60) for p in procs] == [0] * len(ids)
    data = YAML(typ="safe").load(group.read_text(encoding="utf-8"))
    assert sorted(data["disable"]) == sorted(ids)


def test_editing_a_symlinked_profile_writes_the_shared_file_and_keeps_the_link(tmp_path, monkeypatch):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "spolecny.yaml").write_text("name: spolecny\n# remíza\nparams: {tie: counter}\n", encoding="utf-8")
    (tmp_path / "groups").mkdir()
    os.symlink(shared / "spolecny.yaml", tmp_path / "groups" / "s.yaml")
    monkeypatch.chdir(tmp_path)
    res = drd("rules", "set", "target", "8", "--group", "s")
    assert res.exit_code == 0, res.output
    assert os.path.islink(tmp_path / "groups" / "s.yaml")
    assert (shared / "spolecny.yaml").read_text(encoding="utf-8") == \
        "name: spolecny\n# remíza\nparams: {tie: counter, target: 8}\n"
    assert sorted(os.listdir(shared)) == ["spolecny.yaml"] and sorted(os.listdir(tmp_path / "groups")) == ["s.yaml"]


def test_comment_lines_after_the_last_parameter_stay_below_it(tmp_path):
    group = tmp_path / "h.yaml"
    group.write_text("name: h\nparams:\n  tie: counter # remíza\n# poslední poznámka\n"
                     "enable:\n- rozsahla-protiakce  # štít\n\n# za seznamem\nnotes: x\n", encoding="utf-8")
    assert drd("rules", "set", "target", "8", "--group", group).exit_code == 0
    assert drd("rules", "enable", "plosna-protiakce", "--group", group).exit_code == 0
    assert group.read_text(encoding="utf-8") == (
        "name: h\nparams:\n  tie: counter # remíza\n  target: 8\n# poslední poznámka\n"
        "enable:\n- rozsahla-protiakce  # štít\n- plosna-protiakce\n\n# za seznamem\nnotes: x\n")


def test_the_templates_params_comment_stays_on_its_line(tmp_path, monkeypatch):
    """`drd group new`'s `params: {}   # …` stays a one-line mapping with its comment after it."""
    monkeypatch.chdir(tmp_path)
    assert drd("group", "new", "g").exit_code == 0
    before = (tmp_path / "groups" / "g.yaml").read_text(encoding="utf-8").splitlines()
    assert drd("rules", "set", "tie", "counter", "--group", "g").exit_code == 0
    after = (tmp_path / "groups" / "g.yaml").read_text(encoding="utf-8").splitlines()
    assert len(after) == len(before)
    line = next(x for x in after if x.startswith("params:"))
    assert line.startswith("params: {tie: counter}") and line.split("#", 1)[1] == before[-1].split("#", 1)[1]


def test_a_tab_before_a_comment_is_edited_and_the_comments_kept(tmp_path, monkeypatch):
    """Every command reads `params: {}<TAB># x`; `drd rules set` edits it too (the tab becomes a
    space), keeping each comment on its line."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "groups").mkdir()
    profile = tmp_path / "groups" / "g.yaml"
    profile.write_text("name: g\t# the group\nparams: {}\t# x\nenable: []\t\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["rules", "set", "tie", "actor", "--group", "g"])
    assert res.exit_code == 0, res.output
    assert profile.read_text(encoding="utf-8") == "name: g # the group\nparams: {tie: actor} # x\nenable: []\n"
    res = CliRunner().invoke(app, ["rules", "enable", "kruhovy-sek", "--group", "g"])
    assert res.exit_code == 0, res.output
    assert "# the group" in profile.read_text(encoding="utf-8")
