"""R-AWARE (a sleeper cannot react), Jedno oko otevřené (`drd_may_react_asleep`), and the round context of
the views (`ActionView.opponents`) that Kluzký jako úhoř counts its opponents from (issue #11)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tests.abilities.abilities_support import action, participant
from drd_cli.cli.app import app
from drd_cli.errors import RuleViolation
from drd_cli.plugin import hookimpl, is_asleep
from drd_cli.testing import resolve_text
from drd_plugins import vnimani

CAMP = """\
format: drd/1
participants:
  jarik: {name: Jarik, side: družina, pools: {telo: 4, duse: 4, vliv: 3}, conditions: [COND], abilities: ABIL}
  zira: {name: Zíra, side: družina, pools: {telo: 4, duse: 4, vliv: 3}}
  kupec: {name: Kupec, side: trh, pools: {telo: 4, duse: 4, vliv: 3}}
  vlk: {name: Vlk, side: les, sudba: 6, ohrozeni: 2}
rounds:
  - initiative: [vlk, jarik, zira]
    steps:
STEPS
"""

BITE = ("      - id: utok\n"
        "        contest:\n"
        "          action: {actor: vlk, targets: [TARGET], pool: telo, roll: 9, effect: {ohrozeni: 1}}\n"
        "          counters: [COUNTERS]\n"
        "        choices: CHOICES\n")


def camp(counters: str = "", *, target: str = "jarik", choices: str = "{}", cond: str = "spí",
         abilities: str = "[jedno-oko-otevrene]") -> str:
    steps = BITE.replace("TARGET", target).replace("COUNTERS", counters).replace("CHOICES", choices)
    return CAMP.replace("COND", cond).replace("ABIL", abilities).replace("STEPS", steps)


def refused(text: str, **kw) -> RuleViolation:
    """The RuleViolation `text` ends with (its message in English)."""
    from drd_cli.i18n import using

    with using("en"), pytest.raises(RuleViolation) as info:
        resolve_text(text, **kw)
    return info.value


def _cli(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(app, ["resolve", str(path), "--lang", "en"])


# --------------------------------------------------------------------------- the sleep rule (core)

def test_a_sleeper_cannot_counter_exit_1_at_file_line_col(tmp_path):
    res = _cli(tmp_path, camp("{actor: jarik, pool: telo, from: obrana, roll: 12}", abilities="[]"))
    assert res.exit_code == 1
    # the counter's `actor` key: line 13, column 23 (inside the flow mapping of `counters`)
    assert "s.yaml:13:23:" in res.output and "[R-AWARE]" in res.output and "asleep" in res.output


@pytest.mark.parametrize("source", ["from: obrana", "from: initiative"])
def test_no_counter_of_a_sleeper_whatever_its_source(source):
    exc = refused(camp(f"{{actor: jarik, kind: protect, pool: telo, {source}, roll: 12}}", abilities="[]"))
    assert exc.problems[0].rule == "R-AWARE"


@pytest.mark.parametrize("cond", ["spí", "Spí", "spi", "spánek", "spící", "asleep"])
def test_the_sleep_conditions_match_as_czech_names(cond):
    assert refused(camp("{actor: jarik, pool: telo, roll: 12}", cond=cond, abilities="[]")).problems[0].rule == "R-AWARE"
    assert is_asleep(participant(conditions=(cond,)))
    assert participant(conditions=(cond,)).asleep


def test_other_conditions_are_awake():
    r = resolve_text(camp("{actor: jarik, pool: telo, roll: 12}", cond="unavený", abilities="[]"))
    assert r["steps"][0]["actions"]["jarik"]["success"] is True
    assert not participant(conditions=("unavený", "spoutaný")).asleep


def test_a_sleeper_cannot_exhaust_for_itself():
    # Without a counter the bite is a test within the contest (9 ≥ 9): it lands; exhausting is refused.
    exc = refused(camp("", choices="{jarik: exhaust}", abilities="[]"))
    assert exc.problems[0].rule == "R-AWARE" and "exhaust" in exc.problems[0].message
    # accepting is fine, and the action hits him in full
    r = resolve_text(camp("", choices="{jarik: accept}", abilities="[]"))
    assert r["final"]["jarik"]["ohrozeni"] == 1


def test_others_still_protect_and_exhaust_for_a_sleeper():
    # Zíra (awake, her initiative) protects the sleeper and wins: he is shielded.
    r = resolve_text(camp("{actor: zira, kind: protect, protects: [jarik], pool: telo, roll: 12}", abilities="[]"))
    assert r["final"]["jarik"]["ohrozeni"] == 0
    # Zíra counters, loses and exhausts for him (CS-FOR-1): her points, his consequence averted.
    r = resolve_text(camp("{actor: zira, pool: telo, roll: 5}", choices="{zira: {vlk: {exhaust: [jarik]}}}",
                          abilities="[]"))
    ex = r["steps"][0]["exhaustions"]
    assert [(e["by"], e["protected"]) for e in ex] == [("zira", ["jarik"])]
    assert r["final"]["jarik"]["ohrozeni"] == 0 and r["final"]["zira"]["telo"] == 4 - 0   # Ohrožení 0 → costs 0


# --------------------------------------------------------------------------- Jedno oko otevřené

def test_jedno_oko_lets_the_sleeper_counter_and_pays_1_duse():
    r = resolve_text(camp("{actor: jarik, pool: telo, from: obrana, activate: [jedno-oko-otevrene], roll: 12}"))
    step = r["steps"][0]
    assert step["actions"]["jarik"]["success"] is True
    assert r["final"]["jarik"]["duse"] == 3 and r["final"]["jarik"]["ohrozeni"] == 0
    assert step["activations"] == [{"by": "jarik", "ability": "jedno-oko-otevrene", "cost": 1, "pool": "duse"}]
    assert any(e["rule"] == "R-AWARE" and "Jedno oko" in e["text"] for e in step["log"])
    assert "jedno-oko-otevrene" in r["rules"]["enabled"]


def test_jedno_oko_awake_he_may_also_exhaust_for_himself():
    r = resolve_text(camp("{actor: jarik, pool: telo, from: obrana, activate: [jedno-oko-otevrene], roll: 5}",
                          choices="{jarik: exhaust}"))
    assert [e["by"] for e in r["steps"][0]["exhaustions"]] == ["jarik"]
    assert r["final"]["jarik"]["ohrozeni"] == 1        # exhausted: Ohrožení +1, the bite averted


def test_jedno_oko_not_activated_he_is_still_asleep():
    exc = refused(camp("{actor: jarik, pool: telo, from: obrana, roll: 12}"))
    assert exc.problems[0].rule == "R-AWARE" and "jedno-oko-otevrene" in (exc.problems[0].hint or "")


def test_jedno_oko_switched_off_he_is_still_asleep():
    text = camp("{actor: jarik, pool: telo, from: obrana, activate: [jedno-oko-otevrene], roll: 12}")
    assert refused(text, disable=("jedno-oko-otevrene",)).problems[0].rule == "R-AWARE"


def test_jedno_oko_for_a_member_of_his_party():
    # The wolf bites Zíra (his side): Jarik wakes and protects her with his initiative.
    r = resolve_text(camp("{actor: jarik, kind: protect, protects: [zira], pool: telo, "
                          "activate: [jedno-oko-otevrene], roll: 12}", target="zira"))
    assert r["final"]["zira"]["ohrozeni"] == 0 and r["final"]["jarik"]["duse"] == 3


def test_jedno_oko_not_against_a_threat_to_nobody_of_his_party():
    # The wolf bites the merchant (another side): Jedno oko does not wake him, exit 1 naming the rule.
    exc = refused(camp("{actor: jarik, kind: protect, protects: [kupec], pool: telo, "
                       "activate: [jedno-oko-otevrene], roll: 12}", target="kupec"))
    assert exc.problems[0].rule == "R-AWARE" and "party" in exc.problems[0].message


def test_jedno_oko_the_usual_rules_of_reacting_still_hold():
    # As if awake: from obrana he still may not protect someone else (R-MAN-3).
    exc = refused(camp("{actor: jarik, kind: protect, protects: [zira], pool: telo, from: obrana, "
                       "activate: [jedno-oko-otevrene], roll: 12}", target="zira"))
    assert exc.problems[0].rule in ("R-MAN-3", "CS-IND-1")


def test_drd_may_react_asleep_hook_of_jedno_oko():
    ability = vnimani.jedno_oko_otevrene
    sleeper = participant("jarik", abilities=(ability.id,), conditions=("spí",), side="d")
    friend, foe = participant("zira", side="d"), participant("kupec", side="t")
    woken = action("jarik", activated=(ability.id,))
    assert ability.drd_may_react_asleep(sleeper, action("vlk"), (sleeper,), woken)["allow"] is True
    assert ability.drd_may_react_asleep(sleeper, action("vlk"), (friend,), woken)["allow"] is True
    assert ability.drd_may_react_asleep(sleeper, action("vlk"), (foe,), woken)["allow"] is False
    assert ability.drd_may_react_asleep(sleeper, action("vlk"), (sleeper,), action("jarik")) is None   # not activated
    lacking = participant("jarik", conditions=("spí",), side="d")
    assert ability.drd_may_react_asleep(lacking, action("vlk"), (lacking,), woken) is None
    assert ability.status == "shipped" and ability.klass == "A"


def test_a_third_party_drd_may_react_asleep_plugin():
    seen = []

    class Bdelost:
        @hookimpl
        def drd_may_react_asleep(self, sleeper, action, threatened, counter):
            seen.append((sleeper.id, action.actor, tuple(t.id for t in threatened), counter.kind))
            return {"allow": True, "note": "hlídka"} if sleeper.id == "jarik" else None

    r = resolve_text(camp("{actor: jarik, pool: telo, roll: 12}", abilities="[]"), plugins={"bdelost": Bdelost()})
    assert seen == [("jarik", "vlk", ("jarik",), "harm")]
    assert r["steps"][0]["actions"]["jarik"]["success"] is True
    assert any(e["rule"] == "R-AWARE" and "hlídka" in e["text"] for e in r["steps"][0]["log"])

    class Nikdy:
        @hookimpl
        def drd_may_react_asleep(self, sleeper):
            return {"allow": False, "note": "tvrdě spí"}

    exc = refused(camp("{actor: jarik, pool: telo, roll: 12}", abilities="[]"), plugins={"nikdy": Nikdy()})
    assert exc.problems[0].rule == "R-AWARE" and "tvrdě spí" in exc.problems[0].message


def test_a_sleeping_deceived_is_in_situation_1_whatever_it_suspects():
    text = """\
format: drd/1
participants:
  zlodej: {name: Zloděj, side: lapkové, pools: {telo: 5, duse: 5, vliv: 4}, levels: {kejklir: 2}}
  bodlinka: {name: Bodlinka, side: družina, pools: {telo: 4, duse: 5, vliv: 4}, conditions: [spící],
             suspicion: [zlodej], abilities: [sesty-smysl]}
rounds:
  - initiative: [zlodej, bodlinka]
    steps:
      - id: plizeni
        hide: {hidden: zlodej, deceived: [bodlinka], action: {label: plížení, pool: telo}, rolls: {zlodej: 8}}
"""
    r = resolve_text(text)
    assert r["steps"][0]["hide"]["situation"] == "unaware"
    assert r["final"]["bodlinka"]["duse"] == 5              # no Šestý smysl for a sleeper
    awake = resolve_text(text.replace("conditions: [spící],", "conditions: [],").replace("rolls: {zlodej: 8}",
                                                                                       "rolls: {zlodej: 8, bodlinka: 10}"))
    assert awake["steps"][0]["hide"]["situation"] == "chance"


GUARDS = """\
format: drd/1
participants:
  zlodej: {name: Zloděj, side: lapkové, pools: {telo: 5, duse: 5, vliv: 4}, levels: {kejklir: 2}}
  strazny: {name: Strážný, side: hrad, sudba: 6, conditions: [spí]}
  druhy: {name: Druhý strážný, side: hrad, sudba: 6}
rounds:
  - initiative: [zlodej, strazny, druhy]
    steps:
      - id: plizeni
        hide: {hidden: zlodej, deceived: [strazny, druhy], situation: chance,
               action: {label: plížení, pool: telo}, counter: {pool: telo}, rolls: ROLLS}
"""


def test_a_sleeping_deceived_takes_no_part_in_the_shared_counter_of_a_hide_step():
    # R-AWARE in the hide step: the shared `counter` is for those awake; the sleeper reacts to nothing.
    r = resolve_text(GUARDS.replace("ROLLS", "{zlodej: 9, druhy: 7}"))
    step = r["steps"][0]
    assert step["hide"]["situation"] == "chance" and "strazny" not in step["rolls"]
    assert set(step["rolls"]) == {"zlodej", "druhy"}
    alone = resolve_text(GUARDS.replace("deceived: [strazny, druhy]", "deceived: [strazny]")
                         .replace("ROLLS", "{zlodej: 9}"))
    assert set(alone["steps"][0]["rolls"]) <= {"zlodej"}      # nobody awake to notice: no contest


def test_a_roll_given_to_a_sleeping_deceived_is_refused():
    with pytest.raises(RuleViolation) as exc:
        resolve_text(GUARDS.replace("ROLLS", "{zlodej: 9, strazny: 11, druhy: 7}"))
    assert exc.value.problems[0].rule == "R-AWARE"
    assert tuple(exc.value.problems[0].path)[-2:] == ("rolls", "strazny")


def test_a_trap_against_a_sleeper_lands_without_a_reaction():
    text = """\
format: drd/1
participants:
  jarik: {name: Jarik, side: družina, pools: {telo: 4, duse: 4, vliv: 3}, conditions: [spí]}
rounds:
  - initiative: [jarik]
    steps:
      - id: past
        hide: {hidden: nástražná past, deceived: [jarik], situation: chance,
               action: {label: sklapnutí, pool: telo, targets: [jarik], effect: {ohrozeni: 1}},
               counter: {pool: telo}}
"""
    r = resolve_text(text)
    assert "jarik" not in r["steps"][0]["rolls"]
    assert r["final"]["jarik"]["ohrozeni"] == 1


# --------------------------------------------------------------------------- Kluzký jako úhoř: opponents this round

MARKET = """\
format: drd/1
participants:
  ambroz: {name: Ambrož, side: družina, pools: {telo: 4, duse: 4, vliv: 4}, TRAITSabilities: [kluzky-jako-uhor]}
  kupec: {name: Kupec, side: trh, sudba: 6, ohrozeni: 1}
  lichvar: {name: Lichvář, side: trh, sudba: 6, ohrozeni: 1}
  druh: {name: Druh, side: družina, pools: {telo: 4, duse: 4, vliv: 4}}
rounds:
  - initiative: [kupec, lichvar, druh, ambroz]
    spent: [ambroz]
    steps:
STEPS
"""


def deal(actor: str, target: str = "ambroz") -> str:
    return (f"      - contest:\n"
            f"          action: {{actor: {actor}, targets: [{target}], pool: vliv, means: dealing, roll: 9, "
            f"effect: {{ohrozeni: 1}}}}\n"
            f"          counters: [{{actor: ambroz, pool: vliv, means: dealing, from: obrana, roll: 11}}]\n")


def market(*steps: str, traits: str = "") -> dict:
    return resolve_text(MARKET.replace("TRAITS", traits).replace("STEPS", "".join(steps)))


def obrana_paid(r: dict) -> list:
    return [m["paid"] for s in r["steps"] for m in s["manoeuvres"] if m["by"] == "ambroz" and m["name"] == "obrana"]


def test_kluzky_reacting_against_one_of_two_opponents_is_free():
    r = market(deal("kupec"), "      - test: {actor: lichvar, targets: [ambroz], pool: vliv, roll: 5}\n")
    assert obrana_paid(r) == ["free"] and r["final"]["ambroz"]["vliv"] == 4


def test_kluzky_against_a_lone_opponent_is_not_free():
    r = market(deal("kupec"))
    assert obrana_paid(r) == ["vliv"] and r["final"]["ambroz"]["vliv"] == 3
    # an ally acting on him is no opponent
    r = market(deal("kupec"), "      - test: {actor: druh, targets: [ambroz], pool: vliv, roll: 5}\n")
    assert obrana_paid(r) == ["vliv"]


def test_kluzky_is_once_per_round():
    r = market(deal("kupec"), deal("lichvar"))
    assert obrana_paid(r) == ["free", "vliv"] and r["final"]["ambroz"]["vliv"] == 3


def test_kluzky_the_trait_still_overrides():
    r = market(deal("kupec"), traits="traits: [více protivníků], ")
    assert obrana_paid(r) == ["free"]


def test_the_action_view_carries_the_round_opponents():
    seen = {}

    class Spy:
        @hookimpl
        def drd_free_manoeuvre(self, participant, action, manoeuvre):
            seen[participant.id] = (action.opponents, action.opponent_beings)

    text = MARKET.replace("TRAITS", "").replace("STEPS", deal("kupec") + (
        "      - test: {actor: lichvar, targets: [ambroz], pool: vliv, roll: 5}\n"
        "      - test: {actor: druh, targets: [ambroz], pool: vliv, manoeuvres: [presne], roll: 5}\n"
        "  - initiative: [kupec, ambroz]\n"
        "    steps:\n"
        "      - test: {actor: ambroz, targets: [kupec], pool: vliv, manoeuvres: [presne], roll: 5}\n")).replace(
        "kupec: {name: Kupec, side: trh, sudba: 6, ohrozeni: 1}",
        "kupec: {name: Kupci, side: trh, sudba: 6, ohrozeni: 1, count: 2}")
    r = resolve_text(text, plugins={"spy": Spy()})
    assert seen["druh"] == ((), 0)                             # his own side: no opponent
    assert seen["ambroz"] == (("kupec",), 2)                   # round 2: only the Kupci (two beings)
    first = resolve_text(text.split("  - initiative: [kupec, ambroz]")[0], plugins={"spy": Spy()})
    assert first and seen["ambroz"] == (("kupec", "lichvar"), 3)   # round 1: the Kupci and the Lichvář
    assert r["steps"][0]["manoeuvres"][0]["via"] == "kluzky-jako-uhor"


def test_a_sleeper_cannot_answer_a_plosna_counter_either():
    # plosna-protiakce resolves the contest itself: the sleeping archer cannot answer Hrun's cut rope.
    from pathlib import Path

    text = (Path(__file__).parents[2] / "scenarios" / "hrun-provazovy-most.yaml").read_text(encoding="utf-8")
    text = text.split("\nexpect:")[0].replace("    sudba: 4\n    ohrozeni: 2\n    zone: most\n  skokan:",
                                              "    sudba: 4\n    ohrozeni: 2\n    zone: most\n    conditions: [spí]\n"
                                              "  skokan:")
    assert "conditions: [spí]" in text
    assert refused(text).problems[0].rule == "R-AWARE"


@pytest.mark.parametrize("situation, resolved, rolled", [("unaware", "none", False), ("chance", "challenge", True),
                                                         ("search", "test", True)])
def test_a_sleeping_hidden_does_not_resist(situation, resolved, rolled):
    # The book's drunk captain asleep in a barrel (CS-HIDE-1): he hides nothing, he is only there to
    # be noticed — unaware: no roll; a chance: a výzva; searching: a test (R-AWARE, not exit 1).
    text = f"""\
format: drd/1
participants:
  kapitan: {{name: Kapitán stráže, sudba: 6, conditions: [spí]}}
  jarik: {{name: Jarik, pools: {{telo: 4, duse: 4, vliv: 3}}}}
rounds:
  - steps:
      - id: ulicka
        hide: {{hidden: kapitan, deceived: [jarik], situation: {situation}, counter: {{pool: duse}},
               rolls: {{jarik: 10}}}}
"""
    step = resolve_text(text)["steps"][0]
    assert step["hide"]["resolved_as"] == resolved and ("jarik" in step["rolls"]) is rolled
    with pytest.raises(RuleViolation) as exc:
        resolve_text(text.replace("situation:", "resists: true, situation:"))
    assert exc.value.problems[0].rule == "R-AWARE"
