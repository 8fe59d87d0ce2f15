"""The PTX parser, executor, element functions and PTX safety gate on PTX that nvcc 13.0 emitted (stored
under ``ptx/`` next to its ``.cu``), so these run without nvcc."""

from __future__ import annotations

from pathlib import Path

import gmpy2
import numpy as np
import pytest

from workbench.cli import main
from workbench.floats.ptx.check import check_ptx
from workbench.floats.ptx.evaluate import evaluate_many
from workbench.floats.ptx.extract import extract
from workbench.floats.ptx.gate import gate
from workbench.floats.ptx.nvcc import NvccFlagError, NvccNotFoundError, compile_ptx, find_nvcc, parse_flags
from workbench.floats.ptx.parse import PtxParseError, PtxUnsupportedError, parse_ptx
from workbench.floats.spec import capture_spec

HERE = Path(__file__).parent / "ptx"
CORPUS = Path("data/floats/corpus")


def ext(name: str, ptx: str | None = None):
    return extract(HERE / f"{name}.cu", ptx=(HERE / f"{ptx or name}.ptx").read_text())


@pytest.fixture(scope="module")
def relu():
    return capture_spec(CORPUS / "relu/spec.py")


def test_grid_stride_loop_runs_every_trip_count(relu):
    x = ext("grid_stride")
    assert x.elementwise and len(x.functions) == 1
    assert repr(x.functions[0]) == "selp.f32(0x0, x0, setp.lt.f32(x0, 0x0))"
    s = gate(x)
    assert s.safe, s.summary()
    # 64 threads cover n = 1025 only by looping 17 times: every element must still be written once
    assert max(l.n for l in x.launches) == 1025 and all(l.grid * l.block == 64 for l in x.launches)
    # `v < 0 ? 0 : v` keeps -0.0: CPU ATen's relu does too, CUDA ATen's (fmaxf) gives +0.0 (#16's spec devices)
    v = check_ptx(relu.on("cpu"), HERE / "grid_stride.cu", extraction=x, exhaustive=False, progress=False)
    assert v.status == "no counterexample" and v.spec_device == "cpu"
    v = check_ptx(relu, HERE / "grid_stride.cu", extraction=x, exhaustive=False, progress=False)
    assert v.status == "not equivalent" and v.spec_device == "cuda"
    assert [(w.inputs, w.kernel, w.spec) for w in v.witnesses] == [((0x80000000,), 0x80000000, 0x0)]


def test_skipped_last_element_is_missing_and_shifted_read_is_not_elementwise():
    s = gate(ext("skip_last"))
    assert s.safe and not s.complete and s.findings[0].kind == "missing"
    assert "no thread writes out[0] when n = 1" in s.summary()
    x = ext("shifted")
    assert not x.elementwise and "stores out[0] from x[1]" in x.problem


def test_float4_overrun_is_out_of_bounds_as_at_the_source_level():
    s = gate(ext("vec4_overrun"))
    assert not s.safe
    assert s.findings[0].describe().startswith("out of bounds: thread 0 loads x[1] when n = 1")
    assert {n % 4 for n in s.failing_sizes} == {1, 2, 3}


def test_expf_is_undecided_naming_the_approximate_instruction():
    sig = capture_spec(CORPUS / "sigmoid/spec.py")
    v = check_ptx(sig, HERE / "sigmoid_expf.cu", extraction=ext("sigmoid_expf"), exhaustive=False, progress=False)
    assert v.status == "undecided"
    assert "ex2.approx.ftz.f32 (PTX line" in v.summary
    assert v.document()["verdict"] == "undecided" and v.document()["level"] == "ptx"


def test_fma_and_separate_rounding_are_told_apart():
    spec = capture_spec(CORPUS / "scale_shift/spec.py")
    fused = check_ptx(spec, HERE / "mul_add.cu", extraction=ext("mul_add", "mul_add_fmad"), exhaustive=False,
                      progress=False)
    split = check_ptx(spec, HERE / "mul_add.cu", extraction=ext("mul_add", "mul_add_nofmad"), exhaustive=False,
                      progress=False)
    assert fused.status == "not equivalent" and "fma.rn.f32" in fused.functions[0]
    assert split.status == "no counterexample"
    doc = fused.document()
    assert doc["schema"] == "workbench.floats/1" and doc["verdict"] == "not-equivalent" and doc["arch"] == "sm_89"


def test_directed_rounding_intrinsics_evaluate_as_gmpy2_says():
    x = ext("rn_intrinsics")
    assert [n for n in repr(x.functions[0]).split("(") if n.endswith("f32")][:2] == ["add.rm.f32", "mul.rz.f32"]
    xs = np.float32(np.random.default_rng(3).normal(0, 10, 2000)).view(np.uint32)
    got = evaluate_many(x.functions, [xs])[0]
    for b, g in zip(xs[:300], got[:300]):
        v = gmpy2.mpfr(float(np.uint32(b).view(np.float32)), 24)
        ctx = gmpy2.ieee(32)
        ctx.round = gmpy2.RoundToZero
        p = ctx.mul(v, gmpy2.mpfr(float(np.float32(0.1)), 24))
        ctx.round = gmpy2.RoundDown
        want = np.float32(float(ctx.add(p, gmpy2.mpfr(0.5, 24)))).view(np.uint32)
        assert int(g) == int(want), hex(int(b))


def test_unmodelled_ptx_is_refused_by_name_and_line():
    text = (HERE / "grid_stride.ptx").read_text()
    with pytest.raises(PtxUnsupportedError, match=r"PTX line \d+ of .*barriers"):
        extract(HERE / "grid_stride.cu", ptx=text.replace("\tret;", "\tbar.sync 0;\n\tret;"))
    with pytest.raises(PtxUnsupportedError, match=r"\.shared is not modelled"):
        parse_ptx(text.replace(".reg .pred", ".shared .align 4 .b8 s[16];\n\t.reg .pred"))
    two = text + text.replace("_Z11relu_stridePKfPfi", "_Z5otherPKfPfi")
    with pytest.raises(PtxParseError, match="several kernels"):
        parse_ptx(two)
    assert parse_ptx(two, "other").name == "_Z5otherPKfPfi"


def test_flags_are_validated():
    f = parse_flags("-use_fast_math")
    assert f.ftz and not f.prec_div and not f.prec_sqrt and f.fmad and f.argv == ("-use_fast_math",)
    assert parse_flags("--fmad=false -ftz=true").argv == ("--fmad=false", "--ftz=true")
    with pytest.raises(NvccFlagError, match=r"'-O3' is not accepted; use --fmad="):
        parse_flags("-O3")


def test_without_nvcc_the_ptx_level_says_how_to_point_at_it(monkeypatch, tmp_path, capsys):
    monkeypatch.delenv("WORKBENCH_NVCC", raising=False)
    monkeypatch.setenv("CUDA_HOME", str(tmp_path / "no-cuda"))
    monkeypatch.delenv("CUDA_PATH", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(NvccNotFoundError, match=r"nvcc was not found.*WORKBENCH_NVCC=.*CUDA_HOME=.*--level source"):
        find_nvcc()
    with pytest.raises(NvccNotFoundError):
        compile_ptx(CORPUS / "relu/ternary.cu")
    rc = main(["floats", "flags", str(CORPUS / "relu/spec.py"), str(CORPUS / "relu/ternary.cu")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "nvcc was not found" in err


def test_float_scalar_parameters_are_universally_quantified_inputs_at_the_ptx_level():
    """ld.param.f32 is a symbolic input in parameter order (x, s), as at the source level (issue 16)."""
    x = ext("scalar_arg")
    assert x.elementwise and x.inputs == (0, 1) and "mul" in repr(x.functions[0])
    spec = capture_spec(CORPUS / "scale/spec.py")
    v = check_ptx(spec, HERE / "scalar_arg.cu", extraction=x, exhaustive=False, progress=False, random_cases=1 << 12)
    assert v.status == "no counterexample" and v.safety.safe
    fused = ext("axpy_fused")  # s * x + y with s a parameter: nvcc fuses it, the witness shows the fma
    assert fused.inputs == (0, 1, 2) and "fma.rn.f32" in repr(fused.functions[0])
    w = check_ptx(capture_spec(CORPUS / "axpy/spec.py"), HERE / "axpy_fused.cu", extraction=fused, exhaustive=False,
                  progress=False, random_cases=1 << 12)
    assert w.status == "not equivalent"


def test_pragma_nounroll_is_a_hint_not_a_refusal():
    """Issue 25: `#pragma unroll 1` makes nvcc write `.pragma "nounroll";` before the loop; the PTX level
    skips the hint and decides the float4 grid-stride kernel (element function and gate)."""
    assert '.pragma "nounroll";' in (HERE / "nounroll.ptx").read_text()
    x = ext("nounroll")
    assert x.elementwise and [repr(f) for f in x.functions] == ["selp.f32(0x0, x0, setp.lt.f32(x0, 0x0))"]
    s = gate(x)
    assert s.safe and s.complete, s.summary()
    other = (HERE / "nounroll.ptx").read_text().replace('.pragma "nounroll";', '.pragma "used_bytes_mask 0xf";', 1)
    with pytest.raises(PtxUnsupportedError, match=r"\.pragma is not modelled"):
        parse_ptx(other)
