"""Rozsáhlá protiakce, která pomáhá (`rozsahla-protiakce`, CS-OPT-AID), an optional rule.

While enabled, a counter-action may protect several targets of the action (or výzva) it answers
(rozsáhle or plošně), pulling nobody new into the contest. The core asks whether this plugin is
enabled when it meets such a counter — including a plošná `kind: protect` counter while
`plosna-protiakce` is off (`engine/contest.py:resolve_contest`); the plugin itself only declares the rule.
"""

from __future__ import annotations

from drd_cli.plugin import hookimpl


@hookimpl
def drd_plugin_info() -> dict:
    return {"title": "Rozsáhlá protiakce, která pomáhá", "kind": "rule area", "rules": ["CS-OPT-AID", "CS-ENV-3"],
            "description": "protiakce smí chránit více cílů akce nebo výzvy"}
