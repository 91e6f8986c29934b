"""A fast reader for the YAML most scenario files are: libyaml's events, built into plain data.

`load.load_text` tries this first. It reads the file with libyaml (PyYAML's C parser) and builds
the document itself: `PosMap`/`PosSeq` (dict/list subclasses) carrying an `lc` that answers like
ruamel's round-trip `lc` (`line`, `col`, `key(k)`, `value(k)`, `item(i)`), so `SourceMap` points
at the same file:line:col. Scalars are resolved by the YAML 1.2 rules ruamel's round-trip loader
uses (`yes` is text), the uncommon spellings (`0x1F`, `1.5`, dates) by ruamel itself. Text is
normalised to NFC (`load._normalise` does the same on the ruamel path).

It handles only the plain case and says `None` ("use the ruamel path") for everything else:
anchors, aliases, tags, merge keys, complex or duplicate keys, directives or several documents,
an empty document, a top level that is not a mapping, or anything libyaml refuses. The ruamel path
then gives exactly the answer (or error) it always gave. The size limits are checked here too,
while reading, whatever the shape of the file: a file over a limit is refused as soon as the
event that crosses it is read, without a slower second pass.

Comments are not kept: where drd edits a file (group profiles, `drd play`'s replay) it reads it
with ruamel's round-trip loader itself.
"""

from __future__ import annotations

from typing import Any, NoReturn

try:  # PyYAML's libyaml binding; without it (PyPy, a source build) everything goes through ruamel
    from yaml import events as _ev  # type: ignore[import-untyped]  # PyYAML ships no types
    from yaml._yaml import CParser as _CParser  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - exercised only where the wheel has no libyaml
    _CParser = None


class LC:
    """Line/column of a container and of its entries, 0-based (the subset of ruamel's `LineCol`
    that `SourceMap` reads)."""

    __slots__ = ("line", "col", "data")

    def __init__(self, line: int, col: int):
        self.line = line
        self.col = col
        self.data: dict = {}

    def key(self, k: Any) -> tuple[int, int]:
        d = self.data[k]
        return d[0], d[1]

    def value(self, k: Any) -> tuple[int, int]:
        d = self.data[k]
        return d[2], d[3]

    def item(self, idx: int) -> tuple[int, int]:
        d = self.data[idx]
        return d[0], d[1]


class PosMap(dict):
    """A mapping read from YAML that knows where its keys and values are (`lc`)."""

    __slots__ = ("lc",)
    lc: LC


class PosSeq(list):
    """A sequence read from YAML that knows where its items are (`lc`)."""

    __slots__ = ("lc",)
    lc: LC


class Fallback(Exception):
    """The document needs the ruamel path (a feature this reader does not build).

    `deep_at`: for a file whose brackets may nest too deep, where they first do (else None)."""

    def __init__(self, deep_at: int | None = None):
        super().__init__(deep_at)
        self.deep_at = deep_at


class Limit(Exception):
    """The document crosses a limit: `kind` ("depth", "nodes", "alias-…", or "digits": a whole
    number too long) at 0-based `line`, `col`."""

    def __init__(self, kind: str, line: int, col: int):
        super().__init__(kind, line, col)
        self.kind, self.line, self.col = kind, line, col


_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_TRUE = frozenset(("true", "True", "TRUE"))
_FALSE = frozenset(("false", "False", "FALSE"))
# First characters with which ruamel's YAML 1.2 resolver may read a plain scalar as something
# other than text (bool, null, int, float, timestamp, merge, value); any other is text.
_SPECIAL_FIRST = frozenset("-+0123456789.~nNtTfF<=")
_DIGITS = frozenset("0123456789")
_PLAIN_TYPES = frozenset((str, int, bool, float, type(None)))

_ruamel: dict[str, Any] = {}
_scalar_cache: dict[str, Any] = {}


def _ruamel_scalar(value: str) -> Any:
    """A plain scalar the way ruamel's round-trip loader constructs it (ints, floats, dates…)."""
    if value in _scalar_cache:
        return _scalar_cache[value]
    if not _ruamel:
        from ruamel.yaml import YAML
        from ruamel.yaml.nodes import ScalarNode

        yaml = YAML(typ="rt", pure=True)
        _ruamel["resolver"] = yaml.resolver
        _ruamel["constructor"] = yaml.constructor
        _ruamel["node"] = ScalarNode
    tag = _ruamel["resolver"].resolve(_ruamel["node"], value, (True, False))
    tag = str(getattr(tag, "value", tag))
    if tag not in _PLAIN_TAGS:
        raise Fallback  # a merge key, `=` or anything unusual: the ruamel path decides
    node = _ruamel["node"](tag, value, None, None)
    try:
        result = _ruamel["constructor"].construct_object(node, deep=True)
    except Exception:  # noqa: BLE001 - an odd spelling ruamel itself cannot build: its path reports it
        raise Fallback from None
    if tag.endswith(("int", "bool", "null")) or isinstance(result, str):
        _scalar_cache[value] = result
    return result


_PLAIN_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "timestamp"))

MAX_INT_DIGITS = 4300
"""Most decimal digits of a whole number in a file: Python's own limit for turning text into a
number and back, which a hexadecimal, octal or binary spelling would otherwise get round."""
_INT_BITS = {"x": 4, "o": 3, "b": 1}
_MAX_BITS = 14_283            # 2**14283 < 10**4300: every number of at most this many bits prints


def int_too_long(text: str) -> bool:
    """`text` spells a whole number (decimal, `0x…`, `0o…`, `0b…`, `_` separators) of more
    than MAX_INT_DIGITS decimal digits. Cheap for every scalar: short text is never one."""
    if len(text) <= _MAX_BITS // 4:         # even in hexadecimal, short enough to print
        return False
    body = text.lstrip("+-").replace("_", "")
    base = body[1:2].lower() if body[:1] == "0" else ""
    if base in _INT_BITS:
        digits = body[2:].lstrip("0")
        allowed = "0123456789abcdefABCDEF"[:{"x": 22, "o": 8, "b": 2}[base]]
        return bool(digits) and all(c in allowed for c in digits) and (
            len(digits) - 1) * _INT_BITS[base] + int(digits[0], 16).bit_length() > _MAX_BITS
    return body.isdigit() and body.isascii() and len(body.lstrip("0")) > MAX_INT_DIGITS


def plain_scalar(value: str) -> Any:
    """A plain (unquoted) scalar as ruamel's round-trip loader reads it (YAML 1.2)."""
    if not value or value[0] in _SPECIAL_FIRST:
        if value in _NULLS:
            return None
        if value in _TRUE:
            return True
        if value in _FALSE:
            return False
        first = value[0]
        if first in "nNtTfF~":
            return value
        if value == "0":
            return 0
        if first in _DIGITS and first != "0" and value.isdigit() and value.isascii():
            return int(value)
        if first == "-" and len(value) > 1 and value[1] != "0" and value[1:].isdigit() and value.isascii():
            return int(value)
        return _ruamel_scalar(value)
    return value


def load_fast(text: str, max_nodes: int, max_depth: int, *, positions: bool = True,
              plain_out: list | None = None) -> Any:
    """The document of `text` as PosMap/PosSeq/scalars, or raises `Fallback`.

    With `positions=False`, plain dicts and lists: the same document without its line/column
    table, a third of the memory (`SourceMap` reads the file again for positions only when a
    problem has to be located).

    Raises `Limit` when the document crosses a limit, at the node that crossed it. The limits
    are checked on every node while reading, before anything else, exactly as the ruamel path
    counts them (every key, value, item and alias is a node; the top mapping is at depth 1).

    `plain_out` (a list, optional) gets one bool appended: whether every key of the document is
    text and every scalar exactly str, int, float, bool or None (`digest._already_plain` of it,
    known without a second walk over the tree; for `positions=False`, whose containers are
    plain dicts and lists).
    """
    if _CParser is None:
        raise Fallback
    deep = deep_flow_at(text, max_depth)
    if deep is not None:
        raise Fallback(deep)
    from ..gcpause import collector_paused

    # Building a large document allocates many containers and no cycles; the collector's
    # passes over the growing young generations would cost a third of the reading time.
    with collector_paused():
        root, plain = _build(_CParser(text).get_event, max_nodes, max_depth, positions)
    if plain_out is not None:
        plain_out.append(plain)
    return root


_BRACKETS = None


def deep_flow_at(text: str, max_depth: int) -> int | None:
    """Where brackets first nest deeper than `max_depth`, counted naively (quotes and comments
    included, so never too late), as a character offset; None if they never do.

    libyaml's scanner (and ruamel's) slows down with the square of the flow depth: `[[[[…`
    100,000 deep takes seconds before the first event. Such a file goes to the ruamel path,
    which `load_text` first gives only the text up to a little past this offset.
    """
    import re
    from itertools import accumulate

    global _BRACKETS
    if _BRACKETS is None:
        _BRACKETS = re.compile(r"[^\[\]{}]+")
    brackets = _BRACKETS.sub("", text)
    if len(brackets) <= max_depth:
        return None
    steps = {"[": 1, "{": 1, "]": -1, "}": -1}
    if max(accumulate(map(steps.__getitem__, brackets))) <= max_depth:   # at C speed: the usual answer
        return None
    i = next(i for i, depth in enumerate(accumulate(map(steps.__getitem__, brackets))) if depth > max_depth)
    # the (i+1)-th bracket of the text
    found = re.match(r"(?:[^\[\]{}]*[\[\]{}]){%d}" % (i + 1), text)
    return found.end() if found else len(text)


def _build(get: Any, max_nodes: int, max_depth: int, positions: bool) -> tuple[dict, bool]:
    """The document from libyaml's events (`get`): (the top mapping, whether it is plain)."""
    try:
        get()              # StreamStart
        event = get()      # DocumentStart
        if not isinstance(event, _ev.DocumentStartEvent) or event.explicit or event.version or event.tags:
            _count_rest(get, None, 0, 0, max_nodes, max_depth)
        event = get()
        if event.__class__ is not _ev.MappingStartEvent or event.anchor is not None or event.tag is not None:
            _count_rest(get, event, 0, 0, max_nodes, max_depth)
        root, inner = _container(True, event.start_mark, positions)
        plain = _fill(get, root, inner, max_nodes, max_depth)
        get()              # DocumentEnd
        if not isinstance(get(), _ev.StreamEndEvent):
            raise Fallback  # a second document: ruamel says so
    except (Fallback, Limit):
        raise
    except Exception:  # noqa: BLE001 - libyaml's error wording differs from ruamel's: ruamel words it
        raise Fallback from None
    return root, plain


def _container(is_map: bool, mark: Any, positions: bool) -> tuple[Any, dict | None]:
    """A new mapping or sequence starting at `mark`, and its table of positions (None without)."""
    if not positions:
        return ({} if is_map else []), None
    new: PosMap | PosSeq = PosMap() if is_map else PosSeq()
    new.lc = LC(mark.line, mark.column)
    return new, new.lc.data


def _open(cur: Any, data: dict | None, is_map: bool, key: Any, kline: int, kcol: int, mark: Any,
          new_map: bool) -> tuple[Any, dict | None]:
    """A mapping (`new_map`) or sequence starting at `mark`, put into `cur` (under `key`, read at
    `kline`, `kcol`, when `is_map`; else at its end), and its table of positions (None when `cur`
    keeps none: the document is read without positions)."""
    if data is None:
        new: Any = {} if new_map else []
        if is_map:
            cur[key] = new
        else:
            cur.append(new)
        return new, None
    new = PosMap() if new_map else PosSeq()
    new.lc = LC(mark.line, mark.column)
    if is_map:
        cur[key] = new
        data[key] = (kline, kcol, mark.line, mark.column)
    else:
        data[len(cur)] = (mark.line, mark.column)
        cur.append(new)
    return new, new.lc.data


def _fill(get: Any, root: dict, data: dict | None, max_nodes: int, max_depth: int) -> bool:
    """Reads the events into `root` (the top mapping, `data` its positions) up to its end; whether
    every key is text and every scalar of a plain type (see load_fast)."""
    Scalar, MapStart, SeqStart = _ev.ScalarEvent, _ev.MappingStartEvent, _ev.SequenceStartEvent
    MapEnd, SeqEnd = _ev.MappingEndEvent, _ev.SequenceEndEvent
    special, nulls, true, false, plain_types = _SPECIAL_FIRST, _NULLS, _TRUE, _FALSE, _PLAIN_TYPES
    from unicodedata import normalize as nfc
    nodes = depth = 1
    plain = True
    cur: Any = root        # the open container: a dict when is_map, else a list
    is_map = want_key = True
    key: Any = None
    kline = kcol = 0
    stack: list[tuple] = []
    while True:
        event = get()
        cls = event.__class__
        if cls is MapEnd or cls is SeqEnd:
            if not stack:
                return plain
            cur, data, is_map, key, kline, kcol = stack.pop()
            want_key = True
            depth -= 1
            continue
        nodes += 1
        if depth >= max_depth or nodes > max_nodes:
            mark = event.start_mark
            raise Limit("depth" if depth >= max_depth else "nodes", mark.line, mark.column)
        if cls is Scalar:
            if event.anchor is not None or event.tag is not None:
                _count_rest(get, event, nodes - 1, depth, max_nodes, max_depth)
            value = event.value
            if not event.style and (not value or value[0] in special):
                if value in nulls:
                    value = None
                elif value in true:
                    value = True
                elif value in false:
                    value = False
                elif int_too_long(value):
                    raise Limit("digits", event.start_mark.line, event.start_mark.column)
                else:
                    try:
                        value = plain_scalar(value)
                    except Fallback:
                        _count_rest(get, None, nodes, depth, max_nodes, max_depth)
                # Only a converted scalar can be other than text (a date, a number as a key…).
                if value.__class__ not in plain_types or (is_map and want_key and value.__class__ is not str):
                    plain = False
            if value.__class__ is str and not value.isascii():
                # Text pasted from a PDF is often decomposed (`a` + a combining acute for
                # `á`); NFC makes it the same key, id or value as the one typed.
                value = nfc("NFC", value)
            if not is_map:
                if data is not None:
                    mark = event.start_mark
                    data[len(cur)] = (mark.line, mark.column)
                cur.append(value)
            elif want_key:
                if value in cur:  # a duplicate key: ruamel reports where both are
                    _count_rest(get, None, nodes, depth, max_nodes, max_depth)
                key, want_key = value, False
                if data is not None:         # positions kept: where the key was read
                    kline, kcol = event.start_mark.line, event.start_mark.column
            else:
                cur[key] = value
                if data is not None:
                    mark = event.start_mark
                    data[key] = (kline, kcol, mark.line, mark.column)
                want_key = True
            continue
        if (cls is not MapStart and cls is not SeqStart) or event.anchor is not None \
                or event.tag is not None or (is_map and want_key):
            # an alias, an anchor or tag, or a list/mapping as a key
            _count_rest(get, event, nodes - 1, depth, max_nodes, max_depth)
        new, inner = _open(cur, data, is_map, key, kline, kcol, event.start_mark, cls is MapStart)
        stack.append((cur, data, is_map, None, 0, 0))
        cur, data, is_map, want_key = new, inner, cls is MapStart, True
        depth += 1


def _count_rest(get: Any, event: Any, nodes: int, depth: int, max_nodes: int, max_depth: int) -> NoReturn:
    """Reads the rest of a document the ruamel path will build, only to apply the limits on the
    way (so a file over a limit is refused at once whatever it contains), then `Fallback`.

    `event` is one already read and not yet counted (or None); `depth` the current nesting.
    Besides the nodes as written, the nodes and depth *with every alias expanded* are counted
    (an alias counts its anchor's whole value, as validation would walk it): an alias bomb is
    refused here, at the alias that crosses the limit ("alias-nodes", "alias-depth").
    """
    Alias, Scalar = _ev.AliasEvent, _ev.ScalarEvent
    Start = (_ev.MappingStartEvent, _ev.SequenceStartEvent)
    End = (_ev.MappingEndEvent, _ev.SequenceEndEvent)
    Done = (_ev.DocumentEndEvent, _ev.StreamEndEvent)
    expanded = nodes              # no alias before this point
    sizes: dict[str, tuple[int, int]] = {}  # anchor → (nodes once expanded, levels)
    stack: list[list] = []        # open containers: [anchor, expanded before it, its depth, deepest inside]
    if event is None:
        event = get()
    while event is not None and not isinstance(event, Done):
        if isinstance(event, End):
            depth -= 1
            if stack:
                anchor, before, at, deepest = stack.pop()
                if anchor is not None:
                    sizes[anchor] = (expanded - before, deepest - at + 1)
                if stack:
                    stack[-1][3] = max(stack[-1][3], deepest)
            event = get()
            continue
        nodes += 1
        mark = event.start_mark
        if depth >= max_depth:
            raise Limit("depth", mark.line, mark.column)
        if nodes > max_nodes:
            raise Limit("nodes", mark.line, mark.column)
        if isinstance(event, Alias):
            # An anchor still open (a recursive alias) or unknown: the ruamel path reports it.
            size, levels = sizes.get(event.anchor, (1, 1))
            expanded += size
            reached = depth + levels
            if expanded > max_nodes:
                raise Limit("alias-nodes", mark.line, mark.column)
            if reached > max_depth:
                raise Limit("alias-depth", mark.line, mark.column)
            if stack:
                stack[-1][3] = max(stack[-1][3], reached)
        else:
            expanded += 1
            if expanded > max_nodes:
                raise Limit("alias-nodes", mark.line, mark.column)
            if isinstance(event, Start):
                depth += 1
                stack.append([event.anchor, expanded - 1, depth, depth])
            elif isinstance(event, Scalar):
                if event.anchor is not None:
                    sizes[event.anchor] = (1, 1)
                if stack:
                    stack[-1][3] = max(stack[-1][3], depth + 1)
        event = get()
    raise Fallback
