"""`drd konflikt new --postavy hanus,jarik --bestie skret:3`: a commented scenario naming them."""

from __future__ import annotations

import os
from typing import Any

from ..errors import DrdError, Location
from ..i18n import _
from ..skills import slug
from .entities import summary_line, summary_of


def _creature_spec(text: str) -> tuple[str, int]:
    ident, sep, n = text.partition(":")
    if sep:
        if not n.isdigit() or int(n) < 1:
            raise DrdError(_("{spec!r}: expected ID or ID:N with N ≥ 1").format(spec=text), Location("--bestie"))
        return ident, int(n)
    return ident, 1


def skeleton_text(campaign: Any, postavy: list[str], bestie: list[tuple[str, int]], title: str) -> str:
    one = _("A conflict of the campaign (docs/kampan.md): the participants come from postavy/ and bestiar/;")
    two = _("give here only what belongs to this conflict (Ohrožení, side, zone, conditions of the moment).")
    steps = _("steps, e.g.:")
    lines = [f"# {one}", f"# {two}",
             "format: drd/1", f"title: {title}", "participants:"]
    ids = []
    for ident in postavy:
        model = campaign.read("postava", ident)
        lines.append(f"  {ident}: {{postava: {ident}, ohrozeni: 0, side: družina}}   # "
                     + summary_line(summary_of("postava", ident, model)))
        ids.append(ident)
    for ident, n in bestie:
        model = campaign.read("bestie", ident)
        count = f", pocet: {n}" if n > 1 else ""
        pid = ident if ident not in ids else f"{ident}-2"
        lines.append(f"  {pid}: {{bestie: {ident}{count}, ohrozeni: 0}}   # "
                     + summary_line(summary_of("bestie", ident, model)))
        ids.append(pid)
    first = ids[0] if ids else "hanus"
    other = ids[-1] if len(ids) > 1 else "skret"
    lines += ["rounds:", f"  - initiative: [{', '.join(ids)}]", "    steps: []",
              f"    # {steps}",
              "    # - id: prvni",
              "    #   contest:",
              f"    #     action: {{actor: {first}, pool: telo, bonus_from: none, targets: [{other}], "
              "effect: {ohrozeni: 1}}",
              f"    #     counters: [{{actor: {other}, kind: harm, pool: telo, effect: {{ohrozeni: 1}}}}]",
              # An answer is read only when its participant loses (else the log notes it unused).
              f"    #   choices: {{{first}: exhaust}}   # " + _("used only when {who} loses").format(who=first), ""]
    return "\n".join(lines)


def write_skeleton(campaign: Any, postavy: list[str], bestie: list[str], title: str | None,
                   output: str | None) -> str:
    from ..safefiles import replace_atomically

    if not postavy and not bestie:
        raise DrdError(_("name at least one character (--postavy) or creature (--bestie)"), Location("konflikt"))
    specs = [_creature_spec(b) for b in bestie]
    title = title or _("New conflict")
    text = skeleton_text(campaign, postavy, specs, title)
    if output is None:
        base = slug(title) or "konflikt"
        output = campaign.path("konflikty", base + ".yaml")
        n = 2
        while os.path.exists(output):
            output = campaign.path("konflikty", f"{base}-{n}.yaml")
            n += 1
    elif os.path.exists(output):
        raise DrdError(_("the file exists already; nothing was written"), Location(output))
    os.makedirs(os.path.dirname(os.path.abspath(output)), exist_ok=True)
    replace_atomically(output, text)
    return os.path.relpath(output)
