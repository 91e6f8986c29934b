"""Built-in plugins (abilities, prostredi), discovery, and a third-party plugin from a temp folder.

Hooks exercised: drd_plugin_info, drd_free_manoeuvre, drd_armour_adjustment, drd_indirect_threats,
drd_followup, drd_round_end (and drd_step_types / drd_resolve_contest in their plugins' tests).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from drd_cli.errors import DrdError
from tests.plugins.plugin_support import fake_dist
from drd_cli.testing import drd_manager, drd_resolve, resolve_text, step  # noqa: F401 - fixtures

# --------------------------------------------------------------------------- abilities

KRUH = """
format: drd/1
participants:
  bazimir: {name: Bazimír, pools: {telo: 6, duse: 3, vliv: 3}, levels: {bojovnik: 3}, abilities: [kruhovy-sek],
            zone: krcma}
  a: {sudba: 3, zone: krcma}
  b: {sudba: 3, zone: krcma}
rounds:
  - steps:
      - id: sek
        test: {actor: bazimir, pool: telo, means: melee, manoeuvres: [rozsahle], roll: 10,
               effect: {ohrozeni: 1}, %s}
"""


def test_kruhovy_sek_free_rozsahle_only_plosne_on_sevrena_hrstka():
    r = resolve_text(KRUH % "area: true, zone: krcma, group: sevřená hrstka")
    m = step(r, "sek")["manoeuvres"][0]
    assert (m["paid"], m["via"]) == ("free", "kruhovy-sek")   # §7: via is the id
    assert r["final"]["bazimir"]["telo"] == 6
    # chosen targets: not plošná → paid
    r = resolve_text(KRUH % "targets: [a, b]")
    assert step(r, "sek")["manoeuvres"][0]["paid"] == "telo" and r["final"]["bazimir"]["telo"] == 5
    # a houf is too big → paid, and the transcript says why
    r = resolve_text(KRUH % "area: true, zone: krcma, group: sevřený houf")
    s = step(r, "sek")
    assert s["manoeuvres"][0]["paid"] == "telo"
    assert any("Kruhový sek" in line["text"] for line in s["log"])
    # disabled → paid
    r = resolve_text(KRUH % "area: true, zone: krcma, group: sevřená hrstka", disable=("kruhovy-sek",))
    assert r["final"]["bazimir"]["telo"] == 5


PADNY = """
format: drd/1
participants:
  borri: {pools: {telo: 6, duse: 3, vliv: 3}, levels: {bojovnik: 3}, abilities: [%s]}
  skret: {sudba: 6, ohrozeni: 2, armour: 1}
rounds:
  - steps:
      - id: uder
        contest:
          action: {actor: borri, pool: telo, targets: [skret], roll: 11, effect: {jizva: Rána}}
          counters: [{actor: skret, kind: protect, pool: telo, roll: 7}]
        choices: {skret: exhaust}
"""


def test_padny_uder_armour_minus_one():
    plain = resolve_text(PADNY % "")
    assert step(plain, "uder")["exhaustions"][0]["cost"] == 1          # Ohrožení 2 − armour 1
    r = resolve_text(PADNY % "padny-uder")
    assert step(r, "uder")["exhaustions"][0]["cost"] == 2              # armour counts 1 less
    r = resolve_text(PADNY % "padny-uder", disable=("padny-uder",))
    assert step(r, "uder")["exhaustions"][0]["cost"] == 1


RODOVA = """
format: drd/1
participants:
  trpaslik: {pools: {telo: 5, duse: 3, vliv: 3}, equipment: [rodová sekera], abilities: [{id: rodova-zbran, weapon: sekera}]}
  a: {sudba: 6}
  b: {sudba: 6}
rounds:
  - spent: [trpaslik]
    steps:
      - {id: v1, contest: {action: {actor: a, targets: [trpaslik], means: melee, roll: 7},
                           counters: [{actor: trpaslik, means: melee, from: obrana, manoeuvres: [obrana], roll: 10}]}}
      - {id: v2, contest: {action: {actor: b, targets: [trpaslik], means: melee, roll: 7},
                           counters: [{actor: trpaslik, means: melee, from: obrana, manoeuvres: [obrana], roll: 10}]}}
  - spent: [trpaslik]
    steps:
      - {id: v3, contest: {action: {actor: a, targets: [trpaslik], means: melee, roll: 7},
                           counters: [{actor: trpaslik, means: melee, from: obrana, manoeuvres: [obrana], roll: 10}]}}
"""


def test_rodova_zbran_free_obrana_once_per_round():
    r = resolve_text(RODOVA)
    paid = [step(r, s)["manoeuvres"][0]["paid"] for s in ("v1", "v2", "v3")]
    assert paid == ["free", "telo", "free"]
    assert r["final"]["trpaslik"]["telo"] == 4


def test_drd_free_manoeuvre_direct(drd_manager):
    from abilities_support import action, participant
    from drd_plugins import kruhovy_sek, rodova_zbran

    hero = participant("x", abilities=("rodova-zbran",), options={"rodova-zbran": {"weapon": "sekera"}})
    pm = drd_manager({"rodova-zbran": rodova_zbran, "kruhovy-sek": kruhovy_sek})
    answers = pm.hook.drd_free_manoeuvre(participant=hero, action=action("x", means="melee"), manoeuvre="obrana",
                                         params={})
    assert answers == [{"free": True, "via": "Rodová zbraň", "key": "rodova-zbran", "per": "round"}]


def test_padny_uder_adds_one_per_protected_with_worn_armour_against_its_holders_bodily_attack():
    """R-EXH-3 / RULES §3: Pádný úder (drd_exhaustion_cost) — +1 while worn armour discounts, never otherwise."""
    from drd_cli.views import BreakdownEntry
    from drd_plugins import padny_uder

    class P:
        def __init__(self, has):
            self._has = has

        def has_ability(self, a):
            return self._has

    class X:
        def __init__(self, has, pool="telo"):
            self.winner, self.action = P(has), type("A", (), {"threat_pool": pool})()

    worn = BreakdownEntry("t", 3, (("kroužková košile", -1),), 0, (), 2)
    bare = BreakdownEntry("t", 3, (), 0, (), 3)
    assert padny_uder.drd_exhaustion_cost(exhaustion=X(True), entry=worn, params={}) == 1
    assert padny_uder.drd_exhaustion_cost(exhaustion=X(True), entry=bare, params={}) is None
    assert padny_uder.drd_exhaustion_cost(exhaustion=X(False), entry=worn, params={}) is None
    assert padny_uder.drd_exhaustion_cost(exhaustion=X(True, "vliv"), entry=worn, params={}) is None


def test_drd_plugin_info_of_every_builtin():
    import importlib

    from drd_cli.rules import BUILTIN_PLUGINS

    for pid in BUILTIN_PLUGINS:
        module = importlib.import_module("drd_plugins." + pid.replace("-", "_"))
        info = module.drd_plugin_info()
        assert info["title"] and info["kind"] in ("rule area", "ability", "step type", "house rule"), pid


# --------------------------------------------------------------------------- prostredi

ENV = """
format: drd/1
participants:
  taran: {pools: {telo: 5, duse: 3, vliv: 3}}
  kusaj: {pools: {telo: 5, duse: 3, vliv: 3}}
environment:
  - id: boure
    until: 1
    challenge: {name: písečná bouře, affects: all, pool: telo, effect: {ohrozeni: 1},
                react: {taran: delayed}, rolls: {taran: 10}}
rounds:
  - steps:
      - {id: priprava, declare: {actor: kusaj, note: krčí se}}
  - steps: []
"""


def test_round_end_environment_action():
    r = resolve_text(ENV)
    ids = [s["id"] for s in r["steps"]]
    assert ids == ["priprava", "boure"]                      # after the round's steps, only up to `until`
    assert r["final"]["kusaj"]["ohrozeni"] == 1 and r["final"]["taran"]["ohrozeni"] == 0
    with pytest.raises(DrdError) as info:
        resolve_text(ENV, disable=("prostredi",))
    assert info.value.exit_code == 1 and "prostredi" in info.value.format()


def test_drd_round_end_and_drd_followup_direct():
    from drd_plugins import prostredi

    from drd_cli.testing import load_text_scenario

    sc = load_text_scenario(ENV).scenario
    out = prostredi.drd_round_end(scenario=sc, round_index=1, round=sc.rounds[0])
    assert [e[0] for e in out] == ["boure"]
    assert prostredi.drd_round_end(scenario=sc, round_index=2, round=sc.rounds[1]) == []

    class F:
        challenge = "výzva"

    assert prostredi.drd_followup(followup=F()) == "výzva"


FOLLOW = """
format: drd/1
participants:
  jed: {pools: {telo: 5, duse: 3, vliv: 3}, levels: {lovec: 2}}
  ork: {sudba: 5}
  druhy: {sudba: 5}
rounds:
  - steps:
      - id: bodnuti
        contest:
          action: {actor: jed, pool: telo, targets: [ork], roll: %d, effect: {ohrozeni: 1},
                   followup: {challenge: {name: jed, pool: telo, effect: {jizva: Otrava}}}}
          counters: [{actor: ork, kind: protect, pool: telo, roll: 8}]
"""


def test_followup_only_where_the_action_got_through():
    r = resolve_text(FOLLOW % 10)
    assert r["final"]["ork"]["jizvy"] == ["Otrava"]
    r = resolve_text(FOLLOW % 7)
    assert r["final"]["ork"]["jizvy"] == []


INDIRECT = """
format: drd/1
participants:
  skret: {sudba: 5}
  hrdina: {pools: {telo: 5, duse: 3, vliv: 3}, levels: {bojovnik: 2}}
rounds:
  - initiative: [hrdina, skret]
    steps:
      - {id: prvni, declare: {actor: hrdina, from: initiative, note: útok jinde}}
      - id: paka
        contest:
          action: {actor: skret, label: páka, pool: telo, roll: 8 %s}
          counters: [{actor: hrdina, from: obrana, kind: harm, pool: telo, roll: 10, manoeuvres: [obrana]}]
"""


def test_indirect_threat_lets_the_threatened_react_from_obrana():
    r = resolve_text(INDIRECT % ", threatens: [hrdina]")
    assert step(r, "paka")["actions"]["hrdina"]["success"] is True


def test_indirect_threat_refusals():
    with pytest.raises(DrdError) as info:          # not threatened → no obrana
        resolve_text(INDIRECT % "")
    assert info.value.exit_code == 1 and "CS-IND-1" in info.value.format()
    with pytest.raises(DrdError) as info:          # `threatens` needs the plugin
        resolve_text(INDIRECT % ", threatens: [hrdina]", disable=("prostredi",))
    assert info.value.exit_code == 1 and "prostredi" in info.value.format()


def test_drd_indirect_threats_direct():
    from drd_plugins import prostredi

    class Ch:
        affects = ["b"]

    class Fu:
        challenge = Ch()

    class A:
        threatens = ["a"]
        followup = Fu()

    assert prostredi.drd_indirect_threats(action=A()) == ["a", "b"]


# --------------------------------------------------------------------------- discovery

STIT = '''
from drd_cli.hookspecs import hookimpl

@hookimpl
def drd_plugin_info():
    return {"title": "Štít předků", "kind": "ability", "rules": ["R-MAN-2"]}

@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre):
    if manoeuvre != "presne" or not participant.has_ability("stit-predku"):
        return None
    return {"free": True, "via": "Štít předků", "key": "stit-predku", "per": "round"}
'''

# Ulrich's přesně, free with the tutorial's Štít předků (examples/drd-stit-predku).
PRESNE = (Path(__file__).parents[1] / "data" / "stit-predku.yaml").read_text(encoding="utf-8")


def test_third_party_plugin_from_a_temp_folder(tmp_path, monkeypatch, installed_plugins):
    from typer.testing import CliRunner

    import typer

    from drd_cli.cli import plugins_cmd

    fake_dist(tmp_path, "drd-stit-predku", {"stit-predku": "drd_tp_stit"}, {"drd_tp_stit": STIT})
    monkeypatch.syspath_prepend(str(tmp_path))
    app = typer.Typer()
    app.callback()(lambda: None)
    plugins_cmd.mount(app)
    out = CliRunner().invoke(app, ["plugins"])
    assert out.exit_code == 0 and "stit-predku" in out.stdout and "drd-stit-predku" in out.stdout
    r = resolve_text(PRESNE)
    assert step(r, "t")["manoeuvres"][0]["via"] == "stit-predku" and r["final"]["ulrich"]["telo"] == 5
    group = tmp_path / "bez.yaml"
    group.write_text("name: bez\ndisable: [stit-predku]\n", encoding="utf-8")
    r = resolve_text(PRESNE, group=str(group))
    assert step(r, "t")["manoeuvres"][0]["paid"] == "telo" and r["final"]["ulrich"]["telo"] == 4


def test_import_failure_names_the_plugin_and_how_to_disable(tmp_path, monkeypatch, installed_plugins):
    fake_dist(tmp_path, "drd-rozbity", {"rozbity": "drd_tp_rozbity"},
              {"drd_tp_rozbity": "raise RuntimeError('kaput')\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(DrdError) as info:
        resolve_text(PRESNE.replace("[stit-predku]", "[]"))
    text = info.value.format()
    assert "rozbity" in text and "drd-rozbity" in text and "--disable rozbity" in text
    r = resolve_text(PRESNE.replace("[stit-predku]", "[]"), disable=("rozbity",))
    assert r["final"]["ulrich"]["telo"] == 4


def test_disabled_plugins_are_never_imported(tmp_path, monkeypatch, installed_plugins):
    fake_dist(tmp_path, "drd-spion", {"spion": "drd_tp_spion"}, {"drd_tp_spion": STIT})
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "drd_tp_spion", raising=False)
    # The participant lists the ability `spion`: listed while off is allowed (it just does nothing).
    scenario = PRESNE.replace("stit-predku", "spion")
    resolve_text(scenario, disable=("spion",))
    assert "drd_tp_spion" not in sys.modules
    resolve_text(scenario)
    assert "drd_tp_spion" in sys.modules


def test_drd_resolve_fixture_with_an_uninstalled_plugin(drd_resolve, tmp_path):
    import importlib.util

    path = tmp_path / "stit_modul.py"
    path.write_text(STIT, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("stit_modul_fixture", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    r = drd_resolve(PRESNE, plugins={"stit-predku": module})
    assert r["final"]["ulrich"]["telo"] == 5
    r = drd_resolve(PRESNE, plugins={"stit-predku": module}, disable=("stit-predku",))
    assert r["final"]["ulrich"]["telo"] == 4
