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

`scenario/validate.py` asks (`prime`) before it validates any model. Only the plain `Scenario`,
`DakaraScenario` and the step models of drd's own plugins are kept (a model with plugin step
keys, `build_scenario_model`, is built as usual), and only when the validator has not been built
in this process already.
"""

from __future__ import annotations

import builtins
import hashlib
import importlib
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


def key(*sources: Path) -> str:
    """What a compiled validator depends on, as a short hash (`sources`: the files of a
    plugin's step model besides the scenario models)."""
    import pydantic
    import pydantic_core

    from .. import __version__

    h = hashlib.sha256()
    for part in (__version__, sys.version, pydantic.VERSION, pydantic_core.__version__):
        h.update(part.encode() + b"\0")
    here = Path(__file__).resolve().parent
    for path in (here / "models.py", here / "aliases.py", here.parent / "dakara" / "models.py", *sources):
        h.update(path.read_bytes())
    return h.hexdigest()[:24]


def prime(model: type) -> bool:
    """Gives `model` its validator from the cache, or builds it and stores it there: the plain
    `Scenario`, Dakara's `DakaraScenario`, or the step model of one of drd's own plugins
    (`drd_plugins.…`, the `hide` step's). True when the validator came from the cache."""
    root = _root(model)
    if root is None or _built(model):
        return False
    prefix, modules, sources = root
    folder = cache_dir()
    if folder is None:
        return False
    try:
        path = folder / f"{prefix}{key(*sources)}{SUFFIX}"
    except OSError:
        return False
    validator = _load(path, modules)
    if validator is not None:
        model.__pydantic_validator__ = validator
        return True
    model.model_rebuild()
    _store(folder, path, model.__pydantic_validator__, prefix)
    return False


def _root(model: type) -> tuple[str, frozenset[str], tuple[Path, ...]] | None:
    """(file name prefix, the modules its validator may name, the sources its key adds) of a
    model whose validator is kept, or None: the model must be its module's own top-level class."""
    module, name = getattr(model, "__module__", None), getattr(model, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(name, str) or "." in name:
        return None
    found = sys.modules.get(module)
    if found is None or vars(found).get(name) is not model:
        return None
    if (module, name) in _ROOTS:
        return _ROOTS[(module, name)], _MODULES, ()
    if module.startswith("drd_plugins.") and getattr(found, "__file__", None):
        return f"step-{module}.{name}-", _MODULES | {module}, (Path(found.__file__),)
    return None


def _built(model: type) -> bool:
    from pydantic_core import SchemaValidator

    return isinstance(model.__dict__.get("__pydantic_validator__"), SchemaValidator)


def _load(path: Path, modules: frozenset[str] = _MODULES) -> Any:
    data = read_private(path)
    if data is None:
        return None
    try:
        validator = _Restricted(io.BytesIO(data), modules).load()
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
    """Accepts only the names a compiled validator is made of: the classes and functions of
    `modules` (the scenario models', and a plugin step model's own module), pydantic-core's
    SchemaValidator, plain containers, and `getattr` limited to those classes."""

    def __init__(self, file: Any, modules: frozenset[str] = _MODULES):
        super().__init__(file)
        self.modules = modules

    def find_class(self, module: str, name: str) -> Any:
        if module in self.modules:
            return _model_name(name, module, self.modules)
        if module == "pydantic_core._pydantic_core" and name == "SchemaValidator":
            from pydantic_core import SchemaValidator

            return SchemaValidator
        if module == "builtins" and name in _CONTAINERS:
            return getattr(builtins, name)
        if module == "builtins" and name == "getattr":
            return lambda obj, attr: _model_attr(obj, attr, self.modules)
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a scenario validator")


def _model_name(qualname: str, module: str = MODELS, modules: frozenset[str] = _MODULES) -> Any:
    """A class or function defined in one of `modules` (`Participant._hero_or_creature`)."""
    head, *rest = qualname.split(".")
    obj = vars(importlib.import_module(module)).get(head)
    if obj is None or getattr(obj, "__module__", None) != module:
        raise pickle.UnpicklingError(f"{qualname} is not defined by the scenario models")
    for part in rest:
        obj = _model_attr(obj, part, modules)
    return obj


def _model_attr(obj: Any, name: str, modules: frozenset[str] = _MODULES) -> Any:
    """`getattr` limited to the classes of `modules` and their non-private members."""
    if not (isinstance(obj, type) and obj.__module__ in modules):
        raise pickle.UnpicklingError("getattr on something that is not a scenario model")
    if name.startswith("__") and name not in _SCHEMA_HOOKS:
        raise pickle.UnpicklingError(f"{name} is not a member a validator uses")
    return getattr(obj, name)
