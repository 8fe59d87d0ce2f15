"""Scalar reference semantics of the IR with gmpy2 (MPFR) binary32/binary64 contexts (stage: floats).

The oracle the vectorized evaluator is tested against, and the second opinion every reported
counterexample is re-evaluated with. MPFR rounds each operation exactly once in the IEEE formats given by
``gmpy2.ieee(32)`` / ``gmpy2.ieee(64)`` (precision 24/53, subnormals on). Values are carried as Python
floats (every binary32 value is exact in a double). NaN payloads are not modelled here: a NaN result is
reported as the default quiet NaN, so compare with the "any NaN" policy.

Limits: 5-65 microseconds per operation (NOTES), so this is for single inputs, never sweeps.
"""

from __future__ import annotations

import math
import struct

import gmpy2

from workbench.floats.errors import FloatsUnsupportedError
from workbench.floats.ir import Node, Op, Ty

# binary16 is IEEE's; bfloat16 is binary32's exponent range with 8 significant bits (emin = 1 - 126 - 8 + 1).
_CTX = {Ty.F32: gmpy2.ieee(32), Ty.F64: gmpy2.ieee(64), Ty.F16: gmpy2.ieee(16),
        Ty.BF16: gmpy2.context(precision=8, emin=-132, emax=128, subnormalize=True)}


def f32_from_bits(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _round(ty: Ty, fn, *xs: float) -> float:
    ctx = _CTX[ty]
    ops = [gmpy2.mpfr(x, 53) for x in xs]  # exact: every input already fits in 53 bits
    return float(fn(ctx)(*ops))


def _flush32(x: float) -> float:
    if x != 0 and abs(x) < 2.0**-126:
        return math.copysign(0.0, x)
    return x


def _max(x: float, y: float, is_max: bool, nan_wins: bool) -> float:
    if math.isnan(x) or math.isnan(y):
        if nan_wins:
            return x if math.isnan(x) else y
        return y if math.isnan(x) else x
    if x == y and nan_wins:  # torch.maximum/minimum, vectorized path: the second operand
        return y
    if x == y:  # +0/-0: maximumNumber keeps +0, minimumNumber keeps -0
        neg = (math.copysign(1, x) < 0) and (math.copysign(1, y) < 0) if is_max else (
            (math.copysign(1, x) < 0) or (math.copysign(1, y) < 0))
        return math.copysign(abs(x), -1.0 if neg else 1.0)
    return (x if x > y else y) if is_max else (x if x < y else y)


def evaluate_scalar(node: Node, args: dict, ftz: bool = False):
    """Evaluate one input. ``args`` maps ARG numbers to Python floats; returns a float, bool or int."""
    memo: dict[int, object] = {}

    def ev(n: Node):
        if id(n) not in memo:
            memo[id(n)] = step(n, [ev(a) for a in n.args])
        return memo[id(n)]

    def fl(n: Node, x):
        return _flush32(x) if ftz and n.ty is Ty.F32 else x

    def step(n: Node, a):
        ty = n.ty
        match n.op:
            case Op.ARG:
                return args[int(n.value)]
            case Op.CONST:
                return float(n.value) if ty.is_float else n.value
            case Op.ADD | Op.SUB | Op.MUL | Op.DIV | Op.FMA | Op.SQRT if ty.is_float:
                name = {Op.ADD: "add", Op.SUB: "sub", Op.MUL: "mul", Op.DIV: "div", Op.FMA: "fma",
                        Op.SQRT: "sqrt"}[n.op]

                def fn(ctx, name=name):
                    return getattr(ctx, name)
                ins = [_flush32(x) if ftz and ty is Ty.F32 else x for x in a]
                return fl(n, _round(ty, fn, *ins))
            case Op.NEG:  # neg.ftz.f32 / abs.ftz.f32 flush a subnormal input first (PTX ISA)
                return -fl(n, a[0]) if not math.isnan(a[0]) else a[0]
            case Op.ABS:
                return abs(fl(n, a[0]))
            case Op.COPYSIGN:
                return math.copysign(a[0], a[1])
            case Op.FMAX | Op.FMIN | Op.MAXIMUM | Op.MINIMUM:
                x, y = (fl(n, v) for v in a)
                return _max(x, y, n.op in (Op.FMAX, Op.MAXIMUM), n.op in (Op.MAXIMUM, Op.MINIMUM))
            case Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE:
                x, y = a
                if ftz and n.args[0].ty is Ty.F32:
                    x, y = _flush32(x), _flush32(y)
                return {Op.LT: x < y, Op.LE: x <= y, Op.GT: x > y, Op.GE: x >= y, Op.EQ: x == y,
                        Op.NE: x != y}[n.op]
            case Op.ISNAN:
                return math.isnan(a[0])
            case Op.AND:
                return bool(a[0]) and bool(a[1])
            case Op.OR:
                return bool(a[0]) or bool(a[1])
            case Op.NOT:
                return not a[0]
            case Op.SELECT:
                return a[1] if a[0] else a[2]
            case Op.CAST if ty is Ty.F32 and n.args[0].ty is Ty.F64:
                return fl(n, _round(Ty.F32, lambda ctx: ctx.plus, a[0]))
            case Op.CAST_RZ:
                ctx = gmpy2.ieee(32)
                ctx.round = gmpy2.RoundToZero
                return fl(n, float(ctx.plus(gmpy2.mpfr(a[0], 53))))
            case Op.CAST if ty is Ty.F64 and n.args[0].ty is Ty.F32:
                return fl(n.args[0], a[0])
            case Op.CAST if ty.is_float:
                return _round(ty, lambda ctx: ctx.plus, float(a[0]))
            case Op.CAST:
                raise FloatsUnsupportedError(f"reference: integer cast {n!r} is not needed for scalars")
            case Op.OPAQUE:
                raise FloatsUnsupportedError(f"reference: `{n.name}` has no bit-exact model")
            case (Op.PARAM | Op.THREAD | Op.LOAD | Op.ADD | Op.SUB | Op.MUL | Op.DIV | Op.REM | Op.FMA
                  | Op.SQRT):
                raise FloatsUnsupportedError(f"reference: {n.op.value} on {ty.value} is index arithmetic, "
                                             "not a scalar float function")
        raise AssertionError(f"reference: no rule for {n.op}")

    return ev(node)


def evaluate_exact(node: Node, args: dict):
    """The same IR read over the rationals (``fractions.Fraction``): no rounding, no NaN, no signed zero.

    This is the reading under which report 3's ReLU kernel *is* correct; comparing it with the binary32
    reading shows which verdicts depend on the number system. Casts are the identity; sqrt and opaque
    functions are refused (not rational)."""
    from fractions import Fraction

    memo: dict[int, object] = {}

    def ev(n: Node):
        if id(n) not in memo:
            memo[id(n)] = step(n, [ev(a) for a in n.args])
        return memo[id(n)]

    def step(n: Node, a):
        match n.op:
            case Op.ARG:
                return Fraction(args[int(n.value)])
            case Op.CONST:
                return Fraction(n.value) if n.ty.is_float or n.ty.is_int else bool(n.value)
            case Op.ADD:
                return a[0] + a[1]
            case Op.SUB:
                return a[0] - a[1]
            case Op.MUL:
                return a[0] * a[1]
            case Op.DIV:
                return a[0] / a[1]
            case Op.FMA:
                return a[0] * a[1] + a[2]
            case Op.NEG:
                return -a[0]
            case Op.ABS:
                return abs(a[0])
            case Op.COPYSIGN:
                return abs(a[0]) if a[1] >= 0 else -abs(a[0])
            case Op.FMAX | Op.MAXIMUM:
                return max(a[0], a[1])
            case Op.FMIN | Op.MINIMUM:
                return min(a[0], a[1])
            case Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE:
                x, y = a
                return {Op.LT: x < y, Op.LE: x <= y, Op.GT: x > y, Op.GE: x >= y, Op.EQ: x == y,
                        Op.NE: x != y}[n.op]
            case Op.ISNAN:
                return False
            case Op.AND:
                return a[0] and a[1]
            case Op.OR:
                return a[0] or a[1]
            case Op.NOT:
                return not a[0]
            case Op.SELECT:
                return a[1] if a[0] else a[2]
            case Op.CAST:
                return a[0]
            case Op.SQRT | Op.OPAQUE | Op.REM | Op.PARAM | Op.THREAD | Op.LOAD | Op.CAST_RZ:
                raise FloatsUnsupportedError(f"exact reading: {n.op.value} is not a rational function of the inputs")
        raise AssertionError(f"evaluate_exact: no rule for {n.op}")

    return ev(node)
