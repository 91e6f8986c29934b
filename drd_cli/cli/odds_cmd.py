"""`drd odds …` (exact DrD2 odds) and `drd simulate` (Monte Carlo over a scenario's open dice).

Startup speed: only typer at import time; odds, engine and rich are imported inside commands.
"""

from __future__ import annotations

import json
from typing import Optional

import typer

from typer.core import TyperGroup

from ._common import Lang, lang_option, use_language


class _OddsGroup(TyperGroup):
    """`drd odds FILE STEP` is `drd odds file FILE STEP`: a first word that names no sub-command
    (and is no option) is taken as the scenario file."""

    def resolve_command(self, ctx, args):  # noqa: ANN001, ANN201
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = ["file", *args]
        return super().resolve_command(ctx, args)


odds_app = typer.Typer(help="Přesné šance DrD2: zkouška, střet, vyčerpání, krok scénáře "
                            "(`drd odds FILE KROK`).", no_args_is_help=True, cls=_OddsGroup)


def _pct(p) -> str:
    from ..odds import fmt

    return fmt(p)


def _emit(data: dict, as_json: bool, lines: list[str]) -> None:
    from ..odds import as_json as conv

    if as_json:
        typer.echo(json.dumps(conv(data), ensure_ascii=False, indent=2))
    else:
        for line in lines:
            typer.echo(line)


@odds_app.command("test")
def odds_test(bonus: int = typer.Option(0, "--bonus", "-b", help="bonus k 2k6"),
              presne: int = typer.Option(0, "--presne", help="počet použití přesně"),
              presne_mode: str = typer.Option("plus-one", "--presne-mode", help="plus-one | keep-best-2-of-3"),
              target: int = typer.Option(9, "--target", help="cíl zkoušky"),
              as_json: bool = typer.Option(False, "--json"),
              lang: Optional[Lang] = lang_option()) -> None:
    """Zkouška: P(2k6 + bonus (+ přesně) ≥ cíl)."""
    use_language(lang)
    from ..odds import test_odds

    try:
        r = test_odds(bonus, presne, presne_mode, target)
    except ValueError as exc:
        raise typer.BadParameter(str(exc))
    _emit({"bonus": bonus, "presne": presne, "presne_mode": presne_mode, "target": target, **r}, as_json,
          [f"Zkouška 2k6{bonus:+d}" + (f", přesně ×{presne} ({presne_mode})" if presne else "") + f" ≥ {target}",
           f"  ÚSPĚCH:   {_pct(r['success'])}", f"  NEÚSPĚCH: {_pct(r['failure'])}"])


@odds_app.command("contest")
def odds_contest(bonus: int = typer.Option(0, "--bonus", "-b", help="bonus aktéra"),
                 vs: int = typer.Option(0, "--vs", help="bonus protiaktéra"),
                 tie: str = typer.Option("actor", "--tie", help="actor | counter | reroll"),
                 as_json: bool = typer.Option(False, "--json"),
                 lang: Optional[Lang] = lang_option()) -> None:
    """Střet jedné dvojice: 2k6 + bonus proti 2k6 + vs."""
    use_language(lang)
    from ..odds import contest_odds

    try:
        r = contest_odds(bonus, vs, tie)
    except ValueError as exc:
        raise typer.BadParameter(str(exc))
    _emit({"bonus": bonus, "vs": vs, "tie": tie, **r}, as_json,
          [f"Střet 2k6{bonus:+d} proti 2k6{vs:+d} (remíza: {tie})",
           f"  aktér vyhrává:  {_pct(r['win'])}", f"  aktér prohrává: {_pct(r['lose'])}",
           f"  remíza v hodu:  {_pct(r['tie'])}"])


@odds_app.command("exhaust")
def odds_exhaust(ohrozeni: int = typer.Option(..., "--ohrozeni", help="současné Ohrožení platícího"),
                 armour: int = typer.Option(0, "--armour", help="zbroj (jen proti tělesným akcím)"),
                 mocne: int = typer.Option(0, "--mocne", help="použití mocně vítězné akce"),
                 mental: bool = typer.Option(False, "--mental", help="netělesná akce: zbroj neplatí"),
                 bonus: Optional[int] = typer.Option(None, "--bonus", help="bonus zkoušky pro očekávanou cenu"),
                 as_json: bool = typer.Option(False, "--json"),
                 lang: Optional[Lang] = lang_option()) -> None:
    """Vyčerpání: cena = Ohrožení (− zbroj, + mocně) a očekávaná cena při dané zkoušce."""
    use_language(lang)
    from ..odds import expected_exhaustion_cost

    r = expected_exhaustion_cost(ohrozeni, bonus, armour, mocne, not mental)
    lines = [f"Vyčerpání při Ohrožení {ohrozeni}: cena {r['cost']}, Ohrožení poté {r['ohrozeni_after']}"]
    if bonus is not None:
        lines.append(f"  NEÚSPĚCH zkoušky 2k6{bonus:+d}: {_pct(r['p_failure'])}; očekávaná cena "
                     f"{r['expected']} ≈ {float(r['expected']):.2f}")
    _emit({"ohrozeni": ohrozeni, "armour": armour, "mocne": mocne, **r}, as_json, lines)


@odds_app.command("file")
def odds_file(file: str = typer.Argument(..., help="scénář YAML"),
              step: str = typer.Argument(..., help="id kroku"),
              choose: str = typer.Option("accept", "--choose", help="accept | exhaust | cheapest (chybějící volby)"),
              seed: int = typer.Option(0, "--seed", help="kostky, které soubor nechává otevřené PŘED krokem"),
              as_json: bool = typer.Option(False, "--json"),
              lang: Optional[Lang] = lang_option()) -> None:
    """Přesné šance jednoho kroku scénáře přes všechny kostky, které v něm soubor nechává otevřené.

    Lze psát i zkráceně `drd odds FILE KROK`.
    """
    import time

    use_language(lang)
    from ..errors import DrdError
    from ..odds import step_odds
    from ._common import guarded
    from .. import api

    if choose not in ("accept", "exhaust", "cheapest"):
        raise typer.BadParameter("accept | exhaust | cheapest", param_hint="--choose")
    with guarded():
        loaded = api.load_scenario(file)
        t = time.perf_counter()
        try:
            r = step_odds(loaded, step, choose, seed=seed)
        except KeyError as exc:
            typer.echo(f"{file}: {exc.args[0]}", err=True)
            raise typer.Exit(2) from None
        except DrdError as exc:
            api.locate(exc, loaded)
            raise
    r["elapsed_ms"] = round((time.perf_counter() - t) * 1000, 1)
    names = {pid: (p.name or pid) for pid, p in loaded.scenario.participants.items()}
    _emit(r, as_json, _step_lines(r, names))


def _step_lines(r: dict, names: dict) -> list[str]:
    """The text report of `drd odds FILE KROK` (Czech, one fact a line)."""
    step, choose = r["step"], r["choose"]
    rollers = ", ".join(f"{names.get(o['who'], o['who'])} ({o['dice']}k6)" for o in r["open_rolls"]) or "žádné"
    lines = [f"Krok {step} ({r['kind']}), volby: {choose}",
             f"  otevřené hody: {rollers}",
             f"  {r['combinations']:,} kombinací kostek → ".replace(",", " ")
             + f"{r['classes']} tříd, {r['resolutions']} vyhodnocení, {r['elapsed_ms']} ms"]
    if r["success"]:
        lines.append("Akce:")
    for pid, p in r["success"].items():
        lines.append(f"  {names.get(pid, pid)}: ÚSPĚCH {_pct(p)}, NEÚSPĚCH {_pct(1 - p)}")
    if r["pairs"]:
        lines.append("Dvojice (kdo vyhrává):")
    for pair, d in r["pairs"].items():
        a, _, c = pair.partition(" vs ")
        lines.append(f"  {names.get(a, a)} proti {names.get(c, c)}: "
                     + ", ".join(f"{names.get(w, w)} {_pct(p)}" for w, p in d.items()))
    if r["hit"]:
        lines.append("Zasažen:")
        lines += [f"  {names.get(pid, pid)}: {_pct(p)}" for pid, p in r["hit"].items()]
    if r["exhausts"]:
        lines.append("Vyčerpá se:")
        lines += [f"  {names.get(pid, pid)}: {_pct(p)}" for pid, p in r["exhausts"].items()]
    lines.append("Ohrožení po kroku:")
    for pid, d in r["ohrozeni"].items():
        lines.append(f"  {names.get(pid, pid)}: " + ", ".join(f"{o}: {_pct(p)}" for o, p in d.items()))
    if r["refused"]:
        lines.append(f"Pravidla zakazují (volba ze souboru nejde zaplatit): {_pct(r['refused'])}")
    if r["dropped"]:
        lines.append(f"  (odříznuto opakovaných remíz: {_pct(r['dropped'])}, zbytek přenormován)")
    return lines


def simulate_cmd(file: str = typer.Argument(..., help="scénář YAML"),
                 n: int = typer.Option(1000, "-n", min=1, help="počet běhů"),
                 seed: int = typer.Option(0, "--seed", help="běh i používá seed + i"),
                 policy: str = typer.Option("accept", "--policy",
                                            help="accept | exhaust | cheapest (vyčerpá se, jen když stojí nejvýš 1)"),
                 workers: Optional[int] = typer.Option(None, "--workers", min=1,
                                                       help="procesy (výchozí: všechna jádra; 1 = bez poolu)"),
                 as_json: bool = typer.Option(False, "--json"),
                 lang: Optional[Lang] = lang_option()) -> None:
    """Monte Carlo: scénář N× s náhodnými otevřenými kostkami; rozdělení Ohrožení, zdrojů, Jizev,
    jak často uspějí cíle každé strany. Výsledek závisí jen na seedu, ne na počtu procesů."""
    import sys

    from ._common import guarded, make_console

    use_language(lang)

    if policy not in ("accept", "exhaust", "cheapest"):
        raise typer.BadParameter("accept | exhaust | cheapest", param_hint="--policy")
    with guarded():
        from ..simulate import _load, simulate

        loaded = _load(file)   # invalid file → exit 2 with file:line:col before any worker starts
        # A progress bar only for a person watching: on stderr, and only when it is a terminal.
        if sys.stderr.isatty() and n >= 2000:
            from rich.progress import Progress

            with Progress(console=make_console(stderr=True), transient=True) as prog:
                task = prog.add_task("Simulace", total=n)
                r = simulate(file, n, seed=seed, policy=policy, workers=workers,
                             progress=lambda k: prog.advance(task, k))
        else:
            r = simulate(file, n, seed=seed, policy=policy, workers=workers)
    if as_json:
        typer.echo(json.dumps(r, ensure_ascii=False, indent=2, default=str))
        return
    _simulate_tables(r, {pid: (p.name or pid) for pid, p in loaded.scenario.participants.items()})


def _simulate_tables(r: dict, names: dict) -> None:
    """Per participant: Ohrožení, pools left, Jizvy; per step and side: how often its goal succeeds."""
    from rich.table import Table

    from ._common import make_console

    console = make_console()
    runs = max(r["runs"], 1)
    console.print(f"Simulace {r['n']}× (seed {r['seed']}, volby {r['policy']}): {r['runs']} doběhlo"
                  + (f", pravidla zastavila {sum(r['errors'].values())} ({r['errors']})" if r["errors"] else ""))
    t = Table(title="Konečný stav účastníků", title_justify="left")
    for col in ("účastník", "Ohrožení (rozdělení)", "zbývá průměrně", "Jizvy"):
        t.add_column(col)
    for pid, d in r["ohrozeni"].items():
        dist = ", ".join(f"{o}: {c / runs:.0%}" for o, c in d.items())
        pools = ", ".join(f"{_POOLS_CS.get(pool, pool)} {sum(v * k for v, k in c.items()) / runs:.1f}"
                          for pool, c in r["pools"].get(pid, {}).items())
        jz = r["jizvy"].get(pid, {})
        scars = f"průměr {sum(v * k for v, k in jz.items()) / runs:.2f}; aspoň jedna {sum(k for v, k in jz.items() if v) / runs:.0%}"
        t.add_row(names.get(pid, pid), dist, pools, scars)
    console.print(t)
    s = Table(title="Jak často strana dosáhne svého (všechny její akce v kroku uspějí)", title_justify="left")
    for col in ("krok", "strana", "ÚSPĚCH"):
        s.add_column(col)
    for step, d in r["side_rate"].items():
        for side, v in d.items():
            if v is not None:
                s.add_row(step, names.get(side, side), f"{v:.1%}")
    for side, v in r["side_all_rate"].items():
        if v is not None:
            s.add_row("celý scénář", names.get(side, side), f"{v:.1%}")
    console.print(s)


_POOLS_CS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba"}
