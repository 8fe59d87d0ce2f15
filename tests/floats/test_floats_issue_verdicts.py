"""The wrong verdicts of issue 16, each pinned: the spec's device (cpu sqrt is MKL, add with alpha is one fma,
CUDA's hardsigmoid multiplies by 1/6), __fadd_rn/__fsub_rn never contracted, min/max on floats are
fminf/fmaxf, macros holding literals, FTZ on fabsf and unary minus (abs.ftz/neg.ftz); the one verdict
(safety first) and its JSON contract; swapped arguments are input errors; launch expressions are parsed,
never evaluated."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.floats.check import Target, check
from workbench.floats.cuda import parse_kernel
from workbench.floats.cuda.launch import Launch, parse_launch
from workbench.floats.errors import CudaParseError
from workbench.floats.gate import element_functions
from workbench.floats.spec import capture_spec

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data/floats/corpus"
HEAD = "__global__ void k(const float* x, float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"


def _files(tmp: Path, program: str, body: str, head: str = HEAD) -> tuple[Path, Path]:
    sp, kp = tmp / "spec.py", tmp / "k.cu"
    sp.write_text("import torch\nimport torch.nn.functional as F\n\n\ndef program" + program + "\n")
    kp.write_text(head + body + "}\n")
    return sp, kp


def _fast(spec, kp: Path, target: Target = Target()):
    return check(spec, parse_kernel(kp), target, exhaustive=False, progress=False, random_cases=1 << 15)


def test_cpu_sqrt_is_undecided_not_equivalent_and_cuda_sqrt_is_modelled(tmp_path: Path) -> None:
    sp, kp = _files(tmp_path, "(x):\n    return torch.sqrt(x)", "    if (i < n) out[i] = sqrtf(x[i]);\n")
    cpu = _fast(capture_spec(sp, "cpu"), kp)
    assert cpu.status == "undecided" and "MKL" in cpu.summary and "(spec: PyTorch on cpu)" in cpu.summary
    cuda = _fast(capture_spec(sp), kp)
    assert cuda.status == "no counterexample" and cuda.spec_device == "cuda"


def test_add_with_alpha_is_one_fma_on_both_devices(tmp_path: Path) -> None:
    sp, kp = _files(tmp_path, "(x, y):\n    return torch.add(x, y, alpha=0.3)",
                    "    if (i < n) out[i] = x[i] + 0.3f * y[i];\n",
                    "__global__ void k(const float* x, const float* y, float* out, int n) {\n"
                    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n")
    for dev in ("cuda", "cpu"):
        spec = capture_spec(sp, dev)
        assert "fma(" in repr(spec.expr)
        assert _fast(spec, kp, Target(fma=True)).status == "no counterexample"  # nvcc fuses too
        assert _fast(spec, kp, Target(fma=False)).status == "not equivalent"  # two roundings differ


def test_hardsigmoid_divides_on_cpu_and_multiplies_by_one_sixth_on_cuda() -> None:
    spec = capture_spec(CORPUS / "hardsigmoid/spec.py")
    div, mul = (parse_kernel(CORPUS / f"hardsigmoid/{k}.cu") for k in ("div_six", "mul_sixth"))
    run = dict(exhaustive=False, progress=False, random_cases=1 << 15)
    assert check(spec, mul, **run).status == "no counterexample"
    assert check(spec, div, **run).status == "not equivalent"
    assert check(spec.on("cpu"), div, **run).status == "no counterexample"
    assert check(spec.on("cpu"), mul, **run).status == "not equivalent"


def test_fadd_rn_and_fsub_rn_are_never_contracted(tmp_path: Path) -> None:
    sp, kp = _files(tmp_path, "(x):\n    return x * 0.1 + 0.5",
                    "    if (i < n) out[i] = __fsub_rn(__fadd_rn(x[i] * 0.1f, 0.5f), 0.0f);\n")
    v = _fast(capture_spec(sp), kp, Target(fma=True))
    assert "fma(" not in v.functions[0]
    assert v.status == "no counterexample"


def test_max_and_min_on_floats_are_fmaxf_and_fminf(tmp_path: Path) -> None:
    _, kp = _files(tmp_path, "(x):\n    return x", "    if (i < n) out[i] = min(max(x[i], 0.0f), 6);\n")
    (f,) = element_functions(parse_kernel(kp)).functions
    assert repr(f) == "fmin(fmax(x0, 0.0f), 6.0f)"


def test_macros_holding_literals_are_read_from_their_definition(tmp_path: Path) -> None:
    kp = tmp_path / "k.cu"
    kp.write_text("#define THREADS 256\n#define SLOPE 0.01f\n#define HUGE_ 3.4028234663852886e38f\n"
                  "__global__ void k(const float* x, float* out, int n) {\n"
                  "    int i = blockIdx.x * THREADS + threadIdx.x;\n"
                  "    if (i < n) { float v = x[i]; out[i] = v > HUGE_ ? 0.0f : (v > 0.0f ? v : v * SLOPE); }\n}\n")
    k = parse_kernel(kp)
    (f,) = element_functions(k).functions
    assert "0.009999999776482582f" in repr(f) and "3.4028234663852886e+38f" in repr(f)  # FLT_MAX, not inf
    assert "256" in repr(k.stores[0].index)


@pytest.mark.parametrize("expr, witness", [("fabsf(x[i])", (0x80000001, 0x00000000, 0x00000001)),
                                           ("-x[i]", (0x00000001, 0x80000000, 0x80000001))])
def test_ftz_flushes_the_input_of_abs_and_neg(tmp_path: Path, expr: str, witness) -> None:
    prog = "torch.abs(x)" if "fabsf" in expr else "-x"
    sp, kp = _files(tmp_path, f"(x):\n    return {prog}", f"    if (i < n) out[i] = {expr};\n")
    spec = capture_spec(sp)
    assert _fast(spec, kp, Target(ftz=False)).status == "no counterexample"
    v = _fast(spec, kp, Target(ftz=True))  # abs.ftz.f32 / neg.ftz.f32 (PTX ISA)
    assert v.status == "not equivalent"
    assert witness in {(w.inputs[0], w.kernel, w.spec) for w in v.witnesses}


def test_unsafe_kernel_gets_the_unsafe_verdict_with_its_semantic_result_as_detail(capsys) -> None:
    code = main(["floats", "check", str(CORPUS / "add/spec.py"), str(CORPUS / "add/vec4_no_tail.cu"), "--json",
                 "--no-progress"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1
    assert doc["schema"] == "workbench.floats/2" and doc["verdict"] == "unsafe"
    assert doc["status"] in ("not equivalent", "equivalent", "no counterexample")  # the semantic detail
    assert doc["cuda_function"] == "add_vec4" and doc["spec_device"] == "cuda"
    assert not doc["safety"]["safe"] and "kernel" not in doc


def test_text_report_names_the_spec_device_and_the_one_verdict(capsys) -> None:
    code = main(["floats", "check", str(CORPUS / "add/spec.py"), str(CORPUS / "add/vec4_no_tail.cu"),
                 "--spec-device", "cpu", "--no-progress"])
    out = capsys.readouterr().out
    assert code == 1
    assert "spec device: cpu" in out and re.search(r"^verdict  unsafe", out, re.M)


@pytest.mark.parametrize("argv, message", [
    (["relu/ternary.cu", "relu/spec.py"], r"arguments are swapped"),
    (["relu/spec.py", "relu/spec.py"], r"is not a \.cu file"),
    (["relu/ternary.cu", "relu/ternary.cu"], r"is not a \.py file"),
])
def test_swapped_or_wrong_arguments_exit_2_with_one_line(capsys, argv, message) -> None:
    code = main(["floats", "check", *[str(CORPUS / a) for a in argv]])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and re.search(message, err)


def test_launch_expressions_are_parsed_with_c_division_and_never_evaluated() -> None:
    launch = parse_launch("// launch: grid = min((n + 1023) / 1024, 80), block = 256\n")
    assert launch.sizes(1) == (1, 256) and launch.sizes(10**6) == (80, 256)
    assert Launch(grid="(0 - n) / 2 + n", block="max(n % 3, 1)").sizes(7) == (4, 1)  # -7/2 == -3 in C
    with pytest.raises(CudaParseError, match=r"unexpected '__import__'"):
        Launch(grid="__import__('os')", block="1").sizes(1)
    sources = (ROOT / "workbench/floats").rglob("*.py")
    assert not [p for p in sources if re.search(r"\beval\(|\bexec\(", p.read_text())]


def test_approximate_intrinsics_are_undecided_with_the_stand_in_ulp_distance() -> None:
    spec = capture_spec(CORPUS / "rsqrt/spec.py", "cpu")  # 1 / sqrt(x), two roundings
    v = check(spec, parse_kernel(CORPUS / "rsqrt/rsqrtf.cu"), exhaustive=False, progress=False, random_cases=1 << 12)
    assert v.status == "undecided" and v.max_ulp is not None and 0 <= v.max_ulp <= 1
    assert "rsqrtf: 2 ulp" in v.summary
    v = check(capture_spec(CORPUS / "reciprocal/spec.py"), parse_kernel(CORPUS / "reciprocal/fdividef.cu"),
              exhaustive=False, progress=False, random_cases=1 << 12)
    assert v.status == "undecided" and v.max_ulp == 0 and "__fdividef: 2 ulp" in v.summary
