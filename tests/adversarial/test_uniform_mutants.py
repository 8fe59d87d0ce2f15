"""Mutants of real zoo records aimed at the lane-uniform rules (issue 13, check/trusted/uniform.py): a branch
the premises no longer make dead, a Max(1, e) whose condition is no longer decided or no longer uniform, a
floor by a size that may be 0 or negative.

Table-driven like ``test_indirect_mutants.py``: each edit is applied to the real record (copied from a zoo
run into ``tests/check/data/uniform``), written out and loaded as a user's file would be, then checked in
both modes. Every certified mutant of a pointwise kernel is also run through the small-width oracle (the
records' numel guards leave few shapes there; the Hypothesis properties of ``tests/check/test_check_uniform.py``
cover the rules at small widths).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from adv_records import body, chain, guards, src, symbol  # noqa: E402
from adv_run import outcome  # noqa: E402

DATA = Path(__file__).parents[1] / "check" / "data" / "uniform"
MEAN2 = str(DATA / "triton_red_fused_convolution_mean_2.json")  # absolute: adv_records.base joins it to KERNELS
MAX15 = str(DATA / "triton_poi_fused_add_addmm_convolution_mul_native_layer_norm_permute_view_15.json")
FLOOR12 = str(DATA / "triton_poi_fused_clone_permute_view_12.json")
OK, REF = "certified", "refused"
IMAX = "<= 2147483647"


def _only_numel_guards(*names: str):
    """Drop every guard on ``names`` except the int32 upper bounds (the others imply lower bounds)."""
    return guards(lambda gs: [g for g in gs if not any(n in g for n in names) or IMAX in g])


MAX_NUMEL = "384*s21*((s54//16))*((s65//16)) <= 2147483647"
UNDECIDED = chain(symbol("s54", lower=16), symbol("s65", lower=16),
                  guards(lambda gs: [g for g in gs if ("s54" not in g and "s65" not in g) or g == MAX_NUMEL]
                         + ["((s54//16)) >= 1", "((s65//16)) >= 1"]))
MAX_TEXT = "((1) * ((1) >= (ks3 // 16)) + (ks3 // 16) * ((ks3 // 16) > (1)))"

CASES = [
    # (id, record, edit, (strict, observable))
    ("div-floor/as-captured", MEAN2, lambda d: d, (OK, OK)),
    # s65 >= 0 and no guard implying more: at s65 = 0 the branch under (-1 + ks1) < 0 is taken
    ("div-floor/branch-live-at-s65=0", MEAN2, chain(symbol("s65", lower=0), _only_numel_guards("s65")), (REF, REF)),
    # a lane-dependent condition: (-1 + ks1 - x0) < 0 holds on some lanes, nothing is decided
    ("div-floor/condition-on-the-lane", MEAN2,
     src("triton_helpers.div_floor_integer((-1) + ks1,  4)", "triton_helpers.div_floor_integer((-1) + ks1 - x0,  4)",
         count=-1), (REF, REF)),
    ("max/as-captured", MAX15, lambda d: d, (OK, OK)),
    # 1 >= ks3 // 16 undecided: certified by a case split on the uniform condition (ks3 // 16) > 1
    ("max/undecided-split", MAX15, UNDECIDED, (OK, OK)),
    # ... and without the numel guard on the floors the offset cannot be shown to fit in either case
    ("max/undecided-no-numel-guard", MAX15,
     chain(UNDECIDED, guards(lambda gs: [g for g in gs if g != MAX_NUMEL])), (REF, REF)),
    # the Max condition on a lane value (x0 // 16): not uniform, so neither decided nor split on
    ("max/condition-on-the-lane", MAX15,
     chain(UNDECIDED, src(MAX_TEXT, MAX_TEXT.replace("ks3 // 16", "x4 // 16"), count=-1)), (REF, REF)),
    ("floor-by-size/as-captured", FLOOR12, lambda d: d, (OK, OK)),
    # the divisor of floor(16*s35/s21) may be 0 (or negative): its atom has no definition
    ("floor-by-size/divisor-may-be-0", FLOOR12, symbol("s21", lower=0), (REF, REF)),
    ("floor-by-size/divisor-may-be-negative", FLOOR12, symbol("s21", lower=-4), (REF, REF)),
    # the guards that bound the quotient dropped: ks2 = 4*s21*floor(16*s35/s21) no longer fits
    ("floor-by-size/numel-guards-dropped", FLOOR12,
     guards(lambda gs: [g for g in gs if "//s21" not in g]), (REF, REF)),
]


def test_the_base_records_carry_the_forms_the_table_edits():
    from adv_records import base

    assert "div_floor_integer((-1) + ks1,  4)" in body(base(MEAN2))
    assert MAX_TEXT in body(base(MAX15))
    assert any(a["expr"] == "floor(16*s35/s21)" for a in base(FLOOR12)["size_args"])


@pytest.mark.parametrize("cid,rel,edit,expected", CASES, ids=[c[0] for c in CASES])
def test_uniform_mutant(cid, rel, edit, expected, tmp_path):
    got, rec, verdicts = outcome(rel, edit, tmp_path)
    assert got == expected, {m: v.reason[:300] for m, v in verdicts.items()} if verdicts else rec
    if cid == "max/undecided-split":
        cert = verdicts["observable"].certificate
        assert any(k.startswith("agree:") and c != "none" for k, c in cert.choices)
