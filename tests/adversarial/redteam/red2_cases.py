"""Red team ``red2`` (issue 13 soundness, after the scan/reach/lean/small merges): findings and probes.

Each case is a hand-edited real record (``data/kernels/*`` or the test data of the merged branches) in the
table's format (``redteam_cases.Case``); ``materialise.py`` writes them under ``redteam/<id>/``. Findings were
certified by the merged checker while the wide and narrowed kernels differ at a shape that satisfies every
guard; each is confirmed by the independent oracle (``workbench.oracle``, Triton's interpreter on the module's
own text, its own shape search) in ``tests/adversarial/test_red2.py``. Probes the checker already handled are
kept with their outcome (regressions).
"""
from __future__ import annotations

from redteam_build import record
from adv_records import base, chain, src

from workbench.capture.record import source_hash

NOT_CERTIFIED = "not-certified"
C, R, O = "certified", "refused", "out-of-class"

# A pointwise kernel whose only use of ks0 is a mask (ks0 > 5): W and N differ exactly when ks0 leaves int32
# (the narrowed ks0 wraps negative, the store is masked off in N only).
SIG1 = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "ks0": "i64", "xnumel": "i32", "XBLOCK": "constexpr"}
MASKED = '''def triton_poi_fused_0(in_ptr0, out_ptr0, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tl.store(out_ptr0 + (x0), tmp0, xmask & (ks0 > 5))
'''


def masked_by_size(guard: str):
    """ks0 = s27, xnumel = s99, and one guard bounding s27 (the only thing keeping ks0 in int32)."""
    return lambda: record("triton_poi_fused_0", MASKED, SIG1, {"ks0": "s27"}, {"xnumel": "s99"},
                          {"s27": 2, "s77": 2, "s99": 2}, [guard, "s99 <= 2147483647"])


# A persistent row sum whose 1-D result (no ``[:, None]``) is stored through a 2-D pointer: Triton broadcasts
# the [XBLOCK] value right-aligned, along the r axis, so with XBLOCK == R0_BLOCK the element (i, j) stores
# row j's sum at row i's address. Row j may be a tail row (x >= xnumel) whose operand was never checked:
# (x0 + ks0 - ks0) * 125 is int64 in W and wraps in N there (s77 <= 17179870 keeps it in int32 on active rows
# only: 125 * 17179870 > 2**31 - 1).
SIG_PER = {"in_ptr0": "*fp32", "out_ptr0": "*fp32", "ks0": "i64", "xnumel": "i32", "r0_numel": "i32",
           "XBLOCK": "constexpr"}
PER_HEAD = '''def triton_per_fused_sum_0(in_ptr0, out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    roffset = r0_offset
    rindex = r0_index
    rbase = r0_index
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 8*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tmp1 = tmp0 + ((x0 + ks0 - ks0) * 125).to(tl.float32)
    tmp2 = tl.broadcast_to(tmp1, [XBLOCK, R0_BLOCK])
'''
ROW_SUM = "    tmp3 = tl.sum(tmp2, 1){sub}\n    tl.store(out_ptr0 + (x0 + 0*r0_1), tmp3, r0_mask & xmask)\n"
ROW_SELECT = ("    tmp3, = tl.associative_scan((tmp2,), 1, _triton_helper_fn_add0)\n"
              "    tmp4 = triton_helpers.select_one((tmp3), rbase == (RBLOCK - 1), dim=-1, keep_dims={keep})\n"
              "    tl.store(out_ptr0 + (x0 + 0*r0_1), tmp4, r0_mask & xmask)\n")
HELPER = "@triton.jit\ndef _triton_helper_fn_add0(arg0_0, arg1_0):\n    tmp0 = arg0_0 + arg1_0\n    return tmp0\n\n"
LAST_ROWS = {"args": {"ks0": 2, "xnumel": 17179870, "r0_numel": 8}, "pid": 2147483, "xblock": 8,
             "prelude": "from torch._inductor.runtime import triton_helpers\n"}


def row_result(tail: str, helper: bool = False):
    def make():
        from workbench.capture.record import source_hash

        d = record("triton_per_fused_sum_0", PER_HEAD + tail, SIG_PER, {"ks0": "s27"},
                   {"xnumel": "s77", "r0_numel": "8"}, {"s27": 2, "s77": 2}, ["s77 <= 17179870", "s27 <= 1000"])
        d["source"] = d["source"].replace("@triton_heuristics.pointwise(", "@triton_heuristics.persistent_reduction(")
        if helper:
            d["source"] += "\n\n" + HELPER.rstrip("\n") + "\n"  # after the kernel: the oracle runs from its @triton.jit on
        d["source_hash"] = source_hash(d["source"], d["name"])
        return d
    return make


# A persistent kernel storing through x0[:, None] where x0 = xindex is already [XBLOCK, 1]: Triton makes it
# [XBLOCK, 1, 1], so ks0*x0[:, None] + x0 is [XBLOCK, XBLOCK, 1] and element (a, b, .) adds row b's x0 to row a's
# ks0*x0, with b a tail row (the mask xmask[:, None] holds for row a); kir read the subscript as the identity
# (2*ks0... on row a only). (ks0 + 1)*xnumel <= 2**31 - 1 bounds it on active rows, not with b past xnumel.
SUB_BODY = '''def triton_per_fused_0(in_ptr0, out_ptr0, ks0, xnumel, r0_numel, XBLOCK : tl.constexpr):
    r0_numel = 8
    R0_BLOCK: tl.constexpr = 8
    rnumel = r0_numel
    RBLOCK: tl.constexpr = R0_BLOCK
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_index = tl.arange(0, R0_BLOCK)[None, :]
    r0_offset = 0
    r0_mask = r0_index < r0_numel
    r0_1 = r0_index
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (r0_1 + 8*x0), r0_mask & xmask, eviction_policy='evict_first', other=0.0)
    tl.store(out_ptr0 + ({off}), tmp0, {mask})
'''


def subscripted(off: str, mask: str):
    def make():
        from workbench.capture.record import source_hash

        d = record("triton_per_fused_0", SUB_BODY.format(off=off, mask=mask), SIG_PER, {"ks0": "s27"},
                   {"xnumel": "s77", "r0_numel": "8"}, {"s27": 2, "s77": 2},
                   ["s27*s77 + s77 <= 2147483647", "8*s77 <= 2147483647"])
        d["source"] = d["source"].replace("@triton_heuristics.pointwise(", "@triton_heuristics.persistent_reduction(")
        d["source_hash"] = source_hash(d["source"], d["name"])
        return d
    return make


LAST_SUB = {"args": {"ks0": 2, "xnumel": 715827882, "r0_numel": 8}, "pid": 89478485, "xblock": 8}


# A dead branch (decided by the premises) holding a division by a uniform divisor: ks0*ks0 is 2**32 in W and 0
# in N at ks0 = 65536; tl.where computes both branches, so N executes sdiv i32 by 0 on every lane.
DEAD_DIV = '''def triton_poi_fused_0(in_ptr0, out_ptr0, ks0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (tl.where({cond}, x0, x0 // ({divisor}))), xmask)
    tl.store(out_ptr0 + (x0), tmp0, xmask)
'''


def dead_division(cond: str, divisor: str = "ks0*ks0"):
    return lambda: record("triton_poi_fused_0", DEAD_DIV.format(cond=cond, divisor=divisor), SIG1, {"ks0": "s27"}, {"xnumel": "s99"},
                          {"s27": 2, "s77": 2, "s99": 2}, ["s27 <= 100000", "s99 <= 2147483647"])


XENT1 = "cross_entropy/triton_red_fused__log_softmax_nll_loss_forward_1.json"  # the one-row (xnumel = 1) kernel
XENT_LOAD = "tmp7 = tl.load(in_ptr2 + (r0_0), r0_mask"
XENT_STORE = "tl.store(in_out_ptr0 + (tl.full([1, 1], 0, tl.int32).broadcast_to(XBLOCK, 1)), tmp23, None)"


def edited(rel, *edits):
    def make():
        d = chain(*edits)(base(rel))
        d["source_hash"] = source_hash(d["source"], d["name"])
        return d
    return make


def cases(Case):
    """The findings and probes, built with the table's ``Case`` class."""
    findings = [
        Case("red2-floor-of-nonint-max", masked_by_size("floor(Max(1, s27/3)) <= 715827882"), NOT_CERTIFIED,
             "premises: an atom that need not be an integer read as one",
             "premises.floor returned floor(q) = q for an integer-coefficient q, but q = Max(1, s27/3) (an "
             "auxiliary atom of a rational argument) need not be an integer: the guard was read as "
             "Max(1, s27/3) <= 715827882, i.e. s27 <= 2147483646, and SIZE_ARG_FITS was proved from it: "
             "CERTIFIED both modes. The guard holds at s27 = 2147483648 (floor(2147483648/3) = 715827882), where "
             "ks0 = 2**31 wraps to -2**31 in N: the oracle's own shape search finds it, the store is masked off in "
             "N only."),
        Case("red2-mod-of-rational-args", masked_by_size("s27 - 8*Mod(s27/2, 1) <= 2147483645"), NOT_CERTIFIED,
             "premises: an atom that need not be an integer read as one",
             "premises.mod gave Mod(a, b) the integer facts 0 <= r <= b - 1 for any b >= 1, but Mod(s27/2, 1) is "
             "1/2 at odd s27: r <= 0 turned the guard into s27 <= 2147483645, so SIZE_ARG_FITS was proved: "
             "CERTIFIED both modes. At s27 = 2147483649 (odd) the guard holds (2147483649 - 4 <= 2147483645) and "
             "ks0 leaves int32: the oracle finds the shape and the store masked off in N only."),
        Case("red2-row-sum-without-subscript", row_result(ROW_SUM.format(sub="")), NOT_CERTIFIED,
             "block layout: a row operation's 1-D result",
             "kir read every subscript as the identity, so tl.sum(tmp2, 1) without [:, None] was the row's own sum "
             "on every lane; Triton broadcasts the [XBLOCK] result right-aligned (along r): with XBLOCK = R0_BLOCK "
             "= 8, element (i, j) of the store holds row j's sum at row i's address. Rows past xnumel were never "
             "checked (the reduction's operand agrees on active rows only) and (x0 + ks0 - ks0) * 125 wraps in N "
             "there: CERTIFIED both modes. Triton's interpreter (ks0 = 2, xnumel = 17179870, last block): the "
             "store lanes 6, 7, 14, 15, ... (row 17179864's address, rows 17179870-71's sums) hold "
             "17179869184.0 in W and -17179868160.0 in N; with [:, None] they agree.", LAST_ROWS),
        Case("red2-select-one-without-keep-dims", row_result(ROW_SELECT.format(keep="False"), helper=True),
             NOT_CERTIFIED, "block layout: a row operation's 1-D result",
             "the same through the scan branch's select_one: keep_dims=False (the helper's default) returns the "
             "[XBLOCK] row selection, read by kir as 2-D: CERTIFIED both modes; the interpreter stores the tail "
             "rows' prefix sums at active rows' addresses, differing in W and N.", LAST_ROWS),
        Case("red2-subscript-of-2d-value", subscripted("ks0*x0[:, None] + x0 + 0*r0_1", "xmask[:, None]"),
             NOT_CERTIFIED, "block layout: a subscript that adds a third axis",
             "x0 = xindex is already [XBLOCK, 1], so x0[:, None] is [XBLOCK, 1, 1] and the offset "
             "ks0*x0[:, None] + x0 is [XBLOCK, XBLOCK, 1]: element (a, b) is ks0*x0[a] + x0[b], b a tail row while "
             "xmask[:, None] holds for row a. kir read every subscript as the identity (ks0*x0 + x0 on row a): "
             "CERTIFIED both modes. Triton's interpreter (ks0 = 2, xnumel = 715827882, XBLOCK = 8, last block): "
             "store lanes 112-119 (row 715827881's mask, row 715827887's x0) at offset 2147483648 in W and "
             "-2147483648 in N.", LAST_SUB),
        Case("red2-dead-branch-divisor-zero-in-n", dead_division("ks0 > 1"), (R, R),
             "uniform divisors on every launched lane (DEAD_BRANCH)",
             "a uniform divisor must be >= 1 on every launched lane (trusted/intervals.py bounds it on the "
             "class of all lanes: a truncated divisor must never be 0 in N where W's is not), but the branch "
             "holding x0 // (ks0*ks0) is decided dead (ks0 > 1 from ks0 >= 2), its class is EMPTY, and nothing "
             "was asked of the division: CERTIFIED observable. tl.where computes both branches: Triton's LLVM "
             "IR of the narrowed kernel (cuda:89) has `mul i32 %ks0, %ks0` and `sdiv i32 %x, %that` before the "
             "`select` (i64 in W), and at ks0 = 65536 (s27 <= 100000 holds) the i32 product is 0: a division by "
             "zero, undefined in LLVM, in N only (W divides by 2**32). Expected: refused in both modes, as for "
             "a lane condition (the probe below)."),
    ]
    probes = [
        Case("probe/red2-one-row-dead-branch-offset", edited(XENT1, src(XENT_LOAD, XENT_LOAD.replace(
            "(r0_0)", "(r0_0 + tl.where(ks0 > 1, 0, ks0*ks0*ks0))"))), (R, C),
             "one-row kernels x DEAD_BRANCH",
             "an x-uniform (xnumel = 1) kernel whose load offset adds a branch decided dead (ks0 >= 2): the "
             "overflowing ks0**3 is never selected and holds no division, so observable certifies; strict asks "
             "every intermediate to fit: refused. The interpreter agrees (ks0 = 3, r0_numel = 40, R0_BLOCK = 8).",
             {"args": {"ks0": 3, "r0_numel": 40}, "pid": 0, "xblock": 1, "blocks": {"R0_BLOCK": 8, "xnumel": 1},
              "agree": True, "prelude": "from torch._inductor.runtime import triton_helpers\n"
                                        "from torch._inductor.runtime.triton_helpers import libdevice, math as tl_math\n"}),
        Case("probe/red2-one-row-uniform-store-offset", edited(XENT1, src(XENT_STORE, XENT_STORE.replace(
            "broadcast_to(XBLOCK, 1))", "broadcast_to(XBLOCK, 1) + ks0*ks0)"))), (R, R),
             "one-row kernels", "a store with no x lane in its address, at ks0*ks0: every lane of the launch "
             "performs it, so ks0*ks0 must fit on all of them (no mask bounds it): refused."),
        Case("probe/red2-live-branch-divisor", dead_division("x0 >= 0"), (R, R),
             "uniform divisors on every launched lane",
             "the same division under a lane condition (never decided): the uniform divisor ks0*ks0 must fit and "
             "be >= 1 on every launched lane, which s27 <= 100000 does not give: refused."),
        Case("probe/lead-lane-divisor-in-unselected-branch", dead_division("x0 >= 0", "x0 + ks0*ks0"), (R, R),
             "every divisor on every launched lane",
             "a lane-dependent divisor in the branch tl.where never selects on a launched lane (x0 >= 0): "
             "Triton still computes x0 // (x0 + ks0*ks0) there, and at ks0 = 65536 the i32 divisor is x0, 0 at "
             "x0 = 0, in N only (W's is x0 + 2**32): undefined behaviour introduced by narrowing. Refused before "
             "the lead's division_sites change too (the class xmask & not (x0 >= 0) was not seen to be empty, "
             "so the divisor's fit was asked there), and now by construction: every divisor is bounded, >= 1 "
             "and agreeing on every launched lane (agreement.division_sites). No captured kernel (329 corpus "
             "and zoo records) has a lane-dependent divisor."),
        Case("probe/red2-subscript-of-1d-only", subscripted("ks0*x0 + x0 + 0*r0_1", "xmask"), (C, C),
             "block layout: subscripts", "the same store without the extra subscript (a 2-D tile): certified, "
             "and the interpreter agrees at the finding's lanes.", dict(LAST_SUB, agree=True)),
        Case("probe/red2-row-sum-subscripted", row_result(ROW_SUM.format(sub="[:, None]")), (C, C),
             "block layout: a row operation's result", "with Inductor's [:, None] each row stores its own sum: "
             "certified; the interpreter agrees at the finding's lanes.", dict(LAST_ROWS, agree=True)),
        Case("probe/red2-select-one-keep-dims", row_result(ROW_SELECT.format(keep="True"), helper=True), (C, C),
             "block layout: a row operation's result", "keep_dims=True keeps [XBLOCK, 1]: certified; the "
             "interpreter agrees.", dict(LAST_ROWS, agree=True)),
        Case("probe/red2-nonint-max-strict-guard", masked_by_size("Max(1, s27/3) < 715827883"), (R, R),
             "premises: strict guards over atoms that need not be integers",
             "a strict guard over a non-integer atom gives only d >= 0 (never d - 1 >= 0): s27 <= 2147483649 "
             "does not keep ks0 in int32; z3 refutes SIZE_ARG_FITS."),
        Case("probe/red2-floor-of-integer-max", masked_by_size("floor(Max(1, s27/3)) <= 715827881"), (C, C),
             "premises: floor of a non-integer atom",
             "with the guard one lower, floor(Max(1, s27/3)) <= 715827881 gives s27 <= 2147483645 for every real "
             "reading (floor(s27/3) <= 715827881 iff s27 < 3*715827882): ks0 fits, certified."),
    ]
    return findings, probes
