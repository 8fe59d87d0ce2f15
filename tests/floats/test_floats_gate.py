"""Safety gate: the float4 overrun and overlap are caught with their witnesses; correct kernels pass."""

from __future__ import annotations

from pathlib import Path

from workbench.floats.cuda import parse_kernel
from workbench.floats.gate import GATE_SIZES, element_functions, gate

ROOT = Path(__file__).resolve().parents[2]
RELU = ROOT / "data/floats/corpus/relu"
SMALL = [n for n in GATE_SIZES if n <= 1024]


def test_float4_overrun_is_caught_exactly_when_n_is_not_a_multiple_of_4() -> None:
    s = gate(parse_kernel(RELU / "vec4_overrun.cu"))
    assert not s.safe
    kinds = {f.kind: f for f in s.findings}
    assert set(kinds) == {"out of bounds"}
    oob = kinds["out of bounds"]
    assert (oob.n, oob.thread, oob.index) == (1, 0, 1)  # n = 1: thread 0 touches element 1 of 1
    assert [n for n in s.failing_sizes if n <= 1024] == [n for n in SMALL if n % 4]
    assert "unsafe: out of bounds" in s.summary()


def test_float4_shift_back_overlaps_the_previous_thread() -> None:
    s = gate(parse_kernel(RELU / "vec4_overlap.cu"))
    kinds = {f.kind: f for f in s.findings}
    assert {"overlap", "out of bounds", "misaligned"} <= set(kinds)
    ov = kinds["overlap"]
    assert (ov.n, ov.other_thread, ov.thread, ov.index) == (5, 0, 1, 1)
    assert "threads 0 and 1 both store out[1] when n = 5" in s.summary()
    assert [n for n in s.failing_sizes if n <= 1024] == [n for n in SMALL if n % 4]


def test_float4_with_a_scalar_tail_is_safe_and_computes_one_function() -> None:
    k = parse_kernel(RELU / "vec4_tail.cu")
    assert gate(k).safe
    shape = element_functions(k)
    assert shape.elementwise and len(shape.functions) == 1


def test_scalar_kernel_is_safe() -> None:
    assert gate(parse_kernel(RELU / "ternary.cu")).safe


def test_guard_that_skips_the_last_element_leaves_it_unwritten(tmp_path: Path) -> None:
    p = tmp_path / "k.cu"
    p.write_text("__global__ void k(const float* x, float* out, int n) {\n"
                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n - 1) out[i] = x[i];\n}\n")
    s = gate(parse_kernel(p))
    assert s.safe and not s.complete and s.findings[0].kind == "missing"
    assert "no thread writes out[0] when n = 1" in s.summary()
    assert s.summary().startswith("output not fully written (no access out of bounds")


def test_shifted_read_is_not_elementwise(tmp_path: Path) -> None:
    p = tmp_path / "k.cu"
    p.write_text("__global__ void k(const float* x, float* out, int n) {\n"
                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i + 1 < n) out[i] = x[i + 1];\n}\n")
    shape = element_functions(parse_kernel(p))
    assert not shape.elementwise
    assert "stores out[0] from x[1]" in shape.problem


def test_unwritten_output_is_its_own_verdict_not_unsafe(tmp_path: Path) -> None:
    """Issue 25: a kernel that leaves elements unwritten, with no out-of-bounds access and no race, is
    "output-not-fully-written" (exit 1), distinct from "unsafe"."""
    from workbench import contract
    from workbench.floats.check import check
    from workbench.floats.spec import capture_spec

    p = tmp_path / "k.cu"
    p.write_text("__global__ void k(const float* x, float* out, int n) {\n"
                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n - 1) out[i] = -x[i];\n}\n")
    s = tmp_path / "spec.py"
    s.write_text("import torch\n\ndef program(x):\n    return torch.neg(x)\n")
    v = check(capture_spec(s), parse_kernel(p), exhaustive=False, random_cases=1 << 10)
    assert v.verdict is contract.Verdict.NOT_FULLY_WRITTEN and v.status == "no counterexample"
    assert v.as_dict()["safety"]["complete"] is False and v.as_dict()["safety"]["safe"] is True
    assert contract.exit_code(v.verdict) == 1


def test_signalling_nan_witness_keeps_its_input_bits() -> None:
    """A witness input is never passed through a Python float (that quiets 0x7F800001 to 0x7FC00001)."""
    import numpy as np

    from workbench.floats.check import _witness
    from workbench.floats.ir import Ty, arg
    from workbench.floats.spec import Spec

    spec = Spec(name="s", path="s.py", arity=1, expr=arg(0, Ty.F32), source="", ops=())
    snan = np.array([0x7F800001], dtype=np.uint32).view(np.float32)
    w = _witness((snan,), np.float32([0.0]), snan, 0, spec)
    assert w.inputs == (0x7F800001,) and w.spec == 0x7F800001
    assert w.describe().startswith("input 0x7F800001 (NaN)")
