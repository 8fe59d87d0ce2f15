"""Mutants of real reduction and indirect kernels, one per construct the IR reads (issue 13, the construct
coverage table of docs/check.md): each must be refused (or out of class) in both modes, and each is a real
narrowing bug: the small-width model (``check.exhaustive``, run whatever the checker says) finds wide and
narrowed disagreeing, so the refusal is needed, not an over-refusal.

Every mutant is an edit of a captured record's kernel text (``data/kernels``, ``tests/kir/data/reduction``,
``tests/check/data/families``) or of the red-team indirect sum; edits must apply (a stale table fails).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import check_kernel
from workbench.paths import KERNELS

ROOT = Path(__file__).resolve().parents[2]
FAM = ROOT / "tests" / "check" / "data" / "families"
SOFTMAX = KERNELS / "softmax_last" / "triton_red_fused__softmax_prepare_softmax_online_0.json"
SUM_LAST = KERNELS / "sum_last" / "triton_red_fused_sum_0.json"
LAYER_NORM = KERNELS / "layer_norm" / "triton_red_fused_native_layer_norm_0.json"
INDEX_SELECT = KERNELS / "index_select" / "triton_poi_fused_index_select_0.json"
AMIN = FAM / "amin_last" / "triton_red_fused_amin_0.json"
ARGMIN = FAM / "argmin_dim1" / "triton_per_fused_argmin_0.json"
SOFTMAX64 = FAM / "softmax_dim1_64" / "triton_per_fused_prepare_softmax_online_0.json"
ONLINE_RED = FAM / "softmax_dim1_3000" / "triton_red_fused_prepare_softmax_online_0.json"
ONLINE_PER = FAM / "softmax_dim1_3000" / "triton_per_fused_prepare_softmax_online_1.json"
INDIRECT_SUM = ROOT / "tests" / "adversarial" / "redteam" / "probe-red-indirect-sum" / "triton_red_fused_sum_9.json"
BIG = "(ks0*ks0*x0).to(tl.float32)"
# the width-3000 softmax's guards (3000*s53*s77 <= 2**31-1) admit no 6-bit shape; at 15 bits this wraps only narrowed
ROWS_BIG = "(xindex*3000*ks0).to(tl.float32)"

# (id, constructs it targets, record, [(old, new), ...], small-model bits or None when W = N by construction)
MUTANTS = [
    ("persistent/r-mask-dropped", ("persistent reduction", "static R0_BLOCK"), ARGMIN,
     [("r0_mask & xmask, eviction_policy", "xmask, eviction_policy")], 9),
    ("persistent/index-overflows-int32", ("persistent reduction", "static r0_numel"), SOFTMAX64,
     [("x0 + ks0*r0_2 + 64*ks0*x1", "x0 + ks0*r0_2 + 64*ks0*ks0*x1")], 10),
    ("persistent/static-block-past-static-numel", ("static R0_BLOCK", "static r0_numel"), SOFTMAX64,
     [("R0_BLOCK: tl.constexpr = 64", "R0_BLOCK: tl.constexpr = 128")], 10),
    ("multi-loop/third-loop-store-overflows", ("multi-loop", "online softmax as Inductor"), SOFTMAX,
     [("tl.store(out_ptr2 + (r0_1 + ks0*x0)", "tl.store(out_ptr2 + (r0_1 + ks0*ks0*x0)")], 6),
    ("reduce-max/update-overflows", ("REDUCE max", "ACC carry", "online softmax as Inductor"), SOFTMAX,
     [("triton_helpers.maximum(_tmp2, tmp1)", f"triton_helpers.maximum(_tmp2, tmp1 + {BIG})")], 6),
    ("reduce-min/update-overflows", ("REDUCE min", "ACC carry"), AMIN,
     [("triton_helpers.minimum(_tmp2, tmp1)", f"triton_helpers.minimum(_tmp2, tmp1 + {BIG})")], 6),
    ("reduce-sum/update-overflows", ("REDUCE sum", "ACC carry", "looped reduction"), SUM_LAST,
     [("tmp3 = _tmp2 + tmp1", f"tmp3 = _tmp2 + tmp1 + {BIG}")], 6),
    ("reduce-welford/update-overflows", ("REDUCE welford", "ACC carry"), LAYER_NORM,
     [("tmp1, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0", f"tmp1 + {BIG}, tmp2_mean, tmp2_m2, tmp2_weight, roffset == 0")], 6),
    ("online-softmax/combine-operand-overflows", ("online softmax helpers", "ACC carry", "looped reduction"), ONLINE_RED,
     [("_tmp4_max, _tmp4_sum, tmp2, tmp3, False", f"_tmp4_max, _tmp4_sum, tmp2 + {ROWS_BIG}, tmp3, False")], 15),
    ("online-softmax/reduce-operand-overflows", ("online softmax helpers", "persistent reduction"), ONLINE_PER,
     [("tmp5, tmp6, 1, False", f"tmp5, tmp6 + {ROWS_BIG}, 1, False")], 15),
    ("with-index/index-operand-overflows", ("REDUCE with_index",), ARGMIN,
     [("tmp4 = tl.broadcast_to(rindex, tmp3.shape)", "tmp4 = tl.broadcast_to(rindex + ks0*ks0*x1, tmp3.shape)")], 8),
    ("where-index/other-branch-overflows", ("tl.where-selected index",), INDEX_SELECT,
     [("tmp2 = tmp0 + tmp1", "tmp2 = tmp0 + ks1*ks1")], 6),
    ("indirect-reduction/assert-under-another-mask", ("loads through loaded indices", "device_assert ASSUME",
                                                      "reduction through a loaded index"),
     INDIRECT_SUM, [("| ~(xmask)", "| ~(x0 < 1)"), ("ks0*tmp9", "ks0*(tmp9).to(tl.int32)")], 6),
]


def mutant(path: Path, edits) -> object:
    rec = load(path)
    body = jit_function_text(rec.source, rec.name)
    new = body
    for old, repl in edits:
        assert old in new, (path.name, old)
        new = new.replace(old, repl, 1)
    return replace(rec, source=rec.source.replace(body, new))


@pytest.mark.parametrize("mid, constructs, path, edits, bits", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_construct_mutant_is_refused_and_is_a_real_difference(mid, constructs, path, edits, bits):
    rec = mutant(path, edits)
    for mode in ("strict", "observable"):
        v = check_kernel(rec, mode, counterexample=False)
        assert not v.certified, f"{mid}: {mode} CERTIFIED a mutant ({v.reason[:200]})"
    if bits is None:
        return
    from workbench.check.checker import Widths
    from workbench.check.exhaustive import ModelRun, WidthRun, _run_at, admissible_shapes
    from workbench.check.soundness import small_record

    small = small_record(rec, bits)
    shapes = admissible_shapes(small, bits)
    assert shapes, f"{mid}: no shape at {bits} bits"
    run, at = ModelRun(rec.program, rec.name), WidthRun(bits)
    _run_at(run, at, small, Widths(bits, 2 * bits), shapes, 400_000)
    assert run.difference is not None, f"{mid}: the {bits}-bit model finds no difference ({at})"


def test_the_base_records_are_certified():
    """Without the edit each record is certified in some mode (so the edit is what gets refused)."""
    for path in sorted({m[2] for m in MUTANTS}):
        rec = load(path)
        assert any(check_kernel(rec, m, counterexample=False).certified for m in ("strict", "observable")), path




def test_online_softmax_helper_kernels():
    """Inductor's online softmax helpers (captured for a static width of 3000 split in two kernels): the looped
    kernel's ``online_softmax_combine_with_sum`` (a destructuring assignment of two payload values, then each
    selected under the r mask) and the persistent one's ``online_softmax_reduce`` (then ``tmp4 = tmp4[:, None]``,
    a re-binding to the same value) are read and certified in both modes; the small model agrees on every lane
    it enumerates (and the mutants above of each kernel are refused and differ)."""
    from workbench.check.exhaustive import model_run

    for path in (ONLINE_RED, ONLINE_PER):
        rec = load(path)
        for mode in ("strict", "observable"):
            v = check_kernel(rec, mode, counterexample=False)
            assert v.certified, (path.name, mode, v.reason)
        run = model_run(rec, ("strict", "observable"), budget=5_000)
        assert run.widths and run.difference is None, run.summary()
