"""docs/plugins.md's tutorial shows the files of examples/drd-stit-predku exactly (issue #4)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "examples" / "drd-stit-predku"
DOCS = (ROOT / "docs" / "plugins.md").read_text(encoding="utf-8")
BLOCK = re.compile(r"^`drd-stit-predku/([^`]+)`:\n\n```[a-z]*\n(.*?)```$", re.S | re.M)


def test_every_file_of_the_tutorial_package_is_shown_verbatim():
    shown = {path: text for path, text in BLOCK.findall(DOCS)}
    files = {p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and ".pytest_cache" not in p.parts}
    assert set(shown) == files == {"pyproject.toml", "drd_stit_predku.py", "tests/conftest.py", "tests/test_stit.py"}
    for path, text in shown.items():
        assert text == (PACKAGE / path).read_text(encoding="utf-8"), f"docs/plugins.md shows an old {path}"


def test_the_package_declares_the_entry_point_the_docs_describe():
    import tomllib

    meta = tomllib.loads((PACKAGE / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta["project"]["entry-points"]["drd_cli.plugins"] == {"stit-predku": "drd_stit_predku"}
    assert meta["build-system"]["build-backend"] == "hatchling.build"
