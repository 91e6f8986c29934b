"""A campaign's costs as ratios (docs/kampan.md):

    python benchmarks/bench_campaign.py [--runs 9] [--check]

* resolving a scenario whose participants name the campaign's characters and creatures
  (`postava:`/`bestie:`), against the same scenario with every participant written out in full
  (outside a campaign): goal ≤ 1.2×;
* applying a result (`drd resolve FILE --zapsat`: resolve, lock, check, write the characters and
  the chronicle entry) against `drd resolve FILE` of it: goal < 1.5×.

Each command runs as a whole process, interleaved (one of each per round, so a busy spell of a
shared machine hits both alike), after an untimed warm-up; medians of wall-clock time, and of CPU
time (user + system of the child), are compared. Between two applies the campaign is put back
as it was (untimed).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HEROES = 6
STEPS = 24


def drd() -> list[str]:
    here = Path(sys.executable).parent / "drd"
    return [str(here)] if here.exists() else [sys.executable, "-m", "drd_cli.cli.app"]


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
ENV.update(DRD_DISABLE_PLUGIN_AUTOLOAD="1", LANG="C.UTF-8")


def hero(n: int) -> str:
    return (f"# hráč {n}\nformat: drd-postava/1\nname: Hrdina {n}\npools: {{telo: 9, duse: 7, vliv: 6}}\n"
            "max: {telo: 9, duse: 8, vliv: 6}\nlevels: {bojovnik: 2, lovec: 1}\n"
            "abilities: [kruhovy-sek]\nequipment: [{name: kroužková košile, armour: 1}, meč, lano]\n"
            "jizvy: [{name: Stará rána, pool: telo, size: 1}]\nconditions: []\n")


def steps() -> str:
    out = []
    for s in range(STEPS):
        h = s % HEROES
        out.append(f"  - initiative: [vlci]\n    steps:\n      - id: s{s}\n        contest:\n"
                   f"          action: {{actor: vlci, pool: telo, targets: [h{h}], roll: 10, effect: {{ohrozeni: 1}}}}\n"
                   f"          counters: [{{actor: h{h}, kind: harm, pool: telo, roll: 8}}]\n"
                   f"        choices: {{h{h}: accept}}\n")
    return "".join(out)


def make(tmp: Path) -> tuple[Path, Path, Path]:
    root = tmp / "kampan"
    for sub in ("postavy", "bestiar", "konflikty", "kronika"):
        (root / sub).mkdir(parents=True)
    (root / "drd-kampan.yaml").write_text("format: drd-kampan/1\nname: Bench\n", encoding="utf-8")
    for n in range(HEROES):
        (root / "postavy" / f"h{n}.yaml").write_text(hero(n), encoding="utf-8")
    (root / "bestiar" / "vlk.yaml").write_text("format: drd-bestie/1\nname: Vlk\nsudba: 30\n"
                                               "charakteristika: {level: 2, covers: [boj zblízka]}\n",
                                               encoding="utf-8")
    rounds = "rounds:\n" + steps()
    refs = "".join(f"  h{n}: {{postava: h{n}, ohrozeni: 1, side: družina}}\n" for n in range(HEROES))
    ref = root / "konflikty" / "boj.yaml"
    ref.write_text("format: drd/1\ntitle: Boj\nparticipants:\n" + refs
                   + "  vlci: {bestie: vlk, pocet: 4, ohrozeni: 1}\n" + rounds, encoding="utf-8")
    # The same scenario written out: the participants as the references expand them.
    from drd_cli.api import load_scenario

    loaded = load_scenario(str(ref))
    from drd_cli.digest import plain

    doc = plain(loaded.raw)
    full = tmp / "full.json.yaml"
    full.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")   # JSON is YAML
    return root, ref, full


def timed(cmd: list[str], cwd: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} → {proc.returncode}: {proc.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def reset(root: Path, saved: dict) -> None:
    for name in os.listdir(root / "kronika"):
        if (root / "kronika" / name).is_file():      # the snapshot store (kronika/snimky/) may stay
            os.unlink(root / "kronika" / name)
    for rel, data in saved.items():
        (root / rel).write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        root, ref, full = make(tmp)
        saved = {p.relative_to(root).as_posix(): p.read_bytes() for p in (root / "postavy").iterdir()}
        commands = {
            "full": (drd() + ["resolve", str(full), "--json"], tmp),
            "ref": (drd() + ["resolve", "konflikty/boj.yaml", "--json"], root),
            "apply": (drd() + ["resolve", "konflikty/boj.yaml", "--json", "--zapsat"], root),
        }
        times: dict[str, list] = {k: [] for k in commands}
        for name, (cmd, cwd) in commands.items():          # warm-up
            timed(cmd, cwd)
            reset(root, saved)
        for _ in range(args.runs):
            for name, (cmd, cwd) in commands.items():
                times[name].append(timed(cmd, cwd))
                reset(root, saved)
        med = {k: (statistics.median(w for w, _c in v), statistics.median(c for _w, c in v)) for k, v in times.items()}
    rows = [("resolve, references / written out", med["ref"], med["full"], 1.2),
            ("apply (--zapsat) / resolve", med["apply"], med["ref"], 1.5)]
    failed = False
    print(f"{'row':38} {'wall':>8} {'cpu':>8}  goal   (medians of {args.runs}, ms)")
    for label, a, b, goal in rows:
        wall, cpu = a[0] / b[0], a[1] / b[1]
        failed |= wall > goal
        print(f"{label:38} {wall:7.2f}× {cpu:7.2f}×  ≤ {goal}   ({a[0] * 1000:.0f} / {b[0] * 1000:.0f})")
    return 1 if args.check and failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
