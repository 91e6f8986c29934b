"""R-RND-1, CS-HIDE-2: a deceived whose declared delay is already spent this round is, like one whose
ordinary initiative is spent, left out of `situation: auto` when the hidden's action does not threaten
it — the step becomes the hidden's test (S1) — instead of being refused under CS-IND-1."""

from __future__ import annotations

import pytest

from drd_cli.testing import resolve_text, step

DOC = """
format: drd/1
title: Komoří odložil a už chránil sám sebe
participants:
  zlatka: {{name: Špiónka Zlatka, pools: {{telo: 5, duse: 5, vliv: 6}}, ohrozeni: 2, levels: {{kejklir: 3}}}}
  komori: {{name: Komoří, sudba: 6, ohrozeni: 1, suspicion: [zlatka],
           charakteristika: {{level: 3, covers: [zámek, všímavost]}}}}
  sluha: {{name: Sluha, sudba: 4, ohrozeni: 1}}
rounds:
  - initiative: [komori, sluha, zlatka]
    {delay}
    steps:
      - id: pada
        contest:
          action: {{actor: sluha, pool: telo, targets: [komori], roll: 7, effect: {{ohrozeni: 1}}}}
          counters: [{{actor: komori, {source} kind: protect, pool: telo, roll: 10}}]
      - id: zaves
        hide:
          hidden: zlatka
          deceived: [komori]
          resists: true
          situation: auto
          action: {{label: připlížení za závěs, pool: telo, bonus_from: kejklir, self_effect: {{vyhody: 1}}}}
          counter: {{label: všímavost, pool: telo, bonus_from: charakteristika, effect: {{ohrozeni: 1}}}}
          rolls: {{zlatka: 11, komori: 8}}
"""


@pytest.mark.parametrize("delay,source", [("delay: [komori]", "from: delayed,"),
                                          ("spent: [komori]", "")])
def test_R_RND_1_a_deceived_without_an_action_left_is_left_out_of_auto(delay, source):
    r = resolve_text(DOC.format(delay=delay, source=source))
    s = step(r, "zaves")
    assert s["hide"]["resolved_as"] == "test"
    assert s["actions"]["zlatka"]["success"] is True
    assert "komori" not in s["actions"]
    assert r["final"]["zlatka"]["vyhody"] == 1
