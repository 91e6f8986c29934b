"""Writers of one campaign: ten at once lose nothing; a writer killed at any moment leaves every file
as it was or as it was meant to be, and the next change finishes or forgets its work."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

from campaign_support import character, drd, new_campaign, ok, write

HERO = "format: drd-postava/1\nname: {name}   # hráč {n}\npools: {{telo: 5, duse: 10, vliv: 5}}\n" \
       "max: {{telo: 6, duse: 10, vliv: 5}}\nequipment: [meč]\n"
CREATURE = "format: drd-bestie/1\nname: Vlk\nsudba: 6\n"


def conflict(ident: str) -> str:
    return (f"format: drd/1\ntitle: Vlk a {ident}\nparticipants:\n  hrdina: {{postava: {ident}, ohrozeni: 1}}\n"
            "  vlk: {bestie: vlk}\nrounds:\n  - initiative: [vlk, hrdina]\n    steps:\n      - id: kousnuti\n"
            "        contest:\n          action: {actor: vlk, pool: telo, targets: [hrdina], roll: 10,"
            " effect: {lose: meč}}\n          counters: [{actor: hrdina, kind: harm, pool: telo, roll: 6}]\n"
            "        choices: {hrdina: accept}\n")


def _campaign(tmp_path, heroes: int):
    root = new_campaign(tmp_path)
    write(root / "bestiar" / "vlk.yaml", CREATURE)
    for n in range(heroes):
        write(root / "postavy" / f"h{n}.yaml", HERO.format(name=f"Hrdina {n}", n=n))
        write(root / "konflikty" / f"k{n}.yaml", conflict(f"h{n}"))
    return root


def _spawn(args, cwd):
    env = dict(os.environ, LANG="C.UTF-8", DRD_DISABLE_PLUGIN_AUTOLOAD="1", DRD_KDO="tester")
    return subprocess.Popen([sys.executable, "-m", "drd_cli.cli.app", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_ten_concurrent_applies_lose_nothing(tmp_path):
    root = _campaign(tmp_path, 10)
    procs = [_spawn(["resolve", f"konflikty/k{n}.yaml", "--zapsat", "--json"], root) for n in range(10)]
    codes = [p.wait(timeout=180) for p in procs]
    assert codes == [0] * 10, [p.stderr.read() for p in procs]
    for n in range(10):
        hero = character(root, f"h{n}")
        assert hero["pools"]["telo"] == 5 and hero["equipment"] == []      # accepted: the sword is gone
    entries = json.loads(ok("kronika", "--json", cwd=root).stdout)
    assert sorted(e["number"] for e in entries) == list(range(1, 11))
    assert sorted(e["file"] for e in entries) == sorted(f"konflikty/k{n}.yaml" for n in range(10))


def test_ten_concurrent_adjustments_of_one_character_all_count(tmp_path):
    root = _campaign(tmp_path, 1)
    procs = [_spawn(["postava", "uprav", "h0", "duse=-1", "--duvod", f"hlídka {n}"], root) for n in range(10)]
    assert [p.wait(timeout=180) for p in procs] == [0] * 10
    assert character(root, "h0")["pools"]["duse"] == 0
    assert len(json.loads(ok("kronika", "--json", cwd=root).stdout)) == 10


def _snapshot(root):
    """Every file's content; a chronicle entry without its `when` (a clock, not the change)."""
    import yaml

    out = {}
    for p in root.rglob("*"):
        if p.is_file() and not p.name.startswith("."):
            data = p.read_bytes()
            if p.parent.name == "kronika" and p.suffix == ".yaml":
                entry = yaml.safe_load(data)
                entry.pop("when", None)
                data = json.dumps(entry, sort_keys=True, ensure_ascii=False).encode()
            out[p.relative_to(root).as_posix()] = data
    return out


def test_a_kill_during_an_apply_leaves_every_file_before_or_after(tmp_path):
    # Two characters in one conflict: the change is three or more files.
    root = _campaign(tmp_path, 2)
    write(root / "konflikty" / "oba.yaml", conflict("h0").replace(
        "  vlk:", "  druhy: {postava: h1, ohrozeni: 1}\n  vlk:").replace("title: Vlk a h0", "title: Oba")
        + "      - id: skok\n        test: {actor: druhy, pool: telo, roll: 5, failure: {lose: meč}}\n"
          "        choices: {druhy: accept}\n")
    before = _snapshot(root)
    ok("resolve", "konflikty/oba.yaml", "--zapsat", cwd=root)
    after = _snapshot(root)
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    assert {"postavy/h0.yaml", "postavy/h1.yaml"} <= changed
    ok("kronika", "vrat", cwd=root)
    rng = random.Random(7)
    outcomes = set()
    for attempt in range(12):
        # Back to the state before (the undo left its own entry: remove the chronicle for a clean start).
        # (The snapshot store, kronika/snimky/, is content-addressed: it may stay.)
        for name in os.listdir(root / "kronika"):
            if (root / "kronika" / name).is_file():
                os.unlink(root / "kronika" / name)
        for k, v in before.items():
            if not k.startswith("kronika/"):
                (root / k).write_bytes(v)
        proc = _spawn(["resolve", "konflikty/oba.yaml", "--zapsat"], root)
        time.sleep(rng.uniform(0.05, 1.2))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        now = _snapshot(root)
        for name in changed:
            assert now.get(name) in (before.get(name), after.get(name)), (attempt, name)
        # The next change under the lock finishes a decided change or drops an undecided one.
        drd("postava", "uprav", "h1", "vliv=+0", cwd=root)
        settled = _snapshot(root)
        states = {settled.get(f"postavy/h{n}.yaml") == after[f"postavy/h{n}.yaml"] for n in (0, 1)}
        assert len(states) == 1, attempt                    # both characters before, or both after
        outcomes.add(states.pop())
        leftovers = [p for p in root.rglob(".kampan-*.tmp")]
        assert leftovers == []
    assert outcomes                                         # at least one run was checked
