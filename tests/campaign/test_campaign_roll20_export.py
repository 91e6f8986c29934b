"""`drd export roll20 ID` writes what drd keeps of a character, equipment included, so that an import
of the exported file gives the same character back (import → export → import)."""

from __future__ import annotations

import json

from campaign_support import FIXTURES, character, drd, new_campaign, ok, write

LASTING = ("pools", "max", "jizvy", "levels", "equipment")


def _attribs(exported: dict) -> dict:
    return {a["name"]: a["current"] for a in exported["character"]["attribs"]}


def test_an_exported_character_imports_back_with_its_equipment(tmp_path):
    first = new_campaign(tmp_path, "Prvni")
    ok("import", "roll20", str(FIXTURES / "roll20-ctibor.json"), cwd=first)
    ok("export", "roll20", "ctibor-z-lesa", "-o", str(tmp_path / "ctibor.json"), cwd=first)
    attribs = _attribs(json.loads((tmp_path / "ctibor.json").read_text(encoding="utf-8")))
    assert attribs["inv_equipment"].split("\n") == ["lano", "pochodně (3)", "dlouhý meč", "kroužková košile"]
    second = new_campaign(tmp_path, "Druha")
    ok("import", "roll20", str(tmp_path / "ctibor.json"), cwd=second)
    before, after = character(first, "ctibor-z-lesa"), character(second, "ctibor-z-lesa")
    assert {k: after.get(k) for k in LASTING} == {k: before.get(k) for k in LASTING}
    assert after["equipment"] == ["lano", "pochodně (3)", "dlouhý meč", "kroužková košile"]


def test_an_item_with_armour_goes_to_the_weapons_field_and_comes_back_with_its_armour(tmp_path):
    root = new_campaign(tmp_path)
    write(root / "postavy" / "jarik.yaml",
          "format: drd-postava/1\nname: Jarík\npools: {telo: 5, duse: 4, vliv: 3}\nmax: {telo: 6, duse: 4, vliv: 3}\n"
          "equipment: [lano, {name: kroužková košile, armour: 2}, {name: štít, armour: 0}]\n")
    proc = ok("export", "roll20", "jarik", cwd=root)
    attribs = _attribs(json.loads(proc.stdout))
    assert attribs["inv_equipment"] == "lano\nštít"
    assert attribs["inv_gear"] == "kroužková košile (zbroj 2)"
    (tmp_path / "jarik.json").write_text(proc.stdout, encoding="utf-8")
    other = new_campaign(tmp_path, "Jina")
    imported = ok("import", "roll20", str(tmp_path / "jarik.json"), cwd=other)
    assert character(other, "jarik")["equipment"] == ["lano", "štít", {"name": "kroužková košile", "armour": 2}]
    assert "nemá číslo zbroje" not in imported.stdout + imported.stderr     # the armour was read back


def test_what_the_sheet_cannot_hold_is_said_not_dropped_silently(tmp_path):
    root = new_campaign(tmp_path)
    write(root / "postavy" / "jarik.yaml",
          "format: drd-postava/1\nname: Jarík\npools: {telo: 5, duse: 4, vliv: 3}\n"
          "equipment: [{name: lucerna, enables: [svetlo]}]\n")
    proc = drd("export", "roll20", "jarik", cwd=root)
    assert proc.returncode == 0 and "lucerna" in proc.stderr and "neexportováno" in proc.stderr, proc.stderr
    assert _attribs(json.loads(proc.stdout))["inv_equipment"] == "lucerna"
