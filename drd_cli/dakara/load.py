"""Load a `system: dakara` file with positions, so every problem gets file:line:col.

A small stand-in for the shared loader (drd_cli/scenario/load.py): it reads the file with
ruamel's round-trip loader (which keeps line/column of every key and item), validates it with
`parse_dakara`, and turns the document paths in problems into Locations. Once the shared loader
exists the CLI should use it; `locate` works on any ruamel round-trip document.
"""

from __future__ import annotations

from typing import Any

from drd_cli.errors import DrdError, Location, ScenarioError
from drd_cli.i18n import _


def _plain(node: Any) -> Any:
    # Round-trip containers are dict/list subclasses; the strict models want plain types.
    if isinstance(node, dict):
        return {str(k) if not isinstance(k, (int, bool)) else k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    if isinstance(node, str):
        return str(node)
    return node


def locate(doc: Any, path: tuple, file: str = "<scenario>") -> Location:
    """The position of `path` (keys and indices from the root) in a round-trip document.

    Walks as deep as the document goes; a path ending at a missing key points at its parent.
    """
    line, col = 1, 1
    node = doc
    for part in path:
        lc = getattr(node, "lc", None)
        try:
            if isinstance(node, dict) and part in node:
                if lc is not None:
                    line, col = lc.key(part)[0] + 1, lc.key(part)[1] + 1
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                if lc is not None:
                    line, col = lc.item(part)[0] + 1, lc.item(part)[1] + 1
                node = node[part]
            else:
                break
        except (KeyError, IndexError, TypeError):
            break
    return Location(file, line, col)


def add_locations(err: DrdError, doc: Any, file: str) -> DrdError:
    """Give every problem of `err` that has a document path its file:line:col."""
    for p in err.problems:
        if not p.location.line:
            p.location = locate(doc, p.path, file)
    err.args = (err.format(),)
    return err


def load_dakara_file(path: str):
    """Read and validate a Dakara scenario; returns (DakaraScenario, round-trip document).

    Raises ScenarioError (exit 2) with file:line:col for YAML errors and invalid documents.
    """
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    from drd_cli.dakara.models import parse_dakara

    try:
        with open(path, encoding="utf-8") as fh:
            doc = YAML(typ="rt").load(fh)
    except OSError as exc:
        raise ScenarioError(_("cannot read {file}: {reason}").format(file=path, reason=exc.strerror), Location(path)) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark
        loc = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path)
        raise ScenarioError(_("invalid YAML: {problem}").format(problem=exc.problem), loc) from None
    try:
        return parse_dakara(_plain(doc)), doc
    except ScenarioError as err:
        raise add_locations(err, doc, path) from None
