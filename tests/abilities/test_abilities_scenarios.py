"""Per ability (issue #11): a scenario in scenarios/ lists it, and its `expect:` holds with the ability
and fails with the ability switched off (`--disable ID`) — the difference its mechanic predicts."""

from __future__ import annotations

from pathlib import Path

import pytest
from ruamel.yaml import YAML

from tests.abilities.test_abilities_catalogue import EXPECTED

ROOT = Path(__file__).resolve().parents[2]
CLASS_A = sorted(a for a, (k, _f) in EXPECTED.items() if k == "A")


def _outcome(path: Path, disable: tuple[str, ...] = ()) -> list:
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.check import compare_result
    from drd_cli.errors import DrdError

    expect = YAML(typ="safe").load(path.read_text(encoding="utf-8"))["expect"]
    result, code, text = None, 0, ""
    try:
        result = resolve_scenario(load_scenario(str(path)), seed=1, disable=disable)
    except DrdError as exc:
        code, text = exc.exit_code, exc.format()
    return compare_result(expect, result, code, text)


@pytest.fixture(scope="module")
def shown():
    from drd_cli.abilities import scenario_index

    return scenario_index(ROOT)


@pytest.mark.parametrize("aid", CLASS_A)
def test_the_ability_changes_its_scenario(shown, aid):
    files = shown.get(aid) or []
    assert files, f"no scenario lists {aid}"
    decisive = []
    for name in files:
        path = ROOT / "scenarios" / name
        if "expect" not in (YAML(typ="safe").load(path.read_text(encoding="utf-8")) or {}):
            continue
        assert not _outcome(path), f"{name}: its expect does not hold"
        if _outcome(path, disable=(aid,)):
            decisive.append(name)
    assert decisive, f"switching {aid} off changes nothing any of {files} expects"


# --------------------------------------------------------------------------- the readings, end to end

HERO = """\
format: drd/1
participants:
  hrdina: {name: Hrdina, side: d, pools: {telo: 5, duse: 5, vliv: 5}, ohrozeni: 2, equipment: [meč], abilities: %s}
  nepritel: {name: Nepřítel, side: n, sudba: 8, ohrozeni: 1, abilities: %s}
rounds:
  - initiative: [hrdina, nepritel]
    steps:
%s
"""


def _final(abilities: str, steps: str, foe: str = "[]", **kw) -> dict:
    from drd_cli.testing import resolve_text

    return resolve_text(HERO % (abilities, foe, steps), **kw)["final"]


def test_zbehlost_reading_basic_free_all():
    steps = "      - test: {actor: hrdina, skill: bezny-boj-zblizka, manoeuvres: [presne, presne], roll: 10}"
    assert _final("[gladiator]", steps)["hrdina"]["telo"] == 4
    assert _final("[gladiator]", steps, params={"zbehlost": "basic-free-all"})["hrdina"]["telo"] == 5


def test_nadani_reading_allowance_2():
    steps = ("      - test: {actor: hrdina, means: melee, manoeuvres: [presne, mocne, lstive], roll: 10}")
    hero = "[{id: cit-pro-zbran, weapon: meč}]"
    assert _final(hero, steps, params={"max_manoeuvres": "3"})["hrdina"]["telo"] == 4      # two of three free
    got = _final(hero, steps, params={"max_manoeuvres": "1", "nadani": "allowance-2"})
    assert got["hrdina"]["telo"] == 2                                                       # allowed, all paid
    from drd_cli.errors import DrdError

    with pytest.raises(DrdError):                # without the allowance the cap of 1 refuses three
        _final(hero, steps, params={"max_manoeuvres": "1"})


def test_lvi_srdce_reading_vliv_duse():
    steps = ("      - contest:\n          action: {actor: nepritel, targets: [hrdina], pool: duse, roll: 12, "
             "effect: {ohrozeni: 1}}\n          counters: [{actor: hrdina, pool: duse, roll: 8}]\n"
             "        choices: {hrdina: exhaust}")
    assert _final("[lvi-srdce]", steps)["hrdina"]["duse"] == 3
    assert _final("[lvi-srdce]", steps, params={"lvi_srdce": "vliv-duse"})["hrdina"]["duse"] == 4


def test_padny_uder_natural_reading():
    steps = ("      - contest:\n          action: {actor: nepritel, targets: [hrdina], pool: telo, means: melee, roll: 12, "
             "effect: {ohrozeni: 1}}\n          counters: [{actor: hrdina, pool: telo, roll: 8}]\n"
             "        choices: {hrdina: exhaust}")
    assert _final("[zubri-kuze]", steps, foe="[padny-uder]")["hrdina"]["telo"] == 4
    assert _final("[zubri-kuze]", steps, foe="[padny-uder]", params={"padny_uder_natural": "true"})["hrdina"]["telo"] == 3


def test_kluzky_jako_uhor_reading_any():
    steps = ("      - test: {actor: hrdina, pool: telo, means: melee, targets: [nepritel], manoeuvres: [obrana], roll: 10}")
    hero = "[kluzky-jako-uhor]"
    doc_traits = HERO.replace("abilities: %s}\n  nepritel", "traits: [více protivníků], abilities: %s}\n  nepritel", 1)
    from drd_cli.testing import resolve_text

    default = resolve_text(doc_traits % (hero, "[]", steps))["final"]["hrdina"]["telo"]
    anyway = resolve_text(doc_traits % (hero, "[]", steps), params={"kluzky_jako_uhor": "any"})["final"]["hrdina"]["telo"]
    assert (default, anyway) == (4, 5)
