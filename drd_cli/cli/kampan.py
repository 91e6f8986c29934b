"""`drd kampan …`, `drd postava …`, `drd bestie …`: a campaign's folder, characters and creatures
(docs/kampan.md). Imports only typer; everything else inside the commands.
"""

from __future__ import annotations

import json
import sys
from typing import List, Optional

import typer

from ._common import N_, Lang, guarded, lang_option, use_language
from ._help import DrdTyper

kampan_app = DrdTyper(help=N_("A campaign: a folder with drd-kampan.yaml, its characters, creatures, conflicts "
                              "and chronicle (docs/kampan.md)."), no_args_is_help=True)
postava_app = DrdTyper(help=N_("The campaign's characters (postavy/): list, show, new, adjust, heal a Jizva."),
                       no_args_is_help=True)
bestie_app = DrdTyper(help=N_("The campaign's creatures (bestiar/): list, show, new."), no_args_is_help=True)


def kampan_option():  # noqa: ANN201 - a typer Option
    return typer.Option(None, "--kampan", metavar="DIR",
                        help=N_("The campaign folder (default: found by walking up from the current folder)."))


def json_option():  # noqa: ANN201
    return typer.Option(False, "--json", help=N_("Print JSON instead of text."))


def out(text: str) -> None:
    sys.stdout.write(text + "\n")


def open_campaign(kampan: Optional[str]):  # noqa: ANN201
    from ..campaign.folder import Campaign

    return Campaign.open(kampan)


# --------------------------------------------------------------------------- kampan

@kampan_app.command("new", help=N_("Create a campaign: the folder NAME/ (or, with --zde, the current folder)."))
def kampan_new(name: str = typer.Argument(..., metavar="NAME", help=N_("The campaign's name (and folder).")),
               zde: bool = typer.Option(False, "--zde", help=N_("Make the current folder the campaign.")),
               lang: Optional[Lang] = lang_option()) -> None:
    code = use_language(lang)
    with guarded():
        from ..campaign.folder import new_campaign
        from ..i18n import _

        root = new_campaign(name, here=zde, language=code)
        out(_("campaign “{name}” created in the folder {folder}").format(name=name, folder=_folder(root)))
        out("  " + _("next: `drd postava new ID` or `drd import roll20|ikaros|denik FILE`"))


@kampan_app.command("schema", help=N_("Print the JSON Schema of a campaign file for editors: postava, bestie or "
                                     "kampan."))
def kampan_schema(what: str = typer.Argument("postava", metavar="postava|bestie|kampan"),
                  lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        from ..campaign.entities import schema_of

        out(json.dumps(schema_of(what), ensure_ascii=False, indent=2))


@kampan_app.command("show", help=N_("Show the campaign: its folder, parameters, characters and creatures."))
def kampan_show(kampan: Optional[str] = kampan_option(), json_out: bool = json_option(),
                lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        from ..i18n import _

        from ..campaign.entities import character_namer

        camp = open_campaign(kampan)
        info = {"root": camp.root, "name": camp.config.name, "language": camp.config.language,
                "group": camp.config.group, "params": camp.params.model_dump(mode="json"),
                "postavy": camp.ids("postava"), "bestiar": camp.ids("bestie")}
        if json_out:
            out(json.dumps(info, ensure_ascii=False, indent=2))
            return
        out(f"{camp.config.name} ({_folder(camp.root)})")
        name = character_namer(camp)     # people by name, each with the id its commands take
        out(_("characters: {ids}").format(ids=", ".join(f"{name(i)} ({i})" if name(i) != i else i
                                                         for i in info["postavy"]) or "—"))
        out(_("creatures: {ids}").format(ids=", ".join(f"{name(i)} ({i})" if name(i) != i else i
                                                       for i in info["bestiar"]) or "—"))
        out(_("parameters (params in drd-kampan.yaml):"))
        for key, value in info["params"].items():
            out(f"  {key}: {_param_words(key, value)}")


def _name(kampan: Optional[str], kind: str, ident: str) -> str:
    """A character's or creature's name from its file (its id when the file gives none)."""
    try:
        return str(open_campaign(kampan).read(kind, ident).name or ident)
    except Exception:   # the entry is written already; a name is only nicer than the id
        return ident


def _folder(root: object) -> str:
    """The campaign's folder as the user would type it: relative to the current folder when below it."""
    from ..scenario.references import shown_path

    shown = shown_path(str(root))
    return str(root) if shown == "." else shown


def _param_words(key: str, value: object) -> str:
    """A campaign parameter's value in words (docs/kampan.md): `carry: []` is `jen zdroje`, `true` is `ano`;
    the key stays as drd-kampan.yaml spells it, because that is where the group changes it."""
    from ..i18n import _, ngettext
    from ..render.values import pool_name

    carried = {"ohrozeni": "Ohrožení", "vyhody": "Výhody"}
    if key == "carry" and isinstance(value, list):
        return ", ".join([_("the pools"), *(carried.get(str(v), str(v)) for v in value)])
    if key == "heal_cost":
        n = value if isinstance(value, int) else 0
        return ngettext("{n} point to heal one Jizva", "{n} points to heal one Jizva", n).format(n=value)
    if key == "heal_pool":
        return _("the Jizva's own pool") if value == "jizva" else pool_name(value)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return _yaml_value(value)


def _yaml_value(value: object) -> str:
    """A parameter as drd-kampan.yaml spells it (`true`, `[ohrozeni, vyhody]`), not as Python does."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml_value(v) for v in value) + "]"
    return str(value)


# --------------------------------------------------------------------------- postava / bestie

def _list(kind: str, kampan: Optional[str], json_out: bool) -> None:
    from ..campaign.entities import summary_line, summary_of

    camp = open_campaign(kampan)
    rows = [summary_of(kind, ident, camp.read(kind, ident)) for ident in camp.ids(kind)]
    if json_out:
        out(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for row in rows:
        out(summary_line(row))


def _show(kind: str, ident: str, kampan: Optional[str], json_out: bool) -> None:
    from ..campaign.entities import describe, summary_of

    camp = open_campaign(kampan)
    model = camp.read(kind, ident)
    if json_out:
        data = summary_of(kind, ident, model)
        data["file"] = model.model_dump(mode="json", exclude_defaults=True, exclude_none=True)
        out(json.dumps(data, ensure_ascii=False, indent=2))
        return
    for line in describe(kind, ident, model):
        out(line)


def _new(kind: str, ident: str, name: Optional[str], kampan: Optional[str]) -> None:
    from ..campaign.entities import new_file
    from ..i18n import _

    camp = open_campaign(kampan)
    path = new_file(camp, kind, ident, name)
    out(_("created {file}").format(file=camp.rel(path)))


@postava_app.command("list", help=N_("List the campaign's characters."))
def postava_list(kampan: Optional[str] = kampan_option(), json_out: bool = json_option(),
                 lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        _list("postava", kampan, json_out)


@postava_app.command("show", help=N_("Show a character as it stands now."))
def postava_show(ident: str = typer.Argument(..., metavar="ID"), kampan: Optional[str] = kampan_option(),
                 json_out: bool = json_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        _show("postava", ident, kampan, json_out)


@postava_app.command("new", help=N_("Create postavy/ID.yaml: a commented character to fill in."))
def postava_new(ident: str = typer.Argument(..., metavar="ID"),
                name: Optional[str] = typer.Option(None, "--jmeno", help=N_("The character's name.")),
                kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        _new("postava", ident, name, kampan)


@postava_app.command("uprav", help=N_("Change a character between conflicts (telo=+2, duse=-1, vliv=5, ohrozeni=0, "
                                     "max.telo=7): a chronicle entry."))
def postava_uprav(ident: str = typer.Argument(..., metavar="ID"),
                  changes: List[str] = typer.Argument(..., metavar="POOL=±N..."),
                  duvod: Optional[str] = typer.Option(None, "--duvod", help=N_("Why (kept in the chronicle).")),
                  kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        from ..campaign.between import adjust
        from ..campaign.entities import change_lines
        from ..i18n import _

        entry, notes = adjust(open_campaign(kampan), ident, list(changes), duvod)
        out(_("chronicle entry {number}: {name} adjusted").format(number=entry["number"],
                                                                   name=_name(kampan, "postava", ident)))
        for line in change_lines(entry["characters"][ident]) + notes:
            out("  " + line)


@postava_app.command("vylec", help=N_("Heal a character's Jizva (the cost: docs/kampan.md \"Between conflicts, "
                                     "parameters\"): a chronicle entry."))
def postava_vylec(ident: str = typer.Argument(..., metavar="ID"),
                  jizva: str = typer.Argument(..., metavar="JIZVA"),
                  zdroj: Optional[str] = typer.Option(None, "--zdroj", metavar="telo|duse|vliv",
                                                      help=N_("The pool that pays, where the Jizva has none.")),
                  kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        from ..campaign.between import heal
        from ..campaign.entities import change_lines
        from ..i18n import _

        if zdroj is not None and zdroj not in ("telo", "duse", "vliv"):
            raise typer.BadParameter(_("expected telo, duse or vliv"), param_hint="--zdroj")
        entry, cost, pool = heal(open_campaign(kampan), ident, jizva, zdroj)
        from ..campaign.entities import POOL_WORDS

        out(_("chronicle entry {number}: {name} healed the Jizva “{jizva}” for {cost} {pool}").format(
            number=entry["number"], name=_name(kampan, "postava", ident), jizva=jizva, cost=cost,
            pool=POOL_WORDS.get(pool, pool)))
        for line in change_lines(entry["characters"][ident]):
            out("  " + line)


@bestie_app.command("list", help=N_("List the campaign's creatures."))
def bestie_list(kampan: Optional[str] = kampan_option(), json_out: bool = json_option(),
                lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        _list("bestie", kampan, json_out)


@bestie_app.command("show", help=N_("Show a creature."))
def bestie_show(ident: str = typer.Argument(..., metavar="ID"), kampan: Optional[str] = kampan_option(),
                json_out: bool = json_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        _show("bestie", ident, kampan, json_out)


@bestie_app.command("new", help=N_("Create bestiar/ID.yaml: a commented creature to fill in."))
def bestie_new(ident: str = typer.Argument(..., metavar="ID"),
               name: Optional[str] = typer.Option(None, "--jmeno", help=N_("The creature's name.")),
               kampan: Optional[str] = kampan_option(), lang: Optional[Lang] = lang_option()) -> None:
    use_language(lang)
    with guarded():
        _new("bestie", ident, name, kampan)
