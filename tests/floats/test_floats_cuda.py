"""CUDA frontend: translation of the corpus kernels, exact literals, refusals by name and line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from workbench.floats.cuda import parse_kernel, round_literal
from workbench.floats.errors import CudaParseError, CudaUnsupportedError
from workbench.floats.gate import element_functions
from workbench.floats.ir import Op, Ty, walk

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data/floats/corpus"
KERNELS = sorted(CORPUS.glob("*/*.cu"))

HEAD = "__global__ void k(const float* x, float* out, int n) {\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"


def _kernel(tmp_path: Path, body: str, head: str = HEAD) -> Path:
    p = tmp_path / "k.cu"
    p.write_text(head + body + "}\n")
    return p


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_corpus_kernel_translates_deterministically(path: Path) -> None:
    a, b = parse_kernel(path), parse_kernel(path)
    assert a == b
    assert a.stores and (a.output == "out" or a.outputs)  # two-output kernels name their arrays


def test_literals_round_once_from_their_text() -> None:
    assert round_literal("3.40282347e+38f", Ty.F32) == float(np.finfo(np.float32).max)
    assert round_literal("3.4028236e38f", Ty.F32) == float("inf")  # above FLT_MAX + half an ulp
    assert round_literal("1e-45f", Ty.F32) == float(np.float32(2.0**-149))
    assert round_literal("0.01f", Ty.F32) == float(np.float32(0.01))
    assert round_literal("0.01", Ty.F64) == 0.01
    assert round_literal("0x1p-3f", Ty.F32) == 0.125


def test_double_literal_keeps_the_multiply_in_double() -> None:
    k = parse_kernel(CORPUS / "leaky_relu/double_literal.cu")
    (f,) = element_functions(k).functions
    muls = [n for n in walk(f) if n.op is Op.MUL]
    assert [m.ty for m in muls] == [Ty.F64]
    assert any(n.op is Op.CONST and n.ty is Ty.F64 and n.value == 0.01 for n in walk(f))


def test_float4_kernel_becomes_four_scalar_stores_with_an_alignment_obligation() -> None:
    k = parse_kernel(CORPUS / "relu/vec4_overrun.cu")
    assert len(k.stores) == 4 and all(s.width == 4 and s.align is not None for s in k.stores)
    assert k.launch.grid == "((n + 3) / 4 + 255) / 256"
    assert len(element_functions(k).functions) == 1


@pytest.mark.parametrize(
    ("body", "pattern"),
    [
        ("    if (i < n) atomicAdd(&out[0], x[i]);\n", r"atomic `atomicAdd` at k\.cu:3"),
        ("    if (i < n) out[i] = __shfl_down_sync(0xffffffff, x[i], 1);\n", r"warp shuffle `__shfl_down_sync` at k\.cu:3"),
        ("    int j = i;\n    do { out[j] = x[j]; j += 1; } while (j < n);\n", r"do-while loop at k\.cu:4"),
        ("    if (i >= n) goto done;\n    out[i] = x[i];\ndone:\n    return;\n", r"goto at k\.cu:3"),
        ("    for (int j = i; j < (int)x[0]; j += 1) out[j] = x[j];\n",
         r"loop whose condition reads data at k\.cu:3"),
        ("    __shared__ float s[256];\n    if (i < n) out[i] = x[i];\n", r"shared memory at k\.cu:3"),
        ("    if (i < n) out[i] = x[(i << 1) / 2];\n", r"operator `<<` at k\.cu:3"),
        ("    __syncthreads();\n    if (i < n) out[i] = x[i];\n", r"barrier `__syncthreads` at k\.cu:3"),
        ("    if (i < n) out[i] = roundf(x[i]);\n", r"call to `roundf`|use of undeclared identifier 'roundf'"),
    ],
)
def test_unmodelled_constructs_are_refused_by_name_and_line(tmp_path: Path, body: str, pattern: str) -> None:
    with pytest.raises((CudaUnsupportedError, CudaParseError), match=pattern):
        parse_kernel(_kernel(tmp_path, body))


def test_kernel_launch_is_refused_with_its_line(tmp_path: Path) -> None:
    src = ("__global__ void k(const float* x, float* out, int n) {\n    int i = threadIdx.x;\n"
           "    if (i < n) out[i] = x[i];\n}\n\nvoid launch(const float* x, float* out, int n) {\n"
           "    k<<<(n + 255) / 256, 256>>>(x, out, n);\n}\n")
    p = tmp_path / "k.cu"
    p.write_text(src)
    with pytest.raises(CudaUnsupportedError, match=r"kernel launch at k\.cu:7.*// launch:"):
        parse_kernel(p)


def test_unparsable_cuda_names_the_line(tmp_path: Path) -> None:
    with pytest.raises(CudaParseError, match=r"clang could not parse k\.cu:3: .*fix the CUDA source"):
        parse_kernel(_kernel(tmp_path, "    if (i < n) out[i] = x[i] +;\n"))


def test_float_scalar_parameter_is_a_universally_quantified_input(tmp_path: Path) -> None:
    head = "__global__ void k(const float* x, float* out, float alpha, int n) {\n    int i = threadIdx.x;\n"
    k = parse_kernel(_kernel(tmp_path, "    if (i < n) out[i] = alpha * x[i];\n", head))
    assert k.inputs == ("x", "alpha") and k.scalars == ("alpha",)


def test_missing_kernel_file_and_missing_kernel_are_input_errors(tmp_path: Path) -> None:
    with pytest.raises(CudaParseError, match=r"does not exist"):
        parse_kernel(tmp_path / "none.cu")
    p = tmp_path / "empty.cu"
    p.write_text("__device__ float f(float v) { return v; }\n")
    with pytest.raises(CudaParseError, match=r"defines no __global__ kernel"):
        parse_kernel(p)


def test_transcendentals_are_accepted_and_named() -> None:
    k = parse_kernel(CORPUS / "sigmoid/expf.cu")
    assert k.opaque == ("expf",)


def test_data_dependent_if_is_merged_into_a_select(tmp_path: Path) -> None:
    body = "    if (i < n) {\n        float v = x[i];\n        if (v > 0.0f) out[i] = v; else out[i] = 0.0f;\n    }\n"
    k = parse_kernel(_kernel(tmp_path, body))
    (f,) = element_functions(k).functions
    assert f.op is Op.SELECT
    one_sided = "    if (i < n) {\n        float v = x[i];\n        if (v > 0.0f) out[i] = v;\n    }\n"
    with pytest.raises(CudaUnsupportedError, match=r"store on only one side of an `if` on loaded data at k\.cu:5"):
        parse_kernel(_kernel(tmp_path, one_sided))


def test_cuda_runtime_includes_are_stubbed_and_torch_is_not(tmp_path: Path) -> None:
    p = tmp_path / "k.cu"
    p.write_text("#include <cuda_runtime.h>\n#include <math.h>\n" + HEAD + "    if (i < n) out[i] = fabsf(x[i]);\n}\n")
    assert len(parse_kernel(p).stores) == 1
    p.write_text("#include <torch/extension.h>\n" + HEAD + "    if (i < n) out[i] = x[i];\n}\n")
    with pytest.raises(CudaParseError, match=r"k\.cu:1: 'torch/extension\.h' file not found.*torch and other headers"):
        parse_kernel(p)


def test_device_helpers_with_a_final_return_are_inlined(tmp_path: Path) -> None:
    helper = ("__device__ __forceinline__ float leaky(float v) {\n    const float slope = 0.01f;\n"
              "    return v > 0.0f ? v : v * slope;\n}\n")
    p = tmp_path / "k.cu"
    p.write_text(helper + HEAD + "    if (i < n) out[i] = leaky(x[i]);\n}\n")
    (f,) = element_functions(parse_kernel(p)).functions
    assert repr(f) == "((x0 > 0.0f) ? x0 : (x0 * 0.009999999776482582f))"
    branchy = "__device__ float g(float v) {\n    if (v > 0.0f) return v;\n    return 0.0f;\n}\n"
    p.write_text(branchy + HEAD + "    if (i < n) out[i] = g(x[i]);\n}\n")
    (f,) = element_functions(parse_kernel(p)).functions  # issue 25: an `if` in a helper is a select
    assert repr(f) == "((x0 > 0.0f) ? x0 : 0.0f)"
    p.write_text(branchy.replace("if (v > 0.0f)", "switch (1) default:") + HEAD + "    if (i < n) out[i] = g(x[i]);\n}\n")
    with pytest.raises(CudaUnsupportedError, match=r"statement switch_stmt in __device__ function `g` at k\.cu:2"):
        parse_kernel(p)


def test_template_kernel_is_checked_as_its_explicit_instantiation(tmp_path: Path) -> None:
    src = ("template <typename T>\n__global__ void k(const T* x, T* out, int n) {\n"
           "    int i = threadIdx.x;\n    if (i < n) out[i] = x[i] * (T)2;\n}\n")
    p = tmp_path / "k.cu"
    p.write_text(src + "template __global__ void k<float>(const float*, float*, int);\n")
    k = parse_kernel(p)
    assert repr(k.stores[0].value).endswith("* 2.0f)") and k.stores[0].line == 4  # lines kept
    p.write_text(src)
    with pytest.raises(CudaParseError, match=r"template kernel in k\.cu has 0 explicit instantiations; add exactly one"):
        parse_kernel(p)
