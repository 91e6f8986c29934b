"""What a Czech group reads, command by command (docs/transcripts.md "Read by a person"): every
command that names a step, a rule's value, a profession, an ability or a campaign parameter is run
in Czech, and its output is searched for the codes a reader should never meet where a name exists:

* a step's id where the step has a name (`utek` for `útěk`): transcript, explain, play, odds FILE
  STEP, diff, simulate;
* an option or parameter value inside a Czech sentence (`actor`, `exhaust`, `true`) and Python's
  spelling of values (`[]`, `{}`, `None`, `True`, `'quotes'` from repr());
* a profession's, an ability's or a pool's id (`bojovnik`, `kruhovy-sek`, `telo`) in what
  `postava show`, `kronika` and the campaign messages print.

Codes are allowed where the user types them: inside backticks (a hint that shows what to write), in
a file path, and in the `rules` listing (ids and values to `--set`)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "scenarios"
FIXTURES = ROOT / "tests" / "campaign" / "fixtures"
ENV = {"COLUMNS": "200", "NO_COLOR": "1", "LANG": "cs_CZ.UTF-8", "DRD_KDO": "tester"}


def czech(*args: str, input: str | None = None) -> str:
    res = CliRunner().invoke(app, list(args), env=ENV, input=input)
    assert res.exit_code in (0, 1, 130), res.output
    return res.output


def _readable(text: str) -> str:
    """The text a reader reads as sentences: hints in backticks and file paths taken out."""
    text = re.sub(r"`[^`\n]*`", " ", text)
    return re.sub(r"[\w./-]*[\w-]+\.(?:yaml|json|md|html|txt)\b", " ", text)


# --------------------------------------------------------------------------- step ids

def step_titles(path: Path) -> dict[str, str]:
    """Step id → the name the file gives the step (only steps whose name differs from the id)."""
    from drd_cli.api import load_scenario
    from drd_cli.render.values import scenario_step_title

    scenario = load_scenario(str(path)).scenario
    out = {}
    for rnd in scenario.rounds or ():
        for step in rnd.steps or ():
            title = scenario_step_title(scenario, step.id) if step.id else None
            if title and title != step.id:
                out[step.id] = title
    return out


def step_ids_left(text: str, titles: dict[str, str]) -> list[str]:
    text = _readable(text)
    for title in sorted(titles.values(), key=len, reverse=True):
        text = text.replace(title, " ")
    return [sid for sid in titles if re.search(rf"(?<![\w-]){re.escape(sid)}(?![\w-])", text)]


def test_the_step_id_check_bites():
    titles = {"utek": "útěk"}
    assert step_ids_left("Krok utek (kolo 1)", titles) == ["utek"]
    assert step_ids_left("Beze změny: kroky utek; konečný stav", titles) == ["utek"]
    assert step_ids_left("útěk · kolo 1 · střet; `drd explain hanus-utek.yaml utek`", titles) == []
    assert step_ids_left("scenarios/hanus-utek.yaml: ok", titles) == []


HANUS = SCENARIOS / "hanus-utek.yaml"
TECHAN = SCENARIOS / "techan-cuna-10-8-obe.yaml"
ZLATKA = SCENARIOS / "zlatka-zaves-zlatka-vycerpa.yaml"
BOURE = SCENARIOS / "pisecna-boure-dve-kola.yaml"     # výzvy and an environment action


@pytest.mark.parametrize("path", [HANUS, TECHAN, BOURE], ids=lambda p: p.stem)
@pytest.mark.parametrize("command", ["resolve", "explain", "odds", "diff", "simulate", "play"])
def test_no_command_names_a_step_by_its_id(path, command):
    titles = step_titles(path)
    assert titles, "the scenario names its steps"
    step = next(iter(titles))
    args = {"resolve": ["resolve", str(path)], "explain": ["explain", str(path)],
            "odds": ["odds", str(path), step], "diff": ["diff", str(path), "--set", "tie=counter"],
            "simulate": ["simulate", str(path), "-n", "10"],
            "play": ["play", str(path), "--seed", "5", "--no-replay"] + (["--reroll"] if path == HANUS else [])}[command]
    out = czech(*args, input="\n" * 40 if command == "play" else None)
    if command == "diff":       # the rules table shows the settings as they are typed (`tie=counter`)
        out = out.split("┘", 1)[-1]
    assert step_ids_left(out, titles) == [], out


# --------------------------------------------------------------------------- values and Python spellings

# Option and parameter values that are English words, and Python's spellings of values.
VALUES = re.compile(r"(?<![\w-])(actor|counter|reroll|exhaust|accept|cheapest|ask|deny|none|true|false|"
                    r"plus-one|once|escalating)(?![\w-])")
PYTHON = re.compile(r"\[\]|\{\}|(?<![\w-])(None|True|False)(?![\w-])|'[^'\s]*'(?=[,)\s]|$)")


def values_left(text: str) -> list[str]:
    text = _readable(text)
    return [m.group(0) for m in VALUES.finditer(text)] + [m.group(0) for m in PYTHON.finditer(text)]


def test_the_value_check_bites():
    assert values_left("Střet 2k6+2 proti 2k6+3 (remíza: actor)") == ["actor"]
    assert values_left("parametry: carry=[], jizva_lowers_max=true") == ["true", "[]"]
    assert values_left("kampaň 'Druzina' založena; Jizva None") == ["'Druzina'", "None"]
    assert values_left("zadejte `--choose exhaust`") == []


@pytest.mark.parametrize("args", [
    ["odds", "contest", "--bonus", "2", "--vs", "3"], ["odds", "contest", "--tie", "reroll"],
    ["odds", "contest", "--tie", "counter"], ["odds", "test", "--bonus", "1"], ["odds", "exhaust", "--ohrozeni", "2"],
    ["odds", str(HANUS), "utek"], ["odds", "file", str(TECHAN), "pereje", "--choose", "exhaust"],
    ["explain", str(HANUS)], ["explain", str(SCENARIOS / "techan-cuna-oba-nad-9.yaml")],
    ["simulate", str(HANUS), "-n", "10"], ["simulate", str(TECHAN), "-n", "10", "--policy", "exhaust"],
    ["resolve", str(ZLATKA)], ["resolve", str(SCENARIOS / "dakara-sifra.yaml")],
], ids=lambda a: " ".join(x if "/" not in x else Path(x).stem for x in a[:3]))
def test_no_command_puts_a_value_or_a_python_spelling_in_a_sentence(args):
    assert values_left(czech(*args)) == []


# --------------------------------------------------------------------------- the campaign

@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    import os

    tmp = tmp_path_factory.mktemp("walk")
    before = os.getcwd()
    os.chdir(tmp)
    try:
        czech("kampan", "new", "Druzina")
        root = tmp / "Druzina"
        os.chdir(root)
        for kind, name in (("roll20", "roll20-ctibor.json"), ("ikaros", "ikaros-radim.json"),
                           ("denik", "denik-bela.json"), ("ikaros", "ikaros-slizoun.json")):
            shutil.copy(FIXTURES / name, root / name)
            czech("import", kind, name)
        outputs = {
            "kampan new": czech("kampan", "new", "Druha"),
            "kampan show": czech("kampan", "show"),
            "postava show": czech("postava", "show", "ctibor-z-lesa"),
            "postava list": czech("postava", "list"),
            "postava uprav": czech("postava", "uprav", "ctibor-z-lesa", "telo=+2"),
            "postava vylec": czech("postava", "vylec", "ctibor-z-lesa", "Zlomené žebro"),
            "bestie show": czech("bestie", "show", "bahenni-slizoun"),
            "kronika": czech("kronika"),
            "kronika export": czech("kronika", "export", "--od", "1"),
        }
        outputs["kronika vrat"] = czech("kronika", "vrat")
    finally:
        os.chdir(before)
    return outputs


# Ids of the fixtures' professions, abilities and pools, whose names the outputs should show.
CAMPAIGN_IDS = re.compile(r"(?<![\w-])(bojovnik|lovec|kejklir|kruhovy-sek|lvi-srdce|telo|duse|vliv|ctibor-z-lesa|"
                          r"radim-kovar|bela)(?![\w-])")
# Where an id is the thing the user types: the header of `postava show` (`Name [id]`), the
# listing `id (Name)`, and the chronicle's file-name column.
TYPED = re.compile(r"\[[\w-]+\]|\([\w-]+\)|^[\w-]+ \(|^\s*\d+\s+\S+\s+\w+\s+\S+\s+\(")


@pytest.mark.parametrize("what", ["kampan new", "kampan show", "postava show", "postava uprav", "postava vylec",
                                  "bestie show", "kronika", "kronika export", "kronika vrat"])
def test_the_campaign_speaks_in_names_and_words(campaign, what):
    text = campaign[what]
    assert values_left(text) == [], text
    readable = "\n".join(TYPED.sub(" ", line) for line in _readable(text).splitlines())
    readable = re.sub(r"<a id=\"[^\"]*\"></a>|\(#kronika-\d+\)", " ", readable)
    assert CAMPAIGN_IDS.findall(readable) == [], text


# --------------------------------------------------------------------------- abilities by name

def _ability_titles() -> dict[str, str]:
    from drd_cli import i18n
    from drd_cli.abilities import installed_catalogue

    with i18n.using("cs"):
        return {aid: card["name"] for aid, card in installed_catalogue().items() if "-" in aid}


ABILITY_SCENARIOS = sorted(SCENARIOS.glob("schopnosti-*.yaml"))


@pytest.mark.parametrize("command", ["resolve", "explain"])
def test_abilities_are_named_not_coded(command):
    """`zdarma (Cit pro zbraň; R-MAN-2)`, never `zdarma díky cit-pro-zbran`: an ability's id (the
    hyphenated ones, which no Czech sentence contains) is shown only where the user types it."""
    titles = _ability_titles()
    bad = {}
    for path in ABILITY_SCENARIOS:
        text = re.sub(r"\[[\w-]+\]", " ", _readable(czech(command, str(path))))   # a log line's rule or plugin
        text = re.sub(r"^\W*Pravidla: .*$", " ", text, flags=re.M)
        for title in sorted(titles.values(), key=len, reverse=True):
            text = text.replace(title, " ")
        left = sorted({aid for aid in titles if re.search(rf"(?<![\w-]){re.escape(aid)}(?![\w-])", text)})
        if left:
            bad[path.stem] = left
    assert not bad, bad


# --------------------------------------------------------------------------- drd explain reads like the transcript

EXPLAINED = sorted(SCENARIOS.glob("*.yaml"))


@pytest.mark.parametrize("path", EXPLAINED, ids=lambda p: p.stem)
def test_explain_keeps_names_in_the_nominative(path):
    """`drd explain` is checked like the transcript (tests/render/test_transcript_grammar.py): no
    name after a preposition that would decline it (`za Kroll Grum`), no English or Python value."""
    from drd_cli import i18n
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.errors import DrdError
    from drd_cli.play.explain import explain_result
    from tests.render.test_transcript_grammar import problems

    with i18n.using("cs"):
        loaded = load_scenario(str(path))
        try:
            result = resolve_scenario(loaded)
        except DrdError:
            pytest.skip("a refusal: nothing to explain")
        text = "\n".join(explain_result(result))
    assert problems(result, text) == [], text


# --------------------------------------------------------------------------- listings

def test_every_english_page_is_listed_in_czech():
    """`drd docs` in Czech: a page whose heading is English shows a Czech title that says the page is
    in English; a new English page must be added to docs_cmd.TITLES (and translated)."""
    from drd_cli.cli.docs_cmd import TITLES, topics
    from tests.i18n.test_help_lang import english_left

    listed = czech("docs")
    english = [title for title in topics().values() if title not in TITLES and english_left(title)
               and "/" not in title]            # a bilingual heading (`Kampaň … / A group's campaign`) is fine
    assert english == [] and "(anglicky" in listed
    assert not any(title in listed for title in TITLES if english_left(title)), listed


def test_the_rules_listing_keeps_its_columns():
    """A plugin id longer than the column (`remiza-nizsi-ohrozeni`) still leaves a space before its state."""
    rows = [line for line in czech("rules").splitlines() if re.match(r"  \S+ +(zapnuto|vypnuto) ", line)]
    assert rows and len({line.index(" zapnuto") if " zapnuto" in line else line.index(" vypnuto")
                         for line in rows}) == 1, rows


def test_a_cards_scope_names_skills_and_means():
    """`rozsah: prostředek: boj zblízka (melee); dovednost: Běžný boj zblízka`: no skill id and no
    bare `means` value in any card's scope line (the value a scenario writes follows in brackets)."""
    from drd_cli import i18n
    from drd_cli.abilities import installed_catalogue, scope_text
    from drd_cli.skills import SKILLS

    ids = {s.id for s in SKILLS if "-" in s.id}
    means = ("melee", "shooting", "throwing", "dealing", "magic", "poison")
    bad = {}
    with i18n.using("cs"):
        for aid, card in installed_catalogue().items():
            line = re.sub(r"\([a-z]+\)", " ", scope_text(card.get("scope") or {}))
            left = [w for w in (*ids, *means) if re.search(rf"(?<![\w-]){w}(?![\w-])", line)]
            if left:
                bad[aid] = left
    assert not bad, bad


@pytest.mark.parametrize("args", [["resolve"], ["odds", "remiza"], ["odds", "prohra"]], ids=lambda a: " ".join(a))
def test_a_dakara_step_is_called_by_who_acts_and_the_skill(args):
    """A Dakara step has no label: it is `Mistr Hanuš — Šifrování`, not its id `remiza`."""
    path = str(SCENARIOS / "dakara-sifra.yaml")
    out = czech(args[0], path, *args[1:])
    assert "Mistr Hanuš — Šifrování" in out
    assert step_ids_left(out, {"remiza": "?", "prohra": "?", "vyhra": "?"}) == [], out


def test_a_new_campaign_names_its_folder_as_the_user_would(campaign):
    """`kampaň „Druha“ založena ve složce Druha`: relative to where the user is, no absolute path."""
    first = campaign["kampan new"].splitlines()[0]
    assert first == "kampaň „Druha“ založena ve složce Druha", first


def test_no_czech_card_says_engine():
    """`engine` is the developers' word: a card says `mimo konflikt`, `mimo řešení konfliktu`."""
    from drd_cli import i18n
    from drd_cli.abilities import installed_catalogue

    with i18n.using("cs"):
        said = {aid: card.get("mechanic", "") for aid, card in installed_catalogue().items()}
    assert not [aid for aid, text in said.items() if "engine" in text]
    assert "engine" not in czech("abilities")
