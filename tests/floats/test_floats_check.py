"""Verdicts: known-wrong kernels get counterexamples with the right bits; only exhaustive sweeps say
"equivalent"; a bug planted at two inputs the case split does not try is found by the 2**32 sweep."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.floats.check import Target, check
from workbench.floats.cuda import parse_kernel
from workbench.floats.errors import FloatsUsageError
from workbench.floats.spec import capture_spec

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data/floats/corpus"


@pytest.fixture(scope="module")
def specs():
    cache: dict = {}

    def get(name: str):
        # these tests pin facts measured against torch eager on this CPU (NOTES' counts): spec device cpu
        if name not in cache:
            cache[name] = capture_spec(CORPUS / name / "spec.py", "cpu")
        return cache[name]

    return get


def _fast(specs, prog: str, kernel: str, target: Target = Target(), nan: str = "any"):
    return check(specs(prog), parse_kernel(CORPUS / prog / f"{kernel}.cu"), target, nan, exhaustive=False,
                 progress=False, random_cases=1 << 14)


def _pairs(v) -> set[tuple[int, int, int]]:
    return {(w.inputs[0], w.kernel, w.spec) for w in v.witnesses}


def test_relu_ternary_sends_nan_and_negative_zero_to_positive_zero(specs) -> None:
    v = _fast(specs, "relu", "ternary")
    assert v.status == "not equivalent"
    assert (v.witnesses[0].inputs, v.witnesses[0].kernel, v.witnesses[0].spec) == ((0x7FC00000,), 0x0, 0x7FC00000)
    assert (0x80000000, 0x00000000, 0x80000000) in _pairs(v)
    assert v.summary.startswith("not equivalent: input 0x7FC00000 (NaN): kernel 0x00000000 (+0.0)")
    assert v.summary.endswith("(spec: PyTorch on cpu)") and v.spec_device == "cpu"


def test_relu_fmaxf_is_wrong_at_nan_and_negative_zero(specs) -> None:
    v = _fast(specs, "relu", "fmaxf")
    assert v.status == "not equivalent"
    assert {(0x7FC00000, 0x0, 0x7FC00000), (0x80000000, 0x0, 0x80000000)} <= _pairs(v)


def test_leaky_relu_double_literal_differs_by_one_ulp(specs) -> None:
    v = _fast(specs, "leaky_relu", "double_literal")
    assert v.status == "not equivalent" and v.witnesses
    for w in v.witnesses:
        assert abs(int(np.int64(w.kernel)) - int(np.int64(w.spec))) == 1  # same sign: adjacent bit patterns
        assert w.inputs[0] >> 31 == 1  # only the negative branch multiplies


def test_leaky_relu_float_literal_has_no_counterexample_in_the_case_split(specs) -> None:
    v = _fast(specs, "leaky_relu", "float_literal")
    assert v.status == "no counterexample"  # "equivalent" needs the exhaustive sweep


def test_fma_contraction_gives_one_verdict_per_target(specs) -> None:
    on = _fast(specs, "scale_shift", "mul_add", Target(fma=True))
    off = _fast(specs, "scale_shift", "mul_add", Target(fma=False))
    assert on.status == "not equivalent" and off.status == "no counterexample"
    assert "fma(" in on.functions[0]
    rn = _fast(specs, "scale_shift", "fmul_rn", Target(fma=True))
    assert rn.status == "no counterexample"  # __fmul_rn is never contracted


def test_flush_to_zero_changes_the_verdict_at_negative_subnormals(specs) -> None:
    assert _fast(specs, "relu", "lt_zero", Target(ftz=False)).status == "no counterexample"
    v = _fast(specs, "relu", "lt_zero", Target(ftz=True))
    assert v.status == "not equivalent"
    # -2**-149 < 0 is false after flushing, so the kernel passes the subnormal through; the spec gives 0
    assert (0x80000001, 0x80000001, 0x00000000) in _pairs(v)


def test_payload_policy_sees_the_device_canonical_nan(specs) -> None:
    assert _fast(specs, "leaky_relu", "float_literal", nan="any").status == "no counterexample"
    v = _fast(specs, "leaky_relu", "float_literal", nan="payload")
    assert v.status == "not equivalent"
    assert v.witnesses[0].kernel == 0x7FFFFFFF


def test_nary_kernels_are_equivalent_only_by_identity(specs) -> None:
    v = check(capture_spec(CORPUS / "add/spec.py"), parse_kernel(CORPUS / "add/plus.cu"), exhaustive=False,
              progress=False, random_cases=1 << 14)
    # a + b is ATen's add node for node under the same semantics: equivalent, by identity, not by search
    assert v.status == "equivalent" and "node for node" in v.summary and not v.exhaustive
    v = check(capture_spec(CORPUS / "add/spec.py"), parse_kernel(CORPUS / "add/plus.cu"), Target(ftz=True),
              exhaustive=False, progress=False, random_cases=1 << 14)
    assert v.status == "not equivalent"  # ftz on the device only: no identity, and subnormals differ
    assert _fast(specs, "minimum", "nan_aware").status == "undecided"  # cpu: position-dependent at +-0
    cuda_min = capture_spec(CORPUS / "minimum/spec.py")
    w = check(cuda_min, parse_kernel(CORPUS / "minimum/fminf.cu"), exhaustive=False, progress=False,
              random_cases=1 << 14).witnesses[0]
    assert (w.inputs, w.kernel, w.spec) == ((0x7FC00000, 0x00000000), 0x00000000, 0x7FC00000)


def test_ternary_fma_counterexample_is_found_and_confirmed(specs) -> None:
    v = _fast(specs, "mul_add", "fused", Target(fma=True))
    assert v.status == "not equivalent"
    assert _fast(specs, "mul_add", "fused", Target(fma=False)).status == "equivalent"  # uncontracted: identical


def test_transcendentals_are_undecided_and_named(specs) -> None:
    v = _fast(specs, "sigmoid", "expf")
    assert v.status == "undecided"
    assert v.summary == "undecided: depends on expf on the device and aten.sigmoid in PyTorch (spec: PyTorch on cpu)"
    assert _fast(specs, "square", "powf").summary == "undecided: depends on powf on the device (spec: PyTorch on cpu)"


def test_arity_mismatch_is_a_usage_error(specs) -> None:
    with pytest.raises(FloatsUsageError, match=r"reads 2 inputs \(a, b\) but program in .*relu/spec.py takes 1"):
        check(specs("relu"), parse_kernel(CORPUS / "minimum/fminf.cu"), progress=False)


def test_exhaustive_sweep_finds_a_bug_the_case_split_cannot(specs, tmp_path: Path) -> None:
    """The kernel is relu except at +-1.5 (reached only through v * 3 == +-4.5): no special value or constant
    neighbour of the case split is +-1.5, so only the sweep over all 2**32 inputs can see it."""
    p = tmp_path / "planted.cu"
    p.write_text("__global__ void planted(const float* x, float* out, int n) {\n"
                 "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "    if (i < n) {\n        float v = x[i];\n"
                 "        out[i] = (v * 3.0f == 4.5f || v * 3.0f == -4.5f) ? 7.0f : (v < 0.0f ? 0.0f : v);\n"
                 "    }\n}\n")
    k = parse_kernel(p)
    quick = check(specs("relu"), k, Target(fma=False), exhaustive=False, progress=False, random_cases=1 << 14)
    assert quick.status == "no counterexample"
    full = check(specs("relu"), k, Target(fma=False), progress=False)
    assert full.status == "not equivalent" and full.mismatches == 2
    assert _pairs(full) == {(0x3FC00000, 0x40E00000, 0x3FC00000), (0xBFC00000, 0x40E00000, 0x00000000)}


def test_notes_count_for_the_relu_ternary_kernel(specs) -> None:
    v = check(specs("relu"), parse_kernel(CORPUS / "relu/ternary.cu"), Target(), progress=False)
    assert v.exhaustive and v.mismatches == 16_777_215  # NOTES: every NaN plus -0.0
