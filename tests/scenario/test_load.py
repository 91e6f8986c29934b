"""The YAML loader: every problem is a ScenarioError with FILE:LINE:COL, never anything else."""

from __future__ import annotations

import time
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drd_cli.errors import Location, Problem, ScenarioError
from drd_cli.scenario.load import MAX_BYTES, MAX_NODES, SourceMap, load_document, load_text



@pytest.fixture(autouse=True)
def _english():
    """These tests pin the English wording (and the positions) of the messages; the Czech wording of
    the same errors is checked in tests/i18n/test_lang_errors.py."""
    from drd_cli import i18n

    with i18n.using("en"):
        yield

def refused(text, filename="s.yaml") -> str:
    with pytest.raises(ScenarioError) as info:
        load_text(text, filename)
    assert info.value.exit_code == 2
    return info.value.format()


# --------------------------------------------------------------------------- good documents

def test_loads_mapping_and_keeps_positions():
    data, source = load_text("format: drd/1\ntitle: Útěk\nrounds:\n  - steps:\n      - id: utek\n", "a.yaml")
    assert data["title"] == "Útěk"
    assert data["rounds"][0]["steps"][0]["id"] == "utek"
    assert isinstance(source, SourceMap)
    assert source.locate(("title",)) == Location("a.yaml", 2, 1)
    assert source.locate_value(("title",)) == Location("a.yaml", 2, 8)


def test_bom_is_accepted():
    data, _ = load_text("\ufeffformat: drd/1\n".encode("utf-8"), "bom.yaml")
    assert data == {"format": "drd/1"}


def test_yaml_1_2_yes_is_text():
    # YAML 1.2: `yes` stays a string, so strict models can refuse it instead of guessing True.
    data, _ = load_text("a: yes\nb: true\n")
    assert data["a"] == "yes" and data["b"] is True


def test_merge_keys_work_and_locate_falls_back():
    data, source = load_text("base: &b {x: 1}\nc:\n  <<: *b\n  y: 2\n", "m.yaml")
    assert data["c"]["x"] == 1 and data["c"]["y"] == 2
    assert source.locate(("c", "y")) == Location("m.yaml", 4, 3)
    # `x` came from the merge: no position of its own, so the mapping holding it is used.
    loc = source.locate(("c", "x"))
    assert loc.file == "m.yaml" and loc.line >= 1


# --------------------------------------------------------------------------- source map

DOC = """\
format: drd/1
rounds:
  - steps:
      - id: a
      - id: b
        choices: {zira: exhaust, hrun: accept}
"""


def test_locate_deep_key_in_flow_mapping():
    _, source = load_text(DOC, "d.yaml")
    assert source.locate(("rounds", 0, "steps", 1, "choices", "zira")) == Location("d.yaml", 6, 19)
    assert source.locate(("rounds", 0, "steps", 1, "choices", "hrun")) == Location("d.yaml", 6, 34)
    assert source.locate_value(("rounds", 0, "steps", 1, "choices", "zira")) == Location("d.yaml", 6, 25)


def test_locate_sequence_items():
    _, source = load_text(DOC, "d.yaml")
    assert source.locate(("rounds", 0, "steps", 0)) == Location("d.yaml", 4, 9)
    assert source.locate(("rounds", 0, "steps", 1, "id")) == Location("d.yaml", 5, 9)


def test_locate_missing_parts_stop_at_deepest_existing():
    _, source = load_text(DOC, "d.yaml")
    assert source.locate(("rounds", 0, "steps", 1, "choices", "nobody")) == Location("d.yaml", 6, 9)
    assert source.locate(("rounds", 7, "steps")) == Location("d.yaml", 2, 1)
    assert source.locate(("rounds", "x")) == Location("d.yaml", 2, 1)
    assert source.locate(()) == Location("d.yaml", 1, 1)


def test_locate_string_path_part_matches_int_key():
    _, source = load_text("rolls:\n  1: 5\n  2: 7\n", "i.yaml")
    assert source.locate(("rolls", "2")) == Location("i.yaml", 3, 3)


def test_fill_gives_paths_a_location():
    _, source = load_text(DOC, "d.yaml")
    problems = [Problem("no such participant", path=("rounds", 0, "steps", 1, "choices", "hrun")),
                Problem("kept", Location("other.yaml", 9, 9))]
    source.fill(problems)
    assert str(problems[0].location) == "d.yaml:6:34"
    assert str(problems[1].location) == "other.yaml:9:9"


# --------------------------------------------------------------------------- refused documents

def test_syntax_error_has_position():
    msg = refused("a: 1\nb: [1, 2\nc: 3\n")
    assert msg.startswith("s.yaml:")
    assert "invalid YAML" in msg


def test_duplicate_key_points_at_second_occurrence():
    msg = refused("title: a\nformat: drd/1\ntitle: b\n")
    assert msg.startswith("s.yaml:3:1: duplicate key 'title' (first defined on line 1)")


def test_duplicate_key_nested():
    msg = refused("participants:\n  hanus: {name: A}\n  hanus: {name: B}\n")
    assert msg.startswith("s.yaml:3:3: duplicate key 'hanus'")


@pytest.mark.parametrize("text", ["", "   \n", "# jen komentář\n", "---\n"])
def test_empty_file(text):
    assert refused(text) .startswith("s.yaml:1:1: the file is empty")


@pytest.mark.parametrize("text,kind", [("- a\n- b\n", "a list"), ("jen text\n", "a single value")])
def test_top_level_must_be_mapping(text, kind):
    assert refused(text) == f"s.yaml:1:1: the top level must be a mapping of `key: value` lines, not {kind}"


def test_binary_nul_byte():
    msg = refused(b"format: drd/1\nx: \x00\x01\x02")
    assert msg.startswith("s.yaml:2:4: this is a binary file")
    assert "offset 17" in msg


def test_non_utf8_names_the_offset():
    raw = "title: Útěk\n".encode("utf-8") + b"name: Hanu\x9a\n"  # cp1250 š
    msg = refused(raw)
    offset = raw.rindex(b"\x9a")
    assert f"byte 0x9A at offset {offset}" in msg
    assert msg.startswith("s.yaml:2:11: the file is not UTF-8")


def test_utf16_is_explained():
    assert "UTF-16" in refused("a: 1\n".encode("utf-16"))


def test_control_character():
    assert refused("a: b\x07c\n").startswith("s.yaml:1:5: the character U+0007 is not allowed")


def test_too_large_says_2_mb(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: " + b"x" * MAX_BYTES + b"\n")
    with pytest.raises(ScenarioError) as info:
        load_document(big)
    assert "2 MB" in info.value.format()
    assert str(big) in info.value.format()


def test_unsupported_tags_refused():
    assert "tag !!python/object/apply:os.system is not supported" in refused(
        "a: !!python/object/apply:os.system [ls]\n")
    assert refused("a: !vlastni 3\n").startswith("s.yaml:1:4: the YAML tag !vlastni")


def test_complex_key_refused_quickly():
    # ruamel hashes nested complex keys exponentially; they must be refused before construction.
    start = time.perf_counter()
    assert "a key must be plain text" in refused("? " * 40 + "x\n")
    assert time.perf_counter() - start < 1.0


def test_recursive_alias_refused():
    assert "recursive" in refused("a: &x [1, *x]\n")


def test_single_document_only():
    assert refused("a: 1\n---\nb: 2\n").startswith("s.yaml:2:1:")


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(ScenarioError, match="no such file"):
        load_document(tmp_path / "nope.yaml")
    with pytest.raises(ScenarioError, match="folder"):
        load_document(tmp_path)


def test_load_document_reads_file(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("format: drd/1\nseed: 7\n", encoding="utf-8")
    data, source = load_document(path)
    assert data["seed"] == 7
    assert source.locate(("seed",)) == Location(str(path), 2, 1)


# --------------------------------------------------------------------------- hostile documents

def billion_laughs(levels: int = 9, width: int = 10) -> str:
    lines = ['l0: &l0 "lol"']
    for i in range(1, levels + 1):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


def test_billion_laughs_refused_fast():
    text = billion_laughs()          # 10**9 leaves once expanded
    start = time.perf_counter()
    with pytest.raises(ScenarioError) as info:
        load_text(text, "bomb.yaml")
    elapsed = time.perf_counter() - start
    assert f"more than {MAX_NODES:,} nodes once aliases are expanded" in info.value.format()
    assert info.value.format().startswith("bomb.yaml:")
    assert elapsed < 0.5, elapsed  # measured ~0.1 s


def test_billion_laughs_memory_is_bounded():
    tracemalloc.start()
    try:
        with pytest.raises(ScenarioError):
            load_text(billion_laughs(levels=12), "bomb.yaml")   # 10**12 leaves
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 1024 * 1024, peak


def test_deep_flow_nesting_refused_fast():
    start = time.process_time()        # this process's CPU: not what else the machine is doing
    msg = refused("a: " + "[" * 200_000)
    assert "nested deeper than 64 levels" in msg
    assert msg.startswith("s.yaml:1:67:")
    assert time.process_time() - start < 1.0


def test_deep_block_nesting_refused():
    text = "a:\n" + "".join(" " * (i + 1) + "b:\n" for i in range(200))
    assert "nested deeper than 64 levels" in refused(text)


def test_deep_block_sequence_on_one_line():
    assert "nested deeper than 64 levels" in refused("a:\n  " + "- " * 100_000 + "x\n")


def test_reasonable_aliases_are_fine():
    data, _ = load_text("base: &b {telo: 3, duse: 2}\nhanus: {pools: *b}\nulrich: {pools: *b}\n")
    assert data["ulrich"]["pools"]["telo"] == 3


# --------------------------------------------------------------------------- fuzz

# Fragments that steer the fuzzer towards YAML structure (indents, flow, anchors, tags, keys).
YAMLISH = st.lists(
    st.sampled_from(list("ab: -[]{}&*!?|>#'\",%@`\\<=\t") + [
        "\n", "\n  ", ": ", "- ", "&a ", "*a", "&b ", "*b", "? ", "!!str ", "!x ", "<<: ", "---\n",
        "\x00", "\x07", "é", "\ufeff", "1", "0x1f", "~", "true", "2024-01-01", "\"\\u0000\""]),
    max_size=80,
).map("".join)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(YAMLISH, st.text(max_size=200)))
def test_fuzz_text_returns_data_or_scenario_error(text):
    try:
        data, source = load_text(text, "fuzz.yaml")
    except ScenarioError as exc:
        assert exc.problems and exc.problems[0].location.file == "fuzz.yaml"
        return
    assert isinstance(data, dict)
    assert source.locate(()).file == "fuzz.yaml"


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_bytes_returns_data_or_scenario_error(raw):
    try:
        data, _ = load_text(raw, "fuzz.yaml")
    except ScenarioError:
        return
    assert isinstance(data, dict)


def test_reused_anchor_is_fine_and_silent(recwarn):
    data, _ = load_text("a: &x 1\nb: &x 2\nc: *x\n")
    assert data["c"] == 2
    assert not [w for w in recwarn if "anchor" in str(w.message)]


_LONG_INTS = {
    "decimal": "7" * 4301,
    "hexadecimal": "0x" + "f" * 3600,
    "octal": "0o" + "7" * 4800,
    "binary": "0b" + "1" * 14300,
    "negative hexadecimal": "-0x" + "f" * 4000,
    "with separators": "1_" + "0" * 4400,
}


@pytest.mark.parametrize("spelling", list(_LONG_INTS.values()), ids=list(_LONG_INTS))
@pytest.mark.parametrize("reader", ["libyaml", "ruamel"])
def test_a_whole_number_over_4300_digits_is_refused_where_it_is_in_any_spelling(spelling, reader):
    # An anchor elsewhere in the file sends it down the ruamel path.
    head = "format: drd/1\nx: &a 1\n" if reader == "ruamel" else "format: drd/1\nx: 1\n"
    for key in ("seed", "title", "ohrozeni"):
        with pytest.raises(ScenarioError) as exc:
            load_text(f"{head}{key}: {spelling}\n", "s.yaml")
        problem = exc.value.problems[0]
        assert (problem.location.line, problem.location.col) == (3, len(key) + 3)
        assert "at most 4,300 digits" in problem.message
    with pytest.raises(ScenarioError) as exc:
        load_text(f"{head}rounds: [{{steps: [{{roll: {spelling}}}]}}]\n", "s.yaml")
    assert (exc.value.problems[0].location.line, "4,300" in exc.value.problems[0].message) == (3, True)


def test_a_tagged_long_number_is_refused_and_shorter_ones_are_numbers():
    with pytest.raises(ScenarioError) as exc:
        load_text('format: drd/1\ntitle: !!int "0x' + "f" * 4000 + '"\n', "s.yaml")
    assert exc.value.problems[0].location.line == 2
    data, _ = load_text("format: drd/1\nseed: 0x" + "f" * 3500 + "\nt: '0x" + "f" * 5000 + "'\n", "s.yaml")
    assert data["seed"] == 16 ** 3500 - 1 and data["t"].startswith("0xf")
    assert len(str(data["seed"])) <= 4300


def test_the_digit_limit_is_written_as_a_czech_reader_writes_numbers():
    from drd_cli import i18n

    with i18n.using("cs"), pytest.raises(ScenarioError) as exc:
        load_text("format: drd/1\nseed: 0x" + "f" * 5000 + "\n", "s.yaml")
    assert "4\u00a0300 číslic" in exc.value.problems[0].message
