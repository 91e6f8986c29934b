"""Without a Chromium the browser tests skip with their reason — and fail under DRD_REQUIRE_BROWSER=1
(.ci/run), so CI cannot pass without running them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import pytest

@pytest.mark.browser
def test_needs_a_browser(chromium):
    assert chromium
"""


@pytest.mark.parametrize("required,outcome", [("", "1 skipped"), ("1", "1 error")])
def test_no_chromium_skips_unless_required(tmp_path, required, outcome):
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    (tmp_path / "conftest.py").write_text(
        "import sys\nsys.path.insert(0, %r)\nfrom tests.conftest import chromium  # noqa: F401\n" % str(ROOT),
        encoding="utf-8")
    env = {**os.environ, "DRD_CHROMIUM": str(tmp_path / "no-chromium"), "DRD_REQUIRE_BROWSER": required}
    got = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-rs", str(probe)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert outcome in got.stdout, got.stdout
    if required:
        assert "DRD_REQUIRE_BROWSER=1" in got.stdout and got.returncode != 0
    else:
        assert "no Chromium" in got.stdout and got.returncode == 0
