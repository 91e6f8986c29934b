"""`drd rules` (show and edit the effective rules) and `drd group new NAME`.

* `drd rules [FILE] [--group G] [--json]` — every plugin id and parameter in effect, with its
  origin: default, group NAME, scenario, command line.
* `drd rules enable|disable ID --group G`, `drd rules set KEY VALUE --group G` — edit the group
  profile in place (ruamel round-trip: comments and key order kept), atomically. An unknown id or
  parameter is exit 2 and the file is left unchanged.

Imports only typer at module level (startup speed).
"""

from __future__ import annotations

from typing import Any, List, Optional

import typer

from ._common import N_, Lang, lang_option, use_language, use_option
from ._help import DrdTyper
from ..citations import RULES_LAYERS

ACTIONS = ("show", "enable", "disable", "set")

group_app = DrdTyper(name="group", help=N_("Play-group profiles (groups/NAME.yaml)."), no_args_is_help=True)


HELP = N_("Show the rules in effect and where each setting comes from, or edit a group profile.")


def rules(
    args: Optional[List[str]] = typer.Argument(None, metavar="[FILE] | enable ID | disable ID | set KEY VALUE",
                                               help=N_("A scenario to show the rules for, or an edit of the group.")),
    group: Optional[str] = typer.Option(None, "--group", metavar="G", help=N_("Group profile (name or path).")),
    json_out: bool = typer.Option(False, "--json", help=N_("Print as JSON.")),
    set_: Optional[List[str]] = typer.Option(None, "--set", metavar="KEY=VALUE", help=N_("Set a parameter.")),
    enable: Optional[List[str]] = typer.Option(None, "--enable", metavar="ID", help=N_("Enable a rule or plugin.")),
    disable: Optional[List[str]] = typer.Option(None, "--disable", metavar="ID", help=N_("Disable a rule or plugin.")),
    use: Optional[List[str]] = use_option(),
    plugins_dir: Optional[List[str]] = typer.Option(None, "--plugins-dir", metavar="DIR",
                                                    help=N_("Also load local plugins from DIR.")),
    changed: bool = typer.Option(False, "--changed", help=N_("Only what differs from drd's defaults (what the "
                                                            "group, the file or the options change).")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Show the rules in effect and where each setting comes from, or edit a group profile."""
    from ._common import guarded

    use_language(lang)

    args = list(args or [])
    with guarded():
        if args and args[0] in ("enable", "disable", "set"):
            action, rest = args[0], args[1:]
            need = 2 if action == "set" else 1
            if len(rest) != need:
                usage = "set KEY VALUE" if action == "set" else f"{action} ID"
                from ..i18n import gettext

                raise typer.BadParameter(gettext("usage: drd rules {usage} --group G").format(usage=usage))
            if not group:
                from ..i18n import gettext

                raise typer.BadParameter(gettext("editing rules needs the group profile: --group G"),
                                         param_hint="--group")
            path, note = edit_group(group, action, rest, plugins_dir)
            typer.echo(f"{path}: " + (f"{action} {rest[0]}" if action != "set" else f"{rest[0]} = {rest[1]}"))
            if note:
                typer.echo(note, err=True)
            return
        if args and args[0] == "show":
            args = args[1:]
        if len(args) > 1:
            from ..i18n import gettext

            raise typer.BadParameter(gettext("give at most one scenario FILE"))
        from ._common import parse_params

        table = effective_rules(args[0] if args else None, group=group, params=parse_params(set_),
                                enable=tuple(enable or ()), disable=tuple(disable or ()), plugins_dir=plugins_dir)
        if json_out:
            import json

            typer.echo(json.dumps(table, ensure_ascii=False, indent=2))
            return
        print_rules(table, changed=changed)


def print_rules(table: dict, *, changed: bool = False) -> None:
    """The rules table as text: what differs from the defaults first (or, with `changed`, only that),
    then every rule and parameter."""
    from ..i18n import _

    if table["group_file"]:
        typer.echo(_("Group profile: {file}").format(file=table["group_file"]))
    plugins = {k: r for k, r in table["plugins"].items() if r["origin"] != "default"}
    params = {k: r for k, r in table["params"].items() if r["origin"] != "default"}
    if changed or plugins or params:
        typer.echo(_("Changed against drd's defaults:") if plugins or params else
                   _("Nothing is changed against drd's defaults."))
        _print_rows(plugins, params)
        if changed:
            return
        typer.echo("")
    typer.echo(_("Rules and plugins:"))
    _print_rows(table["plugins"], None)
    typer.echo(_("Parameters:"))
    _print_rows(None, table["params"])


def _print_rows(plugins: dict | None, params: dict | None) -> None:
    from ..abilities import value_text
    from ..i18n import _
    from ._common import origin_text

    width = max([20, *(len(pid) + 1 for pid in plugins or {})])   # a long id never runs into its state
    for pid, r in (plugins or {}).items():
        state = _("on") if r["enabled"] else _("off")
        line = f"  {pid:<{width}} {state:<8} ({origin_text(r['origin'])})"
        if r.get("error"):
            line += _("  BROKEN: {error}").format(error=r["error"].splitlines()[0])
        if r.get("not_loaded"):
            line += f"  {r['not_loaded']} → {r['trust']}"
        if r.get("replaces"):
            line += "  " + _("{dist}: replaces the built-in one").format(dist=r["replaces"]["by"])
        if r.get("clash"):
            line += "  " + _("CLASH: {names} (choose: --use {id}=DISTRIBUTION)").format(
                names=", ".join(r["clash"]), id=pid)
        typer.echo(line)
    pwidth = max([22, *(len(name) + 1 for name in params or {})])
    for name, r in (params or {}).items():
        where = origin_text(r["origin"]) + "; " + (r["rule"] or "")
        if r["plugin"]:
            where += f"; plugin {r['plugin']}"
        line = f"  {name:<{pwidth}} {value_text(r['value']):<18} ({where})"
        if not r["active"]:
            line += _("  INACTIVE: plugin {plugin} is off").format(plugin=r["plugin"])
        typer.echo(line)


def effective_rules(file: str | None, *, group: str | None = None, params: dict | None = None,
                    enable: tuple = (), disable: tuple = (), plugins_dir: list[str] | None = None) -> dict:
    """The rules in effect: {"plugins": {id: {enabled, origin[, error][, replaces: {by, builtin}][, clash:
    [distributions]]}}, "params": {name: {value,
    origin, rule, plugin, active, allowed}}}.

    Parameters of enabled plugins are listed like the core ones (`plugin` names who declares
    them); a parameter of a plugin that is off appears only when some layer sets it, with
    `active: false`. An enabled plugin that fails to import does not stop the listing: it carries
    `error` (its parameters are then unknown).
    """
    from ..api import load_scenario, setup_rules

    loaded = load_scenario(file) if file else None
    # setup_rules adds DRD_PLUGINS_DIR (the global --plugins-dir) itself.
    setup = setup_rules(loaded, params=params, enable=enable, disable=disable, group=group,
                        plugin_dirs=tuple(plugins_dir or ()), describe=True)
    prof = setup.profile
    plugins_out: dict = {}
    for pid in sorted(prof.known_plugins):
        rec = {"enabled": pid in prof.enabled, "origin": prof.origins.get(pid, "default")}
        if pid in prof.broken:
            rec["error"] = prof.broken[pid]
        entry = setup.entries.get(pid)
        if entry is not None and getattr(entry, "replaces", None) is not None:
            rec["replaces"] = {"by": entry.where, "builtin": entry.replaces.where}
        if entry is not None and getattr(entry, "rivals", None):
            rec["clash"] = [c.where for c in [entry, *entry.rivals]]
        untrusted = getattr(prof, "untrusted", None)
        if untrusted is not None and pid in untrusted.ids:
            rec["not_loaded"] = untrusted.reason_text
            rec["trust"] = untrusted.status.command
        plugins_out[pid] = rec

    def row(name: str, value: object, active: bool) -> dict:
        spec = prof.specs.get(name)
        return {"value": value, "origin": prof.origins.get(f"param:{name}", "default"),
                "rule": spec.rule if spec else None, "plugin": spec.plugin if spec else None,
                "active": active, "allowed": spec.describe() if spec else None}

    params_out = {name: row(name, value, True) for name, value in prof.params.items()}
    params_out.update({name: row(name, value, False) for name, value in sorted(prof.inactive.items())})
    group_file = None
    if group:
        from ..groups import find_group

        group_file = str(find_group(group))
    return {"group": group, "group_file": group_file, "scenario": file, "plugins": plugins_out,
            "params": params_out}


def edit_group(group: str, action: str, rest: list[str], plugin_dirs_: list[str] | None = None) -> tuple[str, str]:
    """Edits the group profile in place; returns (path, a note for stderr or "").

    Unknown ids or parameters, or a value the parameter does not allow, are ScenarioError (exit 2)
    and the file is left byte for byte as it was. A parameter may be the core's or one declared by
    any installed plugin (or one in the group's plugin folders, when the group is trusted); when
    that plugin is off in the group, the value is still written (checked) and the note says it is
    inactive.

    The whole read–modify–write holds an exclusive lock (drd_cli/safefiles.py), so concurrent
    edits of one profile each see the other's result; a profile that is a symlink has its target
    replaced, atomically, and stays a link.
    """
    from ..groups import find_group
    from ..safefiles import locked

    path = find_group(group)
    with locked(str(path)):
        return _edit_group_locked(group, path, action, rest, plugin_dirs_)


def _edit_group_locked(group: str, path: Any, action: str, rest: list[str],
                       plugin_dirs_: list[str] | None) -> tuple[str, str]:
    import io

    from ruamel.yaml import YAML
    from ruamel.yaml.comments import CommentedMap

    from ..errors import ScenarioError
    from ..groups import group_layer
    from ..plugins import add_untrusted, default_states, discover
    from ..i18n import gettext
    from ..trust import retrust_after_edit, split_group_dirs, status
    from ._common import write_atomic
    from .plugins_cmd import plugin_dirs

    # Known ids include the group's own local plugin folders; those of an untrusted group are
    # known by their file names only (never imported).
    # The profile is read once: its bytes are what trust is decided on and what is edited.
    _, read = group_layer(group)
    gdirs, untrusted = split_group_dirs(group, read)
    trust_before = status(group, read.files)
    entries = discover(list(gdirs) + plugin_dirs(plugin_dirs_))
    if untrusted is not None:
        add_untrusted(entries, untrusted)
    known = default_states(entries)
    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    original = read.files[0].data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    doc = _load_round_trip(yaml, original, str(path))
    if doc is None:
        doc = CommentedMap()
    if not isinstance(doc, dict):
        raise ScenarioError(gettext("{path}: a group profile is a mapping").format(path=path))

    if action in ("enable", "disable"):
        _toggle_id(doc, action, rest[0], known)
        note = ""
    else:
        note = _set_param(doc, rest[0], rest[1], entries, group, path, plugin_dirs_)
    out = io.StringIO()
    yaml.dump(doc, out)
    written = out.getvalue()
    write_atomic(str(path), written)
    retrust_after_edit(trust_before, group, written.encode("utf-8", "replace"))
    return str(path), note


def _toggle_id(doc: Any, action: str, pid: str, known: Any) -> None:
    """`drd rules enable|disable ID`: moves `pid` from the other list into `action`'s (comments kept);
    an unknown id is exit 2 at the command line."""
    from ruamel.yaml.comments import CommentedSeq

    from ..errors import Location, ScenarioError
    from ..i18n import gettext
    from ..rules import _unknown

    if pid not in known:
        raise ScenarioError(_unknown(gettext("unknown rule or plugin id {name}"), pid, known),
                            rule=RULES_LAYERS, location=Location("command line"),
                            hint=gettext("`drd plugins` lists every installed plugin"))
    other = "disable" if action == "enable" else "enable"
    if other in doc and doc[other] is not None:
        lst = doc[other]
        while pid in lst:
            lst.remove(pid)
    lst = doc.get(action)
    if lst is None:
        lst = CommentedSeq()
        lst.fa.set_flow_style()
        doc[action] = lst
    if not lst and hasattr(lst, "fa"):
        lst.fa.set_flow_style()      # `disable: []` stays a one-line list
    if pid not in lst:
        _append_keeping_comments(lst, pid)


def _set_param(doc: Any, key: str, raw: str, entries: dict, group: str, path: Any,
               plugin_dirs_: list[str] | None) -> str:
    """`drd rules set KEY VALUE`: writes the checked value under `params:` (comments kept); returns
    the note for stderr when the parameter's plugin is off in the group. A bad key or value is exit 2."""
    from ruamel.yaml.comments import CommentedMap

    from ..api import setup_rules
    from ..errors import Location, ScenarioError
    from ..i18n import gettext
    from ..plugins import ParamSource
    from ..rules import CORE_PARAMS, _unknown

    cli = Location("command line")     # the bad value is on the command line, not in the file
    spec = CORE_PARAMS.get(key)
    if spec is None:
        declared = ParamSource(entries, tolerant=True).all_params()
        spec = declared.get(key)
        if spec is None:
            raise ScenarioError(_unknown(gettext("unknown rules parameter {name}"), key,
                                         {**CORE_PARAMS, **declared}), rule=RULES_LAYERS, location=cli,
                                hint=gettext("`drd rules --group G` lists the parameters in effect"))
    try:
        value = spec.parse(raw)
    except ValueError as exc:
        raise ScenarioError(str(exc), rule=spec.rule, location=cli) from None
    note = ""
    if spec.plugin is not None:
        enabled = setup_rules(None, group=str(path), plugin_dirs=tuple(plugin_dirs_ or ()),
                              describe=True).profile.enabled
        if spec.plugin not in enabled:
            note = gettext("note: {key} belongs to the plugin {plugin}, which is off in the group — the value is "
                           "saved, but it has no effect until you enable it: drd rules enable {plugin} --group "
                           "{group}").format(key=key, plugin=spec.plugin, group=group)
    params = doc.get("params")
    if params is None:
        params = CommentedMap()
        params.fa.set_flow_style()
        doc["params"] = params
    elif not params and hasattr(params, "fa"):
        params.fa.set_flow_style()   # `params: {}` stays a one-line mapping, its comment after it
    _set_keeping_comments(params, key, value)
    return note


def _load_round_trip(yaml: Any, text: str, filename: str) -> Any:
    """The profile for editing, comments kept. ruamel's round-trip reader refuses a tab between a
    value and its comment (`params: {}<TAB># x`), which every other command reads: such tabs
    become spaces, when that changes nothing the document says (checked with the reader every
    command uses)."""
    import re

    from ruamel.yaml.scanner import ScannerError

    from ruamel.yaml.error import YAMLError

    from ..errors import Location, ScenarioError
    from ..i18n import gettext
    from ..scenario.load import load_text

    try:
        try:
            return yaml.load(text)
        except ScannerError:
            spaced = re.sub(r"\t(?=[ \t]*(#|$))", " ", text, flags=re.M)
            if spaced == text or load_text(spaced, filename)[0] != load_text(text, filename)[0]:
                raise
            return yaml.load(spaced)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = Location(filename, mark.line + 1, mark.column + 1) if mark is not None else Location(filename)
        raise ScenarioError(gettext("drd cannot edit this file and keep its comments: {problem}").format(
            problem=getattr(exc, "problem", None) or type(exc).__name__), where,
            hint=gettext("edit it by hand, or write it again with `drd group new NAME`")) from None


def _split_comment(token: Any) -> str:
    """Cuts a ruamel comment token after its first line; returns the rest (the comment lines that
    follow the item, which belong after whatever comes last)."""
    value = getattr(token, "value", None)
    if not value or "\n" not in value[:-1]:
        return ""
    cut = value.index("\n") + 1
    token.value, rest = value[:cut], value[cut:]
    return rest


def _comment_token(text: str) -> Any:
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    return CommentToken("\n" + text, CommentMark(0), None)


def _append_keeping_comments(lst: Any, item: Any) -> None:
    """Appends to a (block) list; the comment lines after its old last item move after the new one.

    ruamel attaches comment lines that follow a list to its last item, so a plain append would
    put them between the old last item and the new one.
    """
    rest = ""
    if len(lst) and hasattr(lst, "ca") and not lst.fa.flow_style():
        entry = lst.ca.items.get(len(lst) - 1)
        if entry and entry[0] is not None:
            rest = _split_comment(entry[0])
    lst.append(item)
    if rest:
        lst.ca.items[len(lst) - 1] = [_comment_token(rest), None, None, None]


def _set_keeping_comments(mapping: Any, key: str, value: Any) -> None:
    """Sets `key`; a new key added to a block mapping takes over the comment lines that followed
    the old last key (they stay below the mapping, where they were)."""
    if key in mapping or not len(mapping) or not hasattr(mapping, "ca") or mapping.fa.flow_style():
        mapping[key] = value
        return
    last = list(mapping)[-1]
    entry = mapping.ca.items.get(last)
    rest = _split_comment(entry[2]) if entry and len(entry) > 2 and entry[2] is not None else ""
    mapping[key] = value
    if rest:
        mapping.ca.items[key] = [None, None, _comment_token(rest), None]


# The profile `drd group new` writes: English msgids of its comment lines, in the active language.
GROUP_COMMENTS = (
    N_("Game group profile {name} (docs/scenario-format.md §7)."),
    N_("Use: drd resolve SCENARIO --group {name}"),
    N_("starts from the default rules"),
    N_("switch optional rules on, e.g. rozsahla-protiakce, plosna-protiakce"),
    N_("switch plugins off, e.g. kruhovy-sek"),
    N_("rule parameters, e.g. {{tie: counter}}"),
)


def group_template(name: str) -> str:
    """The commented starting profile for `name`, its comments in the active language."""
    from ..i18n import gettext

    head, use, extends, enable, disable, params = (gettext(c) for c in GROUP_COMMENTS)
    return (f"# {head.format(name=name)}\n"
            f"# {use.format(name=name)}\n"
            f"name: {name}\n"
            f"extends: default          # {extends}\n"
            f"enable: []                # {enable}\n"
            f"disable: []               # {disable}\n"
            f"params: {{}}                # {params.format()}\n")


@group_app.command("new", help=N_("Create ./groups/NAME.yaml: a commented profile to edit with `drd rules … --group NAME`."))
def group_new(
    name: str = typer.Argument(..., help=N_("The group's name; the file is ./groups/NAME.yaml.")),
    force: bool = typer.Option(False, "--force", help=N_("Overwrite an existing profile.")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Create ./groups/NAME.yaml: a commented profile to edit with `drd rules … --group NAME`."""
    import os
    import re

    from ._common import guarded, write_atomic

    use_language(lang)
    with guarded():
        if not re.fullmatch(r"[\w][\w.-]*", name) or name.startswith("."):
            from ..i18n import gettext

            raise typer.BadParameter(gettext("{name}: use letters, digits, '-', '_' or '.'").format(name=repr(name)),
                                     param_hint="NAME")
        path = os.path.join("groups", f"{name}.yaml")
        if os.path.exists(path) and not force:
            from ..i18n import gettext

            sys_err = gettext("{path} already exists (use --force to overwrite)").format(path=path)
            typer.echo(sys_err, err=True)
            raise typer.Exit(1)
        os.makedirs("groups", exist_ok=True)
        write_atomic(path, group_template(name))
        typer.echo(path)


@group_app.command("trust", help=N_("Trust a group profile's plugin folders: their Python code may run."))
def group_trust(
    group: str = typer.Argument(..., metavar="NAME|PATH", help=N_("The group profile: a name or a path.")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Trust a group profile's plugin folders: their Python code may run."""
    from ._common import guarded

    use_language(lang)
    with guarded():
        from ..groups import group_layer
        from ..i18n import _
        from ..trust import trust

        _layer, dirs = group_layer(group)        # validates the whole chain first
        st = trust(group, dirs.files)            # the bytes whose folders are listed below
        from ..scenario.references import shown_path

        typer.echo(_("trusted: {profile} ({digest})").format(profile=shown_path(str(st.profile)), digest=st.digest))
        if len(st.chain) > 1:
            typer.echo(_("  with the profiles it extends: {files}").format(
                files=", ".join(str(p) for p in st.chain[1:])))
        if dirs:
            typer.echo(_("  its plugin folders will be imported: {dirs}").format(dirs=", ".join(dirs)))
        else:
            typer.echo(_("  it names no plugin folders"))
        typer.echo(_("  a change to any of these files makes it untrusted again"))


@group_app.command("untrust", help=N_("Stop trusting a group profile: its plugin folders are not imported any more."))
def group_untrust(
    group: str = typer.Argument(..., metavar="NAME|PATH", help=N_("The group profile: a name or a path.")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """Stop trusting a group profile: its plugin folders are not imported any more."""
    from ._common import guarded

    use_language(lang)
    with guarded():
        from ..i18n import _
        from ..trust import untrust

        real, had = untrust(group)
        from ..scenario.references import shown_path

        typer.echo((_("untrusted: {profile}") if had else _("{profile} was not trusted")).format(
            profile=shown_path(str(real))))


def mount(app: typer.Typer) -> None:
    """Adds `drd rules …` and `drd group new NAME` to the root app."""
    app.command("rules", help=HELP)(rules)
    app.add_typer(group_app, name="group")
