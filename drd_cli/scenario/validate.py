"""Validate a loaded YAML document against a pydantic v2 model, reporting errors at FILE:LINE:COL.

`validate_model(model_cls, data, source, filename)` returns the model instance or raises one
`ScenarioError` with a `Problem` per pydantic error. It works for any strict (`strict=True,
extra='forbid'`) pydantic v2 model; nothing here knows the scenario format. The translation:

* pydantic's `loc` is matched against the document itself: parts that are not keys or indices of
  the data (union member names such as `JizvaSpec` or `list[str]`, discriminator tags,
  `function-after[…]`) are dropped;
* `missing` points at the mapping that lacks the key, `extra_forbidden` at the unknown key itself
  (with "did you mean …?" from the model's field names and aliases), anything else at the value;
* messages speak the user's language (`roll: deset` → "expected a whole number, got 'deset'");
* a union tried member by member reports only the member that got furthest, and "expected text
  or a mapping" when no member fits the value's shape at all.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import difflib
import os
import re
import types
import typing
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pydantic import AliasChoices, AliasPath, BaseModel, ValidationError

from ..errors import Location, Problem, ScenarioError
from ..i18n import N_, _

# Error types meaning "the value has the wrong shape/type"; these are what union branches emit
# when they do not fit, so they are merged or dropped in favour of deeper errors.
# The words are translated when the message is made (N_ marks them for the catalogs).
_EXPECTED = {
    "int_type": N_("a whole number"), "int_parsing": N_("a whole number"), "int_from_float": N_("a whole number"),
    "float_type": N_("a number"), "float_parsing": N_("a number"),
    "bool_type": N_("true or false"), "bool_parsing": N_("true or false"),
    "string_type": N_("text"), "string_sub_type": N_("text"),
    "list_type": N_("a list"), "tuple_type": N_("a list"), "set_type": N_("a list"), "frozen_set_type": N_("a list"),
    "dict_type": N_("a mapping (key: value)"), "model_type": N_("a mapping (key: value)"),
    "model_attributes_type": N_("a mapping (key: value)"), "dataclass_type": N_("a mapping (key: value)"),
    "none_required": N_("nothing (an empty value)"),
    "date_type": N_("a date"), "datetime_type": N_("a date and time"),
    "is_instance_of": N_("a value of another type"),
}


def validate_model(model_cls: type[BaseModel], data: Any, source: Any, filename: str, *,
                   context: dict[str, Any] | None = None) -> Any:
    """Validate `data` (from `load_document`) as `model_cls`; ScenarioError (exit 2) on any error.

    `source` is the document's `SourceMap` (or None: problems then carry only the file name).
    `context` is passed to pydantic validators.
    """
    from ..gcpause import collector_paused

    try:
        with collector_paused():     # thousands of models, no cycles (gcpause.py)
            return _validated(model_cls, data, context)
    except ValidationError as exc:
        problems = translate_errors(exc.errors(include_url=False), data, source, filename, model_cls)
        raise ScenarioError(problems) from None


def _validated(model_cls: type[BaseModel], data: Any, context: dict[str, Any] | None) -> Any:
    """`model_cls.model_validate(data)`, without pydantic's plugin lookup. The compiled validator
    is built in this process (nothing executable or pickled is ever loaded from disk: docs/cli.md
    "Security model")."""
    with _without_pydantic_plugins():
        return model_cls.model_validate(data, context=context)


@contextlib.contextmanager
def _without_pydantic_plugins() -> Iterator[None]:
    """A model's validator is built on its first use (`defer_build`); building one makes pydantic
    look for its own plugins (observers of validation) by importing importlib.metadata and reading
    every installed distribution, about 10 ms of a `drd check` for nothing drd uses. As typer does
    around the validators it builds, PYDANTIC_DISABLE_PLUGINS is set meanwhile (unless the
    environment already says something)."""
    if _PYDANTIC_PLUGINS in os.environ:
        yield
        return
    os.environ[_PYDANTIC_PLUGINS] = "__all__"
    # pydantic's plugin loader imports importlib.metadata (about 20 ms, with the e-mail package)
    # before it reads that switch; while the switch is on, its answer is known: no plugins.
    import sys

    stub = None
    if _LOADER not in sys.modules:
        stub = types.ModuleType(_LOADER)
        stub.get_plugins = lambda *args, **kwargs: ()  # type: ignore[attr-defined]
        sys.modules[_LOADER] = stub
    try:
        yield
    finally:
        os.environ.pop(_PYDANTIC_PLUGINS, None)
        if stub is not None and sys.modules.get(_LOADER) is stub:
            del sys.modules[_LOADER]


_PYDANTIC_PLUGINS = "PYDANTIC_DISABLE_PLUGINS"
_LOADER = "pydantic.plugin._loader"


def validate_at(model_cls: type[BaseModel], data: Any, source: Any, filename: str, path: tuple[Any, ...], *,
                context: dict[str, Any] | None = None) -> Any:
    """Like `validate_model` for a part of a document: `data` is the value found at `path`.

    Problems carry document paths under `path` and are located through the whole document's
    `source` (a plugin's step mapping is validated this way once its plugin is known).
    """
    try:
        return _validated(model_cls, data, context)
    except ValidationError as exc:
        prefix = tuple(path)
        at = _Under(source, prefix) if source is not None else None
        problems = translate_errors(exc.errors(include_url=False), data, at, filename, model_cls)
        for problem in problems:
            problem.path = prefix + tuple(problem.path)
        raise ScenarioError(problems) from None


class _Under:
    """A SourceMap seen from a node inside the document: paths are relative to `prefix`."""

    def __init__(self, source: Any, prefix: tuple[Any, ...]):
        self.source, self.prefix = source, prefix

    def locate(self, path: tuple[Any, ...] = ()) -> Location:
        where: Location = self.source.locate(self.prefix + tuple(path))
        return where

    def locate_value(self, path: tuple[Any, ...] = ()) -> Location:
        where: Location = self.source.locate_value(self.prefix + tuple(path))
        return where


def translate_errors(errors: Sequence[Mapping[str, Any]], data: Any, source: Any, filename: str,
                     model_cls: type[BaseModel] | None = None) -> list[Problem]:
    """pydantic's error dicts → `Problem`s with file:line:col, deduplicated, in document order."""
    cleaned = [_Clean.of(err, data) for err in errors]
    cleaned = _drop_union_noise(cleaned)
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    for group in _group_by_path(cleaned):
        problem = _to_problem(group, source, filename, model_cls)
        key = (str(problem.location), problem.message)
        if key not in seen:
            seen.add(key)
            problems.append(problem)
    problems.sort(key=lambda p: (p.location.line, p.location.col))
    return problems


# --------------------------------------------------------------------------- loc cleaning

class _Clean:
    """One pydantic error with its `loc` reduced to a path that exists in the document."""

    __slots__ = ("err", "type", "path", "tail", "from_union")

    def __init__(self, err: Mapping[str, Any], path: tuple[Any, ...], tail: tuple[Any, ...], from_union: bool):
        self.err = err
        self.type: str = err["type"]
        self.path = path          # keys/indices that exist in the data
        self.tail = tail          # loc parts after the deepest existing node (e.g. a missing key)
        self.from_union = from_union

    @classmethod
    def of(cls, err: Mapping[str, Any], data: Any) -> "_Clean":
        loc = tuple(err.get("loc", ()))
        node = data
        path: list[Any] = []
        skipped = False
        consumed = 0
        for i, part in enumerate(loc):
            if isinstance(node, dict) and _has_key(node, part):
                key = _key_of(node, part)
                path.append(key)
                node = node[key]
                consumed = i + 1
            elif isinstance(node, (list, tuple)) and isinstance(part, int) and 0 <= part < len(node):
                path.append(part)
                node = node[part]
                consumed = i + 1
            else:
                skipped = True
        # Parts after the last one found in the data: for `missing` the absent key; otherwise
        # internal names (union members, tags) that are dropped.
        tail = tuple(p for p in loc[consumed:] if not _is_internal(p))
        return cls(err, tuple(path), tail, skipped)

    @property
    def full(self) -> tuple[Any, ...]:
        """The path including a missing key, for "is this error deeper than that one"."""
        return self.path + self.tail[-1:] if self.type == "missing" else self.path


def _has_key(mapping: dict[Any, Any], part: Any) -> bool:
    return _key_of(mapping, part) is not _NOKEY


_NOKEY = object()


def _key_of(mapping: dict[Any, Any], part: Any) -> Any:
    if part in mapping:
        return part
    if isinstance(part, str):
        for key in mapping:
            if not isinstance(key, str) and str(key) == part:
                return key
    return _NOKEY


_INTERNAL = re.compile(r"^(function-(after|before|wrap|plain)\[|[a-z-]+\[|\[key\]$|[A-Z]\w*$)")


def _is_internal(part: Any) -> bool:
    return isinstance(part, str) and bool(_INTERNAL.match(part)) or part in (
        "int", "str", "float", "bool", "none", "list", "dict", "tuple", "set", "date", "datetime")


def _drop_union_noise(items: list[_Clean]) -> list[_Clean]:
    """Drops "wrong type" errors of union members when another member got further into the value."""
    out = []
    for item in items:
        if item.type in _EXPECTED and item.from_union and any(
                other is not item and len(other.full) > len(item.path)
                and other.full[:len(item.path)] == item.path for other in items):
            continue
        out.append(item)
    return out


def _group_by_path(items: list[_Clean]) -> list[list[_Clean]]:
    """Type errors at the same place (one per union member) become one group; others stay alone."""
    groups: list[list[_Clean]] = []
    by_path: dict[tuple[Any, ...], list[_Clean]] = {}
    for item in items:
        if item.type in _EXPECTED:
            if item.path in by_path:
                by_path[item.path].append(item)
                continue
            by_path[item.path] = [item]
            groups.append(by_path[item.path])
        else:
            groups.append([item])
    return groups


# --------------------------------------------------------------------------- messages

def _to_problem(group: list[_Clean], source: Any, filename: str, model_cls: type[BaseModel] | None) -> Problem:
    first = group[0]
    err, kind = first.err, first.type
    ctx = err.get("ctx") or {}
    hint = None
    if kind == "missing":
        name = first.tail[-1] if first.tail else (err.get("loc") or ("?",))[-1]
        message = _("missing required key {key}").format(key=repr(name))
        location = _locate(source, filename, first.path, value=False)
        path = first.path + (name,)
    elif kind == "extra_forbidden":
        key = first.path[-1] if first.path else (err.get("loc") or ("?",))[-1]
        message = _("unknown key {key}").format(key=repr(key))
        location = _locate(source, filename, first.path, value=False)
        hint = _suggest_key(str(key), model_cls, first.err.get("loc", ()), data_keys=None)
        path = first.path
    else:
        path = first.path
        location = _locate(source, filename, first.path, value=True)
        if kind in _EXPECTED:
            wanted = []
            for item in group:
                if _(_EXPECTED[item.type]) not in wanted:
                    wanted.append(_(_EXPECTED[item.type]))
            message = _("expected {wanted}, got {got}").format(wanted=_or(wanted), got=describe(err.get("input")))
        elif kind in ("literal_error", "enum"):
            expected = str(ctx.get("expected", ""))
            options = re.findall(r"'((?:[^'\\]|\\.)*)'", expected)
            # pydantic lists the options as "'a', 'b' or 'c'": the same list with our own "or".
            listed = _or([f"'{o}'" for o in options]) if options else expected
            message = _("expected {wanted}, got {got}").format(wanted=listed, got=describe(err.get("input")))
            hint = _did_you_mean(err.get("input"), options)
        elif kind in ("union_tag_invalid",):
            message = _("unknown {what} {tag}; expected one of {known}").format(
                what=ctx.get("discriminator", "kind"), tag=repr(ctx.get("tag")), known=ctx.get("expected_tags"))
            hint = _did_you_mean(ctx.get("tag"), re.findall(r"'([^']*)'", str(ctx.get("expected_tags", ""))))
        elif kind == "union_tag_not_found":
            message = _("cannot tell what kind of entry this is")
        elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
            text = {"greater_than_equal": N_("must be at least {bound}, got {got}"),
                    "greater_than": N_("must be more than {bound}, got {got}"),
                    "less_than_equal": N_("must be at most {bound}, got {got}"),
                    "less_than": N_("must be less than {bound}, got {got}")}[kind]
            bound = next(iter(ctx.values()), "?")
            message = _(text).format(bound=bound, got=describe(err.get("input")))
        elif kind in ("too_short", "too_long"):
            if kind == "too_short":
                message = _("needs at least {min} item(s), got {n}").format(
                    min=ctx.get("min_length"), n=ctx.get("actual_length"))
            else:
                message = _("allows at most {max} item(s), got {n}").format(
                    max=ctx.get("max_length"), n=ctx.get("actual_length"))
        elif kind == "string_too_short":
            message = _("the text must have at least {min} character(s)").format(min=ctx.get("min_length"))
        elif kind == "string_too_long":
            message = _("the text may have at most {max} character(s)").format(max=ctx.get("max_length"))
        elif kind in ("value_error", "assertion_error"):
            # Our own validators' messages (scenario/models.py), already translated when raised.
            message = re.sub(r"^(Value error|Assertion failed), ", "", err.get("msg", ""))
        else:
            # A pydantic error type we do not word ourselves: pydantic's English text.
            message = err.get("msg", kind)
            message = message[:1].lower() + message[1:]
    return Problem(message, location, hint=hint, path=tuple(path))


def describe(value: Any) -> str:
    """A short, user-facing rendering of an input value (`'deset'`, `3`, `a mapping`)."""
    if value is None:
        return _("an empty value")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = str(value)
        return repr(text if len(text) <= 40 else text[:37] + "…")
    if isinstance(value, int):
        text = str(int(value))             # at most 4,300 digits: longer ones are refused when read
        return text if len(text) <= 40 else f"{text[:18]}…{text[-18:]}"
    if isinstance(value, float):
        return repr(float(value))
    if isinstance(value, dict):
        return _("a mapping")
    if isinstance(value, (list, tuple)):
        return _("a list")
    if isinstance(value, (_dt.date, _dt.datetime)):
        return _("a date ({value})").format(value=value.isoformat())
    return type(value).__name__


def _or(options: list[str]) -> str:
    """`a`, `a or b`, `a, b or c` in the active language."""
    if len(options) <= 1:
        return "".join(options)
    return _("{options} or {last}").format(options=", ".join(options[:-1]), last=options[-1])


def _did_you_mean(value: Any, options: list[str]) -> str | None:
    if not isinstance(value, str) or not options:
        return None
    # Like difflib.get_close_matches, but on a tie the option listed first wins (the ASCII
    # spelling comes before its Czech alias: `tlo` → 'telo', not 'tělo').
    best, best_score = None, 0.6
    for option in dict.fromkeys(options):
        score = difflib.SequenceMatcher(None, value, option).ratio()
        if score > best_score or (best is None and score >= best_score):
            best, best_score = option, score
    return _("did you mean {option}?").format(option=repr(best)) if best is not None else None


def _locate(source: Any, filename: str, path: tuple[Any, ...], *, value: bool) -> Location:
    if source is None:
        return Location(filename)
    where: Location = source.locate_value(path) if value and hasattr(source, "locate_value") else source.locate(path)
    return where


# --------------------------------------------------------------------------- "did you mean"

def _suggest_key(key: str, model_cls: type[BaseModel] | None, loc: tuple[Any, ...], data_keys: Any) -> str | None:
    """Closest field name or alias of the model(s) at `loc` (the unknown key's parent)."""
    if model_cls is None:
        return None
    names = _names_at(model_cls, tuple(loc[:-1]))
    if not names:
        return None
    return _did_you_mean(key, names)


def _names_at(model_cls: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """Field names and aliases of every model that can sit at `loc`, following annotations."""
    candidates: list[Any] = [model_cls]
    for part in loc:
        nxt: list[Any] = []
        for tp in _expand(candidates):
            nxt.extend(_step(tp, part))
        if nxt:
            candidates = nxt
        # No candidate accepts this part: it is an internal loc part (a tag); keep the candidates.
    names: dict[str, None] = {}   # ordered: a field's name, then its aliases, in model order
    for tp in _expand(candidates):
        if isinstance(tp, type) and issubclass(tp, BaseModel):
            for name, field in tp.model_fields.items():
                names[name] = None
                names.update(dict.fromkeys(sorted(_aliases(field) - {name})))
    return list(names)


def _aliases(field: Any) -> set[str]:
    out: set[str] = set()
    for alias in (field.alias, field.validation_alias):
        if isinstance(alias, str):
            out.add(alias)
        elif isinstance(alias, AliasChoices):
            out.update(c for c in alias.choices if isinstance(c, str))
            out.update(c.path[0] for c in alias.choices if isinstance(c, AliasPath) and c.path
                       and isinstance(c.path[0], str))
        elif isinstance(alias, AliasPath) and alias.path and isinstance(alias.path[0], str):
            out.add(alias.path[0])
    return out


def _expand(types_: list[Any]) -> list[Any]:
    """Unwraps Annotated / Optional / Union into their member types."""
    out: list[Any] = []
    todo = list(types_)
    while todo:
        tp = todo.pop(0)
        origin = typing.get_origin(tp)
        if origin is typing.Annotated:
            todo.insert(0, typing.get_args(tp)[0])
        elif origin is typing.Union or origin is types.UnionType:
            todo[0:0] = list(typing.get_args(tp))
        else:
            out.append(tp)
    return out


def _step(tp: Any, part: Any) -> list[Any]:
    """The type(s) reached from `tp` through loc part `part`; [] when `part` does not apply."""
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, field in tp.model_fields.items():
            if part == name or part in _aliases(field):
                return [field.annotation]
        return []
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (list, set, frozenset, typing.Sequence) and isinstance(part, int) and args:
        return [args[0]]
    if origin is tuple and isinstance(part, int) and args:
        return [args[0] if args[-1] is Ellipsis or part >= len(args) else args[part]]
    if origin in (dict, typing.Mapping) and len(args) == 2:
        return [args[0]] if part == "[key]" else [args[1]]
    return []
