"""``workbench floats check REFERENCE.py ANSWER.py`` on KernelBench's own example pairs (copied unchanged into
data/floats/kernelbench/examples) and on answers we wrote in the same format (data/floats/kernelbench/answers):
nothing in ANSWER.py is executed, the launch is read from the host wrapper, bad input is one line (exit 2)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.floats.errors import CudaUnsupportedError
from workbench.floats.kernelbench import read_answer, read_launch, read_problem, split_source

ROOT = Path(__file__).resolve().parents[2]
KB = ROOT / "data/floats/kernelbench"
EX = KB / "examples"
LEVEL1 = ROOT.parent / "shared/kernelbench/level1"


def _run(capsys, *argv: str) -> tuple[int, dict | str]:
    rc = main(["floats", "check", *argv, "--no-progress", "--workers", "1"])
    out = capsys.readouterr()
    return rc, (json.loads(out.out) if "--json" in argv else out.out + out.err)


def test_kernelbench_add_example_checks_without_editing(capsys) -> None:
    rc, doc = _run(capsys, str(EX / "model_ex_add.py"), str(EX / "model_new_ex_add.py"), "--json")
    assert doc["cuda_function"] == "elementwise_add_kernel" and doc["kernel_file"].endswith("model_new_ex_add.py")
    # a + b in the kernel is ATen's add (alpha = 1): the same expression, so equivalent on every input
    assert doc["verdict"] == "equivalent" and "node for node" in doc["summary"] and rc == 0
    assert doc["safety"]["safe"] and doc["safety"]["complete"]
    assert any("launch from elementwise_add_cuda (line 25): grid = (((n + 256) - 1) / 256), block = 256" in n
               for n in doc["notes"])


def test_kernelbench_gelu_example_is_undecided_naming_tanhf_and_gates_get_inputs_size(capsys) -> None:
    rc, doc = _run(capsys, str(EX / "model_ex_fuse_gelu.py"), str(EX / "model_new_ex_fuse_gelu.py"), "--json")
    assert rc == 1 and doc["verdict"] == "undecided" and "tanhf on the device" in doc["summary"]
    assert "1048576" in doc["safety"]["summary"]  # get_inputs' 1024 x 1024 elements, enumerated
    # the launch is made by my_gelu_out, which my_gelu calls with the tensor it created; the kernel's output
    # parameter comes first: inputs are bound by the wrapper, not by position
    assert any("launch from my_gelu_out (line 49)" in n for n in doc["notes"])


def test_kernelbench_tiled_matmul_example_goes_to_the_block_level(capsys) -> None:
    # the elementwise reader still refuses shared memory by name ...
    from workbench.floats.kernelbench import load

    with pytest.raises(CudaUnsupportedError, match=r"shared memory \(`__shared__` at model_new_ex_tiled_matmul.py:39\) "
                       "is beyond the floats level"):
        load(EX / "model_ex_tiled_matmul.py", EX / "model_new_ex_tiled_matmul.py")
    # ... and `floats check` sends the pair to the block level (docs/floats-block.md), unedited
    rc, doc = _run(capsys, str(EX / "model_ex_tiled_matmul.py"), str(EX / "model_new_ex_tiled_matmul.py"), "--json",
                   "--spec-device", "cpu", "--trials", "2", "--shapes", "17x19,19x3")
    assert doc["schema"] == "workbench.floats-block/1" and doc["cuda_function"] == "tiled_matmul_kernel"
    assert doc["reals"]["status"] == "equivalent over the reals" and doc["safety"]["safe"]
    assert doc["float32"]["status"] != "equivalent over float32" and rc == 1


def test_nothing_in_the_answer_is_executed_and_lines_are_the_answer_files(tmp_path: Path) -> None:
    src = (EX / "model_new_ex_add.py").read_text()
    ans = tmp_path / "answer.py"
    ans.write_text("raise SystemExit('ANSWER.py was executed')\n" + src)
    a = read_answer(ans)
    text, hosts = split_source(a.cuda)
    lines = ans.read_text().splitlines()
    kept = [(k, t) for k, t in enumerate(text.splitlines()) if t.strip()]
    assert kept and all(lines[k] == t for k, t in kept)  # every kernel line sits on its answer.py line
    assert lines[12].strip().startswith("int idx") and text.splitlines()[12] == lines[12]
    assert hosts["elementwise_add_cuda"].wrapper and "elementwise_add_kernel<<<" not in text
    launch = read_launch(a, hosts, a.cuda)
    assert (launch.kernel, launch.line) == ("elementwise_add_kernel", 26)


def test_reference_reader_takes_shapes_statically() -> None:
    p = read_problem(EX / "model_ex_add.py")
    assert p.shapes == ((1, 128), (1, 128)) and p.numel == 128 and p.init_args == ()


@pytest.mark.parametrize(("answer", "problem", "verdict", "rc", "needle"), [
    ("19_ReLU_while.py", "19_ReLU.py", "equivalent", 0, "identical on all 2**32 inputs"),
    ("19_ReLU_floor_grid.py", "19_ReLU.py", "output-not-fully-written", 1, "no thread writes y[0] when n = 1"),
    ("20_LeakyReLU_helper.py", "20_LeakyReLU.py", "equivalent", 0, "identical on all 2**32 inputs"),
])
def test_our_model_style_answers(capsys, answer: str, problem: str, verdict: str, rc: int, needle: str) -> None:
    if not (LEVEL1 / problem).is_file():
        pytest.skip(f"KernelBench level 1 problem {problem} not present at {LEVEL1}")
    got, doc = _run(capsys, str(LEVEL1 / problem), str(KB / "answers" / answer), "--json")
    assert (doc["verdict"], got) == (verdict, rc), doc["summary"]
    assert needle in doc["summary"] + doc["safety"]["summary"]


@pytest.mark.parametrize(("edit", "pattern"), [
    (("    auto size = a.numel();", "    if (a.numel() == 0) return a;\n    auto size = a.numel();"),
     r"`if` statement at answer\.py:19 is not read by the KernelBench wrapper reader"),
    (("return self.elementwise_add.elementwise_add_cuda(a, b)", "return self.elementwise_add.elementwise_add_cuda(a, b) * 2"),
     r"ModelNew\.forward at answer\.py:\d+ is not one `return ext\.fn\(\.\.\.\)`|calls `.*`, not a function"),
    (("out.data_ptr<float>(), size)", "out.data_ptr<float>(), size / 2)"),
     r"passes `\(n / 2\)` as elementwise_add_kernel's element count `size`"),
])
def test_wrapper_outside_the_reader_is_one_line(capsys, tmp_path: Path, edit, pattern) -> None:
    ans = tmp_path / "answer.py"
    text = (EX / "model_new_ex_add.py").read_text()
    assert edit[0] in text
    ans.write_text(text.replace(edit[0], edit[1]))
    ref = tmp_path / "ref.py"
    shutil.copy(EX / "model_ex_add.py", ref)
    rc, out = _run(capsys, str(ref), str(ans))
    assert rc == 2 and out.count("\n") == 1, out
    import re

    assert re.search(pattern, out), out


def test_swapped_kernelbench_arguments_are_named(capsys) -> None:
    rc, out = _run(capsys, str(EX / "model_new_ex_add.py"), str(EX / "model_ex_add.py"))
    assert rc == 2 and "arguments are swapped" in out


def test_two_dimensional_launch_is_refused_by_name() -> None:
    from workbench.floats.hostcode import HostFunction, WrapperReader, _tokens

    body = "dim3 tpb(16, 16); return x;"
    r = WrapperReader({"w": HostFunction("w", ("x",), (True,), body, 7, True)}, "a.py", frozenset())
    with pytest.raises(CudaUnsupportedError, match=r"2-D launch `dim3 tpb\(16, 16\)` at a\.py:7"):
        r.call("w", [None], 7)
    assert _tokens("a <<< b", 1, "a.py")[1] == ("<<<", 1)


MODEL_STYLE_WRAPPER = '''
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void k(const float* __restrict__ input, float* __restrict__ output, int64_t size) {
    int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (i < size) output[i] = input[i] * 2.0f;
}

torch::Tensor twice_cuda(torch::Tensor input) {
    TORCH_CHECK(input.is_cuda(), "input must be CUDA");
    auto x = input.contiguous();
    auto output = torch::empty_like(x);
    int64_t size = x.numel();
    const int threads = 512;
    const int blocks = static_cast<int>((size + threads - 1) / threads);
    const float* in_ptr = x.data_ptr<float>();
    float* out_ptr = output.data_ptr<float>();
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    k<<<blocks, threads, 0, stream>>>(in_ptr, out_ptr, size);
    return output;
}
'''


def test_model_style_wrapper_idioms_are_read(tmp_path: Path) -> None:
    """contiguous(), int64_t sizes, static_cast, pointers in locals, the current stream as 4th launch argument."""
    from workbench.floats.hostcode import DataPtr, render

    ans = tmp_path / "answer.py"
    ans.write_text("from torch.utils.cpp_extension import load_inline\nimport torch.nn as nn\n"
                   f"src = '''{MODEL_STYLE_WRAPPER}'''\n"
                   "ext = load_inline(name='t', cpp_sources='', cuda_sources=src, functions=['twice_cuda'])\n"
                   "class ModelNew(nn.Module):\n    def forward(self, x):\n        return ext.twice_cuda(x)\n")
    a = read_answer(ans)
    text, hosts = split_source(a.cuda)
    launch = read_launch(a, hosts, a.cuda)
    assert (render(launch.grid), render(launch.block)) == ("(((n + 512) - 1) / 512)", "512")
    assert [type(x).__name__ for x in launch.args] == ["DataPtr", "DataPtr", "IntExpr"]
    assert isinstance(launch.args[0], DataPtr) and launch.args[0].tensor.index == 0
    assert "twice_cuda" not in text and "__global__ void k(" in text
