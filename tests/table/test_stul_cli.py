"""`drd stul` as typed in a terminal: loopback by default (and says so), Ctrl-C ends the server within
a second with the replay written, `--resume` goes on from it; English pages on request."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.table.support import SCENARIOS, skeleton

DRD = [sys.executable, "-c", "from drd_cli.cli.app import main; main()"]


def launch(*args: str) -> tuple[subprocess.Popen, dict[str, str]]:
    proc = subprocess.Popen([*DRD, "stul", *args, "--port", "0", "--no-qr"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)   # its Ctrl-C never reaches the test's own process group
    seen: dict[str, str] = {"text": ""}
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen["text"] += line
        found = re.search(r"(http://\S+/gm/\S+)", line)
        if found:
            seen["gm"] = found.group(1)
            return proc, seen
    proc.kill()
    raise AssertionError(seen["text"])


def state(url: str) -> dict:
    with httpx.Client(timeout=10) as client, client.stream("GET", url + "/events") as response:
        for line in response.iter_lines():
            if line.startswith("data: "):
                return json.loads(line[6:])
    raise AssertionError("no state")


def waiting(url: str, after: int = 0) -> dict:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        s = state(url)
        if s["pending"] and s["pending"]["id"] > after:
            return s["pending"]
        time.sleep(0.05)
    raise AssertionError("no question")


def test_ctrl_c_ends_within_a_second_with_the_replay_and_resume_goes_on(tmp_path):
    skel = skeleton(SCENARIOS / "hanus-chrani-jinocha.yaml", tmp_path / "hanus.yaml")
    proc, seen = launch(str(skel), "--seed", "4")
    try:
        assert "loopback" in seen["text"] and "http://127.0.0.1:" in seen["gm"]
        gm = seen["gm"]
        q = waiting(gm)
        assert q["who"] == "stary"
        assert httpx.post(gm + "/act", json={"cmd": "answer", "q": q["id"], "text": "6 5"}).json()["ok"]
        nxt = waiting(gm, q["id"])
        assert nxt["who"] == "hanus"
        began = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=10)
        took = time.monotonic() - began
    finally:
        if proc.poll() is None:
            proc.kill()
    assert took < 1.0, took
    assert proc.returncode == 130, out
    replay = tmp_path / "hanus.replay.yaml"
    assert "--resume" in out and replay.exists()
    assert re.search(r"roll: 11|dice: \[6, 5\]", replay.read_text(encoding="utf-8"))

    proc, seen = launch(str(skel), "--resume")
    try:
        q = waiting(seen["gm"])
        assert q["who"] == "hanus"                 # the ogre's roll is in the replay: it goes on from there
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=10)


def test_pages_speak_english_on_request(tmp_path):
    from tests.table.support import start

    skel = skeleton(SCENARIOS / "hanus-chrani-jinocha.yaml", tmp_path / "hanus.yaml")
    running = start(skel, lang=None)
    try:
        czech = httpx.get(running.tv).text
        english = httpx.get(running.tv, headers={"Accept-Language": "en-GB,en;q=0.8"}).text
        assert "Obrazovka stolu" in czech and 'lang="cs"' in czech
        assert "Table screen" in english and 'lang="en"' in english
    finally:
        running.stop()


def test_the_command_needs_a_drd2_scenario(tmp_path):
    dakara = SCENARIOS / "dakara-kapsar.yaml"
    got = subprocess.run([*DRD, "stul", str(dakara), "--port", "0"], capture_output=True, text=True, timeout=60)
    assert got.returncode == 2 and "Traceback" not in got.stderr
    assert Path(dakara).exists()


def test_play_with_stul_serves_the_same_game(tmp_path):
    skel = skeleton(SCENARIOS / "hanus-chrani-jinocha.yaml", tmp_path / "hanus.yaml")
    proc = subprocess.Popen([*DRD, "play", str(skel), "--stul", "--seed", "4"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)   # its Ctrl-C never reaches the test's own process group
    try:
        text = ""
        for line in proc.stdout:
            text += line
            found = re.search(r"(http://\S+/gm/\S+)", line)
            if found:
                q = waiting(found.group(1))
                assert q["who"] == "stary" and q["kind"] == "roll"
                break
        else:
            raise AssertionError(text)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=10)
