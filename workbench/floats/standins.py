"""Stand-ins for approximate operations: how far apart are the two sides if the approximation were exact?
(stage: floats)

An undecided verdict (``rsqrtf``, ``__fdividef``, CUDA's ``torch.rsqrt``, the CPU's MKL ``sqrt``) claims
nothing about bits. This module replaces each such opaque call by its correctly rounded counterpart (the
function the approximation approximates) and measures the largest ulp distance between kernel and spec on
the case-split inputs. It is reported next to the verdict with the documented error of the approximation
(CUDA C Programming Guide, "Mathematical Functions"; Intel MKL VML HA accuracy) and never changes it.
"""

from __future__ import annotations

import numpy as np

from workbench.floats.evaluate import HOST, Semantics, evaluate
from workbench.floats.ir import Node, Op, Ty, const, substitute, walk


def _rsqrt(a: tuple[Node, ...]) -> Node:
    return Node(Op.DIV, Ty.F32, (const(1.0, Ty.F32), Node(Op.SQRT, Ty.F32, (a[0],))))


# opaque name -> (correctly rounded stand-in, documented error bound in ulp or None)
STAND_INS = {
    "rsqrtf": (_rsqrt, "2 ulp"),
    "__frsqrt_rn": (_rsqrt, "correctly rounded 1/sqrt(x), one rounding"),
    "__fdividef": (lambda a: Node(Op.DIV, Ty.F32, a), "2 ulp for |y| in [2**-126, 2**126]"),
    "aten.rsqrt[cuda: rsqrtf, 2 ulp]": (_rsqrt, "2 ulp"),
    "aten.sqrt[cpu: MKL VML vmsSqrt, not correctly rounded]": (lambda a: Node(Op.SQRT, Ty.F32, a),
                                                              "MKL VML HA: about 1 ulp"),
}


def replaceable(*nodes: Node) -> bool:
    names = {n.name for root in nodes for n in walk(root) if n.op is Op.OPAQUE}
    return bool(names) and names <= STAND_INS.keys()


def with_stand_ins(node: Node) -> Node:
    return substitute(node, lambda n, a: STAND_INS[n.name][0](a) if n.op is Op.OPAQUE else None)


def ulp_key(bits: np.ndarray) -> np.ndarray:
    """float32 bits -> integers ordered like the floats (+0 and -0 both 0)."""
    b = bits.astype(np.int64)
    return np.where(b >= 0x80000000, 0x80000000 - b, b)


def max_ulp(spec: Node, fn: Node, xs: dict, sem: Semantics) -> tuple[int | None, int]:
    """Largest ulp distance between the two sides with stand-ins, over the non-NaN results; None when one
    side is NaN where the other is not (reported as such)."""
    with np.errstate(all="ignore"):
        want = np.asarray(evaluate(with_stand_ins(spec), xs, HOST), dtype=np.float32)
        got = np.asarray(evaluate(with_stand_ins(fn), xs, sem), dtype=np.float32)
    want, got = np.broadcast_arrays(want, got)
    nan_w, nan_g = np.isnan(want), np.isnan(got)
    if (nan_w != nan_g).any():
        return None, int(want.size)
    ok = ~nan_w
    d = np.abs(ulp_key(got[ok].view(np.uint32)) - ulp_key(want[ok].view(np.uint32)))
    return (int(d.max()) if d.size else 0), int(want.size)


def documented(*nodes: Node) -> str:
    names = sorted({n.name for root in nodes for n in walk(root) if n.op is Op.OPAQUE})
    return "; ".join(f"{n.split('[')[0]}: {STAND_INS[n][1]}" for n in names)
