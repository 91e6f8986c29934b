"""Where a message sends its reader: the user's own docs (`docs/scenario-format.md` sections and
the rule ids of `docs/rules.md`), never the project's internal spec files, which users do not have.

The internal spec numbers its sections differently from the user docs (its §4.2 `test` is the user
docs' §5.1, its §5 choices is §6, …); `user_section` translates, so a docstring-derived text (the
JSON Schema's descriptions) can be shown to users too. Imports nothing: the engine uses it.
"""

from __future__ import annotations

import re

FORMAT_DOC = "docs/scenario-format.md"
RULES_DOC = "docs/rules.md"

# The internal spec's section → the same section in docs/scenario-format.md.
SECTIONS = {
    "1": "1", "2": "2", "3": "3", "4": "4", "4.1": "4.1", "4.2": "5.1", "4.3": "5.2", "4.4": "5.3",
    "4.5": "5.4", "4.6": "5.5", "4.7": "5.7", "5": "6", "6": "7", "7": "8.1", "8": "8.3",
}

CHOICES = f"{FORMAT_DOC} §6"        # answers to decisions (`choices`)
RULES_LAYERS = f"{FORMAT_DOC} §7"   # rules: defaults, group, scenario, command line
RESULT = f"{FORMAT_DOC} §8.1"       # the JSON result

_SPEC = re.compile(r"SCENARIO-FORMAT(?:\.md)?\s*(§\s*\d+(?:\.\d+)?(?:\s*(?:,|and|–|-)\s*§\s*\d+(?:\.\d+)?)*)")
_NUMBER = re.compile(r"§\s*(\d+(?:\.\d+)?)")
_SPEC_BARE = re.compile(r"SCENARIO-FORMAT(?:\.md)?")
_RULES = re.compile(r"(?:\.\./)?(?:shared/spec/)?RULES(?:\.md)?(?:\s*§\s*[\d.]+)?")


def user_section(spec_section: str) -> str:
    """`4.3` (the internal spec) → `docs/scenario-format.md §5.2`."""
    if spec_section == "4.8":
        return "docs/dakara.md"
    return f"{FORMAT_DOC} §{SECTIONS.get(spec_section, spec_section)}"


def _sections(match: re.Match) -> str:
    """`SCENARIO-FORMAT §1, §4.8` → `docs/scenario-format.md §1, docs/dakara.md`."""
    parts = [user_section(n) for n in _NUMBER.findall(match.group(1))]
    seps = re.split(r"§\s*\d+(?:\.\d+)?", match.group(1))[1:-1]
    out = parts[0]
    for sep, part in zip(seps, parts[1:]):
        out += sep + (part.replace(FORMAT_DOC + " ", "") if part.startswith(FORMAT_DOC) and out.startswith(FORMAT_DOC)
                      else part)
    return out


def for_users(text: str) -> str:
    """`text` with every citation of the internal spec turned into one of the user docs."""
    text = _SPEC.sub(_sections, text)
    text = _SPEC_BARE.sub(FORMAT_DOC, text)
    return _RULES.sub(RULES_DOC, text)
