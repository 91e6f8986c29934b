"""Plugin API 2 (drd_cli.plugin): each new hook changes the resolution as its policy says, records
what it changed (SCENARIO-FORMAT §7: modifiers, breakdown, via, paid_by) and names its plugin.

Every plugin here is written as a third-party author would, with the public module only.
"""

from __future__ import annotations

import dataclasses
import pytest

from drd_cli.errors import DrdError
from drd_cli.plugin import API_VERSION, hookimpl
from drd_cli.testing import resolve_text, step

HEROES = """
format: drd/1
participants:
  hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 3, levels: {bojovnik: 2}, abilities: ABILITIES}
  friend: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1, abilities: FRIEND}
  ogre: {sudba: 9, ohrozeni: 1}
rounds:
  - initiative: [hero, friend, ogre]
    steps:
STEPS
"""


def doc(steps: str, abilities: str = "[]", friend: str = "[]") -> str:
    return HEROES.replace("ABILITIES", abilities).replace("FRIEND", friend).replace("STEPS", steps)


def plugin(**hooks) -> object:
    """A plugin object from hook functions (each marked with the public hookimpl)."""
    return type("Plugin", (), {name: staticmethod(hookimpl(fn)) for name, fn in hooks.items()})()


# --------------------------------------------------------------------------- views

def test_views_are_frozen_and_the_public_module_is_light():
    import subprocess
    import sys

    from drd_cli.views import ParticipantView

    seen = []
    spy = plugin(drd_roll_modifier=lambda participant, action: seen.append((participant, action)))
    resolve_text(doc("      - test: {actor: hero, bonus_from: bojovnik, dice: [3, 3]}"), plugins={"spy": spy})
    (p, a), = seen
    assert isinstance(p, ParticipantView) and p.id == "hero" and p.ohrozeni == 3 and p.levels["bojovnik"] == 2
    assert a.actor == "hero" and a.kind == "test" and a.pool == "telo"
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.ohrozeni = 0
    with pytest.raises(TypeError):
        p.pools["telo"] = 99        # a read-only mapping
    with pytest.raises(AttributeError):
        a.spec.roll = 3             # API 1's `spec` is a read-only proxy
    code = ("import sys, drd_cli.plugin; bad = [m for m in ('pydantic', 'rich', 'ruamel', 'pytest') "
            "if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert API_VERSION == 3


# --------------------------------------------------------------------------- rolls

def test_drd_roll_modifier_adds_to_rolled_dice_and_is_recorded_with_its_source():
    plus = plugin(drd_roll_modifier=lambda participant, action: 2 if participant.id == "hero" else None)
    r = resolve_text(doc("      - test: {actor: hero, bonus_from: bojovnik, dice: [3, 1], manoeuvres: [presne]}"),
                     plugins={"plus-two": plus})
    roll = step(r, "1.1")["rolls"]["hero"]
    assert roll["total"] == 3 + 1 + 2 + 1 + 2
    assert roll["bonus"] == 2
    assert roll["modifiers"] == [{"source": "presne", "amount": 1}, {"source": "plus-two", "amount": 2}]
    # a total the file gives is final (R-ROLL-2): nothing is added to it
    r = resolve_text(doc("      - test: {actor: hero, roll: 7}"), plugins={"plus-two": plus})
    assert step(r, "1.1")["rolls"]["hero"]["total"] == 7 and step(r, "1.1")["rolls"]["hero"]["modifiers"] == []


# --------------------------------------------------------------------------- pairs

TIE = """      - id: s
        contest:
          action: {actor: hero, pool: telo, targets: [ogre], roll: 8, effect: {ohrozeni: 1}}
          counters: [{actor: ogre, roll: 8, effect: {ohrozeni: 1}}]
"""


def test_drd_pair_winner_tie_house_rule_is_off_by_default_and_decides_ties_when_on():
    r = resolve_text(doc(TIE))
    assert step(r, "s")["pairs"][0]["winner"] == "hero"          # tie: actor (R-CONT default)
    r = resolve_text(doc(TIE), enable=("remiza-nizsi-ohrozeni",))
    pair = step(r, "s")["pairs"][0]
    assert pair["winner"] == "ogre" and pair["decided_by"] == "remiza-nizsi-ohrozeni"   # Ohrožení 1 < 3
    assert "remiza-nizsi-ohrozeni" in r["titles"]
    r = resolve_text(doc(TIE), enable=("remiza-nizsi-ohrozeni",), params={"remiza_vyhrava": "vyssi"})
    assert step(r, "s")["pairs"][0]["winner"] == "hero"
    # equal Ohrožení: the `tie` parameter decides
    same = doc(TIE).replace("ohrozeni: 3", "ohrozeni: 1")
    r = resolve_text(same, enable=("remiza-nizsi-ohrozeni",), params={"tie": "counter"})
    assert step(r, "s")["pairs"][0]["winner"] == "ogre" and "decided_by" not in step(r, "s")["pairs"][0]


def test_drd_pair_winner_first_plugin_by_id_decides_whatever_the_registration_order():
    to_actor = plugin(drd_pair_winner=lambda pair: "actor")
    to_counter = plugin(drd_pair_winner=lambda pair: "counter")
    for order in ({"a-first": to_counter, "b-second": to_actor}, {"b-second": to_actor, "a-first": to_counter}):
        r = resolve_text(doc(TIE), plugins=order)
        s = step(r, "s")
        assert s["pairs"][0]["winner"] == "ogre" and s["pairs"][0]["decided_by"] == "a-first"
        assert any(e["rule"] == "b-second" for e in s["log"])      # the overruled answer is logged


# --------------------------------------------------------------------------- exhaustion cost

BODYGUARD = '''
@hookimpl
def drd_exhaustion_cost(exhaustion, entry):
    """Osobní ochránce (house ability): exhausting for someone else costs 1 less per protected."""
    if exhaustion.payer.has_ability("ochrance") and entry.protected not in (None, exhaustion.payer.id):
        return -1
'''

AREA = """      - id: s
        contest:
          action: {actor: ogre, pool: telo, targets: [hero, friend], manoeuvres: [rozsahle], roll: 12,
                   effect: {ohrozeni: 1}}
          counters: [{actor: hero, kind: protect, protects: [hero], roll: 5}]
        choices: {hero: {ogre: {exhaust: [hero, friend]}}}
"""


def _module(source: str) -> object:
    import types

    module = types.ModuleType("plugin_under_test")
    module.hookimpl = hookimpl
    exec(source, module.__dict__)  # noqa: S102 - a plugin written as text, as in the tutorial
    return module


def test_drd_exhaustion_cost_bodyguard_sees_payer_and_each_protected_and_is_recorded():
    base = resolve_text(doc(AREA))
    [e] = step(base, "s")["exhaustions"]
    assert e["cost"] == 6 and e["protected"] == ["hero", "friend"]                 # CS-FOR-2: 3 × 2
    r = resolve_text(doc(AREA, abilities="[ochrance]"), plugins={"ochrance": _module(BODYGUARD)})
    [e] = step(r, "s")["exhaustions"]
    assert e["cost"] == 5
    assert [b["adjustments"] for b in e["breakdown"]] == [[], [{"source": "ochrance", "amount": -1}]]
    assert sum(b["cost"] for b in e["breakdown"]) == e["cost"]


def test_drd_exhaustion_cost_is_floored_at_zero_and_recorded_as_floor():
    cheap = plugin(drd_exhaustion_cost=lambda exhaustion, entry: -10)
    r = resolve_text(doc(AREA), plugins={"levne": cheap})
    [e] = step(r, "s")["exhaustions"]
    assert e["cost"] == 0
    assert e["breakdown"][0]["adjustments"] == [{"source": "levne", "amount": -10}, {"source": "floor", "amount": 7}]


def test_drd_exhaustion_cap_house_rule_caps_per_protected_and_lowest_cap_wins():
    high = doc(AREA).replace("ohrozeni: 3", "ohrozeni: 4")
    r = resolve_text(high)
    assert step(r, "s")["exhaustions"][0]["cost"] == 8
    r = resolve_text(high, enable=("strop-vycerpani",))                        # strop_vycerpani: 3
    [e] = step(r, "s")["exhaustions"]
    assert e["cost"] == 6 and [b["cost"] for b in e["breakdown"]] == [3, 3]
    assert e["breakdown"][0]["adjustments"] == [{"source": "strop-vycerpani", "amount": -1}]
    lower = plugin(drd_exhaustion_cap=lambda exhaustion, entry: 1)
    r = resolve_text(high, enable=("strop-vycerpani",), plugins={"nizky-strop": lower})
    assert step(r, "s")["exhaustions"][0]["cost"] == 2


def test_exhaustion_cost_sees_a_vliv_action_too():
    """R-ABIL-PROT against any pool (Lví srdce): the hook is asked for a Vliv action as well."""
    heart = plugin(drd_exhaustion_cost=lambda exhaustion, entry:
                   -1 if exhaustion.action is not None and exhaustion.action.threat_pool == "vliv" else None)
    vliv = """      - id: s
        contest:
          action: {actor: ogre, pool: vliv, targets: [hero], roll: 12, effect: {ohrozeni: 1}}
          counters: [{actor: hero, pool: vliv, roll: 5}]
        choices: {hero: exhaust}
"""
    r = resolve_text(doc(vliv), plugins={"srdce": heart})
    assert step(r, "s")["exhaustions"][0]["cost"] == 2 and step(r, "s")["exhaustions"][0]["pool"] == "vliv"


# --------------------------------------------------------------------------- manoeuvres

def test_drd_manoeuvre_price_once_per_action_and_drd_manoeuvre_allowance_beyond_the_cap():
    def price(participant, action, manoeuvre):
        if participant.has_ability("zbehly") and manoeuvre.occurrence == 0:
            return {"free": True}
        return None

    def allowance(participant, action):
        return 1 if participant.has_ability("zbehly") else None

    p = plugin(drd_manoeuvre_price=price, drd_manoeuvre_allowance=allowance)
    two = "      - test: {actor: hero, bonus_from: bojovnik, dice: [3, 3], manoeuvres: [presne, presne]}"
    r = resolve_text(doc(two, abilities="[zbehly]"), plugins={"zbehly": p})
    ms = step(r, "1.1")["manoeuvres"]
    assert [(m["paid"], m["via"]) for m in ms] == [("free", "zbehly"), ("telo", None)]
    assert r["final"]["hero"]["telo"] == 8
    # the group's cap is 1: the ability allows one more, not two
    r = resolve_text(doc(two, abilities="[zbehly]"), plugins={"zbehly": p}, params={"max_manoeuvres": "1"})
    assert len(step(r, "1.1")["manoeuvres"]) == 2
    three = two.replace("[presne, presne]", "[presne, presne, mocne]")
    with pytest.raises(DrdError) as err:
        resolve_text(doc(three, abilities="[zbehly]"), plugins={"zbehly": p}, params={"max_manoeuvres": "1"})
    assert err.value.exit_code == 1 and "R-MAN-2" in err.value.format()


def test_ability_plugins_are_consulted_only_where_someone_lists_the_ability():
    calls = []

    def info():
        return {"title": "Nikdo", "kind": "ability", "api_version": 2}

    p = plugin(drd_plugin_info=info, drd_roll_modifier=lambda participant, action: calls.append(1))
    resolve_text(doc("      - test: {actor: hero, bonus_from: bojovnik, dice: [3, 3]}"), plugins={"nikdo": p})
    assert calls == []
    resolve_text(doc("      - test: {actor: hero, bonus_from: bojovnik, dice: [3, 3]}", friend="[nikdo]"),
                 plugins={"nikdo": p})
    assert calls == [1]


# --------------------------------------------------------------------------- paying for others

SHARE = """
@hookimpl
def drd_may_pay(payer, beneficiary, cost, action):
    if payer.has_ability("rameno") and cost.kind in ("manoeuvre", "exhaustion"):
        return {"pool": "telo"}
"""


def test_drd_may_pay_paid_by_on_a_manoeuvre_and_an_exhaustion():
    steps = """      - id: s
        contest:
          action: {actor: ogre, pool: telo, targets: [hero], roll: 12, effect: {ohrozeni: 1}}
          counters: [{actor: hero, pool: telo, roll: 5, manoeuvres: [{name: presne, paid_by: friend}]}]
        choices: {hero: {ogre: {exhaust: true, paid_by: friend}}}
"""
    r = resolve_text(doc(steps, friend="[rameno]"), plugins={"rameno": _module(SHARE)})
    s = step(r, "s")
    assert s["manoeuvres"][0]["paid_by"] == "friend"
    [e] = s["exhaustions"]
    assert e["by"] == "hero" and e["cost"] == 3 and e["paid_by"] == {"id": "friend", "pool": "telo"}
    assert e["ohrozeni"] == [3, 4]                       # the beneficiary's Ohrožení prices and rises
    assert r["final"]["hero"]["telo"] == 9 and r["final"]["friend"]["telo"] == 9 - 1 - 3
    assert r["final"]["friend"]["ohrozeni"] == 1
    with pytest.raises(DrdError) as err:                 # without the ability: R-ABIL-SHARE, exit 1
        resolve_text(doc(steps), plugins={"rameno": _module(SHARE)})
    assert err.value.exit_code == 1 and "R-ABIL-SHARE" in err.value.format()


# --------------------------------------------------------------------------- reacting for others

GUARD = """      - id: s
        contest:
          action: {actor: ogre, pool: telo, targets: [friend], roll: 8, effect: {ohrozeni: 1}}
          counters: [{actor: hero, from: obrana, kind: protect, protects: [friend], roll: 10}]
"""


def test_drd_may_react_lets_a_bodyguard_react_from_defence_for_another():
    spent = "    spent: [hero]\n"
    text = doc(GUARD).replace("    steps:\n", spent + "    steps:\n", 1)
    with pytest.raises(DrdError) as err:
        resolve_text(text)
    assert err.value.exit_code == 1
    guard = plugin(drd_may_react=lambda reactor, action, harmed:
                   reactor.has_ability("strazce") and {"allow": True, "note": "v dosahu"} or None)
    r = resolve_text(text.replace("abilities: []", "abilities: [strazce]", 1), plugins={"strazce": guard})
    s = step(r, "s")
    assert s["actions"]["hero"]["success"] is True and r["final"]["friend"]["ohrozeni"] == 1
    assert any(e["rule"] == "R-ABIL-DEF" for e in s["log"])


# --------------------------------------------------------------------------- Jizvy, gains, activation, náročnost

def test_drd_jizva_yield_adds_points_to_a_jizva_taken_for_an_exhaustion():
    tough = plugin(drd_jizva_yield=lambda participant, jizva: 1 if jizva.pool == "telo" else None)
    steps = """      - id: s
        test: {actor: hero, pool: telo, roll: 5}
        choices: {hero: {test: {exhaust: true, jizva: {name: Rána, gain: 2}}}}
"""
    r = resolve_text(doc(steps), plugins={"tuhy": tough})
    [e] = step(r, "s")["exhaustions"]
    assert e["gained"]["jizva"]["gain"] == 3 and e["gained"]["jizva"]["extra"] == [{"source": "tuhy", "amount": 1}]
    assert r["final"]["hero"]["telo"] == 9 + 3 - 3


def test_drd_resource_gain_on_a_stated_event():
    ambush = plugin(drd_resource_gain=lambda participant, event:
                    {"vyhody": 1} if event.name == "prepaden" and participant.has_ability("taktik") else None)
    text = doc("      - declare: {actor: hero, note: rozhlíží se}", abilities="[taktik]").replace(
        "abilities: [taktik]", "abilities: [taktik], events: [prepaden]")
    r = resolve_text(text, plugins={"taktik": ambush})
    assert r["final"]["hero"]["vyhody"] == 1
    assert r["gains"] == [{"who": "hero", "event": "prepaden", "vyhody": 1, "source": "taktik"}]


def test_drd_resource_gain_may_cost_an_item_or_refuse_the_event():
    """R-ABIL-GAIN like a sacrifice (R-EXH-4): `sacrifice` takes the item out of the equipment and
    is recorded as a sacrifice is; `refuse` stops the run at the event (exit 1, the plugin's rule)."""
    from drd_cli.render.terminal import render_text

    def gain(participant, event):
        if event.name != "rozbitý amulet" or not participant.has_ability("amuletar"):
            return None
        if not participant.has_item("amulet"):
            return {"refuse": f"{participant.name} nemá amulet", "rule": "R-ABIL-GAIN"}
        return {"pool": "duse", "amount": 2, "sacrifice": "amulet"}

    amuletar = {"amuletar": plugin(drd_resource_gain=gain)}
    text = doc("      - declare: {actor: hero, note: rozhlíží se}", abilities="[amuletar]").replace(
        "abilities: [amuletar]", "abilities: [amuletar], equipment: [amulet, {name: štít, armour: 1}], "
                                 "events: [rozbitý amulet]")
    r = resolve_text(text, plugins=amuletar)
    assert r["final"]["hero"]["duse"] == 11 and r["final"]["hero"]["equipment"] == ["štít"]
    assert r["gains"] == [{"who": "hero", "event": "rozbitý amulet", "pool": "duse", "amount": 2, "source": "amuletar",
                           "sacrifice": {"name": "amulet", "gain": 2}}]
    assert "obětuje amulet a získává 2 Duše" in render_text(r)
    # Listed twice: the amulet is gone after the first, so the plugin refuses the second (exit 1).
    with pytest.raises(DrdError) as err:
        resolve_text(text.replace("events: [rozbitý amulet]", "events: [rozbitý amulet, rozbitý amulet]"),
                     plugins=amuletar)
    problem = err.value.problems[0]
    assert err.value.exit_code == 1 and problem.rule == "R-ABIL-GAIN" and "nemá amulet" in problem.message
    assert problem.path == ("participants", "hero", "events", 1)
    # An item the participant does not hold: the core refuses it (R-EXH-4), naming the ability.
    careless = {"amuletar": plugin(drd_resource_gain=lambda participant, event:
                                   {"vyhody": 1, "sacrifice": "prsten"} if event.name == "rozbitý amulet" else None)}
    with pytest.raises(DrdError) as err:
        resolve_text(text, plugins=careless)
    assert err.value.exit_code == 1 and err.value.problems[0].rule == "R-EXH-4" and "prsten" in err.value.format()


def test_drd_activation_is_paid_before_the_roll_and_refused_when_missing():
    def activation(participant, ability, action):
        return {"cost": 1, "pool": "vliv"} if ability == "styky" else None

    p = plugin(drd_activation=activation)
    steps = "      - test: {actor: hero, pool: vliv, roll: 10, activate: [styky], note: hostinský mu dluží}"
    r = resolve_text(doc(steps, abilities="[styky]"), plugins={"styky": p})
    s = step(r, "1.1")
    assert s["activations"] == [{"by": "hero", "ability": "styky", "cost": 1, "pool": "vliv"}]
    assert r["final"]["hero"]["vliv"] == 8
    assert any(e["rule"] == "R-ABIL-FACT" and "hostinský" in e["text"] for e in s["log"])
    with pytest.raises(DrdError) as err:          # not listed by the participant
        resolve_text(doc(steps), plugins={"styky": p})
    assert err.value.exit_code == 1 and "R-ABIL-ACT" in err.value.format()
    with pytest.raises(DrdError) as err:          # listed, but nothing gives it an activation
        none = plugin(drd_plugin_info=lambda: {"title": "Žádná", "kind": "ability"})
        resolve_text(doc(steps.replace("styky", "zadna"), abilities="[zadna]"), plugins={"styky": p, "zadna": none})
    assert err.value.exit_code == 1 and "R-ABIL-ACT" in err.value.format()


def test_drd_narocnost_makes_a_demanding_action_possible():
    easy = plugin(drd_narocnost=lambda participant, action, level: -1 if action.skill == "pohyblivost" else None)
    steps = "      - test: {actor: hero, pool: telo, skill: pohyblivost, demanding: true, roll: 10}"
    assert resolve_text(doc(steps))["final"]["hero"]["telo"] == 8
    assert resolve_text(doc(steps), plugins={"lehke": easy})["final"]["hero"]["telo"] == 9


# --------------------------------------------------------------------------- rendering, failures

def test_drd_render_entry_puts_a_plugin_steps_entry_in_words():
    from drd_cli.hookspecs import StepType
    from drd_cli.render.terminal import render_text
    from drd_cli.scenario.models import StrictModel

    class Watch(StrictModel):
        who: str

    def resolve(engine, spec, choices, path):
        engine.rec.data["hlidka"] = {"who": spec.who, "seen": 3}

    p = plugin(drd_step_types=lambda: {"hlidka": StepType(Watch, resolve)},
               drd_render_entry=lambda kind, entry, format:
               [f"Hlídka {entry['who']} viděla {entry['seen']} stínů"] if kind == "hlidka" else None)
    r = resolve_text(doc("      - hlidka: {who: friend}"), plugins={"hlidka": p})
    assert r["steps"][0]["rendered"] == ["Hlídka friend viděla 3 stínů"]
    text = render_text(r)
    assert "Hlídka friend viděla 3 stínů" in text and "{'who'" not in text


def test_a_failing_hook_stops_the_run_naming_the_plugin_and_the_hook():
    def broken(participant, action):
        raise ZeroDivisionError("nope")

    with pytest.raises(DrdError) as err:
        resolve_text(doc("      - test: {actor: hero, bonus_from: bojovnik, dice: [3, 3]}"),
                     plugins={"rozbity": plugin(drd_roll_modifier=broken)})
    text = err.value.format()
    assert "rozbity" in text and "drd_roll_modifier" in text and "ZeroDivisionError" in text
    assert err.value.exit_code != 3


def test_a_stated_event_carries_its_place_so_once_per_conflict_holds():
    """R-ABIL-GAIN, Takový prcek!: listed twice, it pays once (`takovy_prcek: once`), twice per foe."""
    text = """
format: drd/1
participants:
  bilbo: {pools: {telo: 3, duse: 3, vliv: 3}, abilities: [takovy-prcek], events: [větší protivník, větší protivník]}
  troll: {sudba: 9}
rounds:
  - steps:
      - declare: {actor: bilbo, note: rozhlíží se}
"""
    seen = []
    spy = plugin(drd_resource_gain=lambda participant, event: seen.append((event.name, dict(event.data))))
    r = resolve_text(text, plugins={"spy": spy})
    assert r["final"]["bilbo"]["vyhody"] == 2 and len(r["gains"]) == 1
    assert ("conflict-start", {}) in seen and ("větší protivník", {"index": 1}) in seen
    assert resolve_text(text, params={"takovy_prcek": "per-foe"})["final"]["bilbo"]["vyhody"] == 4


def test_an_unaffordable_activation_names_r_abil_act_and_what_could_cover_it():
    def activation(participant, ability, action):
        return {"cost": 3, "pool": "vliv"} if ability == "styky" else None

    steps = "      - test: {actor: hero, pool: vliv, roll: 10, activate: [styky]}"
    text = doc(steps, abilities="[styky]").replace("vliv: 9}, ohrozeni: 3", "vliv: 2}, ohrozeni: 3")
    with pytest.raises(DrdError) as err:
        resolve_text(text, plugins={"styky": plugin(drd_activation=activation)})
    problem = err.value.problems[0]
    assert err.value.exit_code == 1 and problem.rule == "R-ABIL-ACT"
    assert problem.data == {"cost": 3, "pool": "vliv", "have": 2, "missing": 1}
    assert "gain:" in problem.hint and "paid_by" in problem.hint


def test_drd_may_react_sees_the_reactors_own_counter_so_its_type_can_be_required():
    """R-ABIL-DEF: Osobní strážce reacts for another only with a bodily counter."""
    spent = "    spent: [hero]\n"
    text = doc(GUARD, abilities="[osobni-strazce]").replace("    steps:\n", spent + "    steps:\n", 1)
    r = resolve_text(text)
    assert step(r, "s")["actions"]["hero"]["success"] is True
    with pytest.raises(DrdError) as err:        # a Vliv counter is not what the ability allows
        resolve_text(text.replace("kind: protect, protects: [friend], roll: 10",
                                  "kind: protect, protects: [friend], pool: vliv, roll: 10"))
    assert err.value.exit_code == 1
    seen = []
    spy = plugin(drd_may_react=lambda reactor, action, harmed, counter: seen.append(counter) or True)
    resolve_text(doc(GUARD).replace("    steps:\n", spent + "    steps:\n", 1), plugins={"spy": spy})
    assert seen and seen[0].pool == "telo" and seen[0].kind == "protect" and seen[0].actor == "hero"
