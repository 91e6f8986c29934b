"""Bad input about abilities (issue #11): an unknown ability is exit 2 at file:line:col with "did you
mean" over the catalogue; an ability key its plugin does not take, a weapon type it cannot have or a
missing required key is exit 2 at the key; activating an ability the actor lacks, or one without an
activation, is exit 1 naming R-ABIL-ACT."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

BASE = """\
format: drd/1
title: schopnosti
participants:
  a:
    name: Bořek
    pools: {telo: 5, duse: 5, vliv: 5}
    equipment: [meč]
    abilities: %s
rounds:
  - steps:
      - test: {actor: a, skill: bezny-boj-zblizka, means: melee, roll: 10%s}
"""


def run(tmp_path, monkeypatch, abilities: str, extra: str = ""):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(BASE % (abilities, extra), encoding="utf-8")
    return CliRunner().invoke(app, ["resolve", "s.yaml"])


pytestmark = pytest.mark.usefixtures("english")


def test_the_issue_example_is_accepted(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "[gladiator, {id: cit-pro-zbran, weapon: meč}, rameno-na-rameno]")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("written,meant", [("gladiatr", "gladiator"), ("Gladiátor", "gladiator"),
                                          ("Šampión", "sampion"), ("rameno-na-ramen", "rameno-na-rameno")])
def test_unknown_ability_did_you_mean(tmp_path, monkeypatch, written, meant):
    r = run(tmp_path, monkeypatch, f"[{written}]")
    assert r.exit_code == 2
    assert f"s.yaml:8:17: unknown ability '{written}'" in r.output
    assert f"did you mean '{meant}'?" in r.output
    assert "Traceback" not in r.output


def test_unknown_key_is_exit_2_at_the_key(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "[{id: cit-pro-zbran, weapon: meč, zbran: meč}]")
    assert r.exit_code == 2
    assert "s.yaml:8:" in r.output and "the ability 'cit-pro-zbran' has no key 'zbran'" in r.output
    r = run(tmp_path, monkeypatch, "[{id: gladiator, weapon: meč}]")
    assert r.exit_code == 2 and "takes no keys of its own" in r.output


def test_weapon_type_it_cannot_have(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "[{id: cit-pro-zbran, weapon: luk}]")
    assert r.exit_code == 2
    assert "Cit pro zbraň cannot have weapon: 'luk'" in r.output
    r = run(tmp_path, monkeypatch, "[{id: dobra-muska, weapon: luky}]")
    assert r.exit_code == 2 and "did you mean 'luk'?" in r.output


def test_required_key_missing(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "[cit-pro-zbran]")
    assert r.exit_code == 2 and "the ability 'cit-pro-zbran' needs its key 'weapon'" in r.output


def test_int_key(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "[{id: pan-symbolu, links: dva}]")
    assert r.exit_code == 2 and "links must be a whole number" in r.output


def test_keys_of_a_disabled_ability_are_not_read(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.yaml").write_text(BASE % ("[{id: cit-pro-zbran, weapon: luk}]", ""), encoding="utf-8")
    r = CliRunner().invoke(app, ["resolve", "s.yaml", "--disable", "cit-pro-zbran"])
    assert r.exit_code == 0, r.output


def test_activating_an_ability_the_actor_lacks(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "[gladiator]", ", activate: [styky]")
    assert r.exit_code == 1
    assert "Bořek activates 'styky', an ability it does not have [R-ABIL-ACT]" in r.output


def test_activating_an_ability_without_activation(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "[gladiator]", ", activate: [gladiator]")
    assert r.exit_code == 1
    assert "has no activation" in r.output and "[R-ABIL-ACT]" in r.output


def test_activating_an_ability_paid_in_suroviny_needs_its_variant(tmp_path, monkeypatch):
    r = run(tmp_path, monkeypatch, "[neobvykle-jedy]", ", activate: [neobvykle-jedy]")
    assert r.exit_code == 2, r.output
    assert "s.yaml:11:" in r.output and "activating Neobvyklé jedy needs its key 'variant'" in r.output
    assert "{id: neobvykle-jedy, variant: …}" in r.output and "dlouhy: 3 Suroviny" in r.output


def test_drd_abilities_card_and_unknown(tmp_path, monkeypatch):
    r = CliRunner().invoke(app, ["abilities", "cit-pro-zbran"])
    assert r.exit_code == 0
    assert "Cit pro zbraň (cit-pro-zbran)" in r.output and "weapon" in r.output and "nadani" in r.output
    assert "{id: cit-pro-zbran, weapon: meč}" in r.output
    r = CliRunner().invoke(app, ["abilities", "Rameno na rameno"])
    assert r.exit_code == 0 and "(rameno-na-rameno)" in r.output
    r = CliRunner().invoke(app, ["abilities", "gladiatr"])
    assert r.exit_code == 2 and "did you mean 'gladiator'?" in r.output and "Traceback" not in r.output


def test_drd_abilities_card_shows_the_parameters_the_abilitys_own_plugin_declares():
    r = CliRunner().invoke(app, ["abilities", "skvely-taktik"])
    assert r.exit_code == 0 and "skvely_taktik = obrana (obrana | obrana-round | none; R-ABIL-FREE)" in r.output
    r = CliRunner().invoke(app, ["abilities", "skvely-taktik", "--json"])
    assert r.exit_code == 0 and '"skvely_taktik"' in r.output
    r = CliRunner().invoke(app, ["abilities", "hlava-nehlava"])
    assert r.exit_code == 0 and "skvely_taktik" not in r.output and "weapon" in r.output


def test_drd_abilities_lists_86_and_plugins_kind_filter():
    r = CliRunner().invoke(app, ["abilities"])
    assert r.exit_code == 0 and len(r.output.strip().splitlines()) == 86
    r = CliRunner().invoke(app, ["plugins", "--kind", "ability"])
    assert r.exit_code == 0
    assert "outside the conflict engine" in r.output and "narrative" in r.output
    assert "ukryvani" not in r.output
