"""The oracle's own exact evaluator of record text, against Python integer arithmetic."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.errors import InputError
from workbench.oracle.source import OracleInputError
from workbench.oracle.symbolic import Undefined, expression, relation, slack

ints = st.integers(min_value=-(2**40), max_value=2**40)
pos = st.integers(min_value=1, max_value=2**40)


@settings(max_examples=200, deadline=None)
@given(a=ints, b=pos, c=ints)
def test_floor_division_and_remainder_follow_python(a, b, c):
    s = {"a": a, "b": b, "c": c}
    assert expression("a // b", "t").value(s) == a // b
    assert expression("a % b", "t").value(s) == a % b
    assert expression("Mod(a, b) + FloorDiv(c, b)", "t").value(s) == a % b + c // b
    assert expression("CeilDiv(a, b)", "t").value(s) == -(-a // b)
    assert expression("floor(a/2 + 1/2)", "t").value(s) == (a + 1) // 2
    assert expression("Max(1, a) * Min(c, 3) - 2*a**2", "t").value(s) == max(1, a) * min(c, 3) - 2 * a * a
    h = (b + 1) // 2  # chunk_add's guard shape: nested floor divisions by a floor division
    assert expression("((b + (((b + 1)//2)) - 1)//(((b + 1)//2)))", "t").value(s) == (b + h - 1) // h
    assert expression("ceiling(a/3 - c/7)", "t").value(s) == -((-(7 * a - 3 * c)) // 21)


@settings(max_examples=100, deadline=None)
@given(a=ints, b=ints)
def test_relations_follow_python(a, b):
    s = {"a": a, "b": b}
    assert relation("a*b <= 2147483647", "t").holds(s) is (a * b <= 2147483647)
    assert relation("Ne(a, Max(1, (a//2)))", "t").holds(s) is (a != max(1, a // 2))
    assert relation("Eq(a, 2*((a//2)))", "t").holds(s) is (a % 2 == 0)
    assert relation("a < b", "t").holds(s) is (a < b)


def test_slack_is_zero_exactly_when_the_guard_is_tight():
    g = slack("2*s*t <= 2147483647", "t")
    assert g.value({"s": 1073741823, "t": 1}) == 1
    assert slack("s < 10", "t").value({"s": 9}) == 0
    assert slack("s > 1", "t").value({"s": 2}) == 0
    assert slack("Ne(s, 1)", "t") is None


def test_a_bare_symbol_is_an_expression_and_a_comparison_is_not():
    assert expression("s27", "t").value({"s27": 5}) == 5
    with pytest.raises(OracleInputError, match="comparison where a size expression was expected"):
        expression("s27 <= 3", "numel")


def test_unknown_symbol_and_non_integer_value_are_input_errors():
    with pytest.raises(OracleInputError, match="uses symbol 'q'"):
        expression("q + 1", "numel of k").value({"s": 1})
    with pytest.raises(OracleInputError, match="not an integer"):
        expression("s/2", "numel").value({"s": 3})


def test_division_by_zero_makes_a_guard_false_not_a_crash():
    g = relation("s // t >= 0", "t")
    assert g.holds({"s": 1, "t": 0}) is False
    with pytest.raises(Undefined):
        expression("s % t", "t").value({"s": 1, "t": 0})


def test_record_text_is_never_run():
    with pytest.raises(InputError, match="cannot read symbolic text"):
        relation("__import__('os').system('false') <= 1", "guard")
