"""Who may do what at `drd stul`'s table (docs/stul.md, Security): tokens, players' limits, secrets,
escaping, request bounds, a crowd of reconnecting clients, two GMs, catching up after a drop."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.table.support import start, wait_for

SECRET = Path(__file__).parent / "data" / "tajny-vrah.yaml"
XSS = "<script>alert(1)</script>"


@pytest.fixture
def table(tmp_path):
    src = tmp_path / "vrah.yaml"
    src.write_text(SECRET.read_text(encoding="utf-8"), encoding="utf-8")
    running = start(src, seed=1)
    yield running
    running.stop()


@pytest.fixture
def http():
    with httpx.Client(timeout=10) as client:
        yield client


def first_state(client: httpx.Client, url: str) -> dict:
    """The first state event of an event stream (what a page gets when it connects)."""
    with client.stream("GET", url) as response:
        assert response.status_code == 200
        for line in response.iter_lines():
            if line.startswith("data: "):
                return json.loads(line[6:])
    raise AssertionError("no state")


def pending(r, after: int = 0) -> dict:
    return dict(wait_for(lambda: r.game.pending if r.game.pending and r.game.pending["id"] > after else None))


def gm_answer(http, r, q: dict, text: str) -> httpx.Response:
    return http.post(r.gm + "/act", json={"cmd": "answer", "q": q["id"], "text": text})


def test_without_a_valid_token_403_and_nothing_else(table, http):
    r = table
    bad = ["/", "/favicon.ico", "/x/tv", f"/{r.room.token}x/tv", f"/{r.room.token}/gm/{r.room.token}",
           f"/{r.room.token}/gm/nope", f"/{r.room.token}/p/nope", f"/{r.room.token}/p/nope/events",
           f"/{r.room.token}/static/../room.py", f"/{r.room.token}/tv/../gm", f"/x/gm/{r.room.gm}"]
    for path in bad:
        got = http.get(r.base + path)
        assert (got.status_code, got.content) == (403, b""), path
    got = http.post(r.base + f"/{r.room.token}/gm/nope/act", json={"cmd": "end"})
    assert (got.status_code, got.content) == (403, b"")
    assert http.get(r.tv).status_code == 200 and http.get(r.gm).status_code == 200
    assert r.game.ending is False


def test_a_player_cannot_answer_for_another_nor_undo_nor_a_secret_step(table, http):
    r = table
    bob, ala = r.player("bob"), r.player("ala")
    q = pending(r)                                       # the secret assassin rolls: the GM's
    assert q["who"] == "stin"
    assert http.post(bob + "/act", json={"q": q["id"], "text": "6 6"}).json()["error"] == "not_yours"
    assert gm_answer(http, r, q, "5 2").json()["ok"]
    q = pending(r, q["id"])                              # Bob's roll in the secret step: the GM's only
    assert q["who"] == "bob" and q["secret"]
    assert http.post(bob + "/act", json={"q": q["id"], "text": "1 3"}).json()["error"] == "not_yours"
    assert gm_answer(http, r, q, "1 3").json()["ok"]
    while (q := pending(r, q["id"]))["who"] != "ala":    # the GM decides for Bob and rolls for the creature
        gm_answer(http, r, q, "4 4" if q["kind"] == "roll" else "")
    refused = http.post(bob + "/act", json={"q": q["id"], "text": "6 6"})
    assert (refused.status_code, refused.json()["error"]) == (400, "not_yours")
    answered = r.game.session.answered
    for word in ("zpět", "z", "undo", "r", "znovu"):
        refused = http.post(ala + "/act", json={"q": q["id"], "text": word})
        assert refused.json()["error"] == "gm_only", word
    assert r.game.pending["id"] == q["id"] and r.game.session.answered == answered
    assert http.post(ala + "/act", json={"q": q["id"], "text": "6 5"}).json()["ok"]


def test_secrets_stay_out_of_the_players_pages_and_streams(table, http):
    r = table
    q = pending(r)
    gm_answer(http, r, q, "5 2")
    q = pending(r, q["id"])
    gm_answer(http, r, q, "1 3")
    pending(r, q["id"])
    gm = first_state(http, r.gm + "/events")
    assert "Stínový vrah" in json.dumps(gm, ensure_ascii=False)
    for url in (r.tv, r.player("bob"), r.player("ala")):
        page = http.get(url).text
        stream = json.dumps(first_state(http, url + "/events"), ensure_ascii=False)
        for text in (page, stream):
            assert "Stínový vrah" not in text and "stin" not in text and "dýka ze tmy" not in text
            assert r.room.gm not in text                  # the GM's token only ever on the GM's page
    assert r.room.token_of("ala") not in http.get(r.player("bob")).text


def test_scenario_text_is_escaped(table, http):
    r = table
    page = http.get(r.tv).text
    assert XSS not in page and "<b>u brány</b>" not in page
    assert "&lt;b&gt;u brány&lt;/b&gt;" in page
    csp = http.get(r.tv).headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    state = first_state(http, r.tv + "/events")
    assert any(p["name"] == XSS for p in state["board"]["people"])     # data, put in as text by stul.js


def test_oversized_and_malformed_requests_are_refused_and_the_game_goes_on(table, http):
    r = table
    q = pending(r)
    url = r.gm + "/act"
    assert http.post(url, content=b"{" + b" " * 100_000 + b"}",
                     headers={"content-type": "application/json"}).status_code == 413
    assert http.post(url, content=b"\xff\xfe not json").status_code == 400
    assert http.post(url, content=b"[1, 2]").status_code == 400
    assert http.post(url, json={"cmd": "answer", "q": q["id"], "text": "4" * 500}).status_code == 400
    assert http.post(url, json={"cmd": "format c:"}).status_code == 400
    assert http.post(r.player("ala") + "/act", json={"q": "1", "text": "x"}).status_code == 400
    got = http.post(url, content=b'{"cmd": "answer", "q": ' + str(q["id"]).encode() + b', "text": "8 8"}')
    assert got.json()["ok"]                     # the session's own check refuses 8 (a die shows 1–6) …
    again = pending(r, q["id"])
    assert any("8" in line for line in again["lines"])
    assert gm_answer(http, r, again, "5 2").json()["ok"]      # … and asks again: the game is undisturbed
    pending(r, again["id"])


def test_two_game_masters_cannot_both_decide(table, http):
    r = table
    q = pending(r)
    with httpx.Client(timeout=10) as second:
        first = gm_answer(http, r, q, "5 2")
        late = second.post(r.gm + "/act", json={"cmd": "answer", "q": q["id"], "text": "6 6"})
    assert first.json()["ok"]
    assert (late.status_code, late.json()["error"]) == (409, "taken")
    # The game records the answer on its own thread, a moment after the page was told "ok".
    history = wait_for(lambda: r.game.session.history)
    assert history[0].value == [5, 2]


def test_a_dropped_page_catches_up_when_it_reconnects(table, http):
    r = table
    before = first_state(http, r.player("bob") + "/events")
    q = pending(r)
    gm_answer(http, r, q, "5 2")
    pending(r, q["id"])
    after = first_state(http, r.player("bob") + "/events")
    assert after["version"] > before["version"]
    assert after["version"] == r.game.version


def test_requests_are_rate_limited_per_token(table, http):
    r = table
    r.room.rate = 0.5               # the burst of 20, then hardly any more however slow the machine is
    q = pending(r)
    codes = [http.post(r.player("ala") + "/act", json={"q": q["id"], "text": "1 1"}).status_code
             for _ in range(60)]
    assert 429 in codes
    assert gm_answer(http, r, q, "5 2").json()["ok"]        # the GM's own budget is untouched


def test_two_hundred_reconnecting_clients_do_not_stop_the_game_master(table):
    r = table

    async def crowd_and_gm() -> tuple[list[int], float, int]:
        limits = httpx.Limits(max_connections=250)
        async with httpx.AsyncClient(timeout=10, limits=limits) as client:
            codes: list[int] = []

            async def reconnecting():
                for _ in range(3):             # connect, hold the stream a moment, drop, again
                    async with client.stream("GET", r.tv + "/events") as got:
                        codes.append(got.status_code)
                        if got.status_code == 200:
                            await asyncio.sleep(0.2)

            crowd = [asyncio.create_task(reconnecting()) for _ in range(200)]
            await asyncio.sleep(0.3)
            began = time.monotonic()
            async with httpx.AsyncClient(timeout=10) as gm:
                page = await gm.get(r.gm)
                assert page.status_code == 200
                q = r.game.pending
                got = await gm.post(r.gm + "/act", json={"cmd": "answer", "q": q["id"], "text": "5 2"})
                assert got.json()["ok"]
                async with gm.stream("GET", r.gm + "/events") as events:
                    assert events.status_code == 200
            took = time.monotonic() - began
            open_now = sum(r.room._streams.values())
            await asyncio.wait_for(asyncio.gather(*crowd), 60)
            return codes, took, open_now

    wait_for(lambda: r.game.pending)
    began = time.monotonic()
    # In a thread of its own: a browser test in the same process keeps Playwright's loop running here.
    out: list = []

    def run() -> None:
        try:
            out.append(asyncio.run(crowd_and_gm()))
        except BaseException as exc:  # noqa: BLE001 - raised again in the test's thread
            out.append(exc)

    runner = threading.Thread(target=run)
    runner.start()
    runner.join(90)
    assert out, "the crowd and the GM did not finish"
    if isinstance(out[0], BaseException):
        raise out[0]
    codes, took, open_now = out[0]
    assert took < 15                                 # the GM was served while the crowd hammered (same process)
    assert open_now <= 64 + 8                        # bounded: the room's streams and the GM's
    assert set(codes) <= {200, 429} and 429 in codes
    assert time.monotonic() - began < 60
    assert r.base.startswith("http://127.0.0.1:")   # all of it on the loopback


def test_with_confirm_a_typed_roll_waits_for_the_gm_who_confirms_or_corrects(tmp_path, http):
    src = tmp_path / "vrah.yaml"
    src.write_text(SECRET.read_text(encoding="utf-8"), encoding="utf-8")
    r = start(src, seed=1, confirm=True)
    try:
        q = pending(r)
        gm_answer(http, r, q, "5 2")
        q = pending(r, q["id"])
        gm_answer(http, r, q, "1 3")
        while (q := pending(r, q["id"]))["who"] != "ala":
            gm_answer(http, r, q, "4 4" if q["kind"] == "roll" else "")
        ala = r.player("ala")
        assert http.post(ala + "/act", json={"q": q["id"], "text": "1 1"}).json()["ok"]
        time.sleep(0.2)
        assert r.game.pending["id"] == q["id"]                  # not entered yet
        assert first_state(http, r.gm + "/events")["proposed"]["text"] == "1 1"
        assert first_state(http, ala + "/events")["question"]["proposed"] == "1 1"
        assert http.post(r.gm + "/act", json={"cmd": "confirm"}).json()["ok"]
        nxt = pending(r, q["id"])                                # entered as typed: Ala lost, she decides
        assert r.game.session.history[-1].value == [1, 1] and nxt["kind"] == "decision"
        assert http.post(r.gm + "/act", json={"cmd": "undo"}).json()["ok"]     # back to Ala's roll
        q = pending(r, nxt["id"])
        assert q["who"] == "ala" and q["kind"] == "roll"
        assert http.post(ala + "/act", json={"q": q["id"], "text": "6 6"}).json()["ok"]
        wait_for(lambda: r.game.proposed)
        assert http.post(r.gm + "/act", json={"cmd": "correct", "text": "5 5"}).json()["ok"]
        wait_for(lambda: any(e.value == [5, 5] for e in r.game.session.history))
        assert not any(e.value in ([6, 6], [1, 1]) for e in r.game.session.history)
        assert http.post(r.gm + "/act", json={"cmd": "confirm"}).json()["error"] in ("no_roll", "over")
    finally:
        r.stop()


def test_game_masters_answering_at_the_same_moment_one_wins(table):
    from concurrent.futures import ThreadPoolExecutor

    r = table
    q = pending(r)
    dice = ["1 1", "2 2", "3 3", "4 4", "5 5", "6 6"]

    def post(text: str) -> tuple[str, dict]:
        with httpx.Client(timeout=10) as client:
            return text, client.post(r.gm + "/act", json={"cmd": "answer", "q": q["id"], "text": text}).json()

    with ThreadPoolExecutor(len(dice)) as pool:
        got = list(pool.map(post, dice))
    won = [text for text, body in got if body["ok"]]
    assert len(won) == 1 and all(body["error"] == "taken" for _, body in got if not body["ok"])
    wait_for(lambda: r.game.session.history)
    assert r.game.session.history[0].value == [int(x) for x in won[0].split()]
