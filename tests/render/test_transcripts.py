"""Transcripts people keep: --lang, --format text|md|html, the footer hash, --verify, colour rules.

The rendering tests use a fake result dict (test_render.HANUS); the CLI tests resolve the book's
Hanuš escape (scenarios/hanus-utek.yaml: R-CONT, R-ORDER, CS-MULTI-4, R-EXH-2, R-EXH-4).
"""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli import i18n
from drd_cli.cli.app import app
from drd_cli.digest import digest, find_digest, find_seed
from drd_cli.render.html import render_html
from drd_cli.render.md import escape as md_escape, render_markdown
from drd_cli.render.terminal import render_text

from tests.render.test_render import HANUS

ROOT = Path(__file__).resolve().parents[2]
HANUS_FILE = str(ROOT / "scenarios" / "hanus-utek.yaml")
DIGEST = "sha256:" + "ab" * 32
runner = CliRunner()


def with_digest(result: dict = HANUS) -> dict:
    out = copy.deepcopy(result)
    out["digest"] = DIGEST
    return out


# --------------------------------------------------------------------------- same facts in every format

FACTS = ["Mistr Hanuš prchá zlobrům", "semínko 7", "NEÚSPĚCH", "ÚSPĚCH", "Ohrožení", "3→4", "4→5", "Pád z výšky",
         "obětuje hůl (+1)", "R-ORDER", "CS-SEQ-1", "Pořadí hodů: 13, 10, 7", "Tělo 0, Duše 9, Vliv 5",
         "Sudba 12", "omráčen (ještě 2 kola)", "náhodně (semínko)", "přesně zdarma (luk)", "stary → hanus → mladsi",
         "Krok utek · kolo 1 · střet", "Stav na konci", "Vyčerpání"]


def _plain_html(page: str) -> str:
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", page))


def _plain_md(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text).replace("**", "").replace("`", "")


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_every_format_shows_the_same_facts(fmt):
    result = with_digest()
    out = {"text": lambda: render_text(result, width=200), "md": lambda: _plain_md(render_markdown(result)),
           "html": lambda: _plain_html(render_html(result))}[fmt]()
    for fact in FACTS:
        assert fact in out, (fmt, fact)
    assert DIGEST in out.strip().splitlines()[-1]          # the footer is the last line


def test_markdown_layout_headings_tables_verdicts():
    md = render_markdown(with_digest())
    lines = md.splitlines()
    assert lines[0] == "# Mistr Hanuš prchá zlobrům"
    assert "## Krok utek · kolo 1 · střet" in lines and "## Stav na konci" in lines
    assert "| Hod | Celkem | Kostky | Bonus | Zdroj |" in lines                     # rolls table
    assert any(line.startswith("| Kdo | Proti | Cena | Ohrožení |") for line in lines)  # exhaustions table
    assert "| **hanus** | stary | 3 Tělo | 3→4 | hanus | – | *Jizva „Pád z výšky“ (+3)* |" in lines
    assert "- **hanus**: **NEÚSPĚCH**" in lines
    assert lines[-1] == f"`drd 0.1.0 · {DIGEST} · semínko 7`"


def test_markdown_escapes_names_from_the_scenario():
    result = {"title": "# *Hrun* | <b>", "steps": [{"id": "a|b", "round": 1, "kind": "test",
                                                   "rolls": {"x|y": {"total": 9, "source": "given"}},
                                                   "log": [{"rule": "R-TEST", "text": "_tučně_ [odkaz](x)"}]}]}
    md = render_markdown(result)
    assert md.splitlines()[0] == r"# \# \*Hrun\* \| \<b>"
    assert r"| x\|y | **9** |" in md
    assert r"\_tučně\_ \[odkaz\](x)" in md
    assert md_escape("- item") == r"\- item" and md_escape("a\nb") == "a b"


class _Checker(HTMLParser):
    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


def test_html_is_one_wellformed_page_without_scripts():
    page = render_html(with_digest())
    checker = _Checker()
    checker.feed(page)
    assert checker.errors == [] and checker.stack == []
    assert page.startswith("<!DOCTYPE html>") and '<html lang="cs">' in page and "<style>" in page
    assert "script" not in checker.tags and "link" not in checker.tags        # self-contained, no JS
    assert "@media print" in page
    assert '<span class="bad">NEÚSPĚCH</span>' in page and '<span class="ok">ÚSPĚCH</span>' in page
    assert f"<footer>drd 0.1.0 · {DIGEST} · semínko 7</footer>" in page


def test_html_escapes_everything_from_the_scenario():
    result = {"title": "<script>alert(1)</script>", "steps": [{"id": "x", "round": 1, "kind": "test",
                                                                "log": [{"rule": "R\"", "text": "<img src=x>"}]}]}
    page = render_html(result)
    assert "<script>" not in page and "<img" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x&gt;" in page


def test_english_transcript_keeps_book_terms_with_a_glossary():
    with i18n.using("en"):
        out = render_text(with_digest(), width=200)
        page = render_html(with_digest())
    assert "Step utek · round 1 · contest" in out
    assert "hanus: FAILURE" in out and "stary: SUCCESS; hit: hanus" in out
    assert "hanus exhausts against stary: 3 Tělo, Ohrožení 3→4; Jizva “Pád z výšky” (+3)" in out
    assert "Terms as in the book: Tělo = body" in out
    assert "omráčen (2 more rounds)" in out and "State at the end" in out
    assert "NEÚSPĚCH" not in out and "Krok" not in out
    assert '<html lang="en">' in page


def test_czech_transcript_has_no_glossary_line():
    assert "Terms as in the book" not in render_text(HANUS) and "Pojmy podle knihy" not in render_text(HANUS)


def test_no_footer_without_a_digest():
    assert "sha256:" not in render_text(HANUS) and "sha256:" not in render_markdown(HANUS)


# --------------------------------------------------------------------------- the digest

def _open_die_file(tmp_path) -> str:
    """hanus-utek with the youngest ogre's roll left open, so the seed decides a die (with every
    roll given the result has `seed: null`, SCENARIO-FORMAT §7)."""
    text = Path(HANUS_FILE).read_text(encoding="utf-8")
    path = tmp_path / "hanus-open.yaml"
    path.write_text(text.replace("roll: 7, effect: {jizva: Zasažen lavicí}", "effect: {jizva: Zasažen lavicí}"),
                    encoding="utf-8")
    return str(path)


def _resolved(seed=7, **kwargs):
    from drd_cli.api import load_scenario, resolve_scenario

    loaded = load_scenario(kwargs.pop("path", HANUS_FILE))
    result = resolve_scenario(loaded, seed=seed, **kwargs)
    return result, loaded


def test_digest_is_sha256_and_stable_across_runs_and_languages():
    r1, l1 = _resolved()
    with i18n.using("en"):
        r2, l2 = _resolved()
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", digest(r1, l1.raw))
    assert digest(r1, l1.raw) == digest(r2, l2.raw)


def test_digest_changes_with_seed_die_rule_param_and_scenario(tmp_path):
    result, loaded = _resolved()
    base = digest(result, loaded.raw)
    assert result["seed"] is None and digest(_resolved(seed=8)[0], loaded.raw) == base   # no open die
    open_file = _open_die_file(tmp_path)
    seeded, open_loaded = _resolved(path=open_file)
    other_seed, _ = _resolved(seed=8, path=open_file)
    assert digest(other_seed, open_loaded.raw) != digest(seeded, open_loaded.raw)   # the seed
    changed = copy.deepcopy(result)
    first = changed["steps"][0]["rolls"]["hanus"]
    first["dice"] = [6, 6]                                               # one die
    assert digest(changed, loaded.raw) != base
    changed = copy.deepcopy(result)
    changed["steps"][0]["rolls"]["mladsi"]["source"] = "entered"         # where a roll came from
    assert digest(changed, loaded.raw) != base
    tie, _ = _resolved(params={"tie": "counter"})                        # a rule parameter (R-CONT tie)
    assert digest(tie, loaded.raw) != base
    raw = copy.deepcopy(dict(loaded.raw))
    raw["participants"]["hanus"]["ohrozeni"] = 2                         # a value in the scenario
    assert digest(result, raw) != base


def test_digest_ignores_formatting_comments_and_expect(tmp_path):
    text = Path(HANUS_FILE).read_text(encoding="utf-8")
    reformatted = "# a comment the group added\n" + text.replace("expect:", "expect:  # checked by drd check")
    path = tmp_path / "h.yaml"
    path.write_text(reformatted, encoding="utf-8")
    a, la = _resolved()
    b, lb = _resolved(path=str(path))
    assert digest(a, la.raw) == digest(b, lb.raw)
    no_expect = dict(lb.raw)
    no_expect.pop("expect", None)
    assert digest(b, no_expect) == digest(a, la.raw)


def test_find_digest_and_seed_in_any_format():
    result = with_digest()
    for text in (render_text(result), render_markdown(result), render_html(result)):
        assert find_digest(text) == DIGEST and find_seed(text) == 7
    assert find_seed(json.dumps(result)) == 7
    assert find_digest("no hash here") is None
    with i18n.using("en"):     # the footer's word follows the language; both are read
        english = render_text(result)
    assert "· seed 7" in english and find_seed(english) == 7


# --------------------------------------------------------------------------- the command line

def run(*args, **env):
    return runner.invoke(app, list(args), env=env or None)


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_cli_digest_same_in_every_format_and_language(tmp_path, fmt):
    res = run("resolve", HANUS_FILE, "--seed", "7", "--json")
    assert res.exit_code == 0, res.stderr
    expected = json.loads(res.stdout)["digest"]
    for lang in ("cs", "en"):
        out = tmp_path / f"t-{lang}.{ {'text': 'txt'}.get(fmt, fmt) }"
        res = run("resolve", HANUS_FILE, "--seed", "7", "--lang", lang, "-o", str(out))
        assert res.exit_code == 0, res.stderr
        assert find_digest(out.read_text(encoding="utf-8")) == expected


def test_cli_format_from_extension_and_explicit_wins(tmp_path):
    md, html, txt, forced = (tmp_path / n for n in ("a.md", "a.html", "a.txt", "b.md"))
    for path in (md, html, txt):
        assert run("resolve", HANUS_FILE, "-o", str(path)).exit_code == 0
    assert md.read_text(encoding="utf-8").startswith("# Mistr Hanuš prchá zlobrům")
    assert html.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert txt.read_text(encoding="utf-8").startswith("Mistr Hanuš prchá zlobrům")
    assert run("resolve", HANUS_FILE, "-o", str(forced), "--format", "html").exit_code == 0
    assert forced.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    res = run("resolve", HANUS_FILE, "--format", "md")                   # to stdout
    assert res.exit_code == 0 and res.stdout.startswith("# Mistr Hanuš")


def test_cli_json_and_md_exclude_each_other():
    res = run("resolve", HANUS_FILE, "--json", "--format", "md")
    assert res.exit_code == 2 and "se navzájem vylučují" in res.stderr


def test_cli_lang_option_and_environment():
    en = run("resolve", HANUS_FILE, "--lang", "en")
    assert en.exit_code == 0 and "útěk · round 1 · contest" in en.stdout
    env_en = run("resolve", HANUS_FILE, LANG="en_US.UTF-8")
    assert "útěk · round 1" in env_en.stdout
    env_c = run("resolve", HANUS_FILE, LANG="C")
    assert "útěk · kolo 1" in env_c.stdout
    forced_cs = run("resolve", HANUS_FILE, "--lang", "cs", LANG="en_US.UTF-8")
    assert "útěk · kolo 1" in forced_cs.stdout
    assert run("resolve", HANUS_FILE, "--lang", "de").exit_code == 2


def test_cli_verify_hash_and_transcript_file(tmp_path):
    shared = tmp_path / "session.md"
    open_file = _open_die_file(tmp_path)
    assert run("resolve", open_file, "--seed", "11", "-o", str(shared), "--lang", "en").exit_code == 0
    ok = run("resolve", open_file, "--verify", str(shared))       # takes seed 11 from the footer
    assert ok.exit_code == 0, ok.stderr
    assert "ok:" in ok.stdout and "semínko 11" in ok.stdout
    digest_value = find_digest(shared.read_text(encoding="utf-8"))
    assert run("resolve", open_file, "--seed", "11", "--verify", digest_value).exit_code == 0
    bad = run("resolve", open_file, "--verify", str(shared), "--set", "tie=counter")
    assert bad.exit_code == 1 and "NESHODA" in bad.stderr          # Czech by default
    assert run("resolve", open_file, "--seed", "12", "--verify", digest_value).exit_code == 1
    assert run("resolve", HANUS_FILE, "--verify", "nonsense").exit_code == 2


def test_every_roll_given_means_seed_null_and_one_digest_every_run(tmp_path):
    first = run("resolve", HANUS_FILE, "--json")
    second = run("resolve", HANUS_FILE, "--json", "--seed", "99")
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert a["seed"] is None and b["seed"] is None
    assert a == b


# --------------------------------------------------------------------------- colour: NO_COLOR, not a terminal

class FakeTTY:
    def __init__(self):
        import io

        self.buffer = io.StringIO()

    def write(self, text):
        return self.buffer.write(text)

    def flush(self):
        pass

    def isatty(self):
        return True


def _console_output(monkeypatch, *, tty: bool, no_color: str | None) -> str:
    import io

    from drd_cli.cli._common import make_console
    from drd_cli.render.terminal import render

    stream = FakeTTY() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stdout", stream)
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    if no_color is not None:
        monkeypatch.setenv("NO_COLOR", no_color)
    render(with_digest(), make_console())
    return stream.buffer.getvalue() if tty else stream.getvalue()


def test_terminal_gets_colour(monkeypatch):
    assert "\x1b[" in _console_output(monkeypatch, tty=True, no_color=None)


@pytest.mark.parametrize("value", ["1", "yes", "0"])
def test_no_color_any_nonempty_value(monkeypatch, value):
    out = _console_output(monkeypatch, tty=True, no_color=value)
    assert "\x1b[" not in out and "NEÚSPĚCH" in out


def test_empty_no_color_is_ignored(monkeypatch):
    assert "\x1b[" in _console_output(monkeypatch, tty=True, no_color="")


def test_not_a_terminal_no_colour(monkeypatch):
    out = _console_output(monkeypatch, tty=False, no_color=None)
    assert "\x1b[" not in out and "ÚSPĚCH" in out and DIGEST in out


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
@pytest.mark.parametrize("no_color,coloured", [(None, True), ("1", False)])
def test_real_terminal(no_color, coloured, drd_script):
    """drd in a real pseudo-terminal: colour unless NO_COLOR; a pipe never gets colour."""
    import pty  # noqa: F401 - only to be sure the platform has ptys

    exe = drd_script
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(TERM="xterm-256color", COLUMNS="100", LANG="C.UTF-8")
    if no_color:
        env["NO_COLOR"] = no_color
    master, slave = os.openpty()
    proc = subprocess.Popen([exe, "resolve", HANUS_FILE, "--seed", "7"], stdout=slave, stderr=slave,
                            stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=60)
    os.close(master)
    out = b"".join(chunks).decode("utf-8", "replace")
    assert proc.returncode == 0, out
    assert ("\x1b[" in out) is coloured
    assert "NEÚSPĚCH" in out and "sha256:" in out
    piped = subprocess.run([exe, "resolve", HANUS_FILE, "--seed", "7"], capture_output=True, text=True, env=env,
                           timeout=60)
    assert "\x1b[" not in piped.stdout


# --------------------------------------------------------------------------- shell completion

def test_show_completion_script_for_bash(drd_script):
    exe = drd_script
    # The documented, detection-free form: `--show-completion` asks shellingham which shell is the
    # parent process, which depends on how pytest was started (an IDE, a CI runner, a sandbox).
    env = dict(os.environ, SHELL="/bin/bash", _DRD_COMPLETE="source_bash")
    proc = subprocess.run([exe], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "_DRD_COMPLETE" in proc.stdout and "complete" in proc.stdout


@pytest.mark.parametrize("words,cword,expect", [
    ("drd resolve x --lang ", 4, {"cs", "en"}),
    ("drd resolve x --format ", 4, {"text", "md", "html"}),
    ("drd resolve x --ver", 3, {"--verify"}),
])
def test_completion_of_new_options_is_light(words, cword, expect):
    from tests.cli.test_startup import heavy_in, probe

    code, modules, out = probe([], _DRD_COMPLETE="complete_bash", COMP_WORDS=words, COMP_CWORD=str(cword))
    assert expect <= set(out.split())
    assert heavy_in(modules) == set()
    assert "drd_cli.i18n" not in modules          # no catalog work for a TAB


def test_version_loads_no_catalog():
    from tests.cli.test_startup import probe

    code, modules, out = probe(["--version"])
    assert code == 0 and "drd_cli.i18n" not in modules
