"""Capture: every registered program, report 1's facts, round trips, bad input, and leaving no trace."""

import json
import os
import re

import pytest
import sympy
import torch

from workbench import programs
from workbench.capture import capture, capture_program, capture_run, hooks, load, load_dir, save
from workbench.capture.isolated import capture_isolated
from workbench.capture.record import CapturedKernel
from workbench.errors import CaptureError, InputError, VersionMismatchError
from workbench.paths import KERNELS
from workbench.symexpr import parse_any

INT32_MAX = 2**31 - 1


@pytest.mark.parametrize("name", programs.names())
def test_every_registered_program_captures_and_matches_its_saved_record(name):
    kernels = capture(name)
    assert kernels, name
    saved = {k.name: k for k in load_dir(KERNELS / name)}
    assert sorted(saved) == sorted(k.name for k in kernels), f"re-capture {name}: `workbench capture {name}`"
    for k in kernels:
        assert k.source.count(f"def {k.name}(") == 1
        # one jit function, or the kernel plus the combine helper Inductor emits for a scan (cumsum)
        assert k.source.count("@triton.jit") == 1 or "tl.associative_scan" in k.source, k.name
        assert k.grid_type in ("Grid1D", "Grid2D", "Grid2DWithYZOverflow")
        for a in k.size_args:
            assert k.signature[a.name] == a.type
            free = {str(s) for s in parse_any(a.expr).free_symbols}
            assert free <= {s.name for s in k.symbols}, (a, k.symbols)
        for s in k.symbols:
            assert s.lower is not None and s.lower >= 2  # Dynamo specializes 0 and 1
        # the saved record is what capture produces now (same body, same facts)
        assert saved[k.name].source_hash == k.source_hash
        assert saved[k.name].size_args == k.size_args and saved[k.name].guards == k.guards


def test_nested_cat_add_facts_are_inductors_symbolic_facts():
    (k,) = capture("nested_cat_add")
    sym = {s.name: s for s in k.symbols}
    args = {a.name: a for a in k.size_args}
    assert [a.type for a in k.size_args] == ["i64"] * 4
    (numel,) = k.numels
    assert numel.name == "xnumel" and numel.type == "i32" and k.index_dtype == "tl.int32"
    widths = [sympy.Symbol(args[f"ks{i}"].expr) for i in (1, 2, 3)]
    assert sympy.simplify(parse_any(args["ks0"].expr) - 2 * sum(widths)) == 0
    (rows,) = [s for s in sym if s not in {str(w) for w in widths}]
    assert sympy.simplify(parse_any(numel.expr) - sympy.Symbol(rows) * parse_any(args["ks0"].expr)) == 0
    assert any(g.endswith(f"<= {INT32_MAX}") and sympy.simplify(
        parse_any(g.split("<=")[0]) - parse_any(numel.expr)) == 0 for g in k.guards)
    # each symbol names the input dimensions it stands for
    assert any("q1.size(1)" in src for src in sym[str(widths[0])].sources)


def test_distinct_widths_give_seven_size_arguments():
    (k,) = capture("nested_cat_add_distinct")
    assert [a.name for a in k.size_args] == [f"ks{i}" for i in range(7)]
    total = parse_any(k.size_args[0].expr)
    assert total == sum(sympy.Symbol(a.expr) for a in k.size_args[1:])


def test_example_sizes_are_not_facts():
    """Different example sizes give the same kernel body, and no recorded fact carries an example size.
    (Symbol names and how Dynamo relates equal dimensions may differ between traces; Inductor's autotuning
    ``size_hints`` in the decorator follow the example: they are hints, not facts.)"""
    p = programs.get("cat2")
    examples = [dict(p.example), {"rows": 9, "a": 4, "b": 6}]
    runs = [capture(programs.Program(p.name, p.fn, p.inputs, ex)) for ex in examples]
    assert [k.jit_source for k in runs[0]] == [k.jit_source for k in runs[1]]
    for ex, kernels in zip(examples, runs):
        for k in kernels:
            facts = [a.expr for a in k.size_args] + [n.expr for n in k.numels] + list(k.guards)
            numbers = {int(t) for f in facts for t in re.findall(r"(?<![\w.])\d+(?![\w.])", f)}
            assert not numbers & set(ex.values()), (ex, facts)
            assert all(s.lower == 2 and s.upper is None for s in k.symbols)


def test_round_trip(tmp_path):
    (k,) = capture("cat3")
    path = save(k, tmp_path)
    assert (tmp_path / f"{k.name}.py").read_text() == k.source
    assert load(path) == k
    assert CapturedKernel.from_json(json.loads(path.read_text())) == k


def test_broken_record_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(InputError, match=r"not valid JSON \(line 1"):
        load(bad)
    bad.write_text(json.dumps({"schema": "something/else"}))
    with pytest.raises(InputError, match=r"not a captured-kernel record \(schema 'something/else'"):
        load(bad)
    with pytest.raises(InputError, match="does not exist"):
        load(tmp_path / "missing.json")


def test_version_mismatch_is_refused(monkeypatch):
    monkeypatch.setattr(hooks, "installed_versions", lambda: {"torch": "2.14.0", "triton": "3.7.1"})
    with pytest.raises(VersionMismatchError, match=r"found torch 2.14.0 \(pinned 2.13.0\).*--device cuda"):
        capture("cat2", device="fake-cuda")


def test_hook_points_fit_the_installed_versions():
    assert hooks.check_hook_points() == []




def test_graph_breaks_capture_every_graph_and_say_where(program_file):
    f = program_file("breaks", """
        import torch
        def program(x):
            y = (x * 3).contiguous()
            torch._dynamo.graph_break()
            return (y + 1).sin()
        def example_inputs():
            return (torch.randn(5, 3),)
    """)
    run = capture_run(f)
    assert run.graphs == 2 and len(run.graph_breaks) == 1
    (brk,) = run.graph_breaks
    assert brk.where == "breaks.py:5 in program" and "graph_break" in brk.reason
    assert [k.graph for k in run.kernels] == [0, 1]  # each graph's kernel, numbered by graph
    assert all(k.graph_breaks == (brk.text(),) for k in run.kernels)
    with pytest.raises(CaptureError, match=r"cannot be captured as one graph: Dynamo says"):
        capture(f, fullgraph=True)


def test_data_dependent_control_flow_is_a_clear_error_on_the_fake_device(program_file):
    f = program_file("branches", """
        import torch
        def program(x):
            if x.sum() > 0:
                return x + 1
            return x - 1
        def example_inputs():
            return (torch.randn(5, 3),)
    """)
    with pytest.raises(CaptureError, match=r"branches on tensor values.*no values.*real GPU"):
        capture(f, device="fake-cuda")


def test_module_level_modules_capture_with_fake_weights_and_are_restored(program_file):
    f = program_file("user_mlp", """
        import torch
        import torch.nn as nn
        norm = nn.LayerNorm(32)
        mlp = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 32))
        def program(x):
            return mlp(norm(x))
        def example_inputs():
            return (torch.randn(3, 7, 32),)
    """)
    prog = programs.load_file(f)
    before = {n: (id(p), p.data_ptr()) for n, p in prog.fn.__globals__["mlp"].named_parameters()}
    run = capture_run(prog)
    assert run.kernels and any("gelu" in k.name for k in run.kernels)
    # batch and sequence are symbolic (maybe_mark_dynamic on every dim); the width is pinned by the weights
    assert run.dynamic_dims == ("x.size(0) (input 0)", "x.size(1) (input 0)")
    assert all(k.dynamic_dims == run.dynamic_dims for k in run.kernels)
    # the user's modules get their own real CPU parameters back, untouched
    after = {n: (id(p), p.data_ptr()) for n, p in prog.fn.__globals__["mlp"].named_parameters()}
    assert after == before and all(p.device.type == "cpu" for p in prog.fn.__globals__["norm"].parameters())


def test_model_file_is_built_on_the_meta_device(program_file):
    f = program_file("user_model", """
        import torch
        import torch.nn as nn
        BUILT = []
        def model():
            m = nn.Sequential(nn.Linear(48, 40), nn.SiLU())
            BUILT.append(m[0].weight.device.type)
            return m
        def example_inputs():
            return (torch.randn(5, 48),)
        def dynamic_dims():
            return ((0,),)
    """)
    prog = programs.load_file(f)
    assert prog.build is not None
    run = capture_run(prog)
    assert prog.build.__globals__["BUILT"] == ["meta"]  # no weight was ever allocated
    assert run.dynamic_dims == ("inputs[0].size(0) (input 0)",)
    assert any("silu" in k.name for k in run.kernels)


def test_a_kernel_reused_by_repeated_layers_is_recorded_once(program_file):
    f = program_file("repeated", """
        import torch
        import torch.nn as nn
        def model():
            return nn.Sequential(nn.Linear(24, 24), nn.SiLU(), nn.Linear(24, 24), nn.SiLU())
        def example_inputs():
            return (torch.randn(5, 24),)
    """)
    kernels = capture(f)
    names = [k.name for k in kernels]
    assert len(names) == len(set(names)) == 1, names  # Inductor defines the bias+SiLU kernel twice, one source


def test_isolated_capture_survives_a_crashing_program(program_file):
    f = program_file("aborts", """
        import os
        import torch
        def program(x):
            return x + 1
        def example_inputs():
            os.abort()
    """)
    with pytest.raises(CaptureError, match=r"crashed the child process \(SIGABRT\)"):
        capture_isolated(f)
    with pytest.raises(CaptureError, match=r"unknown capture device 'tpu'"):
        capture_isolated("cat2", device="tpu")


@pytest.mark.parametrize("capture_fn", [capture, capture_isolated], ids=["in-process", "forked child"])
def test_no_triton_kernel_is_a_clear_error(capture_fn, program_file):
    f = program_file("view_only", """
        import torch
        def program(x):
            return x.view(-1)
        def example_inputs():
            return (torch.randn(5, 3),)
    """)
    with pytest.raises(CaptureError, match=r"emitted no Triton kernel"):
        capture_fn(f)


def test_user_program_file_with_dynamic_dims(tmp_path, program_file):
    f = program_file("user_cat", """
        import torch
        def program(a, b):
            return torch.cat([a, b], dim=-1) * 2
        def example_inputs():
            return (torch.randn(4, 3), torch.randn(4, 5))
        def dynamic_dims():
            return ((1,), (1,))
    """)
    kernels, paths = capture_program(f, out=tmp_path / "out")
    (k,) = kernels
    assert k.program == "user_cat" and paths[0].exists()
    # rows are static (4): only the widths are symbols
    assert len(k.symbols) == 2 and all("size(1)" in s.sources[0] for s in k.symbols)


def _state():
    import triton
    from torch._inductor.fx_passes import joint_graph

    return {
        "is_available": torch.cuda.is_available,
        "getitem": torch.Tensor.__getitem__,
        "contiguous": torch.Tensor.contiguous,
        "driver": triton.runtime.driver._active,
        "lazy_init": joint_graph.lazy_init,
        "config": torch._inductor.config.save_config_portable(),
        "dynamo": torch._dynamo.config.save_config_portable(),
        "env": {k: os.environ.get(k) for k in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR")},
    }


@pytest.mark.parametrize("program", ["nested_cat_add", "FAILING"])
def test_capture_leaves_no_trace(tmp_path, monkeypatch, program, program_file):
    cache = tmp_path / "user-inductor-cache"
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", str(cache))
    if program == "FAILING":
        program = program_file("fails", """
            import torch
            def program(x):
                return torch.nonzero(x)
            def example_inputs():
                return (torch.randn(5, 3),)
        """)
    before = _state()
    try:
        capture(program)
    except CaptureError:
        pass
    assert _state() == before
    assert not cache.exists() or not any(cache.rglob("*")), "capture wrote into the user's Inductor cache"


def test_unknown_device_and_profile():
    from workbench.errors import UsageError

    with pytest.raises(UsageError, match="unknown capture device 'tpu'"):
        capture("cat2", device="tpu")
    with pytest.raises(UsageError, match="unknown GPU profile 'V100'"):
        capture("cat2", gpu="V100")


def test_capture_does_not_depend_on_earlier_compilations_of_the_same_function():
    # Dynamo's profile-guided dynamism keys what it learnt by (file, first line, name); an earlier compile of
    # the program with other sizes marked its dims DYNAMIC for the capture, which turned duck sizing off and
    # gave another kernel (ks0 = s12 + s25 + ... instead of 2*s12 + ...): an order-dependent test failure.
    from torch._dynamo import pgo

    (clean,) = capture("nested_cat_add", device="fake-cuda")
    p = programs.resolve("nested_cat_add")
    f = torch.compile(p.fn, backend="eager")
    for rows, q, k, v in ((7, 11, 5, 3), (9, 13, 6, 4)):
        f(*[torch.randn(rows, w) for w in (q, k, v, v, q, k, v, v)])
    before = pgo._CODE_STATE
    assert before is not None  # the user's compiles left profile state: what capture must not read
    (again,) = capture("nested_cat_add", device="fake-cuda")
    assert pgo._CODE_STATE is before  # the caller's state is put back
    assert again.source_hash == clean.source_hash
    assert [(a.name, a.expr) for a in again.size_args] == [(a.name, a.expr) for a in clean.size_args]
