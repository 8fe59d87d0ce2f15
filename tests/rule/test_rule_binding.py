"""Binding on real compilations of the whole corpus: every certified kernel binds; each variant with a
certified guard dropped or weakened, or a symbol's lower bound lowered, is refused; and the rule narrows
nested_cat_add end to end under Triton's interpreter, bitwise equal to eager."""

import dataclasses

import pytest
import torch

from workbench import programs
from workbench.capture import capture
from workbench.capture.integration import cpu_interpreter
from workbench.rule import best_binding, bind, live_ir_hash, load_store, narrowing
from workbench.rule.mutants import live_records, premise_mutants


@pytest.fixture(scope="module")
def store():
    s = load_store()
    assert len(s) >= 20, "the checker certified fewer kernels than expected"
    return s


@pytest.fixture(scope="module")
def live(store):
    """Each certified kernel's program compiled again, its kernels seen live at definition time."""
    return {prog: live_records(prog) for prog in sorted({c.record.program for c in store})}


def _live_for(cert, live):
    matches = [r for r in live[cert.record.program] if r.source_hash == cert.record.source_hash]
    assert matches, f"{cert.record.program}: the live compilation did not define {cert.record.name}"
    return matches[0]


def test_every_certified_kernel_binds_to_its_live_compilation(store, live):
    for cert in store:
        rec = _live_for(cert, live)
        b = best_binding(store, rec)
        assert b.bound, (cert.record.program, b.explain())
        assert b.narrow == cert.narrow or set(b.narrow) == set(cert.narrow)


def test_weakened_premises_are_refused(store, live, capsys):
    tried = refused = 0
    for cert in store:
        rec = _live_for(cert, live)
        mutants = list(premise_mutants(cert, rec))
        assert sum(w.startswith("drop guard") for w, _ in mutants) == len(cert.guards_used)
        for what, mutant in mutants:
            # the mutant really is weaker: a dropped guard is gone, a lowered bound is lower
            assert mutant != rec
            tried += 1
            b = bind(cert, mutant, cert.ir_hash)
            assert not b.bound, f"{cert.record.program}: {what} still bound"
            assert b.failed
            refused += 1
    with capsys.disabled():
        print(f"\nbinding mutants: tried {tried}, refused {refused} over {len(store)} certified kernels")
    assert tried == refused and tried >= 3 * len(store)


def test_a_changed_body_is_refused(store, live):
    cert = next(c for c in store if c.record.program == "nested_cat_add")
    rec = _live_for(cert, live)
    mutated = dataclasses.replace(rec, source=rec.source.replace("xindex // ks0", "xindex // ks1"))
    assert mutated.source != rec.source
    b = best_binding(store, mutated, live_ir_hash(mutated))
    assert not b.bound and "body" in b.failed


def test_rule_narrows_nested_cat_add_end_to_end_under_the_interpreter(store):
    p = programs.get("nested_cat_add")
    torch._dynamo.reset()
    with cpu_interpreter(), narrowing(store) as decisions:
        f = torch.compile(p.fn, dynamic=True)
        for sz in p.shape_sequence("tiny"):
            ins = p.make_inputs(sz, seed=sum(sz.values()))
            out, ref = f(*ins), p.fn(*ins)
            assert torch.equal(out.view(torch.int16), ref.view(torch.int16)), sz
    torch._dynamo.reset()
    (b,) = decisions.bindings  # one graph, one kernel, for every shape
    assert b.bound and b.narrow == ("ks0", "ks1", "ks2", "ks3"), b.explain()
    assert b.kernel == "triton_poi_fused_add_cat_0"


def test_leaving_the_block_restores_inductor(store):
    from torch._inductor.codegen.triton import TritonScheduling

    before = TritonScheduling.define_kernel
    with narrowing(store):
        assert TritonScheduling.define_kernel is not before
    assert TritonScheduling.define_kernel is before
    (k,) = capture("nested_cat_add")
    assert all(k.signature[a.name] == "i64" for a in k.size_args)


def test_rule_show_cli(capsys):
    from workbench.cli import main

    assert main(["rule", "show", "nested_cat_add"]) == 0
    out = capsys.readouterr().out
    assert "BOUND to nested_cat_add/triton_poi_fused_add_cat_0" in out
    assert "ok   1 guards the certificate uses present" in out
    assert "size arguments as compiled: ks0: i32, ks1: i32, ks2: i32, ks3: i32" in out


def test_beyond_the_guard_the_rule_declines(store):
    """numel = 2**31: Inductor's trace indexes in int64 without the int32 guard; the rule does not narrow."""
    p = programs.get("nested_cat_add")
    big = programs.Program(p.name, p.fn, p.inputs, {"rows": 2**16, "q": 2**14 - 384, "k": 256, "v": 128})
    with narrowing(store) as decisions:
        (k,) = capture(big)
    (b,) = decisions.bindings
    # the int64-indexed body is a different kernel (xnumel: i64 changes the IR), so no certificate has it;
    # had the body matched, the index-dtype premise would refuse it
    assert not b.bound and ("body" in b.failed or "index dtype: tl.int64" in b.failed), b.explain()
    assert k.index_dtype == "tl.int64"
    assert all(k.signature[a.name] == "i64" for a in k.size_args)
