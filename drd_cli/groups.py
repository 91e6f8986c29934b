"""Group profiles (SCENARIO-FORMAT §6): a play group's rule choices in one YAML file.

Lookup order of `--group G` (docs/cli.md, "Group profiles"): G is a path when it ends in
`.yaml`/`.yml` or contains a `/`; otherwise `./groups/G.yaml`, `./groups/G.yml`, then the user's
config folder (`$XDG_CONFIG_HOME/drd/groups/G.yaml`, default `~/.config/drd/groups`). `extends`
is looked up the same way and chains profiles (`default` = the built-in defaults). When
`./groups/G.yaml` shadows the config folder's profile of the same name, a note on stderr says
which file was read.

The plugin folders a profile names (`plugin_dirs:`, also through `extends:`) are imported only
when the profile is trusted (drd_cli/trust.py).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .errors import COMMAND_LINE, Location, ScenarioError
from .i18n import _
from .rules import Layer


def config_dir() -> Path:
    """The user's own group profiles: `$XDG_CONFIG_HOME/drd/groups` (default `~/.config/drd/groups`)."""
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "drd" / "groups"


# (name, file read, file shadowed) already reported in this process: one note per run, not per lookup.
_SHADOW_NOTED: set[tuple[str, str, str]] = set()


def _lookup(name: str) -> tuple[Path | None, Path | None]:
    """(the file of group `name` by name, the config folder's file it shadows or None)."""
    found: Path | None = None
    for folder in (Path("groups"), config_dir()):
        for ext in (".yaml", ".yml"):
            cand = folder / f"{name}{ext}"
            if cand.is_file():
                if found is None:
                    found = cand
                elif folder == config_dir() and not _same(found, cand):
                    return found, cand
                break
    return found, None


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def find_group(name: str, where: Location | None = None) -> Path:
    """The file of group `name` (a path, or a name looked up in ./groups and the config folder).

    `where`: the `extends:` that names it (default: the command line's `--group`).
    """
    where = where or Location(COMMAND_LINE)
    p = Path(name)
    if p.suffix in (".yaml", ".yml") or os.sep in name or "/" in name:
        if p.is_file():
            return p
        raise ScenarioError(_("group profile {name} not found").format(name=repr(name)), where)
    found, shadowed = _lookup(name)
    if found is None:
        raise ScenarioError(_("group profile {name} not found in ./groups or {folder}").format(
                                name=repr(name), folder=config_dir()), where,
                            hint=_("create one with `drd group new NAME`"))
    if shadowed is not None:
        key = (name, str(found.resolve()), str(shadowed.resolve()))
        if key not in _SHADOW_NOTED:
            _SHADOW_NOTED.add(key)
            sys.stderr.write(_("note: group {name}: reading {file}, which shadows {other}").format(
                name=name, file=found, other=shadowed) + "\n")
    return found


def read_group(path: Path) -> tuple[dict, object]:
    """The group file's data and source map, validated (unknown keys → file:line:col)."""
    from .scenario.load import load_document
    from .scenario.models import StrictModel
    from .scenario.validate import validate_model
    from pydantic import Field

    class GroupProfile(StrictModel):
        name: str | None = None
        extends: str | None = None
        enable: list[str] = Field(default_factory=list)
        disable: list[str] = Field(default_factory=list)
        params: dict[str, str | int | bool] = Field(default_factory=dict)
        plugin_dirs: list[str] = Field(default_factory=list)
        notes: str | None = None

    data, source = load_document(str(path))
    return validate_model(GroupProfile, data, source, str(path)), source


def profile_chain(name: str, _seen: tuple = (), _where: Location | None = None) -> list[Path]:
    """The files of group `name` and of every profile it extends, the named one first."""
    path = find_group(name, _where)
    real = str(path.resolve())
    if real in _seen:
        raise ScenarioError(_("group profiles extend each other in a circle: {path}").format(path=path))
    model, source = read_group(path)
    chain = [path]
    if model.extends and model.extends != "default":
        chain += profile_chain(model.extends, _seen + (real,), source.locate(("extends",)))
    return chain


def group_layer(name: str, _seen: tuple = (), _where: Location | None = None) -> tuple[Layer, list[str]]:
    """One Layer combining the group and everything it extends, plus its plugin folders.

    Each setting keeps the file it came from (`Layer.sources`): an unknown id or parameter in a
    profile that is only extended is reported at its own file:line:col, and `drd rules` names that
    group as the origin. The folders are all those the chain names, trusted or not: callers that
    import plugins filter them with `trust.split_group_dirs`.
    """
    path = find_group(name, _where)
    if str(path.resolve()) in _seen:
        raise ScenarioError(_("group profiles extend each other in a circle: {path}").format(path=path))
    model, source = read_group(path)
    label = f"group {model.name or path.stem}"
    enable: list[str] = []
    disable: list[str] = []
    params: dict = {}
    dirs: list[str] = []
    sources: dict = {}
    if model.extends and model.extends != "default":
        base, base_dirs = group_layer(model.extends, _seen + (str(path.resolve()),), source.locate(("extends",)))
        enable, disable, params, dirs = list(base.enable), list(base.disable), dict(base.params), list(base_dirs)
        sources = dict(base.sources)
    enable = [x for x in enable if x not in model.disable]
    disable = [x for x in disable if x not in model.enable]
    for key, ids, out in (("enable", model.enable, enable), ("disable", model.disable, disable)):
        for i, pid in enumerate(ids):
            if pid not in out:
                out.append(pid)
            sources[(key, pid)] = (label, source.locate, (key, i))
    for key in model.params:
        sources[("params", key)] = (label, source.locate, ("params", key))
    params.update(model.params)
    dirs += [str((path.parent / d).resolve()) for d in model.plugin_dirs]
    return Layer(label, enable, disable, params, locate=source.locate, sources=sources), dirs
