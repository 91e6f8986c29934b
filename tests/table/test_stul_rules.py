"""Invariants of the room and the pages' language (property tests): no token but the right one opens
anything, and a page is always in Czech or English."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drd_cli.table.room import Bucket, Room
from drd_cli.table.words import WORDS, page_language, words

TOKENS = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=200, deadline=None)
@given(guess=TOKENS, other=TOKENS)
def test_no_guess_opens_the_room_a_player_or_the_gm(guess, other):
    room = Room(["ala", "bob"])
    assert not room.is_room(guess) or guess == room.token
    assert room.player(guess, other) is None or (guess == room.token and other in room.players)
    assert not room.is_gm(guess, other) or (guess, other) == (room.token, room.gm)
    assert room.gm not in room.players and room.token not in room.players


def test_tokens_are_separate_and_each_player_has_one():
    room = Room(["ala", "bob"])
    tokens = {room.token, room.gm, *room.players}
    assert len(tokens) == 4 and all(len(t) >= 22 for t in tokens)
    assert room.player(room.token, room.token_of("bob")) == "bob"
    assert room.claim("bob") == room.token_of("bob") and room.claim("bob") is None     # picked once
    assert room.claim("zly") is None


@given(accept=st.one_of(st.none(), st.text(max_size=60)), explicit=st.sampled_from([None, "cs", "en"]))
def test_a_page_is_in_czech_or_english(accept, explicit):
    lang = page_language(accept, explicit)
    assert lang in ("cs", "en")
    if explicit:
        assert lang == explicit


def test_every_page_word_is_translated():
    cs, en = words("cs"), words("en")
    assert set(cs) == set(en) == set(WORDS)
    assert cs["gm"] == "Průvodce" and en["gm"] == "Game master"
    assert all(cs[k] != en[k] for k in ("player", "tv", "send", "undo", "pause"))


def test_a_token_spends_its_burst_then_waits():
    bucket = Bucket()
    taken = sum(bucket.take() for _ in range(100))
    assert 20 <= taken <= 22

