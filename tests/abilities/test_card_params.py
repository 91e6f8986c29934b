"""A card lists only the rules parameters its ability reads (R-ABIL-PROT: Pádný úder's
`padny_uder_natural` matters to a natural protection against bodily harm only)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from drd_cli.abilities import card_params, installed_catalogue

CARDS = installed_catalogue()


@pytest.mark.parametrize("aid,params", [
    ("jatra-ze-zuly", set()), ("lvi-srdce", {"lvi_srdce"}), ("zubri-kuze", {"padny_uder_natural"}),
    ("padny-uder", {"padny_uder_natural"}), ("gladiator", {"zbehlost"}), ("cit-pro-zbran", {"nadani"}),
    ("kluzky-jako-uhor", {"kluzky_jako_uhor"})])
def test_R_ABIL_PROT_a_card_shows_the_parameters_its_ability_reads(aid, params):
    assert card_params(CARDS[aid]) == params


def test_R_ABIL_PROT_drd_abilities_json_lists_no_parameter_the_ability_cannot_read():
    from drd_cli.cli.app import app

    out = CliRunner().invoke(app, ["abilities", "jatra-ze-zuly", "--json"])
    assert out.exit_code == 0
    assert json.loads(out.stdout)["params"] == {}
