"""Bad input in a campaign: a clear message with its place, the right exit code, nothing written."""

from __future__ import annotations

import json
import re

import pytest

from campaign_support import FIXTURES, character, drd, new_campaign, ok, write

SCENARIO = """\
format: drd/1
participants:
  ctibor: {postava: ctibor-z-lesa, ohrozeni: 1}
  slizoun: {bestie: bahenni-slizoun}
rounds:
  - initiative: [slizoun, ctibor]
    steps:
      - id: sliz
        contest:
          action: {actor: slizoun, pool: telo, targets: [ctibor], roll: 11, effect: {ohrozeni: 1}}
          counters: [{actor: ctibor, kind: harm, pool: telo, roll: 7}]
        choices: {ctibor: exhaust}
"""


@pytest.fixture
def campaign(tmp_path):
    root = new_campaign(tmp_path)
    ok("import", "roll20", str(FIXTURES / "roll20-ctibor.json"), cwd=root)
    ok("import", "ikaros", str(FIXTURES / "ikaros-slizoun.json"), "--bestie", cwd=root)
    write(root / "konflikty" / "sliz.yaml", SCENARIO)
    return root


def _files(root):
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_a_missing_character_is_exit_2_at_the_reference_with_did_you_mean(campaign):
    write(campaign / "konflikty" / "spatne.yaml", SCENARIO.replace("postava: ctibor-z-lesa", "postava: ctibor-z-lesu"))
    proc = drd("resolve", "konflikty/spatne.yaml", cwd=campaign)
    assert proc.returncode == 2
    assert "konflikty/spatne.yaml:3:21:" in proc.stderr and "'ctibor-z-lesa'" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_missing_creature_is_exit_2_at_the_reference(campaign):
    write(campaign / "konflikty" / "spatne.yaml", SCENARIO.replace("bestie: bahenni-slizoun", "bestie: slizoun"))
    proc = drd("resolve", "konflikty/spatne.yaml", cwd=campaign)
    assert proc.returncode == 2 and "konflikty/spatne.yaml:4:" in proc.stderr and "bestiá" in proc.stderr


def test_a_broken_character_file_is_exit_2_at_its_own_line(campaign):
    path = campaign / "postavy" / "ctibor-z-lesa.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("telo: 3,", "telo: tři,", 1), encoding="utf-8")
    proc = drd("resolve", "konflikty/sliz.yaml", cwd=campaign)
    assert proc.returncode == 2
    assert re.search(r"postavy/ctibor-z-lesa\.yaml:4:\d+:", proc.stderr), proc.stderr


def test_a_conflict_key_that_lasts_is_refused_at_the_key(campaign):
    write(campaign / "konflikty" / "spatne.yaml",
          SCENARIO.replace("ohrozeni: 1}", "ohrozeni: 1, pools: {telo: 9}}", 1))
    proc = drd("resolve", "konflikty/spatne.yaml", cwd=campaign)
    assert proc.returncode == 2 and "konflikty/spatne.yaml:3:" in proc.stderr and "pools" in proc.stderr


def test_a_reference_outside_a_campaign_names_the_missing_file(tmp_path):
    write(tmp_path / "sam.yaml", SCENARIO)
    proc = drd("resolve", "sam.yaml", cwd=tmp_path)
    assert proc.returncode == 2 and "drd-kampan.yaml" in proc.stderr and "sam.yaml:3:" in proc.stderr


@pytest.mark.parametrize("fmt,fixture", [("roll20", "ikaros-dobromila.json"), ("ikaros", "denik-bela.json"),
                                         ("denik", "roll20-ctibor.json")])
def test_an_import_of_the_wrong_format_writes_nothing(campaign, fmt, fixture):
    before = _files(campaign)
    proc = drd("import", fmt, str(FIXTURES / fixture), cwd=campaign)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "nic nebylo zapsáno" in proc.stderr
    assert _files(campaign) == before


@pytest.mark.parametrize("fmt,fixture", [("roll20", "roll20-zdena.json"), ("ikaros", "ikaros-dobromila.json"),
                                         ("denik", "denik-bela.json")])
def test_an_import_of_a_truncated_file_writes_nothing(campaign, tmp_path, fmt, fixture):
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    cut = write(tmp_path / "cut.json", text[: len(text) * 2 // 3])
    before = _files(campaign)
    proc = drd("import", fmt, str(cut), cwd=campaign)
    assert proc.returncode == 2 and "useknut" in proc.stderr
    assert _files(campaign) == before


@pytest.mark.parametrize("fmt,fixture,old,new", [
    ("roll20", "roll20-zdena.json", '"current": 7,', '"current": 40,'),
    ("ikaros", "ikaros-dobromila.json", '"drd2_threat": "2"', '"drd2_threat": "12"'),
    ("denik", "denik-bela.json", '"_limit": 6', '"_limit": 60'),
])
def test_an_import_of_out_of_range_values_writes_nothing(campaign, tmp_path, fmt, fixture, old, new):
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    assert old in text
    bad = write(tmp_path / "bad.json", text.replace(old, new, 1))
    before = _files(campaign)
    proc = drd("import", fmt, str(bad), cwd=campaign)
    assert proc.returncode == 2 and re.search(r"(není|nejsou) možn", proc.stderr), proc.stderr
    assert _files(campaign) == before


def test_a_current_value_above_its_maximum_is_clamped_and_reported(campaign):
    proc = ok("import", "roll20", str(FIXTURES / "roll20-zdena.json"), cwd=campaign)
    assert "omezeno: Duše 9 je nad maximem 7" in proc.stderr
    assert character(campaign, "zdena-bystra")["pools"]["duse"] == 7


def test_an_update_shows_the_difference_and_writes_only_with_yes(campaign, tmp_path):
    data = json.loads((FIXTURES / "roll20-ctibor.json").read_text(encoding="utf-8"))
    for attr in data["character"]["attribs"]:
        if attr["name"] == "body_current":
            attr["current"] = 1
    changed = write(tmp_path / "ctibor.json", json.dumps(data, ensure_ascii=False))
    shown = ok("import", "roll20", str(changed), cwd=campaign)
    assert "-pools: {telo: 3" in shown.stdout and "+pools: {telo: 1" in shown.stdout
    assert character(campaign, "ctibor-z-lesa")["pools"]["telo"] == 3
    ok("import", "roll20", str(changed), "--yes", cwd=campaign)
    assert character(campaign, "ctibor-z-lesa")["pools"]["telo"] == 1


def test_a_conflict_applied_twice_is_refused_naming_the_entry(campaign):
    ok("resolve", "konflikty/sliz.yaml", "--zapsat", cwd=campaign)
    proc = drd("resolve", "konflikty/sliz.yaml", "--zapsat", cwd=campaign)
    assert proc.returncode == 1 and "záznam kroniky 3" in proc.stderr


def test_a_conflict_over_a_changed_character_is_refused_saying_who_and_when(campaign):
    entries = json.loads(ok("kronika", "--json", cwd=campaign).stdout)
    assert len(entries) == 2
    # The scenario's start state is read, then the character changes before the outcome is written:
    # simulated by resolving against a snapshot that no longer matches.
    result = json.loads(ok("resolve", "konflikty/sliz.yaml", "--json", cwd=campaign).stdout)
    ok("postava", "uprav", "ctibor-z-lesa", "vliv=+1", "--duvod", "odpočinek", cwd=campaign)
    from drd_cli.campaign.apply import apply_conflict
    from drd_cli.campaign.folder import Campaign
    from drd_cli.errors import RuleViolation

    with pytest.raises(RuleViolation) as caught:
        apply_conflict(Campaign.open(str(campaign)), result, str(campaign / "konflikty" / "sliz.yaml"))
    message = caught.value.format()
    assert "ctibor-z-lesa" in message and "tester" in message and "3" in message


def test_an_undo_over_a_later_change_says_what_stands_in_the_way(campaign):
    ok("resolve", "konflikty/sliz.yaml", "--zapsat", cwd=campaign)
    path = campaign / "postavy" / "ctibor-z-lesa.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("vliv: 2", "vliv: 1"), encoding="utf-8")
    proc = drd("kronika", "vrat", cwd=campaign)
    assert proc.returncode == 1 and "ctibor-z-lesa" in proc.stderr and "mimo drd" in proc.stderr


def test_commands_outside_a_campaign_say_how_to_make_one(tmp_path):
    proc = drd("postava", "list", cwd=tmp_path)
    assert proc.returncode == 2 and "drd kampan new" in proc.stderr


def test_a_campaign_is_found_from_a_subfolder_and_by_kampan(campaign, tmp_path):
    listed = ok("postava", "list", "--json", cwd=campaign / "konflikty")
    assert [r["id"] for r in json.loads(listed.stdout)] == ["ctibor-z-lesa"]
    named = ok("bestie", "list", "--json", "--kampan", str(campaign), cwd=tmp_path)
    assert [r["id"] for r in json.loads(named.stdout)] == ["bahenni-slizoun"]


def test_kampan_new_here_marks_the_current_folder(tmp_path):
    ok("kampan", "new", "--zde", "Tady", cwd=tmp_path)
    assert (tmp_path / "drd-kampan.yaml").is_file() and (tmp_path / "postavy").is_dir()
    assert drd("kampan", "new", "--zde", "Tady", cwd=tmp_path).returncode == 2


def test_konflikt_new_writes_a_skeleton_that_resolves(campaign):
    proc = ok("konflikt", "new", "--postavy", "ctibor-z-lesa", "--bestie", "bahenni-slizoun:3", "-o",
              "konflikty/novy.yaml", cwd=campaign)
    assert "konflikty/novy.yaml" in proc.stdout
    text = (campaign / "konflikty" / "novy.yaml").read_text(encoding="utf-8")
    assert "{bestie: bahenni-slizoun, pocet: 3" in text and text.count("#") > 3
    result = json.loads(ok("resolve", "konflikty/novy.yaml", "--json", cwd=campaign).stdout)
    assert set(result["campaign"]["start"]) == {"ctibor-z-lesa", "bahenni-slizoun"}
    missing = drd("konflikt", "new", "--postavy", "ctibor", cwd=campaign)
    assert missing.returncode == 2 and "ctibor-z-lesa" in missing.stderr
    # The example step, uncommented, is a real step; its answer is the loser's, said as such.
    example = text.replace("steps: []", "steps:").replace("    # - id:", "    - id:")
    example = "\n".join(line.replace("    #   ", "      ", 1) if line.startswith("    #   ") else line
                         for line in example.splitlines())
    assert "choices: {ctibor-z-lesa: exhaust}   # platí, jen když prohraje ctibor-z-lesa" in example
    (campaign / "konflikty" / "priklad.yaml").write_text(example, encoding="utf-8")
    played = json.loads(ok("resolve", "konflikty/priklad.yaml", "--json", "--seed", "3", cwd=campaign).stdout)
    assert [s["kind"] for s in played["steps"]] == ["contest"]


def test_the_json_schemas_describe_the_files(campaign):
    import jsonschema
    import yaml

    schema = json.loads(ok("kampan", "schema", "postava", cwd=campaign).stdout)
    jsonschema.validate(yaml.safe_load((campaign / "postavy" / "ctibor-z-lesa.yaml").read_text(encoding="utf-8")),
                        schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"name": "x"}, schema)


def test_new_files_from_the_commented_templates_are_valid_and_shown(tmp_path):
    root = new_campaign(tmp_path)
    ok("postava", "new", "jarik", "--jmeno", "Jarík", cwd=root)
    ok("bestie", "new", "skret", "--jmeno", "Skřet", cwd=root)
    text = (root / "postavy" / "jarik.yaml").read_text(encoding="utf-8")
    assert "# teď" in text and "maxima (hranice)" in text            # Czech comments for the player
    shown = ok("postava", "show", "jarik", cwd=root).stdout
    assert "Jarík [jarik]" in shown and "zdroje (teď/maximum): Tělo 5/5" in shown
    info = json.loads(ok("kampan", "show", "--json", cwd=root).stdout)
    assert info["postavy"] == ["jarik"] and info["bestiar"] == ["skret"] and info["params"]["heal_cost"] == 5
    assert drd("postava", "new", "jarik", cwd=root).returncode == 2   # exists already
    assert json.loads(ok("bestie", "show", "skret", "--json", cwd=root).stdout)["sudba"] == 6


def test_a_played_conflict_and_its_replay_are_one_conflict(campaign):
    played = ok("play", "konflikty/sliz.yaml", cwd=campaign, input="a\n")
    assert (campaign / "konflikty" / "sliz.replay.yaml").is_file(), played.stderr
    again = drd("resolve", "konflikty/sliz.replay.yaml", "--zapsat", cwd=campaign)
    assert again.returncode == 1 and "konflikty/sliz.yaml" in again.stderr


def test_declining_at_the_end_of_play_names_the_replay(campaign):
    played = ok("play", "konflikty/sliz.yaml", cwd=campaign, input="n\n")
    assert "drd resolve konflikty/sliz.replay.yaml --zapsat" in played.stderr
    ok("resolve", "konflikty/sliz.replay.yaml", "--zapsat", cwd=campaign)
