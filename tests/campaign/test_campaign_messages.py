"""What a new user reads along the campaign's walk-through (docs/kampan.md): Czech without Python
values or hedged gender endings, each place named once, names rather than ids in the chronicle's
Discord export, and the same in English."""

from __future__ import annotations

import json

import pytest

from campaign_support import drd, new_campaign, ok, write

HERO = ("format: drd-postava/1\nname: Jarík\npools: {telo: 6, duse: 4, vliv: 3}\nmax: {telo: 6, duse: 4, vliv: 3}\n"
        "jizvy: [{name: Řez, pool: telo, size: 1}]\n")
WOLF = "format: drd-bestie/1\nname: Šedý vlk\nsudba: 6\n"
CONFLICT = """\
format: drd/1
title: Vlčí noc
participants:
  jarik: {postava: jarik}
  vlk: {bestie: vlk}
rounds:
  - initiative: [vlk, jarik]
    steps:
      - id: kousnuti
        contest:
          action: {actor: vlk, pool: telo, targets: [jarik], roll: 10, effect: {ohrozeni: 1}}
          counters: [{actor: jarik, kind: harm, pool: telo, roll: 8, bonus_from: none}]
        choices: {jarik: accept}
"""


@pytest.fixture
def campaign(tmp_path):
    root = new_campaign(tmp_path)
    write(root / "postavy" / "jarik.yaml", HERO)
    write(root / "bestiar" / "vlk.yaml", WOLF)
    write(root / "konflikty" / "noc.yaml", CONFLICT)
    return root


def test_kampan_show_says_the_parameters_in_words_under_their_keys(campaign):
    """Each parameter under the key drd-kampan.yaml spells it (that is where the group changes it),
    its value in words: no `[]`, `true` or Python's `True`."""
    shown = ok("kampan", "show", cwd=campaign).stdout
    assert "  jizva_lowers_max: ano" in shown and "  carry: zdroje" in shown
    assert "  heal_cost: vyléčení jedné Jizvy stojí 5 bodů" in shown
    assert not any(w in shown for w in ("[]", "True", "true", "=")), shown
    english = ok("kampan", "show", "--lang", "en", cwd=campaign).stdout
    assert "  carry: the pools" in english and "  jizva_lowers_max: yes" in english and "[]" not in english


def test_an_adjustment_and_a_healing_say_what_happened_without_hedged_endings(campaign):
    adjusted = ok("postava", "uprav", "jarik", "duse=-1", "--duvod", "hlídka", cwd=campaign).stdout
    assert adjusted.startswith("záznam kroniky 1: Jarík — úprava postavy") and "(a)" not in adjusted
    healed = ok("postava", "vylec", "jarik", "Řez", cwd=campaign).stdout
    assert "Jarík — léčení Jizvy „Řez“ za 5 Tělo" in healed and "(a)" not in healed
    assert "telo" not in healed.split("\n")[0]                   # the pool by its name, not its key


def test_healing_a_jizva_the_character_lacks_points_at_its_file(campaign):
    proc = drd("postava", "vylec", "jarik", "Popálenina", cwd=campaign)
    assert proc.returncode == 2 and proc.stderr.startswith("postavy/jarik.yaml: jarik nemá Jizvu 'Popálenina'")


def test_a_conflict_applied_twice_names_its_file_once(campaign):
    ok("resolve", "konflikty/noc.yaml", "--zapsat", cwd=campaign)
    proc = drd("resolve", "konflikty/noc.yaml", "--zapsat", cwd=campaign)
    assert proc.returncode == 1 and proc.stderr.count("konflikty/noc.yaml") == 1
    assert "tento konflikt už byl zapsán: záznam kroniky 1" in proc.stderr
    english = drd("resolve", "konflikty/noc.yaml", "--zapsat", "--lang", "en", cwd=campaign)
    assert "this conflict was applied already: chronicle entry 1" in english.stderr


def test_the_discord_export_names_the_participants_as_the_transcript_does(campaign):
    ok("resolve", "konflikty/noc.yaml", "--zapsat", cwd=campaign)
    messages = json.loads(ok("kronika", "export", "--od", "1", "--format", "discord", "--json", cwd=campaign).stdout)
    text = "\n".join(messages)
    assert "Šedý vlk, Jarík" in text or "Jarík, Šedý vlk" in text
    assert "vlk, jarik" not in text and "\njarik " not in text


@pytest.mark.parametrize("lang,words", [("cs", "jazyk exportu kroniky"), ("en", "the Jizva's own pool")])
def test_a_new_campaign_file_is_commented_in_one_column_and_says_what_its_language_is_for(tmp_path, lang, words):
    ok("kampan", "new", "Druzina", "--lang", lang, cwd=tmp_path)
    text = (tmp_path / "Druzina" / "drd-kampan.yaml").read_text(encoding="utf-8")
    columns = {line.index(" # ") for line in text.splitlines() if " # " in line}
    assert len(columns) == 1, text
    assert words in text


def test_the_chronicle_lists_an_import_by_its_file_and_what_it_made(tmp_path):
    from campaign_support import FIXTURES

    root = new_campaign(tmp_path)
    ok("import", "roll20", str(FIXTURES / "roll20-ctibor.json"), cwd=root)
    ok("import", "ikaros", str(FIXTURES / "ikaros-slizoun.json"), cwd=root)
    ok("kronika", "vrat", cwd=root)
    listed = ok("kronika", cwd=root).stdout
    assert "import  roll20-ctibor.json" in listed and "None" not in listed
    assert "Ctibor z Lesa: nový soubor: Tělo 3/5, Duše 5/5, Vliv 2/4" in listed
    assert "bahenni-slizoun: nový soubor: Sudba 12" in listed
    assert "bahenni-slizoun: soubor odstraněn: Sudba 12" in listed           # the undo of the import


@pytest.mark.parametrize("lang,section", [("en", "Between conflicts, parameters"), ("cs", "Mezi konflikty")])
def test_the_healing_help_names_a_section_the_walk_through_has(tmp_path, lang, section):
    from pathlib import Path

    shown = " ".join(ok("postava", "vylec", "--help", "--lang", lang, cwd=tmp_path).stdout.split())
    assert section in shown
    docs = (Path(__file__).resolve().parents[2] / "docs" / "kampan.md").read_text(encoding="utf-8")
    assert f"### {section}\n" in docs


def test_an_existing_file_is_named_once_and_says_what_to_do(campaign):
    proc = drd("postava", "new", "jarik", cwd=campaign)
    assert proc.returncode == 2 and proc.stderr.count("postavy/jarik.yaml") == 1
    assert "soubor už existuje" in proc.stderr and "drd postava show jarik" in proc.stderr
    skeleton = drd("konflikt", "new", "--postavy", "jarik", "-o", "konflikty/noc.yaml", cwd=campaign)
    assert skeleton.returncode == 2 and skeleton.stderr.count("konflikty/noc.yaml") == 1


@pytest.mark.parametrize("name,reason", [("neni.json", "takový soubor neexistuje"), ("postavy", "je to složka")])
def test_an_import_of_an_unreadable_file_says_why_in_czech(campaign, name, reason):
    proc = drd("import", "roll20", name, cwd=campaign)
    assert proc.returncode == 2 and proc.stderr.startswith(f"{name}: soubor nelze číst: {reason}")
    assert "No such file" not in proc.stderr and proc.stderr.count(name) == 1


def test_a_creature_without_covered_names_shows_its_level_alone(campaign):
    write(campaign / "bestiar" / "skret.yaml", "format: drd-bestie/1\nname: Skřet\nsudba: 6\n"
          "charakteristika: {level: 2, covers: []}\n")
    shown = ok("bestie", "show", "skret", cwd=campaign).stdout
    assert "charakteristika: 2\n" in shown and "()" not in shown


def test_campaign_places_are_shown_relative_and_the_current_folder_in_words(tmp_path):
    root = new_campaign(tmp_path, "A")
    again = drd("kampan", "new", "A", cwd=tmp_path)
    assert again.returncode == 2 and again.stderr.startswith("A/drd-kampan.yaml: A už je kampaň")
    here = drd("kampan", "new", "--zde", "B", cwd=root)
    assert here.returncode == 2 and here.stderr.startswith("drd-kampan.yaml: tato složka už je kampaň")
    empty = drd("kronika", "vrat", cwd=root)
    assert empty.returncode == 1 and empty.stderr.startswith("kronika: v kronice není co vrátit")
    outside = drd("postava", "list", cwd=tmp_path)
    assert outside.returncode == 2 and outside.stderr.startswith("nejste v kampani") and str(tmp_path) not in \
        outside.stderr


def test_an_entry_without_a_reason_is_listed_without_a_gap(campaign):
    ok("postava", "uprav", "jarik", "duse=-1", cwd=campaign)
    line = ok("kronika", cwd=campaign).stdout.splitlines()[0]
    assert line.endswith("úprava  (tester)") and "   " not in line.strip()


def test_drd_check_of_a_campaign_folder_checks_each_file_as_what_it_is(campaign):
    ok("resolve", "konflikty/noc.yaml", "--zapsat", cwd=campaign)          # the chronicle has entries now
    checked = ok("check", ".", cwd=campaign).stdout
    for name in ("drd-kampan.yaml", "postavy/jarik.yaml", "bestiar/vlk.yaml", "konflikty/noc.yaml"):
        assert f"{name}: ok" in checked
    assert "kronika/" not in checked                                     # drd's own files
    write(campaign / "postavy" / "zly.yaml", "format: drd-postava/1\nname: Zlý\npools: {telo: tři}\n")
    proc = drd("check", "postavy", cwd=campaign)
    assert proc.returncode == 2 and "postavy/zly.yaml:3:" in proc.stdout + proc.stderr
    assert "participants" not in proc.stdout + proc.stderr               # not judged as a scenario
