"""Soundness suite: (a) small-width exhaustive models of the corpus, (b) mutants of corpus kernels, (c)
Hypothesis-generated index expressions. In every case: certified implies the wide and narrowed kernels agree
on every lane (masks, offsets where active, stored values), checked by brute force with ``workbench.kir``.

The small model is 6-bit "int32" against 12-bit "int64" (guards' 2**31-1 scaled to 31); every shape
satisfying the scaled guards is enumerated (up to 400 per kernel, subsampled evenly beyond) and every lane
of the launch grid with blocks of 4, tail lanes included.
"""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench.capture import load
from workbench.capture.record import Numel, ShapeSymbol, SizeArg, jit_function_text
from workbench.check import variants as V
from workbench.check.api import check_kernel
from workbench.check.checker import Widths
from workbench.check.soundness import agreement, shapes, small_record
from workbench.paths import KERNELS

BITS = 6
SMALL = Widths(BITS, 2 * BITS)
CORPUS = sorted(KERNELS.glob("*/*.json"))


def _certified_kernel_agrees(rec, limit=400):
    """Check rec (already a small record) in both modes; every certified mode must agree everywhere."""
    verdicts = {m: check_kernel(rec, m, widths=SMALL, smt=False, counterexample=False) for m in ("strict", "observable")}
    certified = [m for m, v in verdicts.items() if v.certified]
    if not certified:
        return verdicts, 0
    sh, _ = shapes(rec, BITS, limit=limit)
    lanes, diff = agreement(rec, SMALL, sh)
    assert diff is None, f"{rec.program}: certified ({certified}) but the kernels differ: {diff}"
    return verdicts, lanes


# -- (a) small-width exhaustive models of the corpus --------------------------------------------------------


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: f"{p.parent.name}/{p.stem[:24]}")
def test_small_model_certified_kernels_agree_on_every_lane(path):
    rec = small_record(load(path), BITS)
    verdicts, lanes = _certified_kernel_agrees(rec)
    if verdicts["observable"].certified:
        assert lanes > 0


def test_small_model_oracle_detects_a_real_overflow():
    """Control: without the total-width relation the small model's kernels really differ, and the checker
    refuses (so agreement of certified kernels above is not vacuous)."""
    rec = small_record(V.without_total_width(V.at_least_one(load(KERNELS / "nested_cat_add" /
                                                                   "triton_poi_fused_add_cat_0.json"))), BITS)
    sh, _ = shapes(rec, BITS, limit=60)
    _, diff = agreement(rec, SMALL, sh)
    assert diff is not None
    assert not check_kernel(rec, "observable", widths=SMALL, smt=False, counterexample=False).certified


# -- (b) mutants -----------------------------------------------------------------------------------------------


def _mutate(rec, old, new, count=1):
    body = jit_function_text(rec.source, rec.name)
    assert old in body, (rec.program, old)
    return replace(rec, source=rec.source.replace(body, body.replace(old, new, count)))


TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"
NESTED = KERNELS / "nested_cat_add" / "triton_poi_fused_add_cat_0.json"
ROTARY = KERNELS / "rotary" / "triton_poi_fused_add_cat_mul_neg_slice_0.json"
FLIP = KERNELS / "flip_last" / "triton_poi_fused_flip_0.json"

SOURCE_MUTANTS = {
    "extra size use": (TILE, "tl.store(out_ptr0 + (x2)", "tl.store(out_ptr0 + (x2 + ks1*ks1*ks0)"),
    "extra size use in a mask": (NESTED, "tmp7 = tmp4 < tmp6", "tmp7 = tmp4 < tmp6 * ks1 * ks2"),
    "changed cast": (NESTED, "tmp5 = (ks1 + ks2 + ks3).to(tl.int64)", "tmp5 = (ks1 * ks2 * ks3).to(tl.int32)"),
    "changed cast on the index": (ROTARY, "tmp3 = (x0).to(tl.int32)", "tmp3 = (x0 * ks0).to(tl.int32)"),
    "unsupported op": (TILE, "x0 = (xindex % ks0)", "x0 = (xindex % ks0) ^ 1"),
    "variable reassigned after the check": (TILE, "    tmp0 = tl.load", "    x1 = x1 * ks0 * ks1\n    tmp0 = tl.load"),
    "reassigned mask": (FLIP, "    tmp0 = tl.load", "    xmask = xindex < xnumel * ks0\n    tmp0 = tl.load"),
    "chained comparison": (TILE, "xmask = xindex < xnumel", "xmask = 0 <= xindex < xnumel"),
    "conditional expression": (TILE, "x1 = xindex // ks0", "x1 = xindex // ks0 if ks0 > 0 else xindex * ks1"),
    "keyword mask": (FLIP, "xmask, eviction_policy", "mask=xmask, eviction_policy"),
    "dropped operand form": (FLIP, "((-1) + ks0 + ((-1)*x0) + ks0*x1)", "((-1) + ks0 + ((-1)*x0) + ks0*x1, ks0*ks0*x1)[0]"),
}


@pytest.mark.parametrize("name", sorted(SOURCE_MUTANTS))
def test_source_mutants_are_never_certified_wrongly(name):
    path, old, new = SOURCE_MUTANTS[name]
    rec = small_record(_mutate(load(path), old, new), BITS)
    verdicts, _ = _certified_kernel_agrees(rec)
    # and at full width a mutant that can overflow is not certified without proof
    for m in ("strict", "observable"):
        v = check_kernel(_mutate(load(path), old, new), m, smt=False, counterexample=False)
        if name in ("extra size use", "changed cast on the index", "variable reassigned after the check"):
            assert not v.certified, (name, m, v.reason)


def _premise_mutants():
    out = {}
    for path in (TILE, NESTED, ROTARY, FLIP):
        rec = load(path)
        for label, var in V.weakened(rec).items():
            out[f"{path.parent.name}: {label}"] = var
        out[f"{path.parent.name}: all guards dropped"] = replace(rec, guards=())
    return out


PREMISE_MUTANTS = _premise_mutants()


@pytest.mark.parametrize("name", sorted(PREMISE_MUTANTS))
def test_premise_mutants_are_never_certified_wrongly(name):
    rec = PREMISE_MUTANTS[name]
    _certified_kernel_agrees(small_record(rec, BITS), limit=60)
    if "numel guard" in name or "all guards dropped" in name or "index dtype" in name:
        assert not check_kernel(rec, "observable", smt=False, counterexample=False).certified


# -- (c) Hypothesis-generated index expressions --------------------------------------------------------------

_TEMPLATE = '''def kgen(in_ptr0, out_ptr0, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = (xindex % ks0)
    x1 = xindex // ks0
    tmp0 = tl.load(in_ptr0 + ({offset}), {mask}, other=0.0)
    tl.store(out_ptr0 + (xindex), tmp0, xmask)
'''

leaf = st.sampled_from(["x0", "x1", "ks0", "ks1", "1", "2", "(-1)", "(ks0 * x1 + x0)", "(ks1 * x1)"])


def _expr(depth):
    if depth == 0:
        return leaf
    sub = _expr(depth - 1)
    return st.one_of(
        leaf,
        st.builds(lambda a, op, b: f"({a} {op} {b})", sub, st.sampled_from(["+", "-", "*"]), sub),
        st.builds(lambda a, op, d: f"({a} {op} {d})", sub, st.sampled_from(["//", "%"]), st.sampled_from(["ks0", "ks1", "2"])),
    )


masks = st.sampled_from(["xmask", "(x0 < ks1) & xmask", "(x1 < ks1) & xmask", "((x0 + x1) < ks0) & xmask"])


def _generated(offset: str, mask: str):
    base = load(TILE)
    text = _TEMPLATE.format(offset=offset, mask=mask)
    return replace(
        base,
        program="hypothesis",
        name="kgen",
        source=text,
        signature={"in_ptr0": "*fp32", "out_ptr0": "*fp32", "ks0": "i64", "ks1": "i64", "xnumel": "i32",
                   "XBLOCK": "constexpr"},
        size_args=(SizeArg("ks0", "s27", "i64"), SizeArg("ks1", "s77", "i64")),
        numels=(Numel("xnumel", "s27*s77", "i32"),),
        symbols=(ShapeSymbol("s27", 1, None, ()), ShapeSymbol("s77", 1, None, ())),
        guards=("s27*s77 <= 2147483647",),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_expr(3), masks)
def test_generated_index_expressions_certified_implies_agreement(offset, mask):
    rec = small_record(_generated(offset, mask), BITS)
    _certified_kernel_agrees(rec)


def test_generated_template_is_certifiable():
    # a sanity example: the template's plain row-major offset is certified (so (c) is not vacuous)
    v = check_kernel(small_record(_generated("ks0 * x1 + x0", "xmask"), BITS), "observable",
                     widths=SMALL, smt=False, counterexample=False)
    assert v.certified, v.reason
