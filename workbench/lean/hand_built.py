"""Hand-built ``LeanInstance``s for corpus kernels, until the checker's certificates exist (stage: prove).

Each is transcribed from a captured kernel in ``data/kernels/<program>/`` (index terms, masks, loads,
store) with the capture's symbols, lower bounds, guards and size-argument expressions. The side conditions
are derived by hand in the checker's form (polynomials ``>= 0`` over the shape symbols) and are NOT a
checker's output: the emitter's linear-program check confirms each has a certificate from the lower bounds
and guards, nothing more. The kernel hash is ``unhashed:<program>`` until ``workbench.kir`` provides the
canonical hash. Replace these by ``workbench.lean.adapter`` once certificates land.
"""

from __future__ import annotations

import sympy

from workbench.lean.errors import InstanceError
from workbench.lean.instance import (
    LeanInstance,
    Load,
    SideCondition,
    SizeArg,
    Store,
    Symbol,
    arange,
    block,
    load_value,
    parse_poly,
    pbin,
    pconst,
    program_id,
    pun,
    pwhere,
    size,
    strong,
    weak,
)

INT32_MAX = 2**31 - 1


def _polys(names: tuple[str, ...], texts: list[str], where: str) -> tuple[sympy.Expr, ...]:
    return tuple(parse_poly(t, names, f"{where} {i}") for i, t in enumerate(texts))


def nested_cat_add() -> LeanInstance:
    """``data/kernels/nested_cat_add/triton_poi_fused_add_cat_0.py``: two halves of a three-way cat."""
    names = ("s12", "s48", "s66", "s85")
    ks0, ks1, ks2, ks3 = size(0), size(1), size(2), size(3)
    xnumel = size(4, "i32")
    xindex = program_id() * block() + arange()
    xmask = xindex.lt(xnumel)
    x0 = xindex % ks0
    x1 = xindex // ks0
    m1 = weak(-1)
    # First half: columns [0, ks1 + ks2 + ks3).
    tmp0 = x0.to("i32")
    tmp7 = x0.to("i64").to("i64").lt((ks1 + ks2 + ks3).to("i64").to("i64"))
    tmp8 = x0.to("i32")
    tmp12 = x0.to("i64").to("i64")
    tmp14 = ks1.to("i64").to("i64")
    tmp15 = tmp12.lt(tmp14)
    tmp16 = tmp15 & tmp7
    tmp18 = tmp12.ge(tmp14)
    tmp21 = tmp12.lt((ks1 + ks2).to("i64").to("i64"))
    tmp22 = tmp18 & tmp21
    tmp23 = tmp22 & tmp7
    tmp26 = tmp8.ge((ks1 + ks2).to("i32"))
    tmp29 = tmp26 & tmp7
    # Second half: columns [ks1 + ks2 + ks3, ks0).
    tmp40 = tmp0.ge((ks1 + ks2 + ks3).to("i32"))
    y = x0 + m1 * ks1 + m1 * ks2 + m1 * ks3
    tmp43 = y.to("i32")
    tmp47 = y.to("i64").to("i64")
    tmp49 = ks1.to("i64").to("i64")
    tmp50 = tmp47.lt(tmp49)
    tmp51 = tmp50 & tmp40
    tmp53 = tmp47.ge(tmp49)
    tmp56 = tmp47.lt((ks1 + ks2).to("i64").to("i64"))
    tmp57 = tmp53 & tmp56
    tmp58 = tmp57 & tmp40
    tmp61 = tmp43.ge((ks1 + ks2).to("i32"))
    tmp64 = tmp61 & tmp40
    loads = (
        Load(0, ks1 * x1 + x0, tmp16 & xmask),
        Load(1, ks2 * x1 + (m1 * ks1 + x0), tmp23 & xmask),
        Load(2, ks3 * x1 + (m1 * ks1 + m1 * ks2 + x0), tmp29 & xmask),
        Load(3, ks3 * x1 + (m1 * ks1 + m1 * ks2 + x0), tmp29 & xmask),
        Load(4, ks1 * x1 + y, tmp51 & xmask),
        Load(5, ks2 * x1 + (m1 * ks1 + y), tmp58 & xmask),
        Load(6, ks3 * x1 + (m1 * ks1 + m1 * ks2 + y), tmp64 & xmask),
        Load(7, ks3 * x1 + (m1 * ks1 + m1 * ks2 + y), tmp64 & xmask),
    )
    v = [pun("to_float32", load_value(i)) for i in range(8)]
    zero = pconst("0.0")
    first = pwhere(tmp7, pwhere(tmp15, v[0], pwhere(tmp22, v[1], pwhere(tmp29, pbin("add", v[2], v[3]), zero))), zero)
    second = pwhere(tmp40, pwhere(tmp50, v[4], pwhere(tmp57, v[5], pwhere(tmp64, pbin("add", v[6], v[7]), zero))), zero)
    store = Store(8, xindex, xmask, pun("to_bfloat16", pwhere(tmp7, first, second)))
    sides = [
        ("2147483647 - 2*s12 - 2*s48 - 2*s85", "ks0 = 2*s12 + 2*s48 + 2*s85 fits in int32 (also bounds x0 - ks1 - ks2 - ks3)", "size argument ks0"),
        ("2147483647 - s12", "ks1 = s12 fits in int32", "size argument ks1"),
        ("2147483647 - s48", "ks2 = s48 fits in int32", "size argument ks2"),
        ("2147483647 - s85", "ks3 = s85 fits in int32", "size argument ks3"),
        ("2*s12 + 2*s48 + 2*s85 - 1", "the divisor ks0 of x0 = xindex % ks0 and x1 = xindex // ks0 is at least 1", "x0, x1"),
        ("2147483648 - s12*s66", "loads 0 and 4: ks1*x1 + (column) <= s12*s66 - 1 under their masks", "in_ptr0, in_ptr4 offsets"),
        ("2147483648 - s48*s66", "loads 1 and 5: ks2*x1 + (column) <= s48*s66 - 1 under their masks", "in_ptr1, in_ptr5 offsets"),
        ("2147483648 - s66*s85", "loads 2, 3, 6, 7: ks3*x1 + (column) <= s66*s85 - 1 under their masks", "in_ptr2, in_ptr3, in_ptr6, in_ptr7 offsets"),
    ]
    return LeanInstance(
        kernel="triton_poi_fused_add_cat_0",
        program="nested_cat_add",
        hash="unhashed:nested_cat_add",
        symbols=tuple(Symbol(n, 2) for n in names),
        guards=_polys(names, [
            "2*s12*s66 + 2*s48*s66 + 2*s66*s85 <= 2147483647",
            "s12*s66 <= 2147483647",
            "s48*s66 <= 2147483647",
            "s66*s85 <= 2147483647",
        ], "nested_cat_add guard"),
        size_args=(
            SizeArg("ks0", 0, parse_poly("2*s12 + 2*s48 + 2*s85", names, "ks0")),
            SizeArg("ks1", 1, parse_poly("s12", names, "ks1")),
            SizeArg("ks2", 2, parse_poly("s48", names, "ks2")),
            SizeArg("ks3", 3, parse_poly("s85", names, "ks3")),
            SizeArg("xnumel", 4, parse_poly("2*s12*s66 + 2*s48*s66 + 2*s66*s85", names, "xnumel"), "i32", False),
        ),
        side_conditions=tuple(SideCondition(parse_poly(c, names, f"side condition {i}"), r, o)
                              for i, (c, r, o) in enumerate(sides)),
        loads=loads,
        store=store,
        notes=("Hand-built from the captured kernel; side conditions hand-derived, not a checker's certificate.",),
    )


def tile() -> LeanInstance:
    """``data/kernels/tile/triton_poi_fused_repeat_0.py``: ``x.tile(1, 2)``; report 2's key side condition."""
    names = ("s27", "s77")
    ks0, ks1 = size(0), size(1)
    xnumel = size(2, "i32")
    xindex = program_id() * block() + arange()
    xmask = xindex.lt(xnumel)
    x0 = xindex % ks0
    x1 = xindex // ks0
    loads = (Load(0, ks1 * x1 + (x0 % ks1), xmask, "undefined"),)
    store = Store(1, xindex, xmask, load_value(0))
    sides = [
        ("2147483647 - 2*s27", "ks0 = 2*s27 fits in int32", "size argument ks0"),
        ("2147483647 - s27", "ks1 = s27 fits in int32", "size argument ks1"),
        ("2*s27 - 1", "the divisor ks0 of x0 and x1 is at least 1", "x0, x1"),
        ("s27 - 1", "the divisor ks1 of x0 % ks1 is at least 1", "in_ptr0 offset"),
        ("2*s27*s77 - s27*(s77 - 1)", "report 2's key step, 2ab - a(b-1) = ab + a >= 0: the row term ks1*x1 stays below the guarded 2ab", "in_ptr0 offset"),
        ("2147483648 - s27*s77", "the load offset ks1*x1 + x0 % ks1 <= s27*s77 - 1 fits in int32", "in_ptr0 offset"),
    ]
    return LeanInstance(
        kernel="triton_poi_fused_repeat_0",
        program="tile",
        hash="unhashed:tile",
        symbols=(Symbol("s27", 2), Symbol("s77", 2)),
        guards=_polys(names, ["2*s27*s77 <= 2147483647", "s27*s77 <= 2147483647"], "tile guard"),
        size_args=(
            SizeArg("ks0", 0, parse_poly("2*s27", names, "ks0")),
            SizeArg("ks1", 1, parse_poly("s27", names, "ks1")),
            SizeArg("xnumel", 2, parse_poly("2*s27*s77", names, "xnumel"), "i32", False),
        ),
        side_conditions=tuple(SideCondition(parse_poly(c, names, f"side condition {i}"), r, o)
                              for i, (c, r, o) in enumerate(sides)),
        loads=loads,
        store=store,
        notes=("Hand-built from the captured kernel; side conditions hand-derived, not a checker's certificate.",),
    )


def row_sum() -> LeanInstance:
    """A looped row sum as Inductor writes it (``triton_red_fused_sum_0`` of ``x.sum(-1)`` over ``[s0, s1]``):
    ``_tmp2 = tl.where(r0_mask & xmask, _tmp2 + tmp0, _tmp2)`` over ``for r0_offset in tl.range(0, r0_numel,
    R0_BLOCK)``, then ``tl.store(out_ptr0 + x0, tl.sum(_tmp2, 1)[:, None], xmask)``. Hand-built (no capture
    in the corpus yet): the first reduction instance, golden-tested like the pointwise ones."""
    from workbench.lean.instance import loop_offset
    from workbench.lean.reduction import RCarry, RKernelTerms, RLoad, RStore, acc, reduce

    names = ("s0", "s1")
    ks0, xnumel, r0_numel = size(0), size(1, "i32"), size(2, "i32")
    xindex = program_id() * block() + arange()
    r0_index = loop_offset() + arange(2)
    xmask, r0_mask = xindex.lt(xnumel), r0_index.lt(r0_numel)
    load = Load(0, r0_index + ks0 * xindex, r0_mask & xmask, "0.0")
    carry = RCarry(1, pconst("0.0"), pwhere(r0_mask & xmask, pbin("add", acc(0), load_value(0)), acc(0)))
    out = Store(1, xindex, xmask, reduce("sum", acc(0)))
    return LeanInstance(
        kernel="triton_red_fused_sum_0",
        program="row_sum",
        hash="unhashed:row_sum",
        symbols=(Symbol("s0", 2), Symbol("s1", 2)),
        guards=_polys(names, ["s0*s1 <= 2147483647"], "row_sum guard"),
        size_args=(
            SizeArg("ks0", 0, parse_poly("s1", names, "ks0")),
            SizeArg("xnumel", 1, parse_poly("s0", names, "xnumel"), "i32", False),
            SizeArg("r0_numel", 2, parse_poly("s1", names, "r0_numel"), "i32", False),
        ),
        side_conditions=(),
        loads=(),
        store=None,
        notes=("Hand-built reduction kernel (the corpus has no captured reduction yet); side conditions are the "
               "Lean derivation's own.",),
        reduction=RKernelTerms(1, (RLoad(load, 1),), (RStore(out, 0),), (carry,)),
    )


HAND_BUILT = {"nested_cat_add": nested_cat_add, "tile": tile}
REDUCTIONS = {"row_sum": row_sum}  # hand-built reduction instances (no JSON form: see workbench.lean.reduction)


def hand_built(name: str) -> LeanInstance:
    try:
        return HAND_BUILT[name]()
    except KeyError:
        raise InstanceError(
            f"no Lean instance named {name!r}; hand-built instances: {sorted(HAND_BUILT)} "
            "(or pass a KERNEL.json / certificate file)"
        ) from None
