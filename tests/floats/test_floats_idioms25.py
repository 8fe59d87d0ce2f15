"""Issue 25's held-out idioms at the source level: ``while`` grid-stride loops, ``if`` inside a
``__device__`` helper and ``__saturatef`` are decided, each against a plain numpy oracle written here
(case split only: seconds)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.floats.check import Target, check
from workbench.floats.cuda import parse_kernel
from workbench.floats.errors import CudaUnsupportedError
from workbench.floats.evaluate import Semantics, evaluate
from workbench.floats.gate import element_functions, gate
from workbench.floats.spec import capture_spec

FAST = dict(exhaustive=False, random_cases=1 << 12)


def _files(tmp_path: Path, program: str, kernel: str) -> tuple[Path, Path]:
    s, k = tmp_path / "spec.py", tmp_path / "k.cu"
    s.write_text(f"import torch\n\n\ndef program(x):\n    return {program}\n")
    k.write_text(kernel)
    return s, k


WHILE_RELU = """__global__ void relu_while(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (i < n) {
        float v = x[i];
        out[i] = v > 0.0f ? v : 0.0f;
        i += blockDim.x * gridDim.x;
    }
}
// launch: grid = min((n + 255) / 256, 4), block = 256
"""


def test_while_grid_stride_loop_is_a_grid_stride_loop(tmp_path: Path) -> None:
    s, k = _files(tmp_path, "torch.relu(x)", WHILE_RELU)
    kernel = parse_kernel(k)
    safety = gate(kernel)
    assert safety.safe and safety.complete, safety.summary()
    assert "not checked" in safety.checked  # sizes needing a ninth trip are named, not claimed
    v = check(capture_spec(s), kernel, **FAST)
    # the ternary gives +0 for NaN inputs, ATen's relu keeps the NaN: the same witness as the `for` version
    assert v.status == "not equivalent" and v.witnesses[0].inputs == (0x7FC00000,)


def test_while_loop_that_forgets_the_stride_is_unsafe(tmp_path: Path) -> None:
    src = WHILE_RELU.replace("i += blockDim.x * gridDim.x;", "i += 1;")
    s, k = _files(tmp_path, "torch.relu(x)", src)
    safety = gate(parse_kernel(k))
    assert not safety.safe and safety.findings[0].kind == "overlap"


HELPER = """__device__ float clip(float v, float lo, float hi) {
    if (v < lo) return lo;
    if (v > hi) {
        return hi;
    } else {
        float w = v;
        return w;
    }
}
__global__ void k(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = clip(x[i], -1.0f, 1.0f);
}
"""


def test_if_inside_a_device_helper_becomes_selects(tmp_path: Path) -> None:
    s, k = _files(tmp_path, "torch.clamp(x, -1.0, 1.0)", HELPER)
    kernel = parse_kernel(k)
    (f,) = element_functions(kernel).functions
    xs = np.array([0x7FC00000, 0x80000000, 0, 0x3F000000, 0xC0000000, 0x40000000, 0x3F800001], np.uint32)
    got = np.asarray(evaluate(f, {0: xs.view(np.float32)}, Semantics()), np.float32)
    x = xs.view(np.float32)
    oracle = np.where(x < -1, np.float32(-1), np.where(x > 1, np.float32(1), x)).astype(np.float32)  # C semantics
    assert got.view(np.uint32).tolist() == oracle.view(np.uint32).tolist()
    v = check(capture_spec(s), kernel, **FAST)
    # NaN: the helper returns v (NaN) like ATen's CUDA clamp: no counterexample in the case split
    assert v.status == "no counterexample", v.summary


def test_helper_path_without_return_is_refused(tmp_path: Path) -> None:
    src = HELPER.replace("        float w = v;\n        return w;\n", "        float w = v;\n")
    s, k = _files(tmp_path, "torch.clamp(x, -1.0, 1.0)", src)
    with pytest.raises(CudaUnsupportedError, match=r"a path through __device__ function `clip` without a return"):
        parse_kernel(k)


SAT = """__global__ void sat(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __saturatef(x[i]);
}
"""


@pytest.mark.parametrize("ftz", [False, True])
def test_saturatef_is_cvt_sat(tmp_path: Path, ftz: bool) -> None:
    s, k = _files(tmp_path, "torch.clamp(x, 0.0, 1.0)", SAT)
    kernel = parse_kernel(k)
    (f,) = element_functions(kernel).functions
    bits = np.array([0x7FC00000, 0xFFC00000, 0x80000000, 0, 1, 0x80000001, 0x3F000000, 0x3F800000, 0x3F800001,
                     0x7F800000, 0xFF800000, 0xBF800000], np.uint32)
    got = np.asarray(evaluate(f, {0: bits.view(np.float32)}, Semantics(ftz=ftz)), np.float32).view(np.uint32)
    # PTX ISA cvt.sat: clamp to [0.0, 1.0]; NaN and -0.0 give +0.0; .ftz flushes a subnormal input first
    want = [0, 0, 0, 0, 0 if ftz else 1, 0, 0x3F000000, 0x3F800000, 0x3F800000, 0x3F800000, 0, 0]
    assert got.tolist() == want
    v = check(capture_spec(s), kernel, Target(ftz=ftz), **FAST)
    # ATen's CUDA clamp keeps a NaN; __saturatef returns +0.0
    assert v.status == "not equivalent" and v.witnesses[0].inputs == (0x7FC00000,) and v.witnesses[0].kernel == 0


FMUL_RZ = """__global__ void mul_rz(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = __fmul_rz(a[i], b[i]);
}
"""


def test_fmul_rz_rounds_toward_zero_and_is_confirmed_by_gmpy2(tmp_path: Path) -> None:
    import gmpy2

    from workbench.floats.reference import evaluate_scalar

    s = tmp_path / "spec.py"
    s.write_text("import torch\n\n\ndef program(a, b):\n    return a * b\n")
    k = tmp_path / "k.cu"
    k.write_text(FMUL_RZ)
    kernel = parse_kernel(k)
    (f,) = element_functions(kernel).functions
    rng = np.random.default_rng(25)
    specials = np.array([0x7FC00000, 0x80000000, 0, 1, 0x80000001, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
                         0x3F800001, 0x3F7FFFFF, 0x3F000000, 0x5F800000, 0x1F800000], np.uint32)
    a = np.concatenate([np.repeat(specials, len(specials)), rng.integers(0, 1 << 32, 3000, dtype=np.uint64)
                        .astype(np.uint32)])
    b = np.concatenate([np.tile(specials, len(specials)), rng.integers(0, 1 << 32, 3000, dtype=np.uint64)
                        .astype(np.uint32)])
    for ftz in (False, True):
        got = np.asarray(evaluate(f, {0: a.view(np.float32), 1: b.view(np.float32)}, Semantics(ftz=ftz)), np.float32)
        ctx = gmpy2.ieee(32)
        ctx.round = gmpy2.RoundToZero
        for j in range(0, len(a), 7):
            x, y = (float(v) for v in (a[j:j + 1].view(np.float32)[0], b[j:j + 1].view(np.float32)[0]))
            if ftz:
                x, y = (0.0 * np.sign(v) if v != 0 and abs(v) < 2.0**-126 else v for v in (x, y))
            want = np.float32(float(ctx.mul(gmpy2.mpfr(x), gmpy2.mpfr(y))))
            if ftz and want != 0 and abs(want) < 2.0**-126:
                want = np.float32(0.0) * np.sign(want)
            g = got[j]
            assert (np.isnan(g) and np.isnan(want)) or g.view(np.uint32) == want.view(np.uint32), (hex(a[j]), hex(b[j]))
            r = evaluate_scalar(f, {0: x, 1: y}, ftz=ftz) if not ftz else None
            assert r is None or (np.isnan(r) and np.isnan(g)) or np.float32(r).view(np.uint32) == g.view(np.uint32)
    assert np.asarray(evaluate(f, {0: np.float32([3e38]), 1: np.float32([2.0])}, Semantics()))[0] == np.float32(3.4028235e38)
    v = check(capture_spec(s), kernel, **FAST)
    assert v.status == "not equivalent"  # a*b rounds to nearest; each witness re-evaluated by gmpy2 in check
