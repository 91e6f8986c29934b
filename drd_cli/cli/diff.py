"""`drd diff FILE`: the same scenario, the same dice, two rules profiles side by side.

Startup: only typer and the standard library here; rich, the engine and the loader are imported
inside the command (tests/cli/test_startup.py).
"""

from __future__ import annotations

import json
from typing import List, Optional

import typer

from ._common import N_, Lang, lang_option, use_language

# Words of the report, translated where they are printed (`_()`); game terms stay Czech.
WHAT = {"roll": N_("roll"), "pair": N_("who wins the pair"), "success": N_("action result"),
        "affected": N_("whom the action hit"),
        "exhaustions": N_("exhaustion"), "ohrozeni": N_("Ohrožení after the step"), "step": N_("step"),
        "refused": N_("rules")}
FIELD = {"ohrozeni": "Ohrožení", "telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba",
         "vyhody": "Výhody", "jizvy": "Jizvy", "conditions": N_("conditions"), "equipment": N_("equipment")}
STEP_RAN = {"proběhl": N_("ran"), "neproběhl": N_("did not run")}


HELP = N_("How would a house rule have changed it? Resolve FILE with the same dice under rules profile A "
          "and profile B and show what changes, side by side.\n\n"
          "Profile A is the file as written (plus any --a-… option); profile B is the same plus the house "
          "rule (--group, --set, --enable, --disable, or the --b-… options). Exit 0 when compared (a rule "
          "refusing something in one profile is shown as a difference), 1 when a rule refuses the file under "
          "both, 2 when the file or an option is invalid.")


def diff(
    file: str = typer.Argument(..., help=N_("The scenario YAML file."), metavar="FILE"),
    group: Optional[List[str]] = typer.Option(
        None, "--group", metavar="G",
        help=N_("A group profile. Once: profile B plays with it (A is the file as written). "
             "Twice: A with the first, B with the second.")),
    set_: Optional[List[str]] = typer.Option(None, "--set", metavar="KEY=VALUE",
                                             help=N_("A house rule for profile B, e.g. --set tie=counter (repeatable).")),
    enable: Optional[List[str]] = typer.Option(None, "--enable", metavar="ID", help=N_("Enable ID in profile B.")),
    disable: Optional[List[str]] = typer.Option(None, "--disable", metavar="ID", help=N_("Disable ID in profile B.")),
    a_group: Optional[str] = typer.Option(None, "--a-group", metavar="G", help=N_("Group profile of A.")),
    a_set: Optional[List[str]] = typer.Option(None, "--a-set", metavar="KEY=VALUE", help=N_("Parameter in A.")),
    a_enable: Optional[List[str]] = typer.Option(None, "--a-enable", metavar="ID", help=N_("Enable ID in A.")),
    a_disable: Optional[List[str]] = typer.Option(None, "--a-disable", metavar="ID", help=N_("Disable ID in A.")),
    b_group: Optional[str] = typer.Option(None, "--b-group", metavar="G", help=N_("Group profile of B.")),
    b_set: Optional[List[str]] = typer.Option(None, "--b-set", metavar="KEY=VALUE", help=N_("Parameter in B.")),
    b_enable: Optional[List[str]] = typer.Option(None, "--b-enable", metavar="ID", help=N_("Enable ID in B.")),
    b_disable: Optional[List[str]] = typer.Option(None, "--b-disable", metavar="ID", help=N_("Disable ID in B.")),
    seed: Optional[int] = typer.Option(None, "--seed", help=N_("Seed for the dice the file leaves open "
                                       "(default: the file's `seed`, else a fresh one, reported).")),
    choose: str = typer.Option("accept", "--choose",
                               help=N_("accept | exhaust | cheapest: answers the file leaves open.")),
    json_out: bool = typer.Option(False, "--json", help=N_("Both results and the list of differences as JSON.")),
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
    from ..i18n import gettext      # module level would load it for --help and completion too

    groups = list(group or [])
    if len(groups) > 2:
        raise typer.BadParameter(gettext("at most two: A's and B's"), param_hint="--group")
    if len(groups) == 2 and (a_group or b_group):
        raise typer.BadParameter(gettext("give two --group, or --a-group/--b-group, not both"), param_hint="--group")
    if len(groups) == 1 and b_group:
        raise typer.BadParameter(gettext("--group (once) is B's group; --b-group says it again"),
                                 param_hint="--group")
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
            raise ScenarioError(gettext("{file}: drd diff compares Dračí doupě II scenarios (this one is "
                                        "{system})").format(file=file, system=loaded.system))
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
    from ._common import origin_text

    return origin_text(o) if o else ""


def _setting(value: object, origin: Optional[str]) -> str:
    """A rule's value in profile A or B with where it comes from; a parameter of a plugin that is
    off in that profile has no value: "–" (plugin off)."""
    from ..i18n import _

    if value is None and not origin:
        return _("– (plugin off)")
    where = _origin(origin)
    return f"{_value(value)} ({where})" if where else _value(value)


def _value(v: object) -> str:
    from ..i18n import _

    if v is True:
        return _("on")
    if v is False:
        return _("off")
    return str(v)


def _word(table: dict, key: object) -> str:
    """`table[key]` in the active language (the key itself when the table lacks it)."""
    from ..i18n import _

    return _(table[key]) if key in table else str(key)


def _render(report: dict) -> None:
    """The side-by-side report for the table (rich; colour only on a terminal, NO_COLOR respected)."""
    from rich.markup import escape
    from rich.table import Table

    from ..render.fit import fit

    from ..i18n import _
    from ._common import choose_word, make_console

    console = make_console()
    names = report["names"]
    a, b = report["a"], report["b"]
    steps = _step_names(report)
    console.print(_("[bold]{title}[/bold] — the same dice (seed {seed}), choices {choose}").format(
        title=escape(str(report["title"])), seed=report["seed"], choose=choose_word(report["choose"])))
    console.print(_("  profile A: {describe}").format(describe=a["profile"]["describe"]))
    console.print(_("  profile B: {describe}").format(describe=b["profile"]["describe"]))

    rules = Table(title=_("Rules that differ"), title_justify="left")
    rules.add_column(_("rule"))
    rules.add_column(_("profile A"))
    rules.add_column(_("profile B"))
    for r in report["rule_differences"]:
        rules.add_row(r["setting"], _setting(r["a"], r["a_origin"]), _setting(r["b"], r["b_origin"]))
    if report["rule_differences"]:
        console.print(fit(rules))
    else:
        console.print(_("Rules: both profiles have the same settings (the scenario can override a group and "
                        "--set; see `drd rules show`)."))

    for side, label in ((a, "A"), (b, "B")):
        if "error" in side:
            console.print(_("[red]Profile {label}: the rules forbid it[/red] (exit {code} for drd resolve) — ").format(
                label=label, code=side["error"]["exit_code"]) + escape(side["error"]["text"]))
    for side, label, other in ((a, "A", b), (b, "B", a)):
        if "result" in side and "error" in other:
            _render_one(console, side["result"], side["after"], label, names)

    diffs = [d for d in report["differences"] if d["what"] != "refused"]
    if diffs:
        t = Table(title=_("What changes"), title_justify="left")
        t.add_column(_("step"))
        t.add_column(_("what"))
        t.add_column(_("profile A"))
        t.add_column(_("profile B"))
        for d in diffs:
            step = steps.get(d["step"], d["step"]) if d["step"] else _("end")
            t.add_row(step, _row_label(d, names), _cell(d, "a", names), _cell(d, "b", names))
        console.print(fit(t))
    elif "result" in a and "result" in b:
        console.print(_("[green]No difference[/green]: with the same dice everything ends the same."))
    same = report["identical"]
    if same["steps"] or same["participants"]:
        console.print(_("Unchanged: steps {steps}; final state {participants}").format(
            steps=", ".join(steps.get(sid, sid) for sid in same["steps"]) or "—",
            participants=", ".join(names.get(p, p) for p in same["participants"]) or "—"))


def _step_names(report: dict) -> dict:
    """Step id → what a reader calls the step (its title or who acts in it; render/values.py)."""
    from ..render.values import step_name

    names = report["names"]
    out: dict = {}
    for side in (report["b"], report["a"]):
        for step in (side.get("result") or {}).get("steps") or []:
            title = step_name(step, lambda pid: names.get(pid, pid))
            if title:
                out[step["id"]] = title
    return out


def _row_label(d: dict, names: dict) -> str:
    """What a row of the differences is about, names in the nominative (docs/i18n.md): `Mistr Hanuš:
    hod`, `Mistr Hanuš ✗ Nejstarší zlobr: kdo vyhrává dvojici`, `vyčerpání`."""
    from ..i18n import _

    what = _word(FIELD, d.get("field")) if d["what"] == "final" and d.get("field") in FIELD \
        else _word(WHAT, d["what"])
    if not d.get("who"):
        return what
    who = names.get(d["who"], d["who"])
    if d["what"] == "pair":
        x, _sep, y = d["who"].partition(" vs ")
        who = _("{a} ✗ {c}").format(a=names.get(x, x), c=names.get(y, y))
    return _("{who}: {what}").format(who=who, what=what)


def _render_one(console, result: dict, after: dict, label: str, names: dict) -> None:  # noqa: ANN001
    """What the profile that resolved gives, when the other one was refused."""
    from rich.table import Table

    from ..render.fit import fit

    from ..i18n import _

    from ..render.values import step_name

    t = Table(title=_("Profile {label} (the other profile refused)").format(label=label), title_justify="left")
    t.add_column(_("step"))
    t.add_column(_("actions"))
    t.add_column(_("Ohrožení after the step"))
    for step in result["steps"]:
        verdicts = ", ".join(f"{names.get(p, p)} " + (f"[green]{_('SUCCESS')}[/green]" if a.get("success") else
                                                       f"[red]{_('FAILURE')}[/red]") for p, a in step["actions"].items())
        ohr = ", ".join(f"{names.get(p, p)} {v['ohrozeni']}" for p, v in (after.get(step["id"]) or {}).items())
        t.add_row(step_name(step, lambda pid: names.get(pid, pid)) or step["id"], verdicts or "—", ohr)
    console.print(fit(t))


def _cell(d: dict, side: str, names: dict) -> str:
    from ..i18n import _

    v = d[side]
    what = d["what"]
    if v is None:
        return "—"
    if what == "success":
        return f"[green]{_('SUCCESS')}[/green]" if v else f"[red]{_('FAILURE')}[/red]"
    if what == "step":
        return _word(STEP_RAN, v)
    if what == "pair":
        w = names.get(v["winner"], v["winner"])
        extra = _(" (tie)") if v["tie"] else ""
        extra += _(" after a reroll") if v["reroll"] else ""
        return _("{winner} wins {a}:{b}{extra}").format(winner=w, a=v["totals"][0], b=v["totals"][1], extra=extra)
    if what == "exhaustions":
        if not v:
            return _("no one")  # nominative in Czech (nikdo), unlike "nobody" hit (nikoho)
        return "\n".join(_("{who} (against {vs}): {cost} {pool}, Ohrožení {before}→{after}").format(
            who=names.get(e["by"], e["by"]), vs=_("the test") if e["vs"] == "test" else names.get(e["vs"], e["vs"]),
            cost=e["cost"], pool=_word(FIELD, e["pool"]), before=e["ohrozeni"][0], after=e["ohrozeni"][1])
            for e in v)
    if what == "affected":
        return ", ".join(names.get(x, x) for x in v) or _("nobody")
    if isinstance(v, list):
        return ", ".join(str(x) if not isinstance(x, dict) else str(x.get("name", x)) for x in v) or "—"
    return str(v)
