"""The ability catalogue and the checks of what a scenario says about abilities (RULES.md §3.1).

* `catalogue(plugins)` — {ability id: card} from the plugins' `drd_plugin_info()["ability"]`
  (docs/abilities.md is generated from it);
* `check_uses(scenario, profile, pm)` — called by `plugins.check_plugin_uses`:
  an ability no plugin provides → exit 2 at file:line:col with "did you mean" over the catalogue;
  an ability key its plugin does not declare, a value it cannot take, a required key missing →
  exit 2 at the key. (`activate:` naming an ability the actor does not list, or one without an
  activation, is refused by the engine when the action is prepared: exit 1, R-ABIL-ACT.)

A card's `keys` declare the ability's own keys: ``{key: {"choices": [...] | "type": "int"|"bool"|"str",
"required": bool, "default": …, "per_use": bool, "help": str}}``. A `per_use` key is chosen for
each activation (on the `activate:` item, or as the participant's usual choice on the `abilities:`
entry); one without a `default` must be given one of the two ways when the ability is activated.
"""

from __future__ import annotations

import difflib
from typing import Any, Iterable, Mapping

from .citations import FORMAT_DOC
from .errors import Problem, ScenarioError
from .i18n import N_, _

PARTICIPANTS = f"{FORMAT_DOC} §2"   # participants, their abilities and the abilities' own keys


def _slug(text: str) -> str:
    from .skills import slug

    return slug(text)


def info_of(plugin: Any, pid: str = "") -> dict:
    """A plugin's `drd_plugin_info()` as `plugins.plugin_info` reads it (once per language), or an
    empty dict when it has none or it fails: its own bug is reported where drd reads its parameters."""
    from .plugins import PluginError, plugin_info

    try:
        return plugin_info(pid, plugin)
    except PluginError:
        return {}


def catalogue(plugins: Iterable[tuple[str, Any]]) -> dict[str, dict]:
    """{ability id: card} of the given (id, plugin object) pairs, sorted by id.

    A plugin of kind "ability" gives its own card (`info["ability"]`); a plugin may also supply
    cards for abilities whose plugins carry none (`info["catalogue"]`: {ability id: card}, or a
    function giving it, read only here; the `schopnosti` plugin does so for the six older
    modules). An ability plugin without any card gets a minimal one.
    """
    infos = {pid: info_of(obj, pid) for pid, obj in plugins}
    extra: dict[str, dict] = {}
    for pid in sorted(infos):
        supplied = infos[pid].get("catalogue")
        for aid, card in ((supplied() if callable(supplied) else supplied) or {}).items():
            extra.setdefault(aid, dict(card))
    out: dict[str, dict] = {}
    for pid, info in infos.items():
        if info.get("kind") != "ability":
            continue
        card = info.get("ability") or extra.get(pid) or {
            "name": info.get("title") or pid, "owner": None, "family": None, "class": None, "scope": {},
            "activation": None, "mechanic": info.get("description") or "", "status": "shipped", "keys": {}}
        out[pid] = dict(card, id=pid, rules=list(info.get("rules") or []))
    return dict(sorted(out.items()))


def installed_catalogue(only: str | None = None) -> dict[str, dict]:
    """The catalogue of every installed plugin (imports them: for `drd abilities` and the docs).

    `only`: an ability id — import just its plugin (and `schopnosti`, which carries the cards of
    the older modules); the result is {} when that gives no card for it (`drd abilities ID`)."""
    from .plugins import PluginError, discover, load_plugin

    entries = discover()
    if only is not None:
        try:
            got = catalogue([(pid, load_plugin(entries[pid])) for pid in dict.fromkeys((only, "schopnosti"))
                             if pid in entries])
        except PluginError:
            return {}
        return {only: got[only]} if only in got else {}
    pairs = []
    for pid, entry in entries.items():
        try:
            pairs.append((pid, load_plugin(entry)))
        except PluginError:
            continue
    return catalogue(pairs)


def suggest(name: str, ids: Iterable[str], cards: Mapping[str, Mapping] | None = None) -> str | None:
    """The ability id closest to `name`: its id or Czech name written another way, else difflib."""
    ids = list(ids)
    key = _slug(name)
    if key in ids:
        return key
    for aid, card in (cards or {}).items():
        if card.get("name") and _slug(card["name"]) == key:
            return aid
    close = difflib.get_close_matches(key, ids, n=1, cutoff=0.6)
    if not close and cards:
        names = {_slug(c["name"]): aid for aid, c in cards.items() if c.get("name")}
        close = [names[n] for n in difflib.get_close_matches(key, list(names), n=1, cutoff=0.6)]
    return close[0] if close else None


def _plugin(pm: Any, pid: str, *, wake: bool = True) -> Any:
    """The plugin object of an enabled plugin `pid`: registered, loaded but idle, or (with
    `wake`) one of drd's own that the run left unimported (plugins.dormant), imported now."""
    if pm is None:
        return None
    try:
        # An enabled ability plugin the scenario does not list is loaded but not registered.
        got = pm.get_plugin(pid) or (getattr(pm, "drd_idle", None) or {}).get(pid)
    except Exception:  # noqa: BLE001 - a manager without it
        return None
    if got is None and wake and pid in (getattr(pm, "drd_dormant", None) or ()):
        from .plugins import load_plugin

        got = load_plugin(pm.drd_entries[pid])
    return got


def check_keys(aid: str, card: Mapping, options: Mapping[str, Any], path: tuple, *, rule: str = PARTICIPANTS,
               also: Iterable[str] = (), required: bool = True) -> list[Problem]:
    """Problems (exit 2) of one ability's own keys against its card's declaration.

    `also`: other keys the mapping may have (for "did you mean"); `required`: check the keys the
    card marks required (an `activate:` item's keys go over the `abilities:` entry's, which has them).
    """
    decls = card.get("keys") or {}
    name = card.get("name") or aid
    problems: list[Problem] = []
    for key, value in options.items():
        decl = decls.get(key)
        if decl is None:
            close = difflib.get_close_matches(str(key), list(decls) + list(also), n=1)
            hint = (_("did you mean {option}?").format(option=repr(close[0])) if close else
                    _("{ability} takes the keys: {keys}").format(ability=name, keys=", ".join(decls)) if decls else
                    _("{ability} takes no keys of its own: list it as a plain id").format(ability=name))
            problems.append(Problem(_("the ability {id} has no key {key}").format(id=repr(aid), key=repr(key)),
                                    rule=rule, path=path + (key,), hint=hint))
            continue
        choices = [str(c) for c in decl.get("choices") or ()]
        if choices:
            if not isinstance(value, str) or value not in choices:
                close = difflib.get_close_matches(str(value), choices, n=1) if isinstance(value, str) else []
                hint = (_("did you mean {option}?").format(option=repr(close[0])) if close
                        else _("one of: {choices}").format(choices=", ".join(choices)))
                problems.append(Problem(_("{ability} cannot have {key}: {value}").format(
                    ability=name, key=key, value=repr(value)), rule=rule, path=path + (key,),
                    hint=hint))
            continue
        kind = decl.get("type", "str")
        if kind == "int":
            ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
            what = _("a whole number ≥ 0")
        elif kind == "bool":
            ok, what = isinstance(value, bool), _("true or false")
        else:
            ok, what = isinstance(value, str) and bool(value.strip()), _("a text")
        if not ok:
            problems.append(Problem(_("{ability}: {key} must be {what}, got {value}").format(
                ability=name, key=key, value=repr(value), what=what),
                rule=rule, path=path + (key,)))
    for key, decl in decls.items():
        if required and decl.get("required") and key not in options:
            problems.append(Problem(_("the ability {id} needs its key {key}").format(id=repr(aid), key=repr(key)),
                                    rule=PARTICIPANTS, path=path,
                                    hint=_("write it as a mapping: {{id: {id}, {key}: …}} ({help})").format(
                                        id=aid, key=key, help=decl.get("help") or key)))
    return problems


def check_uses(scenario: Any, profile: Any, pm: Any = None) -> None:
    """The ability checks of one scenario (see the module docstring); raises ScenarioError (exit 2)."""
    from .scenario.models import ability_id

    known = set(profile.known_plugins)
    participants = getattr(scenario, "participants", None) or {}
    cards: dict[str, dict] | None = None

    def card_of(aid: str, *, every: bool = False) -> dict | None:
        """The card of `aid` among the enabled plugins' (`every`: with all their cards, for a "did
        you mean"). One of drd's own plugins the run left unimported is imported for its card."""
        nonlocal cards
        if cards is None or every:
            pairs = [(pid, _plugin(pm, pid, wake=every)) for pid in sorted(profile.enabled)]
            cards = catalogue([(pid, obj) for pid, obj in pairs if obj is not None])
        if aid not in cards and aid in profile.enabled:
            obj = _plugin(pm, aid)
            if obj is not None:
                cards = dict(sorted({**cards, **catalogue([(aid, obj)])}.items()))
        return cards.get(aid)

    invalid: list[Problem] = []
    for pid, part in participants.items():
        named: list[tuple[tuple, str, Mapping]] = []
        for i, item in enumerate(getattr(part, "abilities", None) or []):
            opts = {} if isinstance(item, str) else item.options()
            named.append((("participants", pid, "abilities", i), ability_id(item), opts))
        for j, thing in enumerate(getattr(part, "equipment", None) or []):
            for i, aid in enumerate(getattr(thing, "enables", None) or []):
                named.append((("participants", pid, "equipment", j, "enables", i), aid, {}))
        for path, aid, opts in named:
            if aid not in known:
                card_of(aid, every=True)
                close = suggest(aid, [a for a in known if a in (cards or {})] or known, cards)
                hint = (_("did you mean {option}?").format(option=repr(close)) + " " if close else "") + \
                    _("the abilities are listed by `drd plugins --kind ability` and in docs/abilities.md; an ability "
                      "of another package needs that package installed (or `--plugins-dir DIR`)")
                invalid.append(Problem(_("unknown ability {name}").format(name=repr(aid)), rule=PARTICIPANTS,
                                       path=path, hint=hint))
                continue
            if aid not in profile.enabled or path[2] != "abilities":
                continue         # off: it does nothing, so its keys are not read
            card = card_of(aid)
            if card is not None:
                invalid += check_keys(aid, card, opts, path)
    if invalid:
        raise ScenarioError(invalid)


# --------------------------------------------------------------------------- the catalogue's pages

#: The shared parameters (declared by the `schopnosti` plugin, `padny_uder_natural` by padny-uder)
#: that every ability of a rule reads; a parameter only one ability reads is named by its card's
#: `reading` (`takovy_prcek: once | per-foe`).
RULE_PARAMS: dict[str, tuple[str, ...]] = {
    "R-ABIL-ZB": ("zbehlost",),
    "R-ABIL-NAD": ("nadani",),
    "R-ABIL-PROT": ("padny_uder_natural",),
}


def card_params(card: Mapping[str, Any]) -> set[str]:
    """The names of the parameters an ability's card shows: those it says it reads (`reads`), else
    its rules' shared ones and its reading's."""
    if card.get("reads") is not None:
        return set(card["reads"])
    names = {n for rule in card.get("rules") or () for n in RULE_PARAMS.get(rule, ())}
    reading = card.get("reading")
    if isinstance(reading, str) and ":" in reading:
        names.add(reading.split(":", 1)[0].strip())
    return names

STATUS_WORDS = {"shipped": N_("shipped"), "narrative": N_("narrative"), "outside the engine": N_("outside the conflict engine")}


#: How a card shows its scope keys (the built-in families' keys; another plugin's key is shown as written).
SCOPE_WORDS = {
    "skill": N_("skill"), "means": N_("means"), "area": N_("plošná"), "group": N_("group size"),
    "item": N_("item"), "per": N_("how often"), "counter_pool": N_("pool of the counter"), "range": N_("range"),
    "threat_pool": N_("pool of the threat"), "pool": N_("pool"), "opponents": N_("opponents"),
    "traits": N_("traits"), "targets": N_("targets"), "label": N_("action label"), "event": N_("event"),
    "jizva_tags": N_("tags of the Jizva"), "jizva_pool": N_("pool of the Jizva"), "near": N_("helper"),
    "condition": N_("condition"), "step": N_("step"), "awake": N_("awake"), "rozsahle": N_("rozsáhle free"),
    "when": N_("when"),
}

#: How the type of a value is said (a parameter's `allowed`, an ability key's `type`).
KIND_WORDS = {"whole number ≥ 0": N_("whole number ≥ 0"), "int": N_("whole number ≥ 0"), "text": N_("text"),
              "str": N_("text")}


def allowed_text(allowed: str) -> str:
    """A parameter's allowed values (`ParamSpec.describe`, English in JSON) as the listing says them:
    the kind in words, the values (codes the user types) as they are."""
    head, sep, rest = str(allowed).partition(" | none")
    return (_(KIND_WORDS[head]) if head in KIND_WORDS else head) + sep + rest


def value_text(value: Any) -> str:
    """A default or scope value as the user writes it (`true`, not Python's `True`)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def scope_text(scope: Mapping[str, Any]) -> str:
    """`skill: bezny-boj-zblizka; plošná: true` — a card's scope in the run's language."""
    def plain(value: Any) -> str:
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        if isinstance(value, (list, tuple)):
            return ", ".join(map(value_text, value))
        if isinstance(value, Mapping):
            return ", ".join(f"{word(k)}: {plain(v)}" for k, v in value.items() if v is not None)
        return value_text(value)

    def word(key: str) -> str:
        return _(SCOPE_WORDS[key]) if key in SCOPE_WORDS else str(key)

    return "; ".join(f"{word(k)}: {plain(v)}" for k, v in scope.items()) or "–"


def scope_keys(card: Mapping) -> str:
    """`skill, means` — the names of the scope keys and of the ability's own keys (`weapon*` = required)."""
    keys = list((card.get("scope") or {}).keys())
    own = [k + ("*" if d.get("required") else "") for k, d in (card.get("keys") or {}).items()]
    return ", ".join(dict.fromkeys(keys + [f"`{k}`" for k in own])) or "–"


def activation_text(card: Mapping) -> str:
    act = card.get("activation")
    if not act:
        return "–"
    pool = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv", "suroviny": "Suroviny"}.get(act["pool"], act["pool"])
    cost = "/".join(str(c) for c in sorted(set((act.get("tiers") or {}).values()))) or str(act["cost"])
    return f"{cost} {pool}" + (f" ({act['part']})" if act.get("part") else "")


def scenario_index(root: Any, only: str | None = None) -> dict[str, list[str]]:
    """{ability id: [scenario file names that list it]} over `root/scenarios/*.yaml` (`only`: the
    files that can list that id)."""
    from pathlib import Path

    from ruamel.yaml import YAML

    out: dict[str, list[str]] = {}
    for path in sorted(Path(root, "scenarios").glob("*.yaml")):
        try:
            text = path.read_text(encoding="utf-8")
            if only is not None and only not in text:
                continue         # cannot list it: not parsed (parsing every file takes seconds)
            data = YAML(typ="safe").load(text) or {}
        except Exception:  # noqa: BLE001 - a broken example file is not this page's business
            continue
        parts = data.get("participants") or data.get("účastníci") or {}
        for part in parts.values() if isinstance(parts, dict) else ():
            for item in (part or {}).get("abilities") or (part or {}).get("schopnosti") or []:
                aid = item.get("id") if isinstance(item, dict) else item
                if isinstance(aid, str) and path.name not in out.setdefault(aid, []):
                    out[aid].append(path.name)
    return out


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
                 (card.get("mechanic") or "").replace("|", "/"), STATUS_WORDS.get(card.get("status"), card.get("status")),
                 shown]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- the English of the catalogue

#: The built-in catalogue's own catalog (its texts are written in Czech; English is the translation).
CATALOG_DOMAIN = "drd_schopnosti"


def catalog_po_path(root: Any = None) -> Any:
    from pathlib import Path

    root = Path(root) if root is not None else Path(__file__).resolve().parents[1]
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

    from . import i18n

    path = catalog_po_path(root)
    with i18n.using("cs"):
        texts = czech_texts(installed_catalogue())
    old = None
    if path.exists():
        with open(path, "rb") as fh:
            old = read_po(fh, locale="en")
    by_id: dict[str, str] = {}
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
        string, flags = "", set()
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


# --------------------------------------------------------------------------- drd's own ability plugins

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
    from .plugins import discover, load_plugin
    from .rules import BUILTIN_PLUGINS

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

    from . import i18n

    root = Path(__file__).resolve().parents[1]
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


if __name__ == "__main__":
    import sys

    raise SystemExit(_main(sys.argv[1:]))
