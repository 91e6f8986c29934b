"""What tests of the plugin lifecycle share (not a test module): a fake installed distribution
(`fake_dist`) and the façade's record of acting plugins.

`FACADE_TRACKS_ACTED`: whether the engine's hook façade records which plugins changed something
(`Hooks.acted`, issue #10). A result names a third-party plugin only when it acted, so the checks
that a plugin which *did* something through a hook is listed need that record; until the façade
has it, only plugin step types count as acting (drd_cli.plugins.plugins_acted).
"""

from __future__ import annotations

import textwrap

from drd_cli.engine.hooks import Hooks

FACADE_TRACKS_ACTED = hasattr(Hooks(None), "acted")


def fake_dist(root, dist: str, plugins: dict[str, str], modules: dict[str, str]) -> None:
    """A .dist-info with entry points (and its modules) in `root`, which goes on sys.path."""
    info = root / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[drd_cli.plugins]\n" + "".join(f"{k} = {v}\n" for k, v in plugins.items()), encoding="utf-8")
    for name, code in modules.items():
        (root / f"{name}.py").write_text(textwrap.dedent(code), encoding="utf-8")
