"""Each catalogue ability's hook, called directly with read-only views: with the ability it answers as
its mechanic says; for a participant without it (or outside its scope) it says nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from tests.abilities.abilities_support import action, event, exhaustion, jizva, manoeuvre, participant
from drd_cli.plugin import ItemView
from drd_plugins import (jizvy, mimo_konflikt, nadani, narativni, narocnost, obrana_jinych, ochrana, sdileni,
                         vnimani, volny_manevr, zbehlost, zisk)

BASIC = ("presne", "rozsahle", "obrana", "mocne", "lstive")


# --------------------------------------------------------------------------- zběhlost (R-ABIL-ZB)

ZB = [(a, s) for a in zbehlost.ALL for s in a.skills]


@pytest.mark.parametrize("ability,skill", ZB, ids=[f"{a.id}-{s}" for a, s in ZB])
def test_zbehlost_makes_basic_manoeuvres_free_once(ability, skill):
    hero = participant(abilities=(ability.id,))
    act = action(skill=skill)
    for name in BASIC:
        res = ability.drd_manoeuvre_price(hero, act, manoeuvre(name), {})
        assert res and res["free"] is True, name
        # the second of the same name in one action is paid [default basic-free-once]
        second = ability.drd_manoeuvre_price(hero, act, manoeuvre(name, index=1, occurrence=1), {})
        assert not (second and second["free"])
        assert ability.drd_manoeuvre_price(hero, act, manoeuvre(name, occurrence=1),
                                           {"zbehlost": "basic-free-all"})["free"] is True
    # without the ability, or on another skill: nothing
    assert ability.drd_manoeuvre_price(participant(), act, manoeuvre("presne"), {}) is None
    other = next(s for s in zbehlost.SKILL_NAMES if s not in ability.skills)
    res = ability.drd_manoeuvre_price(hero, action(skill=other), manoeuvre("presne"), {})
    assert not (res and res["free"])


def test_skill_names_match_the_core_list():
    from drd_cli import skills

    assert zbehlost.SKILL_NAMES == {s.id: s.name for s in skills.SKILLS}
    for ability in zbehlost.ALL:
        assert all(s in skills.BY_ID for s in ability.skills + ability.free_rozsahle), ability.id


def test_pruvodce_free_rozsahle_only_for_the_party():
    a, b, foe = participant("a", side="d"), participant("b", side="d"), participant("f", side="skreti")
    hero = participant("hrdina", abilities=("pruvodce",), side="d")
    own = action(skill="orientace-v-divocine", targets=(a, b))
    assert zbehlost.pruvodce.drd_manoeuvre_price(hero, own, manoeuvre("rozsahle"), {})["free"] is True
    mixed = action(skill="orientace-v-divocine", targets=(a, foe))
    assert zbehlost.pruvodce.drd_manoeuvre_price(hero, mixed, manoeuvre("rozsahle"), {}) is None


def test_komediant_free_rozsahle_on_a_plosna_art_action_even_as_second():
    hero = participant(abilities=("komediant",))
    act = action(skill="umeni", area=True)
    res = zbehlost.komediant.drd_manoeuvre_price(hero, act, manoeuvre("rozsahle", occurrence=1), {})
    assert res["free"] is True
    assert zbehlost.komediant.drd_manoeuvre_price(hero, action(skill="umeni"), manoeuvre("rozsahle", occurrence=1),
                                                  {}) is None


# --------------------------------------------------------------------------- nadání (R-ABIL-NAD)

MAN, WOMAN = participant("muz", traits=("muž",)), participant("zena", traits=("žena",))
WOLF = participant("vlk", hero=False, traits=("zvíře",))
ORC = participant("skret", hero=False)

# id → (hero kwargs, action kwargs) within the scope; and one just outside it
NADANI = {
    "cit-pro-zbran": (dict(options={"cit-pro-zbran": {"weapon": "meč"}}, equipment=("dlouhý meč",)),
                      dict(means="melee"), dict(means="shooting")),
    "dobra-muska": (dict(options={"dobra-muska": {"weapon": "luk"}}, equipment=("krátký luk",)),
                    dict(means="shooting"), dict(means="melee")),
    "desiva-presnost": (dict(options={"desiva-presnost": {"weapon": "dýka"}}, equipment=("dýka",)),
                        dict(means="throwing"), dict(means="shooting")),
    "talent": (dict(options={"talent": {"prop_type": "loutna"}}, equipment=("stará loutna",)),
               dict(skill="umeni", pool="vliv"), dict(skill="charisma", pool="vliv")),
    "idol-zen-ci-muzu": (dict(traits=("muž",)), dict(pool="vliv", targets=(WOMAN,)),
                         dict(pool="vliv", targets=(MAN,))),
    "jsme-jedne-krve": ({}, dict(skill="ovlivnovani-zvirat", pool="vliv"), dict(skill="charisma", pool="vliv")),
    "plast-soumraku": (dict(conditions=("tma",)), dict(label="ukrýt se", pool="duse"),
                       dict(label="útok", pool="duse")),
    "tichoslapek": (dict(traits=("bos",)), dict(label="plížení", pool="duse"), dict(label="běh", pool="duse")),
    "odznaky-hrdinstvi": ({}, dict(skill="sebeduvera", pool="vliv", targets=(ORC,)),
                          dict(skill="sebeduvera", pool="vliv", targets=(WOLF,))),
}


def test_every_nadani_has_a_situation():
    assert set(NADANI) == {a.id for a in nadani.ALL}


@pytest.mark.parametrize("ability", nadani.ALL, ids=lambda a: a.id)
def test_nadani_two_manoeuvres_free(ability):
    hero_kw, inside, outside = NADANI[ability.id]
    hero = participant(abilities=(ability.id,), **hero_kw)
    act = action(**inside)
    first = ability.drd_manoeuvre_price(hero, act, manoeuvre("presne"), {})
    second = ability.drd_manoeuvre_price(hero, act, manoeuvre("mocne", index=1, free_by={ability.id: 1}), {})
    third = ability.drd_manoeuvre_price(hero, act, manoeuvre("lstive", index=2, free_by={ability.id: 2}), {})
    assert first["free"] and second["free"] and third is None
    assert ability.drd_manoeuvre_price(hero, action(**outside), manoeuvre("presne"), {}) is None
    lacking = participant(**hero_kw)
    assert ability.drd_manoeuvre_price(lacking, act, manoeuvre("presne"), {}) is None
    # the alternative reading: two more manoeuvres than max_manoeuvres, none free
    assert ability.drd_manoeuvre_price(hero, act, manoeuvre("presne"), {"nadani": "allowance-2"}) is None
    assert ability.drd_manoeuvre_allowance(hero, act, {"nadani": "allowance-2"}) == 2
    assert ability.drd_manoeuvre_allowance(hero, act, {}) is None
    assert ability.drd_manoeuvre_allowance(lacking, act, {"nadani": "allowance-2"}) is None


def test_weapon_nadani_needs_the_weapon_held():
    hero = participant(abilities=("cit-pro-zbran",), options={"cit-pro-zbran": {"weapon": "meč"}}, equipment=("sekera",))
    assert nadani.cit_pro_zbran.drd_manoeuvre_price(hero, action(means="melee"), manoeuvre("presne"), {}) is None


# --------------------------------------------------------------------------- přirozená ochrana (R-ABIL-PROT)

@pytest.mark.parametrize("ability,act", [
    (ochrana.zubri_kuze, action("skret", pool="telo")),
    (ochrana.lvi_srdce, action("skret", pool="vliv")),
    (ochrana.jatra_ze_zuly, action(None, pool="telo", means="poison", kind="challenge")),
    (ochrana.jatra_ze_zuly, action(None, pool="telo", label="otrávené víno", kind="challenge")),
], ids=["zubri-kuze", "lvi-srdce", "jatra-ze-zuly", "jatra-ze-zuly-label"])
def test_natural_protection_lowers_the_cost_for_its_holder(ability, act):
    payer = participant("pritel")
    holder = participant(abilities=(ability.id,))
    view, entry = exhaustion(payer, (holder,), act)
    assert ability.drd_exhaustion_cost(view, entry, {})["amount"] == -1
    view, entry = exhaustion(holder, (participant("jiny"),), act)     # paying for someone without it
    assert ability.drd_exhaustion_cost(view, entry, {}) is None


def test_natural_protection_keeps_to_its_kind_of_threat():
    holder = participant(abilities=("zubri-kuze", "lvi-srdce", "jatra-ze-zuly"))
    mental = action("skret", pool="duse")
    for ability in ochrana.ALL:
        view, entry = exhaustion(holder, (holder,), mental)
        assert ability.drd_exhaustion_cost(view, entry, {}) is None, ability.id
    view, entry = exhaustion(holder, (holder,), mental)
    assert ochrana.lvi_srdce.drd_exhaustion_cost(view, entry, {"lvi_srdce": "vliv-duse"})["amount"] == -1
    view, entry = exhaustion(holder, (holder,), action("skret", pool="telo"), kind="test")
    assert ochrana.zubri_kuze.drd_exhaustion_cost(view, entry, {}) is None
    view, entry = exhaustion(holder, (holder,), action(None, pool="telo", kind="challenge"), kind="test")
    assert ochrana.zubri_kuze.drd_exhaustion_cost(view, entry, {})["amount"] == -1      # a výzva


def test_padny_uder_natural_reading():
    holder = participant(abilities=("zubri-kuze",))
    brute = participant("zlobr", abilities=("padny-uder",), hero=False)
    view, entry = exhaustion(holder, (holder,), action("zlobr", pool="telo"), winner=brute)
    assert ochrana.zubri_kuze.drd_exhaustion_cost(view, entry, {})["amount"] == -1
    assert ochrana.zubri_kuze.drd_exhaustion_cost(view, entry, {"padny_uder_natural": True})["amount"] == 0
    # with worn armour, Pádný úder lowers that: the natural armour still counts
    view, entry = exhaustion(holder, (holder,), action("zlobr", pool="telo"), winner=brute, armour=1)
    assert ochrana.zubri_kuze.drd_exhaustion_cost(view, entry, {"padny_uder_natural": True})["amount"] == -1


# --------------------------------------------------------------------------- silnější Jizvy (R-ABIL-SCAR)

SCARS = {"zarputilost": jizva("vliv"), "tesknota": jizva("duse"), "zbesilost": jizva("telo"),
         "jmenem-krale": jizva("duse", tags=("ve službě",)), "sila-prisahy": jizva("telo", tags=("přísaha",))}


@pytest.mark.parametrize("ability", jizvy.ALL, ids=lambda a: a.id)
def test_stronger_scar_yields_one_more(ability):
    j = SCARS[ability.id]
    assert ability.drd_jizva_yield(participant(abilities=(ability.id,)), j) == 1
    assert ability.drd_jizva_yield(participant(), j) is None
    plain = jizva("telo" if j.pool != "telo" else "duse")
    assert ability.drd_jizva_yield(participant(abilities=(ability.id,)), plain) is None


# --------------------------------------------------------------------------- zisk zdrojů (R-ABIL-GAIN)

@pytest.mark.parametrize("ability,name,gain", [
    (zisk.takovy_prcek, "větší protivník", {"vyhody": 2}),
    (zisk.skvely_taktik, "přepaden", {"vyhody": 1}),
    (zisk.hlava_nehlava, "zničená improvizovaná zbraň", {"pool": "telo", "amount": 1, "sacrifice": "stolička"}),
], ids=lambda x: getattr(x, "id", None) or str(x))
def test_resource_gain_on_its_event(ability, name, gain):
    hero = participant(abilities=(ability.id,), events=(name,), equipment=("stolička",))
    assert ability.drd_resource_gain(hero, event(name), {}) == gain
    assert ability.drd_resource_gain(participant(events=(name,)), event(name), {}) is None
    assert ability.drd_resource_gain(hero, event("konec kola"), {}) is None


def test_takovy_prcek_once_or_per_foe():
    hero = participant(abilities=("takovy-prcek",), events=("větší protivník", "vetsi-protivnik"))
    second = event("vetsi-protivnik", index=1)
    assert zisk.takovy_prcek.drd_resource_gain(hero, second, {}) is None
    assert zisk.takovy_prcek.drd_resource_gain(hero, second, {"takovy_prcek": "per-foe"}) == {"vyhody": 2}


def test_hlava_nehlava_wrecks_only_a_held_improvised_weapon():
    """R-ABIL-GAIN like a sacrifice (R-EXH-4): the weapon is the answer's `sacrifice`; a real weapon,
    armour or nothing to wreck is refused; several candidates need the `weapon` key."""
    wreck = event("zničená improvizovaná zbraň")
    hh = zisk.hlava_nehlava

    def hero(*items, **kw):
        return participant(abilities=("hlava-nehlava",), equipment=items, **kw)

    assert hh.drd_resource_gain(hero("lavice", "meč"), wreck, {})["sacrifice"] == "lavice"   # the meč is a weapon
    for items in ((), ("meč",), ("dlouhý luk",), (ItemView("kabátec", armour=1),)):
        res = hh.drd_resource_gain(hero(*items), wreck, {})
        assert res["rule"] == "R-ABIL-GAIN" and "Hlava nehlava" in res["refuse"] and "sacrifice" not in res, items
    several = hh.drd_resource_gain(hero("lavice", "džbán"), wreck, {})
    assert "lavice, džbán" in several["refuse"] and "weapon" in several["refuse"]
    named = hero("lavice", "džbán", options={"hlava-nehlava": {"weapon": "džbán"}})
    assert hh.drd_resource_gain(named, wreck, {})["sacrifice"] == "džbán"
    gone = hero("lavice", options={"hlava-nehlava": {"weapon": "džbán"}})
    assert "džbán" in hh.drd_resource_gain(gone, wreck, {})["refuse"]
    sword = hero("lavice", "meč", options={"hlava-nehlava": {"weapon": "meč"}})
    assert "enables: [hlava-nehlava]" in hh.drd_resource_gain(sword, wreck, {})["refuse"]
    # A hůl is a weapon type, unless the scenario marks it as the improvised one.
    assert "refuse" in hh.drd_resource_gain(hero("hůl"), wreck, {})
    marked = hero(ItemView("hůl", enables=("hlava-nehlava",)))
    assert hh.drd_resource_gain(marked, wreck, {}) == {"pool": "telo", "amount": 1, "sacrifice": "hůl"}
    assert hh.drd_resource_gain(participant(equipment=("lavice",)), wreck, {}) is None     # no ability: nothing


def test_skvely_taktik_free_obrana_while_the_battle_plan_holds():
    """R-ABIL-FREE: obrana free with the condition `bitevní plán`, every time [default `obrana`],
    once per round (`obrana-round`) or never (`none`); other manoeuvres are not its business."""
    st_ = zisk.skvely_taktik
    planned = participant(abilities=("skvely-taktik",), conditions=("bitevní plán",))
    act = action(means="melee")
    res = st_.drd_free_manoeuvre(planned, act, "obrana", {})
    assert res == {"free": True, "via": "Skvělý taktik", "key": "skvely-taktik", "per": None}
    assert st_.drd_free_manoeuvre(planned, act, "obrana", {"skvely_taktik": "obrana-round"})["per"] == "round"
    assert st_.drd_free_manoeuvre(planned, act, "obrana", {"skvely_taktik": "none"}) is None
    assert st_.drd_free_manoeuvre(planned, act, "presne", {}) is None
    no_plan = st_.drd_free_manoeuvre(participant(abilities=("skvely-taktik",)), act, "obrana", {})
    assert no_plan["free"] is False and "bitevní plán" in no_plan["note"]
    assert st_.drd_free_manoeuvre(participant(conditions=("bitevní plán",)), act, "obrana", {}) is None
    params = st_.drd_plugin_info()["params"]["skvely_taktik"]
    assert params["default"] == "obrana" and params["choices"] == ["obrana", "obrana-round", "none"]


# --------------------------------------------------------------------------- sdílení zdrojů (R-ABIL-SHARE)

@pytest.mark.parametrize("ability,means,pool", [
    (sdileni.rameno_na_rameno, "melee", "telo"), (sdileni.moudry_radce, "dealing", "vliv"),
    (sdileni.mysticky_kruh, "magic", "duse")], ids=lambda x: getattr(x, "id", None) or str(x))
def test_sharing_lets_the_helper_pay(ability, means, pool):
    helper = participant("pomocnik", abilities=(ability.id,), zone="most")
    friend = participant("pritel", zone="most")
    act = action("pritel", means=means, pool="duse" if means == "magic" else pool)
    assert ability.drd_may_pay(helper, friend, None, act) == {"pool": pool}
    assert ability.drd_may_pay(participant("pomocnik", zone="most"), friend, None, act) is None
    far = ability.drd_may_pay(helper, participant("pritel", zone="breh"), None, act)
    assert far["allow"] is False and "breh" in far["note"]          # refused, saying why (R-ABIL-SHARE)
    other = ability.drd_may_pay(helper, friend, None, action("pritel", means="other"))
    assert other["allow"] is False and other["note"]
    assert ability.drd_may_pay(helper, helper, None, act) is None


# --------------------------------------------------------------------------- rozšířená obrana (R-ABIL-DEF)

@pytest.mark.parametrize("ability", obrana_jinych.ALL, ids=lambda a: a.id)
def test_extended_defence_for_someone_near(ability):
    guard = participant("strazce", abilities=(ability.id,), zone="sin")
    ward = participant("pan", zone="sin")
    act = action("vrah", targets=(ward,))
    own = action("strazce", pool=ability.counter)
    assert ability.drd_may_react(guard, act, (ward,), own)["allow"] is True
    assert ability.drd_may_react(participant("strazce", zone="sin"), act, (ward,), own) is None
    assert ability.drd_may_react(guard, act, (participant("pan", zone="venku"),), own)["allow"] is False  # out of range
    other = next(p for p in ("telo", "duse", "vliv") if p != ability.counter)
    assert ability.drd_may_react(guard, act, (ward,), action("strazce", pool=other))["allow"] is False   # wrong type


# --------------------------------------------------------------------------- náročnost, free obrana

def test_pan_symbolu_adds_narocnost_per_link():
    hero = participant(abilities=("pan-symbolu",), options={"pan-symbolu": {"links": 2}})
    ward = action(label="ochranný obrazec", pool="duse")
    assert narocnost.pan_symbolu.drd_narocnost(hero, ward, 0) == 2
    assert narocnost.pan_symbolu.drd_narocnost(participant(), ward, 0) is None
    assert narocnost.pan_symbolu.drd_narocnost(hero, action(label="útok"), 0) is None


def test_plast_free_obrana_with_a_cloth():
    hero = participant(abilities=("plast",), equipment=("plášť",))
    assert volny_manevr.plast.drd_free_manoeuvre(hero, action(), "obrana", {})["per"] == "round"
    assert volny_manevr.plast.drd_free_manoeuvre(participant(equipment=("plášť",)), action(), "obrana", {}) is None
    assert volny_manevr.plast.drd_free_manoeuvre(hero, action(), "presne", {}) is None
    bare = participant(abilities=("plast",))
    assert volny_manevr.plast.drd_free_manoeuvre(bare, action(), "obrana", {})["free"] is False


def test_kluzky_jako_uhor_free_obrana_against_several():
    hero = participant(abilities=("kluzky-jako-uhor",))
    two = (participant("a"), participant("b"))
    deal = action(pool="vliv", means="dealing", targets=two)
    assert volny_manevr.kluzky_jako_uhor.drd_free_manoeuvre(hero, deal, "obrana", {})["free"] is True
    one = action(pool="vliv", means="dealing", targets=two[:1])
    assert volny_manevr.kluzky_jako_uhor.drd_free_manoeuvre(hero, one, "obrana", {})["free"] is False
    fight = action(pool="telo", means="melee", targets=two)
    assert volny_manevr.kluzky_jako_uhor.drd_free_manoeuvre(hero, fight, "obrana", {}) is None
    assert volny_manevr.kluzky_jako_uhor.drd_free_manoeuvre(hero, fight, "obrana",
                                                            {"kluzky_jako_uhor": "any"})["free"] is True


# --------------------------------------------------------------------------- activation (R-ABIL-ACT)

ALL = (zbehlost.ALL + nadani.ALL + ochrana.ALL + jizvy.ALL + zisk.ALL + sdileni.ALL + obrana_jinych.ALL
       + narocnost.ALL + volny_manevr.ALL + vnimani.ALL + narativni.ALL + mimo_konflikt.ALL)


@pytest.mark.parametrize("ability", [a for a in ALL if a.activation], ids=lambda a: a.id)
def test_activation_cost_of_the_ability_itself(ability):
    hero = participant(abilities=(ability.id,))
    # a key the engine asks for at activation (per use, no default): one improvised Surovina
    needed = {k: 1 for k, d in ability.keys.items() if d.get("per_use") and "default" not in d and d.get("type") == "int"}
    res = ability.drd_activation(hero, ability.id, action(), needed)
    cost, pool = ability.activation
    if ability.family == "crafting":     # also says what it crafts, the fact, improvised Suroviny
        assert (res["cost"], res["pool"]) == (cost, pool) and res["crafts"] and res["fact"]
    else:
        assert res == {"cost": cost, "pool": pool}
    assert ability.drd_activation(hero, "jine-id", action(), {}) is None


def test_tiered_activation():
    hero = participant(abilities=("modlitby-a-urknuti",), options={"modlitby-a-urknuti": {"variant": "velmi-dlouho"}})
    got = narativni.modlitby_a_urknuti.drd_activation(hero, "modlitby-a-urknuti", action(), None)
    assert got == {"cost": 3, "pool": "vliv"}
    # the engine's options (the activate item's keys over the entry's) decide over the entry
    got = narativni.modlitby_a_urknuti.drd_activation(hero, "modlitby-a-urknuti", action(), {"variant": "dlouho"})
    assert got == {"cost": 1, "pool": "vliv"}


@given(st.lists(st.sampled_from(BASIC), min_size=1, max_size=8))
def test_zbehlost_frees_at_most_one_of_each_name(names):
    """Invariant: under basic-free-once an action's free manoeuvres by zběhlost are its distinct names."""
    hero = participant(abilities=("gladiator",))
    act = action(skill="bezny-boj-zblizka", manoeuvres=tuple(names))
    free = []
    for i, name in enumerate(names):
        res = zbehlost.gladiator.drd_manoeuvre_price(hero, act, manoeuvre(name, index=i,
                                                                          occurrence=names[:i].count(name)), {})
        if res and res["free"]:
            free.append(name)
    assert sorted(free) == sorted(set(names))


def test_weapon_nadani_when_the_file_lists_no_weapon_or_names_the_skill():
    bare = participant(abilities=("cit-pro-zbran",), options={"cit-pro-zbran": {"weapon": "meč"}})
    assert nadani.cit_pro_zbran.drd_manoeuvre_price(bare, action(means="melee"), manoeuvre("presne"), {})["free"]
    assert nadani.cit_pro_zbran.drd_manoeuvre_price(bare, action(skill="bezny-boj-zblizka"), manoeuvre("presne"),
                                                    {})["free"]
    assert nadani.cit_pro_zbran.drd_manoeuvre_price(bare, action(skill="bezny-boj-zblizka", means="other"),
                                                    manoeuvre("presne"), {}) is None


def test_sharing_an_exhaustion_against_a_winner_without_means():
    from drd_cli.plugin import CostView

    helper = participant("pomocnik", abilities=("rameno-na-rameno",))
    friend = participant("pritel")
    winner = action("skret", means=None)
    assert sdileni.rameno_na_rameno.drd_may_pay(helper, friend, CostView("exhaustion", 2, "telo"), winner) == \
        {"pool": "telo"}
    refused = sdileni.rameno_na_rameno.drd_may_pay(helper, friend, CostView("manoeuvre", 1, "telo", "presne"),
                                                   winner)
    assert refused["allow"] is False and "means: melee" in refused["note"]
    magic = participant("lada", abilities=("mysticky-kruh",))
    assert sdileni.mysticky_kruh.drd_may_pay(magic, friend, CostView("exhaustion", 2, "duse"), winner) == \
        {"pool": "duse"}


@pytest.mark.parametrize("ability,means", [(zbehlost.gladiator, "melee"), (zbehlost.ostrostrelec, "shooting"),
                                           (zbehlost.vrhac, "throwing")], ids=lambda x: getattr(x, "id", x))
def test_zbehlost_of_the_ordinary_fighting_skills_by_means(ability, means):
    hero = participant(abilities=(ability.id,))
    assert ability.drd_manoeuvre_price(hero, action(means=means), manoeuvre("presne"), {})["free"] is True
    assert ability.drd_manoeuvre_price(hero, action(means=means, skill="sila"), manoeuvre("presne"), {}) is None
    assert ability.drd_manoeuvre_price(hero, action(means="dealing"), manoeuvre("presne"), {}) is None
