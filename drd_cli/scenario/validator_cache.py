"""A per-user cache of the scenario model's compiled validator (issue #14).

Building pydantic's validator for `Scenario` (about 30 nested models) is the largest single
part of validating a small file, and it is the same work on every run of the same drd. The
compiled validator is kept in the user's cache folder and loaded on the next run instead:

* **Key**: drd's version, Python's, pydantic's and pydantic-core's, and a hash of the source of
  the modules the schema is made from (`models.py`, `aliases.py`): an edited model, even in an
  editable install whose version did not change, is a new key. Validators of other keys are
  removed when a new one is written.
* **Where**: `$DRD_CACHE_DIR`, else `$XDG_CACHE_HOME/drd`, else `~/.cache/drd`.
  `DRD_NO_CACHE=1` switches it off (docs/cli.md "Environment").
* **Trust**: the file is read only when it and its folder belong to the user running drd and
  nobody else may write them; it is read by an unpickler that accepts nothing but the names the
  validator is made of (the scenario models' classes and functions, pydantic-core's
  `SchemaValidator`, plain containers). Anything else, or any failure, and the validator is
  simply built as without the cache. Writing is atomic (a temp file, then a rename), 0600.

Only the plain `Scenario` is cached (a model with plugin step keys, `build_scenario_model`, is
built as usual), and only when its validator has not been built in this process already.
"""

from __future__ import annotations

import builtins
import hashlib
import io
import pickle
import sys
from pathlib import Path
from typing import Any

from ..user_cache import DIR_ENV, OFF_ENV, cache_dir, read_private, write_private  # noqa: F401 - re-exported

PREFIX = "scenario-validator-"
SUFFIX = ".pickle"
MODELS = "drd_cli.scenario.models"
# What the compiled validator of the scenario models is made of (besides those models' own
# classes and functions); the unpickler refuses every other name.
_CONTAINERS = frozenset({"dict", "list", "tuple", "set", "frozenset"})
_SCHEMA_HOOKS = frozenset({"__get_pydantic_json_schema__", "__get_pydantic_core_schema__"})


def key() -> str:
    """What the compiled validator depends on, as a short hash."""
    import pydantic
    import pydantic_core

    from .. import __version__

    h = hashlib.sha256()
    for part in (__version__, sys.version, pydantic.VERSION, pydantic_core.__version__):
        h.update(part.encode() + b"\0")
    here = Path(__file__).resolve().parent
    for name in ("models.py", "aliases.py"):
        h.update((here / name).read_bytes())
    return h.hexdigest()[:24]


def prime(model: type) -> bool:
    """Gives `model` (the plain `Scenario`) its validator from the cache, or builds it and
    stores it there. True when the validator came from the cache."""
    from . import models

    if model is not models.Scenario or _built(model):
        return False
    folder = cache_dir()
    if folder is None:
        return False
    try:
        path = folder / f"{PREFIX}{key()}{SUFFIX}"
    except OSError:
        return False
    validator = _load(path)
    if validator is not None:
        model.__pydantic_validator__ = validator
        return True
    model.model_rebuild()
    _store(folder, path, model.__pydantic_validator__)
    return False


def _built(model: type) -> bool:
    from pydantic_core import SchemaValidator

    return isinstance(model.__dict__.get("__pydantic_validator__"), SchemaValidator)


def _load(path: Path) -> Any:
    data = read_private(path)
    if data is None:
        return None
    try:
        validator = _Restricted(io.BytesIO(data)).load()
    except Exception:  # noqa: BLE001 - a cache that cannot be used is rebuilt, never an error
        return None
    from pydantic_core import SchemaValidator

    return validator if isinstance(validator, SchemaValidator) else None


def _store(folder: Path, path: Path, validator: Any) -> None:
    try:
        data = pickle.dumps(validator, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a validator that cannot be pickled is simply not kept
        return
    write_private(folder, path, data, stale=f"{PREFIX}*{SUFFIX}")


class _Restricted(pickle.Unpickler):
    """Accepts only the names a compiled scenario validator is made of."""

    def find_class(self, module: str, name: str) -> Any:
        if module == MODELS:
            return _model_name(name)
        if module == "pydantic_core._pydantic_core" and name == "SchemaValidator":
            from pydantic_core import SchemaValidator

            return SchemaValidator
        if module == "builtins" and name in _CONTAINERS:
            return getattr(builtins, name)
        if module == "builtins" and name == "getattr":
            return _model_attr
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a scenario validator")


def _model_name(qualname: str) -> Any:
    """A class or function defined in the scenario models (`Participant._hero_or_creature`)."""
    from . import models

    head, *rest = qualname.split(".")
    obj = vars(models).get(head)
    if obj is None or getattr(obj, "__module__", None) != MODELS:
        raise pickle.UnpicklingError(f"{qualname} is not defined by the scenario models")
    for part in rest:
        obj = _model_attr(obj, part)
    return obj


def _model_attr(obj: Any, name: str) -> Any:
    """`getattr` limited to the scenario models' own classes and their non-private members."""
    if not (isinstance(obj, type) and obj.__module__ == MODELS):
        raise pickle.UnpicklingError("getattr on something that is not a scenario model")
    if name.startswith("__") and name not in _SCHEMA_HOOKS:
        raise pickle.UnpicklingError(f"{name} is not a member a validator uses")
    return getattr(obj, name)
