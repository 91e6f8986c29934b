"""drd_cli type-checks with mypy's default settings (docs/architecture.md, "Types").

One mypy run over the whole package; its errors are sorted by module. The packages in CLEAN must
have none (the plugin host, the abilities, the contracts, the orchestration's api, the public
façade); every other module must have none either, except those still on NOT_YET_CLEAN — and a
module on that list that has become clean must leave it (the list only shrinks).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Checked with no error allowed.
CLEAN = ("plugins", "abilities", "views", "hookspecs", "api", "plugin")

#: Not clean yet: module (first part under drd_cli/) → what is left. May only shrink.
NOT_YET_CLEAN: dict[str, str] = {}

_LINE = re.compile(r"^drd_cli/([A-Za-z_]+)(?:/|\.py)[^:]*:\d+: error: ")


@pytest.fixture(scope="module")
def errors_by_module() -> dict[str, list[str]]:
    pytest.importorskip("mypy", reason="mypy (the test extra) type-checks the package")
    r = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(ROOT / ".mypy_cache"), "drd_cli"],
                       cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert r.returncode in (0, 1), r.stdout[-2000:] + r.stderr[-2000:]
    found: dict[str, list[str]] = {}
    for line in r.stdout.splitlines():
        m = _LINE.match(line)
        if m:
            found.setdefault(m.group(1), []).append(line)
    return found


def test_the_clean_packages_have_no_type_error(errors_by_module):
    bad = [line for module in CLEAN for line in errors_by_module.get(module, [])]
    assert not bad, "mypy errors in the packages that are kept clean:\n" + "\n".join(bad)


def test_no_other_module_gains_type_errors(errors_by_module):
    bad = [line for module, lines in errors_by_module.items() if module not in NOT_YET_CLEAN for line in lines]
    assert not bad, "mypy errors outside NOT_YET_CLEAN (fix them):\n" + "\n".join(bad[:40])


def test_the_not_yet_clean_list_only_shrinks(errors_by_module):
    clean_now = sorted(module for module in NOT_YET_CLEAN if not errors_by_module.get(module))
    assert not clean_now, f"clean now, remove from NOT_YET_CLEAN in tests/test_types.py: {clean_now}"
