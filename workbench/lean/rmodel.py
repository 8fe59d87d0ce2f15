"""A Python mirror of ``lean/Narrowing/Reduction.lean`` (stage: prove; for testing, no Lean).

Each function transcribes one Lean definition: ``lane_at`` (``Lane.atR``), ``step_row`` (``Lane.step``),
``peval`` (``RPayload.eval``), ``pagree`` (``RPayload.Agree``), ``step`` / ``init_loop`` (``RKernel.step`` /
``RKernel.initLoop``), ``observe_at``, ``loop_trace``, ``loop_state``, ``observe`` (``RKernel.observe``),
``step_safe`` and ``safe`` (``RKernel.StepSafe``, ``RKernel.Safe``), ``asserts`` (a reduction instance's
device_assert premise ``hA`` at every step lane). Accumulators are a dict keyed by
``(r, carry)``; a missing key is Lean's ``RKernel.initial`` (``.const "undef"``). Tests use it to exercise
``RKernel.narrowing_exact_of_safe``'s statement on random reduction kernels and lanes: evidence of the
statement, not a substitute for Lean checking the proof.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from workbench.lean.errors import InstanceError
from workbench.lean.instance import Load, Payload, PayloadOp
from workbench.lean.model import NARROW, Lane, agree, evaluate, fits32
from workbench.lean.reduction import R_BLOCK, RKernelTerms

Row = Callable[[int], Lane]
UNDEF = ("const", "undef")


def lane_at(lane: Lane, r: int, off: int) -> Lane:
    """``Lane.atR``: r position ``r`` (pos 2) and ``r0_offset = off``."""
    pos = tuple(lane.position(b) for b in range(max(len(lane.pos), R_BLOCK + 1)))
    pos = pos[:R_BLOCK] + (r,) + pos[R_BLOCK + 1:]
    return dataclasses.replace(lane, pos=pos, roff=off)  # the memory (Lane.mem, Lane.undef) is the lane's


def step_row(lane: Lane, j: int) -> Row:
    """``Lane.step``: the row of step ``j`` (``r0_offset = j * R0_BLOCK``)."""
    return lambda r: lane_at(lane, r, j * lane.block(R_BLOCK))


def _load_value(mode, lane: Lane, loads: Sequence[Load], i: int | None):
    if i is None or not 0 <= i < len(loads):
        return ("const", "missing-load")
    ld = loads[i]
    if evaluate(mode, lane, ld.mask) != 0:
        return ("mem", ld.ptr, evaluate(mode, lane, ld.offset))
    return ("const", ld.other)


def peval(mode, loads: Sequence[Load], accs: dict, rs: Sequence[int], row: Row, p: Payload, r: int):
    """``RPayload.eval``."""
    match p.op:
        case PayloadOp.LOAD:
            return _load_value(mode, row(r), loads, p.index)
        case PayloadOp.INT:
            return ("int", evaluate(mode, row(r), p.cond))
        case PayloadOp.CONST:
            return ("const", p.name)
        case PayloadOp.ACC:
            return accs.get((r, p.index), UNDEF)
        case PayloadOp.REDUCE:
            v = ("const", p.name)
            for r2 in rs:  # List.foldl (Val.bin f) (.const f)
                v = ("bin", p.name, v, peval(mode, loads, accs, rs, row, p.args[0], r2))
            return v
        case PayloadOp.SCAN:
            v = ("const", p.name)
            for r2 in (x for x in rs if x <= r):  # (rs.filter (· ≤ r)).map … |>.foldl (Val.bin f) (.const f)
                v = ("bin", p.name, v, peval(mode, loads, accs, rs, row, p.args[0], r2))
            return v
        case PayloadOp.UN:
            return ("un", p.name, peval(mode, loads, accs, rs, row, p.args[0], r))
        case PayloadOp.BIN:
            return ("bin", p.name, peval(mode, loads, accs, rs, row, p.args[0], r),
                    peval(mode, loads, accs, rs, row, p.args[1], r))
        case PayloadOp.WHERE:
            pick = p.args[0] if evaluate(mode, row(r), p.cond) != 0 else p.args[1]
            return peval(mode, loads, accs, rs, row, pick, r)
    raise InstanceError(f"no payload rule for {p.op}")  # pragma: no cover - every op is matched


def load_agree(mode, ld: Load, lane: Lane) -> bool:
    """``Load.Agree``: the mask everywhere, the offset where the mask is set."""
    return agree(lane, ld.mask, mode=mode) and (evaluate(mode, lane, ld.mask) == 0 or agree(lane, ld.offset, mode=mode))


def pagree(mode, loads: Sequence[Load], rs: Sequence[int], row: Row, p: Payload, r: int) -> bool:
    """``RPayload.Agree`` (``mode`` is the narrowing ``(NARROW, sizeArgs)``)."""
    match p.op:
        case PayloadOp.LOAD:
            return p.index is None or not 0 <= p.index < len(loads) or load_agree(mode, loads[p.index], row(r))
        case PayloadOp.INT:
            return agree(row(r), p.cond, mode=mode)
        case PayloadOp.CONST | PayloadOp.ACC:
            return True
        case PayloadOp.REDUCE | PayloadOp.SCAN:
            return all(pagree(mode, loads, rs, row, p.args[0], r2) for r2 in rs)
        case PayloadOp.UN | PayloadOp.BIN:
            return all(pagree(mode, loads, rs, row, a, r) for a in p.args)
        case PayloadOp.WHERE:
            if not agree(row(r), p.cond, mode=mode):
                return False
            pick = p.args[0] if evaluate(mode, row(r), p.cond) != 0 else p.args[1]
            return pagree(mode, loads, rs, row, pick, r)
    raise InstanceError(f"no payload rule for {p.op}")  # pragma: no cover - every op is matched


def _update(k: RKernelTerms, mode, rs, row: Row, loop: int, accs: dict, field: str) -> dict:
    """``RKernel.initLoop`` (``field = "init"``) and ``RKernel.step`` (``"update"``): every value from ``accs``."""
    out = dict(accs)
    loads = [ld.load for ld in k.loads]
    for i, c in enumerate(k.carries):
        if c.loop == loop:
            for r in rs:
                out[(r, i)] = peval(mode, loads, accs, rs, row, getattr(c, field), r)
    return out


def init_loop(k: RKernelTerms, mode, rs, lane: Lane, loop: int, accs: dict) -> dict:
    return _update(k, mode, rs, step_row(lane, 0), loop, accs, "init")


def step(k: RKernelTerms, mode, rs, lane: Lane, loop: int, accs: dict, j: int) -> dict:
    return _update(k, mode, rs, step_row(lane, j), loop, accs, "update")


def observe_at(k: RKernelTerms, mode, rs, loop: int, accs: dict, row: Row, r: int) -> tuple:
    """``RKernel.observeAt``: the loop's loads (address or None) and stores (address and value or None)."""
    lane = row(r)
    loads = tuple((ld.load.ptr, evaluate(mode, lane, ld.load.offset)) if evaluate(mode, lane, ld.load.mask) != 0 else None
                  for ld in k.loads if ld.loop == loop)
    all_loads = [ld.load for ld in k.loads]
    stores = tuple((st.store.ptr, evaluate(mode, lane, st.store.offset), peval(mode, all_loads, accs, rs, row, st.store.value, r))
                   if evaluate(mode, lane, st.store.mask) != 0 else None for st in k.stores if st.loop == loop)
    return loads, stores


def loop_trace(k: RKernelTerms, mode, rs, lane: Lane, loop: int, accs: dict, js: Sequence[int]) -> list:
    """``RKernel.loopTrace`` (the fold's trace): per step, every r position's observation, then the update."""
    out = []
    for j in js:
        out.append(tuple(observe_at(k, mode, rs, loop, accs, step_row(lane, j), r) for r in rs))
        accs = step(k, mode, rs, lane, loop, accs, j)
    return out


def loop_state(k: RKernelTerms, mode, rs, lane: Lane, loop: int, accs: dict, js: Sequence[int]) -> dict:
    for j in js:
        accs = step(k, mode, rs, lane, loop, accs, j)
    return accs


def observe(k: RKernelTerms, mode, lane: Lane, rs: Sequence[int], js: Sequence[int]) -> tuple:
    """``RKernel.observe``: per loop the trace, then the accesses outside every loop with the final values."""
    accs: dict = {}
    loops = []
    for loop in range(1, k.loops + 1):
        start = init_loop(k, mode, rs, lane, loop, accs)
        loops.append(loop_trace(k, mode, rs, lane, loop, start, js))
        accs = loop_state(k, mode, rs, lane, loop, start, js)
    after = tuple(observe_at(k, mode, rs, 0, accs, step_row(lane, 0), r) for r in rs)
    return loops, after


def step_safe(k: RKernelTerms, narrowed: frozenset[int], rs, loop: int, row: Row) -> bool:
    """``RKernel.StepSafe``."""
    mode = (NARROW, narrowed)
    loads = [ld.load for ld in k.loads]
    for r in rs:
        lane = row(r)
        if not all(load_agree(mode, ld.load, lane) for ld in k.loads if ld.loop == loop):
            return False
        for st in (s.store for s in k.stores if s.loop == loop):
            if not agree(lane, st.mask, mode=mode):
                return False
            if evaluate(mode, lane, st.mask) != 0 and not (
                    agree(lane, st.offset, mode=mode) and pagree(mode, loads, rs, row, st.value, r)):
                return False
        if not all(pagree(mode, loads, rs, row, c.update, r) for c in k.carries if c.loop == loop):
            return False
    return True


def asserts(k: RKernelTerms, lane: Lane, rs, js) -> bool:
    """The reduction instance's premise ``hA``: every assume node's ``AssertHolds`` at every step lane
    ``L.step j r`` with ``j ∈ js ∨ j = 0`` and ``r ∈ rs`` (an assumption about the inputs)."""
    from workbench.lean.instance import assumes_in
    from workbench.lean.model import assert_holds
    from workbench.lean.render import reduction_roots as roots

    nodes = assumes_in(roots(k))
    return all(assert_holds(step_row(lane, j)(r), t) for t in nodes for j in {*js, 0} for r in rs)


def safe(k: RKernelTerms, narrowed: frozenset[int], lane: Lane, rs, js) -> bool:
    """``RKernel.Safe``."""
    mode = (NARROW, narrowed)
    loads = [ld.load for ld in k.loads]
    if not all(fits32(lane.size(i)) for i in narrowed):
        return False
    if not all(step_safe(k, narrowed, rs, loop, step_row(lane, j)) for loop in range(1, k.loops + 1) for j in js):
        return False
    if not all(pagree(mode, loads, rs, step_row(lane, 0), c.init, r) for r in rs for c in k.carries):
        return False
    return step_safe(k, narrowed, rs, 0, step_row(lane, 0))


__all__ = ["asserts", "init_loop", "lane_at", "loop_state", "loop_trace", "observe", "observe_at", "pagree", "peval",
           "safe", "step", "step_row", "step_safe"]
