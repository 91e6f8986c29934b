"""The catalogue's generated files: docs/abilities.md, the English catalogue of the cards' texts
(`drd_schopnosti`), and drd_cli/builtin_abilities.py (`python -m drd_cli.abilities docs|po|manifest`)."""

from __future__ import annotations

from typing import Any, Mapping

from .cards import STATUS_WORDS, _slug, activation_text, scope_keys
from .catalogue import installed_catalogue


def scenario_index(root: Any, only: str | None = None) -> dict[str, list[str]]:
    """{ability id: [scenario file names that list it]} over `root/scenarios/*.yaml` (`only`: the
    files that can list that id; the others are not parsed).

    Read with the fast reader (drd_cli/scenario/fastload.py, libyaml, no positions): a card of
    `drd abilities ID` names its scenarios without ruamel reading a hundred files."""
    from pathlib import Path

    out: dict[str, list[str]] = {}
    for path in sorted(Path(root, "scenarios").glob("*.yaml")):
        if only is not None and only not in path.read_text(encoding="utf-8", errors="replace"):
            continue
        data = _plain_document(path)
        parts = data.get("participants") or data.get("účastníci") or {} if isinstance(data, dict) else {}
        for part in parts.values() if isinstance(parts, dict) else ():
            part = part if isinstance(part, dict) else {}
            for item in part.get("abilities") or part.get("schopnosti") or []:
                aid = item.get("id") if isinstance(item, dict) else item
                if isinstance(aid, str) and path.name not in out.setdefault(aid, []):
                    out[aid].append(path.name)
    return out


def _plain_document(path: Any) -> Any:
    """A scenario file's data (plain dicts and lists), or {} when it cannot be read: a broken
    example file is not the catalogue's business."""
    from ..scenario.fastload import Fallback, Limit, load_fast
    from ..scenario.load import MAX_DEPTH, MAX_NODES

    try:
        text = path.read_text(encoding="utf-8")
        try:
            return load_fast(text, MAX_NODES, MAX_DEPTH, positions=False) or {}
        except Fallback:          # what libyaml cannot read as drd would: ruamel, as before
            from ruamel.yaml import YAML

            return YAML(typ="safe").load(text) or {}
    except (Limit, Exception):  # noqa: BLE001 - a broken example file is skipped
        return {}


def render_markdown(cards: Mapping[str, Mapping], scenarios: Mapping[str, list[str]]) -> str:
    """docs/abilities.md: the catalogue as one table (generated: `python -m drd_cli.abilities docs`)."""
    lines = [
        "# The ability catalogue",
        "",
        "Every special ability (zvláštní schopnost) of the revised DrD II edition's five basic professions and",
        "races, as drd knows it: one plugin per ability, whose id is the ability's id. A participant lists",
        "its abilities under `abilities:` (docs/scenario-format.md), with the ability's own keys where it has",
        "a choice to make (`{id: cit-pro-zbran, weapon: meč}`, keys marked `*` are required). An ability acts",
        "only for participants who list it and only within its scope. `drd abilities ID` prints one card",
        "(with an example); `drd plugins --kind ability` lists them; `--disable ID` switches one off.",
        "",
        "Status: **shipped** — changes the numbers of a conflict or who may react or pay; **narrative** —",
        "no number changes beyond its activation cost (paid when an action names it in `activate:`; the",
        "fact the player establishes goes into the action's `note`); **outside the conflict engine** —",
        "healing, crafting or a creature's stat block: no number of a conflict changes, but the ability is",
        "known and its cost is paid when `activate:` names it — in Duše or Vliv, or in Suroviny from the",
        "participant's `suroviny` (improvised Suroviny at 1 Duše each with the key `improvised`), and the",
        "thing made is noted (docs/rules.md \"Suroviny\"). Class A/B/C/D and the families are those of",
        "docs/rules.md \"Ability families\"; the readings where the source is unclear are in docs/rules.md",
        "\"Ability readings\". The mechanic column is our own one-line summary, never the book's text; it is",
        "Czech here, and `drd abilities ID --lang en` shows the card with its English mechanic (docs/i18n.md).",
        "",
        "Every shipped ability has an example scenario, `tests/data/abilities/ID.yaml`, in which that ability",
        "changes a number: `drd check` holds it to its `expect:`, and with `--disable ID` (`drd resolve`) the",
        "result differs — a test keeps both true for the whole catalogue. `drd abilities ID` prints the",
        "scenario's participants and rounds as the card's example; a narrative ability's card says instead",
        "that it changes no number of a conflict beyond its activation cost.",
        "",
        "This page is generated from the plugins' cards (`python -m drd_cli.abilities docs`); a test keeps",
        "it in sync.",
        "",
        f"{len(cards)} abilities.",
        "",
        "| Name | id | Owner | Family | Class | Scope keys | Activation | Mechanic | Status | Scenario |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for aid, card in sorted(cards.items(), key=lambda kv: (_slug(kv[1].get("name") or kv[0]), kv[0])):
        files = ([f"tests/data/abilities/{aid}.yaml"] if card.get("example") else []) + \
            [f"scenarios/{s}" for s in scenarios.get(aid, [])]
        shown = ", ".join(f"`{f}`" for f in files[:2]) or "–"
        cells = [card.get("name") or aid, f"`{aid}`", card.get("owner") or "–", card.get("family") or "–",
                 card.get("class") or "–", scope_keys(card), activation_text(card),
                 (card.get("mechanic") or "").replace("|", "/"), STATUS_WORDS.get(str(card.get("status")), card.get("status")),
                 shown]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


#: The built-in catalogue's own catalog (its texts are written in Czech; English is the translation).
CATALOG_DOMAIN = "drd_schopnosti"


def catalog_po_path(root: Any = None) -> Any:
    from pathlib import Path

    root = Path(root) if root is not None else Path(__file__).resolve().parents[2]
    return root / "plugins" / "drd_plugins" / "locale" / "en" / "LC_MESSAGES" / f"{CATALOG_DOMAIN}.po"


def czech_texts(cards: Mapping[str, Mapping]) -> dict[str, list[str]]:
    """{Czech text: [ability ids]} of the cards' texts the English catalog must translate: each
    mechanic and the part of an activation (cards read in Czech, i.e. as declared)."""
    out: dict[str, list[str]] = {}
    for aid, card in cards.items():
        act = card.get("activation") or {}
        for text in (card.get("mechanic"), act.get("part")):
            if text:
                out.setdefault(text, []).append(aid)
    return out


def update_catalog(root: Any = None) -> list[str]:
    """Rewrites the English catalog of the built-in abilities from the cards (`python -m
    drd_cli.abilities po`) and compiles it; returns the texts still without English.

    A text already translated keeps its English; a changed text of an ability gets the old English
    marked fuzzy (not compiled: shown in Czech, and the tests fail, until someone checks it); a new
    one is added empty; a text no card has any more is dropped.
    """
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po, write_po

    from .. import i18n

    path = catalog_po_path(root)
    with i18n.using("cs"):
        texts = czech_texts(installed_catalogue())
    old = None
    if path.exists():
        with open(path, "rb") as fh:
            old = read_po(fh, locale="en")
    by_id: dict[Any, Any] = {}
    for msg in old or ():
        if msg.id and msg.string:
            for comment in msg.auto_comments:
                by_id.setdefault(comment, msg.string)
    new = Catalog(locale="en", domain=CATALOG_DOMAIN, project="drd", version="1", msgid_bugs_address="",
                  copyright_holder="drd authors", last_translator="drd authors", language_team="en (drd)",
                  fuzzy=False)
    if old is not None:
        new.mime_headers = old.mime_headers      # no new date when nothing else changed
    missing = []
    for text, ids in texts.items():
        previous = old.get(text) if old is not None else None
        string: Any = ""
        flags: set = set()
        if previous is not None and previous.string:
            string, flags = previous.string, set(previous.flags)
        else:
            carried = next((by_id[i] for i in ids if i in by_id), "")
            if carried:
                string, flags = carried, {"fuzzy"}
        if not string or "fuzzy" in flags:
            missing.append(text)
        new.add(text, string, auto_comments=ids, flags=flags)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as fh:
        write_po(fh, new, width=100, include_lineno=False, sort_output=False, include_previous=False)
    with open(path.with_suffix(".mo"), "wb") as fh:
        write_mo(fh, new, use_fuzzy=False)
    return missing


MANIFEST_HEAD = '''"""drd's own ability plugins that a run may leave unimported (issue #14). GENERATED by
`python -m drd_cli.abilities manifest` from the plugins themselves; a test keeps it in sync.

Each is one ability of drd's distribution, on by default, acting only for a participant who lists
it (its id is the ability's), without step types or cards for other abilities: so a run whose
participants do not list it needs nothing from it and does not import it (docs/plugins.md
"Lifecycle"). With each, the names of the rules parameters it declares: a profile setting one
(or another plugin declaring one) imports it after all.
"""

ABILITY_PLUGINS: dict[str, tuple[str, ...]] = {
'''


def dormant_manifest() -> dict[str, tuple[str, ...]]:
    """{plugin id: declared parameter names} of drd's own plugins that `drd_cli.builtin_abilities`
    may list: ability plugins of drd's distribution (not in rules.BUILTIN_PLUGINS) whose only
    ability is their own id, with their own card, on by default, without step types or a
    `catalogue`."""
    from ..plugins import discover, load_plugin
    from ..rules import BUILTIN_PLUGINS

    out: dict[str, tuple[str, ...]] = {}
    for pid, entry in discover().items():
        if not entry.builtin or pid in BUILTIN_PLUGINS or entry.local:
            continue
        plugin = load_plugin(entry)
        info = entry.info or {}
        if (info.get("kind") != "ability" or list(info.get("abilities") or [pid]) != [pid]
                or not info.get("ability") or info.get("enabled_by_default", True) is not True or info.get("catalogue")
                or getattr(plugin, "drd_step_types", None) is not None):
            continue
        out[pid] = tuple(sorted(info.get("params") or ()))
    return dict(sorted(out.items()))


def render_manifest(manifest: dict[str, tuple[str, ...]]) -> str:
    """The source of drd_cli/builtin_abilities.py."""
    lines = [f"    {pid!r}: {params!r}," for pid, params in manifest.items()]
    return MANIFEST_HEAD + "\n".join(lines).replace("'", '"') + "\n}\n"


def _main(argv: list[str]) -> int:
    from pathlib import Path

    from .. import i18n

    root = Path(__file__).resolve().parents[2]
    if argv[:1] == ["po"]:
        missing = update_catalog(root)
        print(f"updated {catalog_po_path(root)}")
        for text in missing:
            print(f"no English yet: {text}")
        return 1 if missing else 0
    if argv[:1] == ["manifest"]:
        (root / "drd_cli" / "builtin_abilities.py").write_text(render_manifest(dormant_manifest()), encoding="utf-8")
        return 0
    if argv[:1] != ["docs"]:
        print("usage: python -m drd_cli.abilities docs      (rewrites docs/abilities.md, in Czech)\n"
              "       python -m drd_cli.abilities po        (updates and compiles the catalogue's English)\n"
              "       python -m drd_cli.abilities manifest  (rewrites drd_cli/builtin_abilities.py)")
        return 2
    with i18n.using("cs"):      # the page is Czech, whatever the environment says
        text = render_markdown(installed_catalogue(), scenario_index(root))
    (root / "docs" / "abilities.md").write_text(text, encoding="utf-8")
    return 0
