"""What `drd resolve` and `drd play` do with a campaign's conflict: write the outcome back
(`--zapsat`, or the offer at the end of `drd play`) and find the start state `--verify` needs."""

from __future__ import annotations

import json
import os
from typing import Any

from ..errors import DrdError, Location
from ..i18n import _


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
                  verify: str | None, zapsat: bool, again: Any) -> tuple[Any, dict, str]:
    """`drd resolve` of a campaign's conflict: `--verify` against the characters as they were when
    the transcript was made (the chronicle's start state), or `--zapsat`."""
    if expected is not None and expected != digest and loaded.campaign:
        start = start_for(file, expected, verify)
        if start is not None:
            from ..api import load_scenario
            from ..digest import digest as digest_of

            loaded = load_scenario(file, snapshot=start)
            result = again(loaded)
            digest = result["digest"] = digest_of(result, loaded.digest_source())
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


def start_for(path: str, expected: str, verify_arg: str | None = None) -> dict | None:
    """The start state (`campaign.start`) of the run whose digest is `expected`: from a JSON result
    given to --verify, else from the chronicle entry that applied it; None when neither has it."""
    if verify_arg and os.path.isfile(verify_arg):
        try:
            with open(verify_arg, encoding="utf-8") as handle:
                data = json.load(handle)
            start = (data.get("campaign") or {}).get("start")
            if start and data.get("digest") == expected:
                return start
        except (OSError, ValueError, AttributeError):
            pass
    from ..scenario.references import find_campaign
    from . import chronicle
    from .folder import Campaign

    root = find_campaign(os.path.dirname(os.path.abspath(path)))
    if root is None:
        return None
    campaign = Campaign.open(root)
    entry = chronicle.by_digest(chronicle.entries(campaign), expected)
    if entry is None:
        return None
    result = chronicle.read_result(campaign, entry) or {}
    return (result.get("campaign") or {}).get("start")


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
