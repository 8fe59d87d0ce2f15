"""Polynomials over shape symbols: named examples and Hypothesis properties against exact evaluation."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.check.poly import Poly, nonneg_after_shift

a, b, c = Poly.sym("a"), Poly.sym("b"), Poly.sym("c")


def test_tile_side_condition_expands_to_ab_plus_a():
    # 2ab - a(b-1) = ab + a: the guard on the product 2ab keeps it non-negative (report 2's tile example).
    assert 2 * a * b - a * (b - 1) == a * b + a
    assert nonneg_after_shift(2 * a * b - a * (b - 1), {"a": 1, "b": 1})


def test_shift_substitutes_lower_bound_plus_variable():
    assert (a * b - 1).shift({"a": 2, "b": 3}) == a * b + 3 * a + 2 * b + 5


def test_negative_coefficient_after_shift_is_not_shown():
    assert not nonneg_after_shift(a - b, {"a": 1, "b": 1})
    assert not nonneg_after_shift(a, {})  # a symbol without a lower bound


def test_exact_division_is_multivariate_and_refuses_remainders():
    n = 2 * a * c + 2 * b * c
    assert n.divide_exact(2 * a + 2 * b) == c
    assert (n + 1).divide_exact(a + b) is None
    assert (a * a - b * b).divide_exact(a - b) == a + b


def test_rational_coefficients_stay_exact():
    half = a * Fraction(1, 2)
    assert str(half + half) == "a"
    assert (half * 2).evaluate({"a": 7}) == 7


polys = st.builds(
    lambda terms: Poly({tuple(sorted(m.items())): k for m, k in terms}),
    st.lists(
        st.tuples(st.dictionaries(st.sampled_from("abc"), st.integers(1, 2), max_size=2), st.integers(-5, 5)),
        max_size=4,
    ),
)
points = st.fixed_dictionaries({"a": st.integers(-9, 9), "b": st.integers(-9, 9), "c": st.integers(-9, 9)})


@settings(max_examples=150, deadline=None)
@given(polys, polys, points)
def test_ring_operations_match_evaluation(p, q, x):
    assert (p + q).evaluate(x) == p.evaluate(x) + q.evaluate(x)
    assert (p * q).evaluate(x) == p.evaluate(x) * q.evaluate(x)
    assert (p - q).evaluate(x) == p.evaluate(x) - q.evaluate(x)


@settings(max_examples=150, deadline=None)
@given(polys, st.fixed_dictionaries({"a": st.integers(0, 3), "b": st.integers(0, 3), "c": st.integers(0, 3)}),
       st.fixed_dictionaries({"a": st.integers(0, 40), "b": st.integers(0, 40), "c": st.integers(0, 40)}))
def test_shift_test_is_sound(p, lower, extra):
    # If the cheap exact test says p >= 0 above the lower bounds, every such point agrees.
    if nonneg_after_shift(p, lower):
        x = {s: lower[s] + extra[s] for s in "abc"}
        assert p.evaluate(x) >= 0


rational_polys = st.builds(
    lambda terms: Poly({tuple(sorted(m.items())): Fraction(k, d) for m, k, d in terms}),
    st.lists(st.tuples(st.dictionaries(st.sampled_from("abc"), st.integers(1, 3), max_size=3),
                       st.integers(-9, 9), st.integers(1, 4)), max_size=5),
)


@settings(max_examples=200, deadline=None)
@given(rational_polys, st.dictionaries(st.sampled_from("abc"), st.integers(-3, 5), max_size=3), points)
def test_shift_is_substitution_by_lower_plus_variable(p, lower, x):
    """``shift`` expands by the binomial theorem in integers; it must be the polynomial ``substitute`` builds,
    equal as a value (hash included) and in evaluation."""
    got = p.shift(lower)
    want = p.substitute({s: Poly.sym(s) + lower[s] for s in p.symbols() if s in lower})
    assert got == want and hash(got) == hash(want)
    assert got.evaluate(x) == p.evaluate({s: x[s] + lower.get(s, 0) for s in "abc"})
