"""The schema of an ability card (`drd_plugin_info()["ability"]`, docs/plugins.md "Ability cards"),
checked when the plugin's info is read: a card drd cannot show or use is the plugin's bug, an
error naming the plugin and the field, never a traceback later in `drd abilities` or a run.

Required (from API 3 on; an older plugin may leave them out): `name` (text) and `mechanic`
(text). Optional: `owner`, `category`, `family`,
`reading`, `example_note` (text or null); `class` ("A" … "D" or null); `status` ("shipped",
"narrative", "outside the engine"); `scope` ({key: text, number, true/false, a list of texts,
or a mapping}); `activation` (null or {"cost": whole number ≥ 0, "pool": text, …}); `keys`
({key: declaration mapping}); `example` (text or a list of lines); `reads` (a list of
parameter names). Under API 3 a key the schema does not know is an error too (plugins of API 1
and 2 keep theirs: they were ignored then, and still are).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from ..i18n import _
from .errors import PluginError

TEXT = ("owner", "category", "family", "reading", "example_note")
STATUSES = ("shipped", "narrative", "outside the engine")
CLASSES = ("A", "B", "C", "D")
FIELDS = ("name", "mechanic", *TEXT, "class", "status", "scope", "activation", "keys", "example", "reads")


def check_card(pid: str, card: Any, api: int) -> None:
    """Raises PluginError naming plugin `pid` and the field when its ability card breaks the schema."""
    if not isinstance(card, Mapping):
        _fail(pid, "ability", _("a mapping of the card's fields"), card)
    for key in ("name", "mechanic"):
        # Required from API 3 on; an older plugin's card may leave them out (drd shows its title).
        if (api >= 3 or key in card) and (not isinstance(card.get(key), str) or not card.get(key)):
            _fail(pid, key, _("text (a required field)"), card.get(key))
    for key in TEXT:
        if card.get(key) is not None and not isinstance(card[key], str):
            _fail(pid, key, _("text or null"), card[key])
    if card.get("class") is not None and card["class"] not in CLASSES:
        _fail(pid, "class", " | ".join(CLASSES) + " | null", card["class"])
    if "status" in card and card["status"] not in STATUSES:
        _fail(pid, "status", " | ".join(STATUSES), card["status"])
    _check_scope(pid, card.get("scope", {}))
    activation = card.get("activation")
    if activation is not None and not (isinstance(activation, Mapping) and _whole(activation.get("cost"))
                                       and isinstance(activation.get("pool"), str)):
        _fail(pid, "activation", _("null or {cost: a whole number ≥ 0, pool: text}"), activation)
    keys = card.get("keys", {})
    if not isinstance(keys, Mapping) or not all(isinstance(k, str) and isinstance(d, Mapping) for k, d in keys.items()):
        _fail(pid, "keys", _("a mapping of keys to declarations"), keys)
    example = card.get("example")
    if example is not None and not (isinstance(example, str)
                                    or isinstance(example, list) and all(isinstance(x, str) for x in example)):
        _fail(pid, "example", _("text or a list of lines"), example)
    reads = card.get("reads")
    if reads is not None and not (isinstance(reads, list) and all(isinstance(x, str) for x in reads)):
        _fail(pid, "reads", _("a list of parameter names"), reads)
    if api >= 3:
        for key in card:
            if key not in FIELDS:
                close = difflib.get_close_matches(str(key), FIELDS, n=1)
                raise PluginError(_("plugin {id}: its ability card has an unknown field {field}").format(
                    id=repr(pid), field=repr(key)),
                    hint=(_("did you mean {option}?").format(option=repr(close[0])) + " " if close else "")
                    + _("the fields: {fields} (docs/plugins.md \"Ability cards\")").format(fields=", ".join(FIELDS)))


def _check_scope(pid: str, scope: Any) -> None:
    ok = isinstance(scope, Mapping) and all(
        isinstance(k, str) and (isinstance(v, (str, int, bool, Mapping))
                                or isinstance(v, list) and all(isinstance(x, str) for x in v))
        for k, v in scope.items())
    if not ok:
        _fail(pid, "scope", _("a mapping of keys to text, numbers, true/false, lists of texts or mappings"), scope)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _fail(pid: str, field: str, expected: str, got: Any) -> None:
    shown = repr(got)
    if len(shown) > 60:
        shown = shown[:57] + "…"
    raise PluginError(_("plugin {id}: its ability card's field {field} must be {expected}, not {value}").format(
        id=repr(pid), field=repr(field), expected=expected, value=shown),
        hint=_("fix the plugin (docs/plugins.md \"Ability cards\"), or disable it with `--disable {id}`").format(id=pid))
