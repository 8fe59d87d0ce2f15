"""Mutants of the captured embedding kernel that the checker must refuse (issue 13): bounds of a loaded index
come only from a tl.device_assert that dominates the use on its lanes, never from anywhere else.

Table-driven like ``test_adversarial.py``: each edit is applied to the real record, written out and loaded as
a user's file would be, then checked in both modes. With the captured int64 index tensor the index product
``ks0 * tmp0`` is int64 in both kernels (Triton's promotion), so observable mode may certify a mutant whose
bound is weak: W and N compute the same int64 address; strict mode (every intermediate fits int32) must
refuse it. A one-sided bound leaves the int64 product unbounded, which both modes refuse (the rule needs
the product's exact value to fit its type). With an int32 index tensor the narrowed product is int32 and both modes must refuse.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from adv_records import base, body, chain, guards, signature, src  # noqa: E402
from adv_run import outcome  # noqa: E402

EMB = "embedding/triton_poi_fused_embedding_0.json"
GATHER = "gather_last/triton_poi_fused_gather_0.json"
ASSERT = 'tl.device_assert(((0 <= tmp0) & (tmp0 < ks1)) | ~(xmask), "index out of bounds: 0 <= tmp0 < ks1")'
OK, REF, OOC = "certified", "refused", "out-of-class"


def after_use(d: dict) -> dict:
    """Swap the assert with the load that uses the index: the use is no longer dominated."""
    b = body(d)
    lines = b.splitlines()
    i = next(j for j, x in enumerate(lines) if "device_assert" in x)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    d["source"] = d["source"].replace(b, "\n".join(lines) + "\n")
    return d


I32 = signature("in_ptr0", "*i32", sizes=False)
TABLE_GUARD = guards(lambda gs: [g for g in gs if g != "s36*s85 <= 2147483647"])

CASES = [
    # (id, record, edit, (strict, observable))
    ("as-captured", EMB, lambda d: d, (OK, OK)),
    ("no-assert", EMB, src(ASSERT, "pass"), (OOC, OOC)),
    ("assert-after-use", EMB, after_use, (OOC, OOC)),
    ("assert-under-another-mask", EMB, src("~(xmask)", "~(x0 < 1)"), (REF, REF)),
    ("weaker-bound", EMB, src("(tmp0 < ks1)", "(tmp0 < 2*ks1)"), (REF, OK)),
    ("bound-is-another-symbol", EMB, src("(tmp0 < ks1)", "(tmp0 < ks0)"), (REF, OK)),
    ("upper-bound-only", EMB, src("((0 <= tmp0) & (tmp0 < ks1))", "(tmp0 < ks1)"), (REF, REF)),
    ("lower-bound-only", EMB, src("((0 <= tmp0) & (tmp0 < ks1))", "(0 <= tmp0)"), (REF, REF)),
    ("table-guard-dropped", EMB, TABLE_GUARD, (REF, REF)),  # ks1 = s36 no longer fits int32
    ("int32-index", EMB, I32, (OK, OK)),
    ("int32-index/weaker-bound", EMB, chain(I32, src("(tmp0 < ks1)", "(tmp0 < 2*ks1)")), (REF, REF)),
    ("int32-index/bound-is-another-symbol", EMB, chain(I32, src("(tmp0 < ks1)", "(tmp0 < ks0)")), (REF, REF)),
    ("int32-index/assert-under-another-mask", EMB, chain(I32, src("~(xmask)", "~(x0 < 1)")), (REF, REF)),
    ("int32-index/table-guard-dropped", EMB, chain(I32, TABLE_GUARD), (REF, REF)),
    ("int32-index/no-assert", EMB, chain(I32, src(ASSERT, "pass")), (OOC, OOC)),
    ("gather/as-captured", GATHER, lambda d: d, (OK, OK)),
    ("gather/no-assert", GATHER, src('tl.device_assert(((0 <= tmp0) & (tmp0 < ks0)) | ~(xmask), '
                                     '"index out of bounds: 0 <= tmp0 < ks0")', "pass"), (OOC, OOC)),
]


def test_the_base_records_carry_the_assert_the_table_edits():
    assert ASSERT in body(base(EMB))


@pytest.mark.parametrize("cid,rel,edit,expected", CASES, ids=[c[0] for c in CASES])
def test_indirect_mutant(cid, rel, edit, expected, tmp_path):
    got, rec, verdicts = outcome(rel, edit, tmp_path)
    assert got == expected, {m: v.reason[:300] for m, v in verdicts.items()} if verdicts else rec
    for m, v in verdicts.items():
        if v.verdict == OK:
            assert "assumes 0 <= tmp0 < " in v.reason and "device_assert at line" in v.reason
        if v.verdict == OOC:
            assert "indirect indexing" in v.reason


SMALL_BITS = 6
WIDE_ONLY = {"weaker-bound", "bound-is-another-symbol"}  # the int64 product may not fit a 12-bit "int64"


@pytest.mark.parametrize("cid,rel,edit,expected", [c for c in CASES if OK in c[3]],
                         ids=[c[0] for c in CASES if OK in c[3]])
def test_certified_mutants_agree_in_the_small_model(cid, rel, edit, expected, tmp_path):
    """The oracle: the small-width model (int32 as 6 bits), if certified there too, agrees wide against
    narrowed on every lane of every enumerated shape for every index value the premise admits."""
    from workbench.check.api import check_kernel
    from workbench.check.checker import Widths
    from workbench.check.soundness import agreement, shapes, small_record

    _, rec, _ = outcome(rel, edit, tmp_path)
    small = small_record(rec, SMALL_BITS)
    widths = Widths(SMALL_BITS, 2 * SMALL_BITS)
    modes = [m for m, want in zip(("strict", "observable"), expected) if want == OK]
    certified = [m for m in modes if check_kernel(small, m, widths=widths, smt=False, counterexample=False).certified]
    if not certified and cid in WIDE_ONLY:
        return  # the model's "int64" has 12 bits: the product may not fit it, so the model refuses (sound)
    assert certified, f"{cid}: certified at 32 bits but in no mode of the {SMALL_BITS}-bit model"
    sh, _ = shapes(small, SMALL_BITS, limit=12)
    lanes, diff = agreement(small, widths, sh)
    assert diff is None, f"{cid}: certified but the small model disagrees: {diff}"
    assert lanes > 100


def test_the_small_model_bites_on_a_weak_bound():
    """Control: with the premise's bound doubled and an int32 index tensor the narrowed int32 product
    wraps in the small model, so agreement finds a difference (the oracle can fail)."""
    import tempfile

    from workbench.check.checker import Widths
    from workbench.check.soundness import agreement, shapes, small_record

    _, rec, _ = outcome(EMB, chain(I32, TABLE_GUARD), Path(tempfile.mkdtemp()))
    small = small_record(rec, SMALL_BITS)
    sh, _ = shapes(small, SMALL_BITS, limit=40)
    _, diff = agreement(small, Widths(SMALL_BITS, 2 * SMALL_BITS), sh)
    assert diff is not None
