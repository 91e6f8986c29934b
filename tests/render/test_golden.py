"""Golden results: every book scenario resolves to exactly the stored JSON result.

`scenarios/*.yaml` (except `system: dakara` files and files whose `expect.exit` is not 0) are
resolved through the library API and compared, whole, with `tests/golden/<name>.json`.
After an intended change to the engine or the result, rewrite them and review the diff:

    DRD_UPDATE_GOLDEN=1 python -m pytest tests/render/test_golden.py

A scenario without a golden file is skipped (with that command as the reason) so that adding a
scenario never breaks the suite; a golden file without a scenario fails.

Also: every scenario with `expect:` meets it (`drd_cli.check.compare_result`, as `drd check` does).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))
GOLDEN = Path(__file__).parents[1] / "golden"
UPDATE = os.environ.get("DRD_UPDATE_GOLDEN") == "1"


def _raw(path: Path) -> dict:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def _golden_candidates() -> list[Path]:
    out = []
    for path in SCENARIOS:
        raw = _raw(path)
        if raw.get("system") == "dakara":
            continue
        if (raw.get("expect") or {}).get("exit", 0) != 0:
            continue
        out.append(path)
    return out


def _resolve(path: Path) -> dict:
    from drd_cli.api import load_scenario, resolve_scenario

    loaded = load_scenario(str(path))
    # A file without `seed:` would get a fresh seed per run; the golden result uses seed 1.
    seed = loaded.scenario.seed if loaded.scenario.seed is not None else 1
    return resolve_scenario(loaded, seed=seed)


def _dump(result: dict) -> str:
    return json.dumps(result, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


@pytest.mark.parametrize("path", _golden_candidates(), ids=lambda p: p.stem)
def test_golden_result(path: Path):
    result = json.loads(_dump(_resolve(path)))        # plain JSON types, as the CLI prints them
    golden = GOLDEN / f"{path.stem}.json"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        golden.write_text(_dump(result), encoding="utf-8")
        return
    if not golden.exists():
        pytest.skip(f"no golden file {golden.name}; create it with DRD_UPDATE_GOLDEN=1 pytest tests/render/test_golden.py")
    expected = json.loads(golden.read_text(encoding="utf-8"))
    if result != expected:
        from drd_cli.check import compare

        diffs = [d.text for d in compare(expected, result)][:15]
        pytest.fail(f"{path.name} differs from {golden.name} (DRD_UPDATE_GOLDEN=1 rewrites it):\n  "
                    + "\n  ".join(diffs or ["(keys differ)"]))


def test_no_stale_golden_files():
    names = {p.stem for p in _golden_candidates()}
    stale = sorted(p.name for p in GOLDEN.glob("*.json") if p.stem not in names)
    assert not stale, f"golden files without a scenario (or now dakara / expect.exit ≠ 0): {stale}"


@pytest.mark.parametrize("path", [p for p in SCENARIOS if "expect" in _raw(p)], ids=lambda p: p.stem)
def test_scenario_meets_its_expect(path: Path):
    from drd_cli.api import load_scenario, resolve_scenario
    from drd_cli.check import compare_result
    from drd_cli.errors import DrdError

    expect = _raw(path)["expect"]
    result, code, text = None, 0, ""
    try:
        loaded = load_scenario(str(path))
        result = resolve_scenario(loaded)
    except DrdError as exc:
        code, text = exc.exit_code, exc.format()
    diffs = compare_result(expect, result, code, text)
    assert not diffs, f"{path.name}:\n  " + "\n  ".join(d.text for d in diffs)
