"""Vectorized bit-exact evaluation of the scalar IR over numpy arrays (stage: floats).

numpy's float32/float64 ``+ - * /`` and ``sqrt`` are the IEEE 754 correctly rounded operations of the host
(x86-64 SSE/AVX, round to nearest even, no flush-to-zero); everything else is built here from bit
operations so that signed zeros and NaNs are exact. ``tests/floats`` checks each op against the gmpy2
binary32 reference (``workbench.floats.reference``) on hard cases and with Hypothesis.

Device semantics (``Semantics``):
- ``ftz``: flush subnormal inputs and results of f32 arithmetic, min/max, comparisons and f64->f32
  conversions to a zero of the same sign (nvcc ``-ftz=true``; PTX ``.ftz``). ``fabsf`` and unary minus
  compile to ``abs.ftz.f32``/``neg.ftz.f32``, which flush subnormal inputs too (PTX ISA, "abs", "neg":
  ".ftz ... flushes subnormal inputs and results to sign-preserving zero"): |-sub| is +0, -(+sub) is -0.
  Loads, stores, selects and copysign move bits and are not flushed.
- ``canonical_nan``: every NaN produced by device arithmetic is 0x7FFFFFFF (PTX ISA: "NaN results are the
  canonical NaN"); only observable under the payload NaN policy.
FMA contraction is a rewrite of the IR (``ir.contract_fma``), not an evaluator flag.

Limits: f64 fma is refused (no exact vectorized model here); integer division by zero is undefined in C and
evaluates to 0 here; OPAQUE ops cannot be evaluated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.floats.errors import FloatsUnsupportedError
from workbench.floats.halfprec import CANONICAL_NAN16, fma_half, from_bits16, round_to
from workbench.floats.ir import Node, Op, Ty, walk

# half and bfloat16 values are carried exactly as float32 (``halfprec``): their sign-bit and comparison
# operations are the float32 ones on the same values.
_NP = {Ty.F32: np.float32, Ty.F64: np.float64, Ty.BOOL: np.bool_, Ty.F16: np.float32, Ty.BF16: np.float32}
_UINT = {Ty.F32: np.uint32, Ty.F64: np.uint64, Ty.F16: np.uint32, Ty.BF16: np.uint32}
_SIGN = {Ty.F32: np.uint32(0x80000000), Ty.F64: np.uint64(0x8000000000000000), Ty.F16: np.uint32(0x80000000),
         Ty.BF16: np.uint32(0x80000000)}
_EXP = {Ty.F32: np.uint32(0x7F800000), Ty.F64: np.uint64(0x7FF0000000000000)}
CANONICAL_NAN_F32 = 0x7FFFFFFF
CANONICAL_NAN_F64 = 0x7FFFFFFFFFFFFFFF


@dataclass(frozen=True, slots=True)
class Semantics:
    ftz: bool = False
    canonical_nan: bool = False


HOST = Semantics()


def as_bits(a, ty: Ty):
    return np.asarray(a, dtype=_NP[ty]).view(_UINT[ty])


def from_bits(b, ty: Ty):
    return np.asarray(b, dtype=_UINT[ty]).view(_NP[ty])


def flush(a, ty: Ty):
    """Subnormal -> zero of the same sign (exponent field zero keeps only the sign bit)."""
    b = as_bits(a, ty)
    return from_bits(select((b & _EXP[ty]) == 0, b & _SIGN[ty], b), ty)


def fma_f32(a, b, c):
    """Exact float32 fma. a*b is exact in double (24+24 <= 53 bits), so s = fl64(a*b + c) has one rounding,
    and fl32(s) can differ from the correctly rounded fma only when s is exactly a float32 midpoint (double
    rounding). Those candidates (a superset: the 28 low bits of s are zero) are redone with round-to-odd:
    the TwoSum error term is the sticky bit, and round-to-odd at >= 2p+2 bits followed by one
    round-to-nearest to binary32 equals one rounding of the exact sum (Boldo & Melquiond, "Emulation of FMA
    and correctly rounded sums: proved algorithms using rounding to odd", IEEE TC 2008)."""
    with np.errstate(all="ignore"):
        a64, b64, c64 = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(b, np.float64),
                                            np.asarray(c, np.float64))
        p = a64 * b64
        s = p + c64
        r = np.asarray(s.astype(np.float32))
        cand = (np.asarray(s).view(np.uint64) & np.uint64(0x0FFFFFFF)) == 0
        if r.ndim == 0:
            return np.float32(_fma_round_to_odd(p.reshape(1), c64.reshape(1))[0])
        if cand.any():
            i = np.flatnonzero(cand.reshape(-1))
            flat = r.reshape(-1)
            flat[i] = _fma_round_to_odd(p.reshape(-1)[i], c64.reshape(-1)[i])
        return r


def _fma_round_to_odd(p, c):
    s = p + c
    bp = s - c
    err = (p - bp) + (c - (s - bp))  # TwoSum (Knuth): s + err == p + c exactly when finite
    sb = s.view(np.int64)
    fix = np.isfinite(s) & (err != 0) & ((sb & 1) == 0)
    # one ulp toward the exact value: up in magnitude when err has the sign of s, else down (s != 0 here:
    # s == 0 implies the sum was exact)
    step = np.where((err > 0) == (s > 0), 1, -1)
    return (sb + fix * step).view(np.float64).astype(np.float32)


def select(c, a, b):
    """``np.where(c, a, b)`` without its slow scalar broadcast (numpy 2.4: ~5 ns/element with a scalar
    operand, ~1.3 ns with copyto). Copies bits exactly, NaN payloads included."""
    c = np.asarray(c)
    a = np.asarray(a)
    b = np.asarray(b)
    shape = np.broadcast_shapes(c.shape, a.shape, b.shape)
    if not shape:
        return np.where(c, a, b)[()]
    dtype = np.result_type(a.dtype, b.dtype)
    # A uniform condition picks one side whole (common in sweeps: a chunk lies in one exponent band). The
    # result is a read-only view when it broadcasts, so nothing downstream can write into a shared operand.
    if c.all():
        return np.broadcast_to(a.astype(dtype, copy=False), shape)
    if not c.any():
        return np.broadcast_to(b.astype(dtype, copy=False), shape)
    out = np.empty(shape, dtype=dtype)
    np.copyto(out, b)
    np.copyto(out, a, where=c)
    return out


def canonical_nan(ty: Ty):
    """The NaN device arithmetic returns: 0x7FFFFFFF (f32), 0x7FFF (f16/bf16 ``max``, ``cvt``), all ones (f64)."""
    if ty.is_half:
        return from_bits16(CANONICAL_NAN16, ty)[()]
    return from_bits(CANONICAL_NAN_F32 if ty is Ty.F32 else CANONICAL_NAN_F64, ty)


def _canon(r, ty: Ty, sem: Semantics):
    if not sem.canonical_nan:
        return r
    return select(np.isnan(r), canonical_nan(ty), r)


def _wrap(x, ty: Ty):
    x = np.asarray(x, dtype=np.int64)
    match ty:
        case Ty.I32:
            return ((x + 2**31) & 0xFFFFFFFF) - 2**31
        case Ty.U32:
            return x & 0xFFFFFFFF
        case Ty.I64 | Ty.U64:
            return x
    raise AssertionError(ty)


def evaluate(node: Node, env: dict, sem: Semantics = HOST):
    """Evaluate ``node``; ``env`` maps ARG numbers (int) and PARAM/THREAD names (str) to arrays, and
    LOAD array names to the array indexed by the load's index."""
    return evaluate_all((node,), env, sem)[0]


def evaluate_all(nodes, env: dict, sem: Semantics = HOST, structural: bool = False) -> list:
    """Evaluate several nodes sharing one memo (common subexpressions are computed once). With
    ``structural`` equal subtrees of different roots (a kernel's element function and the spec) are
    computed once: valid because evaluation depends only on the node and ``sem``."""
    return Program(tuple(nodes), structural).run(env, sem)


class Program:
    """``nodes`` compiled once into a straight-line list of steps (children first, each distinct node once),
    so a sweep that evaluates the same DAG on thousands of chunks pays for the walk and the (recursive,
    uncached) structural hashing of frozen nodes once, not once per chunk."""

    def __init__(self, nodes: tuple[Node, ...], structural: bool = False):
        slot: dict[object, int] = {}
        steps: list[tuple[Node, tuple[int, ...]]] = []
        for root in nodes:
            for n in walk(root):
                key = n if structural else id(n)
                if key in slot:
                    continue
                kids = tuple(slot[a if structural else id(a)] for a in n.args)
                slot[key] = len(steps)
                steps.append((n, kids))
        self.steps = tuple(steps)
        self.roots = tuple(slot[r if structural else id(r)] for r in nodes)

    def run(self, env: dict, sem: Semantics = HOST) -> list:
        vals: list = [None] * len(self.steps)
        with np.errstate(all="ignore"):
            for i, (n, kids) in enumerate(self.steps):
                vals[i] = _eval(n, [vals[k] for k in kids], env, sem)
        return [vals[r] for r in self.roots]


def _eval(n: Node, a, env, sem: Semantics):
    ty = n.ty
    f32_dev = ty is Ty.F32 and sem.ftz

    def fin(x, i: int = 0):  # flush an f32 operand under FTZ (half/bfloat16 operands are not f32 operations)
        return flush(x, Ty.F32) if sem.ftz and n.args[i].ty is Ty.F32 else x

    def out(r):  # result of a rounding op on the device
        if f32_dev:
            r = flush(r, ty)
        return _canon(r, ty, sem)

    match n.op:
        case Op.ARG:
            return env[int(n.value)]
        case Op.CONST:
            if ty.is_float or ty is Ty.BOOL:
                return _NP[ty](n.value)
            return np.int64(int(n.value))
        case Op.PARAM | Op.THREAD:
            return env[n.name]
        case Op.LOAD:
            return np.asarray(env[n.name])[a[0]]
        case Op.ADD | Op.SUB | Op.MUL | Op.DIV if ty.is_half:
            # one rounding to the format: the float32 result is rounded again, which is innocuous (halfprec)
            f = {Op.ADD: np.add, Op.SUB: np.subtract, Op.MUL: np.multiply, Op.DIV: np.divide}[n.op]
            return round_to(f(np.asarray(a[0], np.float32), np.asarray(a[1], np.float32)), ty, sem.canonical_nan)
        case Op.SQRT if ty.is_half:
            return round_to(np.sqrt(np.asarray(a[0], np.float32)), ty, sem.canonical_nan)
        case Op.FMA if ty.is_half:
            return round_to(fma_half(a[0], a[1], a[2], ty), ty, sem.canonical_nan)
        case Op.CAST if ty.is_half:
            if n.args[0].ty.is_int:
                return round_to(np.asarray(a[0], np.float64), ty, sem.canonical_nan)
            x = a[0] if n.args[0].ty is not Ty.F32 or not sem.ftz else flush(a[0], Ty.F32)  # cvt.ftz flushes f32 in
            return round_to(x, ty, sem.canonical_nan)
        case Op.ADD | Op.SUB | Op.MUL | Op.DIV if ty.is_float:
            x, y = fin(a[0]), fin(a[1], 1)
            r = {Op.ADD: np.add, Op.SUB: np.subtract, Op.MUL: np.multiply, Op.DIV: np.divide}[n.op](x, y)
            return out(np.asarray(r, dtype=_NP[ty]))
        case Op.ADD | Op.SUB | Op.MUL:
            r = {Op.ADD: np.add, Op.SUB: np.subtract, Op.MUL: np.multiply}[n.op](a[0], a[1])
            return _wrap(r, ty)
        case Op.DIV | Op.REM:
            x, y = np.asarray(a[0], np.int64), np.asarray(a[1], np.int64)
            safe = np.where(y == 0, 1, y)
            q = np.sign(x) * np.sign(safe) * (np.abs(x) // np.abs(safe))  # C11 6.5.5p6: truncation
            q = np.where(y == 0, 0, q)
            return _wrap(q if n.op is Op.DIV else np.where(y == 0, 0, x - q * safe), ty)
        case Op.FMA:
            if ty is not Ty.F32:
                raise FloatsUnsupportedError(
                    "a double-precision fused multiply-add (from contracting a double `a*b+c`) is not modelled "
                    "bit-exactly; run with --fma off, or write the constant as a float literal (`0.01f`)")
            return out(fma_f32(fin(a[0]), fin(a[1], 1), fin(a[2], 2)))
        case Op.SQRT:
            return out(np.sqrt(fin(a[0])).astype(_NP[ty]))
        case Op.NEG:
            return from_bits(as_bits(fin(a[0]), ty) ^ _SIGN[ty], ty)
        case Op.ABS:
            return from_bits(as_bits(fin(a[0]), ty) & ~_SIGN[ty], ty)
        case Op.COPYSIGN:
            return from_bits((as_bits(a[0], ty) & ~_SIGN[ty]) | (as_bits(a[1], ty) & _SIGN[ty]), ty)
        case Op.FMAX | Op.FMIN | Op.MAXIMUM | Op.MINIMUM if ty.is_float:
            x, y = fin(a[0]), fin(a[1], 1)
            bx, by = as_bits(x, ty), as_bits(y, ty)
            is_max = n.op in (Op.FMAX, Op.MAXIMUM)
            r = select(x > y, x, y) if is_max else select(x < y, x, y)
            if n.op in (Op.FMAX, Op.FMIN):
                # equal operands (only +0/-0 differ in bits): maximumNumber keeps +0, minimumNumber -0.
                # torch.maximum/minimum keep the second operand (AVX2 max_ps/min_ps, ATen's vectorized
                # path; its scalar tail orders -0 < +0 instead: measured, see docs/floats.md).
                eq = x == y
                if eq.any():  # the bit merge is only needed where the operands are equal
                    r = select(eq, from_bits((bx & by) if is_max else (bx | by), ty), r)
            nx, ny = np.isnan(x), np.isnan(y)
            has_x, has_y = bool(np.any(nx)), bool(np.any(ny))  # most sweep chunks hold no NaN: skip the selects
            if n.op in (Op.FMAX, Op.FMIN):  # maximumNumber: a NaN operand is ignored
                if has_y:
                    r = select(ny, x, r)
                if has_x:
                    r = select(nx, y, r)
                if sem.canonical_nan and has_x and has_y:
                    r = select(nx & ny, canonical_nan(ty), r)
            else:  # torch.maximum/minimum: the first NaN operand is returned (ATen scalar path)
                if has_y:
                    r = select(ny, y, r)
                if has_x:
                    r = select(nx, x, r)
            return np.asarray(r, dtype=_NP[ty])
        case Op.FMAX | Op.FMIN | Op.MAXIMUM | Op.MINIMUM:
            return np.maximum(a[0], a[1]) if n.op in (Op.FMAX, Op.MAXIMUM) else np.minimum(a[0], a[1])
        case Op.LT | Op.LE | Op.GT | Op.GE | Op.EQ | Op.NE:
            x, y = fin(a[0]), fin(a[1], 1)
            f = {Op.LT: np.less, Op.LE: np.less_equal, Op.GT: np.greater, Op.GE: np.greater_equal,
                 Op.EQ: np.equal, Op.NE: np.not_equal}[n.op]
            return f(x, y)
        case Op.ISNAN:
            return np.isnan(a[0])
        case Op.AND:
            return np.logical_and(a[0], a[1])
        case Op.OR:
            return np.logical_or(a[0], a[1])
        case Op.NOT:
            return np.logical_not(a[0])
        case Op.SELECT:
            return select(a[0], a[1], a[2])
        case Op.CAST:
            src = n.args[0].ty
            x = a[0]
            if ty.is_float:
                if src is Ty.F32 and ty is Ty.F64 and sem.ftz:
                    x = flush(x, Ty.F32)
                r = np.asarray(x).astype(_NP[ty])
                if ty is Ty.F32 and src is Ty.F64:
                    r = out(r)
                elif ty is Ty.F64 and src is Ty.F32:
                    r = _canon(r, ty, sem) if sem.canonical_nan else r
                return r
            if ty is Ty.BOOL:
                return np.asarray(x) != 0
            if src.is_float:
                return _wrap(np.trunc(np.nan_to_num(np.asarray(x, np.float64))).astype(np.int64), ty)
            return _wrap(np.asarray(x).astype(np.int64), ty)
        case Op.CAST_RZ:
            # round to nearest, then one step toward zero where that rounded away from zero: the two
            # neighbours of x bracket it, so this is roundTowardZero (overflow gives FLT_MAX, NaN stays NaN)
            x = np.asarray(a[0], np.float64)
            with np.errstate(over="ignore"):
                r = x.astype(np.float32)
            away = np.abs(r.astype(np.float64)) > np.abs(x)
            if away.any():
                r = np.where(away, np.nextafter(r, np.float32(0)), r).astype(np.float32)
            return out(np.asarray(r, np.float32))
        case Op.OPAQUE:
            raise FloatsUnsupportedError(
                f"`{n.name}` is not modelled bit-exactly (its result depends on the device/library); "
                "such kernels get the verdict 'undecided', never a sweep")
    raise AssertionError(f"evaluate: no rule for {n.op} on {ty}")
