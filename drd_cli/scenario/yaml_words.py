"""The YAML parser's complaints in the words of the run's language (`scenario/load.py`).

`yaml_message(exc)` words a ruamel syntax error (a duplicate key names its first line; a phrase
we know is translated, an unknown one is quoted as the parser wrote it); `reader_message(exc)`
words a character YAML does not allow.
"""

from __future__ import annotations

from typing import Any

from ..i18n import N_, _


def yaml_message(exc: Any) -> str:
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    if "duplicate key" in problem:
        # ruamel: 'found duplicate key "a" with value "2" (original value: "1")'
        first = exc.context_mark
        key = problem.split('"')[1] if problem.count('"') >= 2 else "?"
        if first is not None:
            return _("duplicate key {key} (first defined on line {line})").format(key=repr(key), line=first.line + 1)
        return _("duplicate key {key}").format(key=repr(key))
    # The parser's description of the syntax error is put in words of the run's language where we
    # know its phrase (the usual ones); an unknown phrase is quoted as the parser wrote it.
    problem, context = _yaml_words(problem), _yaml_context(context)
    if problem and context:
        return _("invalid YAML: {problem}").format(problem=f"{problem} ({context})")
    return _("invalid YAML: {problem}").format(problem=problem or context or first_line(str(exc)))


_TOKENS = {"<scalar>": N_("a value"), "<block end>": N_("the end of the block"),
           "<block mapping start>": N_("a new mapping"), "<block sequence start>": N_("a new list"),
           "<stream end>": N_("the end of the file"), "<document start>": N_("a new document (---)")}
# Tokens that are characters, shown as they are in every language.
_SIGNS = {"<flow mapping start>": "'{'", "<flow sequence start>": "'['", "<block entry>": "'- '"}


def _token(text: str) -> str:
    word = text.strip().strip("'")
    if word in _SIGNS:
        return _SIGNS[word]
    return _(_TOKENS[word]) if word in _TOKENS else text.strip()


def _yaml_words(problem: str) -> str:
    """The parser's problem phrase in the run's language, where we know it."""
    import re

    m = re.fullmatch(r"expected (.+?), but (?:got|found) (.+)", problem)
    if m:
        return _("expected {expected}, but found {found}").format(
            expected=_(" or ").join(_token(t) for t in m.group(1).split(" or ")),
            found=_token(m.group(2)))
    m = re.fullmatch(r"found character (.+?) that cannot start any token", problem)
    if m:
        return _("the character {char} cannot start anything here (YAML indents with spaces, not tabs)").format(
            char=m.group(1))
    if problem == "mapping values are not allowed here":
        return _("a `key:` is not allowed here (a missing space after ':' or a wrong indentation?)")
    if problem == "could not find expected ':'":
        return _("a key without its ':'")
    if problem.startswith("found unexpected end of stream"):
        return _("the file ends too early")
    m = re.fullmatch(r"found undefined alias '?(.+?)'?", problem)
    if m:
        return _("undefined alias {name}").format(name=repr(m.group(1)))
    return problem


def _yaml_context(context: str) -> str:
    words = {"while parsing a flow mapping": N_("in a mapping in braces"),
             "while parsing a flow sequence": N_("in a list in brackets"),
             "while parsing a block mapping": N_("in a mapping"),
             "while parsing a block collection": N_("in a list"),
             "while scanning a simple key": N_("in a key"),
             "while scanning a quoted scalar": N_("in a quoted text"),
             "while scanning for the next token": None}
    if context in words:
        said = words[context]
        return _(said) if said else ""
    return context


def reader_message(exc: Any) -> str:
    char = exc.character
    if isinstance(char, int):
        return _("the character {char} is not allowed in YAML (control or special character)").format(
            char=f"U+{char:04X}")
    return _("invalid character: {reason}").format(reason=exc.reason)


def first_line(text: str) -> str:
    return next((line.strip() for line in text.splitlines() if line.strip()), _("unknown error"))
