"""Block level, value domains: what a float is while the block interpreter runs (stage: floats).

``Reals``: sympy expressions over input symbols ``x{k}_{i}`` (input k, flat element i). Arithmetic is exact;
constants are the exact rationals of their float32/float64 values; ``fmaxf``/``fminf`` are ``Max``/``Min``;
``sqrtf``/``rsqrtf``/``expf``/``logf``/... are uninterpreted functions of their arguments (``rsqrtf(a)`` is
``1/sqrt(a)`` and ``__expf`` is ``exp`` over the reals: they name the same real function, their rounding is a
float32 matter). A comparison of data stays symbolic; ``select`` turns ``a > b ? a : b`` into ``Max``.

``Float32``: numpy vectors, one lane per trial, IEEE 754 binary32 (binary64 for ``double``) with
round-to-nearest-even. ``+ - * /`` and ``sqrt`` are numpy's float32 operations (correctly rounded). A product
is kept with its operands (``Prod``) while it lives in a register, so that an add consuming it becomes one
fused multiply-add when contraction is on (nvcc ``-fmad=true``, the rule of ``floats.ir.contract_fma``);
storing it to memory rounds it. fma is exact: the binary64 sum of the exact product and the addend, with
its TwoSum error, rounded once to binary32 (a binary64 result exactly halfway between two binary32 values
is moved by the sign of the error). ``ftz``: subnormal inputs and results of float32 operations are
flushed to zero of the same sign. Transcendentals are binary64 numpy functions rounded to binary32, a
stand-in, not the device's bits: a run that used one is marked (``Float32.stand_ins``).
"""

from __future__ import annotations

import math

import numpy as np
import sympy

SQRT = sympy.Function("sqrt")
EXP = sympy.Function("exp")
LOG = sympy.Function("log")
TANH = sympy.Function("tanh")
# max/min over the reals as canonical n-ary terms: arguments flattened, deduplicated and sorted (max and min
# are associative, commutative and idempotent), -oo dropped from a max and +oo from a min. sympy's own
# Max/Min compare their arguments pairwise on construction (quadratic, and slow on symbolic arguments);
# these are evaluated as Max/Min only at numbers (``interpreted``).
MAX = sympy.Function("Max")
MIN = sympy.Function("Min")


def extremum(fn, args) -> sympy.Expr:
    flat = set()
    for a in args:
        if isinstance(a, sympy.Expr) and a.func == fn:
            flat.update(a.args)
        else:
            flat.add(a)
    drop = -sympy.oo if fn is MAX else sympy.oo
    flat.discard(drop)
    if not flat:
        return drop
    if len(flat) == 1:
        return flat.pop()
    return fn(*sorted(flat, key=sympy.default_sort_key))


def interpreted(e: sympy.Expr) -> sympy.Expr:
    """The real functions themselves: exp, log, sqrt, tanh, Max and Min of sympy."""
    return (e.replace(EXP, sympy.exp).replace(LOG, sympy.log).replace(SQRT, sympy.sqrt).replace(TANH, sympy.tanh)
            .replace(MAX, sympy.Max).replace(MIN, sympy.Min))
# CUDA names -> the real function each denotes (over the reals an approximate intrinsic is the function it
# approximates; rsqrt is 1/sqrt)
REAL_FUNCTIONS = {"sqrtf": "sqrt", "sqrt": "sqrt", "__fsqrt_rn": "sqrt", "expf": "exp", "__expf": "exp",
                  "exp": "exp", "logf": "log", "__logf": "log", "log": "log", "tanhf": "tanh", "tanh": "tanh",
                  "rsqrtf": "rsqrt", "rsqrt": "rsqrt", "__frsqrt_rn": "rsqrt"}
_UF = {"sqrt": SQRT, "exp": EXP, "log": LOG, "tanh": TANH}


def show_f32(bits: int) -> str:
    v = float(np.array([bits], dtype=np.uint32).view(np.float32)[0])
    return f"0x{bits:08X} ({v!r})"


def f32_bits(x) -> int:
    return int(np.asarray(x, dtype=np.float32).reshape(()).view(np.uint32))


def ulp_distance(a: int, b: int) -> int:
    """Distance of two binary32 bit patterns in the ordered-integer line (0 for equal; -0 and +0 are 1 apart)."""
    def ordered(x: int) -> int:
        return -(x & 0x7FFFFFFF) - 1 if x & 0x80000000 else x
    return abs(ordered(a) - ordered(b))


class Reals:
    """Exact real arithmetic over input symbols (sympy)."""

    name = "reals"

    def const(self, v: float, ty: str):
        if v == math.inf:
            return sympy.oo  # Max(-oo, x) = x: the usual start of a max reduction
        if v == -math.inf:
            return -sympy.oo
        if v != v:
            return sympy.Symbol("nan")
        return sympy.Rational(v) if v != int(v) else sympy.Integer(int(v))

    def from_int(self, i: int, ty: str):
        return sympy.Integer(i)

    def to_int(self, v, ty: str):
        if v.is_Number:
            return int(v)
        raise ValueError("float to integer conversion of data")

    def convert(self, v, ty: str):
        return self.plain(v)

    def plain(self, v):
        return v

    def add(self, a, b, ty):
        return a + b

    def sub(self, a, b, ty):
        return a - b

    def mul(self, a, b, ty):
        return a * b

    def div(self, a, b, ty):
        return a / b

    def neg(self, a, ty):
        return -a

    def fma(self, a, b, c, ty):
        return a * b + c

    def fmax(self, a, b, ty):
        return extremum(MAX, (a, b))

    def fmin(self, a, b, ty):
        return extremum(MIN, (a, b))

    def fabs(self, a, ty):
        return sympy.Abs(a)

    def call(self, name: str, args: list, ty: str):
        fn = REAL_FUNCTIONS.get(name)
        if fn == "rsqrt":
            return 1 / SQRT(args[0])
        if fn is not None:
            return _UF[fn](args[0])
        if name in ("__fdividef", "__fdiv_rn", "fdividef"):
            return args[0] / args[1]
        if name in ("__fadd_rn", "__fadd_rz"):
            return args[0] + args[1]
        if name in ("__fmul_rn", "__fmul_rz"):
            return args[0] * args[1]
        if name in ("__frcp_rn",):
            return 1 / args[0]
        return None

    def cmp(self, op: str, a, b):
        if a.is_Number and b.is_Number:
            return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b, "==": a == b, "!=": a != b}[op] == True  # noqa: E712
        # a comparison of data stays a term (sympy would query assumptions on the difference: slow, and
        # undecidable for input symbols anyway)
        return {"<": sympy.Lt, ">": sympy.Gt, "<=": sympy.Le, ">=": sympy.Ge, "==": sympy.Eq,
                "!=": sympy.Ne}[op](a, b, evaluate=False)

    def truth(self, c):
        """A Python bool, or None when the condition depends on data."""
        if isinstance(c, (bool, np.bool_)):
            return bool(c)
        if c is sympy.true:
            return True
        if c is sympy.false:
            return False
        return None

    def logic(self, op: str, a, b):
        if op == "&&":
            return sympy.And(a, b)
        if op == "||":
            return sympy.Or(a, b)
        return sympy.Not(a)

    def select(self, c, a, b):
        """``c ? a : b`` on data: Max/Min where the condition compares the two values, else Piecewise."""
        if isinstance(c, (sympy.StrictGreaterThan, sympy.GreaterThan)):
            if (c.lhs, c.rhs) == (a, b):
                return extremum(MAX, (a, b))
            if (c.lhs, c.rhs) == (b, a):
                return extremum(MIN, (a, b))
        if isinstance(c, (sympy.StrictLessThan, sympy.LessThan)):
            if (c.lhs, c.rhs) == (a, b):
                return extremum(MIN, (a, b))
            if (c.lhs, c.rhs) == (b, a):
                return extremum(MAX, (a, b))
        if a == b:
            return a
        return sympy.Piecewise((a, c), (b, True))

    def undefined(self, what: str):
        return sympy.Symbol(f"undefined_{what}")


class Prod:
    """A float32 product still in a register: its rounded value and its operands (for contraction)."""

    __slots__ = ("v", "a", "b")

    def __init__(self, v, a, b):
        self.v, self.a, self.b = v, a, b


_F = {"f32": np.float32, "f64": np.float64}


class Float32:
    """IEEE binary32/binary64 over a vector of trials (numpy), with fma contraction and ftz as named."""

    name = "float32"

    def __init__(self, lanes: int, fma: bool = True, ftz: bool = False):
        self.lanes, self.contract, self.ftz = lanes, fma, ftz
        self.stand_ins: set[str] = set()

    def _flush(self, x, ty):
        if not self.ftz or ty != "f32":
            return x
        tiny = np.abs(x) < np.float32(1.1754944e-38)
        return np.where(tiny & (x != 0), np.copysign(np.float32(0), x), x).astype(np.float32)

    def const(self, v: float, ty: str):
        return np.full(self.lanes, v, dtype=_F.get(ty, np.float32))

    def from_int(self, i: int, ty: str):
        return np.full(self.lanes, i, dtype=_F.get(ty, np.float32))

    def to_int(self, v, ty: str):
        v = self.plain(v)
        if np.all(v == v[0]):
            return int(v[0])
        raise ValueError("float to integer conversion of data that differs between trials")

    def plain(self, v):
        return v.v if isinstance(v, Prod) else v

    def convert(self, v, ty: str):
        v = self.plain(v)
        dt = _F.get(ty, np.float32)
        if v.dtype == dt:
            return v
        with np.errstate(over="ignore"):
            return self._flush(v.astype(dt), ty)

    def _ty(self, *xs):
        return "f64" if any(self.plain(x).dtype == np.float64 for x in xs) else "f32"

    def add(self, a, b, ty):
        if self.contract and isinstance(a, Prod):
            return self.fma(a.a, a.b, b, ty)
        if self.contract and isinstance(b, Prod):
            return self.fma(b.a, b.b, a, ty)
        with np.errstate(all="ignore"):
            return self._flush(self.plain(a) + self.plain(b), ty)

    def sub(self, a, b, ty):
        if self.contract and isinstance(a, Prod):
            return self.fma(a.a, a.b, -self.plain(b), ty)
        if self.contract and isinstance(b, Prod):
            return self.fma(-b.a, b.b, a, ty)
        with np.errstate(all="ignore"):
            return self._flush(self.plain(a) - self.plain(b), ty)

    def mul(self, a, b, ty):
        a, b = self.plain(a), self.plain(b)
        with np.errstate(all="ignore"):
            v = self._flush(a * b, ty)
        return Prod(v, a, b) if self.contract else v

    def div(self, a, b, ty):
        with np.errstate(all="ignore"):
            return self._flush(self.plain(a) / self.plain(b), ty)

    def neg(self, a, ty):
        if isinstance(a, Prod):
            return Prod(-a.v, -a.a, a.b)
        return -a

    def fma(self, a, b, c, ty):
        a, b, c = self.plain(a), self.plain(b), self.plain(c)
        if ty == "f64" or a.dtype == np.float64:
            # binary64 fma: exact through Python's fractions (double kernels are rare here)
            from fractions import Fraction

            out = [float(Fraction(x) * Fraction(y) + Fraction(z)) if math.isfinite(x * y + z) else x * y + z
                   for x, y, z in zip(a.tolist(), b.tolist(), c.tolist())]
            return np.array(out, dtype=np.float64)
        with np.errstate(all="ignore"):
            a, b, c = self._flush(a, ty), self._flush(b, ty), self._flush(c, ty)
            p = a.astype(np.float64) * b.astype(np.float64)  # exact: 24 + 24 bits
            c64 = c.astype(np.float64)
            s = p + c64
            bb = s - p  # TwoSum: s + err == p + c exactly (no overflow)
            err = (p - (s - bb)) + (c64 - bb)
            r0 = s.astype(np.float32)
            up = r0.astype(np.float64) > s  # the binary32 neighbours of s: (lo, hi)
            lo = np.where(up, np.nextafter(r0, np.float32(-np.inf)), r0)
            hi = np.where(up, r0, np.nextafter(r0, np.float32(np.inf)))
            tie = (s == (lo.astype(np.float64) + hi.astype(np.float64)) / 2) & (err != 0)
            r = np.where(tie, np.where(err > 0, hi, lo), r0)
            nonfinite = ~np.isfinite(s)
            r = np.where(nonfinite, (a * b + c).astype(np.float32), r)
        return self._flush(r.astype(np.float32), ty)

    def fmax(self, a, b, ty):
        return np.fmax(self.plain(a), self.plain(b))  # IEEE maxNum: a NaN operand is ignored, as fmaxf

    def fmin(self, a, b, ty):
        return np.fmin(self.plain(a), self.plain(b))

    def fabs(self, a, ty):
        return np.abs(self.plain(a))

    def call(self, name: str, args: list, ty: str):
        xs = [self.plain(a) for a in args]
        fn = REAL_FUNCTIONS.get(name)
        with np.errstate(all="ignore"):
            if fn == "sqrt" and name in ("sqrtf", "__fsqrt_rn", "sqrt"):
                return self._flush(np.sqrt(xs[0]), ty)  # sqrt.rn: correctly rounded
            if fn is not None:
                self.stand_ins.add(name)
                x64 = xs[0].astype(np.float64)
                v = {"exp": np.exp, "log": np.log, "tanh": np.tanh, "sqrt": np.sqrt,
                     "rsqrt": lambda t: 1.0 / np.sqrt(t)}[fn](x64)
                return self._flush(v.astype(_F.get(ty, np.float32)), ty)
            if name in ("__fdividef",):
                self.stand_ins.add(name)
                return self._flush(xs[0] / xs[1], ty)
            if name == "__fdiv_rn":
                return self._flush(xs[0] / xs[1], ty)
            if name == "__fadd_rn":
                return self._flush(xs[0] + xs[1], ty)
            if name == "__fmul_rn":
                return self._flush(xs[0] * xs[1], ty)
            if name == "__frcp_rn":
                return self._flush(np.float32(1) / xs[0], ty)
        return None

    def cmp(self, op: str, a, b):
        a, b = self.plain(a), self.plain(b)
        with np.errstate(invalid="ignore"):
            r = {"<": np.less, ">": np.greater, "<=": np.less_equal, ">=": np.greater_equal, "==": np.equal,
                 "!=": np.not_equal}[op](a, b)
        return self._collapse(r)

    def _collapse(self, r):
        if r.all():
            return True
        if not r.any():
            return False
        return r

    def truth(self, c):
        if isinstance(c, (bool, np.bool_)):
            return bool(c)
        return None

    def logic(self, op: str, a, b):
        a = np.full(self.lanes, a) if isinstance(a, bool) else a
        if op == "!":
            return self._collapse(~a)
        b = np.full(self.lanes, b) if isinstance(b, bool) else b
        return self._collapse(a & b if op == "&&" else a | b)

    def select(self, c, a, b):
        a, b = self.plain(a), self.plain(b)
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
            return np.where(c, a, b)
        return np.where(c, a, b)

    def undefined(self, what: str):
        return np.full(self.lanes, np.nan, dtype=np.float32)


__all__ = ["EXP", "Float32", "LOG", "MAX", "MIN", "extremum", "interpreted", "Prod", "REAL_FUNCTIONS", "Reals", "SQRT", "f32_bits", "show_f32",
           "ulp_distance"]
