"""Interactive resolution at the table (`drd play`, `drd resolve --choose ask`), in parts:

* `reading` — what was typed for a roll (`parse_roll`), undo/redo/`?` words, the prompt/answer
  channel (`Table`);
* `previews` — what is shown before typing: exact odds, each option's engine-computed price
  and the what-if odds of the roller (`what_if_lines`, from `drd_cli.odds.what_if`);
* `explain` — how every number of a step came about, from the result's breakdowns (`?`, `drd explain`);
* `offers` — the decision dialogs built on the previews;
* `session` — the live engine run that asks, with its history (undo, redo);
* `replay` — the replay file written from what was entered (`replay_text`, `replay_rules`);
* `resume` — `drd play REPLAY --from STEP`.
"""

from __future__ import annotations

from .previews import Preview, Previewer, Stop, pct
from .reading import Table, parse_roll
from .replay import replay_rules, replay_text
from .session import Session

__all__ = ["Preview", "Previewer", "Session", "Stop", "Table", "parse_roll", "pct", "replay_rules", "replay_text"]
