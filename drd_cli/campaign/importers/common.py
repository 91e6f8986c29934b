"""What the importers share: reading JSON, lenient numbers, the report, abilities by catalogue."""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from ...errors import DrdError, Location
from ...i18n import _
from ...skills import slug

MAX_BYTES = 2 * 1024 * 1024
POOL_WORDS = {"telo": "Tělo", "duse": "Duše", "vliv": "Vliv"}
"""The book's names of the pools: what a message says (in every language, docs/i18n.md)."""


class Refused(DrdError):
    """The file is not what the importer reads (exit 2); nothing was written."""

    exit_code = 2


@dataclass
class Report:
    """Everything an import did not take over as it was: (kind, text) in order."""

    items: list = field(default_factory=list)
    pending: list = field(default_factory=list)     # keys.Pending: abilities waiting for a key

    def unmapped(self, text: str) -> None:
        self.items.append(("unmapped", text))

    def clamped(self, text: str) -> None:
        self.items.append(("clamped", text))

    def guessed(self, text: str) -> None:
        self.items.append(("guessed", text))

    def lines(self) -> list[str]:
        words = {"unmapped": _("not imported"), "clamped": _("clamped"), "guessed": _("guessed")}
        return [f"{words[k]}: {t}" for k, t in self.items]


@dataclass
class Imported:
    kind: str            # "postava" | "bestie"
    ident: str
    data: dict           # the character / creature file's keys, in order
    report: Report
    source: str          # the format id


def refuse(path: str, message: str, hint: str | None = None) -> Refused:
    return Refused(message, Location(path), hint=hint or _("nothing was written"))


def read_json(path: str, fmt_name: str) -> Any:
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        reason = _("there is no such file") if isinstance(exc, FileNotFoundError) else \
            _("it is a folder") if isinstance(exc, IsADirectoryError) else \
            _("no permission to read it") if isinstance(exc, PermissionError) else (exc.strerror or str(exc))
        raise refuse(path, _("the file cannot be read: {reason}").format(reason=reason)) from None
    if len(raw) > MAX_BYTES:
        raise refuse(path, _("the file is too large for a {fmt} export (over 2 MB)").format(fmt=fmt_name))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise refuse(path, _("the file is not UTF-8 text, so not a {fmt} export").format(fmt=fmt_name)) from None
    if not text.strip():
        raise refuse(path, _("the file is empty, not a {fmt} export").format(fmt=fmt_name))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        cut = exc.pos >= len(text.rstrip()) - 1 or exc.msg.startswith("Unterminated")
        where = Location(path, exc.lineno, exc.colno)
        message = (_("the JSON ends too early: the file is cut short") if cut
                   else _("this is not valid JSON here"))
        raise Refused(message, where, hint=_("export the {fmt} file again; nothing was written").format(
            fmt=fmt_name)) from None


def number(value: Any) -> int | None:
    """An integer from a number or a text of one (`"4"`, `4`, `4.0`); None for `""`, null, other text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    return None


def text(value: Any) -> str:
    return unicodedata.normalize("NFC", value).strip() if isinstance(value, str) else ""


def lines_of(value: Any, *, commas: bool = True) -> list[str]:
    pattern = r"[\n;,]" if commas else r"[\n;]"
    return [p.strip() for p in re.split(pattern, text(value)) if p.strip()]


def short(value: Any, n: int = 40) -> str:
    s = str(value).replace("\n", " ")
    return s if len(s) <= n else s[:n - 1] + "…"


def strip_pool(name: str) -> str:
    return re.sub(r"\s*\((Tělo|Duše|Vliv)\)\s*$", "", name.strip())


_CATALOGUE: dict | None = None


def catalogue() -> dict:
    global _CATALOGUE
    if _CATALOGUE is None:
        from ...abilities import installed_catalogue

        _CATALOGUE = installed_catalogue()
    return _CATALOGUE


def abilities(names: list, report: Report, where: str, given: dict | None = None) -> list:
    """Catalogue abilities of `names` (each a name, or (name, [description texts])): bare ids, or
    `{id, key: value}` for one whose card has a required key, the key from the source or from
    `given` ({id: {key: value}}, `--klic`; keys.py). What is not in drd's catalogue is reported;
    one whose key is known neither way too, and is not imported (`report.pending`)."""
    from . import keys

    cards = catalogue()
    given = given or {}
    out: list = []
    for item in names:
        name, texts = (item, []) if isinstance(item, str) else (item[0], list(item[1]))
        plain = strip_pool(name)
        if not plain:
            continue
        aid, rest = _catalogue_id(plain, cards), None
        if aid not in cards:
            base, rest = keys.split_name(plain)
            aid = _catalogue_id(base, cards)
        if aid not in cards:
            report.unmapped(_("ability {name!r} ({where}): not in drd's catalogue (drd abilities)").format(
                name=plain, where=where))
            continue
        if any((a if isinstance(a, str) else a["id"]) == aid for a in out):
            continue
        card = cards[aid]
        values = keys.derive(aid, rest, texts, card, given.get(aid, {}), report)
        needed = {k: spec for k, spec in keys.required(card).items() if k not in values}
        if needed:
            first = next(iter(needed))
            report.unmapped(_("ability {name} needs the key {keys}, which the file does not say; add it by hand "
                              "({{id: {id}, {key}: …}})").format(name=card.get("name") or aid, id=aid,
                                                                  keys=", ".join(needed), key=first))
            report.pending.append(keys.Pending(aid, card.get("name") or aid, needed, values, report.items[-1]))
            continue
        out.append(keys.entry(aid, values))
    return out


def _catalogue_id(name: str, cards: dict) -> str:
    aid = slug(name)
    if aid not in cards:
        by_name = {slug(c.get("name") or ""): i for i, c in cards.items()}
        aid = by_name.get(aid, aid)
    return aid


def ident_of(name: str, path: str) -> str:
    ident = slug(name)
    if not ident:
        raise refuse(path, _("the character has no name to make an id from"))
    return ident
