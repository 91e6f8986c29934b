"""A transcript of a campaign's conflict still `--verify`s after its characters changed, in every
format, from the snapshot store (`kronika/snimky/`): the footer names the snapshot, the store keeps it
by its hash; a tampered transcript still fails and a missing snapshot is a clear message."""

from __future__ import annotations

import json
import re

import pytest

from campaign_support import FIXTURES, drd, new_campaign, ok, write

SCENARIO = """\
format: drd/1
title: Sliz
participants:
  ctibor: {postava: ctibor-z-lesa, ohrozeni: 1}
  slizoun: {bestie: bahenni-slizoun}
rounds:
  - initiative: [slizoun, ctibor]
    steps:
      - id: sliz
        contest:
          action: {actor: slizoun, pool: telo, targets: [ctibor]}
          counters: [{actor: ctibor, kind: harm, pool: telo, bonus_from: none}]
        choices: {ctibor: exhaust}
"""


STORED_AFTER_RESOLVES: list[str] = []


@pytest.fixture(scope="module")
def resolved(tmp_path_factory):
    """A campaign whose conflict was resolved into a text, a Markdown and an English HTML transcript
    (seeded dice), and whose character changed afterwards."""
    root = new_campaign(tmp_path_factory.mktemp("verify"))
    ok("import", "roll20", str(FIXTURES / "roll20-ctibor.json"), cwd=root)
    ok("import", "ikaros", str(FIXTURES / "ikaros-slizoun.json"), "--bestie", cwd=root)
    write(root / "konflikty" / "sliz.yaml", SCENARIO)
    for name, extra in (("t.txt", ()), ("t.md", ()), ("t.html", ("--lang", "en")), ("t.json", ())):
        ok("resolve", "konflikty/sliz.yaml", "--seed", "7", "-o", name, *extra, cwd=root)
    STORED_AFTER_RESOLVES[:] = _snapshot_files(root)
    ok("postava", "uprav", "ctibor-z-lesa", "telo=-1", "duse=-1", "--duvod", "pád z koně", cwd=root)
    return root


def _snapshot_files(root):
    return sorted(p.name for p in (root / "kronika" / "snimky").glob("*.json"))


def test_a_resolve_stores_its_snapshot_once_by_its_hash(resolved):
    result = json.loads((resolved / "t.json").read_text(encoding="utf-8"))
    snapshot = result["campaign"]["snapshot"]
    assert snapshot.startswith("sha256:")
    # Four resolves of one start state: one file, named by the hash the result records.
    assert STORED_AFTER_RESOLVES == [snapshot.removeprefix("sha256:") + ".json"]
    stored = json.loads((resolved / "kronika" / "snimky" / (snapshot.removeprefix("sha256:") + ".json")).read_text(
        encoding="utf-8"))
    assert stored["start"] == result["campaign"]["start"]


@pytest.mark.parametrize("name,word", [("t.txt", "snímek"), ("t.md", "snímek"), ("t.html", "snapshot")])
def test_every_transcript_format_names_the_snapshot_in_its_footer(resolved, name, word):
    text = (resolved / name).read_text(encoding="utf-8")
    snapshot = json.loads((resolved / "t.json").read_text(encoding="utf-8"))["campaign"]["snapshot"]
    assert f"{word} {snapshot.removeprefix('sha256:')[:16]}" in text


@pytest.mark.parametrize("name", ["t.txt", "t.md", "t.html", "t.json"])
def test_a_transcript_verifies_after_the_character_changed(resolved, name):
    # Today's character gives another digest: the snapshot is what makes it pass.
    now = json.loads(ok("resolve", "konflikty/sliz.yaml", "--seed", "7", "--json", cwd=resolved).stdout)
    assert now["digest"] != json.loads((resolved / "t.json").read_text(encoding="utf-8"))["digest"]
    proc = ok("resolve", "konflikty/sliz.yaml", "--verify", name, cwd=resolved)
    assert proc.stdout.startswith("ok:")


def test_a_bare_hash_verifies_from_the_stored_snapshots(resolved):
    digest = json.loads((resolved / "t.json").read_text(encoding="utf-8"))["digest"]
    proc = ok("resolve", "konflikty/sliz.yaml", "--verify", digest, "--seed", "7", cwd=resolved)
    assert digest in proc.stdout


def test_a_tampered_transcript_still_fails(resolved, tmp_path):
    text = (resolved / "t.md").read_text(encoding="utf-8")
    digest = re.findall(r"sha256:([0-9a-f]{64})", text)[-1]
    forged = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    write(resolved / "forged.md", text.replace(digest, forged))
    proc = drd("resolve", "konflikty/sliz.yaml", "--verify", "forged.md", cwd=resolved)
    assert proc.returncode == 1 and "NESHODA" in proc.stderr and forged in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_changed_stored_snapshot_is_refused(resolved, tmp_path):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(resolved, root)
    snapshot = json.loads((root / "t.json").read_text(encoding="utf-8"))["campaign"]["snapshot"]
    stored = root / "kronika" / "snimky" / (snapshot.removeprefix("sha256:") + ".json")
    data = json.loads(stored.read_text(encoding="utf-8"))
    data["start"]["ctibor"]["state"]["pools"]["telo"] += 1
    stored.write_text(json.dumps(data), encoding="utf-8")
    proc = drd("resolve", "konflikty/sliz.yaml", "--verify", "t.txt", cwd=root)
    assert proc.returncode == 2 and "změněn" in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


def test_a_missing_snapshot_is_a_clear_message_at_its_name(resolved, tmp_path):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(resolved, root)
    shutil.rmtree(root / "kronika" / "snimky")
    text = (root / "t.txt").read_text(encoding="utf-8")
    line = next(i for i, row in enumerate(text.split("\n"), 1) if "snímek" in row)
    col = text.split("\n")[line - 1].index("snímek ") + len("snímek ") + 1
    proc = drd("resolve", "konflikty/sliz.yaml", "--verify", "t.txt", cwd=root)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"t.txt:{line}:{col}:" in proc.stderr and "kronika/snimky/" in proc.stderr
    english = drd("resolve", "konflikty/sliz.yaml", "--verify", "t.html", "--lang", "en", cwd=root)
    assert english.returncode == 2 and "does not have" in english.stderr


def test_a_transcript_verifies_after_its_character_file_is_broken_or_gone(resolved, tmp_path):
    import shutil

    root = tmp_path / "copy"
    shutil.copytree(resolved, root)
    hero = root / "postavy" / "ctibor-z-lesa.yaml"
    hero.write_text(hero.read_text(encoding="utf-8").replace("pools:", "pools: [", 1), encoding="utf-8")
    assert ok("resolve", "konflikty/sliz.yaml", "--verify", "t.md", cwd=root).stdout.startswith("ok:")
    hero.unlink()
    for name in ("t.txt", "t.json"):
        assert ok("resolve", "konflikty/sliz.yaml", "--verify", name, cwd=root).stdout.startswith("ok:")


def test_a_played_conflict_stores_its_snapshot_and_its_transcript_verifies_later(tmp_path):
    root = new_campaign(tmp_path)
    ok("import", "roll20", str(FIXTURES / "roll20-ctibor.json"), cwd=root)
    ok("import", "ikaros", str(FIXTURES / "ikaros-slizoun.json"), "--bestie", cwd=root)
    write(root / "konflikty" / "hrany.yaml", SCENARIO.replace("targets: [ctibor]}", "targets: [ctibor], roll: 9}")
          .replace("bonus_from: none}", "bonus_from: none, roll: 7}"))
    played = ok("play", "konflikty/hrany.yaml", cwd=root, input="n\n")
    short = re.search(r"snímek ([0-9a-f]{16})", played.stdout).group(1)
    assert [p.name[:16] for p in (root / "kronika" / "snimky").glob("*.json")] == [short]
    write(root / "hra.txt", played.stdout)
    ok("postava", "uprav", "ctibor-z-lesa", "telo=-1", cwd=root)
    verified = ok("resolve", "konflikty/hrany.replay.yaml", "--verify", "hra.txt", cwd=root)
    assert verified.stdout.startswith("ok:")
