"""`drd abilities [ID]`: the ability catalogue (docs/abilities.md), or one ability's card.

Imports only typer at module level (startup speed); the plugins are read inside the command.
"""

from __future__ import annotations

from typing import Any, Optional

import typer

from ._common import N_, Lang, lang_option, use_language

HELP = N_("List the special abilities drd knows, or print one ability's card: its mechanic, scope, own keys, "
          "activation, parameters and an example (docs/abilities.md).")


# An ability family's id (the catalogue's and the JSON's) → its name for people.
FAMILY_WORDS = {
    "activation-only": N_("activation only"), "awareness": N_("awareness"), "crafting": N_("crafting"),
    "discount": N_("discount"), "extended-defence": N_("defending others"), "free-manoeuvre": N_("free manoeuvre"),
    "gain-resources": N_("gaining points"), "healing": N_("healing"), "narocnost": N_("demanding actions"),
    "narrative-authority": N_("narrative authority"), "share-resources": N_("sharing points"),
    "skill-level": N_("skill mastery"), "stronger-scar": N_("stronger Jizva"),
}


def family_text(family: str | None) -> str:
    """`skill-level + activation-only` → `zběhlost v dovednosti + jen aktivace` (an unknown id as it is)."""
    from ..i18n import _

    if not family:
        return "–"
    return " + ".join(_(FAMILY_WORDS[p]) if p in FAMILY_WORDS else p for p in (x.strip() for x in family.split("+")))


def _params(own: str | None = None) -> dict:
    """{name: (default, allowed, rule)} of the parameters the ability families read (declared by the
    plugins `schopnosti` and `padny-uder`), or with `own` those the ability's own plugin declares."""
    from ..plugins import PluginError, declared_params, discover, load_plugin

    out: dict = {}
    entries = discover()
    for pid in ((own,) if own else ("schopnosti", "padny-uder")):
        if pid not in entries:
            continue
        try:
            specs = declared_params(pid, load_plugin(entries[pid]))
        except PluginError:
            continue
        out.update({n: (s.default, s.describe(), s.rule) for n, s in specs.items()})     # English: the JSON
    return dict(sorted(out.items()))


def example(aid: str, card: dict) -> list[str]:
    """A minimal scenario fragment that uses the ability (for the card): the card's own `example`
    (lines) where it gives one, else one built from its keys, scope and activation."""
    if card.get("example"):
        return [str(line) for line in card["example"]]
    keys = card.get("keys") or {}
    tiers = (card.get("activation") or {}).get("tiers") or {}

    def value(d: dict) -> Any:
        if d.get("choices"):
            if d.get("per_use") and tiers:            # the dearest tier: the example shows the choice matters
                return max(d["choices"], key=lambda c: tiers.get(c, 0))
            return d.get("default", d["choices"][0])
        return 1 if d.get("type") == "int" else d.get("default", "…")

    # keys chosen per activation go on the `activate:` item
    own = ", ".join(f"{k}: {value(d)}" for k, d in keys.items()
                    if not d.get("per_use") and (d.get("required") or d.get("choices")))
    per_use = ", ".join(f"{k}: {value(d)}" for k, d in keys.items()
                        if d.get("per_use") and ("default" not in d or d.get("choices")))
    ref = f"{{id: {aid}, {own}}}" if own else aid
    scope = card.get("scope") or {}
    action = ["actor: hrdina"]
    for key in ("skill", "means"):
        if isinstance(scope.get(key), list) and scope[key]:
            action.append(f"{key}: {scope[key][0]}")
    pool = (card.get("activation") or {}).get("pool")
    if pool in ("telo", "duse", "vliv", "suroviny"):
        action.append(f"activate: [{{id: {aid}, {per_use}}}]" if per_use else f"activate: [{aid}]")
    hero = "{name: Hrdina, pools: {telo: 5, duse: 5, vliv: 5}, " + ("suroviny: 3, " if pool == "suroviny" else "")
    return ["participants:", f"  hrdina: {hero}abilities: [{ref}]}}",
            "…", f"  - test: {{{', '.join(action)}, roll: 8}}"]


def abilities(
    ability: Optional[str] = typer.Argument(None, metavar="[ID]", help=N_("The ability's id (or its Czech name).")),
    json_out: bool = typer.Option(False, "--json", help=N_("Print as JSON.")),
    lang: Optional[Lang] = lang_option(),
) -> None:
    """List the special abilities drd knows, or print one ability's card (docs/abilities.md)."""
    from ._common import guarded

    use_language(lang)
    with guarded():
        _run(ability, json_out)


def _run(ability: str | None, json_out: bool) -> None:
    import json

    from ..abilities import (KIND_WORDS, card_params, activation_text, allowed_text,
                             installed_catalogue, scope_keys, scope_text, suggest, value_text)
    from ..errors import COMMAND_LINE, Location, ScenarioError
    from ..i18n import _

    # One card by its id imports only its plugin (the whole catalogue is read for a listing, a Czech
    # name, a "did you mean").
    cards = (ability is not None and (installed_catalogue(only=ability) or _by_name(ability))) or installed_catalogue()
    if ability is None:
        if json_out:
            typer.echo(json.dumps(cards, ensure_ascii=False, indent=2))
            return
        for aid, card in cards.items():
            typer.echo(f"{aid:<20} {card.get('name') or aid:<22} {card.get('owner') or '–':<11} "
                       f"{family_text(card.get('family')):<40} {status_text(card)}")
        return
    aid = ability if ability in cards else None
    if aid is None:
        from ..skills import slug

        close = suggest(ability, cards, cards)
        if close is not None and slug(ability) in (close, slug(cards[close].get("name") or "")):
            aid = close          # the Czech name, or the id written another way
        else:
            raise ScenarioError(_("unknown ability {name}").format(name=repr(ability)), location=Location(COMMAND_LINE),
                                hint=(_("did you mean {option}?").format(option=repr(close)) + " " if close else "")
                                + _("`drd abilities` lists them all"))
    card = cards[aid]
    shown = card_params(card)
    params = {n: v for n, v in _params().items() if n in shown}
    params.update(_params(aid))     # those the ability's own plugin declares (skvely_taktik)
    if json_out:
        typer.echo(json.dumps(dict(card, params={n: {"default": d, "allowed": a, "rule": r}
                                                 for n, (d, a, r) in params.items()}), ensure_ascii=False, indent=2))
        return
    out = [f"{card.get('name') or aid} ({aid}) — {card.get('owner') or '–'}, {card.get('category') or '–'}",
           _("  family: {family}, class {klass}, status: {status}").format(
               family=family_text(card.get("family")), klass=card.get("class") or "–",
               status=status_text(card)),
           _("  mechanic: {text}").format(text=card.get("mechanic") or "–"),
           _("  scope: {scope}").format(scope=scope_text(card.get("scope") or {})),
           _("  activation: {text}").format(text=activation_text(card))]
    for key, decl in (card.get("keys") or {}).items():
        kind = decl.get("type", "str")
        allowed = ", ".join(decl["choices"]) if decl.get("choices") else _(KIND_WORDS.get(kind, kind))
        out.append(_("  key {key}{required}: {allowed} — {help}").format(
            key=f"`{key}`", required=" *" if decl.get("required") else "", allowed=allowed, help=decl.get("help") or ""))
        if decl.get("per_use"):
            out.append(_("    chosen per activation (on the `activate:` item, or on the `abilities:` entry)") +
                       ("" if "default" in decl else _("; needed whenever the ability is activated")))
    for name, (default, allowed, rule) in params.items():
        out.append(_("  parameter {name} = {default} ({allowed}; {rule})").format(
            name=name, default=value_text(default), allowed=allowed_text(allowed), rule=rule))
    if card.get("reading"):
        out.append(_("  reading: {text} (docs/rules.md \"Ability readings\")").format(text=card["reading"]))
    out.append(_("  rules: {rules}; keys in scope: {keys}").format(rules=", ".join(card.get("rules") or []) or "–",
                                                                  keys=_as_code(scope_keys(card))))
    if card.get("example_note") and not card.get("example"):
        out.append(_("  example: {text}").format(text=card["example_note"]))     # no number of a conflict to show
    else:
        out.append(_("  example:"))
        out += ["    " + line for line in example(aid, card)]
    files = _shown_in(aid).get(aid)
    if files:
        out.append(_("  shown in: {files}").format(files=", ".join(f"scenarios/{f}" for f in files)))
    typer.echo("\n".join(out))


def status_text(card: dict) -> str:
    """A card's status in words (one that names none is shipped)."""
    from ..abilities import STATUS_WORDS
    from ..i18n import _

    return _(STATUS_WORDS.get(card.get("status") or "shipped", "shipped"))


def _by_name(ability: str) -> dict:
    """The card of an ability named by its Czech name (`Rameno na rameno`, `Gladiátor`): its id is
    the name written as an id, so only that plugin is imported, not the whole catalogue."""
    from ..abilities import installed_catalogue
    from ..skills import slug

    key = slug(ability)
    return installed_catalogue(only=key) if key != ability else {}


def _shown_in(aid: str) -> dict:
    """{ability id: scenario files} of the examples shipped beside the package that can list `aid`
    (none when installed without them)."""
    from pathlib import Path

    from ..abilities import scenario_index

    root = Path(__file__).resolve().parents[2]
    return scenario_index(root, only=aid) if (root / "scenarios").is_dir() else {}


def _as_code(keys: str) -> str:
    """`means`, `skill`, `weapon*`: the keys are what the scenario writes, so they are shown as code."""
    if keys == "–":
        return keys
    return ", ".join(dict.fromkeys(k if k.startswith("`") else f"`{k}`" for k in keys.split(", ")))


def mount(app: typer.Typer) -> None:
    """Adds `drd abilities` to the root app."""
    app.command("abilities", help=HELP)(abilities)
