"""Running drd as a user does (a separate process) inside a campaign folder made for a test."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


def drd(*args: str, cwd: Path, input: str | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    full = dict(os.environ, LANG="C.UTF-8", DRD_DISABLE_PLUGIN_AUTOLOAD="1", DRD_KDO="tester", COLUMNS="100")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        full.pop(var, None)
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "drd_cli.cli.app", *args], cwd=cwd, input=input,
                          capture_output=True, text=True, env=full, timeout=120)


def ok(*args: str, cwd: Path, input: str | None = None) -> subprocess.CompletedProcess:
    proc = drd(*args, cwd=cwd, input=input)
    assert proc.returncode == 0, f"drd {' '.join(args)} → {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


def new_campaign(tmp_path: Path, name: str = "Dobrodruzi") -> Path:
    ok("kampan", "new", name, cwd=tmp_path)
    return tmp_path / name


def fixture(name: str, into: Path) -> Path:
    target = into / name
    shutil.copy(FIXTURES / name, target)
    return target


def character(root: Path, ident: str) -> dict:
    import yaml

    return yaml.safe_load((root / "postavy" / f"{ident}.yaml").read_text(encoding="utf-8"))


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
