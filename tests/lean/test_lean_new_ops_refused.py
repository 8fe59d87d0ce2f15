"""The Lean emitter refuses the IR's scan and integer-abs ops by name (no Lean counterpart yet) instead of
crashing or modelling them by accident."""

from __future__ import annotations

import pytest

from workbench import kir
from workbench.capture import load
from workbench.errors import UnsupportedError
from workbench.lean.from_kir import kernel_terms
from workbench.paths import KERNELS

ABS_KERNEL = '''
def k(in_ptr0: '*fp32', out_ptr0: '*fp32', ks0: 'i64', xnumel: 'i32', XBLOCK : tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    tmp0 = tl.load(in_ptr0 + (tl_math.abs(xindex - ks0)), xmask)
    tl.store(out_ptr0 + (xindex), tmp0, xmask)
'''


def test_scan_kernel_is_refused_by_name():
    k = kir.parse(load(KERNELS / "cumsum_last" / "triton_red_fused_cumsum_0.json"))
    with pytest.raises(UnsupportedError, match=r"SCAN node: a scan \(tl.associative_scan\) has no Lean counterpart yet"):
        kernel_terms(k)


def test_integer_abs_is_refused_by_name():
    with pytest.raises(UnsupportedError, match=r"ABS node: integer abs \(tl_math.abs\) has no Lean counterpart yet"):
        kernel_terms(kir.parse(ABS_KERNEL))
