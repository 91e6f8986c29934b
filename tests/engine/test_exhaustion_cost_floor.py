"""R-EXH-3: per protected participant the cost is max(0, Ohrožení − armour + mocně) — the floor is taken
once, after every change to the armour or the cost (Pádný úder lowers the armour, it does not add to a
cost already floored)."""

from __future__ import annotations

import pytest
from drdtest import doc, final, run, step

PEOPLE = """
h: {pools: {telo: 6, duse: 6, vliv: 6}, levels: {bojovnik: 2}, abilities: [padny-uder]}
a: {sudba: 9, ohrozeni: %d, armour: %d}
"""

STEP = """
        - id: s
          contest:
            action: {actor: h, pool: telo, bonus_from: bojovnik, targets: [a], roll: 10, effect: {ohrozeni: 1},
                     manoeuvres: %s}
            counters: [{actor: a, roll: 7}]
          choices: {a: exhaust}
        """


@pytest.mark.parametrize("ohrozeni,armour,mocne,cost", [
    (1, 2, 0, 0),   # armour 2 → 1 under Pádný úder: max(0, 1 − 1) = 0 (flooring 1 − 2 first gave 1)
    (0, 3, 1, 0),   # max(0, 0 − 2 + 1) = 0
    (1, 1, 0, 1),   # armour 1 → 0: max(0, 1 − 0) = 1
    (3, 2, 0, 2),   # max(0, 3 − 1) = 2
    (2, 4, 1, 0),   # max(0, 2 − 3 + 1) = 0
])
def test_R_EXH_3_padny_uder_lowers_the_armour_before_the_floor(ohrozeni, armour, mocne, cost):
    moc = "[mocne]" if mocne else "[]"
    r = run(doc(PEOPLE % (ohrozeni, armour), STEP % moc))
    assert final(r, "a")["sudba"] == 9 - cost
    (exh,) = step(r, "s")["exhaustions"]
    assert exh["cost"] == cost
