"""Shared test setup: every test starts in Czech, whatever the developer's locale says.

drd picks its language from LANGUAGE/LC_ALL/LC_MESSAGES/LANG (docs/i18n.md); a developer with
`LANG=en_US.UTF-8` would otherwise see the Czech-wording assertions fail. Tests about the
environment set these variables themselves.

Every test is also immune to drd plugins installed in the environment: DRD_DISABLE_PLUGIN_AUTOLOAD
keeps discovery to drd's own entry points (plus plugin folders and the fixture's plugin objects),
so a developer's house rule cannot change our results. The tests that really install a plugin
(tests/plugins/test_tutorial_install.py) unset it.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_installed_plugins(monkeypatch):
    monkeypatch.setenv("DRD_DISABLE_PLUGIN_AUTOLOAD", "1")


@pytest.fixture(autouse=True)
def _czech_locale(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    from drd_cli import i18n

    previous = i18n.language()
    i18n.set_language("cs")
    yield
    i18n.set_language(previous)


@pytest.fixture
def english(monkeypatch):
    """For tests that pin the English wording of error messages (the commands read LANG, the API the
    active language); the Czech wording of the same errors: tests/i18n/test_lang_errors.py."""
    from drd_cli import i18n

    monkeypatch.setenv("LANG", "en_US.UTF-8")
    with i18n.using("en"):
        yield


@pytest.fixture(autouse=True)
def _own_user_dirs(monkeypatch, tmp_path_factory):
    """Every test has an empty config folder and trust file of its own (docs/cli.md, "Trust"):
    the developer's ~/.config/drd/groups and trusted profiles never leak into a test, and no
    test writes into them. (A fresh folder per test, outside `tmp_path`, which tests list.)"""
    home = tmp_path_factory.mktemp("user")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.delenv("DRD_TRUST_FILE", raising=False)
    # The validator cache (drd_cli/scenario/validator_cache.py): one per test run, never ~/.cache.
    monkeypatch.setenv("DRD_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "drd-cache"))
    monkeypatch.delenv("DRD_NO_CACHE", raising=False)


@pytest.fixture
def installed_plugins(monkeypatch):
    """For the tests that really install (or fake-install) a plugin distribution: turns the suite's
    DRD_DISABLE_PLUGIN_AUTOLOAD off, so third-party entry points are discovered again."""
    monkeypatch.delenv("DRD_DISABLE_PLUGIN_AUTOLOAD", raising=False)
