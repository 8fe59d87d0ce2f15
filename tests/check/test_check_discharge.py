"""Discharge: the exact procedure with multipliers, the z3 cross-check, and the sampled-but-false regression."""

from fractions import Fraction

import pytest

from workbench.capture import load
from workbench.check.discharge import exact_nonneg, find_multipliers, smt_check
from workbench.check.poly import Poly
from workbench.check.premises import premises_of
from workbench.paths import KERNELS

TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"
a, b = Poly.sym("s27"), Poly.sym("s77")  # tile: width a, rows b; guard 2*a*b <= 2**31-1
M = 2**31 - 1


@pytest.fixture(scope="module")
def tile():
    return premises_of(load(TILE))


def test_tile_offset_needs_the_guard_on_the_product(tile):
    # offset ks1*x1 + x0 % ks1 <= a*(b-1) + (a-1): with lambda = 1 on 2ab <= M the residual is ab + 1.
    claim = Poly.const(M) - (a * (b - 1) + a - 1)
    guard = next(f.name for f in tile.facts if f.origin == "2*s27*s77 <= 2147483647")
    assert exact_nonneg(claim, tile, ((guard, Fraction(1)),))
    assert not exact_nonneg(claim, tile, ())  # per-symbol ranges alone lose it
    assert smt_check(claim, tile).status == "proved"


def test_multipliers_are_verified_not_trusted(tile):
    claim = Poly.const(M) - a * a * b
    assert not exact_nonneg(claim, tile, (("guard:0", Fraction(1)),))
    assert not exact_nonneg(claim, tile, (("guard:0", Fraction(-1)),))  # negative multiplier refused
    assert not exact_nonneg(claim, tile, (("no such fact", Fraction(1)),))


def test_condition_true_on_samples_but_false_symbolically_is_rejected(tile):
    """Regression (report 2): a side condition that held on sampled values but not on large ones."""
    claim = Poly.const(M) - a * a * b  # a^2 b <= 2**31-1
    samples = [(x, y) for x in range(2, 200, 7) for y in range(2, 200, 11) if 2 * x * y <= M]
    assert all(claim.evaluate({"s27": x, "s77": y}) >= 0 for x, y in samples)
    assert find_multipliers(claim, tile) is None
    got = smt_check(claim, tile)  # a resource limit, not a timeout: a loaded CI machine gives the same answer
    assert got.status == "refuted"
    shape = dict(got.model)
    assert 2 * shape["s27"] * shape["s77"] <= M and claim.evaluate(shape) < 0


@pytest.mark.parametrize("program", ["tile", "rotary", "chunk_add", "pixel_shuffle_like"])
def test_z3_never_refutes_what_the_exact_procedure_proved(program):
    from workbench.check.api import check_kernel, cross_check

    for path in sorted((KERNELS / program).glob("*.json")):
        rec = load(path)
        v = check_kernel(rec, "observable", counterexample=False)
        assert cross_check(rec, v) == []
