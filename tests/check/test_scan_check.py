"""The narrowing checker on scans, index accumulators, integer abs and one-row kernels
(``check/trusted/reduction.py``, ``check/trusted/payload.py``, ``check/trusted/interval.py``).

Real captured kernels are certified (observable); each new rule has a mutant that breaks it and is refused:
a scan operand whose index overflows only in int32, a select_one mask computed from an overflowing size, an
argmax index mixed with a narrowed size (retyped integer payload), an abs of an overflowing expression, a
one-row kernel made to depend on its x lane without an x mask. The 6-bit model evaluates every (x, r) lane
at every step of the certified looped cumsum and finds no difference, and finds one on the mutant.
"""

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import check_kernel
from workbench.check.checker import Widths
from workbench.check.poly import Poly, nonneg_after_shift
from workbench.check.sidecond import Reason
from workbench.check.soundness import agreement, shapes, small_record
from workbench.check.trusted.interval import Interval, iabs
from workbench.paths import KERNELS

DATA = Path(__file__).parent.parent / "kir" / "data" / "reduction"
CUMSUM = KERNELS / "cumsum_last" / "triton_red_fused_cumsum_0.json"
CUMSUM_PER = KERNELS / "cumsum_rows8" / "triton_per_fused_cumsum_0.json"
CUMSUM_I64 = DATA / "triton_red_fused_cumsum_ne_slice_sub_5.json"
ARGMAX = KERNELS / "argmax_last" / "triton_red_fused_argmax_0.json"
ARGMIN = KERNELS / "argmin_dim0" / "triton_red_fused_argmin_0.json"
MAXIDX = KERNELS / "max_with_index_last" / "triton_red_fused_max_0.json"
XENT_1 = KERNELS / "cross_entropy" / "triton_red_fused__log_softmax_nll_loss_forward_1.json"
T5 = next(DATA.glob("triton_red_fused__safe_softmax__to_copy_abs_*.json"))
BITS = 6
SMALL = Widths(BITS, 2 * BITS)
CUMSUM_LOAD = "tl.load(in_ptr0 + (r0_1 + ks0*x0), r0_mask & xmask"


def mutate(path, old, new, count=1):
    rec = load(path)
    body = jit_function_text(rec.source, rec.name)
    assert old in body, old
    return replace(rec, source=rec.source.replace(body, body.replace(old, new, count)))


def refused(rec, mode="observable", smt=True):
    v = check_kernel(rec, mode, smt=smt, counterexample=False)
    assert v.verdict == "refused", v.reason
    return v


@pytest.mark.parametrize("path", [CUMSUM, CUMSUM_PER, CUMSUM_I64, ARGMAX, ARGMIN, MAXIDX, XENT_1, T5],
                         ids=lambda p: p.stem[:30])
def test_real_kernels_are_certified_observable(path):
    v = check_kernel(load(path), "observable", counterexample=False)
    assert v.verdict == "certified", v.reason


@pytest.mark.parametrize("path", [CUMSUM_PER, ARGMAX, MAXIDX, XENT_1, T5], ids=lambda p: p.stem[:30])
def test_real_kernels_are_certified_strict(path):
    v = check_kernel(load(path), "strict", counterexample=False)
    assert v.verdict == "certified", v.reason


def test_looped_scan_is_certified_strict_its_load_is_not_performed_on_masked_off_r_lanes():
    # The scan reads its operand (the load) on masked-off r lanes too, but there the load's own mask
    # (``r0_mask & xmask``, which agrees) fails in both kernels and yields ``other``: its address need only
    # agree on the active lanes (r0_index < r0_numel), which is strict mode's "active" (issue 24: the
    # cumsum-of-position-ids refusal in gpt2, llama, qwen2, gpt_neox, mistral).
    v = check_kernel(load(CUMSUM), "strict", counterexample=False)
    assert v.certified, v.reason


def test_looped_scan_whose_load_lacks_the_r_mask_is_still_refused_strict():
    # the input that would break the rule above: the same load without r0_mask is performed on the
    # masked-off r lanes of the last step (where r0_index + ks0*xindex leaves int32 in N)
    rec = mutate(CUMSUM, CUMSUM_LOAD, "tl.load(in_ptr0 + (r0_1 + ks0*x0), xmask", count=1)
    v = refused(rec, "strict")
    assert v.verdict == "refused"


def test_looped_scan_overflowing_on_an_active_lane_is_refused_strict():
    rec = mutate(CUMSUM, CUMSUM_LOAD, "tl.load(in_ptr0 + (r0_1 + ks0*ks0*x0), r0_mask & xmask", count=1)
    v = refused(rec, "strict")
    assert "ks0" in v.reason


def test_scan_operand_index_overflowing_only_in_int32_is_refused():
    rec = mutate(CUMSUM, CUMSUM_LOAD, "tl.load(in_ptr0 + (r0_1 + ks0*ks0*x0), r0_mask & xmask", count=1)
    v = refused(rec)
    assert "ks0" in v.reason


def test_select_one_mask_from_an_overflowing_size_is_refused():
    rec = mutate(CUMSUM, "rbase == (RBLOCK - 1)", "rbase == (ks0*ks0 - 1)")
    v = refused(rec)
    assert any(d.condition.reason is Reason.FITS_NARROW and "ks0 * ks0" in d.condition.origin.subexpression
               and d.status.value != "proved" for d in v.discharged)


def test_select_one_mask_from_a_fitting_size_is_certified():
    # the rule is not a pattern: a mask that agrees (ks0 - 1 fits int32 once ks0 does) is accepted
    rec = mutate(CUMSUM, "rbase == (RBLOCK - 1)", "rbase == (ks0 - 1)")
    assert check_kernel(rec, "observable", counterexample=False).certified


def test_index_accumulator_mixed_with_a_narrowed_size_is_refused_by_payload_type():
    rec = mutate(ARGMAX, "_tmp2, _tmp2_index, tmp1, rindex\n", "_tmp2, _tmp2_index, tmp1, rindex + ks0*x0\n")
    v = refused(rec)
    assert any(d.condition.reason is Reason.PAYLOAD_TYPE for d in v.discharged if d.status.value != "proved")


def test_index_accumulator_whose_init_retypes_is_out_of_class():
    # int64 before the loop in W (0*ks0), int32 in N, while the update keeps the loaded index's int32 type:
    # the carry's type changes with narrowing (Triton would refuse the narrowed kernel) -- the type check
    rec = mutate(ARGMAX, "_tmp2_index = tl.full([XBLOCK, R0_BLOCK], 2147483647, tl.int32)",
                 "_tmp2_index = tl.full([XBLOCK, R0_BLOCK], 2147483647, tl.int32) + 0*ks0")
    v = check_kernel(rec, "observable", counterexample=False)
    assert v.verdict in ("out-of-class", "refused") and not v.certified, v.reason


def test_int64_scan_of_data_mixed_with_a_narrowed_size_is_refused():
    rec = mutate(CUMSUM_I64, "tmp7 = tl.broadcast_to(tmp6, [XBLOCK, R0_BLOCK])",
                 "tmp7 = tl.broadcast_to(tmp6 + ks0, [XBLOCK, R0_BLOCK])")
    v = refused(rec)
    assert any(d.condition.reason is Reason.PAYLOAD_TYPE for d in v.discharged if d.status.value != "proved")


def test_abs_of_an_overflowing_expression_is_refused():
    old = "tmp8 = (tl_math.abs(r0_3 + ((-1)*x0))).to(tl.int32)"
    rec = mutate(T5, old, "tmp8 = (tl_math.abs(r0_3 + ((-1)*x0*ks0*ks0))).to(tl.int32)")
    v = refused(rec)
    assert any(d.condition.reason is Reason.FITS_NARROW and "ks0" in d.condition.origin.subexpression
               and d.status.value != "proved" for d in v.discharged)


def test_one_row_kernel_that_depends_on_its_x_lane_needs_an_x_mask():
    rec = mutate(XENT_1, "tl.load(in_ptr0 + (r0_0), r0_mask", "tl.load(in_ptr0 + (r0_0 + xindex), r0_mask")
    v = refused(rec, smt=False)
    assert any(d.condition.reason is Reason.TAIL_MASKED for d in v.discharged if d.status.value != "proved")


def test_small_model_certified_cumsum_agrees_on_every_lane_and_step():
    rec = small_record(load(CUMSUM), BITS)
    assert check_kernel(rec, "observable", widths=SMALL, smt=False, counterexample=False).certified
    found, total = shapes(rec, BITS, limit=30)
    assert total >= 20
    lanes, diff = agreement(rec, SMALL, found)
    assert diff is None, diff
    assert lanes > 1000


def test_small_model_finds_the_scan_operand_overflow_and_the_checker_refuses():
    rec = small_record(mutate(CUMSUM, CUMSUM_LOAD, "tl.load(in_ptr0 + (r0_1 + ks0*ks0*x0), r0_mask & xmask"), BITS)
    found, _ = shapes(rec, BITS, limit=30)
    _, diff = agreement(rec, SMALL, found)
    assert diff is not None
    assert not check_kernel(rec, "observable", widths=SMALL, smt=False, counterexample=False).certified


def test_small_model_index_accumulator_agrees_and_its_retyped_mutant_differs():
    # small_record scales the index sentinel INT32_MAX to the model's "int32"
    rec = small_record(load(ARGMAX), BITS)
    assert check_kernel(rec, "observable", widths=SMALL, smt=False, counterexample=False).certified
    found, _ = shapes(rec, BITS, limit=20)
    lanes, diff = agreement(rec, SMALL, found)
    assert diff is None and lanes > 500, diff
    bad = small_record(mutate(ARGMAX, "_tmp2, _tmp2_index, tmp1, rindex\n", "_tmp2, _tmp2_index, tmp1, rindex + ks0*ks0\n"), BITS)
    found, _ = shapes(bad, BITS, limit=20)
    _, diff = agreement(bad, SMALL, found)
    assert diff is not None
    assert not check_kernel(bad, "observable", widths=SMALL, smt=False, counterexample=False).certified


# -- the abs interval rule ------------------------------------------------------------------------------------

LOWER = {"a": 1, "b": 1}
polys = st.builds(
    lambda terms: Poly({tuple(sorted(m.items())): k for m, k in terms}),
    st.lists(st.tuples(st.dictionaries(st.sampled_from("ab"), st.integers(1, 2), max_size=2), st.integers(-6, 6)),
             max_size=3),
)


def test_abs_interval_named_examples():
    a = Poly.sym("a")
    nn = lambda p: nonneg_after_shift(p, LOWER)  # noqa: E731
    assert iabs(Interval(a, 2 * a), nn) == Interval(a, 2 * a)
    assert iabs(Interval(-2 * a, -a), nn) == Interval(a, 2 * a)
    assert iabs(Interval(-a, 2 * a), nn) == Interval(Poly.const(0), 2 * a)
    assert iabs(Interval(1 - a, a - 1), nn) == Interval(Poly.const(0), a - 1)
    assert iabs(Interval(None, Poly.const(-3)), nn) == Interval(Poly.const(3), None)


@settings(max_examples=300, deadline=None)
@given(lo=polys, width=polys, frac=st.floats(0, 1), pa=st.integers(1, 9), pb=st.integers(1, 9))
def test_abs_interval_is_sound_against_exact_evaluation(lo, width, frac, pa, pb):
    point = {"a": pa, "b": pb}
    hi = lo + width
    l, h = lo.evaluate(point), hi.evaluate(point)
    if l > h:
        return
    v = l + round(frac * (h - l))
    got = iabs(Interval(lo, hi), lambda p: nonneg_after_shift(p, LOWER))
    assert got.lo is None or got.lo.evaluate(point) <= abs(v)
    assert got.hi is None or abs(v) <= got.hi.evaluate(point)
