"""SCENARIO-FORMAT §4.7 `initiative: roll` with several searchers (second spec audit, open point c).

Reading (docs/rules.md): `initiative` is one value per hide step (hidden | deceived | roll), so
`roll` makes one decision for the whole step, as the written values do: if any searching deceived
has a higher initiative than the hidden, the deceived act (each search is its own pair, CS-HIDE-2
S3); otherwise the hidden acts and every searcher counters it.
"""

from __future__ import annotations

from drd_cli.testing import resolve_text, step

TEXT = """
format: drd/1
participants:
  zlatka: {name: Zlatka, pools: {telo: 5, duse: 5, vliv: 6}, ohrozeni: 2, levels: {kejklir: 3}}
  komori: {name: Komoří, sudba: 6, ohrozeni: 1, charakteristika: 3}
  straz: {name: Stráž, sudba: 6, ohrozeni: 1, charakteristika: 2}
rounds:
  - initiative: {rolls: %(ini)s}
    steps:
      - id: h
        hide:
          hidden: zlatka
          deceived: [komori, straz]
          situation: search
          initiative: roll
          rolls: {zlatka: 8, komori: 10, straz: 6}
"""


def _run(ini: str) -> dict:
    return resolve_text(TEXT % {"ini": ini})


def test_CS_HIDE_2_initiative_roll_one_searcher_above_the_hidden_lets_both_deceived_search():
    h = step(_run("{zlatka: 7, komori: 9, straz: 5}"), "h")
    assert h["hide"]["initiative"] == "deceived"
    # each searcher's search is its own pair with the hidden (komori 10 > 8 finds, straz 6 < 8 does not)
    assert h["actions"]["komori"]["success"] is True and h["actions"]["straz"]["success"] is False
    assert h["hide"]["revealed_by"] == ["komori"]


def test_CS_HIDE_2_initiative_roll_hidden_above_every_searcher_acts_first():
    h = step(_run("{zlatka: 11, komori: 9, straz: 5}"), "h")
    assert h["hide"]["initiative"] == "hidden"
    assert h["hide"]["resolved_as"] == "contest"
