"""Accesses whose mask leaves out a range mask (issue 13: convnext's 2-D kernels read a bias row under
``xmask`` only): they run on the tail lanes of the other axis too, so they must agree there; the checker no
longer refuses them wholesale. Mutants of the captured 2-D transpose, checked in both modes and, when
certified, against the small-width model on every lane (tail lanes included)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from adv_records import chain, src  # noqa: E402
from adv_run import outcome  # noqa: E402

from workbench.check.api import check_kernel  # noqa: E402
from workbench.check.checker import Widths  # noqa: E402
from workbench.check.soundness import agreement, shapes, small_record  # noqa: E402

T = "transpose_contig/triton_poi_fused_clone_t_0.json"
LOAD = "    tmp0 = tl.load(in_ptr0 + (y0 + ks0*x1), xmask & ymask)\n"
STORE = "tl.store(out_ptr0 + (x1 + ks1*y0), tmp0, xmask & ymask)"
OK, REF = "certified", "refused"
BITS = 6
SMALL = Widths(BITS, 2 * BITS)


def extra_load(offset: str, mask: str):
    return chain(src(LOAD, LOAD + f"    tmp9 = tl.load(in_ptr0 + ({offset}), {mask})\n"),
                 src(STORE, STORE.replace("tmp0, xmask", "tmp0 + tmp9, xmask")))


CASES = [
    ("row-under-xmask", extra_load("x1", "xmask"), (OK, OK)),  # the bias row: y-free, agrees on tail y lanes
    ("column-under-ymask", extra_load("y0", "ymask"), (OK, OK)),
    ("y-dependent-under-xmask", extra_load("y0 + ks0*x1", "xmask"), (REF, REF)),  # y0 unbounded on tail lanes
    ("store-under-xmask", src(STORE, STORE.replace(", xmask & ymask)", ", xmask)")), (REF, REF)),
]


@pytest.mark.parametrize("cid,edit,expected", CASES, ids=[c[0] for c in CASES])
def test_tail_mutant(cid, edit, expected, tmp_path):
    got, rec, verdicts = outcome(T, edit, tmp_path)
    assert got == expected, {m: v.reason[:300] for m, v in verdicts.items()}
    small = small_record(rec, BITS)
    certified = [m for m in ("strict", "observable")
                 if check_kernel(small, m, widths=SMALL, smt=False, counterexample=False).certified]
    sh, _ = shapes(small, BITS, limit=30)
    lanes, diff = agreement(small, SMALL, sh)
    if OK in expected:
        assert certified and diff is None, diff
        assert lanes > 500
    else:
        assert not certified


def test_the_oracle_sees_the_tail_lanes():
    """Control: with y in the offset of a load masked by xmask only, the small model's W and N read different
    addresses on some tail lane (the refusal above is not vacuous)."""
    import tempfile

    _, rec, _ = outcome(T, extra_load("y0 + ks0*x1 + ks0*ks1", "xmask"), Path(tempfile.mkdtemp()))
    sh, _ = shapes(small_record(rec, BITS), BITS, limit=40)
    _, diff = agreement(small_record(rec, BITS), SMALL, sh)
    assert diff is not None
