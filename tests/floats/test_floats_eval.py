"""The vectorized evaluator against the gmpy2 binary32 reference, op by op, on hard cases and with Hypothesis."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.floats.errors import FloatsUnsupportedError
from workbench.floats.evaluate import Semantics, evaluate, fma_f32
from workbench.floats.ir import Node, Op, Ty, arg, const, contract_fma, render
from workbench.floats.reference import evaluate_scalar, f32_bits, f32_from_bits

HARD = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001, 0x80000001, 0x007FFFFF,
        0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF, 0x33800000,
        0x34000000, 0x3FC00000, 0x4B800000, 0x00400000, 0x3F000000, 0x5F800000, 0x1F800000]

X, Y, Z = arg(0), arg(1), arg(2)
BINARY = [Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.FMAX, Op.FMIN, Op.MAXIMUM, Op.MINIMUM, Op.COPYSIGN]
COMPARE = [Op.LT, Op.LE, Op.GT, Op.GE, Op.EQ, Op.NE]


def _same(a: float, b: float) -> bool:
    a32, b32 = np.float32(a), np.float32(b)
    return (np.isnan(a32) and np.isnan(b32)) or f32_bits(float(a32)) == f32_bits(float(b32))


def _check(node: Node, cols: list[list[int]], ftz: bool = False) -> None:
    xs = {i: np.array(c, dtype=np.uint32).view(np.float32) for i, c in enumerate(cols)}
    got = np.broadcast_to(np.asarray(evaluate(node, xs, Semantics(ftz=ftz))), (len(cols[0]),))
    for j in range(len(cols[0])):
        args = {i: f32_from_bits(c[j]) for i, c in enumerate(cols)}
        want = evaluate_scalar(node, args, ftz=ftz)
        g = got[j]
        if node.ty is Ty.BOOL:
            assert bool(g) == want, (render(node), [hex(c[j]) for c in cols], ftz)
        else:
            assert _same(float(g), want), (render(node), [hex(c[j]) for c in cols], float(g), want, ftz)


@pytest.mark.parametrize("ftz", [False, True])
@pytest.mark.parametrize("op", BINARY + COMPARE)
def test_binary_ops_match_reference_on_hard_pairs(op: Op, ftz: bool) -> None:
    pairs = list(itertools.product(HARD, HARD))
    ty = Ty.BOOL if op in COMPARE else Ty.F32
    _check(Node(op, ty, (X, Y)), [[a for a, _ in pairs], [b for _, b in pairs]], ftz)


@pytest.mark.parametrize("ftz", [False, True])
def test_fma_sqrt_and_double_casts_match_reference(ftz: bool) -> None:
    triples = list(itertools.product(HARD[:14], repeat=3))
    cols = [[t[i] for t in triples] for i in range(3)]
    _check(Node(Op.FMA, Ty.F32, (X, Y, Z)), cols, ftz)
    _check(Node(Op.SQRT, Ty.F32, (X,)), [HARD], ftz)
    wide = Node(Op.MUL, Ty.F64, (Node(Op.CAST, Ty.F64, (X,)), const(0.01, Ty.F64)))
    _check(Node(Op.CAST, Ty.F32, (wide,)), [HARD], ftz)


def test_fma_is_exact_not_double_rounded() -> None:
    # NOTES: a = b = 1 + 2**-12, c = -(1 + 2**-11): fused gives 2**-24, unfused gives +0.0.
    a = np.float32(1 + 2**-12)
    c = np.float32(-(1 + 2**-11))
    assert fma_f32(np.array([a]), np.array([a]), np.array([c]))[0] == np.float32(2.0**-24)
    assert (a * a + c) == np.float32(0.0)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=3, max_size=3), st.booleans())
def test_fma_and_arithmetic_match_reference_on_random_bits(bits: list[int], ftz: bool) -> None:
    cols = [[b] for b in bits]
    for node in (Node(Op.FMA, Ty.F32, (X, Y, Z)), Node(Op.ADD, Ty.F32, (X, Y)), Node(Op.MUL, Ty.F32, (X, Y)),
                 Node(Op.DIV, Ty.F32, (X, Y)), Node(Op.FMAX, Ty.F32, (X, Y)), Node(Op.LT, Ty.BOOL, (X, Y))):
        _check(node, cols, ftz)


@settings(max_examples=300, deadline=None)
@given(st.floats(width=32, allow_nan=False), st.floats(width=32, allow_nan=False), st.floats(width=32, allow_nan=False))
def test_fma_matches_reference_on_near_cancellation(a: float, b: float, c: float) -> None:
    # c close to -a*b exercises the sticky bit of the round-to-odd emulation
    with np.errstate(all="ignore"):
        c2 = float(np.float32(-(np.float64(a) * np.float64(b))))
    for cc in (c, c2):
        _check(Node(Op.FMA, Ty.F32, (X, Y, Z)), [[f32_bits(a)], [f32_bits(b)], [f32_bits(cc)]])


def test_sign_ops_move_bits_only() -> None:
    nan_payload = np.array([0x7FC00123, 0xFF812345], dtype=np.uint32)
    x = {0: nan_payload.view(np.float32)}
    assert list(np.asarray(evaluate(Node(Op.NEG, Ty.F32, (X,)), x)).view(np.uint32)) == [0xFFC00123, 0x7F812345]
    assert list(np.asarray(evaluate(Node(Op.ABS, Ty.F32, (X,)), x)).view(np.uint32)) == [0x7FC00123, 0x7F812345]


def test_device_arithmetic_returns_the_canonical_nan_under_payload_semantics() -> None:
    x = {0: np.array([0x7FC00123], dtype=np.uint32).view(np.float32)}
    r = evaluate(Node(Op.MUL, Ty.F32, (X, const(2.0, Ty.F32))), x, Semantics(canonical_nan=True))
    assert int(np.asarray(r).view(np.uint32)[0]) == 0x7FFFFFFF


def test_contraction_fuses_products_into_adds_and_subtracts() -> None:
    m = Node(Op.MUL, Ty.F32, (X, Y))
    assert contract_fma(Node(Op.ADD, Ty.F32, (m, Z))) == Node(Op.FMA, Ty.F32, (X, Y, Z))
    assert contract_fma(Node(Op.ADD, Ty.F32, (Z, m))) == Node(Op.FMA, Ty.F32, (X, Y, Z))
    assert contract_fma(Node(Op.SUB, Ty.F32, (m, Z))) == Node(Op.FMA, Ty.F32, (X, Y, Node(Op.NEG, Ty.F32, (Z,))))
    assert contract_fma(Node(Op.SUB, Ty.F32, (Z, m))) == Node(Op.FMA, Ty.F32, (Node(Op.NEG, Ty.F32, (X,)), Y, Z))
    kept = Node(Op.MUL, Ty.F32, (X, Y), contract=False)  # __fmul_rn
    assert contract_fma(Node(Op.ADD, Ty.F32, (kept, Z))).op is Op.ADD


def test_double_fma_is_refused_by_name() -> None:
    d = Node(Op.FMA, Ty.F64, (Node(Op.CAST, Ty.F64, (X,)),) * 3)
    with pytest.raises(FloatsUnsupportedError, match="double-precision fused multiply-add.*--fma off"):
        evaluate(d, {0: np.zeros(1, np.float32)})


def test_the_same_ir_over_the_rationals_calls_relu_ternary_correct() -> None:
    """Report 3: over the reals `v > 0 ? v : 0` is ReLU; over binary32 NaN separates them."""
    from fractions import Fraction

    from workbench.floats.reference import evaluate_exact

    zero = const(0.0, Ty.F32)
    spec = Node(Op.SELECT, Ty.F32, (Node(Op.LT, Ty.BOOL, (X, zero)), zero, X))
    kern = Node(Op.SELECT, Ty.F32, (Node(Op.GT, Ty.BOOL, (X, zero)), X, zero))
    for q in (Fraction(-3, 2), Fraction(0), Fraction(7, 3), Fraction(-1, 10**9)):
        assert evaluate_exact(spec, {0: q}) == evaluate_exact(kern, {0: q})
    nan = {0: np.array([0x7FC00000], dtype=np.uint32).view(np.float32)}
    assert np.isnan(evaluate(spec, nan)[0]) and evaluate(kern, nan)[0] == 0
