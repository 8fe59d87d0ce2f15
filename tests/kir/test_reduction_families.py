"""Interpreter cross-check of the reduction families the corpus lacks and of a reduction through a loaded
index (issue 13 construct coverage): ``kir.redcross`` against Triton's interpreter, every step, declared and
narrowed, with index tensors in range of every premise (``crosscheck.index_data``, as for pointwise kernels).

Data: ``tests/check/data/families`` (real captures: min2, argmax via maximum_with_index / max_with_index,
persistent min_with_index, persistent max2 + sum, Inductor's online-softmax helpers looped and persistent) and the red-team probe ``probe-red-indirect-sum``.
"""

from pathlib import Path

import pytest

from workbench.capture import load

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ROOT / "tests" / "check" / "data" / "families"
FAM_ONLINE = FAMILIES / "softmax_dim1_3000"  # a static width of 3000, split in two kernels
IN_CLASS = [FAMILIES / "amin_last" / "triton_red_fused_amin_0.json",
            FAMILIES / "argmax_last" / "triton_red_fused_argmax_0.json",
            FAMILIES / "argmin_dim1" / "triton_per_fused_argmin_0.json",
            FAMILIES / "softmax_dim1_64" / "triton_per_fused_prepare_softmax_online_0.json",
            FAM_ONLINE / "triton_red_fused_prepare_softmax_online_0.json",  # online_softmax_combine_with_sum, looped
            FAM_ONLINE / "triton_per_fused_prepare_softmax_online_1.json",  # online_softmax_reduce, persistent
            ROOT / "tests" / "adversarial" / "redteam" / "probe-red-indirect-sum" / "triton_red_fused_sum_9.json"]


def test_families_and_an_indirect_reduction_match_the_interpreter():
    from workbench.kir.crosscheck import crosscheck

    reports = crosscheck([load(p) for p in IN_CLASS], lanes=40)
    assert [r.status for r in reports] == ["compared"] * len(IN_CLASS), [(r.kernel, r.status) for r in reports]
    for r in reports:
        assert r.lanes >= 32 and set(r.lanes_by_mode) == {"declared", "size args i32"}, (r.kernel, r.lanes)
        assert not r.mismatches, (r.kernel, r.mismatches[:3])


def test_the_comparison_bites_on_an_indirect_reduction():
    """Control: the evaluator with 8-bit size arguments against the interpreter's declared kernel, on the
    indirect sum whose address multiplies the two size arguments (7*39 wraps 8 bits at the small shape)."""
    from dataclasses import replace

    from workbench.capture.record import jit_function_text
    from workbench.kir.crosscheck import crosscheck

    rec = load(IN_CLASS[-1])
    body = jit_function_text(rec.source, rec.name)
    edited = body.replace("in_ptr0 + (r0_1 + ks0*tmp9)", "in_ptr0 + (r0_1 + ks1*ks0*tmp9)")
    assert edited != body
    (r,) = crosscheck([replace(rec, source=rec.source.replace(body, edited))], lanes=16, control=True)
    assert r.status == "compared" and r.mismatches
