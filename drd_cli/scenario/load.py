"""Read a scenario (or group profile) YAML file safely, keeping where every key and value came from.

`load_document(path)` / `load_text(text, filename)` return `(data, SourceMap)`: `data` is the
document as dict/list subclasses that know their positions (`fastload.PosMap`, or ruamel's
round-trip `CommentedMap` for files using anchors, tags and the like; pydantic validates either
directly) and the source map turns a document path such as ``("rounds", 0, "steps", 1, "choices", "zira")`` into
`FILE:LINE:COL`. Every problem with the file itself is a `ScenarioError` (exit 2) carrying a
1-based location: unreadable or oversized files, binary or non-UTF-8 bytes, YAML syntax errors,
duplicate keys, unsupported tags, complex keys, an empty document, a top level that is not a
mapping, and documents too deep or too large once aliases are expanded (alias bombs).
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import Location, Problem, ScenarioError
from ..i18n import _
from . import aliases

if TYPE_CHECKING:
    from ruamel.yaml.composer import Composer

# ruamel is imported where it is used: most files are read by `fastload` (libyaml) alone.

MAX_BYTES = 2 * 1024 * 1024
"""Largest file accepted; real scenarios are a few kilobytes."""

MAX_NODES = 300_000
"""Most nodes a document may have with every alias expanded (what validation would walk).

A 5,000-step battle of 500 participants is about 200,000; counting stops at the first node over
the limit, so even a 2 MB file of one-character items is refused in a fraction of a second."""

MAX_DEPTH = 64
"""Deepest nesting accepted; scenarios need about ten levels."""

# Tags the round-trip constructor turns into plain data. Anything else (`!foo`, `!!python/…`,
# `!!binary`, `!!set`) would reach validation as an opaque object, so it is refused here.
_YAML_TAG = "tag:yaml.org,2002:"
_ALLOWED_TAGS = frozenset(_YAML_TAG + t for t in
                          ("str", "int", "float", "bool", "null", "map", "seq", "merge", "timestamp"))


class _Refused(Exception):
    """Raised inside the composer to stop parsing at once; carries a ruamel mark."""

    def __init__(self, message: str, mark: Any, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.mark = mark
        self.hint = hint


def _too_many_nodes() -> str:
    return _("the document has more than {max} nodes").format(max=f"{MAX_NODES:,}")


def _too_many_expanded() -> str:
    return _("the document has more than {max} nodes once aliases are expanded (an alias "
             "bomb?)").format(max=f"{MAX_NODES:,}")


def _alias_hint() -> str:
    return _("an alias (*name) counts its whole anchored value every time it is used")


def _guarded_composer() -> type[Composer]:
    from ruamel.yaml.composer import Composer

    class _GuardedComposer(Composer):
        """A composer that refuses absurd nesting and node counts *while* parsing.

        Counting here (rather than after loading) bounds the work on hostile input: ruamel's own
        recursion would otherwise take seconds on `[[[[…` before failing with a RecursionError.
        """

        def __init__(self, loader: Any = None) -> None:
            super().__init__(loader)
            # Re-defining an anchor is valid YAML (the later one wins); ruamel would print a
            # warning pointing into this module, which means nothing to a user.
            self.warn_double_anchors = False
            self._drd_depth = 0
            self._drd_nodes = 0

        def compose_node(self, parent: Any, index: Any) -> Any:
            event = self.parser.peek_event()
            self._drd_depth += 1
            self._drd_nodes += 1
            try:
                if self._drd_depth > MAX_DEPTH:
                    raise _Refused(_too_deep(), event.start_mark)
                if self._drd_nodes > MAX_NODES:
                    raise _Refused(_too_many_nodes(), event.start_mark)
                return super().compose_node(parent, index)
            finally:
                self._drd_depth -= 1

    return _GuardedComposer


def _new_yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt", pure=True)
    yaml.Composer = _guarded_composer()
    yaml.allow_duplicate_keys = False
    return yaml


# --------------------------------------------------------------------------- source map

@dataclass(frozen=True)
class _Pos:
    line: int  # 0-based, as ruamel stores them
    col: int


class SourceMap:
    """Where each part of a loaded document is: document path → `Location` (1-based).

    `root` is the document with positions (`lc`); for a file read by `fastload`, whose data has
    none, it is made from `text` the first time a position is asked for (an error being
    located): the same reader builds the same document, with its line/column table this time.
    """

    def __init__(self, root: Any, filename: str, *, text: str | None = None):
        self._root = root
        self._text = text
        self.filename = filename
        # True when the reader saw that the document as loaded is plain data (text keys, plain
        # scalars: `fastload.load_fast`'s `plain_out`), so its digest bytes need no check of it.
        self.plain_document = False

    @property
    def root(self) -> Any:
        if self._root is None and self._text is not None:
            from . import fastload

            self._root = fastload.load_fast(self._text, MAX_NODES, MAX_DEPTH, positions=True)
            self._text = None
        return self._root

    @root.setter
    def root(self, value: Any) -> None:
        self._root, self._text = value, None

    def _walk(self, path: tuple, *, value: bool) -> _Pos:
        """Position of the deepest node of `path` that exists in the document."""
        node = self.root
        lc = getattr(node, "lc", None)
        pos = _Pos(lc.line, lc.col) if lc is not None and lc.line is not None else _Pos(0, 0)
        parts = tuple(path)
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            if isinstance(node, dict):
                key = _find_key(node, part)
                if key is _MISSING:
                    break
                # Merged keys (`<<: *base`) have no position of their own: keep the mapping's.
                # An empty value (`title:`) has its "value position" on the next line: use the key.
                want_value = value and last and node[key] is not None
                found = _lc_get(node, "value" if want_value else "key", key)
                if found is None and not last:
                    found = _lc_get(node, "value", key)
                if found is not None:
                    pos = found
                node = node[key]
            elif isinstance(node, list):
                if not isinstance(part, int) or isinstance(part, bool) or not -len(node) <= part < len(node):
                    break
                index = part % len(node)
                found = _lc_get(node, "item", index)
                if found is not None:
                    pos = found
                node = node[index]
            else:
                break
        return pos

    def locate(self, path: tuple | list = ()) -> Location:
        """Location of the deepest existing node on `path`; for a mapping key, the key itself."""
        pos = self._walk(tuple(path), value=False)
        return Location(self.filename, pos.line + 1, pos.col + 1)

    def locate_value(self, path: tuple | list = ()) -> Location:
        """Like `locate`, but for a mapping entry the position of its value (`roll: ▸deset`)."""
        pos = self._walk(tuple(path), value=True)
        return Location(self.filename, pos.line + 1, pos.col + 1)

    def fill(self, problems: list[Problem]) -> list[Problem]:
        """Gives every problem that has only a document path its file:line:col (in place)."""
        for problem in problems:
            if not problem.location.line:
                problem.location = self.locate(problem.path)
        return problems


_MISSING = object()


def _find_key(mapping: dict, part: Any) -> Any:
    if part in mapping:
        return part
    # A path built from pydantic's `loc` has strings where YAML had `1:` (int keys) and vice versa.
    text = str(part)
    for key in mapping:
        if str(key) == text:
            return key
    # Engine paths use the models' ASCII names; the file may spell the key in Czech (`kola:`).
    for other in aliases.spellings(text):
        if other in mapping:
            return other
    return _MISSING


def _lc_get(node: Any, kind: str, key: Any) -> _Pos | None:
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    try:
        line, col = getattr(lc, kind)(key)
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    return _Pos(line, col)


# --------------------------------------------------------------------------- reading

def load_document(path: str | os.PathLike) -> tuple[Any, SourceMap]:
    """Read a YAML file: `(mapping, SourceMap)`, or ScenarioError with FILE:LINE:COL."""
    return load_text(read_bytes(path), os.fspath(path))


def read_bytes(path: str | os.PathLike, *, opener: Any = None, shown: str | None = None) -> bytes:
    """The bytes of a YAML file (one past the size cap at most), or ScenarioError naming
    `shown` (default: the path). `opener`: as `open`'s (a group profile is opened without
    following a link)."""
    filename = shown if shown is not None else os.fspath(path)
    try:
        with open(os.fspath(path), "rb", opener=opener) as handle:
            # Read one byte past the cap rather than trusting stat(): /dev/zero, pipes and files
            # still being written report a size that says nothing.
            return handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise ScenarioError(_("no such file: {file}").format(file=filename), Location(filename)) from None
    except IsADirectoryError:
        raise ScenarioError(_("{file} is a folder, not a scenario file").format(file=filename),
                            Location(filename)) from None
    except PermissionError:
        raise ScenarioError(_("cannot read {file}: permission denied").format(file=filename),
                            Location(filename)) from None
    except OSError as exc:
        # The operating system's own reason (strerror) stays in its language.
        raise ScenarioError(_("cannot read {file}: {reason}").format(file=filename, reason=exc.strerror or exc),
                            Location(filename)) from None


def load_text(text: str | bytes, filename: str = "<text>") -> tuple[Any, SourceMap]:
    """Parse YAML given as text or bytes: `(mapping, SourceMap)`, or ScenarioError.

    Never raises anything else, whatever the input (fuzzed in tests/scenario/test_load.py).
    """
    text = _decode(text, filename)
    from . import fastload

    try:
        plain: list[bool] = []
        data = fastload.load_fast(text, MAX_NODES, MAX_DEPTH, positions=False, plain_out=plain)
    except fastload.Limit as exc:
        where = Location(filename, exc.line + 1, exc.col + 1)
        if exc.kind == "digits":
            raise ScenarioError(_too_many_digits(), where) from None
        if exc.kind == "alias-nodes":
            raise ScenarioError(_too_many_expanded(), where, hint=_alias_hint()) from None
        raise ScenarioError(_too_deep(aliases=exc.kind == "alias-depth") if exc.kind.endswith("depth")
                            else _too_many_nodes(), where) from None
    except fastload.Fallback as fallback:
        if fallback.deep_at is not None:
            # Scanning deep flow nesting costs the square of its depth: the text up to where it
            # (naively counted) gets too deep is enough to be refused for it (the cut ends the
            # stream, so every token before it is delivered). Any other answer of that prefix
            # means nothing (the brackets were in a quoted string…): the whole file is read.
            try:
                _load_ruamel(text[:fallback.deep_at + 64], filename)
            except ScenarioError as exc:
                if exc.problems and exc.problems[0].message == _too_deep():
                    raise
        data = _load_ruamel(text, filename)
        source = SourceMap(data, filename)
        _normalise(data, source)
        return data, source
    source = SourceMap(None, filename, text=text)
    source.plain_document = bool(plain and plain[0])
    return data, source


def _normalise(root: Any, source: SourceMap) -> None:
    """Text of a ruamel-read document as `fastload` gives it: NFC, and no lone surrogates.

    Text pasted from a PDF is often decomposed (`a` + a combining acute for `á`); NFC makes it the
    same key, id or value as the one typed. A lone surrogate (`"\\ud800"` in a double-quoted
    string) is no character at all: nothing could print or store it, so the file is refused
    where it is written. (libyaml already refuses such escapes, so only this path meets them.)
    """
    import unicodedata

    def text(value: str, path: tuple, *, key: bool) -> str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            try:  # both halves of a pair (`"\\ud83d\\ude00"`, as JSON writes it): one character
                value = value.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
            except UnicodeDecodeError as exc:
                where = source.locate(path) if key else source.locate_value(path)
                lone = value.encode("utf-16-le", "surrogatepass")[exc.start:exc.start + 2].decode(
                    "utf-16-le", "surrogatepass")
                raise ScenarioError(_("the text contains a lone surrogate (U+{code}), which is not a character").format(
                                        code=f"{ord(lone):04X}"), where,
                                    hint=_("write the character itself, or both halves of its surrogate pair")) from None
        return value if value.isascii() else unicodedata.normalize("NFC", value)

    stack: list[tuple[Any, tuple]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, dict):
            renamed = False
            for k in list(node):
                if isinstance(k, str) and text(k, path + (k,), key=True) != k:
                    renamed = True
            if renamed:
                _rekey(node, source.filename)
            for k, v in node.items():
                if isinstance(v, str):
                    new = text(v, path + (k,), key=False)
                    if new is not v:
                        node[k] = new
                else:
                    stack.append((v, path + (k,)))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                if isinstance(v, str):
                    new = text(v, path + (i,), key=True)
                    if new is not v:
                        node[i] = new
                else:
                    stack.append((v, path + (i,)))


def _rekey(mapping: Any, filename: str) -> None:
    """NFC keys for a ruamel mapping, in place, keeping their order and positions."""
    import unicodedata

    items = list(mapping.items())
    lc = getattr(mapping, "lc", None)
    positions = dict(getattr(lc, "data", None) or {})
    seen: set = set()
    renamed = []
    for k, v in items:
        new = unicodedata.normalize("NFC", k) if isinstance(k, str) else k
        if new in seen:
            # `název` typed once decomposed and once composed: the same key twice.
            where = _lc_get(mapping, "key", k)
            raise ScenarioError(_("duplicate key {key}").format(key=repr(new)),
                                Location(filename) if where is None else Location(filename, where.line + 1, where.col + 1))
        seen.add(new)
        renamed.append((k, new, v))
    mapping.clear()
    for k, new, v in renamed:
        mapping[new] = v
        if lc is not None and k in positions:
            lc.data[new] = positions[k]


def _load_ruamel(text: str, filename: str) -> Any:
    """The full ruamel round-trip path: every YAML feature, and the exact wording of every error."""
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
    from ruamel.yaml.reader import ReaderError

    from .yaml_words import first_line as _first_line, reader_message, yaml_message

    yaml = _new_yaml()
    try:
        with warnings.catch_warnings():
            # ruamel reports oddities as Python warnings on stderr; problems are errors here or nothing.
            warnings.simplefilter("ignore")
            node = yaml.compose(text)
        if node is None or (isinstance(node, ScalarNode) and node.value == ""
                             and str(getattr(node.tag, "value", node.tag)) == _YAML_TAG + "null"):
            raise ScenarioError(_("the file is empty (no YAML content)"), Location(filename, 1, 1),
                                hint=_("a scenario starts with `format: drd/1`"))
        if not isinstance(node, MappingNode):
            raise ScenarioError(_("the top level must be a mapping of `key: value` lines, not a list")
                                if isinstance(node, SequenceNode) else
                                _("the top level must be a mapping of `key: value` lines, not a single value"),
                                _mark_location(filename, node.start_mark))
        _check_tree(node, filename)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            data = yaml.constructor.construct_document(node)
    except ScenarioError:
        raise
    except _Refused as exc:
        raise ScenarioError(exc.message, _mark_location(filename, exc.mark), hint=exc.hint) from None
    except MarkedYAMLError as exc:
        raise ScenarioError(yaml_message(exc), _marked_location(filename, exc)) from None
    except ReaderError as exc:
        raise ScenarioError(reader_message(exc), _offset_location(filename, text, exc.position)) from None
    except YAMLError as exc:
        raise ScenarioError(_("invalid YAML: {problem}").format(problem=_first_line(str(exc))),
                            Location(filename, 1, 1)) from None
    except RecursionError:
        raise ScenarioError(_too_deep(), Location(filename, 1, 1)) from None
    except MemoryError:
        raise ScenarioError(_("the document is too large to load"), Location(filename, 1, 1)) from None
    except Exception as exc:  # noqa: BLE001 - ruamel has internal asserts; never a traceback for user input
        raise ScenarioError(_("cannot parse the YAML ({problem})").format(
                                problem=f"{type(exc).__name__}: {_first_line(str(exc))}"),
                            Location(filename, 1, 1)) from None
    return data


def _decode(text: str | bytes, filename: str) -> str:
    """Bytes → str with the size, binary and encoding checks; str input gets the same checks."""
    if isinstance(text, str):
        if "\x00" in text:
            offset = text.index("\x00")
            raise ScenarioError(_("this is a binary file, not YAML text (NUL character at offset {offset})").format(
                                    offset=offset),
                                _offset_location(filename, text, offset))
        try:
            size = len(text.encode("utf-8"))
        except UnicodeEncodeError as exc:
            raise ScenarioError(_("the text is not valid Unicode (lone surrogate at offset {offset})").format(
                                    offset=exc.start),
                                _offset_location(filename, text, exc.start)) from None
        if size > MAX_BYTES:
            raise ScenarioError(_too_big(size), Location(filename))
        return text.removeprefix("\ufeff")
    raw = bytes(text)
    if len(raw) > MAX_BYTES:
        raise ScenarioError(_too_big(len(raw)), Location(filename))
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ScenarioError(_("the file is UTF-16 encoded; save it as UTF-8"), Location(filename, 1, 1))
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise ScenarioError(_("this is a binary file, not YAML text (NUL byte at offset {offset})").format(offset=nul),
                            _byte_location(filename, raw, nul))
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = raw[exc.start]
        raise ScenarioError(_("the file is not UTF-8: byte {byte} at offset {offset} cannot be decoded").format(
                                byte=f"0x{bad:02X}", offset=exc.start),
                            _byte_location(filename, raw, exc.start),
                            hint=_("save the file as UTF-8 (Czech letters need it)")) from None
    return decoded.removeprefix("\ufeff")


def _too_big(size: int) -> str:
    return _("the file is too large ({size} bytes or more; the limit is 2 MB)").format(size=f"{size:,}")


def _too_deep(aliases: bool = False) -> str:
    if aliases:
        return _("the document is nested deeper than {max} levels once aliases are expanded").format(max=MAX_DEPTH)
    return _("the document is nested deeper than {max} levels").format(max=MAX_DEPTH)


def _check_tree(root: Any, filename: str) -> None:
    """Walks the composed node graph, expanding aliases, before anything is constructed.

    Aliases share one node, so a billion-laughs document composes cheaply but would explode
    when constructed, validated or printed; counting visits (not distinct nodes) catches that,
    and the walk stops at the first node over the limit, so it is bounded by MAX_NODES.
    """
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    from . import fastload

    visits = 0
    on_path: set[int] = set()
    # Iterative, so hostile depth cannot overflow the interpreter stack. A `None` node is the
    # marker for "leaving the container above", which keeps `on_path` to the current branch.
    stack: list[tuple[Any, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if node is None:
            on_path.discard(depth)
            continue
        visits += 1
        if visits > MAX_NODES:
            raise _Refused(_too_many_expanded(), node.start_mark, hint=_alias_hint())
        if depth > MAX_DEPTH:
            raise _Refused(_too_deep(aliases=True),
                           node.start_mark)
        tag = str(getattr(node.tag, "value", node.tag) or "")
        if tag and tag not in _ALLOWED_TAGS and tag != "!":
            raise _Refused(_("the YAML tag {tag} is not supported here").format(tag=_short_tag(tag)), node.start_mark)
        if isinstance(node, ScalarNode):
            if tag == _YAML_TAG + "int" and fastload.int_too_long(node.value):
                raise _Refused(_too_many_digits(), node.start_mark)
            continue
        if id(node) in on_path:
            raise _Refused(_("an alias refers to a node that contains it (a recursive structure)"), node.start_mark)
        on_path.add(id(node))
        stack.append((None, id(node)))
        if isinstance(node, MappingNode):
            for key, value in node.value:
                if not isinstance(key, ScalarNode):
                    raise _Refused(_("a key must be plain text, not a list or mapping"), key.start_mark)
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))
        elif isinstance(node, SequenceNode):
            for item in node.value:
                stack.append((item, depth + 1))


def _too_many_digits() -> str:
    from .fastload import MAX_INT_DIGITS

    from ..i18n import language

    # Thousands as a reader of the run's language writes them: Czech 4 300, English 4,300.
    limit = f"{MAX_INT_DIGITS:,}".replace(",", "\u00a0" if language() == "cs" else ",")
    return _("a whole number may have at most {max} digits").format(max=limit)


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_YAML_TAG):] if tag.startswith(_YAML_TAG) else tag


def _mark_location(filename: str, mark: Any) -> Location:
    if mark is None:
        return Location(filename, 1, 1)
    return Location(filename, mark.line + 1, mark.column + 1)


def _marked_location(filename: str, exc: Any) -> Location:
    return _mark_location(filename, exc.problem_mark or exc.context_mark)


def _offset_location(filename: str, text: str, offset: int) -> Location:
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    col = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return Location(filename, line, col)


def _byte_location(filename: str, raw: bytes, offset: int) -> Location:
    line = raw.count(b"\n", 0, offset) + 1
    start = raw.rfind(b"\n", 0, offset) + 1
    # Columns count characters; the bytes before the offending one decode (else it would be them).
    col = len(raw[start:offset].decode("utf-8", errors="replace")) + 1
    return Location(filename, line, col)
