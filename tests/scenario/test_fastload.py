"""The libyaml reader (`scenario.fastload`) builds what the ruamel path builds, positions included;
everything it does not build goes to the ruamel path unchanged; limits are applied while reading."""

from __future__ import annotations

import glob
import time
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drd_cli.errors import ScenarioError
from drd_cli.scenario import fastload, load
from drd_cli.scenario.load import MAX_DEPTH, MAX_NODES, load_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _english():
    from drd_cli import i18n

    with i18n.using("en"):
        yield


def same(fast, slow, path=()):
    """Equal data, the same container positions and the same key/value/item positions."""
    if isinstance(slow, dict):
        assert isinstance(fast, fastload.PosMap), path
        assert list(fast) == list(slow), path
        assert (fast.lc.line, fast.lc.col) == (slow.lc.line, slow.lc.col), path
        for k in slow:
            assert fast.lc.key(k) == tuple(slow.lc.key(k)), (path, k)
            if slow[k] is not None:  # an empty value has no position of its own (SourceMap uses the key's)
                assert fast.lc.value(k) == tuple(slow.lc.value(k)), (path, k)
            same(fast[k], slow[k], path + (k,))
    elif isinstance(slow, list):
        assert isinstance(fast, fastload.PosSeq), path
        assert len(fast) == len(slow), path
        assert (fast.lc.line, fast.lc.col) == (slow.lc.line, slow.lc.col), path
        for i, (x, y) in enumerate(zip(fast, slow)):
            assert fast.lc.item(i) == tuple(slow.lc.item(i)), (path, i)
            same(x, y, path + (i,))
    else:
        assert fast == slow or (fast != fast and slow != slow), path     # nan is not nan
        assert type(fast) is type(slow) or isinstance(fast, type(slow)) or isinstance(slow, type(fast)), \
            (path, type(fast), type(slow))


def both(text: str):
    fast = fastload.load_fast(text, MAX_NODES, MAX_DEPTH)
    slow = load._load_ruamel(text, "t.yaml")
    load._normalise(slow, load.SourceMap(slow, "t.yaml"))   # NFC, as load_text does on that path
    return fast, slow


FILES = sorted({*glob.glob(str(ROOT / "scenarios" / "*.yaml")), *glob.glob(str(ROOT / "tests" / "**" / "*.yaml"),
                                                                              recursive=True),
                *glob.glob(str(ROOT / "groups" / "*.yaml")), *glob.glob(str(ROOT / "examples" / "**" / "*.yaml"),
                                                                     recursive=True)})


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(Path(p).relative_to(ROOT)))
def test_every_shipped_file_reads_the_same_through_both_paths(path):
    text = Path(path).read_text(encoding="utf-8")
    try:
        fast, slow = both(text)
    except fastload.Fallback:
        pytest.skip("uses a feature the fast reader leaves to ruamel")
    same(fast, slow)


def test_the_fast_path_reads_the_book_scenarios():
    # Not one of them needs ruamel: otherwise the speed of `drd check` would quietly be lost.
    for path in glob.glob(str(ROOT / "scenarios" / "*.yaml")):
        data, source = load_text(Path(path).read_bytes(), path)
        assert type(data) is dict, path                 # plain data: positions only when asked
        assert isinstance(source.root, fastload.PosMap), path
        assert source.root == data


def test_positions_are_read_only_when_asked_for():
    data, source = load_text("format: drd/1\ntitle: x\nrounds:\n  - steps: []\n", "p.yaml")
    assert source._root is None
    assert source.locate(("rounds", 0, "steps")).line == 4
    assert source._root is not None


SCALARS = ["0", "7", "-3", "+4", "007", "1_000", "0x1F", "0o7", "1.5", "-2.5e3", ".inf", "-.inf", ".nan", "1e3",
           "2024-01-01", "2024-01-01 10:00:00", "yes", "no", "on", "off", "y", "n", "true", "True", "FALSE", "null",
           "Null", "~", "", "telo", "nohy spoutané kořeny", "tábor", "=", "- x", "1:20", "0b101", "Ω", "-", ".", "+"]


@pytest.mark.parametrize("scalar", SCALARS)
def test_plain_scalars_resolve_as_ruamel_resolves_them(scalar):
    text = f"a: {scalar}\nb: [{scalar}]\n" if scalar not in ("- x", "-", "") else f"a: {scalar}\n"
    try:
        fast, slow = both(text)
    except fastload.Fallback:
        return
    same(fast, slow)


KEYS = st.sampled_from(["a", "name", "telo", "1", "x y", "název", "true", "0", "k-1"])
LEAVES = st.one_of(st.integers(-10**6, 10**6), st.booleans(), st.none(),
                   st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), max_size=12))
TREES = st.recursive(LEAVES, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                    st.dictionaries(KEYS, kids, max_size=4)), max_leaves=25)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(KEYS, TREES, min_size=1, max_size=5), st.sampled_from([None, True, False]),
       st.sampled_from([2, 4]))
def test_generated_documents_read_the_same(doc, flow, indent):
    import io

    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = flow
    yaml.indent(mapping=indent, sequence=indent + 2, offset=indent)
    out = io.StringIO()
    yaml.dump(doc, out)
    try:
        fast, slow = both(out.getvalue())
    except fastload.Fallback:
        return
    same(fast, slow)


def test_fuzzed_text_gives_the_same_data_or_the_same_error():
    """For texts both readers take, the results agree; where the fast one declines, load_text's
    answer is the ruamel path's (a document or exactly its error)."""
    import random

    rnd = random.Random(14)
    pieces = list("ab: -[]{}#'\",\n") + ["\n  ", ": ", "- ", "é", "1", "~", "true", "x\u0301", "'q'", "|\n  t\n"]
    for _ in range(1500):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 30)))
        try:
            fast = fastload.load_fast(text, MAX_NODES, MAX_DEPTH)
        except fastload.Fallback:
            continue
        try:
            slow = load._load_ruamel(text, "f.yaml")
        except ScenarioError as exc:  # pragma: no cover - a divergence: show it
            pytest.fail(f"fast read {text!r} that ruamel refuses: {exc}")
        load._normalise(slow, load.SourceMap(slow, "f.yaml"))
        same(fast, slow)


# --------------------------------------------------------------------------- what goes to ruamel

@pytest.mark.parametrize("text", [
    "a: &x 1\nb: *x\n", "a: !!str 1\n", "base: &b {x: 1}\nc:\n  <<: *b\n", "? [a]\n: b\n", "a: 1\na: 2\n",
    "--- \na: 1\n", "%YAML 1.2\n---\na: 1\n", "a: 1\n---\nb: 2\n", "- a\n", "x\n", "", "a: [\n", "a: \"\\ud800\"\n",
])
def test_features_it_does_not_build_go_to_ruamel(text):
    with pytest.raises(fastload.Fallback):
        fastload.load_fast(text, MAX_NODES, MAX_DEPTH)


def test_errors_are_the_ruamel_paths_errors():
    for text, expected in [("a: 1\nb: [1,\n", "s.yaml:3:1:"), ("a: 1\na: 2\n", "s.yaml:2:1: duplicate key 'a'"),
                           ("a: !!binary eA==\n", "s.yaml:1:4: the YAML tag !!binary is not supported")]:
        with pytest.raises(ScenarioError) as info:
            load_text(text, "s.yaml")
        assert info.value.format().startswith(expected), info.value.format()


# --------------------------------------------------------------------------- text (#12, #13)

def test_decomposed_czech_is_read_as_composed():
    decomposed = unicodedata.normalize("NFD", "název: Útěk\npostavy: {bořek: {jméno: Bořek}}\n")
    assert decomposed != unicodedata.normalize("NFC", decomposed)
    for text in (decomposed, decomposed + "x: &a 1\n"):         # the fast path, and the ruamel path
        data, source = load_text(text, "d.yaml")
        assert list(data) [:2] == ["název", "postavy"]
        assert data["název"] == "Útěk"
        assert data["postavy"]["bořek"]["jméno"] == "Bořek"
        assert source.locate(("postavy", "bořek")).line == 2


def test_decomposed_keys_are_known_keys_of_a_scenario():
    from drd_cli.testing import load_text_scenario

    text = unicodedata.normalize("NFD", "format: drd/1\nnázev: Útěk\nparticipants:\n  bořek: {sudba: 3}\n"
                                        "rounds:\n  - initiative: [bořek]\n    steps: []\n")
    loaded = load_text_scenario(text)
    assert loaded.scenario.title == "Útěk"
    assert "bořek" in loaded.scenario.participants


def test_a_key_written_composed_and_decomposed_is_a_duplicate():
    text = "název: a\n" + unicodedata.normalize("NFD", "název") + ": b\n"
    with pytest.raises(ScenarioError) as info:
        load_text(text, "d.yaml")
    assert info.value.format().startswith("d.yaml:2:1: duplicate key 'název'")


@pytest.mark.parametrize("text, where", [('title: "x\\ud800"\n', "s.yaml:1:8:"),
                                         ('a: ["ok", "\\udc00"]\n', "s.yaml:1:11:"),
                                         ('"\\ud83d": 1\n', "s.yaml:1:1:")])
def test_a_lone_surrogate_is_an_input_error_where_it_is_written(text, where):
    with pytest.raises(ScenarioError) as info:
        load_text(text, "s.yaml")
    assert info.value.exit_code == 2
    assert info.value.format().startswith(where + " the text contains a lone surrogate")


def test_a_surrogate_pair_escape_is_one_character():
    data, _ = load_text('a: "\\ud83d\\ude00"\n')
    assert data["a"] == "\U0001F600"


# --------------------------------------------------------------------------- limits while reading

def _within_a_second(text: str, expected: str) -> None:
    # CPU time of this process: what the reader costs, whatever else the machine is doing.
    start = time.process_time()
    with pytest.raises(ScenarioError) as info:
        load_text(text, "big.yaml")
    elapsed = time.process_time() - start
    assert expected in info.value.format(), info.value.format()
    assert elapsed < 1.0, elapsed


SHAPES = {
    "flow list": lambda n: "a: [" + ",".join("0" * n) + "]\n",
    "block list": lambda n: "a:\n" + "- 0\n" * n,
    "mapping": lambda n: "".join(f"{i}: 0\n" for i in range(n // 2 + 1)),
    "list then an alias": lambda n: "x: &a 1\na: [" + ",".join("0" * n) + "]\nb: *a\n",
    "list then a tag": lambda n: "a: [" + ",".join("0" * n) + "]\nb: !!str 1\n",
    "list then a syntax error": lambda n: "a: [" + ",".join("0" * n) + "]\nb: [\n",
}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_file_over_the_node_limit_is_refused_within_a_second(shape):
    text = SHAPES[shape](MAX_NODES + 10)
    assert len(text.encode()) <= load.MAX_BYTES
    _within_a_second(text, f"more than {MAX_NODES:,} nodes")


def test_deep_nesting_is_refused_within_a_second_whatever_follows():
    for tail in ("", "\nb: &a 1\n", "\nb: !!str 1\n"):
        _within_a_second("a: " + "[" * 100_000 + "]" * 100_000 + tail, f"nested deeper than {MAX_DEPTH} levels")


def test_an_alias_bomb_is_refused_within_a_second_at_the_alias():
    lines = ['l0: &l0 "lol"'] + [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 10)]
    start = time.process_time()
    with pytest.raises(ScenarioError) as info:
        load_text("\n".join(lines) + "\n", "bomb.yaml")
    assert time.process_time() - start < 1.0
    assert info.value.format().startswith("bomb.yaml:7:")   # the alias of l6 that crosses the limit
    assert "once aliases are expanded" in info.value.format()


def test_alias_depth_is_counted_while_reading():
    text = "a: &a " + "[" * 40 + "]" * 40 + "\nb: " + "[" * 30 + "*a" + "]" * 30 + "\n"
    with pytest.raises(ScenarioError) as info:
        load_text(text, "s.yaml")
    assert "deeper than 64 levels once aliases are expanded" in info.value.format()


def test_a_large_battle_is_within_the_limits():
    lines = ["format: drd/1", "participants:"] + [f"  p{i}: {{sudba: 5, ohrozeni: 1}}" for i in range(500)]
    lines += ["rounds:"]
    for r in range(20):
        lines.append("  - steps:")
        lines += [f"      - {{id: c{r}_{k}, contest: {{action: {{actor: p{2 * k}, pool: telo, targets: [p{2 * k + 1}], "
                  f"roll: 8, effect: {{ohrozeni: 1}}}}, counters: [{{actor: p{2 * k + 1}, pool: telo, roll: 7}}]}}, "
                  f"choices: {{p{2 * k + 1}: accept}}}}" for k in range(250)]
    data, _ = load_text("\n".join(lines) + "\n", "battle.yaml")      # 5,000 steps, about 165,000 nodes
    assert sum(len(r["steps"]) for r in data["rounds"]) == 5000


@given(bits=st.integers(min_value=11_000, max_value=16_000), base=st.sampled_from(["x", "o", "b", "d"]),
       sign=st.sampled_from(["", "-", "+"]), zeros=st.integers(min_value=0, max_value=3))
@settings(max_examples=60, deadline=None)
def test_a_whole_number_not_refused_as_too_long_can_always_be_printed(bits, base, sign, zeros):
    """Whatever its spelling, a number `int_too_long` lets through has at most 4,300 digits (so
    printing it never fails); a decimal one is refused exactly when it has more."""
    from drd_cli.scenario.fastload import MAX_INT_DIGITS, int_too_long

    import sys

    n = (1 << bits) - 1 - bits
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)              # the test itself counts the digits of any number
    try:
        digits = len(str(n))
        body = {"x": f"0x{'0' * zeros}{n:x}", "o": f"0o{'0' * zeros}{n:o}", "b": f"0b{n:b}", "d": str(n)}[base]
    finally:
        sys.set_int_max_str_digits(limit)
    text = sign + body
    if not int_too_long(text):
        assert digits <= MAX_INT_DIGITS
    if base == "d":
        assert int_too_long(text) == (digits > MAX_INT_DIGITS)
