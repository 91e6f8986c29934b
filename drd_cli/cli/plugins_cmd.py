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


def describe(plugin_dirs_: list[str] | None = None, group: str | None = None) -> list[dict]:
    """One record per plugin found, sorted by id (the data behind `drd plugins --json`).

    Every plugin is listed, also those that fail to load (`status: broken`, `error`) and those that
    clash: two plugins claiming one id (each is listed, with its distribution), one parameter or one
    step key (`clash`: a list of ``{"what": "id" | "param" | "step", "name": …, "with": …}``, where
    `with` names the other plugin — its distribution for an id — or ``core``).
    With `group`, its plugin folders too: those of an untrusted profile are listed with status
    `untrusted` and the command that trusts it, and are not imported (drd_cli/trust.py).
    """
    from ..plugins import add_untrusted, discover
    from ..rules import BUILTIN_PLUGINS, CORE_PARAMS

    from ..plugins.choice import chosen

    dirs = list(plugin_dirs_ or [])
    untrusted = None
    layers = []
    if group:
        from ..groups import group_layer
        from ..trust import split_group_dirs

        layer, group_dirs = group_layer(group)
        layers.append(layer)
        gdirs, untrusted = split_group_dirs(group, group_dirs)
        dirs += [d for d in gdirs if d not in dirs]
    entries = discover(dirs, *chosen(layers))      # with the choices of `--use` (DRD_USE) and the group
    if untrusted is not None:
        add_untrusted(entries, untrusted)
        entries = dict(sorted(entries.items()))
    out: list[dict] = []
    for pid, first in entries.items():
        replaced = [first.replaces] if getattr(first, "replaces", None) is not None else []
        set_aside = [e for e in getattr(first, "passed_over", []) if e not in replaced]
        for entry in [first, *getattr(first, "rivals", []), *replaced, *set_aside]:
            if untrusted is not None and pid in untrusted.ids and entry.local and entry.dist is None \
                    and entry.value == untrusted.ids[pid]:
                out.append({"id": pid, "title": None, "kind": None,
                            "enabled_by_default": BUILTIN_PLUGINS.get(pid, True), "distribution": "local",
                            "version": None, "source": entry.value, "api_version": None, "hooks": [], "rules": [],
                            "params": {}, "step_types": [], "clash": [], "status": "untrusted",
                            "error": untrusted.reason_text, "trust": untrusted.status.command})
                continue
            out.append(_record(pid, entry, first, entries))
    _mark_clashes(out, CORE_PARAMS)
    return out


def _record(pid: str, entry: Any, first: Any, entries: dict) -> dict:
    """The `drd plugins` record of one plugin entry (loads it; a failure makes it `broken`)."""
    from ..plugins import PluginError, _plain, declared_params, default_flag, hook_failed, load_plugin
    from ..rules import BUILTIN_PLUGINS

    rec: dict[str, Any] = {"id": pid, "title": None, "kind": None,
                           "enabled_by_default": BUILTIN_PLUGINS.get(pid, True),
                           "distribution": entry.dist or ("local" if entry.local else None),
                           "version": entry.version, "source": entry.value, "api_version": None, "hooks": [],
                           "rules": [], "params": {}, "step_types": [], "clash": [], "status": "ok", "error": None,
                           "replaces": None, "replaced_by": None, "chosen": None}
    for other in [first, *first.rivals]:
        if other is not entry and entry in (first, *first.rivals):
            rec["clash"].append({"what": "id", "name": pid, "with": other.where})
    # docs/plugins.md "Ids and clashes": a third-party plugin in a built-in's place, a choice made.
    if entry is first and first.replaces is not None:
        rec["replaces"] = first.replaces.where
    if entry is first.replaces:
        rec["replaced_by"] = first.where
    if entry in first.passed_over:
        rec["chosen"] = first.where
    if entry is first and first.passed_over:
        rec["chosen"] = first.where
    try:
        module = load_plugin(entry, clash_ok=True)
    except PluginError as exc:
        rec["status"], rec["error"] = "broken", _plain(exc)
        return rec
    rec["hooks"] = sorted(name for name in dir(module)
                          if name.startswith("drd_") and hasattr(getattr(module, name), "drd_impl"))
    info = entry.info or {}
    rec["title"] = info.get("title")
    rec["kind"] = info.get("kind")
    rec["rules"] = list(info.get("rules", []))
    rec["api_version"] = info.get("api_version", 1)
    try:
        if pid not in BUILTIN_PLUGINS:
            rec["enabled_by_default"] = default_flag(pid, info)
        specs = declared_params(pid, module)
        rec["params"] = {name: {"default": s.default, "allowed": s.describe(), "rule": s.rule, "help": s.help}
                         for name, s in specs.items()}
        if "drd_step_types" in rec["hooks"]:
            try:
                rec["step_types"] = sorted(module.drd_step_types() or {})
            except Exception as exc:  # noqa: BLE001 - third-party code: report, do not crash
                raise hook_failed(pid, "drd_step_types", exc, {pid: entry}) from None
    except PluginError as exc:
        rec["status"], rec["error"] = "broken", _plain(exc)
    return rec


def _mark_clashes(records: list[dict], core_params: dict) -> None:
    """Adds to each record's `clash` the parameters and step keys another plugin (or the core) also has."""
    from ..scenario.models import core_step_keys

    core_steps = set(core_step_keys())
    for what, key, core in (("param", "params", set(core_params)), ("step", "step_types", core_steps)):
        owners: dict[str, list[dict]] = {}
        for rec in records:
            for name in rec[key]:
                owners.setdefault(name, []).append(rec)
        for name, recs in sorted(owners.items()):
            for rec in recs:
                # Two claimants of one id share their parameters: the id clash already says it.
                others = [_who(o) for o in recs if o is not rec and o["id"] != rec["id"]]
                if name in core:
                    others.insert(0, "core")
                rec["clash"] += [{"what": what, "name": name, "with": o} for o in others]


def _who(rec: dict) -> str:
    """A plugin record named in another's clash: its id (and its distribution when two share the id)."""
    return rec["id"] if not any(c["what"] == "id" for c in rec["clash"]) else f"{rec['id']} ({rec['distribution']})"


# The kinds a plugin declares in `drd_plugin_info` (an English code), as the listing says them.
KINDS = {"ability": N_("ability"), "rule area": N_("rule area"), "step type": N_("step type"),
         "house rule": N_("house rule")}

HELP = N_("List every plugin: id, title, kind, on by default, distribution, version, hooks.\n\n"
          "A plugin that fails to import is listed as broken (with how to disable it); plugins that clash (one id, "
          "parameter or step type claimed twice) are all listed, marked CLASH. Set DRD_TRACE_PLUGINS=1 "
          "on any command to print every hook call and its plugins on stderr.")


def plugins(
    json_out: bool = typer.Option(False, "--json", help=N_("Print the list as JSON.")),
    kind: Optional[str] = typer.Option(None, "--kind", metavar="KIND",
                                       help=N_("Only plugins of this kind: `ability`, `rule area`, `house rule`, "
                                               "`step type` (or the kind's Czech word).")),
    plugins_dir: Optional[List[str]] = typer.Option(None, "--plugins-dir", metavar="DIR",
                                                    help=N_("Also load local plugins from DIR (repeatable).")),
    group: Optional[str] = typer.Option(None, "--group", metavar="G",
                                        help=N_("Also list the plugin folders of this group profile (imported only "
                                                "when the profile is trusted: drd group trust G).")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """List every plugin: id, title, kind, on by default, distribution, version, hooks.

    A plugin that fails to import is listed as broken (with how to disable it); plugins that
    clash (one id, parameter or step type claimed twice) are all listed, marked CLASH. Set
    DRD_TRACE_PLUGINS=1 on any command to print every hook call and its plugins on stderr.
    """
    from ._common import guarded

    use_language(lang)

    with guarded():
        records = describe(plugin_dirs(plugins_dir), group=group)
        if kind is not None:
            records = [r for r in records if r["kind"] == _kind_code(kind, records)]
        if json_out:
            import json

            typer.echo(json.dumps(records, ensure_ascii=False, indent=2))
            return
        from ..i18n import _

        from ..abilities import allowed_text, value_text

        cards = _ability_cards(records)
        columns = (_("id"), _("kind"), _("default"), _("distribution"))

        def kind_of(r: dict) -> str:
            return _(KINDS[r["kind"]]) if r["kind"] in KINDS else (r["kind"] or "-")

        # The columns are as wide as their longest entry, in the run's language.
        wid = max([20, len(columns[0])] + [len(r["id"]) for r in records])
        wkind = max([len(columns[1])] + [len(kind_of(r)) for r in records])
        won = max(len(columns[2]), len(_("on")), len(_("off")))
        typer.echo(f"{columns[0]:<{wid}} {columns[1]:<{wkind}} {columns[2]:<{won}} {columns[3]}")
        for r in records:
            on = _("on") if r["enabled_by_default"] else _("off")
            dist = r["distribution"] or "?"
            if r["version"]:
                dist += f" {r['version']}"
            head = f"{r['id']:<{wid}} {kind_of(r):<{wkind}} {on:<{won}} {dist}"
            if r["clash"]:
                head += "  " + _("CLASH")
            if r.get("replaces"):
                head += "  " + _("replaces the built-in one ({dist})").format(dist=r["replaces"])
            typer.echo(head + (f"  — {r['title']}" if r["title"] else ""))
            if r["status"] == "untrusted":
                typer.echo(f"    {r['error']} → {r['trust']}")
            _echo_choice(r)
            for c in r["clash"]:
                words = CLASH_WORDS["core " + c["what"]] if c["with"] == "core" else CLASH_WORDS[c["what"]]
                typer.echo("    " + _(words).format(name=c["name"], other=c["with"]))
            if r["status"] == "broken":
                typer.echo(_("    BROKEN: {error}").format(error=r["error"]))
            elif r["hooks"]:
                typer.echo(_("    hooks: {hooks}").format(hooks=", ".join(r["hooks"])))
            card = cards.get(r["id"])
            if card is not None:
                from ..abilities import STATUS_WORDS
                from .abilities_cmd import family_text

                typer.echo(_("    ability: {family}, class {klass}, {status}").format(
                    family=family_text(card.get("family")), klass=card.get("class") or "–",
                    status=_(STATUS_WORDS.get(card.get("status"), "shipped"))))
            for name, p in r["params"].items():
                typer.echo(_("    parameter {name} = {default} ({allowed}; {rule})").format(
                    name=name, default=value_text(p["default"]), allowed=allowed_text(p["allowed"]), rule=p["rule"]))


def _echo_choice(r: dict) -> None:
    """The line under a plugin that another one of its id replaces, or that a choice set aside."""
    from ..i18n import _

    if r.get("replaced_by"):
        typer.echo("    " + _("replaced by {dist} (what you installed wins; `--use {id}={own}` uses this "
                              "one)").format(dist=r["replaced_by"], id=r["id"], own=r["distribution"]))
    elif r.get("chosen") and r["chosen"] != (r["distribution"] or r["source"]):
        typer.echo("    " + _("not used: {dist} is chosen for this id").format(dist=r["chosen"]))


def _kind_code(kind: str, records: list[dict]) -> str:
    """The kind code `--kind` names: the code (`ability`, `rule area`) or its word in either language
    (`schopnost`, `oblast pravidel`); another word is exit 2 listing the kinds there are."""
    from ..errors import COMMAND_LINE, Location, ScenarioError
    from ..i18n import _, using

    codes = sorted({r["kind"] for r in records if r["kind"]} | set(KINDS))
    if kind in codes:
        return kind
    for lang in ("cs", "en"):
        with using(lang):
            words = {_(KINDS[c]).lower(): c for c in KINDS}
        if kind.strip().lower() in words:
            return words[kind.strip().lower()]
    import difflib

    shown = [_(KINDS[c]) if c in KINDS else c for c in codes]        # the run's language: either is accepted
    close = difflib.get_close_matches(kind, shown, n=1)
    raise ScenarioError(_("unknown plugin kind {kind}").format(kind=repr(kind)), location=Location(COMMAND_LINE),
                        hint=(_("did you mean {option}?").format(option=repr(close[0])) + " " if close else "")
                        + _("the kinds: {kinds}").format(kinds=", ".join(_(KINDS[c]) if c in KINDS else c
                                                                           for c in codes)))


def _ability_cards(records: list[dict]) -> dict:
    """{id: card} of the listed ability plugins (docs/abilities.md)."""
    if not any(r["kind"] == "ability" for r in records):
        return {}
    from ..abilities import installed_catalogue

    return installed_catalogue()


CLASH_WORDS = {
    "id": N_("CLASH: the id {name} is also claimed by {other}; a run using it fails until you choose one: `--use {name}=DISTRIBUTION`"),
    "param": N_("CLASH: the parameter {name} is also declared by {other}; a run enabling both fails"),
    "step": N_("CLASH: the step type {name} is also provided by {other}; a run enabling both fails"),
    "core param": N_("CLASH: {name} is also a core parameter; a run enabling this plugin fails"),
    "core step": N_("CLASH: {name} is also a core step type; this plugin's step type cannot be used"),
}


def mount(app: typer.Typer) -> None:
    """Adds `drd plugins` to the root app."""
    app.command("plugins", help=HELP)(plugins)
