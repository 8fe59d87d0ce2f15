"""Half, bfloat16 and two-output corpus kernels: committed verdicts against an oracle sharing no code with the
evaluator (issue 16: "each with an independent check").

Written here from each kernel's C source and ATen's CUDA kernel of each spec (spec device cuda, the table's
first target fma=on ftz=off), with numpy float32 arithmetic and gmpy2 for every rounding to binary16
(``gmpy2.ieee(16)``) and bfloat16 (an MPFR context of 8 bits with binary32's exponent range), never with
``workbench.floats.halfprec``. Unary half/bfloat16 kernels are checked on all 2**16 inputs (the exact
mismatch count must equal the committed one); binary kernels on every pair of special values plus 2**14
random pairs; witnesses must reproduce bit for bit.
"""

from __future__ import annotations

import json
from pathlib import Path

import gmpy2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
TARGET = "fma=on ftz=off"
f32 = np.float32
CTX = {"f16": gmpy2.ieee(16), "bf16": gmpy2.context(precision=8, emin=-132, emax=128, subnormalize=True)}


def rnd(x, fmt: str) -> np.ndarray:
    """Round float32 values to the format with MPFR (NaN stays NaN, its payload is not modelled)."""
    x = np.asarray(x, dtype=f32)
    uniq, inv = np.unique(x.view(np.uint32), return_inverse=True)
    vals = uniq.view(f32)
    out = np.array([v if v != v else f32(float(CTX[fmt].plus(gmpy2.mpfr(float(v), 53)))) for v in vals.tolist()],
                   dtype=f32)
    return out[inv].reshape(x.shape)


def bits(x, fmt: str) -> np.ndarray:
    """16-bit patterns of exactly representable values, computed by hand (sign, exponent, fraction)."""
    x = np.asarray(x, dtype=f32)
    u = x.view(np.uint32).astype(np.uint64)
    if fmt == "bf16":
        return (u >> 16).astype(np.uint16)
    sign = ((u >> 31) << 15).astype(np.uint64)
    a = np.abs(x.astype(np.float64))
    out = np.zeros(x.shape, dtype=np.uint64)
    with np.errstate(all="ignore"):
        e = np.floor(np.log2(np.where(a > 0, a, 1.0))).astype(np.int64)
        normal = (a >= 2.0 ** -14) & np.isfinite(a)
        frac_n = np.round((a / 2.0 ** e - 1) * 1024).astype(np.int64)
        out = np.where(normal, ((e + 15) << 10) + frac_n, out)
        sub = (a > 0) & (a < 2.0 ** -14)
        out = np.where(sub, np.round(a / 2.0 ** -24).astype(np.int64), out)
        out = np.where(np.isinf(a), 0x7C00, out)
        out = np.where(np.isnan(x), 0x7E00, out)
    return (out.astype(np.uint64) | sign).astype(np.uint16)


def value(b: int, fmt: str) -> f32:
    if fmt == "bf16":
        return np.array([b << 16], dtype=np.uint32).view(f32)[0]
    s, e, m = b >> 15, (b >> 10) & 0x1F, b & 0x3FF
    v = float("nan") if e == 31 and m else float("inf") if e == 31 else (m * 2.0 ** -24 if e == 0 else
                                                                        (1 + m / 1024) * 2.0 ** (e - 15))
    return f32(-v if s else v)


def fmaxf(a, b):
    r = np.where(a > b, a, b)
    r = np.where(np.isnan(b), a, np.where(np.isnan(a), b, r))
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a) & np.signbit(b), f32(-0.0), f32(0.0)), r).astype(f32)


def fminf(a, b):
    r = np.where(a < b, a, b)
    r = np.where(np.isnan(b), a, np.where(np.isnan(a), b, r))
    zeros = (a == 0) & (b == 0)
    return np.where(zeros, np.where(np.signbit(a) | np.signbit(b), f32(-0.0), f32(0.0)), r).astype(f32)


def sel(c, a, b):
    return np.where(c, a, b).astype(f32)


def nan_first(x, r):
    return sel(np.isnan(x), x, r)


def fma32(a, b, c):
    ctx = gmpy2.ieee(32)
    return np.array([float(ctx.fma(gmpy2.mpfr(float(x)), gmpy2.mpfr(float(y)), gmpy2.mpfr(float(z))))
                     for x, y, z in np.broadcast(a, b, c)], dtype=f32).reshape(np.broadcast(a, b, c).shape)


H, B = "f16", "bf16"
SIXTH = f32(1) / f32(6)
# program -> (format, PyTorch on CUDA: each ATen op in float32, rounded once to the format)
SPECS = {
    "relu_f16": (H, lambda x: rnd(nan_first(x, fmaxf(x, f32(0))), H)),
    # cuda/Loops.cuh reads a Python-number operand of mul/add through the iterator's common dtype: half(0.1)
    "scale_shift_f16": (H, lambda x: rnd(rnd(x * rnd(f32(0.1), H), H) + f32(0.5), H)),
    "leaky_relu_bf16": (B, lambda x: rnd(sel(x > 0, x, x * f32(0.01)), B)),
    "abs_bf16": (B, lambda x: np.abs(x)),
    "hardsigmoid_f16": (H, lambda x: rnd(sel(x + 3 > 6, f32(6), sel(x + 3 < 0, f32(0), x + f32(3))) * SIXTH, H)),
    "add_f16": (H, lambda a, b: rnd(a + b, H)),
    "mul_bf16": (B, lambda a, b: rnd(a * b, B)),
    "relu_scale_pair": (None, lambda x: (nan_first(x, fmaxf(x, f32(0))), x * f32(2))),
    "minmax_pair": (None, lambda a, b: (nan_first(a, nan_first(b, fmaxf(a, b))), nan_first(a, nan_first(b, fminf(a, b))))),
    "neg_square_f16_pair": (H, lambda x: (-x, rnd(x * x, H))),
}
# (program, kernel file) -> the kernel as its C source computes it
KERNELS = {
    ("relu_f16", "float_ternary"): lambda x: rnd(sel(x > 0, x, f32(0)), H),
    ("relu_f16", "hmax"): lambda x: fmaxf(x, f32(0)),
    ("relu_f16", "nan_aware"): lambda x: sel(np.isnan(x), x, fmaxf(x, f32(0))),
    ("scale_shift_f16", "float_fused"): lambda x: rnd(fma32(x, f32(0.1), f32(0.5)), H),
    ("scale_shift_f16", "two_roundings"): lambda x: rnd(rnd(x * f32(0.1), H) + f32(0.5), H),
    ("scale_shift_f16", "half_ops"): lambda x: rnd(rnd(x * rnd(f32(0.1), H), H) + f32(0.5), H),
    ("leaky_relu_bf16", "float_math"): lambda x: rnd(sel(x > 0, x, x * f32(0.01)), B),
    ("leaky_relu_bf16", "bf16_mul"): lambda x: sel(x > 0, x, rnd(x * rnd(f32(0.01), B), B)),
    ("abs_bf16", "habs"): lambda x: np.abs(x),
    ("abs_bf16", "ternary"): lambda x: rnd(sel(x < 0, -x, x), B),
    ("hardsigmoid_f16", "mul_sixth"): lambda x: rnd(sel(x + 3 < 0, f32(0), sel(x + 3 > 6, f32(6), x + f32(3))) * SIXTH, H),
    ("hardsigmoid_f16", "fminf_div"): lambda x: rnd(fminf(fmaxf(x + f32(3), f32(0)), f32(6)) / f32(6), H),
    ("add_f16", "hadd"): lambda a, b: rnd(a + b, H),
    ("add_f16", "operator_grid_stride"): lambda a, b: rnd(a + b, H),
    ("mul_bf16", "hmul"): lambda a, b: rnd(a * b, B),
    ("mul_bf16", "float_product"): lambda a, b: rnd(a * b, B),
    ("relu_scale_pair", "nan_aware"): lambda x: (sel(np.isnan(x), x, fmaxf(x, f32(0))), x * f32(2)),
    ("relu_scale_pair", "fmaxf"): lambda x: (fmaxf(x, f32(0)), x + x),
    ("minmax_pair", "fmaxf_fminf"): lambda a, b: (fmaxf(a, b), fminf(a, b)),
    ("minmax_pair", "nan_aware"): lambda a, b: tuple(
        sel(np.isnan(a) | np.isnan(b), sel(np.isnan(a), a, b), m) for m in (fmaxf(a, b), fminf(a, b))),
    ("neg_square_f16_pair", "half_ops"): lambda x: (-x, rnd(x * x, H)),
}
SPECIAL16 = {H: [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x0400, 0x7BFF, 0xFBFF, 0x7C00, 0xFC00, 0x7E00, 0xFE00,
                 0x3C00, 0xBC00, 0x3C01, 0x3BFF, 0x3800, 0x4200],
             B: [0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x0080, 0x7F7F, 0xFF7F, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0,
                 0x3F80, 0xBF80, 0x3F81, 0x3F7F, 0x3F00, 0x4040]}
SPECIAL32 = [0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
             0x7FC00000, 0xFFC00000, 0x3F800000, 0xBF800000, 0x3F800001, 0x40000000]


def _rows() -> dict:
    doc = json.loads((ROOT / "data/floats/verdicts.json").read_text())
    return {(v["spec"], v["cuda_function"].split(" (")[0]): v for v in doc["verdicts"] if v["target"] == TARGET}


ROWS = _rows()


def _same(a, b) -> np.ndarray:
    a, b = np.asarray(a, f32), np.asarray(b, f32)
    return (a.view(np.uint32) == b.view(np.uint32)) | (np.isnan(a) & np.isnan(b))


def _inputs(fmt, arity: int) -> list[np.ndarray]:
    if arity == 1 and fmt:
        return [np.array([value(b, fmt) for b in range(1 << 16)], dtype=f32)]
    rng = np.random.default_rng(16)
    if fmt:
        sp = np.array([value(b, fmt) for b in SPECIAL16[fmt]], dtype=f32)
        rand = [np.array([value(int(b), fmt) for b in rng.integers(0, 1 << 16, 1 << 14)], dtype=f32)
                for _ in range(arity)]
    else:
        sp = np.array(SPECIAL32, dtype=np.uint32).view(f32)
        rand = [np.float32(rng.normal(0, 3, 1 << 14)) for _ in range(arity)]
    grid = [g.reshape(-1) for g in np.meshgrid(*([sp] * arity), indexing="ij")]
    return [np.concatenate([g, r]) for g, r in zip(grid, rand)]


def test_every_half_and_pair_row_has_an_oracle() -> None:
    mine = {k for k in ROWS if k[0] in SPECS}
    assert mine == set(KERNELS), mine ^ set(KERNELS)
    assert len(KERNELS) >= 20


@pytest.mark.parametrize("key", sorted(KERNELS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_committed_half_or_pair_verdict_agrees_with_an_independent_oracle(key) -> None:
    row = ROWS[key]
    fmt, spec = SPECS[key[0]]
    kernel = KERNELS[key]
    arity = spec.__code__.co_argcount
    xs = _inputs(fmt, arity)
    with np.errstate(all="ignore"):
        got, want = kernel(*xs), spec(*xs)
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    bad = sum(int((~_same(g, w)).sum()) for g, w in zip(got, want))
    for w in row["witnesses"]:  # each witness reproduces in the oracle, in the row's bit format
        ins = [np.array([value(int(b, 16), fmt) if fmt else np.uint32(int(b, 16)).view(f32)], dtype=f32)
               for b in w["inputs"]]
        with np.errstate(all="ignore"):
            k, s = kernel(*ins), spec(*ins)
        k = k if isinstance(k, tuple) else (k,)
        s = s if isinstance(s, tuple) else (s,)
        hit = [j for j in range(len(k)) if not _same(k[j], s[j]).all()]
        assert hit, (key, w["text"])
        j = hit[0]
        show = (lambda v: int(bits(v, fmt)[0])) if fmt else (lambda v: int(np.asarray(v, f32).view(np.uint32)[0]))
        if not np.isnan(k[j]).all():
            assert show(k[j]) == int(w["kernel"], 16), (key, w["text"])
        if not np.isnan(s[j]).all():
            assert show(s[j]) == int(w["spec"], 16), (key, w["text"])
    match row["status"]:
        case "equivalent":
            assert bad == 0 and arity == 1, key
        case "no counterexample":
            assert bad == 0, key
        case "not equivalent":
            assert bad > 0 and row["witnesses"], key
            if fmt and arity == 1 and row["mismatches"] is not None:  # exhaustive on both sides: equal counts
                assert bad == row["mismatches"], (key, bad, row["mismatches"])
        case other:
            pytest.fail(f"{key}: unexpected status {other}")
