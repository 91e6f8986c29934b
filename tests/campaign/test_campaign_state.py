"""Writing a character's state back into its file: the file then holds exactly that state, and every
comment and Czech key spelling the user wrote stays (property-tested over states)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drd_cli.campaign import state
from drd_cli.campaign.apply import outcome
from drd_cli.scenario.character import CampaignParams

TEXT = """\
# Hanuš, hraje Petra
format: drd-postava/1
jméno: Mistr Hanuš
zdroje: {tělo: 4, duse: 9, vliv: 5}   # teď
hranice:
  tělo: 6    # po pádu z věže
  duse: 9
  vliv: 5
vybavení:
  - hůl      # dubová
  - {name: plášť, zbroj: 1}
jizvy: [{name: Stará rána, pool: telo, size: 1}]
stavy: []
"""

pools = st.fixed_dictionaries({p: st.integers(0, 12) for p in ("telo", "duse", "vliv")})
items = st.lists(st.sampled_from(["hůl", "plášť", "lano", "pochodeň"]), unique=True, max_size=4)
scars = st.lists(st.sampled_from(["Stará rána", "Pád z výšky", "Popálenina"]), unique=True, max_size=3)


def _state_of(text: str) -> dict:
    return state.file_state(state.validated(text, "postavy/hanus.yaml"))


@settings(max_examples=40, deadline=None)
@given(now=pools, caps=pools, equipment=items, jizvy=scars)
def test_the_written_file_holds_the_state_and_keeps_comments(now, caps, equipment, jizvy):
    old = _state_of(TEXT)
    caps = {p: max(caps[p], now[p]) for p in caps}
    wanted = dict(old, pools=now, max=caps, equipment=[e if e != "plášť" else {"name": "plášť", "armour": 1}
                                                      for e in equipment], jizvy=jizvy)
    text = state.new_text(TEXT, wanted, old)
    got = _state_of(text)
    assert got["pools"] == now and got["max"] == caps
    # The items kept keep their place (and comments); new ones come last.
    assert sorted(e if isinstance(e, str) else e["name"] for e in got["equipment"]) == sorted(equipment)
    assert sorted(j if isinstance(j, str) else j["name"] for j in got["jizvy"]) == sorted(jizvy)
    assert "# Hanuš, hraje Petra" in text and "# teď" in text and "# po pádu z věže" in text
    assert ("# dubová" in text) == ("hůl" in equipment)
    assert "zdroje:" in text and "tělo:" in text          # the user's spelling of the keys


def test_numbers_alone_are_replaced_in_place():
    old = _state_of(TEXT)
    wanted = dict(old, pools={"telo": 2, "duse": 9, "vliv": 5}, max={"telo": 3, "duse": 9, "vliv": 5})
    text = state.new_text(TEXT, wanted, old)
    assert text == TEXT.replace("tělo: 4,", "tělo: 2,").replace("tělo: 6 ", "tělo: 3 ")


def test_a_taken_jizva_lowers_the_maximum_and_clamps_the_pool():
    old = _state_of(TEXT)
    final = {"telo": 5, "duse": 9, "vliv": 5, "jizvy": ["Stará rána", "Pád z výšky"], "equipment": ["hůl", "plášť"],
             "conditions": [{"name": "omráčen", "rounds": 1}, "kulhá"]}
    result = {"steps": [{"exhaustions": [{"by": "hanus", "pool": "telo", "gained": {"jizva": {
        "name": "Pád z výšky", "gain": 2}}}]}]}
    after, notes = outcome(old, final, result, "hanus", {}, CampaignParams())
    assert after["max"]["telo"] == 4 and after["pools"]["telo"] == 4 and notes
    assert {"name": "Pád z výšky", "pool": "telo", "size": 2} in after["jizvy"]
    assert after["conditions"] == ["kulhá"]                 # a condition for one round does not last


def test_conditions_of_the_moment_and_ohrozeni_stay_with_the_conflict():
    old = _state_of(TEXT)
    final = {"telo": 4, "duse": 9, "vliv": 5, "ohrozeni": 4, "jizvy": ["Stará rána"], "equipment": ["hůl", "plášť"],
             "conditions": ["ve tmě"]}
    after, _notes = outcome(old, final, {"steps": []}, "hanus", {"moment": ["ve tmě"]}, CampaignParams())
    assert after["conditions"] == [] and after["ohrozeni"] is None
    carried, _notes = outcome(old, final, {"steps": []}, "hanus", {}, CampaignParams(carry=["ohrozeni"]))
    assert carried["ohrozeni"] == 4
