"""Error messages follow the language (issue #6, docs/i18n.md): Czech by default, English with --lang en.

One representative error per module — the YAML loader, validation (unknown key with "did you
mean"), the engine (contest R-CONT, initiative R-RND-1), a group profile, a disabled plugin
(CS-FOL-1), the built-in plugins ukryvani (CS-HIDE-2, R-RND-1 with its hint) and plosna-protiakce
(CS-OPT-AREA) — is run through `drd resolve` in both languages. The location (file:line:col), the
rule id and the exit code must be the same; the Czech text must not contain English sentences and
the English text no Czech words (names from the scenario and quoted values are taken out first).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drd_cli.cli.app import app

ROOT = Path(__file__).resolve().parents[2]
UTEK = (ROOT / "scenarios" / "hanus-utek.yaml").read_text(encoding="utf-8")
STODOLA = (ROOT / "scenarios" / "horici-stodola.yaml").read_text(encoding="utf-8")
KUCHYNE = (ROOT / "scenarios" / "zlatka-kuchyne-dva-hledaji.yaml").read_text(encoding="utf-8")
MOST = (ROOT / "scenarios" / "hrun-provazovy-most.yaml").read_text(encoding="utf-8")
ZAVES = str(ROOT / "scenarios" / "zlatka-zaves-komori-uz-hral.yaml")

LINE = re.compile(r"^(?P<loc>\S+?(?::\d+:\d+)?): (?P<msg>.*?)(?: \[(?P<rule>[^\]]+)\])?$")
ENGLISH = re.compile(r"\b(the|cannot|must|is|are|needs|not|already|acts|this|which|did you mean|unknown|"
                     r"missing|expected|invalid|found)\b", re.I)
CZECH = re.compile(r"\b(je|není|nebo|musí|nelze|neznámý|neznámé|chybí|vyžaduje|který|která|už|nemysleli|"
                   r"soubor|jedná|kolo|neplatný|klíč|odložené)\b", re.I)
# Scenario names, quoted values and `code` are the user's words, not ours: taken out before checking.
NAMES = re.compile(r"'[^']*'|`[^`]*`|„[^“]*“|Mistr Hanuš|Nejstarší zlobr|Prostřední zlobr|Nejmladší zlobr|"
                   r"Špiónka Zlatka|Komoří|Kultista s lukem")


def _cases(tmp: Path) -> dict[str, tuple[list[str], int]]:
    def write(name: str, text: str) -> str:
        path = tmp / name
        path.write_text(text, encoding="utf-8")
        return str(path)

    groups = tmp / "groups"
    groups.mkdir()
    (groups / "nase.yaml").write_text("name: nase\nenable: [rozsahla-protiakcee]\n", encoding="utf-8")
    return {
        # scenario/load.py: YAML syntax
        "yaml": (["resolve", write("yaml.yaml", "format: drd/1\ntitle: [Útěk, zlobři\n")], 2),
        "duplicate": (["resolve", write("dup.yaml", "format: drd/1\ntitle: Útěk\ntitle: Útěk zase\n")], 2),
        # scenario/validate.py: unknown key with "did you mean"
        "key": (["resolve", write("key.yaml", UTEK.replace("title:", "titel:", 1))], 2),
        # engine/contest.py: one participant counters twice (R-CONT)
        "contest": (["resolve", write("contest.yaml", UTEK.replace("{actor: mladsi, kind: harm",
                                                                   "{actor: stary, kind: harm"))], 1),
        # engine/initiative.py: a delay the round does not declare (R-RND-1)
        "initiative": (["resolve", write("delay.yaml", UTEK.replace("{actor: hanus, label: útěk,",
                                                                    "{actor: hanus, from: delayed, label: útěk,"))],
                       1),
        # rules.py via a group profile: unknown rule id, at its line in the group file
        "group": (["resolve", write("group.yaml", UTEK), "--group", str(groups / "nase.yaml")], 2),
        # engine/hooks.py: a follow-up needs the plugin prostredi, switched off (CS-FOL-1)
        "plugin": (["resolve", write("fol.yaml", STODOLA.replace("            threatens: [jarik, borri, zira]\n", "")),
                    "--disable", "prostredi"], 1),
        # plugins/drd_plugins/ukryvani.py: three totals of the hidden for two searchers (CS-HIDE-2)
        "hide": (["resolve", write("hide.yaml", KUCHYNE.replace("rolls: {zlatka: [11, 8]",
                                                                "rolls: {zlatka: [11, 8, 7]"))], 1),
        # ukryvani: a deceived whose initiative action is spent cannot counter (R-RND-1), with a hint
        "hide-spent": (["resolve", ZAVES], 1),
        # plugins/drd_plugins/plosna_protiakce.py: an answer to a side not listed before it (CS-OPT-AREA)
        "area": (["resolve", write("area.yaml", MOST.replace("{actor: strelec, answers: hrun",
                                                             "{actor: strelec, answers: skokan"))], 1),
    }


def _run(args: list[str], lang: str):
    return CliRunner().invoke(app, [*args, "--lang", lang])


def _text(line: str) -> str:
    return NAMES.sub("", line)


@pytest.mark.parametrize("case", ["yaml", "duplicate", "key", "contest", "initiative", "group", "plugin",
                                  "hide", "hide-spent", "area"])
def test_errors_in_czech_and_english_share_location_rule_and_exit(case, tmp_path):
    args, code = _cases(tmp_path)[case]
    out = {}
    for lang in ("cs", "en"):
        r = _run(args, lang)
        assert r.exit_code == code, (lang, r.output)
        assert "Traceback" not in r.output
        lines = [ln for ln in r.output.splitlines() if ln.strip()]
        m = LINE.match(lines[0])
        assert m, lines[0]
        hints = [ln.strip()[1:].strip() for ln in lines[1:] if ln.strip().startswith("→")]
        out[lang] = (m["loc"], m["rule"], m["msg"], hints)
    (loc_cs, rule_cs, msg_cs, hints_cs), (loc_en, rule_en, msg_en, hints_en) = out["cs"], out["en"]
    assert loc_cs == loc_en and rule_cs == rule_en
    assert re.search(r":\d+:\d+$", loc_cs), f"{case}: no line:col in {loc_cs}"
    assert msg_cs != msg_en
    assert len(hints_cs) == len(hints_en)
    if case == "yaml":
        # ruamel's own description of a syntax error stays English (docs/i18n.md): only our framing
        # ("neplatný YAML:" / "invalid YAML:") is checked here.
        msg_cs, msg_en = msg_cs.split(":")[0], msg_en.split(":")[0]
    for text in [msg_cs, *hints_cs]:
        assert not ENGLISH.search(_text(text)), f"{case}: English in the Czech message: {text!r}"
    for text in [msg_en, *hints_en]:
        assert not CZECH.search(_text(text)), f"{case}: Czech in the English message: {text!r}"


def test_did_you_mean_and_the_rule_ids_survive_translation(tmp_path):
    """The suggestion names the same key in both languages; R-CONT/R-RND-1/CS-FOL-1 stay as they are."""
    cases = _cases(tmp_path)
    cs, en = _run(cases["key"][0], "cs").output, _run(cases["key"][0], "en").output
    assert "neznámý klíč 'titel'" in cs and "nemysleli jste 'title'?" in cs
    assert "unknown key 'titel'" in en and "did you mean 'title'?" in en
    for case, rule in (("contest", "R-CONT"), ("initiative", "R-RND-1"), ("plugin", "CS-FOL-1")):
        assert f"[{rule}]" in _run(cases[case][0], "cs").output
    assert "Nejstarší zlobr už v tomto střetu jedná" in _run(cases["contest"][0], "cs").output
    assert "Nejstarší zlobr already acts in this contest" in _run(cases["contest"][0], "en").output


def test_the_language_is_active_while_loading(tmp_path):
    """Errors raised while the file is read (before anything is resolved) are translated too."""
    missing = str(tmp_path / "nic.yaml")
    assert "soubor neexistuje" in _run(["resolve", missing], "cs").output
    assert "no such file" in _run(["resolve", missing], "en").output
    for cmd in (["check"], ["odds"], ["diff"], ["simulate"], ["play"]):
        r = _run([*cmd, missing] if cmd != ["odds"] else ["odds", missing, "utek"], "en")
        if r.exit_code == 2 and "no such file" not in r.output and "Usage" in r.output:
            continue   # the command needs other arguments first: nothing to say about loading
        assert "soubor neexistuje" not in r.output, (cmd, r.output)


def test_plugin_errors_keep_their_numbers_and_ids(tmp_path):
    """CS-HIDE-2 / CS-OPT-AREA: the translated plugin messages still name the same ids and counts."""
    cases = _cases(tmp_path)
    cs, en = _run(cases["hide"][0], "cs").output, _run(cases["hide"][0], "en").output
    assert "`rolls` pro 'zlatka': počet součtů 3, ale pátrajících klamaných je 2 [CS-HIDE-2]" in cs
    assert "rolls for 'zlatka' list 3 totals for 2 searching deceived [CS-HIDE-2]" in en
    cs, en = _run(cases["hide-spent"][0], "cs").output, _run(cases["hide-spent"][0], "en").output
    assert "Komoří už má akci z iniciativy v kole 1 za sebou" in cs and "`counter: {actors: [...]}`" in cs
    assert "Komoří has already used its initiative action in round 1" in en and "`counter: {actors: [...]}`" in en
    cs, en = _run(cases["area"][0], "cs").output, _run(cases["area"][0], "en").output
    assert "Kultista s lukem odpovídá účastníkovi 'skokan'" in cs
    assert "Kultista s lukem answers 'skokan', who has no action or counter listed before it" in en


@pytest.mark.parametrize("args", [["--set", "tie=nikdo"], ["--enable", "rozsahla-protiakcee"]])
def test_command_line_settings_are_located_in_words_of_the_language(args):
    """SCENARIO-FORMAT §6: a bad --set/--enable is in no file; the place is "příkazová řádka" /
    "command line" (the rule id and exit 2 are the same in both languages)."""
    scenario = str(ROOT / "scenarios" / "hanus-utek.yaml")
    out = {}
    for lang in ("cs", "en"):
        r = _run(["resolve", scenario, *args], lang)
        assert r.exit_code == 2, (lang, r.output)
        m = re.match(r"^(?P<loc>[^:]+): (?P<msg>.*?) \[(?P<rule>[^\]]+)\]$", r.output.splitlines()[0])
        assert m, r.output
        out[lang] = m
    assert out["cs"]["loc"] == "příkazová řádka" and out["en"]["loc"] == "command line"
    assert out["cs"]["rule"] == out["en"]["rule"]
    assert not ENGLISH.search(_text(out["cs"]["msg"])), out["cs"]["msg"]
    assert not CZECH.search(_text(out["en"]["msg"])), out["en"]["msg"]


def test_dakara_rule_functions_raise_in_the_active_language():
    """SK-2/SK-7/SK-8: the pure Dakara functions' ValueErrors (library use) follow the language."""
    from drd_cli import i18n
    from drd_cli.dakara import rules

    calls = [lambda: rules.resolve("test", 3, 5, dice=(7, 1)),
             lambda: rules.resolve("test", 3, 5),
             lambda: rules.tool_modifier(5),
             lambda: rules.helper_difficulties(5, 2, "spolecne"),
             lambda: rules.resolve_helper(2, 6)]
    for call in calls:
        texts = {}
        for lang in ("cs", "en"):
            with i18n.using(lang), pytest.raises(ValueError) as exc:
                call()
            texts[lang] = str(exc.value)
        assert texts["cs"] != texts["en"]
        assert not ENGLISH.search(_text(texts["cs"])), texts["cs"]
        assert not CZECH.search(_text(texts["en"])), texts["en"]
    with i18n.using("cs"), pytest.raises(ValueError, match="na kostce padá 1 až 6, ne 7"):
        rules.resolve("test", 3, 5, dice=(7, 1))
    with i18n.using("en"), pytest.raises(ValueError, match="a die shows 1 to 6, not 7"):
        rules.resolve("test", 3, 5, dice=(7, 1))


def test_odds_usage_errors_follow_the_language():
    """R-CONT ties, R-ROLL-3 přesně: `drd odds` refuses a bad value (exit 2) in the active language;
    the values it lists (actor, counter, reroll) are the option's own words in both."""
    for args, cs, en in (
            (["odds", "contest", "--tie", "nikdo"], "tie musí být jedno z actor, counter, reroll, ne 'nikdo'",
             "tie must be one of actor, counter, reroll, not 'nikdo'"),
            (["odds", "test", "--presne-mode", "dva"], "presne_mode musí být jedno z plus-one, keep-best-2-of-3",
             "presne_mode must be one of plus-one, keep-best-2-of-3"),
            (["odds", str(ROOT / "scenarios" / "hanus-utek.yaml"), "nic"], "krok 'nic' neexistuje; kroky v souboru: utek",
             "no step 'nic'; steps are utek")):
        r_cs, r_en = _run(args, "cs"), _run(args, "en")
        assert r_cs.exit_code == r_en.exit_code == 2, (r_cs.output, r_en.output)
        assert cs in " ".join(r_cs.output.replace("│", " ").split()), r_cs.output
        assert en in " ".join(r_en.output.replace("│", " ").split()), r_en.output


def _usage_error(output: str) -> str:
    """The message of a Click usage error, its box and line breaks taken out."""
    return " ".join(output.replace("│", " ").replace("╭", " ").replace("╰", " ").split())


CLI_ERRORS = [
    # SK-1/SK-8/SK-6/SK-4: drd dakara's own checks of its options
    (["dakara", "test", "--skill", "3", "--difficulty", "5", "--dice", "7", "1"],
     "na kostce padá 1 až 6, ne 7", "a die shows 1 to 6, not 7"),
    (["dakara", "test", "--skill", "3", "--difficulty", "5", "--tools", "hodne"],
     "'hodne': očekáváno celé číslo od -2 do +2, nebo 'none'", "'hodne': expected an integer from -2 to +2, or 'none'"),
    (["dakara", "test", "--skill", "3", "--difficulty", "5", "--finta", "2", "--finta-cap", "1"],
     "+2 je nad stropem finty +1 (SK-6)", "+2 is over the finta cap +1 (SK-6)"),
    (["dakara", "test", "--skill", "3", "--difficulty", "5", "--roll", "--dice", "3", "4"],
     "zadejte --roll, nebo --dice, ne obojí", "give --roll or --dice, not both"),
    # --set, --json/--format (cli/_common.py), drd diff and drd rules (their own usage checks)
    (["resolve", str(ROOT / "scenarios" / "hanus-utek.yaml"), "--set", "tie"],
     "'tie': očekáváno KLÍČ=HODNOTA, např. tie=counter", "'tie': expected KEY=VALUE, e.g. tie=counter"),
    (["resolve", str(ROOT / "scenarios" / "hanus-utek.yaml"), "--json", "--format", "md"],
     "--json a --format md se navzájem vylučují", "--json and --format md exclude each other"),
    (["diff", str(ROOT / "scenarios" / "hanus-utek.yaml"), "--group", "a", "--group", "b", "--group", "c"],
     "nejvýš dvě: pro A a pro B", "at most two: A's and B's"),
    (["rules", "enable"], "použití: drd rules enable ID --group G", "usage: drd rules enable ID --group G"),
    (["rules", "enable", "prostredi"], "úprava pravidel potřebuje profil skupiny: --group G",
     "editing rules needs the group profile: --group G"),
]


@pytest.mark.parametrize("args,cs,en", CLI_ERRORS, ids=[" ".join(c[0][:3]) for c in CLI_ERRORS])
def test_cli_usage_errors_follow_the_language(args, cs, en):
    """Usage errors drd raises itself (exit 2) are in the chosen language; the option names, values
    and rule ids (SK-6 …) stay as typed."""
    r_cs, r_en = _run(args, "cs"), _run(args, "en")
    assert r_cs.exit_code == r_en.exit_code == 2, (r_cs.output, r_en.output)
    assert cs in _usage_error(r_cs.output), r_cs.output
    assert en in _usage_error(r_en.output), r_en.output


def test_unwritable_output_and_internal_errors_follow_the_language(tmp_path, monkeypatch):
    """`cannot write` (exit 2, located at the path) and the internal-error lines (exit 3) of
    cli/_common.py; the system's reason and the exception's own text stay as they are."""
    from drd_cli import api

    scenario = str(ROOT / "scenarios" / "hanus-utek.yaml")
    target = str(tmp_path / "chybi" / "r.txt")
    r_cs, r_en = _run(["resolve", scenario, "-o", target], "cs"), _run(["resolve", scenario, "-o", target], "en")
    assert r_cs.exit_code == r_en.exit_code == 2
    assert r_cs.output.startswith(f"{target}: nelze zapsat {target}: ")
    assert r_en.output.startswith(f"{target}: cannot write {target}: ")

    def broken(path):
        raise ValueError("boom")

    monkeypatch.setattr(api, "load_scenario", broken)
    r_cs, r_en = _run(["resolve", scenario], "cs"), _run(["resolve", scenario], "en")
    assert r_cs.exit_code == r_en.exit_code == 3
    assert r_cs.output == ("drd: vnitřní chyba: ValueError: boom\n"
                           "  → to je chyba v drd, ne ve vašem souboru; DRD_DEBUG=1 ukáže traceback\n")
    assert r_en.output == ("drd: internal error: ValueError: boom\n"
                           "  → this is a bug in drd, not in your file; DRD_DEBUG=1 shows the traceback\n")
