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
    ]
    probes = [
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
