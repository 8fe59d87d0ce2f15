"""Capture what eager runs (issue 24 item 2, issue 27): ``t[idx] = v`` on the fake device, models that compute
with tensor values while built, failures said by their owner (the program, Inductor, the capture hooks),
``--device cpu``, a non-.py file, and ``--workspace`` before the command."""

import textwrap

import pytest

from workbench.capture import capture, capture_run
from workbench.capture.failure import explain, is_program_file
from workbench.cli import main
from workbench.errors import CaptureError, UsageError
from workbench.programs import load_file, resolve


def _file(tmp_path, name, text):
    f = tmp_path / name
    f.write_text(textwrap.dedent(text))
    return f


def test_setitem_runs_on_the_fake_device(tmp_path):
    f = _file(tmp_path, "setitem.py", """
        import torch
        def program(x):
            m = torch.zeros(x.shape[0], x.shape[1], device=x.device)
            m[:, 1:3] = 1.0
            m[0] = x[1]
            return x * m
        def example_inputs():
            return (torch.randn(5, 7),)
    """)
    (k,) = capture(load_file(f), device="fake-cuda")
    body = k.jit_source
    # both writes are in the kernel: the slice's bounds 1 and 3, and a load of row 1 for row 0
    assert "tl.full([1], 1, tl.int64)" in body and "tl.full([1], 3, tl.int64)" in body, body


def test_a_raising_program_is_named_with_its_own_frame_first(tmp_path):
    f = _file(tmp_path, "raises.py", """
        import torch
        def program(x):
            y = x + 1
            raise ValueError("bad shape")
        def example_inputs():
            return (torch.randn(3, 4),)
    """)
    with pytest.raises(CaptureError, match=r"^your program raised ValueError at raises.py:5 in program "
                                           r"\(`raise ValueError\(\"bad shape\"\)`\): bad shape — this is the "
                                           r"program's own code"):
        capture(load_file(f), device="fake-cuda")


def test_a_model_computing_with_tensors_while_built_is_built_on_the_cpu_and_says_so(tmp_path):
    f = _file(tmp_path, "widths.py", """
        import torch, torch.nn as nn
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                w = torch.linspace(8, 16, 3).round().int().tolist()   # regnet's widths are computed like this
                self.lin = nn.Linear(w[0], w[0])
            def forward(self, x):
                return self.lin(x).relu()
        def model():
            return M()
        def example_inputs():
            return (torch.randn(3, 8),)
        def dynamic_dims():
            return ((0,),)
    """)
    run = capture_run(load_file(f), device="fake-cuda")
    assert run.kernels
    (note,) = run.notes
    assert "on the CPU" in note and "widths.py:6" in note and "meta" in note, note


def test_inductors_failure_names_inductor_the_op_and_the_program_line():
    import torch._inductor.exc as iexc
    from torch.utils._sympy.value_ranges import ValueRangeError

    try:
        try:
            raise ValueRangeError("Invalid ranges [0:-1]")
        except ValueRangeError as inner:
            raise iexc.InductorError(inner, None) from inner
    except iexc.InductorError as exc:
        stack = ('  File "/models/shufflenetv2.py", line 31, in channel_shuffle\n'
                 '    x = x.view(batchsize, groups, channels_per_group, height, width)\n')
        err = explain(exc, "shufflenet", "fake-cuda:L4", ("reshape.default", stack))
    assert str(err).startswith("Inductor failed on program 'shufflenet' while lowering reshape.default from "
                               "shufflenetv2.py:31 in channel_shuffle (`x = x.view(batchsize, groups, "), str(err)
    assert "ValueRangeError: Invalid ranges [0:-1]" in str(err) and "Inductor's own error" in str(err)
    assert "capture-hook gap" not in str(err)


def test_program_files_are_outside_torch_the_workbench_and_the_standard_library():
    import contextlib

    import importlib.util

    import torch

    import workbench

    torchvision = importlib.util.find_spec("torchvision")  # the zoo extra; a model's own code (not imported)

    assert not is_program_file(torch.__file__) and not is_program_file(workbench.__file__)
    assert not is_program_file(contextlib.__file__) and not is_program_file("<eval_with_key>.3")
    assert (torchvision is None or is_program_file(torchvision.origin)) and is_program_file("/home/user/raises.py")


def test_device_cpu_captures():
    kernels = capture("nested_cat_add", device="cpu")
    assert kernels and all(k.device.startswith("cpu") for k in kernels)


def test_a_file_that_is_not_python_is_named(tmp_path):
    notes = _file(tmp_path, "notes.txt", "hello\n")
    with pytest.raises(UsageError, match=r"'.*notes.txt' is not a .py file \(a file\)"):
        resolve(str(notes))
    with pytest.raises(UsageError, match=r"'notes.txt' is not a .py file"):
        resolve("notes.txt")


def test_workspace_before_the_command(tmp_path, capsys):
    ws = tmp_path / "ws"
    assert main(["--workspace", str(ws), "list"]) == 0
    assert "nested_cat_add" in capsys.readouterr().out
    assert main(["--workspace", str(ws), "capture", "cat3"]) == 0
    assert list((ws / "kernels" / "cat3").glob("*.json"))
