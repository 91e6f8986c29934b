"""The transcripts read as Czech (and English) a reader does not trip over (docs/i18n.md "Czech
grammar"): every scenario's text, Markdown and HTML transcript and the players' view, in Czech and
English, are rendered and searched for a participant's name in a slot that needs another case, a
verb that disagrees with its subject's number or gender, and English or Python values in Czech."""

from __future__ import annotations

import html as html_lib
import re
from functools import lru_cache
from pathlib import Path

import pytest

from drd_cli import i18n
from drd_cli.api import load_scenario, resolve_scenario
from drd_cli.cli._common import attach_digest
from drd_cli.errors import DrdError
from drd_cli.wording import Words, choose
from drd_cli.render.html import render_html
from drd_cli.render.md import render_markdown
from drd_cli.render.terminal import render_text
from drd_cli.render.view import player_view

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))

# Czech prepositions and nouns after which a name would have to be declined (2nd, 3rd, 4th, 6th
# or 7th case); a name right after one of them is an undeclined name in a non-nominative slot.
OBLIQUE = ("nad", "proti", "akci", "akce", "za", "díky", "vítězství", "upírá", "od", "pro", "u", "k", "ke",
           "bez", "podle", "před", "pod", "s", "se", "o", "po", "při", "mezi", "Tělo", "Duše", "Vliv", "zásah akcí",
           "platí … za", "účastníku", "podezření na")
# English words and Python values that must not be in a Czech transcript.
ENGLISH = ("None", "True", "False", "counter", "tie:", "the test", "wins", "against", "exhausts", "cheapest",
           "itself", "accept", "JINAK", "Ruší výhodu", "ruší výhodu")
# Past-tense masculine forms that once ignored the subject's gender and number.
PAST_M = ("vyhrál", "prohrál", "vyčerpal", "neodhalen", "neodhalil", "zastavil", "ochránil", "neochránil", "odolal", "přijal", "byl(a)")


def _names(result: dict) -> dict[str, dict]:
    return {pid: p for pid, p in (result.get("participants") or {}).items() if isinstance(p, dict)}


@lru_cache(maxsize=None)
def _run(path: Path, lang: str) -> tuple[dict, str, str, str, str]:
    with i18n.using(lang):
        loaded = load_scenario(str(path))
        try:
            result = resolve_scenario(loaded)
        except DrdError:    # a scenario that shows a refusal (expect: exit 1/2) has no transcript
            return {}, "", "", "", ""
        attach_digest(result, loaded)
        shown = player_view(result, loaded.scenario)
        text = render_text(result, width=1000)
        md = render_markdown(result)
        page = html_lib.unescape(re.sub(r"<[^>]+>", " ", render_html(result)))
        players = render_text(shown, width=1000)
    return result, text, md, page, players


def _undeclined(text: str, names: list[str]) -> list[str]:
    bad = []
    for name in names:
        for word in OBLIQUE:
            if re.search(rf"(?<!\w){re.escape(word)} {re.escape(name)}(?!\w)", text):
                bad.append(f"{word} {name}")
    return bad


def _object_in_nominative(text: str, names: list[str]) -> list[str]:
    """`Dva strážní odhaluje Špiónka Zlatka`: a verb between two names makes the second an object
    (accusative, dative …), which an undeclined name cannot be."""
    bad = []
    alternatives = "|".join(re.escape(n) for n in names)
    if not alternatives:
        return bad
    for m in re.finditer(rf"(?<!\w)({alternatives}) ([a-zěščřžýáíéůúňťď]+) ({alternatives})(?!\w)", text):
        if m.group(2) not in ("a", "i", "nebo", "než", "vs", "ani"):
            bad.append(m.group(0))
    return bad


def _plural_mismatch(text: str, result: dict) -> list[str]:
    bad = []
    for p in _names(result).values():
        plural = p.get("rod") == "mn" or (p.get("count") or 1) > 1
        if not plural:
            continue
        for verb in ("vyhrává", "prohrává", "se vyčerpává", "zastavuje", "získává", "reaguje", "jedná", "chrání se"):
            if re.search(rf"{re.escape(str(p['name']))} {verb}\b", text):
                bad.append(f"{p['name']} {verb}")
    return bad


def _gender_mismatch(text: str, result: dict) -> list[str]:
    bad = []
    for p in _names(result).values():
        rod = p.get("rod")
        if rod in (None, "m"):
            continue
        for verb in PAST_M:
            if re.search(rf"{re.escape(str(p['name']))} (?:se )?{re.escape(verb)}\b", text):
                bad.append(f"{p['name']} {verb}")
    return bad


def problems(result: dict, text: str) -> list[str]:
    names = sorted({str(p.get("name")) for p in _names(result).values() if p.get("name")}, key=len, reverse=True)
    found = (_undeclined(text, names) + _object_in_nominative(text, names) + _plural_mismatch(text, result)
             + _gender_mismatch(text, result))
    found += [w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
    # A gender hedge (`uspěl(a)`, `mrtvý/á`) is a sentence that did not know its subject.
    found += [m.group(0) for m in re.finditer(r"\w+\((?:a|o|i|y)\)|\w+/á\b", text)]
    # A raw participant id where the result knows a name (ids are lowercase, names are not); the
    # header's list of rules names plugins, whose ids may be a participant's too.
    text = re.sub(r"^\W*(?:Pravidla|Rules): .*$", " ", text, flags=re.M)
    for pid, p in _names(result).items():
        if p.get("name") and p["name"] != pid and re.search(rf"(?:[:(] |, |^){re.escape(pid)}(?:[,:)]|$)", text, re.M):
            found.append(f"id {pid}")
    return found


def _own_words(path: Path) -> str:
    """The scenario's own strings (notes, labels) are the author's: they are left out of the search."""
    return path.read_text(encoding="utf-8")


def _strip_own(text: str, path: Path, result: dict) -> str:
    notes = result.get("notes")
    if notes:
        text = text.replace(" ".join(str(notes).split()), " ")
    return text


def test_checker_bites():
    result = {"participants": {"zlatka": {"name": "Špiónka Zlatka", "rod": "ž"},
                               "straz": {"name": "Dva strážní", "count": 2}}}
    assert problems(result, "Dva strážní vyhrává nad Špiónka Zlatka") == [
        "nad Špiónka Zlatka", "Dva strážní vyhrává"]
    assert problems(result, "Špiónka Zlatka se vyčerpal (proti: Dva strážní)") == ["Špiónka Zlatka vyčerpal"]
    assert problems(result, "seed None; Tie: counter") == ["None", "counter"]
    assert problems(result, "Dva strážní vyhrávají, Špiónka Zlatka prohrává: 11 > 9") == []
    assert problems(result, "Volba zlatka: v tomto kroku") == []
    assert problems(result, "Volba: zlatka, dále") == ["id zlatka"]
    assert problems(result, "Bára pomáhá: uspěl(a), +1; Kája je mrtvý/á") == ["uspěl(a)", "mrtvý/á"]
    assert problems(result, "Dva strážní odhalují Špiónka Zlatka") == ["Dva strážní odhalují Špiónka Zlatka"]


def test_alternatives_follow_gender_number_and_forms():
    words = Words({"z": {"name": "Zlatka", "rod": "ž", "pady": {"7": "Zlatkou"}},
                   "s": {"name": "Strážní", "count": 2}, "h": {"name": "Hanuš"}})
    fields = {"name": words.who("z"), "other": words.who("s"), "third": words.who("h")}
    assert choose("{name} [[m:vyhrál|ž:vyhrála|*:vyhrává]]", "name", fields).format(**fields) == "Zlatka vyhrála"
    assert choose("[[other=mn:jsou|*:je]]", "name", fields) == "jsou"
    assert choose("[[name@7:nad {name:7}|*:(proti: {name})]]", "name", fields).format(**fields) == "nad Zlatkou"
    assert choose("[[third@7:nad {third:7}|*:(proti: {third})]]", "name", fields).format(**fields) == "(proti: Hanuš)"
    assert choose("{third} [[m:vyhrál|*:vyhrává]]", "third", fields).format(**fields) == "Hanuš vyhrává"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_czech_transcripts_read_right(path):
    result, *texts = _run(path, "cs")
    if not result:
        pytest.skip("a refusal, no transcript")
    bad = {kind: problems(result, _strip_own(text, path, result))
           for kind, text in zip(("text", "md", "html", "players"), texts)}
    assert not any(bad.values()), bad


def english_problems(result: dict, text: str) -> list[str]:
    """A group (`count` > 1) with a singular verb: `Two guards wins over`, `… exhausts against`."""
    bad = [w for w in ("None", "True", "False") if re.search(rf"(?<![\w-]){w}(?![\w-])", text)]
    for p in _names(result).values():
        if (p.get("count") or 1) > 1 or p.get("rod") == "mn":
            for verb in ("wins over", "exhausts", "is faster", "protects", "activates", "reveals"):
                if re.search(rf"{re.escape(str(p['name']))} {verb}\b", text):
                    bad.append(f"{p['name']} {verb}")
    return bad


def test_the_english_checker_bites():
    result = {"participants": {"straz": {"name": "Two guards", "count": 2}, "z": {"name": "Zlatka"}}}
    assert english_problems(result, "Two guards wins over Zlatka; seed None") == ["None", "Two guards wins over"]
    assert english_problems(result, "Two guards win over Zlatka; Zlatka exhausts against Two guards") == []


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_english_transcripts_read_right(path):
    result, *texts = _run(path, "en")
    if not result:
        pytest.skip("a refusal, no transcript")
    for text in texts:
        text = _strip_own(text, path, result)
        assert not english_problems(result, text), (english_problems(result, text), text[:2000])


# `drd diff` of a tie that a house rule gives to the other side: a female actor and a group of two.
DIFF_TIE = """\
format: drd/1
title: Remíza u brány
seed: 3
participants:
  zlatka: {name: Špiónka Zlatka, rod: ž, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 1, levels: {zlodej: 2}}
  straz: {name: Dva strážní, count: 2, sudba: 6, ohrozeni: 2, charakteristika: 2}
rounds:
  - steps:
      - id: brana
        contest:
          action: {actor: zlatka, label: proklouznutí, pool: telo, bonus_from: zlodej, roll: 9,
                   self_effect: {condition: za branou}}
          counters:
            - {actor: straz, kind: harm, pool: telo, roll: 9, effect: {ohrozeni: 1}}
        choices: {zlatka: exhaust}
"""


@pytest.mark.parametrize("lang", ["cs", "en"])
def test_diff_lines_keep_names_in_the_nominative(tmp_path, lang):
    """`drd diff`'s rows and cells phrase pairs and exhaustions as the transcript does: `A ✗ B`,
    `A (proti: B)` — never `A proti B`, `Tělo A` or a verb that ignores gender and number."""
    from typer.testing import CliRunner

    from drd_cli.cli.app import app

    path = tmp_path / "tie.yaml"
    path.write_text(DIFF_TIE, encoding="utf-8")
    res = CliRunner().invoke(app, ["diff", str(path), "--set", "tie=counter", "--lang", lang],
                             env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    result = {"participants": {"zlatka": {"name": "Špiónka Zlatka", "rod": "ž"},
                               "straz": {"name": "Dva strážní", "count": 2}}}
    if lang == "cs":
        assert "Špiónka Zlatka ✗ Dva strážní" in res.output
        assert "Špiónka Zlatka (proti: Dva strážní): 1 Tělo" in res.output
        # The rules table above shows the settings' values as typed (`tie=counter`); the rows below are words.
        assert problems(result, res.output.split("Co se mění", 1)[1]) == []
    else:
        assert "Špiónka Zlatka vs Dva strážní" in res.output and "(against Dva strážní)" in res.output
        assert not re.search(r"(?<![\w-])(None|True|False)(?![\w-])", res.output)


DAKARA_HELPERS = """\
format: drd/1
system: dakara
participants:
  ctibor: {name: Ctibor, skills: {sila: 2}}
  bara: {name: Bára, rod: ž, skills: {sila: 5}}
  jur: {name: Dva tovaryši, skills: {sila: 3}}
rounds:
  - steps:
      - id: dvere
        skill: {actor: ctibor, skill: sila, difficulty: 4, risk: injury,
                helpers: [{actor: bara}, {actor: jur}],
                helper_dice: {jur: {player: 6, narrator: 1}}, dice: {player: 2, narrator: 3}}
"""


def test_dakara_lines_read_right(tmp_path):
    """Dakara's log and transcript: helpers and opponents stay in the nominative, no `uspěl(a)`."""
    path = tmp_path / "dvere.yaml"
    path.write_text(DAKARA_HELPERS.replace("rod: ž, ", ""), encoding="utf-8")
    with i18n.using("cs"):
        loaded = load_scenario(str(path))
        result = resolve_scenario(loaded)
        text = render_text(result, width=1000)
    assert "Síla" in text and "sila" not in text.replace("Síla", "")
    assert problems(result, text) == [], text
