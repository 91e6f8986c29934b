"""The compiled scenario validator kept in the user's cache (issue #14; drd_cli/scenario/validator_cache.py).

Each check runs in a fresh interpreter: in this one the validator is already built.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from drd_cli.scenario import validator_cache

ROOT = Path(__file__).resolve().parents[2]

# Validates every scenario and a few broken documents; prints whether the validator came from
# the cache, then a fingerprint of every outcome (the models' data, or pydantic's errors).
PROBE = r"""
import glob, json, sys
from drd_cli.scenario import models, validator_cache
from drd_cli.scenario.load import load_document
hit = validator_cache.prime(models.Scenario)
out = []
docs = [load_document(f)[0] for f in sorted(glob.glob(sys.argv[1] + "/scenarios/*.yaml"))]
docs += [{"format": "drd/1", "participants": {"a": {"sudba": "deset"}}},
         {"format": "drd/1", "rounds": [{"steps": [{"id": "x", "tset": {}}]}], "extra": 1},
         {"format": "drd/1", "participants": {"a": {"pools": {"telo": 1}, "abilities": [{"weapon": "meč"}]}}}]
for data in docs:
    if data.get("system") == "dakara":
        continue
    try:
        out.append(models.Scenario.model_validate(data).model_dump(mode="json"))
    except Exception as exc:
        out.append([type(exc).__name__, [(e["type"], list(map(str, e["loc"]))) for e in exc.errors(include_url=False)]])
print(json.dumps({"hit": hit, "out": out}, sort_keys=True, ensure_ascii=False, default=str))
"""


def probe(cache: Path, code: str = PROBE, **env: str) -> dict:
    """Runs a probe (`code`, by default PROBE) in a fresh interpreter with `cache` as drd's cache."""
    import json

    environ = {k: v for k, v in os.environ.items() if k != "DRD_NO_CACHE"}
    environ.update({"DRD_CACHE_DIR": str(cache), **env})
    done = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True,
                          env=environ, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cached(cache: Path) -> list[Path]:
    return sorted(cache.glob(f"{validator_cache.PREFIX}*{validator_cache.SUFFIX}"))


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="the cache is used where file owners exist")
def test_a_cached_validator_validates_exactly_as_a_built_one(tmp_path):
    cache = tmp_path / "cache"
    first = probe(cache)
    assert first["hit"] is False and len(cached(cache)) == 1
    assert oct(cached(cache)[0].stat().st_mode & 0o777) == "0o600"
    second = probe(cache)
    assert second["hit"] is True
    assert second["out"] == first["out"] and len(first["out"]) > 40
    off = probe(tmp_path / "off", DRD_NO_CACHE="1")
    assert off["hit"] is False and not (tmp_path / "off").exists() and off["out"] == first["out"]


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="the cache is used where file owners exist")
def test_a_cache_file_others_may_write_or_that_is_broken_is_not_used(tmp_path):
    cache = tmp_path / "cache"
    probe(cache)
    (path,) = cached(cache)
    path.chmod(0o666)
    assert probe(cache)["hit"] is False          # rebuilt, and written anew
    assert oct(cached(cache)[0].stat().st_mode & 0o777) == "0o600"
    cached(cache)[0].write_bytes(b"not a pickle")
    assert probe(cache)["hit"] is False
    assert probe(cache)["hit"] is True


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="the cache is used where file owners exist")
def test_a_cache_file_naming_anything_else_is_refused_unread(tmp_path):
    cache = tmp_path / "cache"
    probe(cache)
    (path,) = cached(cache)
    marker = tmp_path / "ran"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    path.write_bytes(pickle.dumps(Evil()))
    path.chmod(0o600)
    assert probe(cache)["hit"] is False
    assert not marker.exists()
    with pytest.raises(pickle.UnpicklingError):
        validator_cache._Restricted(__import__("io").BytesIO(pickle.dumps(Evil()))).load()
    with pytest.raises(pickle.UnpicklingError):
        validator_cache._model_attr(validator_cache, "os")


def test_the_key_follows_the_model_sources(monkeypatch):
    before = validator_cache.key()
    real = Path.read_bytes

    def edited(self):
        data = real(self)
        return data + b"\n# edited" if self.name == "models.py" else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert validator_cache.key() != before


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="the cache is used where file owners exist")
def test_a_new_key_replaces_the_old_file(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    stale = cache / f"{validator_cache.PREFIX}0123456789abcdef01234567{validator_cache.SUFFIX}"
    stale.write_bytes(b"old")
    probe(cache)
    assert cached(cache) and stale not in cached(cache) and len(cached(cache)) == 1


DAKARA_PROBE = r"""
import glob, json, sys
from drd_cli.dakara import models
from drd_cli.scenario import validator_cache
from drd_cli.scenario.load import load_document
hit = validator_cache.prime(models.DakaraScenario)
out = []
docs = [d for d in (load_document(f)[0] for f in sorted(glob.glob(sys.argv[1] + "/scenarios/*.yaml")))
        if d.get("system") == "dakara"]
docs += [{"format": "drd/1", "system": "dakara", "participants": {"a": {"tela": 3}}}]
for data in docs:
    try:
        out.append(models.DakaraScenario.model_validate(data).model_dump(mode="json"))
    except Exception as exc:
        out.append([type(exc).__name__, [(e["type"], list(map(str, e["loc"]))) for e in exc.errors(include_url=False)]])
print(json.dumps({"hit": hit, "out": out}, sort_keys=True, ensure_ascii=False, default=str))
"""


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="the cache is used where file owners exist")
def test_dakaras_validator_is_cached_in_a_file_of_its_own(tmp_path):
    cache = tmp_path / "cache"
    run = lambda: probe(cache, DAKARA_PROBE)  # noqa: E731 - three runs of one probe

    first = run()
    assert first["hit"] is False and len(first["out"]) >= 3
    probe(cache)                                   # the scenario format's validator beside it
    second = run()
    assert second["hit"] is True and second["out"] == first["out"]
    assert len(list(cache.glob("dakara-validator-*.pickle"))) == 1 and len(cached(cache)) == 1


STEP_PROBE = r"""
import glob, json, sys
from drd_plugins.ukryvani import HideSpec
from drd_cli.scenario import validator_cache
from drd_cli.scenario.load import load_document
hit = validator_cache.prime(HideSpec)
out = []
for f in sorted(glob.glob(sys.argv[1] + "/scenarios/*.yaml")):
    for rnd in load_document(f)[0].get("rounds") or []:
        for step in rnd.get("steps") or []:
            if "hide" in step:
                out.append(HideSpec.model_validate(step["hide"]).model_dump(mode="json"))
try:
    HideSpec.model_validate({"hidden": 3})
except Exception as exc:
    out.append([(e["type"], list(map(str, e["loc"]))) for e in exc.errors(include_url=False)])
print(json.dumps({"hit": hit, "out": out}, sort_keys=True, ensure_ascii=False, default=str))
"""


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="the cache is used where file owners exist")
def test_a_step_model_of_drds_own_plugins_is_cached_and_validates_alike(tmp_path):
    cache = tmp_path / "cache"
    run = lambda: probe(cache, STEP_PROBE)  # noqa: E731 - three runs of one probe

    first = run()
    second = run()
    assert first["hit"] is False and second["hit"] is True and second["out"] == first["out"]
    assert len(first["out"]) >= 5
    (path,) = cache.glob("step-drd_plugins.ukryvani.HideSpec-*.pickle")

    class Evil:
        def __reduce__(self):
            return (os.system, ("true",))

    path.write_bytes(pickle.dumps(Evil()))
    path.chmod(0o600)
    assert run()["hit"] is False                    # refused unread, rebuilt


def test_only_drds_own_models_are_kept():
    import types

    from drd_cli.scenario import models

    other = types.ModuleType("drd_tp_models")
    exec("from pydantic import BaseModel\nclass Step(BaseModel):\n    x: int = 0\n", other.__dict__)
    sys.modules["drd_tp_models"] = other
    try:
        assert validator_cache._root(other.Step) is None            # another package's model
    finally:
        del sys.modules["drd_tp_models"]
    assert validator_cache._root(models.build_scenario_model({"x": other.Step})) is None   # made at run time
    assert validator_cache._root(models.Step) is None                                    # not a root
    assert validator_cache._root(models.Scenario)[0] == validator_cache.PREFIX
