"""Every shipped ability's card shows a real example: a scenario under tests/data/abilities/<id>.yaml
whose `expect:` holds with the ability and fails with it switched off (`--disable ID`), and the
card's `example` is that scenario's body (docs/abilities.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from drd_cli.abilities import installed_catalogue
from drd_cli.errors import DrdError

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "abilities"
CARDS = installed_catalogue()
SHIPPED = sorted(aid for aid, card in CARDS.items() if card.get("status") == "shipped")


def differences(path: Path, disable: tuple[str, ...] = ()) -> list:
    """What the file's `expect:` finds wrong in its resolution (none: it holds)."""
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.check import compare_result

    loaded = load_scenario(str(path))
    expect = dict(loaded.raw["expect"])
    try:
        result, code, text = resolve_scenario(loaded, disable=disable), 0, ""
    except DrdError as exc:
        result, code, text = None, exc.exit_code, exc.format()
    return compare_result(expect, result, code, text)


def body(path: Path) -> list[str]:
    from drd_plugins.priklady import body as scenario_body

    return scenario_body(path.read_text(encoding="utf-8"))


def test_the_catalogue_has_shipped_abilities_and_every_one_has_an_example_file():
    assert len(SHIPPED) >= 60
    assert [aid for aid in SHIPPED if not (EXAMPLES / f"{aid}.yaml").is_file()] == []


def test_every_example_file_belongs_to_a_shipped_ability():
    assert sorted(p.stem for p in EXAMPLES.glob("*.yaml") if p.stem not in SHIPPED) == []


@pytest.mark.parametrize("aid", SHIPPED)
def test_the_card_example_resolves_with_the_ability_and_differs_without_it(aid):
    path = EXAMPLES / f"{aid}.yaml"
    assert differences(path) == []
    assert differences(path, disable=(aid,)) != [], f"{aid}: its example resolves the same without it"


@pytest.mark.parametrize("aid", SHIPPED)
def test_the_card_shows_its_example_scenario(aid):
    assert CARDS[aid].get("example") == body(EXAMPLES / f"{aid}.yaml")


@pytest.mark.parametrize("aid", sorted(set(CARDS) - set(SHIPPED)))
def test_an_ability_without_an_engine_effect_says_so_instead_of_an_example(aid):
    card = CARDS[aid]
    assert not card.get("example")
    assert card.get("example_note")


def test_drd_check_holds_every_example_to_its_expectations():
    from typer.testing import CliRunner

    from drd_cli.cli.app import app

    files = [str(p) for p in sorted(EXAMPLES.glob("*.yaml"))]
    out = CliRunner().invoke(app, ["check", *files])
    assert out.exit_code == 0, out.stdout
    assert f"{len(files)} ok" in out.stdout
