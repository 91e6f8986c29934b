"""The transcript is rendered from the result dict alone; JSON keeps Czech as is."""

from __future__ import annotations

import json
from pathlib import Path

from drd_cli import i18n

from drd_cli.render.jsonout import dumps
from drd_cli.render.terminal import render_text

HANUS = {
    "format": "drd-result/1", "title": "Mistr Hanuš prchá zlobrům", "system": "drd2", "seed": 7,
    "rules": {"enabled": ["prostredi", "ukryvani"], "params": {"tie": "actor"}},
    "steps": [{
        "id": "utek", "round": 1, "kind": "contest",
        "rolls": {"hanus": {"total": 10, "dice": [3, 4], "bonus": 3, "source": "given"},
                  "stary": {"total": 13, "dice": None, "bonus": None, "source": "given"},
                  "mladsi": {"total": 7, "dice": [1, 2], "bonus": 4, "source": "seeded"}},
        "order": ["stary", "hanus", "mladsi"],
        "manoeuvres": [{"by": "hanus", "name": "rozsahle", "paid": "telo", "cost": 1, "via": None},
                       {"by": "ulrich", "name": "presne", "paid": "free", "cost": 0, "via": "luk"}],
        "actions": {"hanus": {"success": False, "affected": []},
                    "stary": {"success": True, "affected": ["hanus"]}},
        "exhaustions": [
            {"by": "hanus", "vs": "stary", "pool": "telo", "cost": 3, "protected": ["hanus"], "denied": None,
             "ohrozeni": [3, 4], "gained": {"jizva": {"name": "Pád z výšky", "gain": 3}, "sacrifice": None}},
            {"by": "hanus", "vs": "test", "pool": "duse", "cost": 4, "protected": ["hanus"], "denied": "stary",
             "ohrozeni": [4, 5], "gained": {"jizva": None, "sacrifice": {"name": "hůl", "gain": 1}}}],
        "log": [{"rule": "R-ORDER", "text": "Pořadí hodů: 13, 10, 7"},
                {"rule": "CS-SEQ-1", "text": "Hanuš se vyčerpává dvakrát"}],
    }],
    "final": {
        "hanus": {"telo": 0, "duse": 9, "vliv": 5, "ohrozeni": 5, "vyhody": 0, "jizvy": ["Pád z výšky"],
                  "conditions": [{"name": "omráčen", "rounds": 2}], "equipment": ["hůl"], "suspicion": []},
        "stary": {"sudba": 12, "ohrozeni": 2, "vyhody": 1, "jizvy": [], "conditions": [], "equipment": [],
                  "suspicion": []},
    },
}


def text(result=HANUS) -> str:
    return render_text(result, width=140)


def test_heading_rolls_and_order():
    out = text()
    assert "Mistr Hanuš prchá zlobrům" in out and "semínko 7" in out
    assert "Krok utek · kolo 1 · střet" in out
    row = next(line for line in out.splitlines() if line.startswith("mladsi"))
    assert row.split() == ["mladsi", "7", "1", "+", "2", "+4", "náhodně", "(semínko)"]
    assert "Pořadí: stary → hanus → mladsi" in out


def test_success_is_a_word_not_only_colour():
    out = text()
    assert "hanus: NEÚSPĚCH" in out
    assert "stary: ÚSPĚCH; zásah: hanus" in out


def test_manoeuvres_in_czech():
    out = text()
    assert "hanus: rozsáhle, platí 1 Tělo" in out
    assert "ulrich: přesně zdarma (luk)" in out


def test_exhaustions_cost_pool_ohrozeni_jizva_sacrifice():
    out = text()
    assert "hanus se vyčerpává (proti: stary): 3 Tělo, Ohrožení 3→4; Jizva „Pád z výšky“ (+3)" in out
    assert "(proti: zkouška): 4 Duše, Ohrožení 4→5" in out
    assert "upírá zisk vítězi: stary" in out
    assert "obětuje hůl (+1)" in out


def test_log_lines_with_rule_ids():
    out = text()
    assert "[R-ORDER] Pořadí hodů: 13, 10, 7" in out
    assert "[CS-SEQ-1] Hanuš se vyčerpává dvakrát" in out


def test_final_table():
    out = text()
    table = out[out.index("Stav na konci"):]
    header = next(line for line in table.splitlines() if "Účastník" in line)
    assert header.split() == ["Účastník", "Zdroje", "Ohrožení", "Výhody", "Jizvy", "Stavy", "Vybavení"]
    hanus = next(line for line in table.splitlines() if line.strip().startswith("hanus"))
    assert "Tělo 0, Duše 9, Vliv 5" in hanus
    assert "Pád z výšky" in hanus and "omráčen (ještě 2 kola)" in hanus  # Czech plural: 2–4 kola and "hůl" in hanus
    stary = next(line for line in table.splitlines() if line.strip().startswith("stary"))
    assert stary.split()[:5] == ["stary", "Sudba", "12", "2", "1"]


def test_no_colour_codes_unless_asked():
    assert "\x1b[" not in text()
    coloured = render_text(HANUS, color=True)
    assert "\x1b[" in coloured and "NEÚSPĚCH" in coloured


def test_optional_keys_hide_long_race_dakara():
    result = {"steps": [
        {"id": "zaves", "round": 1, "kind": "hide", "rolls": {}, "order": [], "actions": {},
         "hide": {"situation": "chance", "resolved_as": "contest", "revealed": True, "revealed_by": ["komori"],
                  "suspicion_added": ["zlatka"], "suspicion_cleared": []}},
        {"id": "splh", "round": 2, "kind": "contest",
         "actions": {"techan": {"success": True, "affected": [],
                                "long": {"id": "splh", "status": "continuing", "retry": False, "barred": ["orlice"]}}}},
        {"id": "pereje", "round": 2, "kind": "race", "race": {"faster_than": {"techan": ["cuna"], "cuna": []}},
         "actions": {"cuna": {"success": True, "affected": [], "kept_up": True}}},
        {"id": "zamek", "round": 1, "kind": "skill", "outcome": "failure", "margin": -3,
         "complication": "mild", "injury": 2, "skill": "zamky", "from_a_plugin": 1},
    ], "final": {"kaja": {"injury": 2, "dead": False, "conditions": []}}}
    out = text(result)
    assert "Krok zaves · kolo 1 · ukrývání" in out
    assert "klamaná strana si může všimnout (S2), řešeno jako střet" in out
    assert "ODHALENO (kdo si všiml: komori)" in out and "nové podezření: zlatka" in out
    assert "dlouhá akce „splh“: pokračuje, znovu přerušit nesmí: orlice" in out
    assert "techan je rychlejší než cuna" in out and "stačí tempu" in out
    assert "Výsledek: NEÚSPĚCH (rozdíl -3)" in out
    assert "Komplikace: mírné komplikace" in out and "Zranění: 2" in out
    assert "from_a_plugin: 1" in out and "skill: zamky" not in out   # only unknown keys shown as they are
    header = next(line for line in out.splitlines() if "Účastník" in line)
    assert "Zranění" in header and "Smrt" in header


def test_robust_to_sparse_and_odd_results():
    out = render_text({"steps": [{}, {"id": "x", "rolls": {"a": 5}, "exhaustions": ["?"], "log": ["plain"]}],
                       "final": {"a": None}})
    assert "Krok ? · kolo ? · ?" in out and "plain" in out
    assert render_text({}).strip() == "Dračí doupě II"


def test_markup_in_names_is_not_interpreted():
    result = {"steps": [{"id": "[bold]x[/bold]", "round": 1, "kind": "test",
                         "log": [{"rule": "R-TEST", "text": "[red]not markup[/red]"}]}]}
    out = text(result)
    assert "[red]not markup[/red]" in out and "[bold]x[/bold]" in out


def test_json_keeps_czech_and_indents():
    out = dumps(HANUS)
    assert "Mistr Hanuš prchá zlobrům" in out and "\\u" not in out
    assert out.startswith('{\n  "format": "drd-result/1"') and out.endswith("}\n")
    assert json.loads(out) == HANUS
    assert json.loads(dumps({"a": (1, 2), "b": {3}})) == {"a": [1, 2], "b": [3]}


def test_names_from_participants_replace_ids_everywhere():
    """The result's `participants` (an extension of §7) gives names; the transcript speaks of people."""
    named = dict(HANUS, participants={"hanus": {"name": "Mistr Hanuš", "side": "vesnice"},
                                      "stary": {"name": "Nejstarší zlobr", "side": None},
                                      "mladsi": {"name": "Nejmladší zlobr", "side": None}})
    out = render_text(named, width=160)
    assert "Pořadí: Nejstarší zlobr → Mistr Hanuš → Nejmladší zlobr" in out
    assert "Nejstarší zlobr: ÚSPĚCH; zásah: Mistr Hanuš" in out
    assert "Mistr Hanuš se vyčerpává (proti: Nejstarší zlobr): 3 Tělo, Ohrožení 3→4" in out
    assert "chrání: Mistr Hanuš" not in out          # exhausting for oneself goes without saying
    assert "upírá zisk vítězi: Nejstarší zlobr" in out
    assert "Mistr Hanuš: rozsáhle, platí 1 Tělo" in out
    assert "ulrich: přesně zdarma (luk)" in out            # not among participants: the id stays
    row = next(line for line in out.splitlines() if line.startswith("Nejmladší zlobr"))
    assert row.split()[2] == "7"
    table = out[out.index("Stav na konci"):]
    assert any(line.strip().startswith("Mistr Hanuš") and "Tělo 0" in line for line in table.splitlines())
    # the names do not leak into the next transcript built without them
    assert "Pořadí: stary → hanus → mladsi" in text()


def test_engine_result_lists_participants_with_names_and_sides():
    from pathlib import Path

    from drd_cli.api import load_scenario, resolve_scenario

    path = Path(__file__).resolve().parents[2] / "scenarios" / "hanus-utek.yaml"
    result = resolve_scenario(load_scenario(str(path)), seed=1)
    assert set(result["participants"]) == set(result["final"])
    assert result["participants"]["hanus"]["name"] == "Mistr Hanuš"


def test_heading_names_the_game_and_the_rules_by_their_titles_not_ids():
    from pathlib import Path

    from drd_cli.api import load_scenario, resolve_scenario

    path = Path(__file__).resolve().parents[2] / "scenarios" / "horici-stodola.yaml"
    result = resolve_scenario(load_scenario(str(path)), seed=3)
    assert "prostredi" in result["rules"]["enabled"]
    head = render_text(result).splitlines()[:3]
    seed = result.get("seed")
    assert head[1] == ("Dračí doupě II" if seed is None else f"Dračí doupě II · semínko {seed}")
    rules = head[2]
    assert rules.startswith("Pravidla: Akce prostředí, následné akce a nepřímé ohrožení; ")
    assert not any(pid in rules.split() for pid in result["rules"]["enabled"])


def test_an_exhaustion_names_whom_it_protects_only_when_it_is_someone_else():
    """`chrání: X` says something when X is another (CS-FOR-1); for oneself it goes without saying."""
    from drd_cli.api import load_scenario, resolve_scenario

    root = Path(__file__).resolve().parents[2]
    with i18n.using("cs"):
        out = render_text(resolve_scenario(load_scenario(str(root / "scenarios" / "ctena-vycerpani-za-ni.yaml"))),
                          width=200)
        own = render_text(resolve_scenario(load_scenario(str(root / "scenarios" / "lavrisa-vlkava-dvere-vycerpani.yaml"))),
                          width=200)
    assert "Rytíř Ulrich ze Smolna se vyčerpává (proti: Vodník): 2 Tělo, Ohrožení 2→3; chrání: Léčitelka Ctěna" in out
    assert "Poutnice Vlkava se vyčerpává (proti: zkouška): 2 Tělo, Ohrožení 2→3\n" in own
