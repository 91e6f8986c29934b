"""A three-session campaign played end to end through the CLI (docs/kampan.md): two characters
imported from each of Roll20, Projekt Ikaros and drd2-denik, a bestiary creature, three conflicts
(one through `drd play`), each applied, a rest, a healed Jizva, an undo and the exported chronicle;
at each point the character files hold what the rules say, with the user's comments kept."""

from __future__ import annotations

import json

from campaign_support import FIXTURES, character, drd, new_campaign, ok, write

BROD = """\
format: drd/1
title: U brodu
participants:
  ctibor: {postava: ctibor-z-lesa, ohrozeni: 2, side: družina}
  vratislav: {postava: vratislav-z-brodu, ohrozeni: 1, side: družina}
  slizoun: {bestie: bahenni-slizoun, ohrozeni: 1}
rounds:
  - initiative: [slizoun, ctibor, vratislav]
    steps:
      - id: sliz
        contest:
          action: {actor: slizoun, pool: telo, targets: [ctibor], roll: 11,
                   effect: {jizva: {name: Poleptaná ruka, pool: telo}}}
          counters: [{actor: ctibor, kind: harm, pool: telo, roll: 7}]
        choices: {ctibor: {slizoun: {exhaust: true, jizva: {name: Poleptaná ruka, pool: telo, gain: 2}}}}
      - id: skok
        test: {actor: vratislav, pool: telo, roll: 6, failure: {condition: promočený}}
        choices: {vratislav: accept}
"""

MLYN = """\
format: drd/1
title: Ve mlýně
participants:
  dobromila: {postava: dobromila, ohrozeni: 1}
  radim: {postava: radim-kovar}
  lapkove: {bestie: lapkove-u-brodu, ohrozeni: 0}
rounds:
  - initiative: [lapkove, dobromila, radim]
    steps:
      - id: prepad
        contest:
          action: {actor: lapkove, pool: telo, targets: [dobromila], roll: 10,
                   effect: {condition: {name: omráčená, rounds: 1}}}
          counters: [{actor: dobromila, kind: harm, pool: telo, roll: 8}]
        choices: {dobromila: exhaust}
"""

HRAD = """\
format: drd/1
title: Na hradě
participants:
  ctibor: {postava: ctibor-z-lesa}
  lapkove: {bestie: lapkove-u-brodu}
rounds:
  - initiative: [lapkove, ctibor]
    steps:
      - id: zajeti
        contest:
          action: {actor: lapkove, pool: telo, targets: [ctibor], roll: 12,
                   effect: [{lose: lano}, {condition: zajatý}]}
          counters: [{actor: ctibor, kind: harm, pool: telo, roll: 5}]
        choices: {ctibor: accept}
"""


def _session_one(tmp_path):
    root = new_campaign(tmp_path)
    for fmt, name in (("roll20", "roll20-ctibor.json"), ("roll20", "roll20-zdena.json"),
                      ("ikaros", "ikaros-dobromila.json"), ("ikaros", "ikaros-radim.json"),
                      ("denik", "denik-vratislav.json"), ("denik", "denik-bela.json")):
        ok("import", fmt, str(FIXTURES / name), cwd=root)
    ok("import", "ikaros", str(FIXTURES / "ikaros-slizoun.json"), "--bestie", cwd=root)
    ok("import", "roll20", str(FIXTURES / "roll20-lapkove.json"), cwd=root)
    listed = json.loads(ok("postava", "list", "--json", cwd=root).stdout)
    assert [r["id"] for r in listed] == ["bela", "ctibor-z-lesa", "dobromila", "radim-kovar", "vratislav-z-brodu",
                                         "zdena-bystra"]
    # The player's own notes in the file.
    path = root / "postavy" / "ctibor-z-lesa.yaml"
    text = path.read_text(encoding="utf-8").replace("suroviny: 2", "suroviny: 2   # z tržiště u brodu")
    path.write_text("# Hráč: Petr\n" + text, encoding="utf-8")
    write(root / "konflikty" / "brod.yaml", BROD)
    ok("resolve", "konflikty/brod.yaml", "--zapsat", cwd=root)
    return root


def test_three_sessions_carry_what_the_rules_say(tmp_path):
    root = _session_one(tmp_path)
    ctibor = character(root, "ctibor-z-lesa")
    # Tělo 3 + 2 from the Jizva − 2 (Ohrožení 2) = 3; the Jizva of size 2 lowers the maximum 5 → 3.
    assert ctibor["pools"] == {"telo": 3, "duse": 5, "vliv": 2}
    assert ctibor["max"] == {"telo": 3, "duse": 5, "vliv": 4}
    assert {"name": "Poleptaná ruka", "pool": "telo", "size": 2} in ctibor["jizvy"]
    assert "ohrozeni" not in ctibor                       # Ohrožení belongs to the conflict
    text = (root / "postavy" / "ctibor-z-lesa.yaml").read_text(encoding="utf-8")
    assert text.startswith("# Hráč: Petr\n") and "# z tržiště u brodu" in text
    assert character(root, "vratislav-z-brodu")["conditions"] == ["promočený"]

    # Session 2: a night's rest, a healed Jizva, a conflict played at the table.
    ok("postava", "uprav", "ctibor-z-lesa", "vliv=+2", "--duvod", "noc v hostinci", cwd=root)
    assert character(root, "ctibor-z-lesa")["pools"]["vliv"] == 4
    ok("postava", "uprav", "vratislav-z-brodu", "telo=+1", cwd=root)
    ok("postava", "vylec", "vratislav-z-brodu", "Zlomené žebro", cwd=root)
    vratislav = character(root, "vratislav-z-brodu")
    assert vratislav["pools"]["telo"] == 0             # 5 − the default healing cost 5
    assert vratislav["max"]["telo"] == 7               # the Jizva's 2 points are back
    assert vratislav.get("jizvy", []) == []
    write(root / "konflikty" / "mlyn.yaml", MLYN)
    played = ok("play", "konflikty/mlyn.yaml", "--no-replay", cwd=root, input="a\n")
    assert "kronik" in (played.stdout + played.stderr).lower()
    dobromila = character(root, "dobromila")
    assert dobromila["pools"]["telo"] == 2             # exhausted at Ohrožení 1
    assert dobromila["conditions"] == ["otrávená"]      # omráčená lasted one round only

    # Session 3: a conflict applied, then undone.
    before = (root / "postavy" / "ctibor-z-lesa.yaml").read_text(encoding="utf-8")
    write(root / "konflikty" / "hrad.yaml", HRAD)
    ok("resolve", "konflikty/hrad.yaml", "--zapsat", cwd=root)
    ctibor = character(root, "ctibor-z-lesa")
    assert "lano" not in ctibor["equipment"] and ctibor["conditions"] == ["zajatý"]
    ok("kronika", "vrat", cwd=root)
    assert (root / "postavy" / "ctibor-z-lesa.yaml").read_text(encoding="utf-8") == before

    entries = json.loads(ok("kronika", "--json", cwd=root).stdout)
    kinds = [e["kind"] for e in entries]
    assert kinds.count("import") == 8 and kinds.count("conflict") == 3 and kinds[-1] == "undo"
    assert [e["undone"] for e in entries if e["kind"] == "conflict"] == [False, False, True]

    md = ok("kronika", "export", "--od", "1", "--format", "md", cwd=root).stdout
    assert md.startswith("---\ntitle: Dobrodruzi") and "U brodu" in md and "Ve mlýně" in md
    assert "Na hradě" not in md                           # undone
    assert "(#kronika-" in md                             # links between entries
    messages = json.loads(ok("kronika", "export", "--od", "1", "--format", "discord", "--json", cwd=root).stdout)
    assert messages and all(len(m) <= 2000 for m in messages)
    page = ok("kronika", "export", "--format", "html", "--od", "9", cwd=root).stdout
    assert page.startswith("<!DOCTYPE html>") and "U brodu" in page
    # By default the entries since the last export (export with --od N does not count as one).
    first = ok("kronika", "export", "--format", "md", cwd=root)
    assert "U brodu" in first.stdout
    ok("postava", "uprav", "bela", "duse=-1", "--duvod", "noční hlídka", cwd=root)
    again = ok("kronika", "export", "--format", "md", cwd=root)
    assert "U brodu" not in again.stdout and "noční hlídka" in again.stdout


def test_a_conflict_verifies_after_its_characters_changed(tmp_path):
    root = _session_one(tmp_path)
    transcript = ok("resolve", "konflikty/brod.yaml", cwd=tmp_path / "Dobrodruzi")
    assert transcript.returncode == 0
    shown = drd("resolve", "konflikty/brod.yaml", "--json", cwd=root)
    result = json.loads(shown.stdout)
    start = result["campaign"]["start"]["ctibor"]
    assert start["state"]["pools"]["telo"] == 3 and start["hash"].startswith("sha256:")
    applied = json.loads(ok("kronika", "--json", cwd=root).stdout)[-1]
    verified = ok("resolve", "konflikty/brod.yaml", "--verify", applied["digest"], cwd=root)
    assert applied["digest"] in verified.stdout
