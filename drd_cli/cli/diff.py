"""`drd diff FILE`: the same scenario, the same dice, two rules profiles side by side.

Startup: only typer and the standard library here; rich, the engine and the loader are imported
inside the command (tests/test_startup.py).
"""

from __future__ import annotations

import json
from typing import List, Optional

import typer

from ._common import Lang, lang_option, use_language

ORIGINS_CS = {"default": "výchozí", "scenario": "scénář", "command line": "příkazová řádka"}
WHAT_CS = {"roll": "hod", "pair": "dvojice", "success": "výsledek akce", "affected": "zasáhl",
           "exhaustions": "vyčerpání", "ohrozeni": "Ohrožení po kroku", "step": "krok", "refused": "pravidla"}
FIELD_CS = {"ohrozeni": "Ohrožení", "telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba",
            "vyhody": "Výhody", "jizvy": "Jizvy", "conditions": "stavy", "equipment": "vybavení"}


def diff(
    file: str = typer.Argument(..., help="The scenario YAML file.", metavar="FILE"),
    group: Optional[List[str]] = typer.Option(
        None, "--group", metavar="G",
        help="A group profile. Once: profile B plays with it (A is the file as written). "
             "Twice: A with the first, B with the second."),
    set_: Optional[List[str]] = typer.Option(None, "--set", metavar="KEY=VALUE",
                                             help="A house rule for profile B, e.g. --set tie=counter (repeatable)."),
    enable: Optional[List[str]] = typer.Option(None, "--enable", metavar="ID", help="Enable ID in profile B."),
    disable: Optional[List[str]] = typer.Option(None, "--disable", metavar="ID", help="Disable ID in profile B."),
    a_group: Optional[str] = typer.Option(None, "--a-group", metavar="G", help="Group profile of A."),
    a_set: Optional[List[str]] = typer.Option(None, "--a-set", metavar="KEY=VALUE", help="Parameter in A."),
    a_enable: Optional[List[str]] = typer.Option(None, "--a-enable", metavar="ID", help="Enable ID in A."),
    a_disable: Optional[List[str]] = typer.Option(None, "--a-disable", metavar="ID", help="Disable ID in A."),
    b_group: Optional[str] = typer.Option(None, "--b-group", metavar="G", help="Group profile of B."),
    b_set: Optional[List[str]] = typer.Option(None, "--b-set", metavar="KEY=VALUE", help="Parameter in B."),
    b_enable: Optional[List[str]] = typer.Option(None, "--b-enable", metavar="ID", help="Enable ID in B."),
    b_disable: Optional[List[str]] = typer.Option(None, "--b-disable", metavar="ID", help="Disable ID in B."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for the dice the file leaves open "
                                       "(default: the file's `seed`, else a fresh one, reported)."),
    choose: str = typer.Option("accept", "--choose",
                               help="accept | exhaust | cheapest: answers the file leaves open."),
    json_out: bool = typer.Option(False, "--json", help="Both results and the list of differences as JSON."),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """How would a house rule have changed it? Resolve FILE with the same dice under rules
    profile A and profile B and show what changes, side by side.

    Profile A is the file as written (plus any --a-… option); profile B is the same plus the house
    rule (--group, --set, --enable, --disable, or --b-…). Exit 0 when compared (a rule refusing
    something in one profile is shown as a difference), 1 when a rule refuses the file under
    both, 2 when the file or an option is invalid.
    """
    from ._common import guarded, parse_params

    use_language(lang)
    groups = list(group or [])
    if len(groups) > 2:
        raise typer.BadParameter("at most two: A's and B's", param_hint="--group")
    if len(groups) == 2 and (a_group or b_group):
        raise typer.BadParameter("give two --group, or --a-group/--b-group, not both", param_hint="--group")
    if len(groups) == 1 and b_group:
        raise typer.BadParameter("--group (once) is B's group; --b-group says it again", param_hint="--group")
    if choose not in ("accept", "exhaust", "cheapest"):
        raise typer.BadParameter("accept | exhaust | cheapest", param_hint="--choose")
    ga = groups[0] if len(groups) == 2 else a_group
    gb = groups[-1] if groups else b_group
    with guarded():
        from ..api import load_scenario
        from ..diff import ProfileSpec, compare
        from ..dice import new_seed
        from ..errors import ScenarioError

        spec_a = ProfileSpec(ga, parse_params(a_set), tuple(a_enable or ()), tuple(a_disable or ()))
        spec_b = ProfileSpec(gb, {**parse_params(set_), **parse_params(b_set)},
                             tuple(enable or ()) + tuple(b_enable or ()), tuple(disable or ()) + tuple(b_disable or ()))
        loaded = load_scenario(file)
        if loaded.system != "drd2":
            raise ScenarioError(f"{file}: drd diff compares Dračí doupě II scenarios (this one is {loaded.system})")
        if seed is None:
            seed = loaded.scenario.seed if loaded.scenario.seed is not None else new_seed()
        report = compare(loaded, spec_a, spec_b, seed=seed, choose=choose)
    if json_out:
        typer.echo(json.dumps(report, ensure_ascii=False, indent=2, default=str))
    else:
        _render(report)
    if "error" in report["a"] and "error" in report["b"]:
        raise typer.Exit(1)


def _origin(o: Optional[str]) -> str:
    if o is None:
        return ""
    if o.startswith("group "):
        return "skupina " + o[len("group "):]
    return ORIGINS_CS.get(o, o)


def _value(v: object) -> str:
    if v is True:
        return "zapnuto"
    if v is False:
        return "vypnuto"
    return str(v)


def _render(report: dict) -> None:
    """The side-by-side report for the table (rich; colour only on a terminal, NO_COLOR respected)."""
    from rich.table import Table

    from ._common import make_console

    console = make_console()
    names = report["names"]
    a, b = report["a"], report["b"]
    console.print(f"[bold]{report['title']}[/bold] — stejné kostky (seed {report['seed']}), volby {report['choose']}")
    console.print(f"  profil A: {a['profile']['describe']}")
    console.print(f"  profil B: {b['profile']['describe']}")

    rules = Table(title="Pravidla, která se liší", title_justify="left")
    rules.add_column("pravidlo")
    rules.add_column("profil A")
    rules.add_column("profil B")
    for r in report["rule_differences"]:
        rules.add_row(r["setting"], f"{_value(r['a'])} ({_origin(r['a_origin'])})",
                      f"{_value(r['b'])} ({_origin(r['b_origin'])})")
    if report["rule_differences"]:
        console.print(rules)
    else:
        console.print("Pravidla: oba profily mají stejná nastavení (scénář může přebít skupinu i --set; "
                      "viz `drd rules show`).")

    from rich.markup import escape

    for side, label in ((a, "A"), (b, "B")):
        if "error" in side:
            console.print(f"[red]Profil {label}: pravidla to zakazují[/red] (exit {side['error']['exit_code']} "
                          f"pro drd resolve) — " + escape(side["error"]["text"]))
    for side, label, other in ((a, "A", b), (b, "B", a)):
        if "result" in side and "error" in other:
            _render_one(console, side["result"], side["after"], label, names)

    diffs = [d for d in report["differences"] if d["what"] != "refused"]
    if diffs:
        t = Table(title="Co se mění", title_justify="left")
        t.add_column("krok")
        t.add_column("co")
        t.add_column("profil A")
        t.add_column("profil B")
        for d in diffs:
            step = d["step"] or "konec"
            who = names.get(d["who"], d["who"]) if d.get("who") else ""
            if d["what"] == "pair":
                x, _, y = d["who"].partition(" vs ")
                who = f"{names.get(x, x)} proti {names.get(y, y)}"
            what = FIELD_CS.get(d.get("field"), WHAT_CS.get(d["what"], d["what"])) if d["what"] == "final" \
                else WHAT_CS.get(d["what"], d["what"])
            t.add_row(step, f"{what} {who}".strip(), _cell(d, "a", names), _cell(d, "b", names))
        console.print(t)
    elif "result" in a and "result" in b:
        console.print("[green]Žádný rozdíl[/green]: se stejnými kostkami dopadne vše stejně.")
    same = report["identical"]
    if same["steps"] or same["participants"]:
        console.print("Beze změny: kroky " + (", ".join(same["steps"]) or "—") + "; konečný stav "
                      + (", ".join(names.get(p, p) for p in same["participants"]) or "—"))


def _render_one(console, result: dict, after: dict, label: str, names: dict) -> None:  # noqa: ANN001
    """What the profile that resolved gives, when the other one was refused."""
    from rich.table import Table

    t = Table(title=f"Profil {label} (druhý profil odmítnut)", title_justify="left")
    t.add_column("krok")
    t.add_column("akce")
    t.add_column("Ohrožení po kroku")
    for step in result["steps"]:
        verdicts = ", ".join(f"{names.get(p, p)} " + ("[green]ÚSPĚCH[/green]" if a.get("success") else
                                                       "[red]NEÚSPĚCH[/red]") for p, a in step["actions"].items())
        ohr = ", ".join(f"{names.get(p, p)} {v['ohrozeni']}" for p, v in (after.get(step["id"]) or {}).items())
        t.add_row(step["id"], verdicts or "—", ohr)
    console.print(t)


def _cell(d: dict, side: str, names: dict) -> str:
    v = d[side]
    what = d["what"]
    if v is None:
        return "—"
    if what == "success":
        return "[green]ÚSPĚCH[/green]" if v else "[red]NEÚSPĚCH[/red]"
    if what == "pair":
        w = names.get(v["winner"], v["winner"])
        extra = " (remíza)" if v["tie"] else ""
        extra += " po přehozu" if v["reroll"] else ""
        return f"vyhrává {w} {v['totals'][0]}:{v['totals'][1]}{extra}"
    if what == "exhaustions":
        if not v:
            return "nikdo"
        return "\n".join(f"{names.get(e['by'], e['by'])} proti "
                         f"{'zkoušce' if e['vs'] == 'test' else names.get(e['vs'], e['vs'])}: "
                         f"{e['cost']} {FIELD_CS.get(e['pool'], e['pool'])}, Ohrožení {e['ohrozeni'][0]}→{e['ohrozeni'][1]}"
                         for e in v)
    if what == "affected":
        return ", ".join(names.get(x, x) for x in v) or "nikoho"
    if isinstance(v, list):
        return ", ".join(str(x) if not isinstance(x, dict) else str(x.get("name", x)) for x in v) or "—"
    return str(v)
