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
    v = check_kernel(rec, "observable", counterexample=False)
    assert v.verdict == "refused"
    assert any(d.condition.reason is Reason.TAIL_MASKED for d in v.discharged if d.status.value != "proved")
    assert "premise on the launch" not in v.reason
