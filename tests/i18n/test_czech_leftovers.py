"""One language at a time (issue #12, item 8): the Czech output of every command has no English
words left — the checker of tests/i18n/test_help_lang.py (English function words and help verbs), run
over the scenario transcripts, `drd check`, `drd plugins`, `drd rules`, the odds, simulate and
Dakara commands, once the scenario's own strings (names, labels, ids, notes) are taken out."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from tests.i18n.test_help_lang import english_left
from tests.i18n.test_lang_en import _raw, _strings

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted(p for p in (ROOT / "scenarios").glob("*.yaml")
                   if (_raw(p).get("expect") or {}).get("exit", 0) == 0)
# Plugin and rule ids, parameter names and values are codes the user types: they stay as they are.
CODES = re.compile(r"\b[a-z]+(?:[-_][a-z0-9]+)+\b|\b(?:tie|target|presne|plus-one|actor|counter|reroll|none|once|helpers|"
                   r"drd2|dakara|drd_\w+)\b")


def czech(*args: str) -> str:
    res = CliRunner().invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1", "LANG": "cs_CZ.UTF-8"})
    assert res.exit_code in (0, 1), res.output
    # The checkout's own path is not drd's words (a clone under …/odds/ once read as English).
    return res.output.replace(str(ROOT), "…")


# Words of the result's keys and the plugins' codes that leaked into Czech output before (issue #12).
MORE = re.compile(r"(?<![\w-])(hooks|ability|area|hidden|deceived|initiative|contest|mode|rating|modifiers|answer|"
                  r"helpers|injury|dead|protected|exhausts|against|wins|roll|itself|narrator|step|type)(?![\w-])",
                  re.IGNORECASE)


def leftovers(text: str, own: set[str] = frozenset()) -> list[str]:
    for s in sorted(own, key=len, reverse=True):
        if len(s) > 1:
            text = text.replace(s, " ")
    text = CODES.sub(" ", text)
    text = re.sub(r"sha256:\w+|seed \d+|\bdrd \d[\w.]*", " ", text)
    return english_left(text) + MORE.findall(re.sub(r"`[^`]*`", " ", text))


def test_checker_bites():
    assert leftovers("    hooks: a, b") == ["hooks"]
    assert leftovers("  initiative: hidden") == ["initiative", "hidden"]
    assert leftovers("Bořek se ochránil; iniciativu má ukrytý") == []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_transcript(path):
    assert leftovers(czech("resolve", str(path)), _strings(_raw(path), set())) == []


@pytest.mark.parametrize("args", [
    ["plugins"], ["rules"], ["check", str(ROOT / "scenarios" / "hanus-utek.yaml")],
    ["odds", "test", "--bonus", "2"], ["odds", "contest", "--bonus", "2", "--vs", "9"],
    ["odds", "exhaust", "--ohrozeni", "3"],
    ["odds", str(ROOT / "scenarios" / "hanus-utek.yaml"), "utek"],
    ["simulate", str(ROOT / "scenarios" / "hanus-utek.yaml"), "-n", "20"],
    ["dakara", "test", "--skill", "3", "--difficulty", "4"],
    ["dakara", "contest", "--skill", "3", "--opponent", "4"],
], ids=lambda a: " ".join(a[:2]) if a[0] != "check" else "check")
def test_every_command(args):
    own = _strings(_raw(ROOT / "scenarios" / "hanus-utek.yaml"), set())
    assert leftovers(czech(*args), own) == []


HANUS = str(ROOT / "scenarios" / "hanus-utek.yaml")


@pytest.mark.parametrize("args", [
    ["diff", HANUS, "--set", "tie=counter"], ["explain", HANUS, "utek"], ["abilities"], ["abilities", "gladiator"],
    ["odds", "file", HANUS, "utek", "--what-if"], ["resolve", HANUS, "--view", "player"],
], ids=lambda a: " ".join(a[:1] + [x for x in a[1:] if x.startswith("--")]))
def test_every_command_of_this_session(args):
    """The commands added or grown since the first check (explain, abilities, what-if, the players' view)."""
    own = _strings(_raw(ROOT / "scenarios" / "hanus-utek.yaml"), set())
    assert leftovers(czech(*args), own) == []


def test_group_new_and_scripted_play(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert leftovers(czech("group", "new", "ctvrtek")) == []
    res = CliRunner().invoke(app, ["play", HANUS, "--seed", "5", "--no-replay"], input="\n" * 40,
                             env={"COLUMNS": "200", "NO_COLOR": "1", "LANG": "cs_CZ.UTF-8"})
    assert res.exit_code in (0, 130), res.output
    own = _strings(_raw(ROOT / "scenarios" / "hanus-utek.yaml"), set())
    assert leftovers(res.output, own) == []


@pytest.mark.parametrize("text", [
    "format: drd/1\nparticipants:\n  a: {pools: {telo: 1}\nrounds: []\n",
    "format: drd/1\nparticipants:\n  a: [1, 2\n  b: x\n",
    "format: drd/1\n\tparticipants: x\n",
    "format: drd/1\nparticipants: a: b\n",
], ids=["flow-mapping", "flow-sequence", "tab", "mapping-value"])
def test_yaml_syntax_errors_speak_czech(tmp_path, text):
    """Issue #12 item 8: the parser's own phrase is put in Czech too, not only our frame around it."""
    path = tmp_path / "spatne.yaml"
    path.write_text(text, encoding="utf-8")
    res = CliRunner().invoke(app, ["resolve", str(path)], env={"COLUMNS": "200", "NO_COLOR": "1", "LANG": "cs_CZ.UTF-8"})
    assert res.exit_code == 2 and "spatne.yaml:" in res.output and "neplatný YAML" in res.output
    assert not re.search(r"\b(expected|found|while|parsing|scanning|allowed|cannot)\b", res.output), res.output


# --------------------------------------------------------------------------- the ability catalogue (issue #11)

# English words the catalogue's cards and `drd plugins` had in Czech output before: a kind of value
# ("whole number ≥ 0", Python's True/False), scope words ("same zone", "no condition spí"), owners
# ("any race") and the help of an ability's own keys ("the melee weapon type (a held item …)").
CARD_ENGLISH = re.compile(r"(?<![\w-])(whole|number|same|zone|situation|condition|held|race|once|round|sapient|"
                          r"trait|target|actor|ward|hero|cloth|prop|True|False)(?![\w-])")


def _catalogue_words() -> set[str]:
    """What the cards hold that a scenario writes as it is: names, owners, the values of the keys."""
    from drd_cli import i18n
    from drd_cli.abilities import installed_catalogue

    with i18n.using("cs"):
        cards = installed_catalogue()
    words = {"Ability readings"}        # the heading of docs/rules.md a reading points to (docs are English)
    for card in cards.values():
        words |= {card["name"], card["owner"]}
        for decl in card["keys"].values():
            words |= {str(c) for c in decl.get("choices") or ()}
    return words


def card_leftovers(text: str) -> list[str]:
    """`leftovers`, and the card words, once the example (a scenario fragment: codes) is taken out."""
    text = re.sub(r"(?m)^    .*$", " ", text)                  # the example's lines, indented by four
    text = re.sub(r"R-[A-Z0-9-]+|\bdrd_\w+", " ", text)
    own = _catalogue_words()
    left = leftovers(text, own)
    for s in sorted(own, key=len, reverse=True):
        text = text.replace(s, " ")
    return left + CARD_ENGLISH.findall(CODES.sub(" ", re.sub(r"`[^`]*`", " ", text)))


def test_card_checker_bites():
    assert card_leftovers("  rozsah: dosah: same zone") == ["same", "zone"]
    assert card_leftovers("    parametr strop = 3 (whole number ≥ 0; R-EXH-1)") == []     # an example line
    assert card_leftovers("  parametr strop = 3 (whole number ≥ 0; R-EXH-1)") == ["whole", "number"]
    assert card_leftovers("  klíč `weapon` *: meč — the melee weapon type (a held item)") == ["the", "type", "held"]
    assert card_leftovers("Rodová zbraň (rodova-zbran) — any race, Tělo") == ["race"]


CARD_IDS = ["cit-pro-zbran", "sesty-smysl", "dest-strel", "pan-symbolu", "plast", "talent", "idol-zen-ci-muzu",
            "odznaky-hrdinstvi", "rodova-zbran", "kluzky-jako-uhor", "lovci", "modlitby-a-urknuti", "rameno-na-rameno",
            "komediant", "tichoslapek"]


@pytest.mark.parametrize("args", [["abilities"], *(["abilities", aid] for aid in CARD_IDS),
                                  ["plugins"], ["plugins", "--kind", "ability"], ["plugins", "--kind", "rule area"],
                                  ["plugins", "--kind", "house rule"], ["plugins", "--kind", "schopnost"]],
                         ids=lambda a: " ".join(a))
def test_the_catalogue_speaks_czech(args):
    assert card_leftovers(czech(*args)) == []


def test_every_card_speaks_czech():
    """All 86 cards (the sample above shows the words; this keeps a new ability from bringing English)."""
    from drd_cli.abilities import installed_catalogue

    bad = {}
    for aid in installed_catalogue():
        left = card_leftovers(czech("abilities", aid))
        if left:
            bad[aid] = left
    assert not bad, bad


def test_parameter_kinds_in_words():
    out = czech("plugins", "--kind", "house rule")
    assert "strop_vycerpani = 3 (celé číslo ≥ 0; R-EXH-1)" in out, out
    assert "whole number" not in czech("abilities", "pan-symbolu")
    assert "padny_uder_natural = false (true | false" in czech("plugins", "--kind", "ability")


BAD_KEYS = """\
format: drd/1
participants:
  a: {name: Radan, side: x, pools: {telo: 3, duse: 3, vliv: 3}, equipment: [meč],
      abilities: [{id: cit-pro-zbran, weapon: meč, zbran: meč}, {id: pan-symbolu, links: -1},
                  {id: modlitby-a-urknuti, variant: dlouze}, talent, gladiatorr, {id: plast, item: 3},
                  {id: dobra-muska, weapon: prak, pocet: 2}]}
rounds:
  - steps:
      - id: t
        test: {actor: a, roll: 10}
"""


@pytest.mark.parametrize("args", [["abilities", "gladitor"], ["abilities", "nic"], ["plugins", "--kind", "schopnsot"]],
                         ids=lambda a: " ".join(a))
def test_catalogue_errors_speak_czech(args):
    res = CliRunner().invoke(app, args, env={"COLUMNS": "200", "NO_COLOR": "1", "LANG": "cs_CZ.UTF-8"})
    assert res.exit_code == 2, res.output
    assert card_leftovers(res.output) == [], res.output


@pytest.mark.parametrize("cmd", ["resolve", "check"])
def test_ability_key_errors_speak_czech(tmp_path, cmd):
    """An unknown key, a value it cannot take, a missing required key (its help in Czech), an
    unknown ability id: every message and hint in Czech."""
    path = tmp_path / "klice.yaml"
    path.write_text(BAD_KEYS, encoding="utf-8")
    res = CliRunner().invoke(app, [cmd, str(path)], env={"COLUMNS": "200", "NO_COLOR": "1", "LANG": "cs_CZ.UTF-8"})
    assert res.exit_code == 2, res.output
    for words in ("nemá klíč 'zbran'", "celé číslo ≥ 0", "nemysleli jste 'dlouho'?", "nástroj či umělecká rekvizita",
                  "neznámá schopnost 'gladiatorr'", "musí být text", "nemá klíč 'pocet'"):
        assert words in res.output, (words, res.output)
    assert card_leftovers(res.output.replace(str(tmp_path), " ")) == [], res.output
