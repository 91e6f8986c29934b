"""R-AWARE, the two holes closed: a sleeper takes no action of his own (whatever the step type,
plugin step types through the toolkit included), and a sleeper cannot react to a výzva — he
suffers it unless protected — while Jedno oko otevřené, activated in his `react` entry (a mapping
`{from, activate}`), lets him undergo it as if awake, paying its 1 Duše (R-ABIL-ACT)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.errors import RuleViolation, ScenarioError
from drd_cli.plugin import StepType, StrictModel, hookimpl
from drd_cli.testing import resolve_text

ROOT = Path(__file__).resolve().parents[2]

CAMP = """\
format: drd/1
participants:
  jarik: {name: Jarik, side: družina, pools: {telo: 4, duse: DUSE, vliv: 3}, conditions: [spí], abilities: ABIL}
  zira: {name: Zíra, side: družina, pools: {telo: 4, duse: 4, vliv: 3}}
  vlk: {name: Vlk, side: les, sudba: 6, ohrozeni: 2}
rounds:
  - initiative: [vlk, jarik, zira]
    DELAY
    steps:
STEPS
"""


def camp(steps: str, *, abilities: str = "[jedno-oko-otevrene]", duse: int = 4, delay: str = "") -> str:
    return (CAMP.replace("ABIL", abilities).replace("DUSE", str(duse)).replace("STEPS", steps)
            .replace("    DELAY\n", f"    delay: {delay}\n" if delay else ""))


def refused(text: str, **kw) -> RuleViolation:
    from drd_cli.i18n import using

    with using("en"), pytest.raises(RuleViolation) as info:
        resolve_text(text, **kw)
    return info.value


def cli(tmp_path, text: str, *args: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(app, ["resolve", str(path), "--lang", "en", *args])


def column(text: str, line: int, key: str) -> int:
    """The 1-based column of `key` on 1-based `line` of `text`."""
    return text.splitlines()[line - 1].index(key) + 1


# --------------------------------------------------------------------------- 1. a sleeper does nothing

OWN = {
    "test": "      - test: {actor: jarik, pool: telo, roll: 10}\n",
    "test-actors": "      - test: {actors: [zira, jarik], pool: telo, rolls: {zira: 10, jarik: 10}}\n",
    "contest": ("      - contest:\n"
                "          action: {actor: jarik, targets: [vlk], pool: telo, roll: 10, effect: {ohrozeni: 1}}\n"),
    "declare": "      - declare: {actor: jarik, label: zívne, note: otočí se}\n",
    "declare-initiative": "      - declare: {actor: jarik, from: initiative, label: zívne}\n",
    "race": "      - race: {actors: [zira, jarik], pool: telo, rolls: {zira: 10, jarik: 8}}\n",
}


@pytest.mark.parametrize("kind", sorted(OWN))
def test_a_sleeper_takes_no_action_of_his_own(kind):
    exc = refused(camp(OWN[kind]))
    assert exc.problems[0].rule == "R-AWARE"
    assert "does nothing until woken" in exc.problems[0].message
    assert "remove_condition: spí" in (exc.problems[0].hint or "")


@pytest.mark.parametrize("kind, key", [("test", "actor: jarik"), ("test-actors", "jarik]"),
                                       ("contest", "actor: jarik"), ("declare", "actor: jarik"),
                                       ("race", "jarik]")])
def test_the_refusal_points_at_the_actor(tmp_path, kind, key):
    text = camp(OWN[kind])
    res = cli(tmp_path, text)
    assert res.exit_code == 1 and "[R-AWARE]" in res.output
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "jarik" in row and "steps" not in row
                and i > 8)
    assert f"s.yaml:{line}:{column(text, line, key)}:" in res.output, res.output


def test_a_sleeper_acts_from_a_delay_neither():
    exc = refused(camp("      - test: {actor: jarik, from: delayed, pool: telo, roll: 10}\n", delay="[jarik]"))
    assert exc.problems[0].rule == "R-AWARE"


def test_jedno_oko_does_not_let_him_act():
    # Activated on his own test: still asleep, nothing paid (the run stops at the actor).
    exc = refused(camp("      - test: {actor: jarik, pool: duse, activate: [jedno-oko-otevrene], roll: 10}\n"))
    assert exc.problems[0].rule == "R-AWARE" and "does nothing" in exc.problems[0].message


def test_woken_by_an_earlier_effect_he_acts():
    r = resolve_text(camp("      - declare: {actor: zira, targets: [jarik], effect: {remove_condition: spí}}\n"
                          "      - test: {actor: jarik, pool: telo, roll: 10}\n"))
    assert r["steps"][1]["actions"]["jarik"]["success"] is True
    assert r["final"]["jarik"]["conditions"] == []


def test_a_sleeping_hidden_cannot_sneak():
    # The hide step (plugin ukryvani) resolves the hidden's action through the core test.
    text = camp("      - hide: {hidden: jarik, deceived: [vlk], situation: unaware, action: {label: plížení, "
                "pool: telo}, rolls: {jarik: 10}}\n")
    assert refused(text).problems[0].rule == "R-AWARE"


class _Watch(StrictModel):
    watcher: str
    roll: int | None = None


class Watch:
    """A third-party step type: the watcher's own action, its initiative spent through the toolkit."""

    @hookimpl
    def drd_step_types(self):
        return {"strazit": StepType(model=_Watch, resolve=self.resolve)}

    @staticmethod
    def resolve(api, spec, choices, path):
        from drd_cli.plugin import toolkit

        toolkit.main_action(api.ctx, api.w, api.rec, spec.watcher, None, path, actor_path=path + ("watcher",))
        api.rec.action(spec.watcher)["success"] = True


class Nod:
    """A third-party step type whose action spends no initiative: it asks the toolkit directly."""

    @hookimpl
    def drd_step_types(self):
        return {"kyvnout": StepType(model=_Watch, resolve=self.resolve)}

    @staticmethod
    def resolve(api, spec, choices, path):
        from drd_cli.plugin import toolkit

        toolkit.check_awake_to_act(api.w, spec.watcher, path + ("watcher",))
        api.rec.action(spec.watcher)["success"] = True


@pytest.mark.parametrize("step, plugin", [("strazit", Watch()), ("kyvnout", Nod())])
def test_plugin_step_types_refuse_a_sleeper_through_the_toolkit(step, plugin):
    assert refused(camp(f"      - {{{step}: {{watcher: jarik}}}}\n"), plugins={step: plugin}).problems[0].rule == \
        "R-AWARE"
    r = resolve_text(camp(f"      - {{{step}: {{watcher: zira}}}}\n"), plugins={step: plugin})
    assert r["steps"][0]["actions"]["zira"]["success"] is True


def test_the_toolkit_exports_check_awake_to_act():
    from drd_cli.plugin import toolkit

    assert "check_awake_to_act" in toolkit.__all__ and callable(toolkit.check_awake_to_act)


# --------------------------------------------------------------------------- 2. výzvy

def fire(react: str = "", *, counters: str = "", affects: str = "[jarik, zira]", effect: str = "{jizva: Popálený}",
         rolls: str = "{jarik: 10, zira: 10}") -> str:
    lines = ("      - id: pozar\n"
             "        challenge:\n"
             "          name: požár\n"
             f"          affects: {affects}\n"
             "          pool: telo\n"
             f"          effect: {effect}\n"
             f"          rolls: {rolls}\n")
    if react:
        lines += f"          react: {react}\n"
    if counters:
        lines += f"          counters: {counters}\n"
    return lines


def test_a_sleeper_without_react_suffers_the_vyzva():
    r = resolve_text(camp(fire("{zira: delayed}")))
    assert r["final"]["jarik"]["jizvy"] == ["Popálený"] and r["final"]["zira"]["jizvy"] == []
    assert r["steps"][0]["actions"]["jarik"]["success"] is False


def test_a_sleepers_react_entry_is_exit_1_at_the_entry(tmp_path):
    text = camp(fire("{zira: delayed, jarik: obrana}"), abilities="[]")
    res = cli(tmp_path, text)
    assert res.exit_code == 1 and "[R-AWARE]" in res.output and "požár" in res.output
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "react:" in row)
    assert f"s.yaml:{line}:{column(text, line, 'jarik')}:" in res.output, res.output
    exc = refused(text)
    assert exc.problems[0].rule == "R-AWARE" and "suffers it unless someone protects it" in exc.problems[0].message
    assert "activate: [jedno-oko-otevrene]" in (exc.problems[0].hint or "")


@pytest.mark.parametrize("how", ["obrana", "delayed", "initiative", "{from: obrana}", "{}"])
def test_no_reaction_of_a_sleeper_to_a_vyzva_whatever_its_source(how):
    assert refused(camp(fire(f"{{jarik: {how}}}"), abilities="[]")).problems[0].rule == "R-AWARE"


def test_someone_awake_protects_the_sleeper_from_the_vyzva():
    r = resolve_text(camp(fire(counters="[{actor: zira, kind: protect, protects: [jarik], pool: telo, roll: 10}]",
                               affects="[jarik]", rolls="{}")))
    assert r["final"]["jarik"]["jizvy"] == []


def test_a_sleeper_protects_nobody_from_a_vyzva():
    text = camp(fire(counters="[{actor: jarik, kind: protect, protects: [zira], pool: telo, roll: 10}]",
                     affects="[zira]", rolls="{}"), abilities="[]")
    assert refused(text).problems[0].rule == "R-AWARE"
    # Jedno oko otevřené activated on that counter: he protects his friend with his initiative.
    r = resolve_text(text.replace("roll: 10}]", "activate: [jedno-oko-otevrene], roll: 10}]")
                     .replace("abilities: []", "abilities: [jedno-oko-otevrene]"))
    assert r["final"]["zira"]["jizvy"] == [] and r["final"]["jarik"]["duse"] == 3


def test_jedno_oko_in_a_react_entry_pays_and_he_undergoes_it():
    r = resolve_text(camp(fire("{jarik: {from: obrana, activate: [jedno-oko-otevrene]}}", affects="[jarik]")))
    step = r["steps"][0]
    assert step["actions"]["jarik"]["success"] is True
    assert step["activations"] == [{"by": "jarik", "ability": "jedno-oko-otevrene", "cost": 1, "pool": "duse"}]
    assert [(m["by"], m["name"], m["paid"]) for m in step["manoeuvres"]] == [("jarik", "obrana", "telo")]
    assert r["final"]["jarik"] == {**r["final"]["jarik"], "duse": 3, "telo": 3, "jizvy": []}
    assert any(e["rule"] == "R-AWARE" and "Jedno oko" in e["text"] for e in step["log"])
    assert "jedno-oko-otevrene" in r["rules"]["enabled"]


def test_jedno_oko_in_a_react_entry_below_9_he_still_may_exhaust():
    r = resolve_text(camp(fire("{jarik: {from: obrana, activate: [jedno-oko-otevrene]}}", affects="[jarik]",
                               rolls="{jarik: 6}") + "        choices: {jarik: exhaust}\n"))
    assert [e["by"] for e in r["steps"][0]["exhaustions"]] == ["jarik"] and r["final"]["jarik"]["jizvy"] == []


def test_a_react_mapping_without_from_uses_the_unused_initiative():
    r = resolve_text(camp(fire("{jarik: {activate: [jedno-oko-otevrene]}}", affects="[jarik]")))
    assert r["steps"][0]["manoeuvres"] == [] and r["final"]["jarik"]["telo"] == 4 and r["final"]["jarik"]["duse"] == 3


def test_jedno_oko_in_a_react_entry_switched_off_or_lacking():
    text = camp(fire("{jarik: {from: obrana, activate: [jedno-oko-otevrene]}}", affects="[jarik]"))
    assert refused(text, disable=("jedno-oko-otevrene",)).problems[0].rule == "R-AWARE"
    exc = refused(text.replace("abilities: [jedno-oko-otevrene]", "abilities: []"))
    assert exc.problems[0].rule == "R-AWARE"


def test_jedno_oko_in_a_react_entry_unaffordable_is_exit_1():
    exc = refused(camp(fire("{jarik: {from: obrana, activate: [jedno-oko-otevrene]}}", affects="[jarik]"), duse=0))
    assert exc.problems[0].rule == "R-ABIL-ACT" and "activation" in exc.problems[0].message


def test_an_awake_reactor_may_activate_in_his_entry_too():
    text = camp(fire("{zira: {from: obrana, activate: [{id: jedno-oko-otevrene, paid_by: zira}]}}",
                     affects="[zira]")).replace("zira: {name: Zíra, side: družina, pools: {telo: 4, duse: 4, vliv: 3}}",
                                                "zira: {name: Zíra, side: družina, pools: {telo: 4, duse: 4, vliv: 3}, "
                                                "abilities: [jedno-oko-otevrene]}")
    r = resolve_text(text)
    assert r["steps"][0]["activations"][0]["by"] == "zira" and r["final"]["zira"]["duse"] == 3


def test_a_react_mapping_is_validated():
    from drd_cli.testing import load_text_scenario

    with pytest.raises(ScenarioError):
        load_text_scenario(camp(fire("{zira: {from: zitra}}")))
    with pytest.raises(ScenarioError):
        load_text_scenario(camp(fire("{zira: {from: obrana, jump: true}}")))


def test_an_environment_vyzva_at_the_end_of_the_round():
    text = camp("      - test: {actor: zira, pool: telo, roll: 10}\n") + """\
environment:
  - id: pozar
    challenge:
      name: požár
      affects: [jarik]
      pool: telo
      effect: {jizva: Popálený}
      react: {jarik: {from: obrana, activate: [jedno-oko-otevrene]}}
      rolls: {jarik: 10}
"""
    r = resolve_text(text)
    assert r["final"]["jarik"]["duse"] == 3 and r["final"]["jarik"]["jizvy"] == []
    assert refused(text, disable=("jedno-oko-otevrene",)).problems[0].rule == "R-AWARE"


def test_the_scenario_spanek_pozar():
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.errors import DrdError

    path = ROOT / "scenarios" / "schopnosti-spanek-pozar.yaml"
    r = resolve_scenario(load_scenario(str(path)), seed=1)
    steps = {s["id"]: s for s in r["steps"]}
    assert steps["pozar"]["actions"]["jarik"]["success"] is True
    assert steps["pozar"]["activations"][0]["ability"] == "jedno-oko-otevrene"
    assert r["final"]["jarik"]["duse"] == 3 and r["final"]["zira"]["jizvy"] == []
    assert steps["haseni"]["actions"]["zira"]["success"] is True
    with pytest.raises(DrdError) as info:
        resolve_scenario(load_scenario(str(path)), seed=1, disable=("jedno-oko-otevrene",))
    assert info.value.exit_code == 1 and "R-AWARE" in info.value.format()
    # Zíra acting before Bořek wakes her is the sleep rule's exit 1.
    text = path.read_text(encoding="utf-8").split("\nexpect:")[0]
    early = text.replace("      - id: hlidka\n", "      - {id: brzy, test: {actor: zira, pool: telo, roll: 10}}\n"
                                                "      - id: hlidka\n")
    assert refused(early).problems[0].rule == "R-AWARE"
