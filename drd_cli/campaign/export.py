"""`drd kronika export`: a session's chronicle entries as one document for the group.

* `md`: Markdown for Obsidian or a wiki: YAML front matter, one section per entry with an anchor
  and links to the entries before and after, each conflict's transcript (headings one level down)
  and what changed on each character.
* `html`: one standalone page styled like the transcripts.
* `discord`: messages of at most 2,000 characters each, split at step boundaries (a step longer
  than that at line boundaries), words rather than colours; `--view player` leaves the GM's
  secrets out (the players' view of each transcript), the GM's view puts secret steps in spoiler
  tags.
"""

from __future__ import annotations

import contextlib
import html
import io
from collections.abc import Iterator
from typing import Any

from ..i18n import _
from . import chronicle
from .apply import kind_word
from .entities import change_lines, character_namer

DISCORD_LIMIT = 2000


def selected(campaign: Any, since: int | None) -> list[dict]:
    """Entries from number `since` on; by default those after the last export. Undo entries and
    the entries they took back are left out (the chronicle keeps them)."""
    start = since if since is not None else chronicle.last_export(campaign) + 1
    return [e for e in chronicle.entries(campaign) if e["number"] >= start and e["kind"] != "undo" and not e["undone"]]


def _title(entry: dict, name: Any = str) -> str:
    if entry["kind"] == "conflict":
        return str(entry.get("title") or entry.get("file"))
    who = ", ".join(name(ident) for ident in entry.get("characters") or {})
    return f"{kind_word(entry['kind'])}: {who}"


def _result(campaign: Any, entry: dict, view: str) -> dict | None:
    if entry["kind"] != "conflict":
        return None
    if view == "player" and entry.get("player_result"):
        found = chronicle.read_result(campaign, {"result": entry["player_result"]})
        if found is not None:
            return found
    return chronicle.read_result(campaign, entry)


def _changes(entry: dict, name: Any = str) -> list[str]:
    lines = []
    for ident, change in (entry.get("characters") or {}).items():
        for line in change_lines(change):
            lines.append(f"{name(ident)}: {line}")
    if entry.get("reason"):
        lines.append(_("reason: {text}").format(text=entry["reason"]))
    return lines


def markdown(campaign: Any, items: list[dict], view: str) -> str:
    from ..render.md import render_markdown

    name = character_namer(campaign)

    heading, people = _("Chronicle"), _("Characters")
    out = ["---", f"title: {campaign.config.name}", f"entries: [{', '.join(str(e['number']) for e in items)}]",
           f"exported: {chronicle.now()}", "tags: [drd, kronika]", "---", "",
           f"# {heading}: {campaign.config.name}", ""]
    for i, e in enumerate(items):
        out += [f'<a id="kronika-{e["number"]}"></a>', f"## {e['number']}. {_title(e, name)}", "",
                f"*{e['when']} · {e['who']}*" + (f" · `{e['file']}`" if e.get("file") else ""), ""]
        links = []
        if i > 0:
            links.append(f"[← {items[i - 1]['number']}. {_title(items[i - 1], name)}](#kronika-{items[i - 1]['number']})")
        if i + 1 < len(items):
            links.append(f"[{items[i + 1]['number']}. {_title(items[i + 1], name)} →](#kronika-{items[i + 1]['number']})")
        if links:
            out += [" · ".join(links), ""]
        result = _result(campaign, e, view)
        if result is not None:
            text = render_markdown(result)
            out += ["#" + line if line.startswith("#") else line for line in text.splitlines()] + [""]
        changes = _changes(e, name)
        if changes:
            out += [f"**{people}**", ""] + [f"- {c}" for c in changes] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


def html_page(campaign: Any, items: list[dict], view: str) -> str:
    from ..render.html import CSS, render_html

    name = character_namer(campaign)

    esc = html.escape
    parts = ["<!DOCTYPE html>", "<html>", "<head>", '<meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{esc(campaign.config.name)}</title>", f"<style>\n{CSS}\n</style>", "</head>", "<body>",
             f"<h1>{esc(_('Chronicle'))}: {esc(campaign.config.name)}</h1>"]
    for e in items:
        parts += [f'<article id="kronika-{e["number"]}">', f"<h2>{e['number']}. {esc(_title(e, name))}</h2>",
                  f"<p><em>{esc(e['when'])} · {esc(str(e['who']))}</em></p>"]
        result = _result(campaign, e, view)
        if result is not None:
            page = render_html(result)
            body = page.split("<body>", 1)[-1].rsplit("</body>", 1)[0]
            parts.append(body)
        changes = _changes(e, name)
        if changes:
            parts += ["<ul>"] + [f"<li>{esc(c)}</li>" for c in changes] + ["</ul>"]
        parts.append("</article>")
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _step_text(step: dict) -> str:
    from rich.console import Console

    from ..render.terminal import render_step

    buffer = io.StringIO()
    Console(file=buffer, width=72, color_system=None, no_color=True, highlight=False, emoji=False).print(
        render_step(step))
    return buffer.getvalue().rstrip()


def discord(campaign: Any, items: list[dict], view: str) -> list[str]:
    """The entries as Discord messages (each ≤ 2,000 characters)."""
    name = character_namer(campaign)
    messages: list[str] = []
    for e in items:
        head = f"**{e['number']}. {_title(e, name)}** · {e['when'][:10]}"
        changes = _changes(e, name)
        result = _result(campaign, e, view)
        blocks = [head]
        if result is not None:
            secret = _secret_steps(campaign, e) if view == "gm" else set()
            with _names_of(result):
                for step in result.get("steps") or []:
                    if step.get("secret") is True:
                        blocks.append(_("*(a step the players do not see)*"))
                        continue
                    text = "```\n" + _step_text(step).replace("```", "'''") + "\n```"
                    if (step.get("round"), step.get("id")) in secret:
                        text = "||" + text + "||"
                    blocks.append(text)
        if changes:
            blocks.append("\n".join(f"- {c}" for c in changes))
        messages += _pack(blocks)
    return messages


@contextlib.contextmanager
def _names_of(result: dict) -> Iterator[None]:
    """The participants' names (and the abilities' titles) for steps rendered one by one, as the
    whole transcript has them (drd_cli/render/text.py `build`)."""
    from ..render.values import _PEOPLE, _TITLES

    participants, names = result.get("participants"), result.get("titles")
    people = _PEOPLE.set(participants if isinstance(participants, dict) else {})
    titles = _TITLES.set(names if isinstance(names, dict) else {})
    try:
        yield
    finally:
        _PEOPLE.reset(people)
        _TITLES.reset(titles)


def _secret_steps(campaign: Any, entry: dict) -> set:
    """(round, id) of the steps the players' view hides, from the stored players' result."""
    if not entry.get("player_result"):
        return set()
    player = chronicle.read_result(campaign, {"result": entry["player_result"]}) or {}
    return {(s.get("round"), s.get("id")) for s in player.get("steps") or [] if s.get("secret") is True}


def _pack(blocks: list[str]) -> list[str]:
    """Blocks joined into messages of at most DISCORD_LIMIT characters, never splitting a block
    that fits in one; a longer block is cut at line boundaries."""
    pieces: list[str] = []
    for block in blocks:
        if len(block) <= DISCORD_LIMIT:
            pieces.append(block)
            continue
        fence = block.startswith("```") or block.startswith("||```")
        lines, current = block.strip("|").strip("`").strip("\n").splitlines(), ""
        for line in lines:
            line = line[:DISCORD_LIMIT - 20]
            if len(current) + len(line) + 1 > DISCORD_LIMIT - 20:
                pieces.append(("```\n" + current + "\n```") if fence else current)
                current = ""
            current = f"{current}\n{line}" if current else line
        if current:
            pieces.append(("```\n" + current + "\n```") if fence else current)
    messages: list[str] = []
    for piece in pieces:
        if messages and len(messages[-1]) + 1 + len(piece) <= DISCORD_LIMIT:
            messages[-1] += "\n" + piece
        else:
            messages.append(piece)
    return messages
