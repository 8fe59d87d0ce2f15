"""The Inductor hook the rule uses, on real compilations: retyping, restoring, and running end to end on
the CPU under Triton's interpreter bitwise equal to eager."""

import pytest
import torch

from workbench import programs
from workbench.capture import capture
from workbench.capture.integration import cpu_interpreter, kernel_definition_hook, retype_signature
from workbench.errors import CaptureError

SRC = "@triton_heuristics.pointwise(\n    triton_meta={'signature': {'in_ptr0': '*bf16', 'ks0': 'i64', 'xnumel': 'i32'}, 'device': 0},\n)\n"


def test_retype_signature_rewrites_only_the_signature():
    out = retype_signature(SRC, {"ks0": "i32"})
    assert "'ks0': 'i32'" in out and "'xnumel': 'i32'" in out and "'in_ptr0': '*bf16'" in out
    with pytest.raises(CaptureError, match="argument 'ks9' is not in the kernel's signature"):
        retype_signature(SRC, {"ks9": "i32"})
    with pytest.raises(CaptureError, match="has no `triton_meta="):
        retype_signature("def k(): pass", {"ks0": "i32"})


def test_hook_sees_live_facts_and_restores_inductor():
    from torch._inductor.codegen.triton import TritonScheduling

    before = TritonScheduling.define_kernel
    seen = []

    def decide(live):
        seen.append(live.record)
        return {a.name: "i32" for a in live.record.size_args}

    with kernel_definition_hook(decide) as decisions:
        (k,) = capture("nested_cat_add")
    assert TritonScheduling.define_kernel is before
    (live,) = seen
    assert [a.expr for a in live.size_args] == [a.expr for a in k.size_args]
    assert live.guards == k.guards and live.index_dtype == "tl.int32"
    assert all(k.signature[a.name] == "i32" for a in k.size_args)  # the compiled kernel was retyped
    assert decisions == [(k.name, {a.name: "i32" for a in k.size_args})]


def test_beyond_the_int32_guard_inductor_indexes_in_int64():
    """At numel = 2**31 the trace has no int32 guard and int64 indexing, so no int32 premise can hold."""
    p = programs.get("nested_cat_add")
    big = programs.Program(p.name, p.fn, p.inputs, {"rows": 2**16, "q": 2**14 - 384, "k": 256, "v": 128})
    (k,) = capture(big)
    assert k.index_dtype == "tl.int64" and k.signature["xnumel"] == "i64"
    assert not any("2147483647" in g for g in k.guards)


def _run(program, decide, shapes):
    torch._dynamo.reset()
    with cpu_interpreter(), kernel_definition_hook(decide) as decisions:
        f = torch.compile(program.fn, dynamic=True)
        results = []
        for sz in shapes:
            ins = program.make_inputs(sz, seed=sum(sz.values()))
            out, ref = f(*ins), program.fn(*ins)
            results.append(out.dtype == ref.dtype and torch.equal(out.view(torch.int16), ref.view(torch.int16)))
    torch._dynamo.reset()
    return results, decisions


def test_narrowed_kernel_runs_under_the_interpreter_bitwise_equal_to_eager():
    p = programs.get("nested_cat_add")
    results, decisions = _run(p, lambda live: {a.name: "i32" for a in live.record.size_args}, p.shape_sequence("tiny"))
    assert all(results), results
    assert len(decisions) == 1  # one graph, one kernel, over the whole shape sequence: no recompilation
    ((name, types),) = decisions
    assert types == {"ks0": "i32", "ks1": "i32", "ks2": "i32", "ks3": "i32"}
