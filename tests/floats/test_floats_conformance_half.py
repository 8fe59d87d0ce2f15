"""CPU conformance of the float16 and bfloat16 models: every supported op against torch eager, bit for bit.

The same programs as ``test_floats_conformance.py``, captured with ``dtype=torch.float16`` and
``torch.bfloat16`` (a SPEC.py says ``DTYPE = ...``): unary ops on all 2**16 inputs, binary ops on every pair of
special values (signed zeros, subnormals, NaNs with payloads, infinities, the largest finite values, 1 +- ulp)
plus 2**20 random pairs and 2**19 near-cancelling pairs. NaNs compare as a class. Ops opaque on the CPU (sqrt:
MKL) are checked to stay opaque. The CUDA models of half ops (compute in float32, round once: ATen's
``opmath_t``) need a GPU: skipped here.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from test_floats_conformance import PROGRAMS  # same folder (pytest puts it on sys.path)
from workbench.floats.aten import SpecDevice
from workbench.floats.evaluate import evaluate
from workbench.floats.ir import opaque_names
from workbench.floats.spec import capture_program

DTYPES = {"f16": torch.float16, "bf16": torch.bfloat16}
SPECIALS = {
    "f16": [0x0000, 0x8000, 0x0001, 0x8001, 0x03FF, 0x83FF, 0x0200, 0x0400, 0x8400, 0x7C00, 0xFC00, 0x7E00, 0xFE00,
            0x7C01, 0x7D01, 0xFFFF, 0x7FFF, 0x7BFF, 0xFBFF, 0x3C00, 0x3C01, 0x3BFF, 0xBC00, 0xBC01, 0xBBFF, 0x4200,
            0xC200, 0x4600, 0x3800, 0xB800, 0x4000, 0x3155],
    "bf16": [0x0000, 0x8000, 0x0001, 0x8001, 0x007F, 0x807F, 0x0040, 0x0080, 0x8080, 0x7F80, 0xFF80, 0x7FC0, 0xFFC0,
             0x7F81, 0x7FA1, 0xFFFF, 0x7FFF, 0x7F7F, 0xFF7F, 0x3F80, 0x3F81, 0x3F7F, 0xBF80, 0xBF81, 0xBF7F, 0x4040,
             0xC040, 0x40C0, 0x3F00, 0xBF00, 0x4000, 0x3E2B],
}


def _bits_to_tensor(b: np.ndarray, dt) -> torch.Tensor:
    return torch.from_numpy(b.astype(np.uint16).view(np.int16).copy()).view(dt)


def _carried(b: np.ndarray, fmt: str) -> np.ndarray:
    """The float32 value of each 16-bit pattern (torch's own widening, exact)."""
    return _bits_to_tensor(b, DTYPES[fmt]).float().numpy()


def _inputs(arity: int, fmt: str, rng) -> list[np.ndarray]:
    if arity == 1:
        return [np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)]
    sp = np.array(SPECIALS[fmt], dtype=np.uint16)
    grid = [g.reshape(-1) for g in np.meshgrid(sp, sp, indexing="ij")]
    a = rng.integers(0, 1 << 16, 1 << 20).astype(np.uint16)
    b = rng.integers(0, 1 << 16, 1 << 20).astype(np.uint16)
    near = _bits_to_tensor(a[: 1 << 19], DTYPES[fmt])
    partner = torch.nextafter(-near, torch.zeros_like(near)).view(torch.int16).numpy().view(np.uint16)
    return [np.concatenate([grid[0], a, a[: 1 << 19]]), np.concatenate([grid[1], b, partner])]


@pytest.mark.parametrize("fmt", sorted(DTYPES))
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_cpu_half_model_matches_torch_eager_bit_for_bit(name: str, fmt: str) -> None:
    fn, dt = PROGRAMS[name], DTYPES[fmt]
    spec = capture_program(fn, name, dtype=dt).on(SpecDevice.CPU)
    assert not opaque_names(spec.expr), spec.expr
    cols = _inputs(spec.arity, fmt, np.random.default_rng(abs(hash((name, fmt))) % 2**32))
    mine = np.asarray(evaluate(spec.expr, {i: _carried(c, fmt) for i, c in enumerate(cols)}), dtype=np.float32)
    mine = np.broadcast_to(mine, cols[0].shape)
    eager = fn(*[_bits_to_tensor(c, dt) for c in cols]).float().numpy()
    differ = (mine.view(np.uint32) != eager.view(np.uint32)) & ~(np.isnan(mine) & np.isnan(eager))
    if differ.any():
        j = int(np.flatnonzero(differ)[0])
        ins = ", ".join(f"0x{int(c[j]):04X}" for c in cols)
        pytest.fail(f"{name} [{fmt}]: {int(differ.sum())} mismatches; first at input {ins}: model {mine[j]!r}, "
                    f"torch {eager[j]!r}")


@pytest.mark.parametrize("fmt", sorted(DTYPES))
def test_cpu_half_sqrt_stays_opaque_and_cuda_half_ops_round_once(fmt: str) -> None:
    spec = capture_program(lambda x: torch.sqrt(x), "sqrt", dtype=DTYPES[fmt])
    assert opaque_names(spec.on("cpu").expr)
    cuda = spec.on("cuda").expr  # (f16)sqrt((f32)x): widened exactly, one sqrt.rn.f32, one rounding
    assert cuda.op.name == "CAST" and cuda.args[0].op.name == "SQRT" and cuda.args[0].args[0].op.name == "CAST"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="cuda conformance needs a GPU (none on this machine)")
@pytest.mark.parametrize("fmt", sorted(DTYPES))
def test_cuda_half_model_matches_torch_eager_on_the_gpu(fmt: str) -> None:
    for name, fn in sorted(PROGRAMS.items()):
        spec = capture_program(fn, name, dtype=DTYPES[fmt]).on(SpecDevice.CUDA)
        if opaque_names(spec.expr):
            continue
        cols = _inputs(spec.arity, fmt, np.random.default_rng(7))
        mine = np.broadcast_to(np.asarray(evaluate(spec.expr, {i: _carried(c, fmt) for i, c in enumerate(cols)}),
                                          dtype=np.float32), cols[0].shape)
        eager = fn(*[_bits_to_tensor(c, DTYPES[fmt]).cuda() for c in cols]).float().cpu().numpy()
        differ = (mine.view(np.uint32) != eager.view(np.uint32)) & ~(np.isnan(mine) & np.isnan(eager))
        assert not differ.any(), name
