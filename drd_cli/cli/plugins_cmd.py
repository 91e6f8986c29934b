"""`drd plugins`: every plugin drd can find, what it is, and which hooks it implements.

Imports only typer at module level (startup speed); discovery, importing plugins and pluggy
happen inside the command. A plugin that fails to import is listed as broken, never a crash.
"""

from __future__ import annotations

import os
from typing import Any, List, Optional

import typer

from ._common import N_, Lang, lang_option, use_language

PLUGINS_DIR_ENV = "DRD_PLUGINS_DIR"
"""Extra local plugin folders (os.pathsep-separated); `drd --plugins-dir D …` sets it."""


def take_global_plugins_dir(argv: list[str]) -> list[str]:
    """Removes `--plugins-dir DIR` / `--plugins-dir=DIR` given before the command name and passes
    them on through DRD_PLUGINS_DIR, so every command (resolve, check, rules, …) sees them.

    Parsed by hand rather than as a root option: a typed root option would make typer import
    pydantic for `drd --help` and completion (startup speed is tested).
    """
    dirs: list[str] = []
    out: list[str] = []
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--plugins-dir" and i + 1 < len(argv):
            dirs.append(argv[i + 1])
            i += 2
            continue
        if arg.startswith("--plugins-dir="):
            dirs.append(arg.split("=", 1)[1])
            i += 1
            continue
        if not arg.startswith("-"):
            out.extend(argv[i:])     # the command name: the rest belongs to it
            break
        out.append(arg)
        i += 1
    if dirs:
        old = [d for d in os.environ.get(PLUGINS_DIR_ENV, "").split(os.pathsep) if d]
        os.environ[PLUGINS_DIR_ENV] = os.pathsep.join(old + dirs)
    return out


def plugin_dirs(extra: list[str] | None = None) -> list[str]:
    """Local plugin folders from `--plugins-dir` (global or per command) and DRD_PLUGINS_DIR."""
    dirs = [d for d in os.environ.get(PLUGINS_DIR_ENV, "").split(os.pathsep) if d]
    return dirs + [d for d in (extra or []) if d not in dirs]


def describe(plugin_dirs_: list[str] | None = None) -> list[dict]:
    """One record per plugin id, sorted by id (the data behind `drd plugins --json`)."""
    from ..plugins import PluginError, declared_params, default_states, discover, load_plugin

    entries = discover(plugin_dirs_ or [])
    states = default_states(entries)
    out = []
    for pid, entry in entries.items():
        rec: dict[str, Any] = {"id": pid, "title": None, "kind": None, "enabled_by_default": states.get(pid, True),
                               "distribution": entry.dist or ("local" if entry.local else None),
                               "version": entry.version, "source": entry.value, "hooks": [], "rules": [],
                               "params": {}, "status": "ok", "error": None}
        try:
            module = load_plugin(entry)
        except PluginError as exc:
            rec["status"] = "broken"
            rec["error"] = exc.format()
            out.append(rec)
            continue
        rec["hooks"] = sorted(name for name in dir(module)
                              if name.startswith("drd_") and hasattr(getattr(module, name), "drd_impl"))
        info = {}
        if "drd_plugin_info" in rec["hooks"]:
            try:
                info = module.drd_plugin_info() or {}
            except Exception as exc:  # noqa: BLE001 - third-party code: report, do not crash
                rec["status"] = "broken"
                rec["error"] = f"drd_plugin_info failed: {type(exc).__name__}: {exc}"
        rec["title"] = info.get("title")
        rec["kind"] = info.get("kind")
        rec["rules"] = list(info.get("rules", []))
        if rec["status"] == "ok":
            try:
                specs = declared_params(pid, module)
            except PluginError as exc:
                rec["status"], rec["error"] = "broken", exc.format()
                specs = {}
            rec["params"] = {name: {"default": s.default, "allowed": s.describe(), "rule": s.rule, "help": s.help}
                             for name, s in specs.items()}
        out.append(rec)
    return out


HELP = N_("List every plugin: id, title, kind, on by default, distribution, version, hooks.\n\n"
          "A plugin that fails to import is listed as broken (with how to disable it). Set DRD_TRACE_PLUGINS=1 "
          "on any command to print every hook call and its plugins on stderr.")


def plugins(
    json_out: bool = typer.Option(False, "--json", help=N_("Print the list as JSON.")),
    kind: Optional[str] = typer.Option(None, "--kind", metavar="KIND",
                                       help=N_("Only plugins of this kind: ability, rule area, step type.")),
    plugins_dir: Optional[List[str]] = typer.Option(None, "--plugins-dir", metavar="DIR",
                                                    help=N_("Also load local plugins from DIR (repeatable).")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """List every plugin: id, title, kind, on by default, distribution, version, hooks.

    A plugin that fails to import is listed as broken (with how to disable it). Set
    DRD_TRACE_PLUGINS=1 on any command to print every hook call and its plugins on stderr.
    """
    from ._common import guarded

    use_language(lang)

    with guarded():
        records = describe(plugin_dirs(plugins_dir))
        if kind is not None:
            records = [r for r in records if r["kind"] == kind]
        if json_out:
            import json

            typer.echo(json.dumps(records, ensure_ascii=False, indent=2))
            return
        from ..i18n import _

        cards = _ability_cards(records)
        for r in records:
            on = _("enabled") if r["enabled_by_default"] else _("disabled")
            dist = r["distribution"] or "?"
            if r["version"]:
                dist += f" {r['version']}"
            head = f"{r['id']:<20} {(r['kind'] or '-'):<10} {on:<8} {dist}"
            typer.echo(head + (f"  — {r['title']}" if r["title"] else ""))
            if r["status"] == "broken":
                typer.echo(_("    BROKEN: {error}").format(error=r["error"]))
            elif r["hooks"]:
                typer.echo(_("    hooks: {hooks}").format(hooks=", ".join(r["hooks"])))
            card = cards.get(r["id"])
            if card is not None:
                from ..abilities import STATUS_WORDS

                typer.echo(_("    ability: {family}, class {klass}, {status}").format(
                    family=card.get("family") or "–", klass=card.get("class") or "–",
                    status=_(STATUS_WORDS.get(card.get("status"), "shipped"))))
            for name, p in r["params"].items():
                typer.echo(_("    parameter {name} = {default} ({allowed}; {rule})").format(
                    name=name, default=p["default"], allowed=p["allowed"], rule=p["rule"]))


def _ability_cards(records: list[dict]) -> dict:
    """{id: card} of the listed ability plugins (docs/abilities.md)."""
    if not any(r["kind"] == "ability" for r in records):
        return {}
    from ..abilities import installed_catalogue

    return installed_catalogue()


def mount(app: typer.Typer) -> None:
    """Adds `drd plugins` to the root app."""
    app.command("plugins", help=HELP)(plugins)
