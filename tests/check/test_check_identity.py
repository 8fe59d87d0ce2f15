"""Side-condition identity is structural (issue 11, class 3): two lane classes that render the same text
(both ``t & xmask`` after ``t`` is rebound) keep separate conditions, and every kernel discharges exactly
the conditions it generated."""

from __future__ import annotations

from dataclasses import replace

import pytest

from workbench import kir
from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import _search_oracle, check_certificate, check_kernel
from workbench.check.checker import Analysis
from workbench.check.premises import premises_of
from workbench.paths import KERNELS
from workbench.kir.table import readable

TILE = KERNELS / "tile" / "triton_poi_fused_repeat_0.json"


def _rebound_t():
    rec = load(TILE)
    body = jit_function_text(rec.source, rec.name)
    new = body.replace("    tmp0 = tl.load", "    t = x0 < 3\n    t = x1 < 3\n"
                       "    tmp9 = tl.load(in_ptr0 + (tl.where(t, x1*x1*ks1, 0) + tl.where(x0 < 3, x1*x1*ks1, 0)), "
                       "xmask, 0.0)\n    tmp0 = tl.load")
    new = new.replace("tl.store(out_ptr0 + (x2), tmp0, xmask)", "tl.store(out_ptr0 + (x2), tmp0 + tmp9, xmask)")
    return replace(rec, source=rec.source.replace(body, new))


def test_same_rendered_class_keeps_both_conditions():
    rec = _rebound_t()
    k, p = kir.parse(rec), premises_of(rec)
    a = Analysis(k, p, "observable", _search_oracle)
    a.run()
    # the rendered lane class names the atoms by their source names: both classes are {t, xmask}
    by_text: dict[tuple, set] = {}
    for sc in a.conditions.values():
        o = sc.origin
        atoms = frozenset(x.strip() for x in o.lane_class.split("&"))
        by_text.setdefault((sc.reason, o.node, o.bound, atoms), set()).add((sc.key, sc.claim))
    collided = {t: v for t, v in by_text.items() if len(v) > 1 and len({c for _, c in v}) > 1}
    assert collided, "expected two lane classes rendered alike ({t, xmask}) for the same node"
    for variants in collided.values():
        assert len({key for key, _ in variants}) == len(variants)  # distinct structural keys, none dropped
    assert len(a.generated) == len(a.conditions)
    v = check_kernel(rec, "observable", counterexample=False)
    assert not v.certified  # x1*x1*ks1 overflows int32 on lanes with x0 < 3 and a large x1


@pytest.mark.parametrize("path", readable(sorted(KERNELS.glob("*/*.json")))[::4], ids=lambda p: p.parent.name)
def test_generated_equals_discharged(path):
    rec = load(path)
    for mode in ("strict", "observable"):
        v = check_kernel(rec, mode, counterexample=False)
        k, p = kir.parse(rec), premises_of(rec)
        discharged, a = check_certificate(k, p, v.certificate, smt=False)
        assert len(discharged) == len(a.generated) == len(a.conditions) > 0
        assert len({d.condition.key for d in discharged}) == len(discharged)


def test_key_ignores_the_rendered_text():
    from workbench.check.sidecond import Origin, Reason, SideCondition

    a = SideCondition(None, Reason.FITS_NARROW, Origin("n7", "x1", 3, "xmask & t", "upper", "n20+,n9+"))
    b = SideCondition(None, Reason.FITS_NARROW, Origin("n7", "x1", 3, "xmask & t", "upper", "n16+,n20+"))
    assert a.key != b.key and "xmask & t" not in a.key
