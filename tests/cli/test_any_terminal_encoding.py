"""Issue #13, item 4: any terminal encoding works, and a lone surrogate never becomes an internal error.

* stdout/stderr in ASCII, Latin-1 or a POSIX locale without UTF-8: characters the encoding lacks
  are replaced by their plain letter (`ř` → `r`, `→` → `->`) or `?`, exit 0, and messages never
  come out as `\\u0159` escapes;
* a lone surrogate (`"\\ud800"` in a double-quoted YAML string) never reaches exit 3: the digest
  and every writer cope with it, and `drd check` and `drd resolve` agree on whether the file is
  valid (the loader refusing it at file:line:col, exit 2, is tests/scenario/test_load.py's business).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli._common import REPLACE_ERRORS, prepare_streams
from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
HANUS = ROOT / "scenarios" / "hanus-utek.yaml"
EXE = os.path.join(os.path.dirname(sys.executable), "drd")
needs_exe = pytest.mark.skipif(not os.path.exists(EXE), reason="console script not installed")

ENCODINGS = {
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "latin-1": {"PYTHONIOENCODING": "latin-1"},
    "posix": {"LANG": "C", "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONUTF8": "0"},
}


def _env(extra: dict) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONIOENCODING", "LC_ALL", "LANGUAGE")}
    env.update({"LANG": "C.UTF-8", "COLUMNS": "100"}, **extra)
    return env


def _codec(name: str) -> str:
    return "ascii" if name == "posix" else name


def test_the_replacement_keeps_czech_readable():
    prepare_streams()          # registers the error handler
    assert "Ohrožení → Tělo „x“ … \ud800".encode("ascii", REPLACE_ERRORS) == b'Ohrozeni -> Telo "x" ... ?'
    assert "Hanuš prchá".encode("latin-1", REPLACE_ERRORS) == "Hanus prchá".encode("latin-1")
    assert "a\udfffb".encode("utf-8", REPLACE_ERRORS) == b"a?b"


@needs_exe
@pytest.mark.parametrize("name", sorted(ENCODINGS))
@pytest.mark.parametrize("args", [["resolve", str(HANUS)], ["resolve", str(HANUS), "--json"],
                                  ["check", str(HANUS)], ["odds", "test", "--bonus", "3"], ["resolve", "--help"]])
def test_any_stdout_encoding_prints_and_exits_0(name, args):
    proc = subprocess.run([EXE, *args], capture_output=True, env=_env(ENCODINGS[name]), timeout=60)
    assert proc.returncode == 0, (proc.returncode, proc.stderr)
    text = proc.stdout.decode(_codec(name))            # every byte is of that encoding
    assert "\\u" not in text and "\\x" not in text
    assert "Traceback" not in proc.stderr.decode(_codec(name), "replace")


@needs_exe
@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_the_transcript_is_readable_in_ascii_or_latin_1(name):
    proc = subprocess.run([EXE, "resolve", str(HANUS), "--seed", "7"], capture_output=True,
                          env=_env(ENCODINGS[name]), timeout=60)
    text = proc.stdout.decode(_codec(name))
    assert "Mistr Hanus" in text and "\\u" not in text


@needs_exe
@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_error_messages_are_words_not_escapes(name, tmp_path):
    bad = tmp_path / "zlý.yaml"
    bad.write_text("format: drd/1\nparticipants: {}\nrounds: []\nneznámý: 1\n", encoding="utf-8")
    for args in ([str(tmp_path / "chybí.yaml")], [str(bad)]):
        proc = subprocess.run([EXE, "resolve", *args], capture_output=True, env=_env(ENCODINGS[name]), timeout=60)
        assert proc.returncode == 2, proc.stderr
        err = proc.stderr.decode(_codec(name))
        assert "\\u" not in err and "\\x" not in err and "Traceback" not in err
        assert "vnit" not in err                      # not an internal error (vnitřní chyba)
    proc = subprocess.run([EXE, "resolve", str(tmp_path / "chybí.yaml")], capture_output=True,
                          env=_env(ENCODINGS[name]), timeout=60)
    assert "soubor neexistuje" in proc.stderr.decode(_codec(name))


# --------------------------------------------------------------------------- lone surrogates

def _surrogate_scenario(tmp_path: Path) -> Path:
    text = HANUS.read_text(encoding="utf-8")
    text = text.replace("title: Mistr Hanuš prchá zlobrům", 'title: "Mistr \\ud800 Hanuš"', 1)
    text = text.replace("name: Mistr Hanuš", 'name: "Mistr \\udfff"', 1)
    assert "\\ud800" in text and "\\udfff" in text
    path = tmp_path / "surrogat.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_digest_of_a_lone_surrogate_is_a_hash_not_a_crash():
    from drd_cli.digest import digest

    a = digest({"rules": {}}, {"title": "\ud800"})
    assert a.startswith("sha256:") and a != digest({"rules": {}}, {"title": "\udfff"})
    assert a == digest({"rules": {}}, {"title": "\ud800"})


def test_library_api_with_a_lone_surrogate_is_a_result_or_exit_2(tmp_path):
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.digest import digest
    from drd_cli.errors import DrdError
    from drd_cli.render.jsonout import dumps

    path = _surrogate_scenario(tmp_path)
    try:
        loaded = load_scenario(str(path))
        result = resolve_scenario(loaded, seed=3)
    except DrdError as exc:
        assert exc.exit_code == 2 and "surrogat.yaml:" in exc.format()
        return
    assert digest(result, loaded.raw).startswith("sha256:")
    dumps(result).encode("utf-8", REPLACE_ERRORS)


@pytest.mark.parametrize("extra", [[], ["--json"], ["--format", "md"], ["--format", "html"], ["-o", "{out}.txt"],
                                   ["--json", "-o", "{out}.json"], ["-o", "{out}.html"]])
def test_check_and_resolve_agree_on_a_lone_surrogate(tmp_path, extra):
    path = _surrogate_scenario(tmp_path)
    runner = CliRunner()
    args = [a.format(out=tmp_path / "vystup") for a in extra]
    resolved = runner.invoke(app, ["resolve", str(path), "--seed", "3", *args])
    checked = runner.invoke(app, ["check", str(path)])
    assert resolved.exit_code in (0, 2), resolved.output
    assert checked.exit_code in (0, 2), checked.output
    assert (resolved.exit_code == 0) == (checked.exit_code == 0), (resolved.output, checked.output)
    assert "Traceback" not in resolved.output and "vnitřní chyba" not in resolved.output


def test_check_finds_what_only_resolving_finds(tmp_path):
    """A hero's roll left to the dice without `bonus_from` (R-ROLL-1) is found while resolving:
    `drd check` of a file without `expect:` says invalid (exit 2) like `drd resolve`, not "ok"."""
    text = (ROOT / "scenarios" / "bazimir-rvacka-jeden.yaml").read_text(encoding="utf-8")
    text = text.split("\nexpect:")[0].replace("          roll: 10\n", "")
    path = tmp_path / "bez-bonusu.yaml"
    path.write_text(text, encoding="utf-8")
    runner = CliRunner()
    resolved = runner.invoke(app, ["resolve", str(path), "--seed", "1"])
    checked = runner.invoke(app, ["check", str(path)])
    assert resolved.exit_code == checked.exit_code == 2, (resolved.output, checked.output)
    assert "[R-ROLL-1]" in checked.stdout and "bonus_from" in checked.stdout


@needs_exe
def test_a_lone_surrogate_on_a_real_terminal_stream_is_not_exit_3(tmp_path):
    path = _surrogate_scenario(tmp_path)
    for args in ([], ["--json"]):
        proc = subprocess.run([EXE, "resolve", str(path), "--seed", "3", *args], capture_output=True,
                              env=_env({}), timeout=60)
        assert proc.returncode in (0, 2), proc.stderr.decode("utf-8", "replace")
        proc.stdout.decode("utf-8")                    # valid UTF-8: the surrogate became "?"


# --------------------------------------------------------------------------- invariants

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)


def _encodable(ch: str, encoding: str) -> bool:
    try:
        ch.encode(encoding)
        return True
    except UnicodeEncodeError:
        return False


@settings(max_examples=300, deadline=None)
@given(text=ANY_TEXT, encoding=st.sampled_from(["ascii", "latin-1", "cp1250", "utf-8", "iso8859-2"]))
def test_every_text_encodes_in_every_encoding(text, encoding):
    """Whatever a scenario holds, a drd stream can write it: never an error; text the encoding can
    hold comes out unchanged, and each character it cannot hold becomes something it can."""
    prepare_streams()
    out = text.encode(encoding, REPLACE_ERRORS).decode(encoding)
    if all(_encodable(c, encoding) for c in text):
        assert out == text
    else:
        assert len(out) >= sum(_encodable(c, encoding) for c in text)
        for ch in text:
            if not _encodable(ch, encoding):
                assert ch not in out


@settings(max_examples=100, deadline=None)
@given(text=ANY_TEXT)
def test_every_text_saves_and_reads_back(tmp_path_factory, text):
    """A saved output is valid UTF-8 and holds the text as given (a lone surrogate as "?")."""
    from drd_cli.cli._common import no_surrogates
    from drd_cli.safefiles import replace_atomically

    path = tmp_path_factory.mktemp("w") / "out.txt"
    replace_atomically(str(path), text)
    assert path.read_bytes().decode("utf-8") == no_surrogates(text)
