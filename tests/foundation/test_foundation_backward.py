"""Training graphs (issue 24, item 4): ``capture --backward`` captures a training step's forward and backward
kernels (the output summed, or the file's ``loss(output)``; floating inputs and parameters require grad), with
dynamic dims as for inference; each record says its phase and the checker takes backward kernels like any
other. Without a GPU the step runs on Inductor's Triton CPU backend (autograd cannot run on the fake CUDA
device of a CPU-only torch), and says so."""

import json
import textwrap

import pytest

from workbench.capture import capture_run, load
from workbench.check.api import check_kernel
from workbench.cli import main
from workbench.errors import UsageError
from workbench.programs import load_file

BLOCK = textwrap.dedent("""
    import torch, torch.nn as nn
    layer = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16), nn.LayerNorm(16))
    def program(x):
        return layer(x)
    def example_inputs():
        return (torch.randn(3, 7, 16),)
    def loss(out):
        return (out ** 2).mean()
""")


def test_a_training_step_has_forward_and_backward_kernels_with_symbolic_sizes(tmp_path):
    f = tmp_path / "block.py"
    f.write_text(BLOCK)
    run = capture_run(load_file(f), backward=True)
    phases = {k.phase for k in run.kernels}
    assert phases == {"forward", "backward"}, [(k.phase, k.name) for k in run.kernels]
    back = [k for k in run.kernels if k.phase == "backward"]
    assert any("backward" in k.name for k in back)  # Inductor's own names: gelu_backward, layer_norm_backward
    assert {k.graph for k in back} != {k.graph for k in run.kernels if k.phase == "forward"}
    assert any(k.size_args for k in run.kernels) and run.dynamic_dims  # batch and sequence are symbolic
    assert any("CPU backend" in n for n in run.notes)
    for k in back:
        assert check_kernel(k, "observable", smt=False).verdict in ("certified", "refused", "out-of-class")


def test_the_cli_saves_backward_records_beside_forward_ones(tmp_path, capsys):
    f = tmp_path / "block.py"
    f.write_text(BLOCK)
    ws = tmp_path / "ws"
    assert main(["--workspace", str(ws), "capture", str(f), "--backward", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    paths = [k["path"] for k in doc["kernels"]]
    back = [p for p in paths if p.endswith("__backward.json")]
    assert back and len(set(paths)) == len(paths)
    assert load(back[0]).phase == "backward"
    assert all(load(p).phase == "forward" for p in paths if p not in back)
    assert '"phase"' not in open(next(p for p in paths if p not in back)).read()  # inference JSON unchanged


def test_the_fake_cuda_device_refuses_a_training_step_by_name():
    with pytest.raises(UsageError, match="cannot be captured on the fake CUDA device.*--device cpu"):
        capture_run("cat3", device="fake-cuda", backward=True)


POSITIONS = textwrap.dedent("""
    import torch, torch.nn as nn
    class Tagger(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(64, 16)
            self.register_buffer("positions", torch.arange(64))  # values matter: they index the embedding
            self.out = nn.Linear(16, 16)
        def forward(self, x):
            pos = self.positions[: x.shape[1]]
            return self.out(x + self.emb(pos))
    def model():
        return Tagger()
    def example_inputs():
        return (torch.randn(3, 7, 16),)
""")


def test_a_training_step_keeps_the_values_of_the_models_buffers(tmp_path):
    # a module built on the meta device has buffers without values; a training step runs on a real device,
    # so the model is built there (before: uninitialised memory indexed the embedding out of bounds)
    f = tmp_path / "tagger.py"
    f.write_text(POSITIONS)
    run = capture_run(load_file(f), backward=True)
    assert {k.phase for k in run.kernels} == {"forward", "backward"}
