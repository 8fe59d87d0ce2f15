"""Half precision, bfloat16 and two-output kernels (issue 16): the evaluator against gmpy2, the frontend's
header semantics, errors for missing headers and mismatched types, and two-output verdicts."""

from __future__ import annotations

from pathlib import Path

import gmpy2
import numpy as np
import pytest

from workbench.cli import main
from workbench.floats.check import Target, check
from workbench.floats.cuda import parse_kernel
from workbench.floats.errors import CudaParseError, FloatsUsageError
from workbench.floats.evaluate import Semantics, evaluate
from workbench.floats.gate import element_functions
from workbench.floats.halfprec import bits16, from_bits16, round_to
from workbench.floats.ir import Node, Op, Ty, arg, contract_fma, walk
from workbench.floats.reference import evaluate_scalar
from workbench.floats.spec import capture_spec

CORPUS = Path("data/floats/corpus")
CTX = {Ty.F16: gmpy2.ieee(16), Ty.BF16: gmpy2.context(precision=8, emin=-132, emax=128, subnormalize=True)}


def _same(a: float, b: float) -> bool:
    return (a != a and b != b) or (a == b and np.signbit(a) == np.signbit(b))


@pytest.mark.parametrize("ty", [Ty.F16, Ty.BF16], ids=["f16", "bf16"])
def test_rounding_to_half_and_bfloat16_is_mpfr_round_to_nearest_even(ty) -> None:
    rng = np.random.default_rng(5)
    # random float32 patterns plus every midpoint between neighbouring values of the format (ties to even)
    grid = from_bits16(np.arange(1 << 16, dtype=np.uint32).astype(np.uint16), ty)
    mid = (grid.view(np.uint32) + np.uint32(0x1000 if ty is Ty.F16 else 0x8000)).view(np.float32)
    xs = np.concatenate([rng.integers(0, 1 << 32, 20000, dtype=np.uint64).astype(np.uint32).view(np.float32), mid])
    got = round_to(xs, ty)
    for x, g in zip(xs.tolist(), got.tolist()):
        if x == x:
            assert _same(g, float(CTX[ty].plus(gmpy2.mpfr(x, 53)))), (ty, x, g)
    assert (bits16(grid, ty) == np.arange(1 << 16)).all()  # the carried values round-trip every pattern


@pytest.mark.parametrize("ty", [Ty.F16, Ty.BF16], ids=["f16", "bf16"])
@pytest.mark.parametrize("op", [Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.FMA, Op.SQRT])
def test_half_arithmetic_rounds_once_as_gmpy2_says(ty, op) -> None:
    rng = np.random.default_rng(hash((ty.value, op.value)) % 2**32)
    cols = [from_bits16(rng.integers(0, 1 << 16, 2000).astype(np.uint16), ty) for _ in range(3)]
    n = Node(op, ty, (arg(0, ty),) if op is Op.SQRT else (arg(0, ty), arg(1, ty), arg(2, ty))[:3 if op is Op.FMA else 2])
    vals = evaluate(n, dict(enumerate(cols)))
    for i in range(2000):
        ref = evaluate_scalar(n, {k: float(c[i]) for k, c in enumerate(cols)})
        assert _same(float(vals[i]), ref), (op, [float(c[i]) for c in cols], float(vals[i]), ref)


def _cu(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "k.cu"
    p.write_text(text)
    return p


def test_half_header_semantics_in_the_frontend(tmp_path: Path) -> None:
    k = parse_kernel(_cu(tmp_path, "#include <cuda_fp16.h>\n"
                         "__global__ void k(const __half* x, __half* out, int n) {\n"
                         "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                         "    if (i < n) out[i] = __hadd(__hmul(x[i], x[i]), __hmul_rn(x[i], x[i]));\n}\n"))
    (f,) = element_functions(k).functions
    assert f.ty is Ty.F16 and {n.ty for n in walk(f) if n.op is Op.ARG} == {Ty.F16}
    fused = contract_fma(f)  # __hmul feeding __hadd may be fused; __hmul_rn never is
    assert fused.op is Op.FMA and fused.args[2].op is Op.MUL and not fused.args[2].contract
    k2 = parse_kernel(_cu(tmp_path, "#include <cuda_bf16.h>\n"
                          "__global__ void k(const __nv_bfloat16* x, __nv_bfloat16* out, int n) {\n"
                          "    int i = threadIdx.x;\n"
                          "    if (i < n) out[i] = __float2bfloat16(__bfloat162float(x[i]) * 0.1f);\n}\n"))
    (g,) = element_functions(k2).functions
    assert g.op is Op.CAST and g.ty is Ty.BF16 and g.args[0].op is Op.MUL


def test_a_missing_half_header_is_one_clear_line(tmp_path: Path, capsys) -> None:
    p = _cu(tmp_path, "__global__ void k(const __half* x, __half* out, int n) {\n"
                      "    int i = threadIdx.x;\n    if (i < n) out[i] = x[i];\n}\n")
    with pytest.raises(CudaParseError, match=r"uses `__half` but does not include <cuda_fp16.h>.*add `#include <cuda_fp16.h>`"):
        parse_kernel(p)
    assert main(["floats", "check", str(CORPUS / "relu_f16/spec.py"), str(p)]) == 2
    err = capsys.readouterr().err
    assert "cuda_fp16.h" in err and "Traceback" not in err


def test_a_half_kernel_against_a_float32_spec_is_an_input_error() -> None:
    spec = capture_spec(CORPUS / "relu/spec.py")
    with pytest.raises(FloatsUsageError, match=r"reads x as __half but program .* takes argument 0 as float.*DTYPE"):
        check(spec, parse_kernel(CORPUS / "relu_f16/nan_aware.cu"), exhaustive=False, random_cases=256)


def test_unary_half_kernels_are_decided_on_all_2_16_inputs() -> None:
    spec = capture_spec(CORPUS / "scale_shift_f16/spec.py")  # cuda: x * half(0.1), rounded, + 0.5, rounded
    v = check(spec, parse_kernel(CORPUS / "scale_shift_f16/half_ops.cu"), progress=False)
    assert v.status == "equivalent" and v.cases == 1 << 16 and "2**16" in v.summary
    v = check(spec, parse_kernel(CORPUS / "scale_shift_f16/float_fused.cu"), progress=False)
    assert v.status == "not equivalent" and v.mismatches == 11649
    cpu = check(spec.on("cpu"), parse_kernel(CORPUS / "scale_shift_f16/two_roundings.cu"), progress=False)
    assert cpu.status == "equivalent"  # cpu mul reads the scalar as float (original_scalar_value)
    w = v.witnesses[0]
    assert w.describe().startswith("input 0x") and len(f"{w.inputs[0]:X}") <= 4 and w.out_ty is Ty.F16


def test_payload_policy_sees_the_canonical_half_nan() -> None:
    x = from_bits16(np.array([0x7E01], dtype=np.uint16), Ty.F16)
    n = Node(Op.ADD, Ty.F16, (arg(0, Ty.F16), arg(0, Ty.F16)))
    dev = evaluate(n, {0: x}, Semantics(canonical_nan=True))
    assert bits16(dev, Ty.F16)[0] == 0x7FFF


def test_two_output_kernels_get_one_verdict_from_both_outputs() -> None:
    spec = capture_spec(CORPUS / "relu_scale_pair/spec.py")
    assert len(spec.outputs) == 2
    k = parse_kernel(CORPUS / "relu_scale_pair/fmaxf.cu")
    assert k.outputs == ("act", "twice") and k.inputs == ("x",)
    v = check(spec, k, Target(), exhaustive=False, random_cases=1 << 12, progress=False)
    assert v.status == "not equivalent" and v.summary.startswith("not equivalent (2 outputs) -- act: not equivalent")
    assert "twice: no counterexample" in v.summary and v.safety.safe
    one = capture_spec(CORPUS / "relu/spec.py")
    with pytest.raises(FloatsUsageError, match=r"writes 2 output arrays .* returns 1 tensors"):
        check(one, k, exhaustive=False)


def test_two_output_gate_checks_each_array(tmp_path: Path) -> None:
    p = _cu(tmp_path, "__global__ void k(const float* x, float* a, float* b, int n) {\n"
                      "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                      "    if (i < n) a[i] = x[i];\n    if (i < n - 1) b[i] = x[i];\n}\n")
    from workbench.floats.gate import gate

    s = gate(parse_kernel(p))
    assert s.safe and not s.complete and any(f.kind == "missing" and f.array == "b" for f in s.findings)
