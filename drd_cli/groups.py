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

import functools
import os
import sys
from pathlib import Path
from typing import Any, NamedTuple

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


class ProfileFile(NamedTuple):
    """A group profile as read once: the path it was found at, the real file behind it (links
    resolved) and that file's bytes. The same bytes are parsed (`plugin_dirs`, `extends`, …) and
    hashed for trust (drd_cli/trust.py): nothing is read twice."""

    named: Path
    real: Path
    data: bytes


class GroupDirs(list):
    """The plugin folders of a group chain (a list of str), with the files they were read from
    (`files`), so that trust is decided from those same bytes (`trust.split_group_dirs`)."""

    files: list[ProfileFile]


def read_profile(path: Path) -> ProfileFile:
    """Group profile `path`, read once: its links resolved first, the real file opened without
    following a link, its bytes kept."""
    from .scenario.load import read_bytes

    real = Path(os.path.realpath(path))
    return ProfileFile(Path(path), real, read_bytes(real, opener=_no_follow, shown=str(path)))


def _no_follow(file: str, flags: int) -> int:
    return os.open(file, flags | getattr(os, "O_NOFOLLOW", 0))


def parse_profile(profile: ProfileFile) -> tuple[Any, Any]:
    """The profile's data and source map from its bytes, validated (unknown keys → file:line:col)."""
    from .scenario.load import load_text
    from .scenario.validate import validate_model

    data, source = load_text(profile.data, str(profile.named))
    return validate_model(_profile_model(), data, source, str(profile.named)), source


@functools.cache
def _profile_model() -> Any:
    from pydantic import Field

    from .scenario.models import StrictModel

    class GroupProfile(StrictModel):
        name: str | None = None
        extends: str | None = None
        enable: list[str] = Field(default_factory=list)
        disable: list[str] = Field(default_factory=list)
        params: dict[str, str | int | bool] = Field(default_factory=dict)
        plugin_dirs: list[str] = Field(default_factory=list)
        use: dict[str, str] = Field(default_factory=dict)
        notes: str | None = None

    return GroupProfile


def read_group(path: Path) -> tuple[Any, Any]:
    """The group file's data and source map, validated (unknown keys → file:line:col)."""
    return parse_profile(read_profile(path))


def profile_files(name: str, _seen: tuple = (), _where: Location | None = None) -> list[ProfileFile]:
    """The files of group `name` and of every profile it extends, the named one first, each read once."""
    path = find_group(name, _where)
    profile = read_profile(path)
    if str(profile.real) in _seen:
        raise ScenarioError(_("group profiles extend each other in a circle: {path}").format(path=path))
    model, source = parse_profile(profile)
    chain = [profile]
    if model.extends and model.extends != "default":
        chain += profile_files(model.extends, _seen + (str(profile.real),), source.locate(("extends",)))
    return chain


def profile_chain(name: str) -> list[Path]:
    """The paths of group `name` and of every profile it extends, the named one first."""
    return [profile.named for profile in profile_files(name)]


def group_layer(name: str) -> tuple[Layer, GroupDirs]:
    """One Layer combining the group and everything it extends, plus its plugin folders.

    Each setting keeps the file it came from (`Layer.sources`): an unknown id or parameter in a
    profile that is only extended is reported at its own file:line:col, and `drd rules` names that
    group as the origin. The folders are all those the chain names, trusted or not, a relative one
    relative to the real file that names it (a link's folder never counts); they carry the bytes
    read (`GroupDirs.files`): callers that import plugins filter them with
    `trust.split_group_dirs`, which decides from those same bytes.
    """
    files = profile_files(name)
    layer, dirs = _layer_of(files)
    found = GroupDirs(dirs)
    found.files = files
    return layer, found


def _layer_of(files: list[ProfileFile]) -> tuple[Layer, list[str]]:
    """The layer and plugin folders of a chain of profiles (the named one first)."""
    enable: list[str] = []
    disable: list[str] = []
    params: dict = {}
    use: dict[str, str] = {}
    dirs: list[str] = []
    sources: dict = {}
    locate = None
    label = ""
    for profile in reversed(files):            # the most basic profile first; each overrides it
        model, source = parse_profile(profile)
        label = f"group {model.name or profile.named.stem}"
        locate = source.locate
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
        for key in model.use:
            sources[("use", key)] = (label, source.locate, ("use", key))
        use.update(model.use)
        dirs += [os.path.realpath(os.path.join(profile.real.parent, d)) for d in model.plugin_dirs]
    return Layer(label, enable, disable, params, use=use, locate=locate, sources=sources), dirs
