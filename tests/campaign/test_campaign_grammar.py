"""A character's grammatical gender and forms (`rod`, `tvary`) reach the participant that names it,
so the transcript agrees and declines with them (docs/kampan.md, docs/i18n.md)."""

from __future__ import annotations

import json

from campaign_support import new_campaign, ok, write


def test_a_characters_gender_and_forms_reach_the_scenario(tmp_path):
    root = new_campaign(tmp_path)
    write(root / "postavy" / "zlatka.yaml", """format: drd-postava/1
name: Špiónka Zlatka
rod: ž
tvary: {3: Špiónce Zlatce, 7: Špiónkou Zlatkou, poznámka: nic}
pools: {telo: 5, duse: 5, vliv: 6}
levels: {kejklir: 3}
""")
    write(root / "konflikty" / "brana.yaml", """format: drd/1
title: Brána
participants:
  zlatka: {postava: zlatka, ohrozeni: 2}
  hlidac: {name: Hlídač, sudba: 5}
rounds:
  - steps:
      - test: {actor: zlatka, pool: telo, bonus_from: kejklir, roll: 10}
""")
    out = json.loads(ok("resolve", "konflikty/brana.yaml", "--json", cwd=root).stdout)
    start = out["campaign"]["start"]["zlatka"]
    state = start.get("state", start)
    assert state["rod"] == "ž"
    assert state["pady"] == {"3": "Špiónce Zlatce", "7": "Špiónkou Zlatkou"}
