"""Nothing a user reads cites a file the user does not have (issue #12, item 7).

Messages, `--help`, log rule ids, the JSON Schema and the user docs send readers to
`docs/scenario-format.md` sections (that exist there) and to the rule ids of `docs/rules.md` —
never to the project's internal spec files (`SCENARIO-FORMAT §5`, `RULES.md`, `shared/…`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.citations import for_users, user_section
from drd_cli.cli.app import app
from tests.i18n.test_help_lang import COMMANDS, IDS

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = re.compile(r"SCENARIO[-_ ]FORMAT|RULES\.md|RULES §|shared/|/spec/")
# docs/spec-audit.md is the maintainers' audit of the engine, section by section; it cites the user
# docs too, but names test functions such as `test_SCENARIO_FORMAT_7_…`, so the scan skips it.
USER_DOCS = sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "spec-audit.md") + [ROOT / "README.md"]
HEADINGS = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
SECTIONS = set(re.findall(r"(?m)^#+ (\d+(?:\.\d+)*)\.? ", HEADINGS))
CITED = re.compile(r"docs/scenario-format\.md §(\d+(?:\.\d+)*)((?:(?:, | and |–)§\d+(?:\.\d+)*)*)")


def _cited_sections(text: str) -> set[str]:
    out = set()
    for m in CITED.finditer(text):
        out.add(m.group(1))
        out.update(re.findall(r"§(\d+(?:\.\d+)*)", m.group(2)))
    return out


def test_checkers_bite():
    assert FORBIDDEN.search("[SCENARIO-FORMAT §5]") and FORBIDDEN.search("see ../shared/spec/RULES.md")
    assert not FORBIDDEN.search("[docs/scenario-format.md §6] [CS-FOR-1]")
    assert _cited_sections("docs/scenario-format.md §5.2 and §6") == {"5.2", "6"}
    assert {"6", "8.1", "8.3", "5.7"} <= SECTIONS


def test_the_spec_sections_map_to_sections_the_user_docs_have():
    for spec in ("1", "2", "3", "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7", "5", "6", "7", "8"):
        cited = user_section(spec)
        assert _cited_sections(cited) <= SECTIONS, (spec, cited)
    assert for_users("[SCENARIO-FORMAT §5]") == "[docs/scenario-format.md §6]"


def _catalog_texts():
    from babel.messages.pofile import read_po

    for lang in ("cs", "en"):
        with open(ROOT / "drd_cli" / "locale" / lang / "LC_MESSAGES" / "drd.po", "rb") as fh:
            for m in read_po(fh):
                for text in (m.id if isinstance(m.id, tuple) else (m.id,)) + \
                        (m.string if isinstance(m.string, tuple) else (m.string,)):
                    if text:
                        yield lang, text


def test_no_message_cites_an_internal_file():
    bad = [(lang, text) for lang, text in _catalog_texts() if FORBIDDEN.search(text)]
    assert bad == []
    cited = set().union(*(_cited_sections(text) for _, text in _catalog_texts()))
    assert cited <= SECTIONS


def test_no_rule_id_in_the_code_cites_an_internal_file():
    pattern = re.compile(r"""(rule=|rec\.log\(|\.log\()\s*f?["'][^"']*(SCENARIO-FORMAT|RULES)""")
    bad = []
    for path in sorted((ROOT / "drd_cli").rglob("*.py")) + sorted((ROOT / "plugins").rglob("*.py")):
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                bad.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()}")
    assert bad == []


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_log_rule_ids_of_every_book_scenario(path):
    res = CliRunner().invoke(app, ["resolve", str(path), "--json"])
    if res.exit_code != 0:
        assert not FORBIDDEN.search(res.stderr)
        return
    result = json.loads(res.stdout)
    for step in result["steps"]:
        for entry in step["log"]:
            assert not FORBIDDEN.search(entry["rule"] + " " + entry["text"]), entry
            assert _cited_sections(entry["rule"]) <= SECTIONS
    transcript = CliRunner().invoke(app, ["resolve", str(path)], env={"NO_COLOR": "1"}).output
    # The file's notes (shown in the header) are its author's words: only they may cite the spec.
    assert len(FORBIDDEN.findall(transcript)) == len(FORBIDDEN.findall(result.get("notes") or ""))


@pytest.mark.parametrize("lang", ["cs", "en"])
@pytest.mark.parametrize("args", COMMANDS, ids=IDS)
def test_help_pages(args, lang):
    env = {"COLUMNS": "200", "NO_COLOR": "1", "LANG": "en_US.UTF-8" if lang == "en" else "cs_CZ.UTF-8"}
    res = CliRunner().invoke(app, [*args, "--help"], env=env)
    assert res.exit_code == 0, res.output
    assert not FORBIDDEN.search(res.output)
    assert _cited_sections(res.output) <= SECTIONS


def test_the_json_schema():
    res = CliRunner().invoke(app, ["schema"])
    assert res.exit_code == 0
    assert not FORBIDDEN.search(res.stdout)


@pytest.mark.parametrize("path", USER_DOCS, ids=lambda p: p.name)
def test_user_docs(path):
    text = path.read_text(encoding="utf-8")
    bad = [line for line in text.splitlines() if FORBIDDEN.search(line)]
    assert bad == []
    assert _cited_sections(text) <= SECTIONS


def test_every_rule_id_the_code_cites_is_explained_in_docs_rules():
    """An id a message or log line may carry (`rule="CS-FOR-1"`, `rec.log("R-ORDER", …)`) has its
    family in the table "What the rule ids mean" of docs/rules.md (Dakara's SK ids in docs/dakara.md)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    glossary = text[text.index("## What the rule ids mean"):text.index("## Where each rule")]
    ids = set()
    for path in sorted((ROOT / "drd_cli").rglob("*.py")) + sorted((ROOT / "plugins").rglob("*.py")):
        ids.update(re.findall(r"""["']((?:R|CS|SK)-[A-Z]+(?:-[A-Z0-9]+)*)["']""", path.read_text(encoding="utf-8")))
    assert len(ids) > 30
    missing = []
    for rid in sorted(ids):
        family = re.sub(r"-\d+$", "", rid)
        if rid.startswith("SK-"):
            family = "SK-"
        if family not in glossary:
            missing.append(rid)
    assert missing == []
