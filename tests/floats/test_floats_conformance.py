"""CPU conformance: every supported op's cpu model against torch eager on this machine, bit for bit.

For each op: >= 2**20 random bit patterns (and, for binary ops, random pairs plus adversarial pairs) plus
special values (signed zeros, subnormals, NaNs with payloads, infinities, +-FLT_MAX, 1 +- ulp) in every
combination. Any mismatch fails (NaNs compare as a class: ATen's vector kernels and our model may return
different NaN payloads, e.g. AVX-512 maximum returns 0xFFFFFFFF). Ops the cpu model declares opaque (sqrt:
MKL) are checked to be opaque, never silently compared. The cuda models need a GPU: skipped here.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from workbench.floats.aten import RULES, SpecDevice
from workbench.floats.evaluate import evaluate
from workbench.floats.ir import opaque_names
from workbench.floats.spec import capture_program

N = (1 << 20) + 13  # not a multiple of any vector width: scalar tails are exercised as well
FLT_MAX = 0x7F7FFFFF
SPECIALS = np.array([
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007FFFFF, 0x807FFFFF, 0x00400000, 0x00800000, 0x80800000,
    0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FA00001, 0xFFFFFFFF, 0x7FFFFFFF,
    FLT_MAX, FLT_MAX | 0x80000000, 0x3F800000, 0x3F800001, 0x3F7FFFFF, 0xBF800000, 0xBF800001, 0xBF7FFFFF,
    0x40400000, 0xC0400000, 0x40C00000, 0x3F000000, 0xBF000000, 0x40000000, 0x3E2AAAAB, 0x4B800000,
], dtype=np.uint32)

# one program per supported op (every op of the table that is not a named transcendental)
PROGRAMS = {
    "relu": lambda x: torch.relu(x),
    "leaky_relu": lambda x: F.leaky_relu(x, 0.2),
    "leaky_relu_default": lambda x: F.leaky_relu(x),
    "hardtanh": lambda x: F.hardtanh(x, -2.0, 2.5),
    "relu6": lambda x: F.relu6(x),
    "clamp": lambda x: torch.clamp(x, -0.5, 0.75),
    "clamp_min": lambda x: torch.clamp_min(x, 0.1),
    "clamp_max": lambda x: torch.clamp_max(x, -0.1),
    "hardsigmoid": lambda x: F.hardsigmoid(x),
    "hardswish": lambda x: F.hardswish(x),
    "abs": lambda x: torch.abs(x),
    "neg": lambda x: torch.neg(x),
    "rsqrt": lambda x: torch.rsqrt(x),
    "reciprocal": lambda x: torch.reciprocal(x),
    "square": lambda x: torch.square(x),
    "pow2": lambda x: torch.pow(x, 2),
    "pow3": lambda x: torch.pow(x, 3),
    "pow_m2": lambda x: torch.pow(x, -2),
    "pow_m1": lambda x: torch.pow(x, -1),
    "pow_m05": lambda x: torch.pow(x, -0.5),
    "pow0": lambda x: torch.pow(x, 0),
    "pow1": lambda x: torch.pow(x, 1),
    "mul_scalar": lambda x: x * 0.1,
    "div_scalar": lambda x: x / 6.0,
    "add_scalar": lambda x: x + 0.3,
    "sub_scalar": lambda x: x - 0.3,
    "rsub": lambda x: 1.0 - x,
    "nan_to_num": lambda x: torch.nan_to_num(x),
    "nan_to_num_args": lambda x: torch.nan_to_num(x, nan=1.5, posinf=2.0, neginf=-3.0),
    "where_scalar": lambda x: torch.where(x > 0.5, x, 0.25),
    "where_scalar_self": lambda x: torch.where(x < 0, -1.0, x),
    "isnan_where": lambda x: torch.where(torch.isnan(x), 0.0, x),
    "cmp": lambda x: torch.where((x >= 1.0) | (x <= -1.0) | (x == 0.0), x, -x),
    "mul": lambda x, y: x * y,
    "div": lambda x, y: x / y,
    "add": lambda x, y: x + y,
    "sub": lambda x, y: x - y,
    "add_alpha": lambda x, y: torch.add(x, y, alpha=0.3),
    "sub_alpha": lambda x, y: torch.sub(x, y, alpha=1.7),
    "rsub_tensor": lambda x, y: torch.rsub(x, y),
    "where_self": lambda x, y: torch.where(x < y, x, y),
    "cmp_tensor": lambda x, y: torch.where((x > y) & (x != y), x, y),
    "logical": lambda x, y: torch.where(torch.logical_or(torch.logical_and(x > 0, y > 0), ~(x < y)), x, y),
}


def _inputs(arity: int, rng: np.random.Generator) -> list[np.ndarray]:
    if arity == 1:
        return [np.concatenate([SPECIALS, rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)])]
    grid = [g.reshape(-1) for g in np.meshgrid(SPECIALS, SPECIALS, indexing="ij")]
    a = rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32)
    near = np.float32(rng.normal(0, 4, N // 2))  # realistic magnitudes: cancellation, ties, ulp neighbours
    partner = np.where(rng.integers(0, 2, N // 2) == 0, near, np.nextafter(-near, np.float32(0)))
    return [np.concatenate([grid[0], a, near.view(np.uint32)]), np.concatenate([grid[1], b, partner.view(np.uint32)])]


def test_every_supported_op_has_a_conformance_program() -> None:
    names = {t.split(".")[1] for t in RULES}
    covered = {"relu", "leaky_relu", "hardtanh", "relu6", "clamp", "clamp_min", "clamp_max", "hardsigmoid",
               "hardswish", "abs", "neg", "rsqrt", "reciprocal", "square", "pow", "mul", "div", "add", "sub",
               "rsub", "nan_to_num", "where", "isnan", "gt", "lt", "ge", "le", "eq", "ne",
               "__or__", "__and__", "bitwise_or", "bitwise_and", "logical_or", "logical_and", "logical_not",
               "bitwise_not"}
    rest = names - covered
    # sqrt, maximum, minimum (and clamp.Tensor) are opaque on cpu (tested below); the rest are transcendentals
    assert rest == {"sqrt", "maximum", "minimum", "sigmoid", "tanh", "exp", "log", "log1p", "erf", "gelu", "softplus", "elu", "silu",
                    "mish", "selu"}, rest


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_cpu_model_matches_torch_eager_bit_for_bit(name: str) -> None:
    fn = PROGRAMS[name]
    spec = capture_program(fn, name).on(SpecDevice.CPU)
    assert not opaque_names(spec.expr), spec.expr
    cols = _inputs(spec.arity, np.random.default_rng(abs(hash(name)) % 2**32))
    xs = [c.view(np.float32) for c in cols]
    assert len(xs[0]) >= 1 << 20
    mine = np.broadcast_to(np.asarray(evaluate(spec.expr, dict(enumerate(xs))), dtype=np.float32), xs[0].shape)
    eager = fn(*[torch.from_numpy(x.copy()) for x in xs]).numpy()
    differ = (mine.view(np.uint32) != eager.view(np.uint32)) & ~(np.isnan(mine) & np.isnan(eager))
    if differ.any():
        j = int(np.flatnonzero(differ)[0])
        ins = ", ".join(f"0x{int(c[j]):08X}" for c in cols)
        pytest.fail(f"{name}: {int(differ.sum())} mismatches; first at input {ins}: model "
                    f"0x{int(mine.view(np.uint32)[j]):08X}, torch 0x{int(eager.view(np.uint32)[j]):08X}")


def test_cpu_sqrt_is_opaque_and_torch_is_within_one_ulp_of_correct_rounding() -> None:
    spec = capture_program(lambda x: torch.sqrt(x), "sqrt")
    assert opaque_names(spec.on("cpu").expr) == ("aten.sqrt[cpu: MKL VML vmsSqrt, not correctly rounded]",)
    assert not opaque_names(spec.on("cuda").expr)  # sqrt.rn.f32 on the device
    x = np.arange(0x00800000, 0x7F800000, 97, dtype=np.uint32).view(np.float32)
    d = torch.sqrt(torch.from_numpy(x)).numpy().view(np.uint32).astype(np.int64) - np.sqrt(x).view(np.uint32)
    assert np.abs(d).max() <= 1  # what "undecided" hides: at most one ulp here (MKL VML_HA)


def test_cpu_clamp_with_tensor_bounds_is_opaque_because_its_two_paths_disagree() -> None:
    spec = capture_program(lambda x, lo, hi: torch.clamp(x, lo, hi), "clamp_t")
    assert opaque_names(spec.on("cpu").expr) and not opaque_names(spec.on("cuda").expr)
    x, lo, hi = (torch.tensor([v] * 33, dtype=torch.float32) for v in (-0.0, 0.0, 1.0))
    r = torch.clamp(x, lo, hi).numpy().view(np.uint32)
    assert set(r.tolist()) == {0x00000000, 0x80000000}  # vector body +0.0, scalar tail -0.0: position decides


@pytest.mark.parametrize("fn", [torch.maximum, torch.minimum])
def test_cpu_maximum_and_minimum_are_opaque_because_their_two_paths_disagree(fn) -> None:
    spec = capture_program(lambda x, y: fn(x, y), fn.__name__)
    assert opaque_names(spec.on("cpu").expr) and not opaque_names(spec.on("cuda").expr)
    x, y = torch.tensor([0.0] * 33), torch.tensor([-0.0] * 33)
    assert len(set(fn(x, y).numpy().view(np.uint32).tolist())) == 2  # which zero depends on the position


@pytest.mark.skipif(not torch.cuda.is_available(), reason="cuda conformance needs a GPU (none on this machine)")
def test_cuda_model_matches_torch_eager_on_the_gpu() -> None:
    for name, fn in sorted(PROGRAMS.items()):
        spec = capture_program(fn, name).on(SpecDevice.CUDA)
        if opaque_names(spec.expr):
            continue
        cols = _inputs(spec.arity, np.random.default_rng(7))
        xs = [c.view(np.float32) for c in cols]
        mine = np.broadcast_to(np.asarray(evaluate(spec.expr, dict(enumerate(xs))), dtype=np.float32), xs[0].shape)
        eager = fn(*[torch.from_numpy(x.copy()).cuda() for x in xs]).cpu().numpy()
        differ = (mine.view(np.uint32) != eager.view(np.uint32)) & ~(np.isnan(mine) & np.isnan(eager))
        assert not differ.any(), name
