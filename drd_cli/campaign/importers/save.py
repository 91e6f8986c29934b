"""Writing an import into the campaign: a new file, or an update shown as a difference first."""

from __future__ import annotations

import difflib
import os
from typing import Any

from ...i18n import _
from .. import chronicle, state as st, yamlfile
from .common import Imported


def render_new(imported: Imported, origin: str) -> str:
    """A new character/creature file: flow mappings for pools, maxima and levels, one item a line."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    data = CommentedMap()
    for key, value in imported.data.items():
        data[key] = _styled(key, value, CommentedMap, CommentedSeq)
    data.yaml_set_start_comment(_("Imported by drd from {origin} ({when}); docs/kampan-import.md").format(
        origin=os.path.basename(origin), when=chronicle.now()))
    return yamlfile.dump(data)


def _styled(key: str, value: Any, cmap: Any, cseq: Any) -> Any:
    if isinstance(value, dict):
        m = cmap()
        for k, v in value.items():
            m[k] = _styled(k, v, cmap, cseq)
        m.fa.set_flow_style()
        return m
    if isinstance(value, list):
        s = cseq()
        for v in value:
            s.append(_styled(key, v, cmap, cseq))
        if all(isinstance(v, str) for v in value) and sum(len(v) for v in value) < 60:
            s.fa.set_flow_style()
        return s
    return value


def updated_text(old: str, imported: Imported) -> str:
    """The existing file with the imported values written in (comments and other keys kept)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    data = yamlfile.load(old)
    for key, value in imported.data.items():
        if key in ("pools", "max"):
            yamlfile.set_pools(data, key, value)
        elif isinstance(value, list):
            yamlfile.set_list(data, key, value)
        else:
            new = _styled(key, value, CommentedMap, CommentedSeq)
            if yamlfile.key_of(data, key) is None or data[yamlfile.key_of(data, key)] != value:
                yamlfile.set_value(data, key, new)
    return yamlfile.dump(data)


def _state(model: Any, kind: str) -> dict:
    return st.file_state(model) if kind == "postava" else {"sudba": model.sudba}


def prepare(campaign: Any, imported: Imported, origin: str) -> tuple[str, str | None, str]:
    """(path, old text or None, new text); the new text is validated (exit 2 if drd cannot take it)."""
    path = campaign.entity_path(imported.kind, imported.ident)
    old = st.read_text(path)
    new = render_new(imported, origin) if old is None else updated_text(old, imported)
    st.validated(new, campaign.rel(path), imported.kind)
    return path, old, new


def diff(campaign: Any, path: str, old: str, new: str) -> list[str]:
    rel = campaign.rel(path)
    return [line.rstrip("\n") for line in difflib.unified_diff(
        old.splitlines(True), new.splitlines(True), fromfile=rel, tofile=rel + " " + _("(imported)"))]


def write(campaign: Any, imported: Imported, path: str, old: str | None, new: str, origin: str) -> dict:
    kind = imported.kind
    with campaign.changing() as tx:
        existing = chronicle.entries(campaign)
        current = st.read_text(path)
        before_model = st.validated(current, campaign.rel(path), kind) if current is not None else None
        after_model = st.validated(new, campaign.rel(path), kind)
        tx.write(path, new)
        change = {"kind": kind, "file": campaign.rel(path),
                  "before": _state(before_model, kind) if before_model is not None else None,
                  "after": _state(after_model, kind),
                  "hash_before": st.current_hash(before_model, kind) if before_model is not None else None,
                  "hash_after": st.current_hash(after_model, kind), "text_before": current}
        entry = chronicle.new_entry(chronicle.next_number(existing), "import", source=imported.source,
                                    origin=os.path.basename(origin), characters={imported.ident: change},
                                    report=[t for _k, t in imported.report.items] or None)
        chronicle.write_entry(tx, campaign, entry, label=f"import-{imported.ident}")
    return entry
