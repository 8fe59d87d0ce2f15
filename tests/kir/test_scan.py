"""Scans, row selections, loop-carried names, integer abs and one-row kernels through the kernel IR.

Real kernels captured with torch 2.13.0 / triton 3.7.1: the corpus's ``cumsum_last`` (looped scan),
``cumsum_rows8`` (persistent scan), ``argmax_last``/``argmin_dim0``/``max_with_index_last`` (int32 index
accumulators), ``cross_entropy``'s ``xnumel = 1`` kernel, and the zoo's int64 cumsum (gpt2, llama) and t5's
relative-position kernel (``tl_math.abs`` on indices) under ``tests/kir/data/reduction``. Mutants are edits
of those texts; each refusal is asserted by construct name.
"""

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench import kir
from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.kir.errors import RefusedConstruct
from workbench.paths import KERNELS

DATA = Path(__file__).parent / "data" / "reduction"
CUMSUM = KERNELS / "cumsum_last" / "triton_red_fused_cumsum_0.json"
CUMSUM_PER = KERNELS / "cumsum_rows8" / "triton_per_fused_cumsum_0.json"
CUMSUM_I64 = DATA / "triton_red_fused_cumsum_ne_slice_sub_5.json"
ARGMAX = KERNELS / "argmax_last" / "triton_red_fused_argmax_0.json"
ARGMIN = KERNELS / "argmin_dim0" / "triton_red_fused_argmin_0.json"
MAXIDX = KERNELS / "max_with_index_last" / "triton_red_fused_max_0.json"
XENT_1 = KERNELS / "cross_entropy" / "triton_red_fused__log_softmax_nll_loss_forward_1.json"
T5 = next(DATA.glob("triton_red_fused__safe_softmax__to_copy_abs_*.json"))
HELPER = "    tmp0 = arg0_0 + arg1_0\n    return tmp0\n"


def mutate(path, old, new, count=1):
    rec = load(path)
    body = jit_function_text(rec.source, rec.name)
    assert old in body, old
    return replace(rec, source=rec.source.replace(body, body.replace(old, new, count)))


def mutate_helper(path, new_body):
    rec = load(path)
    assert HELPER in rec.source
    return replace(rec, source=rec.source.replace(HELPER, new_body))


def test_looped_scan_parses_with_its_combine_and_a_carried_prefix():
    k = kir.parse(load(CUMSUM))
    scans = [n for n in k.nodes() if n.op is kir.Op.SCAN]
    assert [n.attr for n in scans] == [("_triton_helper_fn_add0", "(arg0_0, arg1_0): tmp0 = arg0_0 + arg1_0; return tmp0", 0)]
    select = [n.attr for n in k.nodes() if n.op is kir.Op.REDUCE]
    assert select == [("triton_helpers.select_one", 0)]
    # tmp3 is no Inductor accumulator name: it is loop-carried by the same rule
    assert [(c.name, c.loop) for c in k.carries] == [("tmp3", 1)]
    assert k.carries[0].update.op is kir.Op.WHERE


def test_persistent_and_int64_scans_parse():
    k = kir.parse(load(CUMSUM_PER))
    assert k.reduction.persistent and [n.op for n in k.nodes()].count(kir.Op.SCAN) == 1
    k64 = kir.parse(load(CUMSUM_I64))
    assert [(c.name, str(c.init.type)) for c in k64.carries] == [("tmp8", "i64")]


def test_index_accumulators_and_one_row_kernels_parse():
    for path in (ARGMAX, ARGMIN, MAXIDX):
        k = kir.parse(load(path))
        assert {c.name: str(c.init.type) for c in k.carries} == {"_tmp2": "fp32", "_tmp2_index": "i32"}
    k1 = kir.parse(load(XENT_1))
    assert k1.param("xnumel").kind == "constexpr" and not any(
        n.op in (kir.Op.PROGRAM_ID, kir.Op.ARANGE) and n.attr != (0, "R0_BLOCK") for n in k1.nodes())


def test_rebinding_a_name_to_its_own_value_is_accepted_and_other_rebinding_is_not():
    kir.parse(load(MAXIDX))  # tmp2 = tmp2[:, None]: the same node
    rec = mutate(MAXIDX, "    tmp2 = tmp2[:, None]\n", "    tmp2 = tmp2[:, None] + 1.0\n")
    with pytest.raises(RefusedConstruct) as info:
        kir.parse(rec)
    assert info.value.construct == "name reassigned after use"
    # the 1-D row result itself, used without [:, None] (Triton would broadcast it along r): refused by name
    rec = mutate(MAXIDX, "    tmp2 = tmp2[:, None]\n", "    tmp2 = tmp2 + 1.0\n")
    with pytest.raises(RefusedConstruct) as info:
        kir.parse(rec)
    assert info.value.construct == "block layout"


@pytest.mark.parametrize("body, detail", [
    ("    tmp0 = arg0_0 + tl.load(arg1_0)\n    return tmp0\n", "tl.load"),
    ("    tmp0 = arg0_0 + arg1_0 + ks0\n    return tmp0\n", "reads ks0"),
    ("    tmp0 = arg0_0 + tl.program_id(0)\n    return tmp0\n", "tl.program_id"),
    ("    tmp0 = arg0_0 + arg1_0\n    return tmp0, tmp0\n", "returns 2 value"),
    ("    tmp0 = arg0_0 + _other_helper(arg1_0)\n    return tmp0\n", "_other_helper"),
    ("    tmp0 = arg0_0 if arg1_0 else arg1_0\n    return tmp0\n", "IfExp"),
    ("    tl.store(arg0_0, arg1_0)\n    return arg0_0\n", "statement"),
])
def test_impure_combine_helpers_are_refused_by_name(body, detail):
    with pytest.raises(RefusedConstruct, match=detail) as info:
        kir.parse(mutate_helper(CUMSUM, body))
    assert info.value.construct == "scan combine function"


def test_combine_helper_arity_and_presence():
    rec = load(CUMSUM)
    with pytest.raises(RefusedConstruct, match="takes 3 parameters"):
        kir.parse(replace(rec, source=rec.source.replace("(arg0_0, arg1_0)", "(arg0_0, arg1_0, arg2_0)")))
    with pytest.raises(RefusedConstruct, match="not a @triton.jit helper"):
        kir.parse(mutate(CUMSUM, ", _triton_helper_fn_add0)", ", _no_such_helper)"))


def test_carried_name_that_changes_type_is_refused():
    rec = mutate(CUMSUM, "tmp3 = tl.where(roffset > 0, tmp6, tmp5)", "tmp3 = tl.where(roffset > 0, tmp6, tmp5).to(tl.float64)")
    with pytest.raises(RefusedConstruct, match="loop-carried tmp3 changes type"):
        kir.parse(rec)


def test_select_one_over_another_dimension_is_refused():
    with pytest.raises(RefusedConstruct, match="select_one over dimension 0"):
        kir.parse(mutate(CUMSUM, "dim=-1", "dim=0"))


def test_scan_text_module_finds_the_kernel_beside_its_helper():
    rec = load(CUMSUM)
    text = rec.source[rec.source.index("@triton.jit"):]
    text = text.replace(text[text.index("@triton_heuristics"):text.index("@triton.jit\ndef triton_red")], "")
    k = kir.parse(text, signature=rec.signature)
    assert k.name == rec.name and any(n.op is kir.Op.SCAN for n in k.nodes())


# -- integer abs ---------------------------------------------------------------------------------------------

ABS_KERNEL = '''
def k(in_ptr0: '*fp32', out_ptr0: '*fp32', ks0: 'i64', xnumel: 'i32', XBLOCK : tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = tl_math.abs(xindex - ks0)
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tl.store(out_ptr0 + (xindex), tl_math.abs(tmp0), xmask)
'''


def test_abs_on_indices_is_an_ir_op_and_on_data_stays_payload():
    k = kir.parse(ABS_KERNEL)
    ops = [n for n in k.nodes() if n.op is kir.Op.ABS]
    assert len(ops) == 1 and str(ops[0].type) == "i64"
    assert [n.attr for n in k.nodes() if n.op is kir.Op.PAYLOAD] == ["tl_math.abs"]
    assert str(kir.instantiate(k, kir.NARROW).loads[0].args[0].type) == "i32"
    k2 = kir.parse(kir.render(k))
    assert kir.canonical_hash(k2) == kir.canonical_hash(k)


def test_abs_evaluates_with_wrap_at_int_min():
    k = kir.parse(ABS_KERNEL)
    # ks0 = 2**31 + 5 declared int64: |0 - ks0| exact; narrowed to int32 it wraps to -(2**31 - 5) first
    ln = kir.launch(k, {"ks0": 2**31 + 5, "xnumel": 4}, {"XBLOCK": 4})
    assert kir.evaluate(k, ln, kir.Lane.x(0, 0)).loads[0].offset == 2**31 + 5
    assert kir.evaluate(k, ln, kir.Lane.x(0, 0), kir.NARROW).loads[0].offset == 2**31 - 5
    # |INT_MIN| is INT_MIN (llvm.abs with is_int_min_poison = false; numpy agrees)
    ln = kir.launch(k, {"ks0": 2**31, "xnumel": 4}, {"XBLOCK": 4})
    assert kir.evaluate(k, ln, kir.Lane.x(0, 0), kir.NARROW).loads[0].offset == -(2**31)
    assert int(np.abs(np.array([-(2**31)], dtype=np.int32))[0]) == -(2**31)


@settings(max_examples=200, deadline=None)
@given(v=st.integers(-(1 << 70), 1 << 70), bits=st.sampled_from((8, 16, 32, 64)))
def test_abs_matches_numpy_twos_complement(v, bits):
    t = kir.IntType(bits)
    x = t.wrap(v)
    want = int(np.abs(np.array([x], dtype={8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}[bits]))[0])
    assert t.wrap(abs(x)) == want


# -- cross-check against Triton's interpreter ------------------------------------------------------------------


@pytest.mark.slow
def test_interpreter_crosscheck_of_scans_index_accumulators_and_one_row_kernels():
    from workbench.kir.redcross import crosscheck_reductions

    paths = (CUMSUM, CUMSUM_PER, CUMSUM_I64, ARGMAX, MAXIDX, XENT_1)
    pairs = [(kir.parse(load(p)), load(p)) for p in paths]
    reports = crosscheck_reductions(pairs, lanes=24)
    for r in reports:
        assert r.status == "compared" and r.lanes >= 16, (r.kernel, r.status)
        assert set(r.lanes_by_mode) == {"declared", "size args i32"} and not r.mismatches, r.mismatches[:2]
    control = crosscheck_reductions(pairs[:1] + pairs[2:3], lanes=16, control=True)
    assert all(r.mismatches for r in control)


def test_crosscheck_names_why_a_float_computed_index_is_skipped():
    from workbench.kir.redcross import crosscheck_reductions

    (r,) = crosscheck_reductions([(kir.parse(load(T5)), load(T5))], lanes=8)
    assert r.status.startswith("skipped: an index computed through float payload") and not r.lanes
