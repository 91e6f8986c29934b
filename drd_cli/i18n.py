"""Message catalogs: Czech (the default) and English, read with the standard library's gettext.

Every text drd writes for people — the transcript and the engine's log lines — is written in
the source as an English msgid wrapped in `_()` (or `ngettext()`, or `N_()` for a constant that
is translated later), and looked up in the active catalog at the moment it is used. The catalogs
are `drd_cli/locale/<lang>/LC_MESSAGES/drd.po` (the sources) and `drd.mo` (compiled, shipped in
the package); see docs/i18n.md.

One language is active per process (`set_language`), set once by the CLI before anything is
resolved, so the pure engine reads it like a constant and stays deterministic. Nothing is read
from disk until the first message is translated: `drd --version` and shell completion never load
a catalog.

Maintainers: `python -m drd_cli.i18n extract|compile|check` (needs Babel, in the `test` extra).
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import os
from collections.abc import Iterator, Mapping

DOMAIN = "drd"
LANGS = ("cs", "en")
DEFAULT_LANG = "cs"
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
# Where translatable strings live (relative to the repository root), for extraction.
SOURCE_DIRS = ("drd_cli", "plugins/drd_plugins")
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_catalogs: dict[str, _gettext.NullTranslations] = {}
_active = DEFAULT_LANG


def lang_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: `en*` → en, `cs*`/`sk*` → cs, anything else → cs.

    The first of LANGUAGE, LC_ALL, LC_MESSAGES, LANG that is set decides (LANGUAGE may be a
    colon-separated list: its first English, Czech or Slovak entry wins). Unset, `C`, `POSIX` or
    another language give Czech: drd is made for Czech tables.
    """
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        value = (env.get(var) or "").strip()
        if not value:
            continue
        for entry in value.split(":") if var == "LANGUAGE" else [value]:
            code = entry.strip().lower()
            if code.startswith("en"):
                return "en"
            if code.startswith(("cs", "sk")):
                return "cs"
        return DEFAULT_LANG
    return DEFAULT_LANG


def normalize(lang: str | None) -> str:
    """`None` → the environment's language; `EN`, `en_GB.UTF-8` → `en`; unknown → ValueError."""
    if lang is None:
        return lang_from_env()
    code = str(lang).strip().lower().replace("-", "_").split("_")[0].split(".")[0]
    if code == "sk":
        code = "cs"
    if code not in LANGS:
        raise ValueError(f"unknown language {lang!r}; use one of: {', '.join(LANGS)}")
    return code


def translation(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of `lang` (loaded once). English falls back to the msgids themselves."""
    catalog = _catalogs.get(lang)
    if catalog is None:
        catalog = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=(lang == "en"))
        _catalogs[lang] = catalog
    return catalog


def set_language(lang: str | None) -> str:
    """Makes `lang` (None: from the environment) the active language; returns its code."""
    global _active
    _active = normalize(lang)
    return _active


def language() -> str:
    """The active language code (`cs` or `en`)."""
    return _active


@contextlib.contextmanager
def using(lang: str | None) -> Iterator[str]:
    """Temporarily switches the active language (tests, rendering one transcript in another)."""
    global _active
    previous = _active
    try:
        yield set_language(lang)
    finally:
        _active = previous


def _(message: str) -> str:
    """`message` (an English msgid) in the active language."""
    return translation(_active).gettext(message)


gettext = _


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count `n` (Czech has three: 1, 2–4, 5+)."""
    return translation(_active).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a constant for extraction without translating it now (it is passed to `_` later)."""
    return message


# --------------------------------------------------------------------------- numbers for people

def fmt_decimal(value: float, digits: int = 1) -> str:
    """`value` with `digits` decimals in the active language's style: Czech `9,5`, English `9.5`.

    Only for text people read; JSON keeps plain numbers.
    """
    text = f"{float(value):.{digits}f}"
    return text.replace(".", ",") if _active == "cs" else text


def fmt_percent(p: float, digits: int = 1) -> str:
    """A probability 0…1 as a percentage: Czech `84,1 %`, English `84.1 %` (a space before %)."""
    return f"{fmt_decimal(float(p) * 100, digits)} %"


def fmt_fraction(p, digits: int = 1, sep: str = " ") -> str:
    """An exact probability (a Fraction) as `13/18 (72,2 %)`, or `13/18 = 72,2 %` with sep='='.

    The fraction itself never changes with the language.
    """
    ratio = f"{p.numerator}/{p.denominator}"
    if sep == "=":
        return f"{ratio} = {fmt_percent(p, digits)}"
    return f"{ratio} ({fmt_percent(p, digits)})"


# --------------------------------------------------------------------------- maintainer tools

def _repo_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def po_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.po")


def mo_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", f"{DOMAIN}.mo")


KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}


def extract_messages(root: str | None = None) -> dict:
    """Every translatable string in the sources: {msgid or (singular, plural): [(file, line), …]}.

    Needs Babel (maintainers and tests only).
    """
    from babel.messages.extract import extract_from_dir

    root = root or _repo_root()
    found: dict = {}
    for folder in SOURCE_DIRS:
        base = os.path.join(root, folder)
        if not os.path.isdir(base):
            continue
        method_map = [("**.py", "python")]
        for filename, lineno, message, _comments, _context in extract_from_dir(
                base, method_map=method_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                strip_comment_tags=True):
            key = message if isinstance(message, str) else tuple(message)
            found.setdefault(key, []).append((os.path.join(folder, filename), lineno))
    return found


def _header_catalog(lang: str):
    from babel.messages.catalog import Catalog

    return Catalog(locale=lang, domain=DOMAIN, project="drd", version="1", msgid_bugs_address="",
                   copyright_holder="drd authors", last_translator="drd authors",
                   language_team=f"{lang} (drd)", fuzzy=False)


def extract() -> list[str]:
    """Updates both .po files from the sources: new msgids added untranslated, gone ones dropped."""
    from babel.messages.pofile import read_po, write_po

    messages = extract_messages()
    changed = []
    for lang in LANGS:
        path = po_path(lang)
        if os.path.exists(path):
            with open(path, "rb") as fh:
                old = read_po(fh, locale=lang)
        else:
            old = _header_catalog(lang)
        new = _header_catalog(lang)
        new.mime_headers = old.mime_headers
        for key, locations in sorted(messages.items(), key=lambda kv: (kv[1][0][0], str(kv[0]))):
            previous = old.get(key[0] if isinstance(key, tuple) else key)
            string = previous.string if previous is not None else ("", "") if isinstance(key, tuple) else ""
            flags = set(previous.flags) if previous is not None else set()
            new.add(key, string, locations=[(f, n) for f, n in locations], flags=flags)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            # No line numbers: a moved line must not make the catalogs look changed.
            write_po(fh, new, width=100, include_lineno=False, sort_output=False, include_previous=False)
        changed.append(path)
    return changed


def compile_catalogs() -> list[str]:
    """Compiles every .po into its .mo (fuzzy entries are left out, as msgfmt does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    out = []
    for lang in LANGS:
        with open(po_path(lang), "rb") as fh:
            catalog = read_po(fh, locale=lang)
        # Written beside and renamed: a drd running meanwhile (the test suite) never reads half a .mo.
        target = mo_path(lang)
        partial = f"{target}.{os.getpid()}.tmp"
        try:
            with open(partial, "wb") as fh:
                write_mo(fh, catalog, use_fuzzy=False)
            os.replace(partial, target)
        finally:
            if os.path.exists(partial):
                os.unlink(partial)
        out.append(target)
    return out


def main(argv: list[str] | None = None) -> int:
    """`python -m drd_cli.i18n extract|compile` (maintainers)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    if args == ["extract"]:
        for path in extract():
            print(f"updated {path}")
        return 0
    if args == ["compile"]:
        for path in compile_catalogs():
            print(f"compiled {path}")
        return 0
    sys.stderr.write("usage: python -m drd_cli.i18n extract|compile\n")
    return 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
