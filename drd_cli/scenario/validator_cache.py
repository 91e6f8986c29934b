"""A per-user cache of the scenario models' compiled validators (issue #14).

Building pydantic's validator for `Scenario` (about 30 nested models) is the largest single
part of validating a small file, and it is the same work on every run of the same drd. The
compiled validator is kept in the user's cache folder and loaded on the next run instead; so is
Dakara's (`DakaraScenario`, built on the same models), each in a file of its own:

* **Key**: drd's version, Python's, pydantic's and pydantic-core's, and a hash of the source of
  the modules the schemas are made from (`models.py`, `aliases.py`, `dakara/models.py`): an
  edited model, even in an editable install whose version did not change, is a new key.
  Validators of other keys are removed when a new one is written.
* **Where** and **trust**: the user's cache folder (`drd_cli/user_cache.py`: read only when the
  file and its folder are the user's alone, written atomically, `DRD_NO_CACHE=1` switches it
  off; docs/cli.md "Environment"). A file is read by an unpickler that accepts nothing but the
  names a validator is made of (the scenario models' and Dakara's classes and functions,
  pydantic-core's `SchemaValidator`, plain containers). Anything else, or any failure, and the
  validator is simply built as without the cache.

Only the plain `Scenario` and `DakaraScenario` are cached (a model with plugin step keys,
`build_scenario_model`, is built as usual), and only when the validator has not been built in
this process already.
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
DAKARA = "drd_cli.dakara.models"
# The modules whose classes and functions a cached validator may name (Dakara's models build on
# the scenario models), and the root models cached, each under its own file name.
_MODULES = frozenset({MODELS, DAKARA})
_ROOTS = {(MODELS, "Scenario"): PREFIX, (DAKARA, "DakaraScenario"): "dakara-validator-"}
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
    for path in (here / "models.py", here / "aliases.py", here.parent / "dakara" / "models.py"):
        h.update(path.read_bytes())
    return h.hexdigest()[:24]


def prime(model: type) -> bool:
    """Gives `model` (the plain `Scenario`, or Dakara's `DakaraScenario`) its validator from the
    cache, or builds it and stores it there. True when the validator came from the cache."""
    prefix = _ROOTS.get((getattr(model, "__module__", None), getattr(model, "__qualname__", None)))
    if prefix is None or vars(_module(model.__module__)).get(model.__qualname__) is not model or _built(model):
        return False
    folder = cache_dir()
    if folder is None:
        return False
    try:
        path = folder / f"{prefix}{key()}{SUFFIX}"
    except OSError:
        return False
    validator = _load(path)
    if validator is not None:
        model.__pydantic_validator__ = validator
        return True
    model.model_rebuild()
    _store(folder, path, model.__pydantic_validator__, prefix)
    return False


def _module(name: str) -> Any:
    import importlib

    return importlib.import_module(name)


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


def _store(folder: Path, path: Path, validator: Any, prefix: str = PREFIX) -> None:
    try:
        data = pickle.dumps(validator, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - a validator that cannot be pickled is simply not kept
        return
    write_private(folder, path, data, stale=f"{prefix}*{SUFFIX}")


class _Restricted(pickle.Unpickler):
    """Accepts only the names a compiled scenario validator is made of."""

    def find_class(self, module: str, name: str) -> Any:
        if module in _MODULES:
            return _model_name(name, module)
        if module == "pydantic_core._pydantic_core" and name == "SchemaValidator":
            from pydantic_core import SchemaValidator

            return SchemaValidator
        if module == "builtins" and name in _CONTAINERS:
            return getattr(builtins, name)
        if module == "builtins" and name == "getattr":
            return _model_attr
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a scenario validator")


def _model_name(qualname: str, module: str = MODELS) -> Any:
    """A class or function defined in the scenario models, or Dakara's
    (`Participant._hero_or_creature`)."""
    head, *rest = qualname.split(".")
    obj = vars(_module(module)).get(head)
    if obj is None or getattr(obj, "__module__", None) != module:
        raise pickle.UnpicklingError(f"{qualname} is not defined by the scenario models")
    for part in rest:
        obj = _model_attr(obj, part)
    return obj


def _model_attr(obj: Any, name: str) -> Any:
    """`getattr` limited to the scenario models' own classes and their non-private members."""
    if not (isinstance(obj, type) and obj.__module__ in _MODULES):
        raise pickle.UnpicklingError("getattr on something that is not a scenario model")
    if name.startswith("__") and name not in _SCHEMA_HOOKS:
        raise pickle.UnpicklingError(f"{name} is not a member a validator uses")
    return getattr(obj, name)
