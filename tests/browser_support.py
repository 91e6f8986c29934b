"""A real browser for the tests: Playwright (PyPI) driving Debian's Chromium (/usr/bin/chromium).

Tests that need it take the `chromium` fixture (tests/conftest.py) or `new_page`. Where no Chromium
exists they are skipped with the reason — unless DRD_REQUIRE_BROWSER=1 (as .ci/run sets it), which
turns that skip into a failure, so a CI machine cannot pass without running them. Playwright's own
browser downloads are never used.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 375, "height": 667}
SCREEN = {"width": 1920, "height": 1080}


def chromium_path() -> str | None:
    """Debian's Chromium (or the one DRD_CHROMIUM names, and then only that), if it is there."""
    named = os.environ.get("DRD_CHROMIUM")
    for candidate in ((named,) if named else ("/usr/bin/chromium", shutil.which("chromium"))):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def missing_browser() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[test]')"
    if chromium_path() is None:
        return "no Chromium at /usr/bin/chromium (apt-get install chromium, or set DRD_CHROMIUM)"
    return None


def skip_or_fail(reason: str) -> None:
    if os.environ.get("DRD_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests required (DRD_REQUIRE_BROWSER=1) but cannot run: {reason}")
    pytest.skip(reason)


def artefacts_dir(base: Path) -> Path:
    """Where screenshots are kept: DRD_ARTEFACTS, else `artefacts` in pytest's temp folder."""
    folder = Path(os.environ.get("DRD_ARTEFACTS") or base / "artefacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
