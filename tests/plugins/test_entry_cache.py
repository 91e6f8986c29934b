"""The installed plugin entry points kept in the user's cache between runs (issue #14;
drd_cli/entry_cache.py): used only while nothing they were read from changed.

The checks that matter run in fresh interpreters (a process remembers its entry points anyway).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from drd_cli import entry_cache, plugins

ROOT = Path(__file__).resolve().parents[2]

# Prints the discovered plugins (id, value, distribution, version) and whether importlib.metadata
# had to be imported to find them; a sys.path folder may be added first (argv[1]).
PROBE = r"""
import json, sys
if len(sys.argv) > 1:
    sys.path.insert(0, sys.argv[1])
from drd_cli import plugins
entries = plugins.discover()
print(json.dumps({"metadata": "importlib.metadata" in sys.modules,
                  "entries": [[e.id, e.value, e.dist, e.version] for e in entries.values()]}))
"""


def probe(cache: Path, *extra: str, env: dict | None = None) -> dict:
    run_env = {**os.environ, "DRD_CACHE_DIR": str(cache), **(env or {})}
    run_env.pop("DRD_NO_CACHE", None)
    run_env.pop("DRD_DISABLE_PLUGIN_AUTOLOAD", None)     # the suite's switch: third-party entry points count here
    if env and "DRD_NO_CACHE" in env:
        run_env["DRD_NO_CACHE"] = env["DRD_NO_CACHE"]
    out = subprocess.run([sys.executable, "-c", PROBE, *extra], capture_output=True, text=True, cwd=ROOT,
                         env=run_env, check=True)
    return json.loads(out.stdout)


def fake_dist(root: Path, dist: str, plugins_: dict[str, str]) -> Path:
    info = root / f"{dist.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[drd_cli.plugins]\n" + "".join(f"{k} = {v}\n" for k, v in plugins_.items()), encoding="utf-8")
    return info


def test_the_second_run_finds_the_same_plugins_without_importlib_metadata(tmp_path):
    first = probe(tmp_path / "cache")
    second = probe(tmp_path / "cache")
    assert first["metadata"] is True and second["metadata"] is False
    assert second["entries"] == first["entries"]
    assert any(e[0] == "kruhovy-sek" and e[2] == "drd-cli" for e in second["entries"])
    [kept] = list((tmp_path / "cache").glob(f"{entry_cache.PREFIX}*{entry_cache.SUFFIX}"))
    assert kept.stat().st_mode & 0o077 == 0          # the user's alone


def test_a_distribution_installed_or_edited_afterwards_is_seen(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    cache = tmp_path / "cache"
    assert not any(e[0] == "stit-predku" for e in probe(cache, str(site))["entries"])
    assert probe(cache, str(site))["metadata"] is False
    info = fake_dist(site, "drd-stit-predku", {"stit-predku": "drd_tp_stit"})
    got = probe(cache, str(site))
    assert got["metadata"] is True and ["stit-predku", "drd_tp_stit", "drd-stit-predku", "0.1"] in got["entries"]
    # an entry point edited in place (same folder, same names)
    (info / "entry_points.txt").write_text("[drd_cli.plugins]\nstit-predku = drd_tp_stit_v2\n", encoding="utf-8")
    got = probe(cache, str(site))
    assert ["stit-predku", "drd_tp_stit_v2", "drd-stit-predku", "0.1"] in got["entries"]
    # and removed again
    for f in info.iterdir():
        f.unlink()
    info.rmdir()
    assert not any(e[0] == "stit-predku" for e in probe(cache, str(site))["entries"])


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="file ownership is a POSIX notion")
def test_a_cache_file_others_may_write_is_not_read(tmp_path):
    cache = tmp_path / "cache"
    probe(cache)
    [kept] = list(cache.glob(f"{entry_cache.PREFIX}*{entry_cache.SUFFIX}"))
    data = json.loads(kept.read_text(encoding="utf-8"))
    data["rows"] = [["kruhovy-sek", "os:system", "drd-cli", "0.1.0"]]     # what another user might plant
    kept.write_text(json.dumps(data), encoding="utf-8")
    os.chmod(kept, 0o666)
    got = probe(cache)
    assert got["metadata"] is True and ["kruhovy-sek", "os:system", "drd-cli", "0.1.0"] not in got["entries"]


def test_no_cache_writes_nothing(tmp_path):
    got = probe(tmp_path / "cache", env={"DRD_NO_CACHE": "1"})
    assert got["metadata"] is True and not (tmp_path / "cache").exists()


def test_a_broken_cache_file_is_read_anew_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    first = probe(cache)
    [kept] = list(cache.glob(f"{entry_cache.PREFIX}*{entry_cache.SUFFIX}"))
    kept.write_text("{not json", encoding="utf-8")
    os.chmod(kept, 0o600)
    assert probe(cache)["entries"] == first["entries"]
    assert probe(cache)["metadata"] is False


def test_the_signature_follows_what_entry_points_are_read_from(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "unrelated.py").write_text("", encoding="utf-8")
    before = entry_cache.signature([str(site), str(tmp_path / "missing")])
    assert entry_cache.signature([str(site), str(tmp_path / "missing")]) == before
    (site / "another.py").write_text("", encoding="utf-8")       # files come and go in a folder on sys.path
    (site / "unrelated.py").unlink()
    assert entry_cache.signature([str(site), str(tmp_path / "missing")]) == before
    fake_dist(site, "drd-x", {"x": "x"})
    assert entry_cache.signature([str(site), str(tmp_path / "missing")]) != before


def test_an_entry_point_from_the_cache_loads_like_importlib_metadatas(monkeypatch, tmp_path):
    from importlib.metadata import EntryPoint

    (tmp_path / "drd_tp_value.py").write_text(textwrap.dedent("""
        class Outer:
            class Inner:
                pass
        thing = object()
    """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for value in ("drd_tp_value:thing", "drd_tp_value:Outer.Inner", "drd_tp_value", "drd_tp_value : thing [extra]"):
        entry = plugins.PluginEntry(id="v", value=value, dist="fake")
        assert plugins._load_value(entry) is EntryPoint("v", value, plugins.GROUP).load(), value
    with pytest.raises(Exception) as ours:
        plugins._load_value(plugins.PluginEntry(id="v", value="not a value!", dist="fake"))
    with pytest.raises(Exception) as theirs:
        EntryPoint("v", "not a value!", plugins.GROUP).load()
    assert type(ours.value) is type(theirs.value) and str(ours.value) == str(theirs.value)


def test_a_folder_on_sys_path_that_is_not_utf8_is_no_problem(tmp_path):
    odd = tmp_path / os.fsdecode(b"slo\xbevo")          # not UTF-8: a lone surrogate in Python
    odd.mkdir()
    first = probe(tmp_path / "cache", str(odd))
    second = probe(tmp_path / "cache", str(odd))
    assert second["entries"] == first["entries"] and second["metadata"] is False


def test_a_planted_row_is_ignored_and_nothing_it_names_is_imported(tmp_path):
    """A row no installed distribution declares (or that claims another distribution's folder,
    name or version) makes the whole file be read anew: its module is never imported."""
    cache = tmp_path / "cache"
    marker = tmp_path / "imported.txt"
    (tmp_path / "drd_tp_planted.py").write_text(f"open({str(marker)!r}, 'w').write('ran')\n", encoding="utf-8")
    fake = fake_dist(tmp_path / "site", "drd-fake", {"fake": "drd_tp_fake"})
    first = probe(cache, str(tmp_path))
    [kept] = list(cache.glob(f"{entry_cache.PREFIX}*{entry_cache.SUFFIX}"))
    good = json.loads(kept.read_text(encoding="utf-8"))
    where = next(row[4] for row in good["rows"] if row[0] == "kruhovy-sek")
    plants = [
        ["kruhovy-sek", "drd_tp_planted", "drd-cli", good["rows"][0][3], where],   # value changed
        ["planted", "drd_tp_planted", "drd-cli", good["rows"][0][3], where],       # a row added
        ["planted", "drd_tp_planted", "drd-fake", "0.1", str(fake)],              # not on sys.path
        ["planted", "drd_tp_planted", "drd-cli", "0.1", where],                   # another version
    ]
    for plant in plants:
        data = dict(good, rows=[*good["rows"], plant] if plant[0] == "planted" else
                    [plant if row[0] == "kruhovy-sek" else row for row in good["rows"]])
        kept.write_text(json.dumps(data), encoding="utf-8")
        os.chmod(kept, 0o600)                         # the user's own file: trusted as a file, not as a row
        got = probe(cache, str(tmp_path))
        assert got["metadata"] is True, plant
        assert got["entries"] == first["entries"] and not marker.exists(), plant


def test_rows_in_the_old_shape_are_read_anew(tmp_path):
    cache = tmp_path / "cache"
    first = probe(cache)
    [kept] = list(cache.glob(f"{entry_cache.PREFIX}*{entry_cache.SUFFIX}"))
    data = json.loads(kept.read_text(encoding="utf-8"))
    data["rows"] = [row[:4] for row in data["rows"]]
    kept.write_text(json.dumps(data), encoding="utf-8")
    os.chmod(kept, 0o600)
    assert probe(cache)["metadata"] is True and probe(cache)["metadata"] is False
    assert probe(cache)["entries"] == first["entries"]
