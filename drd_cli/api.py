"""The library API: load a scenario file, resolve it, get the result contract as a dict.

Everything the CLI commands do goes through these functions; the engine itself stays pure
(no I/O) and is reached only from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass
class LoadedScenario:
    """A validated scenario together with where every part of it came from."""

    path: str
    scenario: Any          # drd_cli.scenario.models.Scenario (or the Dakara root model)
    source: Any            # drd_cli.scenario.load.SourceMap
    raw: Any               # the ruamel document (CommentedMap)


def load_scenario(path: str) -> LoadedScenario:
    """Read and validate a scenario file; raises ScenarioError (exit 2) with file:line:col."""
    raise NotImplementedError("being written: core engine issue #2")


def resolve_scenario(loaded: LoadedScenario, *, seed: int | None = None, choose: str = "accept",
                     params: dict[str, str] | None = None, enable: tuple[str, ...] = (),
                     disable: tuple[str, ...] = (), group: str | None = None) -> dict:
    """Resolve a loaded scenario; returns the result contract (SCENARIO-FORMAT §7) as a dict.

    Raises RuleViolation (exit 1) when a rule forbids something in the file; its problems carry
    document paths, already turned into file:line:col using `loaded.source`.
    """
    raise NotImplementedError("being written: core engine issue #2")
