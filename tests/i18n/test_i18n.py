"""The message catalogs stay complete and in step with the sources (docs/i18n.md).

Fails when a translatable string in the code is missing from a catalog (or a catalog keeps one the
code no longer has), when an entry is untranslated or fuzzy, when a compiled .mo no longer matches
its .po, or when a translation's {placeholders} differ from its msgid's. Also: the language
choice from the environment, and Czech plural forms.
"""

from __future__ import annotations

import gettext
import string

import pytest

from drd_cli import i18n

babel = pytest.importorskip("babel", reason="Babel (the test extra) reads and extracts the catalogs")
from babel.messages.pofile import read_po  # noqa: E402


def catalog(lang: str):
    with open(i18n.po_path(lang), "rb") as fh:
        return read_po(fh, locale=lang)


def entries(lang: str) -> dict:
    return {m.id if isinstance(m.id, str) else tuple(m.id): m for m in catalog(lang) if m.id}


@pytest.fixture(scope="module")
def source_messages() -> dict:
    return i18n.extract_messages()


def test_sources_have_messages(source_messages):
    # Guard against a broken extraction making every other check vacuous.
    assert len(source_messages) > 80
    assert "Step {id} · round {round} · {kind}" in source_messages


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_source_message_is_in_the_catalog(lang, source_messages):
    have = set(entries(lang))
    missing = sorted(map(str, set(source_messages) - have))
    obsolete = sorted(map(str, have - set(source_messages)))
    assert not missing, f"{lang}: not in the catalog (python -m drd_cli.i18n extract): {missing[:10]}"
    assert not obsolete, f"{lang}: no longer in the sources (python -m drd_cli.i18n extract): {obsolete[:10]}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_entry_translated_and_not_fuzzy(lang):
    bad = []
    for key, msg in entries(lang).items():
        forms = [msg.string] if isinstance(msg.string, str) else list(msg.string)
        if msg.fuzzy or not all(f.strip() for f in forms):
            bad.append(key)
    assert not bad, f"{lang}: untranslated or fuzzy: {bad[:10]}"


def test_czech_catalog_has_three_plural_forms():
    cat = catalog("cs")
    assert cat.num_plurals == 3
    for key, msg in entries("cs").items():
        if isinstance(key, tuple):
            assert len(msg.string) == 3, key


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_placeholders_match(lang):
    bad = []
    for key, msg in entries(lang).items():
        ids = [key] if isinstance(key, str) else list(key)
        wanted = set().union(*(_fields(i) for i in ids))
        forms = [msg.string] if isinstance(msg.string, str) else list(msg.string)
        for form in forms:
            if _fields(form) != wanted:
                bad.append((key, form))
    assert not bad, f"{lang}: placeholders differ: {bad[:5]}"


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_compiled_catalog_matches_its_source(lang):
    """The shipped .mo says exactly what the .po says (else: python -m drd_cli.i18n compile)."""
    with open(i18n.mo_path(lang), "rb") as fh:
        compiled = gettext.GNUTranslations(fh)
    for key, msg in entries(lang).items():
        if isinstance(key, str):
            assert compiled.gettext(key) == msg.string, f"{lang}: stale .mo for {key!r}"
        else:
            for n, form in zip((1, 2, 5), msg.string if lang == "cs" else (msg.string[0], msg.string[1],
                                                                             msg.string[1])):
                assert compiled.ngettext(key[0], key[1], n) == form, f"{lang}: stale .mo for {key!r} n={n}"
    # and nothing more: the .mo holds no message the .po dropped
    ids = {k if isinstance(k, str) else k[0] for k in entries(lang)}
    extra = {k for k in compiled._catalog if (k[0] if isinstance(k, tuple) else k) and  # noqa: SLF001
             (k[0] if isinstance(k, tuple) else k) not in ids}
    assert not extra, f"{lang}: .mo has entries the .po no longer has: {sorted(map(str, extra))[:5]}"


def test_czech_plural_rule():
    with i18n.using("cs"):
        assert [i18n.ngettext("{n} more round", "{n} more rounds", n).format(n=n) for n in (1, 3, 5)] == [
            "ještě 1 kolo", "ještě 3 kola", "ještě 5 kol"]
    with i18n.using("en"):
        assert i18n.ngettext("{n} more round", "{n} more rounds", 1).format(n=1) == "1 more round"


@pytest.mark.parametrize("env,lang", [
    ({}, "cs"),
    ({"LANG": "C"}, "cs"),
    ({"LANG": "POSIX"}, "cs"),
    ({"LANG": "de_DE.UTF-8"}, "cs"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "cs_CZ.UTF-8"}, "cs"),
    ({"LANG": "sk_SK.UTF-8"}, "cs"),
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "cs_CZ.UTF-8"}, "en"),
    ({"LC_MESSAGES": "cs_CZ.UTF-8", "LANG": "en_US.UTF-8"}, "cs"),
    ({"LANGUAGE": "de:en", "LANG": "cs_CZ.UTF-8"}, "en"),
    ({"LANGUAGE": "", "LANG": "en_US"}, "en"),
])
def test_language_from_environment(env, lang):
    assert i18n.lang_from_env(env) == lang


def test_normalize_and_unknown_language():
    assert i18n.normalize("EN") == "en" and i18n.normalize("cs_CZ.UTF-8") == "cs" and i18n.normalize("sk") == "cs"
    with pytest.raises(ValueError):
        i18n.normalize("de")


def test_using_restores_the_language():
    before = i18n.language()
    with i18n.using("en"):
        assert i18n._("SUCCESS") == "SUCCESS"
    assert i18n.language() == before
    with i18n.using("cs"):
        assert i18n._("SUCCESS") == "ÚSPĚCH"


def test_catalogs_are_in_the_wheel(tmp_path):
    hatch = pytest.importorskip("hatchling.builders.wheel", reason="hatchling not installed here")
    import os
    import zipfile

    root = os.path.dirname(os.path.dirname(os.path.abspath(i18n.__file__)))
    builder = hatch.WheelBuilder(root)
    wheel = next(iter(builder.build(directory=str(tmp_path), versions=["standard"])))
    names = set(zipfile.ZipFile(wheel).namelist())
    for lang in i18n.LANGS:
        assert f"drd_cli/locale/{lang}/LC_MESSAGES/drd.mo" in names
        assert f"drd_cli/locale/{lang}/LC_MESSAGES/drd.po" in names
    # the English of the ability catalogue (its own catalog, next to the built-in plugins)
    assert "drd_plugins/locale/en/LC_MESSAGES/drd_schopnosti.mo" in names
