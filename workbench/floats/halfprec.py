"""binary16 and bfloat16 as the CUDA headers and ATen define them, inside float32 (stage: floats).

Both formats embed exactly in float32, so the evaluators carry a ``__half``/``__nv_bfloat16`` value as the
float32 with the same value (NaN payloads included: a half NaN's 10 payload bits are the top bits of the
float32 payload; a bfloat16 is the top 16 bits of a float32). This module gives the conversions:

- float32 -> binary16, round to nearest even: ``__float2half``/``__float2half_rn`` (cuda_fp16.hpp: device
  ``cvt.rn.f16.f32``; host ``__internal_float2half`` + the remainder test, RNE, overflow past 65520 to inf),
  ``c10::Half(float)`` in ATen. numpy's float32 -> float16 cast is the same correctly rounded conversion.
- float32 -> bfloat16, round to nearest even: ``__float2bfloat16``/``_rn`` (cuda_bf16.hpp: device
  ``cvt.rn.bf16.f32`` on sm_80+, host ``__internal_float2bfloat16`` + the remainder test), ``c10::BFloat16``
  (``round_to_nearest_even``). Done here on the bits: add 0x7FFF plus the lowest kept bit, drop 16 bits.
- half/bfloat16 -> float32 is exact (``__half2float``: ``cvt.f32.f16``; ``__bfloat162float``: shift left 16).
- A NaN converted to half/bfloat16 keeps its sign and top payload bits here; the headers' host paths and the
  device's ``cvt`` give the canonical NaN 0x7FFF, so under the payload NaN policy with canonical device NaNs
  (``Semantics.canonical_nan``) the result is 0x7FFF.

Arithmetic: ``__hadd``/``__hsub``/``__hmul`` (``add/sub/mul.f16``, bf16 ``fma.rn.bf16`` with 1.0 or -0.0)
and ATen's "compute in float32, round once" both round the exact result once to the format. For + - * / and
sqrt the float32 result rounded again to half or bfloat16 equals that single rounding, because float32 has
at least 2p + 2 significant bits for p = 11 and p = 8 (Figueroa, "When is double rounding innocuous?",
SIGNUM 1995); ``tests/floats`` checks this against gmpy2 contexts of the two formats. A half-precision fma
(``__hfma``) is rounded from double with round-to-odd (53 >= 2p + 2 as well).
"""

from __future__ import annotations

import numpy as np

from workbench.floats.ir import Ty

CANONICAL_NAN16 = 0x7FFF
SIGN16 = 0x8000


def round_to(x, ty: Ty, canonical_nan: bool = False) -> np.ndarray:
    """float32 or float64 values -> the nearest ``ty`` value (ties to even), as float32."""
    x = np.asarray(x)
    if ty is Ty.F16:
        with np.errstate(all="ignore"):
            h = x.astype(np.float16)  # numpy: correctly rounded from float32 and from float64 (npy_*bits_to_halfbits)
        r = np.asarray(h.astype(np.float32))
    elif ty is Ty.BF16:
        if x.dtype == np.float64:
            x = _f64_to_f32_odd(x)  # round to odd at 24 bits, then RNE at 8: one correct rounding
        b = np.asarray(x, dtype=np.float32).view(np.uint32)
        nan = (b & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
        rounded = (b + np.uint32(0x7FFF) + ((b >> np.uint32(16)) & np.uint32(1))) & np.uint32(0xFFFF0000)
        quiet = (b | np.uint32(0x00400000)) & np.uint32(0xFFFF0000)
        r = np.where(nan, quiet, rounded).astype(np.uint32).view(np.float32)
    else:
        raise AssertionError(ty)
    if canonical_nan:
        r = np.where(np.isnan(r), from_bits16(CANONICAL_NAN16, ty), r).astype(np.float32)
    return r


def _f64_to_f32_odd(x: np.ndarray) -> np.ndarray:
    """float64 -> float32 rounding to odd (truncate, then set the last bit if anything was dropped)."""
    with np.errstate(all="ignore"):
        t = x.astype(np.float32)
        back = t.astype(np.float64)
        inexact = np.isfinite(x) & (back != x)
        # truncate toward zero: if RNE went away from zero, step one ulp toward zero
        away = inexact & (np.abs(back) > np.abs(x))
        tb = t.view(np.uint32).copy()
        tb = np.where(away, tb - np.uint32(1), tb).astype(np.uint32)
        tb = np.where(inexact, tb | np.uint32(1), tb).astype(np.uint32)
    return tb.view(np.float32)


def bits16(x, ty: Ty) -> np.ndarray:
    """The 16-bit pattern of float32-carried half/bfloat16 values."""
    x = np.asarray(x, dtype=np.float32)
    if ty is Ty.F16:
        with np.errstate(all="ignore"):
            return x.astype(np.float16).view(np.uint16)
    return (x.view(np.uint32) >> np.uint32(16)).astype(np.uint16)


def from_bits16(b, ty: Ty) -> np.ndarray:
    """16-bit patterns -> float32-carried values (exact)."""
    b = np.asarray(b, dtype=np.uint16)
    if ty is Ty.F16:
        return b.view(np.float16).astype(np.float32)
    return (b.astype(np.uint32) << np.uint32(16)).view(np.float32)


def fma_half(a, b, c, ty: Ty) -> np.ndarray:
    """``fma.rn.f16``/``.bf16``: a*b exact in float64 (22 or 16 bits), the sum rounded to odd at 53 bits
    (TwoSum residual), then once to the format (Boldo & Melquiond 2008)."""
    with np.errstate(all="ignore"):
        p = np.asarray(a, np.float64) * np.asarray(b, np.float64)
        cc = np.asarray(c, np.float64)
        s = p + cc
        bp = s - cc
        err = (p - bp) + (cc - (s - bp))
        sb = np.asarray(s).view(np.int64)
        fix = np.isfinite(s) & (err != 0) & ((sb & 1) == 0)
        step = np.where((err > 0) == (s > 0), 1, -1)
        odd = (sb + fix * step).view(np.float64)
    return round_to(odd, ty)


def classify16(bits: int, ty: Ty) -> str:
    exp_mask, man_mask = (0x7C00, 0x03FF) if ty is Ty.F16 else (0x7F80, 0x007F)
    e, m = bits & exp_mask, bits & man_mask
    sign = "-" if bits & SIGN16 else "+"
    if e == exp_mask:
        return sign + ("nan" if m else "inf")
    if e == 0:
        return sign + ("subnormal" if m else "zero")
    return sign + "normal"


# Special 16-bit patterns for the case split of n-ary half kernels (NaNs, zeros, infinities, subnormals,
# extreme normals, 1 and its neighbours, a few small integers).
SPECIAL16 = {
    Ty.F16: (0x7E00, 0xFE00, 0x7C01, 0x7FFF, 0x0000, 0x8000, 0x7C00, 0xFC00, 0x0001, 0x8001, 0x03FF, 0x83FF,
             0x0400, 0x8400, 0x7BFF, 0xFBFF, 0x3C00, 0xBC00, 0x3C01, 0x3BFF, 0x4000, 0xC000, 0x3800, 0x4200),
    Ty.BF16: (0x7FC0, 0xFFC0, 0x7F81, 0x7FFF, 0x0000, 0x8000, 0x7F80, 0xFF80, 0x0001, 0x8001, 0x007F, 0x807F,
              0x0080, 0x8080, 0x7F7F, 0xFF7F, 0x3F80, 0xBF80, 0x3F81, 0x3F7F, 0x4000, 0xC000, 0x3F00, 0x4040),
}
