"""The layers of drd_cli import in one direction (docs/architecture.md, "Layers").

The import graph is computed from every import statement in drd_cli/, the ones inside functions
and under `if TYPE_CHECKING:` too (read with `ast`, nothing is imported). Two things must hold:

* no circle: no module reaches itself through imports;
* no arrow against the layer table: a module imports only from its own layer or from a layer
  below it; nothing imports the public façade (`drd_cli.plugin`) or the CLI; the engine takes
  from the plugin host only its error type (`drd_cli.plugins.errors`).

Each failure names the importing file and line. The allow-lists below are the known exceptions
still to be removed by other work; they may only shrink (a test checks that every entry is still
needed, so a fixed arrow must leave its list).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "drd_cli"

# Lowest first: a module may import modules of its own layer and of the layers before it.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("errors", "i18n", "citations", "terms", "skills", "awareness", "dice", "digest", "safefiles",
              "user_cache", "gcpause",
              # The words of the engine's events, per language: the result's log text is made from them
              # when the orchestration writes the result (api, testing), so they sit below it.
              "wording")),
    ("contracts", ("hookspecs", "views", "scenario")),
    ("profile", ("rules", "groups", "trust")),
    ("plugin host", ("plugins", "entry_cache", "builtin_abilities")),
    ("abilities", ("abilities",)),
    # Dakara's skill tests are an engine of their own (its models, rules and resolution).
    ("engine", ("engine", "dakara")),
    ("orchestration", ("api", "testing", "toolkit")),
    ("public façade", ("plugin",)),
    ("applications", ("odds", "odds_step", "odds_whatif", "simulate", "simulate_memo", "diff", "check",
                      "schema", "schema_words", "play", "render", "campaign", "table")),
    ("cli", ("cli",)),
]
RANK = {name: i for i, (_layer, names) in enumerate(LAYERS) for name in names}

#: What the engine may take from the plugin host: its error type only.
ENGINE_MAY_USE = {"drd_cli.plugins.errors"}

#: Known circles still to be broken elsewhere (each a frozenset of modules). May only shrink.
ALLOWED_CIRCLES: dict[frozenset[str], str] = {}

#: Known arrows against the table: (importer, imported) → why it is still there. May only shrink.
ALLOWED_ARROWS: dict[tuple[str, str], str] = {}


def _modules() -> dict[str, Path]:
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


def _targets(module: str, path: Path, node: ast.Import | ast.ImportFrom, mods: dict[str, Path]) -> list[str]:
    """The drd_cli modules one import statement reaches (the package's own `__init__` aside)."""
    names: list[str] = []
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    else:
        if node.level:
            package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
            base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        # `from drd_cli import plugins` reaches the module drd_cli.plugins.
        names = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base for a in node.names]
    out = []
    for name in names:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        if name.startswith("drd_cli.") and name != module:
            out.append(name)
    return out


def import_graph() -> dict[str, dict[str, int]]:
    """{importer: {imported: first line}} over every import statement in drd_cli/."""
    mods = _modules()
    graph: dict[str, dict[str, int]] = {m: {} for m in mods}
    for module, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for target in _targets(module, path, node, mods):
                    graph[module].setdefault(target, node.lineno)
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def layer_of(module: str) -> str:
    top = module.split(".")[1]
    if top not in RANK:
        raise AssertionError(f"{module}: in no layer of tests/test_layers.py's LAYERS (add it there "
                             "and to docs/architecture.md)")
    return top


def bad_arrow(importer: str, imported: str) -> str | None:
    """Why this arrow goes against the layering, or None when it is fine."""
    a, b = layer_of(importer), layer_of(imported)
    if b == "plugin":
        return "nothing inside drd_cli imports the public façade drd_cli.plugin"
    if b == "cli" and a != "cli":
        return "nothing outside the CLI imports drd_cli.cli"
    if a == "engine" and RANK[b] == RANK["plugins"] and imported not in ENGINE_MAY_USE:
        return "the engine takes from the plugin host only its error type (drd_cli.plugins.errors)"
    if RANK[b] > RANK[a]:
        return f"{LAYERS[RANK[a]][0]} imports {LAYERS[RANK[b]][0]}, a layer above it"
    return None


def _where(graph: dict[str, dict[str, int]], importer: str, imported: str) -> str:
    path = _modules()[importer].relative_to(ROOT)
    return f"{path}:{graph[importer][imported]}"


def test_every_module_is_in_a_layer():
    for module in _modules():
        if module != "drd_cli":
            layer_of(module)


def test_no_import_circle():
    graph = import_graph()
    bad = []
    for group in circles(graph):
        if frozenset(group) in ALLOWED_CIRCLES:
            continue
        members = set(group)
        arrows = [f"  {_where(graph, m, t)} imports {t}" for m in group for t in graph[m] if t in members]
        bad.append(" ↔ ".join(group) + "\n" + "\n".join(arrows))
    assert not bad, "import circles:\n" + "\n".join(bad)


def test_no_arrow_against_the_layers():
    graph = import_graph()
    bad = []
    for importer in sorted(graph):
        for imported in sorted(graph[importer]):
            why = bad_arrow(importer, imported)
            if why and (importer, imported) not in ALLOWED_ARROWS:
                bad.append(f"{_where(graph, importer, imported)}: {importer} → {imported}: {why}")
    assert not bad, "imports against the layers (docs/architecture.md):\n" + "\n".join(bad)


def test_allow_lists_only_hold_what_is_still_there():
    graph = import_graph()
    groups = {frozenset(g) for g in circles(graph)}
    stale = [" ↔ ".join(sorted(c)) for c in ALLOWED_CIRCLES if c not in groups]
    stale += [f"{a} → {b}" for a, b in ALLOWED_ARROWS if b not in graph.get(a, {}) or not bad_arrow(a, b)]
    assert not stale, "allowed but no longer there (remove them from the allow-list):\n" + "\n".join(stale)


@pytest.mark.parametrize("source, expected", [
    ("from . import plugins\n", "drd_cli.plugins"),
    ("from .plugins import PluginError\n", "drd_cli.plugins"),
    ("def f():\n    import drd_cli.errors\n", "drd_cli.errors"),
    ("def f():\n    from .scenario.models import Scenario\n", "drd_cli.scenario.models"),
])
def test_the_graph_sees_every_kind_of_import(tmp_path, source, expected):
    mods = _modules()
    node = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Import, ast.ImportFrom)))
    assert expected in _targets("drd_cli.api", PACKAGE / "api.py", node, mods)


def test_a_circle_is_found():
    assert circles({"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}) == [["a", "b", "c"]]
