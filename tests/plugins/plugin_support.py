"""What tests of the plugin lifecycle share (not a test module).

`FACADE_TRACKS_ACTED`: whether the engine's hook façade records which plugins changed something
(`Hooks.acted`, issue #10). A result names a third-party plugin only when it acted, so the checks
that a plugin which *did* something through a hook is listed need that record; until the façade
has it, only plugin step types count as acting (drd_cli.plugins.plugins_acted).
"""

from __future__ import annotations

from drd_cli.engine.hooks import Hooks

FACADE_TRACKS_ACTED = hasattr(Hooks(None), "acted")
