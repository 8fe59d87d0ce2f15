"""Issue 24, item 3: false refusals on real models, brought in where they are safe, each rule with the input
that would break it.

* strict mode's *active* lanes for an access under a range mask (``access`` in trusted/agreement.py): the
  looped cumsum of position ids (tests/check/test_scan_check.py) and mistral's sliding-window softmax;
* a constant interval candidate outside the node's type never replaces the rule's own bound
  (trusted/intervals.py ``_refine``): mistral's ``x0 = xindex % ks0`` under ``r0_3 > x0 - 8``;
* lane comparisons refuted by their operands' intervals empty a class (trusted/uniform.py ``refuted_on``):
  shufflenet's channel shuffle, ``div_floor_integer`` of an index in [0, 96);
* no tail lane when xnumel is a multiple of Inductor's largest XBLOCK (trusted/launch.py ``no_x_tail``):
  shufflenet's unmasked batch-norm kernel, with the premise on the launch stated in the verdict.

Records: tests/check/data/issue24 (captured with ``workbench capture``; mistral from the zoo registry,
shufflenet_v2_x0_5 with the batch dimension dynamic). The oracle's agreement on them is recorded in
docs/check.md.
"""

from dataclasses import replace
from pathlib import Path

import pytest

from workbench import kir
from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import check_kernel
from workbench.check.checker import Analysis
from workbench.check.premises import premises_of
from workbench.check.sidecond import Reason
from workbench.kir import Op

DATA = Path(__file__).parent / "data" / "issue24"
MISTRAL = next(DATA.glob("triton_red_fused__safe_softmax_*_6.json"))
SHUFFLE = next(DATA.glob("*_cat_clone_relu_split_transpose_view_16.json"))
UNMASKED = next(DATA.glob("*_native_batch_norm_legit_no_training_relu_0.json"))


def mutate(rec, old, new):
    body = jit_function_text(rec.source, rec.name)
    assert old in body, old
    return replace(rec, source=rec.source.replace(body, body.replace(old, new)))


@pytest.mark.parametrize("mode", ["strict", "observable"])
def test_mistral_sliding_window_softmax_is_certified(mode):
    v = check_kernel(load(MISTRAL), mode, counterexample=False)
    assert v.certified, v.reason
    assert set(v.narrowable) == {"ks0", "ks1"}


def test_mistral_window_with_an_overflowing_offset_is_refused():
    # the input that would break the bound choice: the window's lower edge computed as x0 - ks0**3, which
    # leaves int32 in N (the guards bound 4*s21*s41**2, not s41**3); ks0*ks0 alone would be safe here
    rec = mutate(load(MISTRAL), "tmp3 = ((-8) + x0).to(tl.int64)", "tmp3 = ((-1)*ks0*ks0*ks0 + x0).to(tl.int64)")
    v = check_kernel(rec, "observable", counterexample=False)
    assert v.verdict == "refused", v.reason


@pytest.mark.parametrize("mode", ["strict", "observable"])
def test_channel_shuffle_is_certified(mode):
    v = check_kernel(load(SHUFFLE), mode, counterexample=False)
    assert v.certified, v.reason


def _sign_atoms(rec):
    k = kir.parse(rec)
    a = Analysis(k, premises_of(rec), "observable", lambda kind, key, options, works: options[0])
    atoms = [n for n in a.nodes if n.op is Op.NE and n.args[0].op is Op.LT
             and n.args[0].args[1].op is Op.CONST and n.args[0].args[1].attr[0] == 0]
    assert atoms
    return a, atoms


def test_sign_tests_of_a_nonnegative_index_are_refuted():
    a, atoms = _sign_atoms(load(SHUFFLE))
    assert all(a.refuted_on(n, a.active, True) for n in atoms)
    assert not any(a.refuted_on(n, a.active, False) for n in atoms)  # holding is never used to empty a class


def test_sign_test_of_an_index_of_both_signs_is_not_refuted():
    # the input that would break the rule: the dividend x1 - 50 takes both signs on the launched lanes
    rec = load(SHUFFLE)
    body = jit_function_text(rec.source, rec.name)
    rec = replace(rec, source=rec.source.replace(
        body, body.replace("triton_helpers.div_floor_integer(x1,  2)", "triton_helpers.div_floor_integer((-50) + x1,  2)")))
    a, atoms = _sign_atoms(rec)
    live = [n for n in atoms if any(x.op is Op.ADD for x in kir.walk(n.args[0].args[0]))]
    assert live and not any(a.refuted_on(n, a.active, pol) for n in live for pol in (True, False))


@pytest.mark.parametrize("mode", ["strict", "observable"])
def test_unmasked_kernel_with_numel_a_multiple_of_the_largest_block_is_certified(mode):
    v = check_kernel(load(UNMASKED), mode, counterexample=False)
    assert v.certified, v.reason
    assert "premise on the launch" in v.reason and "XBLOCK <= 4096" in v.reason


def test_unmasked_kernel_whose_numel_may_leave_a_tail_is_refused():
    # the input that would break the rule: 36880*s (a multiple of 16, as the divisibility hint says) is not
    # a multiple of every power-of-two XBLOCK up to 4096
    rec = load(UNMASKED)
    rec = replace(rec, numels=tuple(replace(n, expr="36880*s21") for n in rec.numels))
    v = check_kernel(rec, "strict", counterexample=False)  # no size argument: observable certifies by identity
    assert v.verdict == "refused"
    assert any(d.condition.reason is Reason.TAIL_MASKED for d in v.discharged if d.status.value != "proved")
    assert "premise on the launch" not in v.reason


# -- a static r0_numel after a static xnumel (training steps' batch-norm statistics, 50 kernels of the zoo) --
STATS = DATA / "triton_per_fused__native_batch_norm_legit_functional_copy__8.json"  # regnet_y_400mf, training


@pytest.mark.parametrize("mode", ["strict", "observable"])
def test_static_r_extent_after_a_static_x_extent_is_read(mode):
    # ``xnumel = 32`` then ``r0_numel = 16`` with ``R0_BLOCK = 16``: the body fixes both extents, so the r axis
    # has no tail; the parser used to take r0_numel's literal only as the body's very first statement
    rec = load(STATS)
    assert kir.parse(rec).reduction.static_numel == 16
    v = check_kernel(rec, mode, counterexample=False)
    assert v.certified, v.reason


def test_static_r_extent_with_a_larger_block_keeps_the_r_mask_required():
    # the input that would break it: R0_BLOCK 32 over r0_numel 16 has a tail on r; a load without r0_mask
    # reads past the row there and must be refused
    rec = mutate(load(STATS), "R0_BLOCK: tl.constexpr = 16", "R0_BLOCK: tl.constexpr = 32")
    rec = mutate(rec, "tmp0 = tl.load(in_ptr0 + (x0 + 32*r0_1), r0_mask & xmask,",
                 "tmp0 = tl.load(in_ptr0 + (x0 + 32*r0_1), xmask,")
    v = check_kernel(rec, "observable", counterexample=False)
    assert v.verdict == "refused" and "tail lanes" in v.reason, v.reason


def test_static_r_extent_after_a_reading_of_the_parameter_is_not_static():
    # r0_numel read (as the parameter) before the literal: the literal cannot stand for every reading
    rec = mutate(load(STATS), "    rnumel = r0_numel\n", "")
    rec = mutate(rec, "    r0_numel = 16\n", "    rnumel = r0_numel\n    r0_numel = 16\n")
    try:
        k = kir.parse(rec)
    except Exception as exc:  # refused by the parser: a parameter reassigned after use
        assert "reassigned" in str(exc), exc
    else:
        assert k.reduction.static_numel is None


# -- x-uniform pointwise kernels (a training step's num_batches_tracked += 1, 8 kernels of the zoo) ----------
COUNTER = DATA / "triton_poi_fused_add_copy__0.json"  # resnet18, training step, Inductor's Triton CPU backend


@pytest.mark.parametrize("mode", ["strict", "observable"])
def test_x_uniform_pointwise_kernel_is_certified(mode):
    v = check_kernel(load(COUNTER), mode, counterexample=False)
    assert v.certified, v.reason


def test_pointwise_kernel_whose_store_follows_the_lane_is_not_x_uniform():
    # the input that would break it: the same unmasked store at the lane's own index writes past xnumel on
    # the tail lanes of the block
    rec = mutate(load(COUNTER), "tl.store(out_ptr1 + (tl.full([XBLOCK], 0, tl.int32).broadcast_to(XBLOCK)), tmp3, None)",
                 "tl.store(out_ptr1 + (xindex), tmp3, None)")
    v = check_kernel(rec, "strict", counterexample=False)  # no size argument: observable certifies by identity
    assert v.verdict == "refused" and "tail lanes" in v.reason, v.reason


# -- no y tail when ynumel is a multiple of Inductor's largest YBLOCK (13 training kernels of convnext_tiny) ------
TILE = DATA / "triton_poi_fused_2.json"  # convnext_tiny training step: ynumel = 18432 = 18 * 1024, ymask all true


@pytest.mark.parametrize("mode", ["strict", "observable"])
def test_no_y_tail_bounds_yindex_by_ynumel(mode):
    v = check_kernel(load(TILE), mode, counterexample=False)
    assert v.certified, v.reason
    assert "YBLOCK <= 1024" in v.reason  # the premise on the launch is stated


def test_ynumel_not_a_multiple_of_the_largest_yblock_keeps_the_launch_bound():
    # the input that would break it: 18000 is not a multiple of 1024, so the last y block has tail lanes
    # (yindex up to the launch bound) and 4*yindex may leave int32
    rec = mutate(load(TILE), "ynumel = 18432", "ynumel = 18000")
    rec = replace(rec, numels=tuple(replace(n, expr="18000") if n.name == "ynumel" else n for n in rec.numels))
    v = check_kernel(rec, "strict", counterexample=False)  # no size argument: observable certifies by identity
    assert v.verdict == "refused" and "YBLOCK" not in v.reason, v.reason


def test_yz_overflow_grid_gets_no_y_premise():
    # Grid2DWithYZOverflow splits the y blocks over two grid axes and may launch more than cdiv(ynumel, YBLOCK)
    rec = load(TILE)
    body = jit_function_text(rec.source, rec.name)
    rec = mutate(rec, "yoffset = tl.program_id(1) * YBLOCK",
                 "yoffset = (tl.program_id(1) + tl.program_id(2) * tl.num_programs(1)) * YBLOCK")
    rec = replace(rec, grid_type="Grid2DWithYZOverflow",
                  source=rec.source.replace("'grid_type': 'Grid2D'", "'grid_type': 'Grid2DWithYZOverflow'"))
    v = check_kernel(rec, "strict", counterexample=False)  # no size argument: observable certifies by identity
    assert v.verdict == "refused" and "YBLOCK" not in v.reason, v.reason
    assert body  # the source was the Grid2D form before the mutation


# -- nothing to narrow: observable mode certifies by identity (N is W) ----------------------------------------
SWIN17 = DATA / "triton_poi_fused__unsafe_view_add_addmm_clone_permute_roll_slice_view_17.json"  # swin_t, batch dyn.
SQUEEZE1 = DATA / "triton_poi_fused_convolution_max_pool2d_with_indices_relu_1.json"  # squeezenet1_0, ks0..ks4


def test_a_kernel_without_size_arguments_is_certified_by_identity_in_observable_mode():
    rec = load(SWIN17)
    assert not rec.size_args
    obs = check_kernel(rec, "observable", counterexample=False)
    assert obs.certified and obs.reason.startswith("certified by identity: nothing to narrow"), obs.reason
    assert obs.narrowable == ()
    # strict mode claims more than agreement (every intermediate fits int32): no identity argument there
    strict = check_kernel(rec, "strict", counterexample=False)
    assert strict.verdict == "refused" and "identity" not in strict.reason


def test_a_kernel_with_size_arguments_is_never_certified_by_identity():
    # the input that would break it: a refused kernel that narrows ks0..ks4 stays refused
    v = check_kernel(load(SQUEEZE1), "observable", counterexample=False)
    assert v.verdict == "refused" and "identity" not in v.reason, v.reason
