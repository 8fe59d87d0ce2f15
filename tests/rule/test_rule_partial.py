"""Variant P (partial narrowing): the text generator, its agreement with the wide kernel under kir's lane
evaluator, the checker's partial mode, and mutants it must refuse."""

import json
import random
from dataclasses import replace

import pytest

from workbench import kir
from workbench.capture import load
from workbench.check.api import check_kernel
from workbench.check.checker import Widths
from workbench.check.sidecond import Reason
from workbench.check.soundness import agreement, shapes, small_record
from workbench.kir.crosscheck import _lanes, _shapes, data_function, index_data
from workbench.paths import KERNELS
from workbench.rule.partial import PartialError, candidate_sites, partial_kernel, partial_sites, partial_variant
from workbench.kir.table import readable

TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"


def _parse_p(rec, text=None, sites=None):
    """P's IR parsed back from its text; ``sites``: every candidate site when the kernel is a mutant the checker
    does not certify (the default, the certified sites, exists only for certified kernels)."""
    exprs = {a.name: a.expr for a in rec.size_args}
    exprs.update({n.name: n.expr for n in rec.numels})
    return kir.parse(text or partial_variant(rec, sites), signature=dict(rec.signature), name=rec.name,
                     grid_type=rec.grid_type, exprs=exprs)


def _mutant(rec, old, new, **kw):
    assert old in rec.source
    return replace(rec, source=rec.source.replace(old, new), **kw)


def _disagreements(rec, kp, shapes, lanes=40, seed=0):
    """Lanes where W (the record) and P differ observably: a mask, an active access's offset, a stored value."""
    k = kir.parse(rec)
    rng = random.Random(seed)
    out = []
    for _, sizes in shapes:
        ln = kir.launch(k, sizes)
        data = data_function(index_data(k, ln))  # index tensors in range of the device_assert premises
        for lane in _lanes(k, ln, rng, lanes):
            w, p = kir.evaluate(k, ln, lane, data=data), kir.evaluate(kp, ln, lane, data=data)
            for a, b in zip(w.loads + w.stores, p.loads + p.stores, strict=True):
                if a.mask != b.mask or (a.mask and (a.offset != b.offset or a.value != b.value)):
                    out.append((sizes, lane, a, b))
    return out


def test_p_rewrites_exactly_the_int64_sites_of_tile():
    rec = load(TILE)
    text = partial_variant(rec)
    assert "x0 = (xindex.to(tl.int32) % ks0.to(tl.int32)).to(tl.int64)" in text
    assert "x1 = (xindex.to(tl.int32) // ks0.to(tl.int32)).to(tl.int64)" in text
    assert "(x0.to(tl.int32) % ks1.to(tl.int32)).to(tl.int64)" in text
    assert sum(t == kir.i64 for t in partial_sites(rec).values()) == 3
    kp = _parse_p(rec)
    divs = [n for n in kir.walk(*kp.loads, *kp.stores) if n.op in (kir.Op.FLOORDIV, kir.Op.MOD)]
    assert divs and all(n.type == kir.i32 for n in divs)  # every site computed in int32 in P
    assert all(p.type == kir.i64 for p in kp.params if p.kind == "size")  # size arguments stay int64
    # the IR route renders the same kernel: both parse to the same canonical hash
    assert kir.canonical_hash(kir.parse(partial_variant(kir.parse(rec)))) == kir.canonical_hash(partial_kernel(kir.parse(rec)))


def test_int32_sites_are_left_alone():
    rec = load(TILE)
    mut = _mutant(rec, "x2 = xindex\n", "x2 = xindex // 1\n")  # an int32 site: its type must not change
    assert sorted(str(t) for t in partial_sites(mut).values()) == ["i32", "i64", "i64", "i64"]
    assert "x2 = xindex // 1\n" in partial_variant(mut)


CORPUS = readable(sorted(KERNELS.glob("*/*.json")))  # refused ones: tests/kir/test_kir_corpus_classes.py
# The lane sampler here draws x lanes only; reductions' P is checked per (x, r) lane and step by the
# small-width model in tests/check/test_reduction_check.py.
POINTWISE = [p for p in CORPUS if kir.parse(load(p)).reduction is None]


@pytest.mark.parametrize("path", POINTWISE, ids=lambda p: f"{p.parent.name}/{p.stem[-12:]}")
def test_wide_and_p_agree_on_sampled_lanes_at_guarded_shapes(path):
    rec = load(path)
    assert check_kernel(rec, "partial", smt=False, counterexample=False).certified
    kp = _parse_p(rec)
    # no int64 site left in P, and the record route and the IR route give the same kernel
    assert not [n for n in kir.walk(*kp.loads, *kp.stores) if n.op in (kir.Op.FLOORDIV, kir.Op.MOD) and n.type == kir.i64]
    assert kir.canonical_hash(kp, facts=False) == kir.canonical_hash(kir.parse(partial_variant(kir.parse(rec))), facts=False)
    shapes = [s for s in _shapes(rec, random.Random(1)) if s[0] != "past the guard"]
    assert not _disagreements(rec, kp, shapes, lanes=20)


def test_the_cross_check_sees_a_wrong_rewrite():
    # The cross-check is not vacuous: where a dividend leaves int32, P's offsets differ from W's.
    rec = load(TILE)
    mut = _mutant(rec, "x1 = xindex // ks0", "x1 = (xindex + ks0*ks1) // ks0")
    shapes = [("big", {"s27": 40000, "s77": 2})]  # ks0*ks1 = 3.2e9 > 2**31-1, numel fits
    assert _disagreements(mut, _parse_p(mut, sites=candidate_sites(kir.parse(mut))), shapes, lanes=8)


def _refused(rec, reason: Reason):
    v = check_kernel(rec, "partial", smt=True, counterexample=False)
    assert v.verdict == "refused", v.reason
    assert v.reason.startswith("cannot show safety: ") and " fails for " in v.reason
    assert reason in {d.condition.reason for d in v.failed()}, v.reason
    return v


def test_mutant_divisor_can_be_zero_is_refused():
    rec = load(TILE)
    _refused(_mutant(rec, "x1 = xindex // ks0", "x1 = xindex // (ks0 - 2*ks1)"), Reason.DIVISOR)


def test_mutant_divisor_exceeding_int32_is_refused():
    rec = load(TILE)
    v = _refused(_mutant(rec, "x1 = xindex // ks0", "x1 = xindex // (ks0*ks1)"), Reason.OPERAND_FITS)
    assert any("ks0 * ks1" in d.condition.origin.subexpression for d in v.failed()
               if d.condition.reason is Reason.OPERAND_FITS)


def test_mutant_dividend_product_of_sizes_is_refused():
    rec = load(TILE)
    mut = _mutant(rec, "x1 = xindex // ks0", "x1 = (xindex + ks0*ks1) // ks0")
    _refused(mut, Reason.OPERAND_FITS)
    assert check_kernel(load(TILE), "partial", smt=False, counterexample=False).certified


def test_mutant_remainder_over_xindex_when_numel_can_exceed_int32_is_refused():
    rec = load(TILE)
    _refused(replace(rec, guards=()), Reason.NUMEL_FITS)  # the guard bounding numel dropped
    # an int64 remainder over the lane index plus a size: leaves int32 on the last lanes of large shapes
    _refused(_mutant(rec, "x0 = (xindex % ks0)", "x0 = ((xindex + ks0) % ks0)"), Reason.OPERAND_FITS)


def test_literal_outside_int32_at_a_site_is_refused_by_the_generator_and_the_checker():
    rec = load(TILE)
    mut = _mutant(rec, "x1 = xindex // ks0", "x1 = (xindex + ks0) // 4294967296")
    with pytest.raises(PartialError, match="4294967296"):
        partial_variant(mut, candidate_sites(kir.parse(mut)))
    assert check_kernel(mut, "partial", smt=False, counterexample=False).verdict != "certified"


# -- small-width exhaustive models: certified in partial mode implies W and P agree on every lane ----------

BITS = 6
SMALL = Widths(BITS, 2 * BITS)
PARTIAL_MUTANTS = {
    "dividend product of sizes": ("x1 = xindex // ks0", "x1 = (xindex + ks0*ks1) // ks0"),
    "divisor product of sizes": ("x1 = xindex // ks0", "x1 = xindex // (ks0*ks1)"),
    "remainder over xindex + ks0": ("x0 = (xindex % ks0)", "x0 = ((xindex + ks0) % ks0)"),
}


def _small_agrees(rec, limit=40):
    small = small_record(rec, BITS)
    v = check_kernel(small, "partial", widths=SMALL, smt=False, counterexample=False)
    sh, _ = shapes(small, BITS, limit=limit)
    lanes, diff = agreement(small, SMALL, sh, partial=True)
    if v.certified:
        assert diff is None, f"{rec.program}: certified in partial mode but W and P differ: {diff}"
    return v, diff


@pytest.mark.parametrize("path", CORPUS[::3], ids=lambda p: f"{p.parent.name}/{p.stem[-12:]}")
def test_small_model_partial_certified_kernels_agree_on_every_lane(path):
    _small_agrees(load(path), limit=20)


@pytest.mark.parametrize("name", sorted(PARTIAL_MUTANTS))
def test_small_model_partial_mutants_differ_and_are_refused(name):
    old, new = PARTIAL_MUTANTS[name]
    v, diff = _small_agrees(_mutant(load(TILE), old, new), limit=60)
    assert diff is not None  # the oracle sees the difference: the refusal is not vacuous
    assert not v.certified


# -- the command ---------------------------------------------------------------------------------------------


def test_check_mode_partial_json_follows_the_contract(capsys):
    from workbench.cli import main

    assert main(["check", str(TILE), "--mode", "partial", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "workbench.check/1" and doc["verdict"] == "certified"
    (v,) = doc["verdicts"]
    assert v["mode"] == "partial" and v["certificate"]["mode"] == "partial"
    reasons = {sc["reason"] for sc in v["side_conditions"]}
    assert Reason.OPERAND_FITS.value in reasons and Reason.DIVISOR.value in reasons
    assert Reason.SIZE_ARG_FITS.value not in reasons  # P keeps ks* int64


def test_check_mode_partial_refuses_a_mutant_file_with_exit_1(tmp_path, capsys):
    from workbench.capture.record import save, source_hash
    from workbench.cli import main

    rec = _mutant(load(TILE), "x1 = xindex // ks0", "x1 = (xindex + ks0*ks1) // ks0")
    path = save(replace(rec, source_hash=source_hash(rec.source, rec.name)), tmp_path)
    assert main(["check", str(path), "--mode", "partial"]) == 1
    out = capsys.readouterr().out
    assert "[partial]: REFUSED" in out and Reason.OPERAND_FITS.value in out


def test_p_premise_is_weaker_than_n_s():
    # An int64 product of sizes outside any division: N (int32 size arguments) wraps it, P keeps it int64.
    mut = _mutant(load(TILE), "x2 = xindex\n", "x2 = xindex + ks0*ks1 - ks0*ks1\n")
    for mode in ("strict", "observable"):
        assert check_kernel(mut, mode, counterexample=False).verdict == "refused"
    assert check_kernel(mut, "partial", counterexample=False).certified
    big = [("big", {"s27": 40000, "s77": 2})]  # ks0*ks1 = 3.2e9 > 2**31-1; P still equals W
    assert not _disagreements(mut, _parse_p(mut), big, lanes=8)
