"""Tests build hook arguments with tests/abilities/abilities_support.py (this folder), here and in
tests/plugins/: the folder is put on the import path once for the whole session."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)
