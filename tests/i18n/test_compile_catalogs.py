"""`python -m drd_cli.i18n compile` replaces a catalog's .mo in one step: a drd started meanwhile (a
test suite running while a maintainer compiles) reads the old catalog or the new one, never half of
one (a truncated .mo is a `struct.error` inside gettext)."""

from __future__ import annotations

import shutil

import pytest

from drd_cli import i18n


def test_a_failed_compile_leaves_the_old_catalog_whole(tmp_path, monkeypatch):
    for lang in i18n.LANGS:
        shutil.copy(i18n.mo_path(lang), tmp_path / f"{lang}.mo")
    monkeypatch.setattr(i18n, "mo_path", lambda lang: str(tmp_path / f"{lang}.mo"))
    before = {lang: (tmp_path / f"{lang}.mo").read_bytes() for lang in i18n.LANGS}

    def half(fh, catalog, use_fuzzy=False):  # noqa: ANN001
        fh.write(b"\xde\x12")              # two bytes of a magic number, then the writer dies
        raise OSError("disk full")

    monkeypatch.setattr("babel.messages.mofile.write_mo", half)
    with pytest.raises(OSError):
        i18n.compile_catalogs()
    assert {lang: (tmp_path / f"{lang}.mo").read_bytes() for lang in i18n.LANGS} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(f"{lang}.mo" for lang in i18n.LANGS)


def test_compile_writes_the_catalog(tmp_path, monkeypatch):
    monkeypatch.setattr(i18n, "mo_path", lambda lang: str(tmp_path / f"{lang}.mo"))
    assert i18n.compile_catalogs() == [str(tmp_path / f"{lang}.mo") for lang in i18n.LANGS]
    for lang in i18n.LANGS:
        assert (tmp_path / f"{lang}.mo").read_bytes()[:4] in (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")
