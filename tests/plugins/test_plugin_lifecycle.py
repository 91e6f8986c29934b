"""The plugin lifecycle of API 2 (issue #10, docs/plugins.md "Lifecycle", "API version", "Failures").

Third-party plugins here are written to temporary folders and loaded as local plugins
(`DRD_PLUGINS_DIR`), fake-installed as a `*.dist-info` on a temporary sys.path, or given to the
`drd_resolve` fixture; none is really installed. Rule of the scenario: R-MAN-2 (Ulrich's přesně is
paid from Tělo unless something makes it free), R-TEST (the `hlidka` step of the test plugin
tests/data/step_plugin/hlidka.py).
"""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from drd_cli.cli.app import app
from drd_cli.cli.plugins_cmd import PLUGINS_DIR_ENV, describe
from drd_cli.digest import digest
from drd_cli.errors import DrdError
from drd_cli.plugins import AUTOLOAD_ENV, PluginError, discover, hook_failed
from drd_cli.testing import drd_resolve, load_text_scenario, resolve_text  # noqa: F401 - fixture
from tests.plugins.plugin_support import FACADE_TRACKS_ACTED
from tests.plugins.plugin_support import fake_dist

ROOT = Path(__file__).parents[2]
HLIDKA = ROOT / "tests" / "data" / "step_plugin" / "hlidka.py"

# Ulrich's přesně (R-MAN-2): paid from Tělo (5 → 4) unless a plugin makes it free.
PRESNE = """\
format: drd/1
seed: 7
participants:
  ulrich: {name: Ulrich, pools: {telo: 5, duse: 3, vliv: 3}, levels: {bojovnik: 2}}
rounds:
  - steps:
      - {id: t, test: {actor: ulrich, pool: telo, manoeuvres: [presne], bonus_from: bojovnik}}
"""

HLIDKA_STEP = PRESNE + """\
  - steps:
      - {id: h, hlidka: {watcher: ulrich, roll: 9}}
"""

# Implements hooks, declares a parameter, and never changes anything.
NOTHING = '''
from drd_cli.plugin import hookimpl

@hookimpl
def drd_plugin_info():
    return {"title": "Nic", "kind": "house rule", "params": {"nic_mira": {"default": 3, "type": "int"}}}

@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre, params):
    return None

@hookimpl
def drd_armour_adjustment(protected, attacker, action, params):
    return None
'''

# A house rule, off by default: přesně is free.
ZDARMA = '''
from drd_cli.plugin import hookimpl

@hookimpl
def drd_plugin_info():
    return {"title": "Přesně zdarma", "kind": "house rule", "enabled_by_default": False, "api_version": 2,
            "params": {"zdarma_kolik": {"default": 1, "type": "int"}}}

@hookimpl
def drd_free_manoeuvre(participant, action, manoeuvre, params):
    if manoeuvre == "presne":
        return {"free": True, "via": "Přesně zdarma", "key": "zdarma"}
    return None
'''


def _module(tmp_path: Path, name: str, code: str):
    import importlib.util

    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(code), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"lifecycle_{name}_{id(path)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def plugins_dir(tmp_path, monkeypatch):
    """A local plugin folder on DRD_PLUGINS_DIR (the global --plugins-dir); write plugins into it."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    monkeypatch.setenv(PLUGINS_DIR_ENV, str(folder))

    def add(name: str, code: str) -> Path:
        path = folder / f"{name}.py"
        path.write_text(textwrap.dedent(code), encoding="utf-8")
        return path

    add.folder = folder
    return add


def drd(*args: str) -> "CliRunner":
    return CliRunner().invoke(app, list(args))


def telo(result: dict) -> int:
    return result["final"]["ulrich"]["telo"]


# --------------------------------------------------------------------------- 1. off by default

def test_off_by_default_plugin_acts_only_where_enabled(drd_resolve, tmp_path):
    zdarma = _module(tmp_path, "zdarma", ZDARMA)
    assert telo(drd_resolve(PRESNE, plugins={"zdarma": zdarma})) == 4                       # off: paid
    assert telo(drd_resolve(PRESNE, plugins={"zdarma": zdarma}, enable=("zdarma",))) == 5    # command line
    scenario_on = PRESNE + "rules: {enable: [zdarma]}\n"
    assert telo(drd_resolve(scenario_on, plugins={"zdarma": zdarma})) == 5                  # scenario
    group = tmp_path / "g.yaml"
    group.write_text("name: g\nenable: [zdarma]\n", encoding="utf-8")
    assert telo(drd_resolve(PRESNE, plugins={"zdarma": zdarma}, group=str(group))) == 5      # group
    assert telo(drd_resolve(scenario_on, plugins={"zdarma": zdarma}, disable=("zdarma",))) == 4


def test_off_by_default_is_shown_by_drd_plugins(plugins_dir):
    plugins_dir("zdarma", ZDARMA)
    plugins_dir("nic", NOTHING)
    r = drd("plugins", "--json")
    assert r.exit_code == 0, r.output
    recs = {p["id"]: p for p in json.loads(r.stdout)}
    assert recs["zdarma"]["enabled_by_default"] is False and recs["zdarma"]["api_version"] == 2
    assert recs["nic"]["enabled_by_default"] is True and recs["nic"]["api_version"] == 1
    assert recs["plosna-protiakce"]["enabled_by_default"] is False          # built-in defaults as they are
    assert recs["ukryvani"]["enabled_by_default"] is True
    r = drd("plugins", "--lang", "cs")
    line = next(x for x in r.stdout.splitlines() if x.startswith("zdarma "))
    assert "vypnuto" in line and "local" in line
    assert "výchozí" in r.stdout.splitlines()[0]


def test_off_by_default_plugin_is_listed_by_drd_rules_as_off(plugins_dir):
    plugins_dir("zdarma", ZDARMA)
    r = drd("rules", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["plugins"]["zdarma"] == {"enabled": False, "origin": "default"}


def test_a_disabled_plugin_is_not_imported_to_read_its_default(plugins_dir):
    """The flag is read only for a plugin no layer switches on or off (it would be imported anyway)."""
    plugins_dir("spion", NOTHING + "\nimport sys\nsys.modules.setdefault('lifecycle_spion_seen', sys)\n")
    sys.modules.pop("lifecycle_spion_seen", None)
    resolve_text(PRESNE, disable=("spion",))
    assert "lifecycle_spion_seen" not in sys.modules
    resolve_text(PRESNE)
    assert "lifecycle_spion_seen" in sys.modules
    sys.modules.pop("lifecycle_spion_seen", None)


def test_a_broken_plugin_switched_off_does_not_stop_the_run(plugins_dir):
    plugins_dir("rozbity", "raise RuntimeError('kaput')\n")
    with pytest.raises(PluginError):
        resolve_text(PRESNE)
    assert telo(resolve_text(PRESNE, disable=("rozbity",))) == 4


@pytest.mark.usefixtures("english")
def test_enabled_by_default_must_be_a_boolean(drd_resolve, tmp_path):
    bad = _module(tmp_path, "spatny", ZDARMA.replace('"enabled_by_default": False', '"enabled_by_default": "no"'))
    with pytest.raises(PluginError) as info:
        drd_resolve(PRESNE, plugins={"spatny": bad})
    assert "'spatny'" in info.value.format() and "enabled_by_default" in info.value.format()


# --------------------------------------------------------------------------- 2. results independent of unused plugins

def _run(text: str, **kw) -> tuple[dict, str]:
    loaded = load_text_scenario(text)
    result = resolve_text(text, **kw)
    return result, digest(result, loaded.raw)


def test_installed_but_off_or_on_but_idle_plugins_change_neither_result_nor_digest(plugins_dir):
    bare, bare_digest = _run(PRESNE)
    plugins_dir("nic", NOTHING)              # on, idle, with a parameter of its own
    plugins_dir("zdarma", ZDARMA)            # installed, off by default
    with_them, with_digest = _run(PRESNE)
    assert with_them == bare and with_digest == bare_digest
    assert "nic" not in with_them["rules"]["enabled"] and "nic_mira" not in with_them["rules"]["params"]
    # setting the idle plugin's parameter changes nothing either (it is in no hook's answer)
    assert _run(PRESNE, params={"nic_mira": 5}) == (bare, bare_digest)


def test_a_plugin_that_acted_is_named_with_its_parameters_and_changes_the_digest(plugins_dir):
    """A plugin step type resolved in the run counts as acting (drd_cli.plugins.plugins_acted)."""
    shutil.copy(HLIDKA, plugins_dir.folder / "hlidka.py")
    plugins_dir("nic", NOTHING)
    result, with_step = _run(HLIDKA_STEP)
    assert "hlidka" in result["rules"]["enabled"] and "nic" not in result["rules"]["enabled"]
    # the built-in rule areas in effect are all still named; ability plugins only where someone
    # lists one of their abilities (nobody does here)
    assert {"ukryvani", "prostredi"} <= set(result["rules"]["enabled"])
    assert not {"kruhovy-sek", "padny-uder", "gladiator"} & set(result["rules"]["enabled"])
    no_step, _d = _run(PRESNE)
    assert "hlidka" not in no_step["rules"]["enabled"]       # installed, on, but no step of its kind


@pytest.mark.skipif(not FACADE_TRACKS_ACTED, reason="the hook façade does not record Hooks.acted yet")
def test_a_plugin_whose_hook_changed_something_is_named(drd_resolve, tmp_path):
    zdarma = _module(tmp_path, "zdarma", ZDARMA)
    on = drd_resolve(PRESNE, plugins={"zdarma": zdarma}, enable=("zdarma",))
    assert telo(on) == 5 and "zdarma" in on["rules"]["enabled"] and on["rules"]["params"]["zdarma_kolik"] == 1
    off = drd_resolve(PRESNE, plugins={"zdarma": zdarma})
    assert "zdarma" not in off["rules"]["enabled"] and "zdarma_kolik" not in off["rules"]["params"]


def test_to_result_names_builtins_and_only_the_third_party_plugins_that_acted():
    from drd_cli.rules import CORE_PARAMS, ParamSpec, build_profile

    specs = dict(CORE_PARAMS, x_a=ParamSpec("x_a", 1, "R", "", kind=int, plugin="x"),
                 y_a=ParamSpec("y_a", 2, "R", "", kind=int, plugin="y"))
    profile = build_profile([], {"ukryvani": True, "x": True, "y": True, "z": False}, specs)
    profile.third_party = frozenset({"x", "y", "z"})
    assert profile.to_result()["enabled"] == ["ukryvani"]
    out = profile.to_result({"y", "z"})      # z is off: acting is impossible, it is not named
    assert out["enabled"] == ["ukryvani", "y"] and out["params"]["y_a"] == 2 and "x_a" not in out["params"]
    assert {"tie", "target"} <= set(out["params"])


BOOK = sorted(p for p in (ROOT / "scenarios").glob("*.yaml"))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, len(BOOK) - 1), seed=st.integers(0, 10_000))
def test_an_idle_plugin_never_changes_a_book_result_or_its_digest(tmp_path_factory, index, seed):
    """Invariant over the book scenarios and seeds: adding an enabled plugin that answers nothing
    changes neither the result nor the digest."""
    from drd_cli.api import load_scenario, resolve_scenario

    path = BOOK[index]
    loaded = load_scenario(str(path))
    try:
        bare = resolve_scenario(loaded, seed=seed)
    except DrdError:
        return                                   # scenarios that expect an error: nothing to compare
    folder = tmp_path_factory.mktemp("idle")
    (folder / "nic.py").write_text(textwrap.dedent(NOTHING), encoding="utf-8")
    with_idle = resolve_scenario(load_scenario(str(path)), seed=seed, plugin_dirs=(str(folder),))
    assert with_idle == bare
    assert digest(with_idle, loaded.raw) == digest(bare, loaded.raw)


def test_verify_accepts_a_transcript_made_with_an_idle_plugin_installed(plugins_dir, tmp_path, monkeypatch):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(PRESNE, encoding="utf-8")
    plugins_dir("nic", NOTHING)
    r = drd("resolve", str(scenario), "--format", "text")
    assert r.exit_code == 0, r.output
    transcript = tmp_path / "log.txt"
    transcript.write_text(r.stdout, encoding="utf-8")
    monkeypatch.delenv(PLUGINS_DIR_ENV)                 # the other table has no such plugin
    r = drd("resolve", str(scenario), "--verify", str(transcript))
    assert r.exit_code == 0, r.output


# --------------------------------------------------------------------------- 3. immune to installed plugins

def test_autoload_switch_ignores_installed_distributions(tmp_path, monkeypatch):
    fake_dist(tmp_path, "drd-cizi", {"cizi": "drd_tp_cizi"}, {"drd_tp_cizi": NOTHING})
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "cizi" not in discover()                   # the suite's switch is on (tests/conftest.py)
    assert {"ukryvani", "kruhovy-sek"} <= set(discover())    # drd's own entry points are still found
    folder = tmp_path / "local"
    folder.mkdir()
    (folder / "mistni.py").write_text(textwrap.dedent(NOTHING), encoding="utf-8")
    assert "mistni" in discover([str(folder)])        # plugin folders still count
    monkeypatch.delenv(AUTOLOAD_ENV)
    found = discover()
    assert found["cizi"].dist == "drd-cizi" and not found["cizi"].builtin and found["ukryvani"].builtin


def test_autoload_switch_in_a_run_and_in_drd_plugins(tmp_path, monkeypatch):
    fake_dist(tmp_path, "drd-zdarma", {"zdarma": "drd_tp_zdarma"},
              {"drd_tp_zdarma": ZDARMA.replace('"enabled_by_default": False, ', "")})
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "drd_tp_zdarma", raising=False)
    assert telo(resolve_text(PRESNE)) == 4
    assert "drd_tp_zdarma" not in sys.modules          # not even imported
    assert "zdarma" not in {p["id"] for p in describe()}
    monkeypatch.delenv(AUTOLOAD_ENV)
    assert telo(resolve_text(PRESNE)) == 5             # without the switch the installed rule acts
    assert "zdarma" in {p["id"] for p in describe()}


def test_autoload_switch_keeps_the_fixtures_plugins(drd_resolve, tmp_path):
    zdarma = _module(tmp_path, "zdarma", ZDARMA)
    assert telo(drd_resolve(PRESNE, plugins={"zdarma": zdarma}, enable=("zdarma",))) == 5


# --------------------------------------------------------------------------- 4. API version

@pytest.mark.usefixtures("english")
def test_a_plugin_needing_a_newer_api_is_a_clear_error(tmp_path, monkeypatch):
    from drd_cli.plugin import API_VERSION

    fake_dist(tmp_path, "drd-budoucnost", {"budoucnost": "drd_tp_budoucnost"},
              {"drd_tp_budoucnost": ZDARMA.replace('"api_version": 2', f'"api_version": {API_VERSION + 1}')
               .replace('"enabled_by_default": False, ', "")})
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(AUTOLOAD_ENV)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(PRESNE, encoding="utf-8")
    r = drd("resolve", str(scenario), "--lang", "en")
    assert r.exit_code == 1
    err = r.stderr
    assert "'budoucnost'" in err and "drd-budoucnost" in err and "internal error" not in err
    assert f"version {API_VERSION + 1}" in err and f"provides version {API_VERSION}" in err
    assert "--disable budoucnost" in err
    r = drd("resolve", str(scenario), "--disable", "budoucnost", "--json")
    assert r.exit_code == 0 and telo(json.loads(r.stdout)) == 4
    rec = {p["id"]: p for p in describe()}["budoucnost"]
    assert rec["status"] == "broken" and f"version {API_VERSION + 1}" in rec["error"]


@pytest.mark.parametrize("declared, ok", [(None, True), (1, True), (2, True), ("2", False), (0, False),
                                          (True, False), (99, False)])
def test_api_version_values(drd_resolve, tmp_path, declared, ok):
    info = '{"title": "v"}' if declared is None else '{"title": "v", "api_version": %r}' % (declared,)
    module = _module(tmp_path, "verze", f"""
        from drd_cli.plugin import hookimpl

        @hookimpl
        def drd_plugin_info():
            return {info}
        """)
    if ok:
        assert telo(drd_resolve(PRESNE, plugins={"verze": module})) == 4
    else:
        with pytest.raises(PluginError) as exc:
            drd_resolve(PRESNE, plugins={"verze": module})
        assert "'verze'" in exc.value.format() and "--disable verze" in exc.value.format()


# --------------------------------------------------------------------------- 5. clashes listed, not crashing

PARAM_A = '''
from drd_cli.plugin import hookimpl

@hookimpl
def drd_plugin_info():
    return {"title": "A", "params": {"spolecny": {"default": 1, "type": "int"}, "tie": {"default": "actor"}}}
'''


def test_clashes_are_listed_by_drd_plugins(plugins_dir, tmp_path, monkeypatch):
    plugins_dir("prvni", PARAM_A)
    plugins_dir("druhy", PARAM_A.replace('"A"', '"B"'))
    shutil.copy(HLIDKA, plugins_dir.folder / "hlidka.py")
    shutil.copy(HLIDKA, plugins_dir.folder / "hlidka2.py")
    other = tmp_path / "jinde"
    other.mkdir()
    (other / "prvni.py").write_text(textwrap.dedent(PARAM_A), encoding="utf-8")   # the same id twice
    monkeypatch.setenv(PLUGINS_DIR_ENV, f"{plugins_dir.folder}:{other}")
    r = drd("plugins", "--json")
    assert r.exit_code == 0, r.output
    recs = json.loads(r.stdout)
    prvni = [p for p in recs if p["id"] == "prvni"]
    assert len(prvni) == 2 and {p["source"] for p in prvni} == {str(plugins_dir.folder / "prvni.py"),
                                                               str(other / "prvni.py")}
    for rec, rival in ((prvni[0], prvni[1]), (prvni[1], prvni[0])):
        assert {"what": "id", "name": "prvni", "with": rival["source"]} in rec["clash"]
    druhy = next(p for p in recs if p["id"] == "druhy")
    assert {"what": "param", "name": "spolecny", "with": "prvni (local)"} in druhy["clash"]
    assert {"what": "param", "name": "tie", "with": "core"} in druhy["clash"]
    hlidka = next(p for p in recs if p["id"] == "hlidka")
    assert hlidka["clash"] == [{"what": "step", "name": "hlidka", "with": "hlidka2"}]
    assert next(p for p in recs if p["id"] == "ukryvani")["clash"] == []
    r = drd("plugins", "--lang", "cs")
    assert r.exit_code == 0 and "KOLIZE: parametr spolecny deklaruje také prvni (local)" in r.stdout
    assert "KOLIZE: tie je i parametrem jádra" in r.stdout


@pytest.mark.usefixtures("english")
def test_a_run_using_clashing_plugins_fails_naming_both(plugins_dir):
    shutil.copy(HLIDKA, plugins_dir.folder / "hlidka.py")
    shutil.copy(HLIDKA, plugins_dir.folder / "hlidka2.py")
    with pytest.raises(PluginError) as info:
        resolve_text(HLIDKA_STEP)
    assert "'hlidka'" in info.value.format() and "'hlidka2'" in info.value.format()
    assert resolve_text(HLIDKA_STEP, disable=("hlidka2",))["steps"][1]["hlidka"]["held"] is True
    plugins_dir("prvni", PARAM_A.replace(', "tie": {"default": "actor"}', ""))
    plugins_dir("druhy", PARAM_A.replace(', "tie": {"default": "actor"}', ""))
    with pytest.raises(PluginError) as info:
        resolve_text(PRESNE, disable=("hlidka2",))
    assert "'prvni'" in info.value.format() and "'druhy'" in info.value.format()
    assert "'spolecny'" in info.value.format()


# --------------------------------------------------------------------------- 6. a failing plugin names itself

@pytest.mark.usefixtures("english")
def test_hook_failed_names_plugin_distribution_hook_and_exception(tmp_path, monkeypatch):
    fake_dist(tmp_path, "drd-padavka", {"padavka": "drd_tp_padavka"}, {"drd_tp_padavka": ""})
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(AUTOLOAD_ENV)
    err = hook_failed("padavka", "drd_armour_adjustment", ZeroDivisionError("division by zero"), discover())
    assert isinstance(err, PluginError) and err.exit_code == 1
    text = err.format()
    assert "'padavka' (drd-padavka)" in text and "drd_armour_adjustment" in text
    assert "ZeroDivisionError: division by zero" in text and "--disable padavka" in text
    assert "bug in drd" not in text
    assert "'x' failed in drd_indirect_threats: KeyError: 'k'" in hook_failed("x", "drd_indirect_threats",
                                                                           KeyError("k")).format()
    # without the entries at hand (the façade may not pass them) the distribution is still found
    assert "'padavka' (drd-padavka) failed in" in hook_failed("padavka", "drd_armour_adjustment", KeyError("k")).format()
    assert "'kruhovy-sek' (drd-cli) failed in" in hook_failed("kruhovy-sek", "drd_free_manoeuvre", KeyError("k")).format()


RAISING_STEP = '''
from drd_cli.plugin import StepType, hookimpl, StrictModel


class Spec(StrictModel):
    who: str


def resolve(engine, spec, choices, path):
    raise ValueError("hlídač usnul")


@hookimpl
def drd_step_types():
    return {"spadne": StepType(model=Spec, resolve=resolve)}
'''


def test_a_step_type_whose_resolve_raises_names_the_plugin(plugins_dir, tmp_path):
    plugins_dir("padavka", RAISING_STEP)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(PRESNE + "  - steps:\n      - {id: x, spadne: {who: ulrich}}\n", encoding="utf-8")
    r = drd("resolve", str(scenario), "--lang", "en")
    assert r.exit_code == 1, r.output
    where = plugins_dir.folder / "padavka.py"
    assert (f"s.yaml:9:17: plugin 'padavka' ({where}) failed in drd_step_types: spadne.resolve: "
            "ValueError: hlídač usnul") in r.stderr
    assert "--disable padavka" in r.stderr and "internal error" not in r.stderr
    r = drd("resolve", str(scenario), "--lang", "cs")
    assert r.exit_code == 1 and "selhal v drd_step_types: spadne.resolve: ValueError" in r.stderr


def test_failing_info_or_step_list_names_the_plugin(plugins_dir, tmp_path):
    plugins_dir("info_pada", '''
        from drd_cli.plugin import hookimpl

        @hookimpl
        def drd_plugin_info():
            raise RuntimeError("info kaput")
        ''')
    plugins_dir("kroky_padaji", '''
        from drd_cli.plugin import hookimpl

        @hookimpl
        def drd_step_types():
            raise RuntimeError("kroky kaput")
        ''')
    r = drd("plugins", "--json", "--lang", "en")
    assert r.exit_code == 0, r.output
    recs = {p["id"]: p for p in json.loads(r.stdout)}
    assert recs["info-pada"]["status"] == "broken"
    assert "failed in drd_plugin_info: RuntimeError: info kaput" in recs["info-pada"]["error"]
    assert recs["kroky-padaji"]["status"] == "broken"
    assert "failed in drd_step_types: RuntimeError: kroky kaput" in recs["kroky-padaji"]["error"]
    scenario = tmp_path / "s.yaml"
    scenario.write_text(PRESNE, encoding="utf-8")
    r = drd("resolve", str(scenario), "--lang", "en", "--disable", "info-pada")
    assert r.exit_code == 1 and "'kroky-padaji'" in r.stderr and "kroky kaput" in r.stderr
    r = drd("resolve", str(scenario), "--lang", "en", "--disable", "kroky-padaji")
    assert r.exit_code == 1 and "'info-pada'" in r.stderr and "drd_plugin_info" in r.stderr
    r = drd("resolve", str(scenario), "--disable", "kroky-padaji", "--disable", "info-pada")
    assert r.exit_code == 0, r.output


# --------------------------------------------------------------------------- the lazy defaults, as an invariant

IDS = ["a", "b", "c", "d", "e"]
LAYER = st.tuples(st.lists(st.sampled_from(IDS), max_size=3), st.lists(st.sampled_from(IDS), max_size=3))


class CountingDefaults(dict):
    """A defaults mapping that records which ids were looked up (DefaultStates reads a plugin then)."""

    def __init__(self, values):
        super().__init__(values)
        self.asked: set[str] = set()

    def __getitem__(self, pid):
        self.asked.add(pid)
        return super().__getitem__(pid)


@settings(max_examples=200, deadline=None)
@given(defaults=st.fixed_dictionaries({pid: st.booleans() for pid in IDS}), layers=st.lists(LAYER, max_size=4))
def test_a_default_is_read_only_for_ids_no_layer_decides(defaults, layers):
    from drd_cli.rules import CORE_PARAMS, Layer, build_profile

    known = CountingDefaults(defaults)
    profile = build_profile([Layer(f"l{i}", list(on), list(off)) for i, (on, off) in enumerate(layers)], known,
                            dict(CORE_PARAMS))
    # the old, eager algorithm: start from every default, apply enable then disable, layer by layer
    expected = {pid for pid, on in defaults.items() if on}
    for on, off in layers:
        expected |= set(on)
        expected -= set(off)
    assert profile.enabled == expected
    mentioned = {pid for on, off in layers for pid in on + off}
    assert known.asked == set(IDS) - mentioned


def test_plugins_acted_takes_the_facades_record_and_the_step_types_used(plugins_dir):
    from drd_cli.api import setup_rules
    from drd_cli.engine.hooks import Hooks
    from drd_cli.plugins import plugins_acted

    class Facade:
        acted = {"x"}
        step_types: dict = {}
        pm = None

    assert plugins_acted(Facade(), [{"kind": "test"}]) == {"x"}
    assert plugins_acted(Hooks(None), []) == set()
    shutil.copy(HLIDKA, plugins_dir.folder / "hlidka.py")
    setup = setup_rules(None)
    hooks = Hooks(setup.pm, setup.profile.enabled)
    assert "hlidka" in plugins_acted(hooks, [{"kind": "hlidka"}, {"kind": "contest"}])
    assert "hlidka" not in plugins_acted(hooks, [{"kind": "contest"}])


def test_installing_an_idle_and_an_off_by_default_plugin_changes_no_golden_result(tmp_path, monkeypatch):
    """Issue #10, done when: installing such plugins changes no result and no digest of ours."""
    from drd_cli.api import load_scenario
    from tests.render.test_golden import GOLDEN, _dump, _golden_candidates, _resolve

    fake_dist(tmp_path, "drd-domaci-pravidla", {"nic": "drd_tp_nic", "zdarma": "drd_tp_zdarma2"},
              {"drd_tp_nic": NOTHING, "drd_tp_zdarma2": ZDARMA.replace('if manoeuvre == "presne":', "if True:")})
    # (were the house rule on, every manoeuvre of every scenario would be free)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv(AUTOLOAD_ENV)
    assert {"nic", "zdarma"} <= set(discover())
    checked = 0
    for path in _golden_candidates():
        golden = GOLDEN / f"{path.stem}.json"
        if not golden.exists():
            continue
        result = json.loads(_dump(_resolve(path)))
        expected = json.loads(golden.read_text(encoding="utf-8"))
        assert result == expected, path.name
        raw = load_scenario(str(path)).raw
        assert digest(result, raw) == digest(expected, raw)
        checked += 1
    assert checked > 40


def test_the_transcripts_rules_line_names_a_plugin_that_acted_and_not_an_idle_one(plugins_dir, tmp_path):
    shutil.copy(HLIDKA, plugins_dir.folder / "hlidka.py")
    plugins_dir("nic", NOTHING)
    scenario = tmp_path / "s.yaml"
    scenario.write_text(HLIDKA_STEP, encoding="utf-8")
    r = drd("resolve", str(scenario), "--format", "text", "--lang", "cs")
    assert r.exit_code == 0, r.output
    block = r.stdout.split("Pravidla:", 1)[1].split("\n\n", 1)[0]        # the line may wrap
    named = [x.strip() for x in " ".join(block.split()).split(";")]     # the rules by their titles
    assert "Hlídka (testovací)" in named and "Nic" not in named and "Ukrývání a odhalování" in named


@pytest.mark.skipif(not FACADE_TRACKS_ACTED, reason="the hook façade does not record Hooks.acted yet")
def test_verify_tells_a_table_without_a_plugin_that_acted(plugins_dir, tmp_path, monkeypatch):
    scenario = tmp_path / "s.yaml"
    scenario.write_text(PRESNE, encoding="utf-8")
    plugins_dir("zdarma", ZDARMA)
    r = drd("resolve", str(scenario), "--format", "text", "--enable", "zdarma")
    assert r.exit_code == 0, r.output
    transcript = tmp_path / "log.txt"
    transcript.write_text(r.stdout, encoding="utf-8")
    assert drd("resolve", str(scenario), "--enable", "zdarma", "--verify", str(transcript)).exit_code == 0
    monkeypatch.delenv(PLUGINS_DIR_ENV)                 # the other table has no such plugin
    r = drd("resolve", str(scenario), "--verify", str(transcript))
    assert r.exit_code == 1


def test_ability_plugins_nobody_lists_are_not_registered_and_drds_own_not_even_loaded(tmp_path):
    # Issue #14 (start-up): registering ~80 idle ability plugins with pluggy cost more than the
    # engine's run of a small file, and importing them and reading their cards about as much.
    # They could not act anyway (engine.hooks `focus`); drd's own are not imported
    # (plugins.dormant), another package's would be loaded but not registered.
    from drd_cli import api

    path = tmp_path / "s.yaml"
    path.write_text(textwrap.dedent("""\
        format: drd/1
        participants:
          jur: {pools: {telo: 5, duse: 3, vliv: 3}, ohrozeni: 1, abilities: [{id: cit-pro-zbran, weapon: meč}]}
          vlk: {sudba: 4, ohrozeni: 1}
        rounds:
          - steps:
              - id: s1
                contest: {action: {actor: jur, pool: telo, roll: 12, targets: [vlk]},
                          counters: [{actor: vlk, roll: 7}]}
        """), encoding="utf-8")
    loaded = api.load_scenario(str(path))
    setup = api.setup_rules(loaded)
    registered = {setup.pm.get_name(p) for p in setup.pm.get_plugins()}
    assert "cit-pro-zbran" in registered and "gladiator" not in registered
    assert "gladiator" in setup.pm.dormant and "gladiator" not in setup.pm.idle
    assert "schopnosti" in registered and "ukryvani" in registered
    everything = api.setup_rules(None)
    assert "gladiator" in {everything.pm.get_name(p) for p in everything.pm.get_plugins()}
    result = api.resolve_scenario(loaded, seed=1)
    assert "gladiator" not in result["rules"]["enabled"]
    # An unknown ability is still matched against the whole catalogue, idle plugins included.
    path.write_text(path.read_text(encoding="utf-8").replace("cit-pro-zbran, weapon: meč", "gladiatr"),
                    encoding="utf-8")
    with pytest.raises(DrdError) as err:
        api.resolve_scenario(api.load_scenario(str(path)), seed=1)
    assert "gladiator" in str(err.value.problems[0].hint)


def test_what_a_process_remembers_of_plugins_follows_language_and_replaced_code(monkeypatch):
    # Issue #14 (`drd check` of many files): a plugin's info, its declared parameters and its hook
    # implementations are read once per process — but per language, and anew for replaced code.
    import types

    from drd_cli import i18n, plugins
    from drd_cli.plugin import hookimpl

    calls = []

    class Worded:
        @hookimpl
        def drd_plugin_info(self):
            calls.append(i18n.language())
            return {"title": "zkouška" if i18n.language() == "cs" else "trial",
                    "params": {"x": {"default": 1, "type": "int", "help": "x"}}}

    plugin = Worded()
    with i18n.using("cs"):
        assert plugins.plugin_info("w", plugin)["title"] == "zkouška"
        assert plugins.plugin_info("w", plugin)["title"] == "zkouška"
        assert set(plugins.declared_params("w", plugin)) == {"x"}
    with i18n.using("en"):
        assert plugins.plugin_info("w", plugin)["title"] == "trial"
    assert calls.count("cs") == 2 and calls.count("en") == 1      # info once, params once, per language

    module = types.ModuleType("drd_test_replaced_hooks")

    def first(participant, action, params):
        return None
    module.drd_roll_modifier = hookimpl(first)
    pm = plugins._manager_class()("drd")
    from drd_cli import hookspecs

    pm.add_hookspecs(hookspecs)
    pm.register(module, name="m")
    assert [i.function for i in pm.hook.drd_roll_modifier.get_hookimpls()] == [first]
    pm.unregister(module)

    def second(participant, action, params):
        return None
    monkeypatch.setattr(module, "drd_roll_modifier", hookimpl(second))
    pm.register(module, name="m")
    assert [i.function for i in pm.hook.drd_roll_modifier.get_hookimpls()] == [second]


def test_an_entry_point_is_loaded_anew_when_its_module_was_replaced(monkeypatch):
    import types

    from drd_cli import plugins

    loads = []

    class EP:
        def load(self):
            loads.append(1)
            return sys.modules["drd_test_ep_module"].thing

    first = types.ModuleType("drd_test_ep_module")
    first.thing = object()
    monkeypatch.setitem(sys.modules, "drd_test_ep_module", first)
    entry = plugins.PluginEntry(id="ep", value="drd_test_ep_module:thing", dist="fake", entry_point=EP())
    assert plugins._load_entry_point(entry) is first.thing
    assert plugins._load_entry_point(entry) is first.thing and len(loads) == 1
    second = types.ModuleType("drd_test_ep_module")
    second.thing = object()
    monkeypatch.setitem(sys.modules, "drd_test_ep_module", second)
    assert plugins._load_entry_point(entry) is second.thing and len(loads) == 2
