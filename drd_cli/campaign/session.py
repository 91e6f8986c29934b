"""What `drd resolve` and `drd play` do with a campaign's conflict: write the outcome back
(`--zapsat`, or the offer at the end of `drd play`) and find the start state `--verify` needs."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

from ..errors import DrdError, Location
from ..i18n import _
from ..scenario import snapshots


def write_back(loaded: Any, result: dict, scenario_path: str) -> dict:
    """Applies a resolved conflict to the campaign's characters; returns the chronicle entry."""
    from .apply import apply_conflict
    from .folder import Campaign

    if not getattr(loaded, "campaign", None):
        raise DrdError(_("--zapsat writes a conflict's outcome into a campaign's characters, but {file} names "
                         "none (postava: …, docs/kampan.md)").format(file=scenario_path), Location(scenario_path))
    if "digest" not in result:
        from ..digest import digest

        result["digest"] = digest(result, loaded.digest_source())
    player = None
    from ..render.view import secret_marks

    people, steps = secret_marks(loaded.scenario)
    if people or steps:
        from ..render.view import player_view

        player = player_view(result, loaded.scenario)
    campaign = Campaign.open(loaded.campaign["root"])
    return apply_conflict(campaign, result, scenario_path, player=player)


def after_resolve(loaded: Any, result: dict, digest: str, file: str, *, expected: str | None,
                  zapsat: bool, again: Any) -> tuple[Any, dict, str]:
    """`drd resolve` of a campaign's conflict: a `--verify` that named no start state (see
    `named_start`) tried against the states the chronicle or the snapshot store has, or `--zapsat`."""
    if expected is not None and expected != digest and loaded.campaign:
        from ..api import load_scenario
        from ..digest import digest as digest_of

        for start in starts_for(file, expected, loaded.campaign):
            tried = load_scenario(file, snapshot=start)
            tried_result = again(tried)
            tried_digest = tried_result["digest"] = digest_of(tried_result, tried.digest_source())
            loaded, result, digest = tried, tried_result, tried_digest
            if digest == expected:
                break
        return loaded, result, digest
    if zapsat and expected is None:
        import sys

        for line in report(write_back(loaded, result, file)):
            sys.stderr.write(line + "\n")
    return loaded, result, digest


def report(entry: dict) -> list[str]:
    from .entities import change_lines

    lines = [_("chronicle entry {number}: the outcome is written into the characters").format(number=entry["number"])]
    for ident, change in (entry.get("characters") or {}).items():
        for line in change_lines(change) or [_("no change")]:
            lines.append(f"  {ident}: {line}")
        for note in change.get("notes") or []:
            lines.append("  " + _("{id}: clamped to the maximum: {note}").format(id=ident, note=note))
    return lines


def named_start(path: str, verify_arg: str) -> dict | None:
    """The start state a `--verify` file names, to resolve `path` from before anything else (so a
    character changed, broken or deleted since does not matter): a JSON result's `campaign.start`,
    or the stored snapshot a transcript's footer names (`snímek …`; DrdError, exit 2 at that place,
    when the campaign's store lacks it or it was edited). None when the file names neither."""
    from ..scenario.references import find_campaign

    root = find_campaign(os.path.dirname(os.path.abspath(path)))
    text = _read(verify_arg) if root is not None else None     # outside a campaign: nothing to name
    if text is None:
        return None
    if text.lstrip().startswith("{"):
        data = _json(text) if '"campaign"' in text else None      # a large result is parsed only if it has one
        start = ((data or {}).get("campaign") or {}).get("start")
        return start if isinstance(start, dict) and start else None
    named = snapshots.token_in(text)
    return None if named is None else _named(verify_arg, text, named, root)


def starts_for(path: str, expected: str, campaign: dict) -> Iterator[dict]:
    """Start states to try for a `--verify` that names none (a bare hash, an older transcript): the
    chronicle entry that applied the run, else the stored snapshots of the same participants."""
    from ..scenario.references import find_campaign
    from . import chronicle
    from .folder import Campaign

    root = find_campaign(os.path.dirname(os.path.abspath(path)))
    if root is None:
        return
    opened = Campaign.open(root)
    entry = chronicle.by_digest(chronicle.entries(opened), expected)
    if entry is not None:
        start = ((chronicle.read_result(opened, entry) or {}).get("campaign") or {}).get("start")
        if start:
            yield start
            return
    yield from snapshots.candidates(root, campaign["start"])


def _read(verify_arg: str | None) -> str | None:
    if not verify_arg or not os.path.isfile(verify_arg):
        return None
    try:
        with open(verify_arg, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError):
        return None


def _json(text: str) -> dict | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _named(file: str, text: str, named: tuple[str, int], root: str | None) -> dict:
    """The stored snapshot a transcript names; DrdError (exit 2) at the name when it cannot be had."""
    short, offset = named
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    where = Location(file, line, col)
    try:
        if root is None:
            raise snapshots.SnapshotProblem("missing", os.path.join(*snapshots.FOLDER))
        return snapshots.load(root, short)
    except snapshots.SnapshotProblem as problem:
        shown = os.path.relpath(problem.path, root) if root else problem.path
        message = {
            "missing": _("the transcript was made from snapshot {hash}, which this campaign does not have ({file})"),
            "changed": _("the snapshot {hash} was changed after it was stored ({file}): it no longer has its hash"),
            "ambiguous": _("more than one stored snapshot begins with {hash} ({file})"),
        }[problem.kind]
        raise DrdError(message.format(hash=short, file=shown.replace(os.sep, "/")), where,
                       hint=_("snapshots are kept in kronika/snimky/ of the campaign where the conflict was "
                              "resolved; copy that folder along with the transcript (docs/kampan.md)")) from None


def offer_in_play(loaded: Any, result: dict, scenario_path: str, ask: Any, say: Any, *, always: bool,
                  replay: str | None = None) -> None:
    """The end of `drd play` in a campaign: write the outcome back (asked unless `always`)."""
    if not any(s.get("kind") == "postava" for s in (loaded.campaign or {}).get("start", {}).values()):
        return
    if not always:
        try:
            answer = ask(_("Write the outcome into the campaign's characters? [y/N] ")).strip().lower()
        except EOFError:
            return
        if answer not in ("y", "yes", "a", "ano"):
            say(_("not written; later: drd resolve {file} --zapsat (with the replay's dice)").format(
                file=replay or scenario_path))
            return
    for line in report(write_back(loaded, result, scenario_path)):
        say(line)
