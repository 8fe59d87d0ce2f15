"""The narrowing checker on reduction kernels: per (x, r) lane and per step (``check/trusted/reduction.py``).

Real captured kernels (``tests/kir/data/reduction``) are certified; mutants that break the contract are
refused (a reduction mask dropped from a load, an index that overflows only in int32, an integer accumulator
fed by such an index); a changed loop bound is refused by the IR; the small-width model (6-bit "int32")
evaluates every (x, r) lane at every step of the certified softmax and finds no difference, and finds one
on the overflowing mutant, which the checker refuses.
"""

from dataclasses import replace
from pathlib import Path

import pytest

from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import check_kernel
from workbench.check.checker import Widths
from workbench.check.sidecond import Reason
from workbench.check.soundness import agreement, shapes, small_record

DATA = Path(__file__).parent.parent / "kir" / "data" / "reduction"
SOFTMAX = DATA / "triton_red_fused__softmax_prepare_softmax_online_0.json"
LAYERNORM = DATA / "triton_per_fused_add_addmm_native_layer_norm_view_11.json"
GROUPNORM_PER = DATA / "triton_per_fused_native_group_norm_1.json"
MEAN = DATA / "triton_red_fused_add_addmm_mean_mul_permute_view_32.json"
MEAN_LAST = Path(__file__).parents[2] / "data" / "kernels" / "mean_last" / "triton_red_fused_mean_0.json"
BITS = 6
SMALL = Widths(BITS, 2 * BITS)

SOFTMAX_LOAD = "tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask"
# an int64 accumulator of index values, summed per row and stored (argmax-like integer payload)
INT_ACC = ("    tmp2 = triton_helpers.max2(_tmp2, 1)[:, None]\n",
           "    tmp2 = triton_helpers.max2(_tmp2, 1)[:, None]\n"
           "    _tmp90 = tl.full([XBLOCK, R0_BLOCK], 0, tl.int64)\n"
           "    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n"
           "        r0_index = r0_offset + r0_base\n"
           "        r0_mask = r0_index < r0_numel\n"
           "        tmp91 = IDX\n"
           "        tmp92 = _tmp90 + tmp91\n"
           "        _tmp90 = tl.where(r0_mask & xmask, tmp92, _tmp90)\n"
           "    tmp90 = tl.sum(_tmp90, 1)[:, None]\n"
           "    tl.store(out_ptr2 + (x0), tmp90.to(tl.float32), xmask)\n")


def mutate(rec, old, new, count=1):
    body = jit_function_text(rec.source, rec.name)
    assert old in body, old
    return replace(rec, source=rec.source.replace(body, body.replace(old, new, count)))


@pytest.mark.parametrize("path", [SOFTMAX, LAYERNORM, GROUPNORM_PER, MEAN], ids=lambda p: p.stem[:30])
def test_real_reduction_kernels_are_certified_observable(path):
    v = check_kernel(load(path), "observable")
    assert v.verdict == "certified", v.reason


def test_looped_softmax_is_certified_strict_with_the_loop_bound_discharged():
    v = check_kernel(load(SOFTMAX), "strict")
    assert v.verdict == "certified", v.reason
    loop = [d for d in v.discharged if d.condition.reason is Reason.LOOP_BOUND]
    assert loop and all(d.status.value == "proved" for d in loop)


def test_dropped_reduction_mask_is_refused():
    rec = mutate(load(SOFTMAX), SOFTMAX_LOAD, "tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*x0), xmask")
    for mode in ("strict", "observable"):
        v = check_kernel(rec, mode, smt=False, counterexample=False)
        assert v.verdict == "refused"
        assert any(d.condition.reason is Reason.TAIL_MASKED and d.status.value != "proved" for d in v.discharged)


def test_index_overflowing_only_in_int32_is_refused():
    rec = mutate(load(SOFTMAX), SOFTMAX_LOAD, "tmp0 = tl.load(in_ptr0 + (r0_1 + ks0*ks0*x0), r0_mask & xmask")
    for mode in ("strict", "observable"):
        v = check_kernel(rec, mode)
        assert v.verdict == "refused", v.reason
        assert "ks0" in v.reason
    cex = v.counterexample  # names the x lane, the r lane and the reduction step
    assert cex is not None and {"xindex", "r0_base", "r0_offset"} <= set(dict(cex.lane))
    assert "in_ptr0" in cex.disagree and cex.wide != cex.narrowed


def test_integer_accumulator_of_indices_agrees_only_when_they_fit():
    good = mutate(load(SOFTMAX), INT_ACC[0], INT_ACC[1].replace("IDX", "r0_index + ks0*x0"))
    assert check_kernel(good, "observable").verdict == "certified"
    bad = mutate(load(SOFTMAX), INT_ACC[0], INT_ACC[1].replace("IDX", "r0_index + ks0*ks0*x0"))
    v = check_kernel(bad, "observable")
    assert v.verdict == "refused" and "ks0 * ks0" in v.reason.replace("(", "").replace(")", "")


def test_changed_loop_bound_is_out_of_class():
    rec = mutate(load(SOFTMAX), "tl.range(0, r0_numel, R0_BLOCK)", "tl.range(0, ks0, R0_BLOCK)")
    v = check_kernel(rec, "observable")
    assert v.verdict == "out-of-class" and "loop is not supported" in v.reason


def test_small_model_certified_softmax_agrees_on_every_lane_and_step():
    rec = small_record(load(SOFTMAX), BITS)
    for mode in ("strict", "observable"):
        assert check_kernel(rec, mode, widths=SMALL, smt=False, counterexample=False).certified
    found, total = shapes(rec, BITS, limit=40)
    assert total >= 20
    lanes, diff = agreement(rec, SMALL, found)
    assert diff is None, diff
    assert lanes > 1000


def test_small_model_detects_the_int32_only_overflow_and_the_checker_refuses():
    rec = small_record(mutate(load(SOFTMAX), INT_ACC[0], INT_ACC[1].replace("IDX", "r0_index + ks0*ks0*x0")), BITS)
    found, _ = shapes(rec, BITS, limit=40)
    _, diff = agreement(rec, SMALL, found)
    assert diff is not None
    assert not check_kernel(rec, "observable", widths=SMALL, smt=False, counterexample=False).certified


def test_oracle_plans_reduction_kernels_on_inductors_grid():
    """The independent oracle runs reductions too (docs/oracle.md): a 1-D grid of x blocks, loops in full."""
    import ast
    import json
    import random

    from workbench.oracle.corpus import parse_record
    from workbench.oracle.launch import plan
    from workbench.oracle.reduction import facts
    from workbench.oracle.source import read

    data = json.loads(SOFTMAX.read_text())
    rec = parse_record(data, str(SOFTMAX))
    red = facts(ast.parse(read(data["source"], data["name"]).function).body[0])
    params = ("in_ptr0", "out_ptr2", "ks0", "xnumel", "r0_numel", "XBLOCK", "R0_BLOCK")
    launch = plan(rec, {"s27": 5, "s77": 7, "s95": 3}, 0, random.Random(0), params, ("XBLOCK", "R0_BLOCK"),
                  ("in_ptr0", "out_ptr2"), None, red)
    assert launch.grid == (7, 1, 1) and launch.loop == "full" and dict(launch.constexprs)["R0_BLOCK"] == 1024


def test_small_model_partial_mode_softmax_agrees_on_every_lane_and_step():
    rec = small_record(load(SOFTMAX), BITS)
    assert check_kernel(rec, "partial", widths=SMALL, smt=False, counterexample=False).certified
    found, _ = shapes(rec, BITS, limit=20)
    lanes, diff = agreement(rec, SMALL, found, partial=True)
    assert diff is None and lanes > 500, diff


def test_guards_hold_is_false_where_a_guard_divides_by_zero():
    """Counterexample shapes give other kernels' sizes a value; a guard that then divides by zero is not
    satisfied (it used to raise out of the checker)."""
    from workbench.check.discharge import guards_hold
    from workbench.check.premises import premises_of

    rec = replace(load(SOFTMAX), guards=load(SOFTMAX).guards + ("Eq(Mod(s27, s95 - 2), 0)",))
    ok, guard = guards_hold(premises_of(rec), {"s27": 4, "s77": 3, "s95": 2})
    assert not ok and "Mod" in guard


# -- reduction families (tests/check/data/families: real captures of min, argmax, argmin) ---------------------

FAMILIES = Path(__file__).parent / "data" / "families"
ARGMAX = FAMILIES / "argmax_last" / "triton_red_fused_argmax_0.json"
ARGMIN = FAMILIES / "argmin_dim1" / "triton_per_fused_argmin_0.json"
AMIN = FAMILIES / "amin_last" / "triton_red_fused_amin_0.json"
ARGMIN_INDEX = "tmp4 = tl.broadcast_to(rindex, tmp3.shape)"
ARGMIN_STORE = "tl.store(out_ptr0 + (x3), tmp2, xmask)"


@pytest.mark.parametrize("path", [ARGMAX, ARGMIN, AMIN], ids=lambda p: p.parent.name)
def test_index_reductions_are_certified(path):
    """``max_with_index``/``min_with_index`` (and the elementwise ``maximum_with_index`` carry) are typed by
    their operands: a float value next to an int32 index that has the same type in W and N is no retyping."""
    for mode in ("strict", "observable"):
        v = check_kernel(load(path), mode, counterexample=False)
        assert v.verdict == "certified", (mode, v.reason)


def test_an_index_reduction_retyped_by_a_narrowed_argument_is_refused():
    """The index operand ``rindex + 0*ks0`` is int64 in W and int32 in N (its value fits both), so Triton
    computes ``min_with_index``'s index output in int64 in W and int32 in N, and ``(tmp2 + 3) * 10**9`` wraps
    in N only. Triton's interpreter (tests/adversarial/redteam/oracle.py, ks0=2, xnumel=8, XBLOCK=4): stored
    3000000000 (W) vs -1294967296 (N). The reduction is retyped payload: PAYLOAD_TYPE."""
    rec = mutate(load(ARGMIN), ARGMIN_INDEX, "tmp4 = tl.broadcast_to(rindex + 0*ks0, tmp3.shape)")
    rec = mutate(rec, ARGMIN_STORE, "tl.store(out_ptr0 + (x3), (tmp2 + 3) * 1000000000, xmask)")
    for mode in ("strict", "observable"):
        v = check_kernel(rec, mode, counterexample=False)
        assert v.verdict == "refused" and "integer payload" in v.reason, (mode, v.reason)


def test_the_same_arithmetic_on_an_index_of_one_type_is_certified():
    """Control: without the retyped operand both kernels compute ``(tmp2 + 3) * 10**9`` in int32 (the
    interpreter stores the same wrapped value in W and N), so it is certified."""
    rec = mutate(load(ARGMIN), ARGMIN_STORE, "tl.store(out_ptr0 + (x3), (tmp2 + 3) * 1000000000, xmask)")
    assert check_kernel(rec, "observable", counterexample=False).verdict == "certified"


def test_a_static_r0_numel_gets_the_loop_bound_too():
    """``r0_numel = 2147483647`` written over the parameter: the loop's offset wraps (red team
    ``red-static-numel-loop-wraps``), so LOOP_BOUND is required of the literal as of a parameter; the
    refusal names it, and the counterexample search (which has no lane to show for it) does not crash."""
    rec = mutate(load(MEAN_LAST), "    rnumel = r0_numel", "    r0_numel = 2147483647\n    rnumel = r0_numel")
    v = check_kernel(rec, "observable")
    assert v.verdict == "refused"
    assert any(d.condition.reason is Reason.LOOP_BOUND and d.status.value == "refuted" for d in v.discharged)
    fine = mutate(load(MEAN_LAST), "    rnumel = r0_numel", "    r0_numel = 3000\n    rnumel = r0_numel")
    v = check_kernel(fine, "strict", counterexample=False)  # (refused: its r0_1 + ks0*x0 outgrows ks0 = s27)
    assert any(d.condition.reason is Reason.LOOP_BOUND and d.status.value == "proved" for d in v.discharged)
