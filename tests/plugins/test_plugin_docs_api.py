"""docs/plugins.md is the whole plugin API: its examples need no module of drd but `drd_cli.plugin`
(and `drd_cli.testing` for tests), its example plugins run against the engine, every public name
is documented, and its lists of built-in ids and plugins are drd's own."""

from __future__ import annotations

import re
import textwrap
import tomllib
import types
from pathlib import Path

import pytest

import drd_cli.plugin as public
from drd_cli.testing import resolve_text, step

ROOT = Path(__file__).parents[2]
DOCS = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^( *)```([a-z]*)\n(.*?)^ *```", re.S | re.M)
ENTRY_POINTS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))[
    "project"]["entry-points"]["drd_cli.plugins"]


def blocks(lang: str | None = None) -> list[tuple[str, str]]:
    """(the line before the block, the block's text dedented) of every fenced block, or of one language."""
    out = []
    for m in BLOCK.finditer(DOCS):
        if lang is None or m.group(2) == lang:
            before = DOCS[:m.start()].rstrip().splitlines()[-1]
            out.append((before, textwrap.dedent(m.group(3))))
    return out


def test_no_example_names_a_module_of_drd_but_the_public_one():
    allowed = {"drd_cli.plugin", "drd_cli.testing"}
    for before, code in blocks():
        # the entry-point group's name is not a module (the tutorial's pyproject.toml)
        text = code.replace('entry-points."drd_cli.plugins"', "")
        named = set(re.findall(r"\bdrd_cli\.[a-z_]+", text))
        assert named <= allowed, f"the example after {before!r} names {sorted(named - allowed)}"
        assert not re.search(r"^\s*(from drd_cli import|import drd_cli\s*$)", text, re.M), before


# ---------------------------------------------------------------------- the examples run

DUEL = """
format: drd/1
participants:
  hero: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 1, levels: {bojovnik: 2}, side: a,
         traits: [hlidka], events: [rozbitý amulet], equipment: [amulet]}
  friend: {pools: {telo: 9, duse: 9, vliv: 9}, ohrozeni: 2, side: a}
  ogre: {sudba: 9, ohrozeni: 3, side: b}
rounds:
  - steps:
      - id: duel
        contest:
          action: {actor: ogre, targets: [hero], roll: 10, effect: {ohrozeni: 1}}
          counters: [{actor: hero, kind: harm, roll: 10, pool: telo}]
"""


def _module(code: str) -> types.ModuleType:
    module = types.ModuleType("drd_doc_example")
    exec(compile(code, "docs/plugins.md", "exec"), module.__dict__)
    return module


def hook_examples() -> list[tuple[str, str]]:
    """The python examples of the hook and API sections that define a plugin (not the tutorial's
    files, which test_plugin_docs_tutorial keeps equal to examples/, nor fragments)."""
    return [(before, code) for before, code in blocks("python")
            if "@hookimpl" in code and not before.startswith("`drd-stit-predku/")]


@pytest.mark.parametrize("before,code", hook_examples(), ids=lambda x: x[:40] if isinstance(x, str) else "")
def test_every_example_plugin_loads_and_resolves_a_scenario(before, code):
    module = _module(code)
    hooks = [name for name in vars(module) if name.startswith("drd_")]
    assert hooks, before
    if "strop_vycerpani" in code:
        module.drd_plugin_info = public.hookimpl(lambda: {"title": "Strop", "kind": "house rule", "params": {
            "strop_vycerpani": {"default": 3, "type": "int"}}})
    result = resolve_text(DUEL, plugins={"doc-example": module}, enable=("doc-example",))
    assert step(result, "duel")["pairs"]


def test_the_tie_example_gives_a_tie_to_the_lower_ohrozeni():
    [code] = [code for before, code in hook_examples() if "drd_pair_winner" in code]
    without = resolve_text(DUEL)
    assert step(without, "duel")["pairs"][0]["winner"] == "ogre"           # tie: the actor (the `tie` param)
    got = resolve_text(DUEL, plugins={"remiza-doc": _module(code)})
    pair = step(got, "duel")["pairs"][0]
    assert pair["winner"] == "hero" and pair["tie"] is True and pair["decided_by"] == "remiza-doc"


def test_the_step_model_example_validates_with_bounds_and_czech_spellings():
    [code] = [code for before, code in blocks("python") if "class Vyjednavani(StepModel)" in code]
    module = _module(code)
    steps = DUEL.split("      - id: duel")[0]
    ok = steps + "      - id: jednani\n        vyjednavani: {actor: hero, obtížnost: 10, pokusy: 2}\n"
    entry = step(resolve_text(ok, plugins={"vyjednavani": module}), "jednani")
    assert any("2 × against 10" in line["text"] for line in entry["log"])
    from drd_cli.plugin import DrdError

    for bad in ("pokusy: 9", "tries: '2'", "pokusi: 2"):
        text = steps + "      - id: jednani\n        vyjednavani: {actor: hero, %s}\n" % bad
        with pytest.raises(DrdError) as err:
            resolve_text(text, plugins={"vyjednavani": module})
        assert err.value.exit_code == 2 and ":" in err.value.format()


# ---------------------------------------------------------------------- the lists

def test_every_public_name_is_documented():
    for name in public.__all__:
        assert f"`{name}" in DOCS, f"drd_cli.plugin.{name} is not in docs/plugins.md"


def test_the_list_of_built_in_ids_is_the_entry_points_of_drd():
    listed = DOCS.split("<!-- built-in ids -->")[1].split("<!-- /built-in ids -->")[0]
    assert re.findall(r"`([a-z0-9-]+)`", listed) == sorted(ENTRY_POINTS)


def test_the_built_in_plugins_table_lists_every_built_in_plugin_that_is_not_one_ability():
    from drd_cli.builtin_abilities import ABILITY_PLUGINS
    from drd_cli.rules import BUILTIN_PLUGINS

    table = DOCS.split("## Built-in plugins")[1].split("\n## ")[0]
    shown = {pid for row in re.findall(r"^\| ([^|]+)\|", table, re.M) for pid in re.findall(r"`([a-z0-9-]+)`", row)}
    others = {pid for pid in ENTRY_POINTS if pid not in ABILITY_PLUGINS} | set(BUILTIN_PLUGINS)
    assert others <= shown, sorted(others - shown)
