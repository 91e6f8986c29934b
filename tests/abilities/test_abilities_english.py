"""The ability catalogue under `--lang en` (issue #11, one language at a time): every ability has an
English mechanic of its own (the catalogue's catalog, plugins/drd_plugins/locale/en/LC_MESSAGES/
drd_schopnosti.po, updated by `python -m drd_cli.abilities po`), the cards and `drd plugins` show
no Czech mechanic text, and Czech stays the default. Ability names, owners and the values a
scenario writes (skills, traits, events, item names) stay Czech in both languages."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli import i18n
from drd_cli.abilities import CATALOG_DOMAIN, catalog_po_path, czech_texts, installed_catalogue
from drd_cli.cli.app import app
from tests.i18n.test_lang_en import GAME_TERMS, czech_left

ROOT = Path(__file__).resolve().parents[2]
ENV = {"COLUMNS": "200", "NO_COLOR": "1"}


@pytest.fixture(scope="module")
def both():
    with i18n.using("cs"):
        cs = installed_catalogue()
    with i18n.using("en"):
        en = installed_catalogue()
    return cs, en


def _kept(cs_cards: dict) -> list[str]:
    """What stays Czech on purpose: names, owners, skill names, the game's terms, key choices."""
    from drd_cli.skills import SKILLS

    kept = set(GAME_TERMS) | {s.name for s in SKILLS} | {"Výhoda", "Zdroj", "Zdroje", "Surovina", "Suroviny",
                                                           "Zaříkání", "Umění", "Jizvy"}
    for card in cs_cards.values():
        kept |= {card["name"], card["owner"]}
        for decl in card["keys"].values():
            kept |= {str(c) for c in decl.get("choices") or ()}
    return sorted(kept, key=len, reverse=True)


def english_left_czech(text: str, kept: list[str]) -> list[str]:
    """Czech in an English text once code (`…`), ids, rule ids and the words kept Czech are out."""
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\b[a-z0-9]+(?:[-_][a-z0-9]+)+\b|R-[A-Z0-9-]+", " ", text)
    return czech_left(text, kept)


def test_the_checker_bites(both):
    cs, _en = both
    kept = _kept(cs)
    assert english_left_czech(cs["gladiator"]["mechanic"], kept)
    assert not english_left_czech("zběhlost in Běžný boj zblízka: the basic manoeuvres are free (`means: melee`)", kept)


def test_every_ability_has_an_english_mechanic(both):
    """A new ability (or a changed Czech mechanic) without its English fails here: add it with
    `python -m drd_cli.abilities po` and write the English in the .po it names."""
    cs, en = both
    assert set(cs) == set(en) and len(cs) == 86
    kept = _kept(cs)
    missing, czech = [], {}
    for aid in cs:
        if en[aid]["mechanic"] == cs[aid]["mechanic"]:
            missing.append(aid)
            continue
        left = english_left_czech(en[aid]["mechanic"], kept)
        if left:
            czech[aid] = (left, en[aid]["mechanic"])
        part_cs, part_en = ((c.get("activation") or {}).get("part") for c in (cs[aid], en[aid]))
        if part_cs and part_en == part_cs:
            missing.append(f"{aid} (part {part_cs!r})")
    assert not missing, f"no English mechanic (python -m drd_cli.abilities po): {missing}"
    assert not czech, czech


def test_czech_stays_the_default(both):
    cs, en = both
    res = CliRunner().invoke(app, ["abilities", "gladiator"], env={**ENV, "LANG": "cs_CZ.UTF-8"})
    assert cs["gladiator"]["mechanic"] in res.output and en["gladiator"]["mechanic"] not in res.output
    res = CliRunner().invoke(app, ["abilities", "gladiator"], env={**ENV, "LANG": ""})
    assert cs["gladiator"]["mechanic"] in res.output


SAMPLE = ["cit-pro-zbran", "sesty-smysl", "jedno-oko-otevrene", "styky", "lovci", "modlitby-a-urknuti",
          "rodova-zbran", "kruhovy-sek", "zubri-kuze", "pan-symbolu", "plast", "neobvykle-jedy", "rameno-na-rameno",
          "zrici-straze", "sila-osobnosti"]


@pytest.mark.parametrize("aid", SAMPLE)
def test_english_card_has_no_czech_text(both, aid):
    """`drd abilities ID --lang en`: the mechanic, the part, the scope words and the key help in
    English; no Czech mechanic of any ability anywhere on the card."""
    cs, en = both
    out = CliRunner().invoke(app, ["abilities", aid, "--lang", "en"], env=ENV).output
    assert f"mechanic: {en[aid]['mechanic']}" in out, out
    for other in cs.values():
        assert other["mechanic"] not in out, out
    kept = _kept(cs)
    # the lines of words (not the example, not the scope's values a scenario writes)
    lines = [ln for ln in out.splitlines()[1:] if not ln.startswith("    ") and not ln.startswith("  scope:")
             and not ln.startswith("  shown in:")]
    assert not english_left_czech("\n".join(lines), kept), lines
    scope_keys = re.findall(r"(?:^|; )([^:;]+):", out.split("  scope: ", 1)[1].splitlines()[0])
    assert not english_left_czech(" ".join(scope_keys), kept), scope_keys


def test_english_listings_have_no_czech_mechanic(both):
    cs, en = both
    for args in (["abilities", "--lang", "en"], ["plugins", "--kind", "ability", "--lang", "en"],
                 ["abilities", "--json", "--lang", "en"]):
        out = CliRunner().invoke(app, args, env=ENV).output
        for card in cs.values():
            assert card["mechanic"] not in out, (args, card["mechanic"])
    import json

    data = json.loads(CliRunner().invoke(app, ["abilities", "--json", "--lang", "en"], env=ENV).output)
    assert {aid: c["mechanic"] for aid, c in data.items()} == {aid: c["mechanic"] for aid, c in en.items()}


def test_english_plugins_and_key_errors(tmp_path):
    out = CliRunner().invoke(app, ["plugins", "--kind", "house rule", "--lang", "en"], env=ENV).output
    assert "strop_vycerpani = 3 (whole number ≥ 0; R-EXH-1)" in out, out
    path = tmp_path / "keys.yaml"
    path.write_text("format: drd/1\nparticipants:\n  a: {name: Radan, pools: {telo: 3, duse: 3, vliv: 3},\n"
                    "      abilities: [talent, {id: pan-symbolu, links: -1}]}\nrounds: []\n", encoding="utf-8")
    res = CliRunner().invoke(app, ["check", str(path), "--lang", "en"], env=ENV)
    assert res.exit_code == 2, res.output
    assert "(the instrument or art prop (a held item))" in res.output
    assert "links must be a whole number ≥ 0" in res.output
    assert not czech_left(res.output.replace(str(path), " "), ["Pán symbolů", "prop_type"]), res.output


def test_the_catalogue_catalog_is_complete_and_compiled():
    """The .po holds exactly the Czech texts of the cards, each translated and not fuzzy, and the
    shipped .mo says what the .po says (else: python -m drd_cli.abilities po)."""
    from babel.messages.pofile import read_po

    with i18n.using("cs"):
        texts = czech_texts(installed_catalogue())
    path = catalog_po_path(ROOT)
    with open(path, "rb") as fh:
        po = read_po(fh, locale="en")
    entries = {m.id: m for m in po if m.id}
    assert set(entries) == set(texts), "stale catalog: python -m drd_cli.abilities po"
    assert not [m.id for m in entries.values() if not m.string or m.fuzzy], "untranslated or fuzzy entries"
    with open(path.with_suffix(".mo"), "rb") as fh:
        mo = gettext.GNUTranslations(fh)
    for text, msg in entries.items():
        assert mo.gettext(text) == msg.string, f"stale .mo for {text!r}"
    assert path.name == f"{CATALOG_DOMAIN}.po"


def test_update_keeps_the_english_and_flags_a_changed_text(tmp_path, monkeypatch):
    """`python -m drd_cli.abilities po` keeps the English of a text it knows; when the Czech of an
    ability changes, its old English comes back fuzzy (shown in Czech, and the test above fails)."""
    import shutil

    from babel.messages.pofile import read_po, write_po

    from drd_cli import abilities

    target = tmp_path / "plugins" / "drd_plugins" / "locale" / "en" / "LC_MESSAGES"
    target.mkdir(parents=True)
    shutil.copy(catalog_po_path(ROOT), target)
    po_path = target / f"{CATALOG_DOMAIN}.po"
    with open(po_path, "rb") as fh:
        po = read_po(fh, locale="en")
    with i18n.using("cs"):
        gladiator = installed_catalogue()["gladiator"]["mechanic"]
    english = po[gladiator].string
    po.delete(gladiator)
    po.add("stará česká věta", english, auto_comments=["gladiator"])    # as if the Czech had been changed
    with open(po_path, "wb") as fh:
        write_po(fh, po)
    assert abilities.update_catalog(tmp_path) == [gladiator]
    with open(po_path, "rb") as fh:
        po = read_po(fh, locale="en")
    assert po[gladiator].string == english and po[gladiator].fuzzy
    assert "stará česká věta" not in {m.id for m in po}
    akrobat = next(m for m in po if m.auto_comments == ["akrobat"])
    assert akrobat.string and not akrobat.fuzzy
