"""Hostile input never gets past the front door (issue 23, item 6).

Property-based fuzzing (Hypothesis, bounded example counts so the file runs in well under a minute) of the
three doors every file passes through: ``workbench.symexpr`` (symbolic text), ``workbench.jsonfile`` (JSON
text) and the command line on records built from a shipped one with a hostile field. The properties: no
exception other than the reader's own input error, no hang (each example runs under an alarm), and a CLI
answer that is an exit code 0/1, or exit 2 with exactly one line on stderr."""

from __future__ import annotations

import contextlib
import json
import signal
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.cli import main
from workbench.jsonfile import DuplicateKey, loads_strict
from workbench.paths import KERNELS
from workbench.symexpr import SymbolicTextError, parse_any

SECONDS = 10  # per example: a hang is a failure, not a slow test


@contextlib.contextmanager
def within(seconds: float):
    def late(*_):
        raise TimeoutError(f"no answer within {seconds} s (a hang)")

    old = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# -- symbolic text -------------------------------------------------------------------------------------------

TOKENS = ["s0", "s1", "s27", "0", "1", "2", "7", "64", "65", "2147483647", "9" * 45, "1.5", "0.7", "1e999", "+", "-",
          "*", "/", "//", "%", "**", "**-1", "(", ")", ",", "<", "<=", ">", ">=", "==", "!=", "&", "|", "~", "Mod",
          "FloorDiv", "CeilDiv", "Max", "Min", "floor", "ceiling", "Abs", "Eq", "Ne", "ModularIndexing", "PythonMod",
          "PowByNatural", "ToFloat", "TruncToInt", "Where", "IntTrueDiv", "(s0 - s0)", "True", "oo", "I", " ",
          "__import__", "os", ".", "'", "lambda", ":"]

token_soup = st.lists(st.sampled_from(TOKENS), max_size=40).map(" ".join)


def _expressions():
    leaf = st.sampled_from(["s0", "s1", "0", "1", "2", "64", "(s0 - s0)", "(s1 - s1 + 0)", "1.5", "9" * 41])
    binop = st.sampled_from(["+", "-", "*", "/", "//", "%"])
    func2 = st.sampled_from(["Mod", "FloorDiv", "CeilDiv", "Max", "Min", "PythonMod", "PowByNatural", "IntTrueDiv",
                             "Eq", "Ne"])

    def extend(inner):
        return st.one_of(
            st.tuples(inner, binop, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, st.integers(-9, 70)).map(lambda t: f"({t[0]})**{t[1]}"),
            st.tuples(func2, inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"ModularIndexing({t[0]}, {t[1]}, {t[2]})"),
            st.tuples(inner, st.sampled_from(["<=", "<", ">=", "!=", "=="]), inner).map(
                lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, st.sampled_from(["&", "|"]), inner).map(lambda t: f"({t[0]}) {t[1]} ({t[2]})"),
            inner.map(lambda t: f"~({t})"),
            inner.map(lambda t: f"TruncToInt(ToFloat({t}))"),
        )

    return st.recursive(leaf, extend, max_leaves=24)


HOSTILE_TEXTS = [
    "Mod(s, 0)", "FloorDiv(s, 0)", "CeilDiv(s, s - s)", "(s - s)**-1", "((((2**64)**64)**64)**64)**64",
    "(((((s**64)**64)**64)**64)**64)", "(s0+s1+s2+s3+s4+s5+s6+s7)**64", "(" * 5000 + "s0" + ")" * 5000, "-" * 5000 + "1",
    "9" * 5000, "1." + "9" * 5000, "s0 " * 10000, "Max(" * 100 + "s0" + ")" * 100, "~" * 1000 + "(s0 < 1)",
]

symbolic_text = st.one_of(token_soup, _expressions(), st.sampled_from(HOSTILE_TEXTS), st.text(max_size=80))


def _read(text: str):
    try:
        out = parse_any(text, where="fuzz")
    except SymbolicTextError as exc:
        assert "\n" not in str(exc)
        return None
    return out


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symbolic_text)
def test_symbolic_text_is_read_or_refused_by_name(text):
    with within(SECONDS):
        out = _read(text)
        if out is not None:  # what was read prints as text this reader reads again (records store str())
            _read(str(out))


@pytest.mark.parametrize("text", HOSTILE_TEXTS[:7])
def test_the_issue_23_expressions_are_input_errors(text):
    with within(SECONDS), pytest.raises(SymbolicTextError):
        parse_any(text, where="fuzz")


# -- JSON text -----------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@st.composite
def json_texts(draw):
    text = json.dumps(draw(json_values))
    how = draw(st.sampled_from(["plain", "truncate", "insert", "deep", "bigint", "nan", "dupkey"]))
    if how == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif how == "insert":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.sampled_from(["[", "{", "]", "}", ",", '"', "\\", "NaN", "-Infinity", "1e999",
                                                 "9" * 5000, ":"])) + text[at:]
    elif how == "deep":
        n = draw(st.sampled_from([65, 1000, 100_000]))
        text = "[" * n + text + "]" * n
    elif how == "bigint":
        text = f'{{"a": {text}, "b": {draw(st.sampled_from(["1" * 101, "-" + "2" * 4400, "3" * 5000]))}}}'
    elif how == "nan":
        text = f'[{text}, {draw(st.sampled_from(["NaN", "Infinity", "-Infinity"]))}]'
    elif how == "dupkey":
        text = f'{{"k": {text}, "k": 1}}'
    return text


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_texts())
def test_json_text_is_read_or_refused_by_name(text):
    with within(SECONDS):
        try:
            loads_strict(text)
        except (json.JSONDecodeError, DuplicateKey):
            pass


# -- the command line on hostile records --------------------------------------------------------------------

RECORD = json.loads((KERNELS / "tile" / "triton_poi_fused_repeat_0.json").read_text())
PLACES = ["guard", "size_arg", "numel", "symbol_lower", "signature", "whole"]


@st.composite
def hostile_records(draw) -> str:
    d = json.loads(json.dumps(RECORD))
    place = draw(st.sampled_from(PLACES))
    value = draw(st.one_of(symbolic_text, st.integers(), st.none(), st.floats(allow_nan=False, allow_infinity=False),
                           st.lists(st.integers(), max_size=3)))
    if place == "guard":
        d["guards"] = list(d["guards"]) + [value]
    elif place == "size_arg":
        d["size_args"][0]["expr"] = value
    elif place == "numel":
        d["numels"][0]["expr"] = value
    elif place == "symbol_lower":
        d["symbols"][0]["lower"] = draw(st.one_of(st.integers(), st.just(10 ** 99), st.text(max_size=5)))
    elif place == "signature":
        d["signature"] = value
    else:
        return draw(json_texts())
    return json.dumps(d)


@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])  # capsys: read per example
@given(hostile_records(), st.sampled_from([["show"], ["ir"], ["check", "--mode", "observable", "--no-smt"]]))
def test_the_cli_answers_a_hostile_record_with_an_exit_code_and_at_most_one_line(capsys, text, command):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "triton_poi_fused_repeat_0.json"
        path.write_text(text)
        with within(30):
            rc = main(["--workspace", str(Path(tmp) / "ws"), *command[:1], str(path), *command[1:]])
        err = capsys.readouterr().err
        assert rc in (0, 1, 2), rc
        if rc == 2:
            lines = err.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("workbench"), err


def _record_with(place: str, value) -> str:
    d = json.loads(json.dumps(RECORD))
    if place == "guard":
        d["guards"] = list(d["guards"]) + [value]
    else:
        d["size_args"][0]["expr"] = value
    return json.dumps(d)


ISSUE_23_FILES = [
    *[_record_with(place, t) for t in HOSTILE_TEXTS[:7] for place in ("guard", "size_arg")],
    json.dumps(RECORD)[:-1] + ', "extra": ' + "5" * 5000 + "}",  # a 5000-digit JSON integer
    "[" * 100_000 + "]" * 100_000,  # JSON nested 100k deep
]


@pytest.mark.parametrize("text", ISSUE_23_FILES, ids=range(len(ISSUE_23_FILES)))
def test_the_issue_23_inputs_exit_2_with_one_line(capsys, tmp_path, text):
    path = tmp_path / "triton_poi_fused_repeat_0.json"
    path.write_text(text)
    with within(30):
        rc = main(["--workspace", str(tmp_path / "ws"), "check", str(path), "--mode", "observable", "--no-smt"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("workbench: error: "), (rc, err)


HOSTILE_JSON = {"digits": '{"schema": ' + "5" * 5000 + "}", "deep": "[" * 100_000 + "]" * 100_000,
                "nan": '{"schema": NaN}', "repeated": '{"schema": "a", "schema": "b"}', "truncated": '{"schema": "a'}


@pytest.mark.parametrize("command", [["show"], ["ir"], ["check"], ["bench", "report"], ["lean", "emit"]],
                         ids=lambda c: "-".join(c))
@pytest.mark.parametrize("kind", sorted(HOSTILE_JSON))
def test_every_reader_refuses_hostile_json_in_one_line(capsys, tmp_path, command, kind):
    path = tmp_path / "x.json"  # a record, a certificate or a run record, as each command reads it
    path.write_text(HOSTILE_JSON[kind])
    with within(30):
        rc = main(["--workspace", str(tmp_path / "ws"), *command, str(path)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("workbench"), (rc, err)
