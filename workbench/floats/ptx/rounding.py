"""Exact binary32 rounding in the four IEEE directions, vectorized with numpy (stage: floats/ptx).

Every PTX float32 operation with a rounding modifier (``.rn``, ``.rz``, ``.rm``, ``.rp``; PTX ISA "Floating
Point Instructions", rounding modifiers) is one exact operation followed by one rounding. The exact value is
carried as ``s + e`` where ``s`` is a double and ``e`` only has to have the right sign:

- product ``a*b`` of two binary32 values: exact in a double (24 + 24 <= 53 bits), ``e = 0``;
- sum ``x + y`` of two doubles: ``s = fl(x + y)`` and ``e`` from TwoSum (Knuth, TAOCP 4.2.2 Thm B), exact
  without overflow, which cannot happen for binary32 inputs (|a*b| <= 2**256);
- quotient / square root: ``s`` is the correctly rounded double; ``e``'s sign is only needed when ``s`` is a
  binary32 value or a binary32 midpoint (<= 25 bits), and then ``s*b`` (``s*s``) is exact, so comparing it
  with the dividend (radicand) gives the sign of the residual.

Rounding ``s + e`` (``round32``): ``lo <= s <= hi`` are the neighbouring binary32 values of ``s`` (infinity
beyond the largest finite). As ``|e|`` is below half an ulp of ``s`` in binary64 and every binary32 value is
a double, the exact value lies strictly between ``lo`` and ``hi`` whenever ``s`` is not a binary32 value, so
RZ/RM/RP pick a side from ``s`` alone; when ``s`` is one, ``e``'s sign says whether to step. For RN, numpy's
double->single conversion is exact unless ``s`` is a midpoint with ``e != 0`` (the double-rounding case), where
``e``'s sign decides. Computing in double and rounding once is NOT an fma model (NOTES): that case is why ``e``
is carried. The gmpy2 tests (``tests/floats_ptx``) check every mode on signed zeros, subnormals, ties,
overflow and random operands.
"""

from __future__ import annotations

import enum

import numpy as np


class Rnd(enum.Enum):
    RN = "rn"  # to nearest, ties to even (IEEE 754-2019 4.3.1)
    RZ = "rz"  # toward zero (4.3.2)
    RM = "rm"  # toward -inf
    RP = "rp"  # toward +inf


F32_MAX = np.float32(3.4028234663852886e38)


def two_sum(x, y):
    with np.errstate(all="ignore"):
        s = x + y
        bb = s - x
        e = (x - (s - bb)) + (y - bb)
    return s, e


def neighbours32(s):
    """(lo, hi): the binary32 values (float64 arrays) with lo <= s <= hi and nothing between."""
    with np.errstate(all="ignore"):
        r = s.astype(np.float32)
        r64 = r.astype(np.float64)
        up = np.nextafter(r, np.float32(np.inf)).astype(np.float64)
        down = np.nextafter(r, np.float32(-np.inf)).astype(np.float64)
        lo = np.where(r64 > s, down, r64)
        hi = np.where(r64 < s, up, r64)
    return lo, hi, r


def round32(s, e, mode: Rnd):
    """Round the exact value ``s + e`` (s finite double, sign(e) meaningful) to binary32 (float32 array)."""
    s = np.asarray(s, np.float64)
    e = np.broadcast_to(np.asarray(e, np.float64), s.shape)
    lo, hi, r = neighbours32(s)
    exact = lo == hi  # s is a binary32 value
    with np.errstate(all="ignore"):
        up = np.nextafter(s.astype(np.float32), np.float32(np.inf)).astype(np.float64)
        down = np.nextafter(s.astype(np.float32), np.float32(-np.inf)).astype(np.float64)
        match mode:
            case Rnd.RN:
                hi_m = np.where(np.isinf(hi), 2.0**128, hi)
                lo_m = np.where(np.isinf(lo), -(2.0**128), lo)
                mid = (lo_m + hi_m) * 0.5 == s
                out = np.where(mid & (e > 0), hi, np.where(mid & (e < 0), lo, r.astype(np.float64)))
            case Rnd.RZ:
                toward = np.where(s > 0, np.where(e < 0, down, s), np.where(e > 0, up, s))
                out = np.where(exact, toward, np.where(s > 0, lo, hi))
            case Rnd.RM:
                out = np.where(exact, np.where(e < 0, down, s), lo)
            case Rnd.RP:
                out = np.where(exact, np.where(e > 0, up, s), hi)
    return out.astype(np.float32)


def _special(*xs):
    m = np.zeros(np.broadcast(*xs).shape, bool)
    for x in xs:
        m = m | ~np.isfinite(x)
    return m


def _zero_sign_rm(res, x, y):
    """Exact zero sums in RM are -0 unless both addends are +0 (IEEE 754-2019 6.3)."""
    z = res == 0
    neg = np.signbit(x) | np.signbit(y)
    return np.where(z, np.where(neg, np.float32(-0.0), np.float32(0.0)), res)


def add32(a, b, mode: Rnd):
    """a + b (float32 arrays) rounded once in ``mode``."""
    with np.errstate(all="ignore"):
        if mode is Rnd.RN:
            return np.asarray(a + b, np.float32)
        a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
        s, e = two_sum(a64, b64)
        sp = _special(a64, b64)
        res = round32(np.where(sp, 0.0, s), np.where(sp, 0.0, e), mode)
        res = np.where(sp, np.asarray(a + b, np.float32), res)
        if mode is Rnd.RM:
            res = np.where(sp, res, _zero_sign_rm(res, a64, b64))
        return res.astype(np.float32)


def mul32(a, b, mode: Rnd):
    with np.errstate(all="ignore"):
        if mode is Rnd.RN:
            return np.asarray(a * b, np.float32)
        p = np.asarray(a, np.float64) * np.asarray(b, np.float64)
        sp = ~np.isfinite(p)
        res = round32(np.where(sp, 0.0, p), 0.0, mode)
        # an exact zero product keeps the sign of the exact product in every mode
        return np.where(sp, np.asarray(a * b, np.float32), np.where(p == 0, p.astype(np.float32), res))


def fma32(a, b, c, mode: Rnd):
    """a*b + c with one rounding (IEEE 754-2019 5.4.1 fusedMultiplyAdd)."""
    with np.errstate(all="ignore"):
        p = np.asarray(a, np.float64) * np.asarray(b, np.float64)
        c64 = np.asarray(c, np.float64)
        s, e = two_sum(p, c64)
        sp = _special(p, c64)
        res = round32(np.where(sp, 0.0, s), np.where(sp, 0.0, e), mode)
        naive = np.asarray(p + c64).astype(np.float32)  # right for inf/NaN operands
        res = np.where(sp, naive, res)
        z = (s == 0) & ~sp  # exact zero: + unless both addends are -0 (RN/RZ/RP), - unless both + (RM)
        if mode is Rnd.RM:
            zero = np.where(np.signbit(p) | np.signbit(c64), np.float32(-0.0), np.float32(0.0))
        else:
            zero = np.where(np.signbit(p) & np.signbit(c64), np.float32(-0.0), np.float32(0.0))
        return np.where(z, zero, res).astype(np.float32)


def div32(a, b, mode: Rnd):
    with np.errstate(all="ignore"):
        if mode is Rnd.RN:
            return np.asarray(np.float32(a) / np.float32(b), np.float32) if np.ndim(a) == 0 and np.ndim(b) == 0 \
                else np.asarray(np.divide(a, b, dtype=np.float32), np.float32)
        a64, b64 = np.asarray(a, np.float64), np.asarray(b, np.float64)
        q = a64 / b64
        sp = ~np.isfinite(q) | (q == 0) | ~np.isfinite(a64) | ~np.isfinite(b64)
        t = q * b64  # exact where it matters (q a binary32 value or midpoint)
        e = np.where(a64 > t, 1.0, np.where(a64 < t, -1.0, 0.0)) * np.sign(b64)
        res = round32(np.where(sp, 1.0, q), np.where(sp, 0.0, e), mode)
        return np.where(sp, np.divide(a, b, dtype=np.float32), res).astype(np.float32)


def sqrt32(a, mode: Rnd):
    with np.errstate(all="ignore"):
        if mode is Rnd.RN:
            return np.sqrt(np.asarray(a, np.float32))
        a64 = np.asarray(a, np.float64)
        q = np.sqrt(a64)
        sp = ~np.isfinite(q) | (q == 0)
        t = q * q
        e = np.where(a64 > t, 1.0, np.where(a64 < t, -1.0, 0.0))
        res = round32(np.where(sp, 1.0, q), np.where(sp, 0.0, e), mode)
        return np.where(sp, np.sqrt(np.asarray(a, np.float32)), res).astype(np.float32)


def from_int32(x, mode: Rnd):
    """An integer array (|x| < 2**53) to binary32 in ``mode``."""
    x64 = np.asarray(x, np.float64)
    return round32(x64, 0.0, mode)


def round_integral(x, mode: Rnd):
    """Round a float array to an integral value of the same format (cvt.rni/.rzi/.rmi/.rpi)."""
    match mode:
        case Rnd.RN:
            return np.rint(x)
        case Rnd.RZ:
            return np.trunc(x)
        case Rnd.RM:
            return np.floor(x)
        case Rnd.RP:
            return np.ceil(x)
