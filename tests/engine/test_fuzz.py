"""Issue #13, item 7: mutated scenario files never cause an internal error.

Every book scenario in `scenarios/` is mutated (deterministically: mutant i comes from
random.Random(i), so a failure names a mutant that can be rebuilt) with the things a user's editor,
a copy from a web page or a hostile file can bring: lone surrogates (`"\\ud800"` escapes and raw
surrogate bytes), control characters, decomposed Unicode (NFD), bidi marks, BOMs and NULs, invalid
UTF-8, YAML tags, anchors and aliases, wrong types, lines deleted, duplicated, moved or re-indented,
and truncation. Each mutant goes in process

* through the library API (`load_scenario` → `resolve_scenario` → `digest` → JSON, text and
  Markdown transcripts): the only exceptions allowed are DrdError with exit 1 or 2;
* every CLI_EVERY-th also through the CLI runner (`drd resolve --json`, `drd check`): exit 0, 1
  or 2, never 3, never a traceback; and `drd check` calls the file invalid exactly when
  `drd resolve` does (exit 2).

DRD_FUZZ_N=20000 runs more mutants (default 2,000, about half a minute).
"""

from __future__ import annotations

import os
import random
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "scenarios").glob("*.yaml"))
N = int(os.environ.get("DRD_FUZZ_N", "2000"))
CLI_EVERY = 8

HOSTILE = [
    "\\ud800", "\\udfff", "a\\ud83dz", "\\x00", "\\x07", "\\x1b[31m", "\\u202e", "\\u2066", "\\u200f",
    "\\ufeff", "\\u0085", "\\u2028", "\\x7f",
]
RAW = ["\u202e", "\u2066", "\u200f", "\u200b", "\ufeff", "\x07", "\x1b", "\x00", "\x0c", "\u0085", "\u2028", "\t",
       "\r", "\u00a0", "\u0301", "\U0001F409"]
VALUES = ["-1", "0", "999999999999999999999", "1.5", "x", "null", "[]", "{}", "true", "~", "''", '""', "-.inf",
          ".nan", "0x1F", "1e309", "[1, [2, [3]]]", "{a: {b: {c: 1}}}", "2026-12-01", "!!binary aGk=",
          "!!python/object/apply:os.system ['true']", "!!timestamp x", "&a x", "*a", "*nikdo", "<<: *a", "|\n  x",
          ">-\n  y"]
CZECH = ["Ohrožení", "Tělo", "Duše", "Jizva", "Hanuš", "úspěch", "zlobři", "čarodějka"]


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def mutate(text: str, rng: random.Random) -> bytes:
    """One mutant of a scenario's text: 1 to 3 random edits; returns the bytes of the file."""
    lines = text.split("\n")
    raw_bytes: list[tuple[int, bytes]] = []
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(12)
        i = rng.randrange(len(lines))
        line = lines[i]
        if op == 0 and ":" in line:                      # a value becomes a hostile quoted string
            key = line.split(":", 1)[0]
            lines[i] = f'{key}: "{rng.choice(CZECH)}{"".join(rng.choices(HOSTILE, k=rng.randint(1, 3)))}"'
        elif op == 1:                                    # a raw odd character anywhere in a line
            at = rng.randint(0, len(line))
            lines[i] = line[:at] + rng.choice(RAW) + line[at:]
        elif op == 2:                                    # decomposed Unicode: keys and values
            lines[i] = nfd(line) if line != nfd(line) else line.replace(":", "\u0301:", 1)
        elif op == 3:
            del lines[i]
        elif op == 4:
            lines.insert(i, line)
        elif op == 5:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 6:
            lines[i] = (" " * rng.choice([1, 2, 4])) + line if rng.random() < 0.6 else line.lstrip()
        elif op == 7 and ":" in line:                    # a wrong type, tag, anchor or alias
            key = line.split(":", 1)[0]
            lines[i] = f"{key}: {rng.choice(VALUES)}"
        elif op == 8:                                    # numbers change
            lines[i] = "".join(str(rng.choice([0, 1, 2, 7, 13, 99, -3])) if c.isdigit() else c for c in line)
        elif op == 9:                                    # a bidi mark, NFD or a lone surrogate in a key
            if ":" in line:
                key, rest = line.split(":", 1)
                if rng.random() < 0.5:
                    lines[i] = key + rng.choice(["\u200f", "\u202e", "\u2066", "\u0301"]) + ":" + rest
                else:
                    indent = key[: len(key) - len(key.lstrip(" -"))]
                    lines[i] = f'{indent}"{key.strip(" -")}{rng.choice(HOSTILE)}":{rest}'
        elif op == 10:                                   # bytes that are not UTF-8 (or a raw surrogate)
            raw_bytes.append((i, rng.choice([b"\xed\xa0\x80", b"\xff", b"\xc3", b"\xef\xbb\xbf", b"\x00"])))
        else:                                            # truncated
            lines = lines[: max(1, i)]
            break
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    for i, chunk in raw_bytes:
        data = data[: i * 7 % (len(data) + 1)] + chunk + data[i * 7 % (len(data) + 1):]
    return data


def _api(path: str) -> int:
    """Exit code the library gives: 0, or a DrdError's 1/2. Anything else propagates (the failure)."""
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.cli._common import render_transcript
    from drd_cli.digest import digest
    from drd_cli.errors import DrdError

    try:
        loaded = load_scenario(path)
        result = resolve_scenario(loaded, seed=1)
    except DrdError as exc:
        assert exc.exit_code in (1, 2), exc.format()
        exc.format()
        return exc.exit_code
    result["digest"] = digest(result, loaded.raw)
    for fmt in ("json", "text", "md"):
        render_transcript(result, fmt)
    return 0


def _bad_cli(res) -> str | None:
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        return f"exception {type(res.exception).__name__}: {res.exception}"
    if res.exit_code not in (0, 1, 2):
        return f"exit {res.exit_code}"
    if "Traceback" in res.output or "vnitřní chyba" in res.output or "internal error" in res.output:
        return "internal error text"
    return None


@pytest.mark.parametrize("part", range(4))
def test_mutants_never_cause_an_internal_error(tmp_path, part):
    runner = CliRunner()
    texts = [p.read_text(encoding="utf-8") for p in SEEDS]
    failures: list[str] = []
    disagreements: list[str] = []
    for i in range(part, N, 4):
        rng = random.Random(i)
        k = rng.randrange(len(texts))
        data = mutate(texts[k], rng)
        path = tmp_path / f"m{i}.yaml"
        path.write_bytes(data)
        where = f"mutant {i} of {SEEDS[k].name}"
        try:
            api_exit = _api(str(path))
        except Exception as exc:  # noqa: BLE001 - that is the failure being looked for
            failures.append(f"{where}: API raised {type(exc).__name__}: {exc}")
            continue
        if i % CLI_EVERY == 0:
            r = runner.invoke(app, ["resolve", str(path), "--seed", "1", "--json"])
            c = runner.invoke(app, ["check", str(path)])
            for name, res in (("resolve", r), ("check", c)):
                bad = _bad_cli(res)
                if bad:
                    failures.append(f"{where}: drd {name}: {bad}\n{res.output[-400:]}")
            if r.exit_code != api_exit and _bad_cli(r) is None:
                failures.append(f"{where}: API exit {api_exit}, drd resolve exit {r.exit_code}")
            if b"exit:" not in data and (r.exit_code == 2) != (c.exit_code == 2):
                disagreements.append(f"{where}: resolve {r.exit_code}, check {c.exit_code}\n{c.output[-300:]}")
        path.unlink()
    assert not failures, "\n".join(failures[:10])
    assert not disagreements, "\n".join(disagreements[:10])


def test_the_mutator_makes_what_it_promises():
    """The fuzz test is only as good as its mutants: they include each kind of hostile text."""
    texts = [p.read_text(encoding="utf-8") for p in SEEDS]
    seen = b"".join(mutate(texts[i % len(texts)], random.Random(i)) for i in range(400))
    for needle in (b"\\ud800", "\u202e".encode(), b"\xed\xa0\x80", b"\xff", b"\x07", b"\x1b", "\u0301".encode(),
                   b"!!python", b"*nikdo"):
        assert needle in seen, needle
    assert len({mutate(texts[0], random.Random(i)) for i in range(50)}) > 40


GROUP_SEEDS = [
    "# Čtvrteční skupina\nname: Čtvrteční skupina\nextends: default\nenable: [rozsahla-protiakce]\ndisable: []\n"
    "# Remíza\nparams: {tie: counter}\n",
    "name: puristi\nenable: []\ndisable: [kruhovy-sek, dest-strel]\nparams:\n  target: 9  # cíl\n  presne: keep\n"
    "notes: >\n  jen základ\n",
    "name: b\nextends: zaklad\nplugin_dirs: [plug]\nparams: {sacrifice_gain: 2}\n",
]


def test_mutated_group_profiles_never_cause_an_internal_error(tmp_path, monkeypatch):
    """Group profiles (read by `drd rules --group`, edited by `drd rules set|enable … --group`,
    trusted by `drd group trust`) get the same mutations: exit 0, 1 or 2, never 3."""
    runner = CliRunner()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "groups").mkdir()
    (tmp_path / "plug").mkdir()
    (tmp_path / "groups" / "zaklad.yaml").write_text("name: zaklad\nparams: {tie: actor}\n", encoding="utf-8")
    failures = []
    commands = (["rules", "--group", "g"], ["rules", "set", "tie", "counter", "--group", "g"],
                ["rules", "enable", "plosna-protiakce", "--group", "g"], ["group", "trust", "g"],
                ["resolve", str(SEEDS[0]), "--group", "g", "--json"])
    for i in range(300):
        rng = random.Random(10_000 + i)
        data = mutate(rng.choice(GROUP_SEEDS), rng)
        path = tmp_path / "groups" / "g.yaml"
        args = commands[i % len(commands)]
        path.write_bytes(data)
        res = runner.invoke(app, args)
        bad = _bad_cli(res)
        if bad:
            failures.append(f"group mutant {i} ({' '.join(args)}): {bad}\n{res.output[-400:]}")
        elif args[1] in ("set", "enable") and res.exit_code != 0:
            assert path.read_bytes() == data, f"group mutant {i}: a refused edit changed the file"
    assert not failures, "\n".join(failures[:10])
