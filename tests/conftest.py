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

import os
import shutil
import sys
from pathlib import Path

import pytest

# The hook-argument builders of tests/abilities/abilities_support.py serve tests/plugins/ too: the
# folder is on the import path whichever subset of the suite runs.
_ABILITIES = str(Path(__file__).resolve().parent / "abilities")
if _ABILITIES not in sys.path:
    sys.path.insert(0, _ABILITIES)


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
    # The user cache (drd_cli/user_cache.py, the entry points): one per test run, never ~/.cache.
    monkeypatch.setenv("DRD_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "drd-cache"))
    monkeypatch.delenv("DRD_NO_CACHE", raising=False)


@pytest.fixture
def installed_plugins(monkeypatch):
    """For the tests that really install (or fake-install) a plugin distribution: turns the suite's
    DRD_DISABLE_PLUGIN_AUTOLOAD off, so third-party entry points are discovered again."""
    monkeypatch.delenv("DRD_DISABLE_PLUGIN_AUTOLOAD", raising=False)


# --------------------------------------------------------------------------- a real browser
# (tests/browser_support.py): one Chromium per test process, a fresh context per page.

@pytest.fixture(scope="session")
def chromium():
    """A headless Debian Chromium driven by Playwright; skipped (or failed, DRD_REQUIRE_BROWSER=1)
    where there is none."""
    from tests.browser_support import CHROMIUM_ARGS, chromium_path, missing_browser, skip_or_fail

    reason = missing_browser()
    if reason:
        skip_or_fail(reason)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def new_page(chromium):
    """`new_page(width=375, height=667, locale="cs-CZ")` → a Playwright page in a context of its own."""
    contexts = []

    def make(width: int = 375, height: int = 667, locale: str = "cs-CZ", **options):
        context = chromium.new_context(viewport={"width": width, "height": height}, locale=locale, **options)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def artefacts(tmp_path_factory):
    """The folder the browser tests keep their screenshots in (printed by the tests that write there)."""
    from tests.browser_support import artefacts_dir

    return artefacts_dir(tmp_path_factory.getbasetemp())


@pytest.fixture
def drd_script() -> str:
    """The `drd` console script beside this interpreter, for tests that need a real process (a
    terminal, a closed pipe, concurrent runs). The README's install puts it there, so a missing
    one is a broken installation, not a reason to skip."""
    exe = shutil.which("drd", path=os.path.dirname(sys.executable))
    assert exe is not None, "the drd console script is not installed: pip install -e '.[test]'"
    return exe
