"""The transcript a table reads: rendered with rich ONLY from the result dict (SCENARIO-FORMAT §7).

Nothing here looks at the scenario or the engine: whatever the result says is shown, in Czech
game terms. Success and failure are written as words (ÚSPĚCH / NEÚSPĚCH) as well as coloured, so
the transcript reads the same without colour. Optional step keys (`hide`, `long`, Dakara
`outcome`/`margin`/`complication`/`injury`, `race`) are shown when present; keys this module does
not know are still listed, so nothing in the result is silently dropped.
"""

from __future__ import annotations

import io
from typing import Any

from rich import box
from rich.console import Console, Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

POOLS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "sudba": "Sudba", "vyhoda": "Výhoda",
         "vyhody": "Výhody", "free": "zdarma"}
KINDS = {"test": "zkouška", "contest": "střet", "race": "závod", "declare": "zjevná akce",
         "challenge": "výzva", "hide": "ukrývání", "skill": "dovednost (Dakara)"}
SOURCES = {"given": "ze souboru", "seeded": "náhodně (seed)", "entered": "zadáno u stolu"}
LONG_STATUS = {"completed": "dokončena", "continuing": "pokračuje", "interrupted": "přerušena"}
SITUATIONS = {"unaware": "nic netuší (S1)", "chance": "má šanci si všimnout (S2)", "search": "pátrá (S3)"}
RESOLVED_AS = {"none": "bez hodu", "challenge": "výzva", "test": "zkouška", "contest": "střet"}
OUTCOMES = {
    "auto-success": ("ÚSPĚCH bez hodu", "bold green"), "success": ("ÚSPĚCH", "bold green"),
    "win": ("VÝHRA", "bold green"), "draw": ("REMÍZA", "bold yellow"), "failure": ("NEÚSPĚCH", "bold red"),
    "loss": ("PROHRA", "bold red"), "withdrawn": ("UPUŠTĚNO", "dim"), "impossible": ("NEMOŽNÉ", "bold red"),
}
MANOEUVRES = {"presne": "přesně", "rozsahle": "rozsáhle", "obrana": "obrana", "mocne": "mocně", "lstive": "lstivě"}
COMPLICATIONS = {"none": "bez komplikací", "mild": "mírné komplikace", "serious": "vážné komplikace"}

# Step keys rendered by a dedicated section; anything else is listed generically at the end.
_KNOWN_STEP_KEYS = {"id", "round", "kind", "rolls", "order", "manoeuvres", "actions", "exhaustions", "log",
                    "hide", "race", "outcome", "margin", "complication", "injury", "note",
                    "pairs"}   # pairs: the R-CONT log lines already say who beat whom


def pool_name(pool: Any) -> str:
    """`telo` → `Tělo` (unknown names unchanged)."""
    return POOLS.get(str(pool), str(pool))


def _words(items: Any) -> str:
    if not items:
        return "–"
    if isinstance(items, (list, tuple)):
        return ", ".join(_item(i) for i in items)
    return _item(items)


def _item(value: Any) -> str:
    if isinstance(value, dict):
        if "name" in value:
            extra = []
            if value.get("rounds") is not None:
                extra.append(f"ještě {value['rounds']} kol")
            if value.get("armour"):
                extra.append(f"zbroj {value['armour']}")
            return f"{value['name']} ({', '.join(extra)})" if extra else str(value["name"])
        return ", ".join(f"{k}: {_item(v)}" for k, v in value.items())
    if value is True:
        return "ano"
    if value is False:
        return "ne"
    if value is None:
        return "–"
    return str(value)


def _verdict(success: Any) -> Text:
    if success is True:
        return Text("ÚSPĚCH", style="bold green")
    if success is False:
        return Text("NEÚSPĚCH", style="bold red")
    return Text(str(success))


# --------------------------------------------------------------------------- step sections

def _heading(step: dict) -> Rule:
    kind = step.get("kind", "?")
    title = f"Krok {step.get('id', '?')} · kolo {step.get('round', '?')} · {KINDS.get(kind, kind)}"
    return Rule(Text(title, style="bold"), align="left")


def _rolls(rolls: dict) -> Table:
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False, title=None)
    table.add_column("Hod", no_wrap=True)
    table.add_column("Celkem", justify="right")
    table.add_column("Kostky", justify="right")
    table.add_column("Bonus", justify="right")
    table.add_column("Zdroj")
    for who, roll in rolls.items():
        if not isinstance(roll, dict):
            table.add_row(str(who), str(roll), "–", "–", "–")
            continue
        dice = roll.get("dice")
        dice_text = " + ".join(map(str, dice)) if isinstance(dice, list) and dice else "–"
        bonus = roll.get("bonus")
        source = roll.get("source")
        table.add_row(str(who), Text(str(roll.get("total", "?")), style="bold"), dice_text,
                      "–" if bonus is None else f"{bonus:+d}" if isinstance(bonus, int) else str(bonus),
                      SOURCES.get(source, str(source) if source is not None else "–"))
    return table


def _actions(actions: dict) -> list[Text]:
    lines = []
    for who, action in actions.items():
        if not isinstance(action, dict):
            lines.append(Text(f"  {who}: {_item(action)}"))
            continue
        line = Text("  ")
        line.append(str(who), style="bold")
        line.append(": ")
        line.append_text(_verdict(action.get("success")))
        if action.get("affected"):
            line.append(f"; zasáhla: {_words(action['affected'])}")
        if action.get("kept_up") is not None:
            line.append("; udržel(a) tempo" if action["kept_up"] else "; nestačil(a)")
        long = action.get("long")
        if isinstance(long, dict):
            status = LONG_STATUS.get(long.get("status"), str(long.get("status")))
            line.append(f"; dlouhá akce {long.get('id', '?')}: {status}")
            if long.get("barred"):
                line.append(f", vzdali se: {_words(long['barred'])}")
            if long.get("retry"):
                line.append(", může to zkusit znovu")
        for key, value in action.items():
            if key not in ("success", "affected", "kept_up", "long"):
                line.append(f"; {key}: {_item(value)}")
        lines.append(line)
    return lines


def _manoeuvre(m: Any) -> str:
    if not isinstance(m, dict):
        return str(m)
    name = str(m.get("name", "?"))
    text = f"{m.get('by', '?')}: {MANOEUVRES.get(name, name)}"
    paid, cost, via = m.get("paid"), m.get("cost"), m.get("via")
    if paid == "free" or cost == 0:
        text += " zdarma" + (f" ({via})" if via else "")
    elif paid is not None:
        text += f", platí {cost if cost is not None else '?'} {pool_name(paid)}" + (f" ({via})" if via else "")
    return text


def _exhaustion(e: dict) -> Text:
    line = Text("  ")
    line.append(str(e.get("by", "?")), style="bold")
    vs = e.get("vs")
    line.append(" se vyčerpává " + ("proti zkoušce (9)" if vs == "test" else f"proti {vs}"))
    line.append(f": {e.get('cost', '?')} {pool_name(e.get('pool', '?'))}")
    ohro = e.get("ohrozeni")
    if isinstance(ohro, (list, tuple)) and len(ohro) == 2:
        line.append(f", Ohrožení {ohro[0]}→{ohro[1]}", style="yellow")
    protected = e.get("protected")
    if protected:
        line.append(f"; chrání: {_words(protected)}")
    if e.get("denied"):
        line.append(f"; ruší výhodu vítěze: {_words(e['denied'])}")
    gained = e.get("gained") or {}
    jizva = gained.get("jizva") if isinstance(gained, dict) else None
    if jizva:
        name = jizva.get("name", "?") if isinstance(jizva, dict) else str(jizva)
        gain = jizva.get("gain") if isinstance(jizva, dict) else None
        line.append(f"; Jizva „{name}“" + (f" (+{gain})" if gain is not None else ""), style="magenta")
    sacrifice = gained.get("sacrifice") if isinstance(gained, dict) else None
    if sacrifice:
        name = sacrifice.get("name", sacrifice) if isinstance(sacrifice, dict) else sacrifice
        gain = sacrifice.get("gain") if isinstance(sacrifice, dict) else None
        line.append(f"; obětuje {name}" + (f" (+{gain})" if gain is not None else ""), style="magenta")
    return line


def _hide(h: dict) -> list[Text]:
    lines = [Text(f"  Ukrývání: {SITUATIONS.get(h.get('situation'), _item(h.get('situation')))}, "
                  f"řešeno jako {RESOLVED_AS.get(h.get('resolved_as'), _item(h.get('resolved_as')))}")]
    revealed = h.get("revealed")
    if revealed is not None:
        word = Text("ODHALEN", style="bold red") if revealed else Text("SKRYT", style="bold green")
        line = Text("  ")
        line.append_text(word)
        if h.get("revealed_by"):
            line.append(f" (všiml si: {_words(h['revealed_by'])})")
        lines.append(line)
    if h.get("suspicion_added"):
        lines.append(Text(f"  nové podezření: {_words(h['suspicion_added'])}"))
    if h.get("suspicion_cleared"):
        lines.append(Text(f"  podezření zmizelo: {_words(h['suspicion_cleared'])}"))
    for key, value in h.items():
        if key not in ("situation", "resolved_as", "revealed", "revealed_by", "suspicion_added", "suspicion_cleared"):
            lines.append(Text(f"  {key}: {_item(value)}", style="dim"))
    return lines


def _race(race: Any) -> list[Text]:
    if isinstance(race, dict) and isinstance(race.get("faster_than"), dict):
        lines = []
        for who, slower in race["faster_than"].items():
            if slower:
                lines.append(Text(f"  {who} je rychlejší než {_words(slower)}"))
        for key, value in race.items():
            if key != "faster_than":
                lines.append(Text(f"  {key}: {_item(value)}", style="dim"))
        return lines or [Text("  nikdo nikoho nepředstihl")]
    return [Text(f"  závod: {_item(race)}")]


def _dakara(step: dict) -> list[Text]:
    lines = []
    if "outcome" in step:
        word, style = OUTCOMES.get(step["outcome"], (str(step["outcome"]).upper(), "bold"))
        line = Text("  Výsledek: ")
        line.append(word, style=style)
        if step.get("margin") is not None:
            line.append(f" (rozdíl {step['margin']:+d})" if isinstance(step["margin"], int) else f" ({step['margin']})")
        lines.append(line)
    if "complication" in step:
        lines.append(Text(f"  Komplikace: {COMPLICATIONS.get(step['complication'], _item(step['complication']))}"))
    if "injury" in step:
        lines.append(Text(f"  Zranění: {step['injury']}", style="red" if step["injury"] else ""))
    return lines


def render_step(step: dict) -> Group:
    """One step of the result as a rich renderable."""
    parts: list[Any] = [_heading(step)]
    if step.get("note"):
        parts.append(Text(f"  {step['note']}", style="italic"))
    if step.get("rolls"):
        parts.append(_rolls(step["rolls"]))
    if step.get("order"):
        parts.append(Text("  Pořadí: " + " → ".join(map(str, step["order"]))))
    if step.get("actions"):
        parts.append(Text("Akce:", style="bold"))
        parts.extend(_actions(step["actions"]))
    if step.get("manoeuvres"):
        parts.append(Text("Manévry:", style="bold"))
        parts.extend(Text("  " + _manoeuvre(m)) for m in step["manoeuvres"])
    if step.get("race") is not None:
        parts.append(Text("Závod:", style="bold"))
        parts.extend(_race(step["race"]))
    if isinstance(step.get("hide"), dict):
        parts.extend(_hide(step["hide"]))
    parts.extend(_dakara(step))
    if step.get("exhaustions"):
        parts.append(Text("Vyčerpání:", style="bold"))
        parts.extend(_exhaustion(e) if isinstance(e, dict) else Text(f"  {e}") for e in step["exhaustions"])
    extra = [k for k in step if k not in _KNOWN_STEP_KEYS]
    if extra:
        parts.append(Text("  " + "; ".join(f"{k}: {_item(step[k])}" for k in extra), style="dim"))
    if step.get("log"):
        parts.append(Text("Průběh:", style="bold"))
        for entry in step["log"]:
            line = Text("  ")
            if isinstance(entry, dict):
                if entry.get("rule"):
                    line.append(f"[{entry['rule']}] ", style="cyan")
                line.append(str(entry.get("text", "")))
            else:
                line.append(str(entry))
            parts.append(line)
    return Group(*parts)


# --------------------------------------------------------------------------- final state

def _pools_cell(state: dict) -> Text:
    parts = [f"{label} {state[key]}" for key, label in (("telo", "Tělo"), ("duse", "Duše"), ("vliv", "Vliv"),
                                                         ("sudba", "Sudba")) if state.get(key) is not None]
    return Text(", ".join(parts) if parts else "–")


def render_final(final: dict) -> Table:
    """The state of every participant after the last step.

    Tělo/Duše/Vliv (a hero) or Sudba (a creature) share one column, so the table stays
    readable in an 80-column terminal.
    """
    rows = list(final.items())
    states = [s for _, s in rows if isinstance(s, dict)]
    has = lambda key: any(key in s for s in states)  # noqa: E731
    table = Table(title="Stav na konci", box=box.SIMPLE_HEAD, title_justify="left", title_style="bold",
                  pad_edge=False, collapse_padding=True)
    table.add_column("Účastník", style="bold", no_wrap=True)
    columns: list[tuple[str, str]] = []
    if any(has(k) for k in ("telo", "duse", "vliv", "sudba")):
        columns.append(("pools", "Zdroje"))
        table.add_column("Zdroje", min_width=8)
    for key, label in (("ohrozeni", "Ohrožení"), ("vyhody", "Výhody"), ("injury", "Zranění"), ("dead", "Mrtev")):
        if has(key):
            columns.append((key, label))
            table.add_column(label, justify="right", no_wrap=True, min_width=len(label))
    for key, label in (("jizvy", "Jizvy"), ("conditions", "Stavy"), ("equipment", "Vybavení"),
                       ("suspicion", "Podezření")):
        # Suspicion matters only in hiding scenes: an all-empty column is left out.
        if has(key) and (key != "suspicion" or any(s.get(key) for s in states)):
            columns.append((key, label))
            table.add_column(label, min_width=min(len(label), 6))
    for who, state in rows:
        if not isinstance(state, dict):
            table.add_row(str(who), *["–"] * len(columns))
            continue
        cells: list[Any] = []
        for key, _ in columns:
            value = state.get(key)
            if key == "pools":
                cells.append(_pools_cell(state))
            elif key == "dead":
                cells.append(Text("ANO", style="bold red") if value else Text("ne"))
            elif value is None:
                cells.append("–")
            elif isinstance(value, (list, tuple)):
                cells.append(_words(value))
            else:
                cells.append(str(value))
        label = str(state.get("name", who)) if state.get("name") else str(who)
        table.add_row(label, *cells)
    return table


def _header(result: dict) -> Group:
    parts: list[Any] = []
    if result.get("title"):
        parts.append(Text(str(result["title"]), style="bold underline"))
    info = [f"systém {result.get('system', 'drd2')}"]
    if result.get("seed") is not None:
        info.append(f"seed {result['seed']}")
    parts.append(Text(" · ".join(info), style="dim"))
    rules = result.get("rules") or {}
    if rules.get("enabled"):
        parts.append(Text("Pravidla: " + ", ".join(map(str, rules["enabled"])), style="dim"))
    return Group(*parts)


def render(result: dict, console: Console) -> None:
    """Prints the whole transcript of `result` on `console`."""
    console.print(_header(result))
    for step in result.get("steps") or []:
        console.print()
        console.print(render_step(step) if isinstance(step, dict) else Text(str(step)))
    if result.get("final"):
        console.print()
        console.print(render_final(result["final"]))


def render_text(result: dict, *, color: bool = False, width: int = 100) -> str:
    """The transcript as a string (for `--output`, tests): no colour codes unless asked."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system="truecolor" if color else None,
                      force_terminal=color, no_color=not color, highlight=False, emoji=False)
    render(result, console)
    return buffer.getvalue()
