"""RED TEAM (2026-12-06, rules of 01a55ea): a certified kernel that is NOT safe -- a soundness bug of the checker.

``_static_literal`` (workbench/kir/reduction.py) takes the *first* ``r0_numel = N`` literal as the r extent
(``Reduction.static_numel``), but a second literal written over the parameter before any reading of it is
accepted as an ordinary static rebinding (``Parser._assign_node``: a numel parameter not yet used). Triton runs
the loop ``tl.range(0, r0_numel, R0_BLOCK)`` to the *last* literal, while the checker bounds ``r0_offset`` by the
first one minus 1 (``ReductionRules.bound_reduction``). Here ``r0_numel = 1`` then ``r0_numel = 1024``: the
checker believes ``r0_offset == 0`` and certifies ``r0_offset * ks0 * ks0`` (int32 in N, int64 in W) in both
modes; the same kernel with the single literal ``r0_numel = 1024`` is refused.

The independent oracle (``scripts/oracle-records.py OUT RECORD.json``) reports the certified kernel
``not-equivalent``: 376 disagreements on 898 active lanes, first at shape ``s21 = 2, s41 = 16383`` (store 0,
lane (0, 0): wide stores bits 1458567296, narrowed 3497000480).

Not introduced today: the parent of 01a55ea certifies it too (the first statement was the literal there).
Fixed in the parser (``Parser._assign_node``): a numel parameter is bound by a literal at most once; a second
binding is refused like any reassigned parameter, so the kernel stays 64-bit (out of class, never certified).
"""

from dataclasses import replace
from pathlib import Path

import pytest

from workbench import kir
from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import check_kernel

DATA = Path(__file__).parent.parent / "check" / "data" / "issue24"
MISTRAL = next(DATA.glob("triton_red_fused__safe_softmax_*_6.json"))

BODY = """
    r0_numel = {first}
{second}
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:, None]
    xmask = xindex < xnumel
    r0_base = tl.arange(0, R0_BLOCK)[None, :]
    x4 = xindex
    _tmp1 = tl.full([XBLOCK, R0_BLOCK], 0, tl.float32)
    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):
        r0_index = r0_offset + r0_base
        tmp0 = (r0_offset * ks0 * ks0).to(tl.float32)
        tmp2 = tl.broadcast_to(tmp0, [XBLOCK, R0_BLOCK])
        tmp3 = _tmp1 + tmp2
        _tmp1 = tl.where(xmask, tmp3, _tmp1)
    tmp4 = tl.sum(_tmp1, 1)[:, None]
    tl.store(in_out_ptr0 + (x4), tmp4, xmask)
"""


def _record(first: int, second: int | None):
    rec = load(MISTRAL)
    body = jit_function_text(rec.source, rec.name)
    head = body.split("\n")[0]
    text = head + BODY.format(first=first, second=f"    r0_numel = {second}" if second is not None else "")
    return replace(rec, source=rec.source.replace(body, text))


def test_single_literal_1024_is_refused():
    # the control: with the extent Triton actually loops over, the checker sees the overflow
    v = check_kernel(_record(1024, None), "observable", counterexample=False)
    assert v.verdict == "refused", v.reason


def test_rebound_literal_is_refused_by_the_parser():
    # the extent the analysis reads and the one Triton's loop reads are the same binding, bound once
    with pytest.raises(Exception, match="parameter r0_numel is reassigned"):
        kir.parse(_record(1, 1024))


@pytest.mark.parametrize("mode", ["strict", "observable"])
def test_rebound_static_r0_numel_is_not_certified(mode):
    v = check_kernel(_record(1, 1024), mode, counterexample=False)
    assert not v.certified, v.reason
    assert "reassigned" in v.reason
