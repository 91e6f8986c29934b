"""The card examples of the catalogue: for each shipped ability, the body (from `participants:` up to
`expect:`) of its example scenario tests/data/abilities/<id>.yaml, in which that ability changes a
number. Kept in priklady.json beside this module (shipped with the package: a card is shown
without the repository's tests); `python -m drd_plugins.priklady` rewrites it from the scenarios,
and tests/abilities/test_card_examples.py keeps the two in sync and holds each scenario to its
`expect:` with the ability and without it.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

DATA = Path(__file__).with_name("priklady.json")


@functools.cache
def examples() -> dict[str, tuple[str, ...]]:
    """{ability id: the lines of its example}."""
    return {aid: tuple(lines) for aid, lines in json.loads(DATA.read_text(encoding="utf-8")).items()}


def body(text: str) -> list[str]:
    """A scenario's lines from `participants:` up to `expect:` (blank lines left out)."""
    lines = text.splitlines()
    start, end = lines.index("participants:"), lines.index("expect:")
    return [line for line in lines[start:end] if line.strip()]


def main() -> int:
    root = Path(__file__).resolve().parents[2] / "tests" / "data" / "abilities"
    data = {p.stem: body(p.read_text(encoding="utf-8")) for p in sorted(root.glob("*.yaml"))}
    DATA.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA} ({len(data)} examples)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
