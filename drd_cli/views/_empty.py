"""The one empty read-only mapping the views share (a module of its own, so that the view modules
need not import the package that names them)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

_EMPTY: Mapping[str, Any] = MappingProxyType({})
