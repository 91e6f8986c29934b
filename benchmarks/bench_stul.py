"""`drd stul`: how soon the server answers after the command is typed, and how soon a dice entry
reaches every open page (docs/stul.md).

    python benchmarks/bench_stul.py [--runs 5] [--entries 30]

Rows:
* start: from starting `drd stul SKELETON --port 0 --no-qr` to the first 200 of its table screen
  (the URL read from the terminal), median of `--runs`; goal < 1 s. Beside it, the same over
  `drd resolve --json` of the book's scenario as a whole process: on a machine so busy that a plain
  `drd resolve` takes most of a second, the ratio (goal ≤ 1.5×) is what says whether stul is slow.
* entry → every page: the GM's page posts a roll; the time until all four event streams (GM,
  two players, table screen) have the state with that roll in it; the next entry undoes it. Median
  and worst of `--entries`, on the loopback; goal: worst < 200 ms.
Exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DRD = [sys.executable, "-c", "from drd_cli.cli.app import main; main()"]
START_GOAL = 1.0
START_RATIO = 1.5
ENTRY_GOAL = 0.200


def start_once(skel: Path) -> float:
    import httpx

    began = time.perf_counter()
    proc = subprocess.Popen([*DRD, "stul", str(skel), "--port", "0", "--no-qr"], stdout=subprocess.PIPE, text=True)
    try:
        for line in proc.stdout:
            found = re.search(r"(http://\S+/tv)\b", line)
            if found:
                url = found.group(1)
                break
        else:
            raise SystemExit("drd stul printed no address")
        while True:
            try:
                if httpx.get(url, timeout=2).status_code == 200:
                    return time.perf_counter() - began
            except httpx.TransportError:
                time.sleep(0.005)
    finally:
        proc.terminate()
        proc.wait(10)


def resolve_once(path: Path) -> float:
    began = time.perf_counter()
    subprocess.run([*DRD, "resolve", str(path), "--json"], stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - began


async def entries(skel: Path, count: int) -> list[float]:
    import httpx

    from tests.table.support import start

    running = start(skel, seed=3)
    urls = [running.gm, running.player("hanus"), running.tv, running.url(f"/p/{running.room.token_of('hanus')}")]
    seen: list[dict] = [{} for _ in urls]
    events = [asyncio.Event() for _ in urls]

    async def listen(i: int, client: httpx.AsyncClient) -> None:
        async with client.stream("GET", urls[i] + "/events") as response:
            async for line in response.aiter_lines():
                if line.startswith("data: "):
                    seen[i] = json.loads(line[6:])
                    events[i].set()

    times = []
    try:
        async with httpx.AsyncClient(timeout=10) as client:
            tasks = [asyncio.create_task(listen(i, client)) for i in range(len(urls))]
            while not running.game.pending:
                await asyncio.sleep(0.01)
            for n in range(count):
                q = running.game.pending
                body = {"cmd": "answer", "q": q["id"], "text": "6 5"} if n % 2 == 0 else {"cmd": "undo"}
                began = time.perf_counter()
                await client.post(running.gm + "/act", json=body)
                while not (running.game.pending and running.game.pending["id"] != q["id"]):
                    await asyncio.sleep(0.001)
                want = running.game.version          # the next question is up: every page must show it
                while not all(s.get("version", -1) >= want for s in seen):
                    await asyncio.sleep(0.001)
                times.append(time.perf_counter() - began)
                await asyncio.sleep(0.05)
            for task in tasks:
                task.cancel()
    finally:
        running.stop()
    return times


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--entries", type=int, default=30)
    args = ap.parse_args()
    from tests.table.support import SCENARIOS, skeleton

    with tempfile.TemporaryDirectory() as tmp:
        skel = skeleton(SCENARIOS / "hanus-chrani-jinocha.yaml", Path(tmp) / "hanus.yaml")
        start_once(skel)                                   # warm-up: bytecode, disk cache
        resolve_once(SCENARIOS / "hanus-chrani-jinocha.yaml")
        starts, resolves = [], []
        for _ in range(args.runs):
            starts.append(start_once(skel))
            resolves.append(resolve_once(SCENARIOS / "hanus-chrani-jinocha.yaml"))
        took = asyncio.run(entries(skel, args.entries))
    start, resolve = statistics.median(starts), statistics.median(resolves)
    worst, median = max(took), statistics.median(took)
    print("| row | measured | goal |\n|---|---:|---:|")
    print(f"| start: `drd stul` typed → table screen answers | {start * 1000:.0f} ms "
          f"({start / resolve:.2f}× `drd resolve --json`) | < {START_GOAL * 1000:.0f} ms, or ≤ {START_RATIO}× |")
    print(f"| dice entry → all 4 pages (median / worst of {len(took)}) | {median * 1000:.1f} / {worst * 1000:.1f} ms | "
          f"worst < {ENTRY_GOAL * 1000:.0f} ms |")
    return 0 if (start < START_GOAL or start / resolve <= START_RATIO) and worst < ENTRY_GOAL else 1


if __name__ == "__main__":
    raise SystemExit(main())
