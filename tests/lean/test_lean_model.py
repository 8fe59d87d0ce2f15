"""The Lean definitions' Python mirror: the generic theorem's statement on random terms (Hypothesis), and the
hand-built instances' side conditions implying the per-lane premise on sampled lanes near the guard limits."""

from __future__ import annotations

import math

import pytest
import sympy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from workbench.lean.hand_built import nested_cat_add, tile
import dataclasses

from workbench.lean.instance import (Term, TermOp, arange, block, fconv, load_index, num_programs, program_id,
                                     size, strong, weak, where)
from workbench.lean.instance import assume as asserted_index
from workbench.lean.model import NARROW, WIDE, Lane, agree, assert_holds, evaluate, observe, safe, tdiv, tmod, wrap


def test_lean_model_truncating_division_examples():
    assert (tdiv(7, 2), tmod(7, 2)) == (3, 1)
    assert (tdiv(-7, 2), tmod(-7, 2)) == (-3, -1)  # sign of the dividend, as arith.remsi
    assert (tdiv(7, -2), tmod(7, -2)) == (-3, 1)
    assert (tdiv(5, 0), tmod(5, 0)) == (0, 5)  # Lean's Int.tdiv/tmod conventions
    assert wrap("i32", 2**31) == -(2**31) and wrap("i64", 2**31) == 2**31 and wrap("i1", 7) == 1


@settings(max_examples=400, deadline=None)
@given(st.integers(1, 9), st.integers(-50, 50), st.integers(-50, 50), st.integers(-400, 400), st.integers(0, 40))
def test_lean_model_quot_literal_statement(c, qlo, qhi, lx, width):
    """`Quot.literal`'s statement on integers: `c * qlo ≤ lx` and `hx < (qhi + 1) * c` put every Euclidean
    quotient `X / c` of `X ∈ [lx, hx]` in `[qlo, qhi]` (Python's `//` is floor division, Lean's `/` on `Int`
    is Euclidean: equal for `c > 0`)."""
    hx = lx + width
    assume(c * qlo <= lx and hx < (qhi + 1) * c)
    assert all(qlo <= x // c <= qhi for x in range(lx, hx + 1))


def test_lean_model_quot_literal_premises_are_needed():
    # s27 = 9, c = 2, qlo = qhi = 4 (= floor(9/2)): holds; qlo = 5 breaks `c * qlo ≤ lx` and the quotient.
    assert 2 * 4 <= 9 < (4 + 1) * 2 and 9 // 2 == 4
    assert not 2 * 5 <= 9 and not 5 <= 9 // 2


LEAVES = st.one_of(
    st.builds(program_id, st.sampled_from([0, 1, 2])), st.builds(num_programs, st.sampled_from([0, 1, 2])),
    st.builds(arange, st.sampled_from([0, 1])), st.builds(block, st.sampled_from([0, 1])),
    st.builds(size, st.integers(0, 2), st.sampled_from(["i64", "i32"])),
    st.builds(weak, st.integers(-3, 3)),
    st.builds(strong, st.integers(-3, 3), st.sampled_from(["i32", "i64"])),
)


def _extend(children):
    binary = st.tuples(st.sampled_from([TermOp.ADD, TermOp.SUB, TermOp.MUL, TermOp.FLOORDIV, TermOp.MOD,
                                        TermOp.LT, TermOp.GE, TermOp.EQ, TermOp.NE, TermOp.AND, TermOp.OR]),
                       children, children).map(lambda x: Term(x[0], (x[1], x[2])))
    cast = st.tuples(st.sampled_from(["i1", "i32", "i64"]), children).map(lambda x: x[1].to(x[0]))
    sel = st.tuples(children, children, children).map(lambda x: where(*x))
    # Indirect indexing: an integer loaded from an index tensor (other= or none) and an assert's value.
    loaded = st.tuples(st.integers(0, 2), st.sampled_from(["i32", "i64"]), children, children,
                       st.one_of(st.none(), st.integers(-3, 3))).map(lambda x: load_index(*x))
    asserted = st.tuples(children, children, children, children, st.booleans(), st.booleans()).map(
        lambda x: asserted_index(x[0], x[1], x[2] if x[4] or not x[5] else None, x[3] if x[5] else None))
    # Integer abs (two's complement: |INT_MIN| wraps back) and an integer computed in floating point.
    absolute = children.map(lambda x: Term(TermOp.ABS, (x,)))
    floating = st.tuples(st.sampled_from(["log:fp32(to:fp32(x))", "exp:fp32(to:fp32(x))"]),
                         st.sampled_from(["i32", "i64"]), children).map(lambda x: fconv(*x))
    return st.one_of(binary, cast, sel, loaded, asserted, absolute, floating)


TERMS = st.recursive(LEAVES, _extend, max_leaves=12)
BIG = st.one_of(st.integers(-5, 5), st.integers(2**31 - 5, 2**31 + 5), st.integers(-(2**31) - 5, -(2**31) + 5),
                st.integers(-(2**40), 2**40))
_LANES = st.one_of(
    st.builds(Lane.x, st.integers(0, 2**21), st.integers(0, 1023), st.sampled_from([1, 128, 1024]),
              st.tuples(BIG, BIG, BIG)),
    # 2-D lanes (Grid2DWithYZOverflow): program ids and grid up to the y/z limits, positions in (XBLOCK, YBLOCK).
    st.builds(Lane.xy, st.tuples(st.integers(0, 2**21), st.integers(0, 65534), st.integers(0, 2**16)),
              st.tuples(st.integers(1, 2**22), st.integers(1, 65535), st.integers(1, 2**16 + 1)),
              st.tuples(st.integers(0, 1023), st.integers(0, 1023)),
              st.tuples(st.sampled_from([1, 32, 1024]), st.sampled_from([1, 32, 1024])), st.tuples(BIG, BIG, BIG)),
)
# Every lane with some memory: the index tensors' cells (by pointer and offset) from a small table of values.
LANES = st.builds(lambda lane, cells: dataclasses.replace(lane, mem=lambda p, a: cells[(7 * p + a) % len(cells)]),
                  _LANES, st.lists(BIG, min_size=1, max_size=5))


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(TERMS, LANES)
def test_lean_model_agree_implies_wide_equals_narrow(t, lane):
    """`Expr.eval_wide_eq_eval_narrow_of_agree` and `Expr.divisorsPos_of_agree`, on random terms."""
    assume(agree(lane, t))  # vacuity guard: Hypothesis fails as Unsatisfiable if no example meets the premises
    assert evaluate(WIDE, lane, t) == evaluate(NARROW, lane, t)
    assert _divisors_pos(WIDE, lane, t) and _divisors_pos(NARROW, lane, t)


def _divisors_pos(mode, lane, t):
    """Mirror of `Expr.DivisorsPos` (short-circuit readings of & | where included; a loaded index's offset
    where its mask is set; an assert's value only: its mask and bounds are compiled away)."""
    d = [lambda i=i: _divisors_pos(mode, lane, t.args[i]) for i in range(len(t.args))]
    v = [evaluate(mode, lane, a) for a in t.args]
    if t.op is TermOp.LOAD:
        return d[1]() and (v[1] == 0 or d[0]())
    if t.op in (TermOp.ASSUME, TermOp.ABS, TermOp.FCONV):
        return d[0]()
    if t.op is TermOp.AND:
        return (d[0]() and (v[0] == 0 or d[1]())) or (d[1]() and (v[1] == 0 or d[0]()))
    if t.op is TermOp.OR:
        return (d[0]() and (v[0] != 0 or d[1]())) or (d[1]() and (v[1] != 0 or d[0]()))
    if t.op is TermOp.WHERE:
        return d[0]() and (d[1]() if v[0] != 0 else d[2]())
    own = t.op not in (TermOp.FLOORDIV, TermOp.MOD) or v[1] >= 1
    return own and all(f() for f in d)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(TERMS, TERMS, TERMS, TERMS, LANES)
def test_lean_model_bounded_assume_statement(v, mask, lo, hi, lane):
    """`Bounded.assume`: where the premise holds (an assumption on the lane's memory), the mask is set in the
    narrowed kernel and the value, mask and bounds agree, the narrowed value lies in [lo, hi - 1] of the
    narrowed bounds; the node agrees and has the value's value in both kernels."""
    t = asserted_index(v, mask, lo, hi)
    parts_agree = all(agree(lane, x) for x in (v, mask, lo, hi))
    assume(assert_holds(lane, t) and parts_agree and evaluate(NARROW, lane, mask) != 0)  # vacuity guard: Hypothesis fails as Unsatisfiable if no example meets the premises
    x = evaluate(NARROW, lane, t)
    assert evaluate(NARROW, lane, lo) <= x <= evaluate(NARROW, lane, hi) - 1
    assert agree(lane, t) and evaluate(WIDE, lane, t) == x


def test_lean_model_unspecified_load_value_never_agrees():
    """A masked-off load without other= yields an unspecified value that may differ between the kernels
    (`Lane.undef`); `Agree` never relies on it, with other= both kernels read the constant."""
    off_mask = strong(0, "i1")
    lane = Lane.x(0, 0, 1, ())
    bare, other = load_index(0, "i64", weak(0), off_mask), load_index(0, "i64", weak(0), off_mask, other=3)
    assert not agree(lane, bare) and evaluate(WIDE, lane, bare) != evaluate(NARROW, lane, bare)
    assert agree(lane, other) and evaluate(WIDE, lane, other) == evaluate(NARROW, lane, other) == 3
    on = load_index(0, "i32", weak(5), strong(1, "i1"))
    cells = dataclasses.replace(lane, mem=lambda p, a: 2**31 + a)  # wraps to the element type
    assert agree(cells, on) and evaluate(WIDE, cells, on) == evaluate(NARROW, cells, on) == -(2**31) + 5


def test_lean_model_assert_premise_reads_the_wide_kernel_under_its_mask():
    idx = load_index(0, "i64", weak(0), strong(1, "i1"))
    t = asserted_index(idx, size(0).lt(10), weak(0), size(1))  # 0 <= idx < ks1 where ks0 < 10
    mem = lambda v: dataclasses.replace(Lane.x(0, 0, 1, (3, 7)), mem=lambda p, a: v)  # noqa: E731
    assert assert_holds(mem(0), t) and assert_holds(mem(6), t)
    assert not assert_holds(mem(7), t) and not assert_holds(mem(-1), t)
    masked_off = dataclasses.replace(mem(99), sizes=(12, 7))  # ks0 = 12: the assert claims nothing
    assert assert_holds(masked_off, t)
    upper_only = asserted_index(idx, strong(1, "i1"), None, size(1))
    assert assert_holds(mem(-5), upper_only) and not assert_holds(mem(7), upper_only)


def test_lean_model_agree_is_not_vacuous():
    ks = size(0)
    lane = Lane.x(0, 0, 1024, (2**31 + 7,))
    assert not agree(lane, ks + 1)
    assert evaluate(WIDE, lane, ks + 1) != evaluate(NARROW, lane, ks + 1)
    xindex = program_id() * block() + arange()
    wrapped = Lane.x(2**21, 0, 1024, ())  # pid * XBLOCK = 2**31 wraps in i32 in *both* kernels: no condition
    assert agree(wrapped, xindex) and evaluate(WIDE, wrapped, xindex) == -(2**31)


def test_lean_model_2d_lane_reads_its_axes_and_blocks():
    """Each grid leaf reads its own axis or block; y = (pid1 + pid2 * nprog1) * YBLOCK + j as Inductor writes it."""
    lane = Lane.xy((3, 5, 7), (11, 13, 17), (19, 23), (32, 64), ())
    assert [evaluate(WIDE, lane, program_id(a)) for a in (0, 1, 2)] == [3, 5, 7]
    assert [evaluate(WIDE, lane, num_programs(a)) for a in (0, 1, 2)] == [11, 13, 17]
    assert [evaluate(WIDE, lane, arange(b)) for b in (0, 1)] == [19, 23]
    assert [evaluate(WIDE, lane, block(b)) for b in (0, 1)] == [32, 64]
    y = (program_id(1) + program_id(2) * num_programs(1)) * block(1) + arange(1)
    assert evaluate(NARROW, lane, y) == (5 + 7 * 13) * 64 + 23
    big = Lane.xy((0, 65534, 2**16), (1, 65535, 2**16 + 1), (0, 0), (32, 1024), ())
    # (pid1 + pid2 * nprog1) * YBLOCK wraps in int32 in *both* kernels: i32 throughout, no condition.
    assert agree(big, y) and evaluate(WIDE, big, y) == evaluate(NARROW, big, y)
    assert evaluate(WIDE, big, y) != (65534 + 2**16 * 65535) * 1024


def _shapes(inst):
    """Symbol values: all at their lower bounds, and each symbol pushed to the largest value the guards allow
    with the others at their bounds (the corners where int32 limits bite)."""
    names = inst.symbol_names()
    lows = {s.name: s.lower for s in inst.symbols}
    out = [dict(lows)]
    for n in names:
        lo, hi = lows[n], 2**40
        while lo < hi:  # largest value of n with every guard >= 0
            mid = (lo + hi + 1) // 2
            env = {**lows, n: mid}
            if all(g.subs({sympy.Symbol(k, integer=True): v for k, v in env.items()}) >= 0 for g in inst.guards):
                lo = mid
            else:
                hi = mid - 1
        out.append({**lows, n: lo})
        out.append({**lows, n: max(lows[n], lo // 3)})
    return out


def _sizes(inst, env):
    subs = {sympy.Symbol(k, integer=True): v for k, v in env.items()}
    vals = [0] * (1 + max(a.index for a in inst.size_args))
    for a in inst.size_args:
        vals[a.index] = int(a.expr.subs(subs))
    return tuple(vals)


def _lanes(inst, sizes, xblock=1024):
    numel = sizes[[a.index for a in inst.size_args if a.name == "xnumel"][0]]
    blocks = math.ceil(numel / xblock)
    widths = [s for a, s in zip(inst.size_args, sizes) if a.name != "xnumel"]
    idx = {0, 1, numel - 1, numel, blocks * xblock - 1}
    for w in widths:  # segment and row boundaries
        for base in (0, numel // 2, numel - w):
            idx |= {base + w - 1, base + w, base + w + 1}
    for x in sorted(i for i in idx if 0 <= i < blocks * xblock):
        yield Lane.x(x // xblock, x % xblock, xblock, sizes)


@pytest.mark.parametrize("make", [nested_cat_add, tile], ids=["nested_cat_add", "tile"])
def test_lean_model_instances_side_conditions_give_safe_lanes(make):
    """The trusted step of docs/lean.md ("side conditions => Safe on every lane"), tested on sampled lanes."""
    inst = make()
    checked = 0
    for env in _shapes(inst):
        subs = {sympy.Symbol(k, integer=True): v for k, v in env.items()}
        assert all(c.claim.subs(subs) >= 0 for c in inst.side_conditions), env
        sizes = _sizes(inst, env)
        for lane in _lanes(inst, sizes):
            assert safe(lane, inst), (env, lane)
            assert observe(WIDE, lane, inst) == observe(NARROW, lane, inst), (env, lane)
            checked += 1
    assert checked > 50


def test_lean_model_nested_cat_without_guard_disagrees():
    """Widths that each fit in int32 but whose sum ks0 does not: the premise fails and the kernels differ."""
    inst = nested_cat_add()
    env = {"s12": 2**30, "s48": 2**30, "s66": 1, "s85": 2}
    sizes = _sizes(inst, env)
    lane = Lane.x(0, 5, 1024, sizes[:4] + (2**31 - 1,))
    assert not safe(lane, inst)
    assert observe(WIDE, lane, inst) != observe(NARROW, lane, inst)


def test_lean_model_narrow_mode_narrows_only_size_args():
    from workbench.lean.derive import _ty
    from workbench.lean.hand_built import tile
    from workbench.lean.instance import size
    from workbench.lean.model import NARROW, narrow_mode, ty

    mode = narrow_mode(tile())  # Mode.narrow [0, 1]: ks0, ks1
    assert ty(mode, size(0, "i64")) == "i32" and ty(mode, size(1, "i64")) == "i32"
    assert ty(mode, size(5, "i64")) == "i64"  # a size leaf outside sizeArgs keeps its declared type
    assert ty(NARROW, size(5, "i64")) == "i32"
    assert _ty(size(5, "i64"), frozenset({0, 1})) == "i64" and _ty(size(0, "i64"), frozenset({0, 1})) == "i32"
    big = (size(5, "i64") * size(0, "i64")).lt(size(2, "i32"))
    assert ty(mode, big.args[0]) == "i64" and _ty(big.args[0], frozenset({0, 1})) == "i64"
