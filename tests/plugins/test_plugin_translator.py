"""A third-party plugin's own messages follow `--lang` (`drd_cli.plugin.translator`, issue #10).

The plugin is written to a temporary local plugin folder with its own catalog,
`locale/cs/LC_MESSAGES/drd_hlas.mo`, compiled from a .po in the test with Babel. It explains in
the transcript why Ulrich's přesně is not free (R-MAN-2: a `drd_free_manoeuvre` answer with a note).
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.cli.plugins_cmd import PLUGINS_DIR_ENV

babel = pytest.importorskip("babel")

PLUGIN = '''
from drd_cli.plugin import hookimpl, translator

_, ngettext = translator("drd_hlas", __file__)


@hookimpl
def drd_plugin_info():
    return {"title": "Hlas", "kind": "house rule"}


@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre, params):
    if manoeuvre != "presne":
        return None
    rounds = len(participant.name)
    return {"free": False, "note": _("{name} is too tired for a free manoeuvre").format(name=participant.name)
            + " (" + ngettext("{n} round to rest", "{n} rounds to rest", rounds).format(n=rounds) + ")"}
'''

PO_CS = r'''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Language: cs\n"
"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\n"

msgid "{name} is too tired for a free manoeuvre"
msgstr "{name} je na manévr zdarma příliš unavený"

msgid "{n} round to rest"
msgid_plural "{n} rounds to rest"
msgstr[0] "{n} kolo odpočinku"
msgstr[1] "{n} kola odpočinku"
msgstr[2] "{n} kol odpočinku"
'''

SCENARIO = """\
format: drd/1
participants:
  ulrich: {name: Ulrich, pools: {telo: 5, duse: 3, vliv: 3}, levels: {bojovnik: 2}}
rounds:
  - steps:
      - {id: t, test: {actor: ulrich, pool: telo, manoeuvres: [presne], roll: 9}}
"""


def compile_catalog(po_text: str, mo_path: Path) -> None:
    from io import BytesIO

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(BytesIO(textwrap.dedent(po_text).encode("utf-8")), locale="cs")
    mo_path.parent.mkdir(parents=True, exist_ok=True)
    with open(mo_path, "wb") as fh:
        write_mo(fh, catalog)


@pytest.fixture
def folder(tmp_path, monkeypatch) -> Path:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "hlas.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    compile_catalog(PO_CS, plugins / "locale" / "cs" / "LC_MESSAGES" / "drd_hlas.mo")
    monkeypatch.setenv(PLUGINS_DIR_ENV, str(plugins))
    (tmp_path / "s.yaml").write_text(SCENARIO, encoding="utf-8")
    return tmp_path


def notes(folder: Path, lang: str) -> list[str]:
    r = CliRunner().invoke(app, ["resolve", str(folder / "s.yaml"), "--json", "--lang", lang])
    assert r.exit_code == 0, r.output
    return [e["text"] for e in json.loads(r.stdout)["steps"][0]["log"] if "Ulrich" in e["text"]]


def test_the_plugin_speaks_czech_under_lang_cs_and_english_under_lang_en(folder):
    assert "Ulrich je na manévr zdarma příliš unavený (6 kol odpočinku)" in notes(folder, "cs")
    # no English catalog: the msgid is the English text
    assert "Ulrich is too tired for a free manoeuvre (6 rounds to rest)" in notes(folder, "en")
    # and back: the language is looked up at each call, not fixed when the plugin was imported
    assert "Ulrich je na manévr zdarma příliš unavený (6 kol odpočinku)" in notes(folder, "cs")


def test_the_czech_transcript_shows_the_plugins_words(folder):
    r = CliRunner().invoke(app, ["resolve", str(folder / "s.yaml"), "--lang", "cs"], env={"NO_COLOR": "1"})
    assert r.exit_code == 0, r.output
    assert "Ulrich je na manévr zdarma příliš unavený" in r.stdout and "too tired" not in r.stdout


def test_translator_plural_forms_and_fallbacks(tmp_path):
    from drd_cli import i18n
    from drd_cli.plugin import translator

    compile_catalog(PO_CS, tmp_path / "locale" / "cs" / "LC_MESSAGES" / "muj.mo")
    (tmp_path / "muj.py").write_text("", encoding="utf-8")
    _, ngettext = translator("muj", tmp_path / "muj.py")      # a file in the folder, as __file__
    with i18n.using("cs"):
        assert [ngettext("{n} round to rest", "{n} rounds to rest", n).format(n=n) for n in (1, 3, 5)] == [
            "1 kolo odpočinku", "3 kola odpočinku", "5 kol odpočinku"]
        assert _("not in the catalog") == "not in the catalog"
    with i18n.using("en"):
        assert ngettext("{n} round to rest", "{n} rounds to rest", 1).format(n=1) == "1 round to rest"
        assert _("{name} is too tired for a free manoeuvre") == "{name} is too tired for a free manoeuvre"
    # without a domain: drd's own catalog (what the built-in plugins use)
    own, _n = translator()
    with i18n.using("cs"):
        assert own("on") == "zapnuto"
