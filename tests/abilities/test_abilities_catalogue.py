"""The ability catalogue: all 86 abilities of the revised edition, with the family and class our
research gives each (docs/abilities.md), served by installed plugins; docs/abilities.md in sync."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# id → (class, primary family), as the research catalogue states them.
EXPECTED = {
    "rodova-zbran": ("A", "free-manoeuvre"), "jmenem-krale": ("A", "stronger-scar"),
    "zarputilost": ("A", "stronger-scar"), "idol-zen-ci-muzu": ("A", "skill-level"), "lvi-srdce": ("A", "discount"),
    "styky": ("C", "narrative-authority"), "vznesenost": ("B", "healing"), "tesknota": ("A", "stronger-scar"),
    "jsme-jedne-krve": ("A", "skill-level"), "plast-soumraku": ("A", "skill-level"),
    "pamet-rodu": ("C", "narrative-authority"), "nocni-oci": ("D", "awareness"), "sila-prisahy": ("A", "stronger-scar"),
    "nezdolnost": ("B", "healing"), "jatra-ze-zuly": ("A", "discount"), "pouto-krve": ("C", "narrative-authority"),
    "sesty-smysl": ("A", "awareness"), "takovy-prcek": ("A", "gain-resources"), "dobra-nalada": ("B", "healing"),
    "tichoslapek": ("A", "skill-level"), "labuznik": ("C", "narrative-authority"), "netopyri-sluch": ("D", "awareness"),
    "zbesilost": ("A", "stronger-scar"), "odznaky-hrdinstvi": ("A", "skill-level"), "zubri-kuze": ("A", "discount"),
    "koreny-magie": ("C", "narrative-authority"),
    "cit-pro-zbran": ("A", "skill-level"), "gladiator": ("A", "skill-level"), "silak": ("A", "skill-level"),
    "osobni-strazce": ("A", "extended-defence"), "kruhovy-sek": ("A", "free-manoeuvre"), "padny-uder": ("A", "discount"),
    "hlava-nehlava": ("A", "gain-resources"), "rameno-na-rameno": ("A", "share-resources"),
    "skald": ("A", "skill-level"), "skvely-taktik": ("A", "gain-resources"), "sampion": ("A", "skill-level"),
    "precteni-soupere": ("C", "narrative-authority"),
    "dobra-muska": ("A", "skill-level"), "ostrostrelec": ("A", "skill-level"), "dest-strel": ("A", "free-manoeuvre"),
    "zalesak": ("A", "skill-level"), "pruzkumnik": ("A", "skill-level"), "pruvodce": ("A", "skill-level"),
    "lovci": ("A", "skill-level"), "neco-z-niceho": ("B", "crafting"), "jedno-oko-otevrene": ("A", "awareness"),
    "krotitel": ("A", "skill-level"), "cvicitel": ("B", "narrative-authority"),
    "zarikavac-koni": ("C", "narrative-authority"),
    "desiva-presnost": ("A", "skill-level"), "akrobat": ("A", "skill-level"), "vrhac": ("A", "skill-level"),
    "plast": ("A", "free-manoeuvre"), "smrst-dyk": ("A", "free-manoeuvre"), "zlodej": ("A", "skill-level"),
    "speh": ("A", "skill-level"), "talent": ("A", "skill-level"), "psi-oci": ("A", "skill-level"),
    "komediant": ("A", "skill-level"), "zmena-tvare": ("C", "activation-only"),
    "skryta-kapsa": ("C", "narrative-authority"),
    "dryjacnik": ("A", "skill-level"), "ranhojic": ("A", "skill-level"), "cteni-v-dusi": ("A", "skill-level"),
    "umeni-improvizace": ("B", "crafting"), "neobvykle-jedy": ("B", "crafting"), "vyjednavac": ("A", "skill-level"),
    "pusobivy-recnik": ("A", "free-manoeuvre"), "kluzky-jako-uhor": ("A", "free-manoeuvre"),
    "ostry-jazyk": ("A", "extended-defence"), "moudry-radce": ("A", "share-resources"), "hojivy-dotek": ("B", "healing"),
    "lazebnik": ("C", "narrative-authority"),
    "knihomol": ("A", "skill-level"), "sila-osobnosti": ("A", "skill-level"), "bystrost": ("A", "extended-defence"),
    "dar-tvoreni": ("B", "crafting"), "zrici-straze": ("D", "awareness"), "carovne-straze": ("B", "crafting"),
    "pan-symbolu": ("A", "narocnost"), "divoky-talent": ("A", "skill-level"), "povolavac": ("A", "skill-level"),
    "modlitby-a-urknuti": ("C", "activation-only"), "mysticky-kruh": ("A", "share-resources"),
    "veze-a-chramy": ("C", "narrative-authority"),
}
STATUS = {"A": {"shipped", "narrative"}, "B": {"outside the engine"}, "C": {"narrative"}, "D": {"narrative"}}


@pytest.fixture(scope="module")
def cards():
    from drd_cli import i18n
    from drd_cli.abilities import installed_catalogue

    with i18n.using("cs"):        # the cards as docs/abilities.md shows them (Czech)
        return installed_catalogue()


def test_the_research_counts():
    classes = [c for c, _f in EXPECTED.values()]
    assert len(EXPECTED) == 86
    assert (classes.count("A"), classes.count("B"), classes.count("C"), classes.count("D")) == (61, 10, 12, 3)


def test_catalogue_has_every_ability(cards):
    assert set(cards) == set(EXPECTED)


@pytest.mark.parametrize("aid", sorted(EXPECTED))
def test_card(cards, aid):
    card = cards[aid]
    klass, family = EXPECTED[aid]
    assert card["class"] == klass
    assert card["family"].split(" + ")[0] == family
    assert card["status"] in STATUS[klass]
    assert card["name"] and card["owner"] and card["mechanic"]
    if card["activation"]:
        assert card["activation"]["cost"] in (1, 3) and card["activation"]["pool"] in ("telo", "duse", "vliv",
                                                                                        "suroviny")


def test_class_c_has_an_activation_and_d_none(cards):
    for aid, (klass, _f) in EXPECTED.items():
        if klass == "C":
            assert cards[aid]["activation"], aid
        if klass == "D":
            assert not cards[aid]["activation"], aid


def test_every_ability_is_its_own_entry_point():
    from importlib.metadata import entry_points

    eps = {ep.name: ep for ep in entry_points(group="drd_cli.plugins")}
    for aid in EXPECTED:
        obj = eps[aid].load()
        assert obj.drd_plugin_info()["kind"] == "ability", aid


def test_docs_page_is_in_sync(cards):
    from drd_cli.abilities import render_markdown, scenario_index

    text = (ROOT / "docs" / "abilities.md").read_text(encoding="utf-8")
    assert text == render_markdown(cards, scenario_index(ROOT)), \
        "docs/abilities.md is stale: python -m drd_cli.abilities docs"
    for aid in EXPECTED:
        assert f"`{aid}`" in text


def test_every_class_a_ability_has_a_scenario():
    from drd_cli.abilities import scenario_index

    shown = scenario_index(ROOT)
    missing = sorted(a for a, (k, _f) in EXPECTED.items() if k == "A" and not shown.get(a))
    assert not missing, f"no scenario in scenarios/ lists {missing}"


CATALOGUE_MODULES = ("_schopnost", "zbehlost", "nadani", "volny_manevr", "ochrana", "jizvy", "zisk", "sdileni",
                     "obrana_jinych", "narocnost", "vnimani", "narativni", "mimo_konflikt", "schopnosti")


@pytest.mark.parametrize("name", CATALOGUE_MODULES)
def test_catalogue_modules_import_only_the_public_api(name):
    tree = ast.parse((ROOT / "plugins" / "drd_plugins" / f"{name}.py").read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("drd_cli"):
            assert node.module == "drd_cli.plugin", f"{name}.py imports {node.module}"
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith("drd_cli") for a in node.names), name


def test_a_card_shows_the_parameters_its_ability_reads_and_no_others():
    from drd_cli.abilities import card_params, installed_catalogue

    cards = installed_catalogue()
    assert card_params(cards["skvely-taktik"]) == {"skvely_taktik"}
    assert card_params(cards["takovy-prcek"]) == {"takovy_prcek"}
    assert card_params(cards["gladiator"]) == {"zbehlost"}
    assert card_params(cards["cit-pro-zbran"]) == {"nadani"}
    assert card_params(cards["lvi-srdce"]) == {"lvi_srdce"}        # Pádný úder is bodily: no padny_uder_natural
    assert card_params(cards["kluzky-jako-uhor"]) == {"kluzky_jako_uhor"}
    assert card_params(cards["plast"]) == set()
    from typer.testing import CliRunner

    from drd_cli.cli.app import app

    res = CliRunner().invoke(app, ["abilities", "skvely-taktik"])
    assert res.exit_code == 0 and "skvely_taktik" in res.stdout
    assert "kluzky_jako_uhor" not in res.stdout and "takovy_prcek" not in res.stdout
