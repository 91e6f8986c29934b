"""`drd stul` in a real browser: the GM's page, two players' phones (375×667) and the table screen
(1920×1080) play a conflict to the end — players type their dice and decide, the GM rolls for the
others, corrects a roll and undoes a step — and the replay and transcript are those of `drd resolve`.

Every page is screenshotted into the artefacts folder (printed) and checked with axe-core (vendored
in drd_cli/table/static/vendor) for serious or critical violations.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser_support import PHONE, SCREEN
from tests.table.support import SCENARIOS, skeleton, start, wait_for

AXE = Path(__file__).resolve().parents[2] / "drd_cli" / "table" / "static" / "vendor" / "axe-4.14.1.min.js"
DICE = ["4 3", "5 5", "6 2", "3 3", "2 5", "6 6", "1 4"]


def serious_violations(page) -> list[str]:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                           .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '));
    }""")
    return list(found)


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


class Table:
    """The open pages and the running game; `step` answers whatever is asked on the right page."""

    def __init__(self, running, gm, players: dict, tv):
        self.r, self.gm, self.players, self.tv = running, gm, players, tv
        self.rolls = 0
        self.fixed: dict[str, str] = {}      # participant → the dice always typed for them
        self.shoot: tuple[Path, str] | None = None   # (folder, name): a screenshot of the first roll and decision
        self.shot: set[str] = set()
        self.answered: list[tuple[str, str]] = []

    @property
    def game(self):
        return self.r.game

    def next_question(self, after: int) -> dict | None:
        got = wait_for(lambda: (self.game.pending if self.game.pending and self.game.pending["id"] > after else None)
                       or self.game.finished)
        return None if got is True else dict(got)

    def page_for(self, q: dict):
        return self.players.get(q["who"]) if not q["secret"] else None

    def answer(self, q: dict, page, *, dice: str | None = None, key: str | None = None) -> None:
        """Types or taps the answer to question `q` on `page` (it waits for the page to show it)."""
        body = page.locator(f"#question-body[data-q='{q['id']}']")
        body.wait_for()
        if self.shoot and page is not self.gm and q["kind"] not in self.shot:
            self.shot.add(q["kind"])
            folder, name = self.shoot
            page.screenshot(path=str(folder / f"{name}-player-{q['kind']}.png"))
            self.gm.screenshot(path=str(folder / f"{name}-gm-{q['kind']}.png"))
            self.tv.screenshot(path=str(folder / f"{name}-tv-{q['kind']}.png"))
        if q["kind"] == "roll":
            page.fill("#answer", dice or self.fixed.get(q["who"]) or DICE[self.rolls % len(DICE)])
            self.rolls += 1
            page.click("#send")
        elif q["options"]:
            keys = [o["key"] for o in q["options"]]
            chosen = key or next((k for k in ("v", "z", "1") if k in keys), keys[0])
            body.locator(f"button[data-key='{chosen}']").click()
        else:
            body.locator("#default").click()
        self.answered.append((q["who"], q["kind"]))


def play_to_the_end(t: Table, *, correct_first_player_roll: bool, undo_once: bool) -> None:
    last = 0
    corrected = not correct_first_player_roll
    undone = not undo_once
    for _ in range(60):
        q = t.next_question(last)
        if q is None:
            return
        last = q["id"]
        page = t.page_for(q)
        if page is None:
            t.answer(q, t.gm)
            continue
        if not corrected and q["kind"] == "roll":
            # The player mistypes; the GM corrects it to what the die showed.
            t.answer(q, page, dice="1 1")
            nxt = t.next_question(last)
            assert nxt is not None
            t.gm.fill("#correct-dice", "5 4")
            t.gm.click("#correct")
            wait_for(lambda: t.game.pending is None or t.game.pending["id"] > nxt["id"] + 1 or t.game.finished)
            wait_for(lambda: any(e.asked and e.value == [5, 4] for e in t.game.session.history))
            last = nxt["id"] + 1
            corrected = True
            continue
        t.answer(q, page)
        if not undone and q["kind"] == "roll":
            nxt = t.next_question(last)
            assert nxt is not None
            t.gm.click("#undo")
            again = t.next_question(nxt["id"])
            assert again is not None and again["who"] == q["who"] and again["kind"] == "roll"
            last = nxt["id"]
            undone = True
    raise AssertionError("the game did not end")


def check_pages(t: Table, name: str, artefacts: Path) -> None:
    for role, page in [("gm", t.gm), ("tv", t.tv)] + [(f"player-{pid}", p) for pid, p in t.players.items()]:
        page.locator("body[data-status='done']").wait_for(state="attached")
        page.screenshot(path=str(artefacts / f"{name}-{role}.png"), full_page=True)
        assert no_horizontal_scroll(page), role
        assert serious_violations(page) == [], role
    print(f"\nscreenshots: {artefacts}")


def resolve_replay(replay: Path, tmp_path: Path) -> str:
    out = tmp_path / "resolved.txt"
    subprocess.run([sys.executable, "-c", "from drd_cli.cli.app import main; main()", "resolve", str(replay),
                    "-o", str(out)], check=True, capture_output=True)
    return out.read_text(encoding="utf-8")


def open_table(running, new_page, players: list[str], *, join_first: bool) -> Table:
    gm = new_page(**PHONE)
    gm.goto(running.gm)
    pages = {}
    for i, pid in enumerate(players):
        page = new_page(**PHONE)
        if join_first and i == 0:
            page.goto(running.url("/"))        # the player picks the character on the join page
            page.click(f"button[value='{pid}']")
            page.wait_for_url("**/p/**")
        else:
            page.goto(running.player(pid))     # the link the GM hands out
        pages[pid] = page
    tv = new_page(**SCREEN)
    tv.goto(running.tv)
    return Table(running, gm, pages, tv)


@pytest.mark.browser
def test_hanus_protects_the_boy_played_on_phones(new_page, tmp_path, artefacts):
    skel = skeleton(SCENARIOS / "hanus-chrani-jinocha.yaml", tmp_path / "hanus.yaml")
    running = start(skel, seed=11)
    try:
        t = open_table(running, new_page, ["hanus"], join_first=True)
        second = new_page(**PHONE)              # the same player's second phone sees the same
        second.goto(running.player("hanus"))
        t.players["hanus-2"] = second
        t.fixed["stary"] = "6 5"                # the ogre's 11, as in the book
        t.shoot = (artefacts, "hanus")
        play_to_the_end(t, correct_first_player_roll=True, undo_once=False)
        wait_for(lambda: running.game.transcripts.get("gm"))
        check_pages(t, "hanus", artefacts)
        assert ("hanus", "decision") in t.answered
        replay = Path(running.table.target)
        assert "5" in replay.read_text(encoding="utf-8")
        assert running.game.transcripts["gm"] == resolve_replay(replay, tmp_path)
        gm_text = t.gm.locator("#transcript").inner_text()
        assert "sha256:" in gm_text
        # Hanuš exhausted for the boy (CS-FOR-1), as the book's example; the GM's correction counted.
        assert running.game.result["final"]["hanus"]["ohrozeni"] == 3
        rolls = running.game.result["steps"][0]["rolls"]["hanus"]
        assert rolls["dice"] == [5, 4]
    finally:
        running.stop()


@pytest.mark.browser
def test_two_rounds_with_two_players_an_undo_and_a_correction(new_page, tmp_path, artefacts):
    skel = skeleton(SCENARIOS / "schopnosti-spanek-pozar.yaml", tmp_path / "pozar.yaml")
    running = start(skel, seed=5)
    try:
        t = open_table(running, new_page, ["jarik", "zira"], join_first=False)
        t.shoot = (artefacts, "pozar")
        play_to_the_end(t, correct_first_player_roll=True, undo_once=True)
        wait_for(lambda: running.game.transcripts.get("gm"))
        check_pages(t, "pozar", artefacts)
        assert {"jarik", "zira"} <= {who for who, _ in t.answered}
        assert "borek" in {who for who, _ in t.answered}          # the absent player: the GM rolled
        replay = Path(running.table.target)
        assert running.game.transcripts["gm"] == resolve_replay(replay, tmp_path)
        tv_text = t.tv.locator("body").inner_text()
        assert "Zíra" in tv_text and running.room.gm not in t.tv.content()
    finally:
        running.stop()


@pytest.mark.browser
def test_a_script_for_a_name_is_shown_as_text_and_secrets_stay_hidden(new_page, tmp_path, artefacts):
    src = tmp_path / "vrah.yaml"
    src.write_text((Path(__file__).parent / "data" / "tajny-vrah.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    running = start(src, seed=1)
    try:
        dialogs = []
        pages = []
        for url, size in ((running.tv, SCREEN), (running.player("ala"), PHONE), (running.url("/"), PHONE)):
            page = new_page(**size)
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.goto(url)
            pages.append(page)
        tv, ala, join = pages
        tv.locator("#people li").nth(2).wait_for(state="attached")
        assert tv.locator("#people li").count() == 3
        assert "<script>alert(1)</script>" in tv.locator("#people").inner_text()
        assert "Stínový vrah" not in tv.content() and "Stínový vrah" not in ala.content()
        assert "<b>u brány</b>" in tv.locator("#title").inner_text()
        assert dialogs == []
        for page in pages:
            assert no_horizontal_scroll(page)
            assert serious_violations(page) == []
        ala.set_viewport_size({"width": 360, "height": 640})          # the narrowest phone the pages promise
        assert no_horizontal_scroll(ala)
        join.screenshot(path=str(artefacts / "vrah-join.png"))
    finally:
        running.stop()


@pytest.mark.browser
def test_a_paused_game_takes_no_player_answers(new_page, tmp_path):
    skel = skeleton(SCENARIOS / "hanus-chrani-jinocha.yaml", tmp_path / "hanus.yaml")
    running = start(skel, seed=2)
    try:
        t = open_table(running, new_page, ["hanus"], join_first=False)
        q = t.next_question(0)
        t.answer(q, t.gm, dice="6 5")
        q = t.next_question(q["id"])
        assert q["who"] == "hanus"
        t.players["hanus"].locator(f"#question-body[data-q='{q['id']}']").wait_for()
        t.gm.click("#pause")
        t.players["hanus"].locator("body[data-status='paused']").wait_for(state="attached")
        assert t.players["hanus"].locator("#answer").count() == 0          # no question while paused
        assert "hanus" not in {a[0] for a in t.answered}
        t.gm.click("#pause")                                               # "Continue"
        t.answer(q, t.players["hanus"], dice="4 4")
        wait_for(lambda: running.game.pending is None or running.game.pending["id"] > q["id"] or running.game.finished)
    finally:
        running.stop()
