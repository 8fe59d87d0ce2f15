"""Lane comparisons of the small-width model (:mod:`workbench.check.exhaustive`): one launch of a reduction
or pointwise kernel, wide against narrowed, on every program, lane, step and admissible index value.

Stage: check (the soundness suite's oracle; nothing here is trusted). A launch function returns ``None`` or
``(lane, what differs)`` and counts what it evaluated on ``run`` (a :class:`~workbench.check.exhaustive.WidthRun`:
``lanes``, ``index_values``, ``rejected``). Compared on every access: the mask, and the offset and stored value
term where the mask holds; on every row (x lane) in range, or read by an active access that reads an
accumulator or a reduction: each carry's init and update and each reduction's operands, on every r lane and
step (a reduction combines every r lane of its row, and an accumulator's value is its init followed by one
update per step: equal inits and equal update terms at every step give equal values, by induction).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from workbench import kir
from workbench.check.checker import Widths
from workbench.kir import Op


@dataclass
class WidthRun:
    """The model at one width: what was enumerated and what ran (filled by the comparisons here; lives here,
    below :mod:`workbench.check.exhaustive` and :mod:`workbench.check.soundness`, which both use it)."""

    bits: int
    shapes: int = 0  # shapes satisfying the scaled guards
    launches: int = 0  # distinct launches (argument values) x block configurations
    launches_run: int = 0
    lanes: int = 0  # lane-steps (reductions: an (x, r) lane at one step) evaluated in both widths
    index_values: int = 0  # (lane, admissible index value) pairs among them
    rejected: int = 0  # candidate index values outside the premise (evaluated in W, skipped)

    @property
    def complete(self) -> bool:
        return self.launches_run == self.launches


def reads_carried(k: kir.Kernel) -> tuple[bool, ...]:
    """Per access (loads then stores): whether it reads an accumulator or a reduction."""
    return tuple(any(n.op in (Op.ACC, Op.REDUCE) for n in kir.walk(a)) for a in (*k.loads, *k.stores))


def _accesses_differ(rw, rn) -> str | None:
    for a, b in zip(rw.loads + rw.stores, rn.loads + rn.stores):
        if a.mask != b.mask or (a.mask and (a.offset != b.offset or a.value != b.value)):
            return f"{a} vs {b}"
    if len(rw.loads) != len(rn.loads) or len(rw.stores) != len(rn.stores):
        return f"access count {len(rw.loads)}+{len(rw.stores)} vs {len(rn.loads)}+{len(rn.stores)}"
    return None


@dataclass(frozen=True)
class Sides:
    """The two kernels compared: ``kernel`` in mode ``wide`` against ``other`` (default: ``kernel``) in mode
    ``narrow``; :class:`Widths` is the usual pair (W against N), the partial mode compares W with P."""

    wide: kir.Mode
    narrow: kir.Mode
    other: kir.Kernel | None = None


def _both(k, ln, lane, w: Widths | Sides, table: dict | None = None, premises: bool = False):
    """(W, N, difference): both evaluations at ``lane``; undefined behaviour in either is a difference.
    ``table`` gives the index tensors' contents (pointer name -> value, constant per tensor) and the values
    of premises computed from float data (ordinal -> value). With ``premises``, a lane where W shows a
    device_assert premise false gives ``(W, None, None)`` (not compared: outside what the certificate
    assumes)."""
    data = None if table is None else (lambda p, o: table.get(p, 0))
    assumed = None if table is None else {i: v for i, v in table.items() if isinstance(i, int)} or None
    try:
        rw = kir.evaluate(k, ln, lane, w.wide, data=data, assumed=assumed)
    except kir.EvaluationError as exc:
        return None, None, f"wide kernel undefined: {exc}"
    if premises and any(p[0] is False for p in rw.premises):
        return rw, None, None
    try:
        rn = kir.evaluate(getattr(w, "other", None) or k, ln, lane, w.narrow, data=data, assumed=assumed)
    except kir.EvaluationError as exc:
        return rw, None, f"narrowed kernel undefined: {exc}"
    return rw, rn, None


def reduction_launch(run, k, w: Widths | Sides, ln, reads):
    red = k.reduction
    # a kernel with no x dependence (xnumel = 1 written in the body) launches without an XBLOCK: one x lane
    xb, rb = dict(ln.blocks).get("XBLOCK", 1), ln.block(red.block)
    numel = ln.arg(red.numel) if red.numel is not None else red.static_numel
    steps = [0] if red.persistent else loop_steps(numel, rb, w.wide.int32)
    xnumel = ln.arg("xnumel")
    indexed = index_pointers(k)
    for px, i in itertools.product(range(ln.grid[0]), range(xb)):
        lanes = [kir.Lane((px, 0, 0), (("XBLOCK", i), (red.block, r)), ln.grid, step=step)
                 for step, r in itertools.product(steps, range(rb))]
        for table in _row_tables(k, ln, lanes, w, indexed):
            got = _reduction_row(run, k, w, ln, reads, lanes, table, px * xb + i < xnumel)
            if got is not None:
                return got
    return None


def _reduction_row(run, k, w, ln, reads, lanes, table, row_active):
    """One row (x lane) with one index table: every (r lane, step); the row's carries and reductions."""
    row_read = False  # a tail row: does an active access read an accumulator or a reduction?
    row_diff = None
    for lane in lanes:
        rw, rn, diff = _both(k, ln, lane, w, table, premises=table is not None)
        if rw is not None and rn is None and diff is None:
            run.rejected += 1  # this index value is outside the premise at this lane
            continue
        run.lanes += 1
        run.index_values += bool(table)
        if diff is None:
            diff = _accesses_differ(rw, rn)
        if diff is not None:
            return lane, diff if table is None else f"at index values {table}: {diff}"
        row_read = row_read or any(a.mask and f for a, f in zip(rw.loads + rw.stores, reads))
        if row_diff is None and (rw.carries, rw.inits, rw.reductions) != (rn.carries, rn.inits, rn.reductions):
            row_diff = (lane, f"accumulator or reduction operands differ: {rw.carries} {rw.inits} "
                              f"{rw.reductions} vs {rn.carries} {rn.inits} {rn.reductions}")
    if row_diff is not None and (row_active or row_read):
        return row_diff
    return None


def _row_tables(k, ln, lanes, w, indexed) -> list[dict[str, int] | None]:
    """The index tables to try on a row: ``[None]`` without index tensors, else the candidates (see
    :func:`_candidates`) at the first lane of the row that loads an index (``[{}]`` if none does)."""
    if not indexed:
        return [None]
    for lane in lanes:
        try:
            probe = kir.evaluate(k, ln, lane, w.wide, data=lambda p, o: 0)
        except kir.EvaluationError:
            probe = None
        if probe is None or any(a.mask and a.pointer in indexed for a in probe.loads) or any(
                p[3] for p in probe.premises):
            shifts = _uniform_addends(k, ln)
            per_pointer = [_candidates(probe, w, t, direct, shifts) for t, direct in indexed.values()]
            return [dict(zip(indexed, values)) for values in itertools.product(*per_pointer)]
    return [{}]


def _uniform_addends(k, ln) -> set[int]:
    """The values of the lane-uniform integer terms inside the premises' values (``ks1`` in Inductor's
    wrap ``tl.where(tmp0 < 0, tmp0 + ks1, tmp0)``): the premise's range shifted by one of them is where a
    wrapped index comes from."""
    from workbench.kir.crosscheck import _uniform_value

    args = dict(ln.args)
    out = set()
    for n in kir.walk(*k.loads, *k.stores):
        if n.op is Op.ASSUME:
            for x in kir.walk(n.args[0]):
                if x.op in (Op.ARG, Op.ADD, Op.SUB, Op.MUL, Op.CAST) or (x.op is Op.CONST and not x.payload):
                    v = _uniform_value(x, args)
                    if v is not None:
                        out.add(abs(v))
    return out


def loop_steps(numel: int, block: int, bits: int) -> list[int]:
    """The values ``r0_offset`` takes in ``for r0_offset in tl.range(0, r0_numel, R0_BLOCK)`` as Triton
    compiles it: ``scf.for`` lowered to an ``i32`` phi, ``add i32 %iv, R0_BLOCK`` (no ``nsw``: it wraps) and
    ``icmp slt %iv, r0_numel`` (the LLVM IR of such a loop, triton 3.7.1), in the model's int32 of ``bits``
    bits. A loop whose offset wraps runs forever; one full cycle of offsets is returned."""
    t = kir.IntType(bits)
    out, off = [], 0
    while off < numel and len(out) <= 2**bits // block + 1:
        out.append(off)
        off = t.wrap(off + block)
    return out


def pointwise_launch(run, k, w: Widths, ln, reads):
    gx, gy, gz = ln.grid
    ys = [(0, 0)] if k.grid == "1d" else [(py, pz) for pz in range(max(gz, 1)) for py in range(max(gy, 1))]
    blocks = [b for b, _ in k.blocks]
    indexed = index_pointers(k)
    for px, (py, pz) in itertools.product(range(gx), ys):
        for pos in itertools.product(*(range(ln.block(b)) for b in blocks)):
            lane = kir.Lane((px, py, pz), tuple(zip(blocks, pos)), (gx, max(gy, 1), max(gz, 1)))
            if not indexed:
                run.lanes += 1
                rw, rn, diff = _both(k, ln, lane, w)
                if diff is None:
                    diff = _accesses_differ(rw, rn)
                if diff is not None:
                    return lane, diff
                continue
            got = _indexed_lane(run, k, w, ln, lane, indexed)
            if got is not None:
                return got
    return None


def index_pointers(k: kir.Kernel) -> dict[str | int, tuple[kir.IntType, bool]]:
    """What the model enumerates for device_assert premises: the integer pointers whose loads feed one
    (name -> the loaded type, and whether every premise on them bounds the loaded value itself, with both
    bounds), and the premises whose value has no integer load below it (a reduction's float result cast to an
    index: ordinal of the ASSUME node in the evaluator's order -> its type; the value itself is enumerated,
    ``kir.evaluate(assumed=...)``)."""
    out: dict[str | int, tuple[kir.IntType, bool]] = {}
    assumes = [n for n in kir.walk(*k.roots()) if n.op is Op.ASSUME]
    for i, n in enumerate(assumes):
        direct = n.args[0].op is Op.LOAD and n.attr == (True, True)
        loads = [ld for ld in kir.walk(n.args[0]) if ld.op is Op.LOAD and isinstance(ld.type, kir.IntType)]
        for ld in loads:
            prev = out.get(ld.attr, (ld.type, True))
            out[ld.attr] = (ld.type, prev[1] and direct)
        if not loads:
            out[i] = (n.type, n.attr == (True, True))
    return dict(sorted(out.items(), key=lambda kv: (isinstance(kv[0], int), str(kv[0]))))


def _indexed_lane(run, k, w: Widths, ln, lane, indexed):
    """Every admissible index value at one lane (module docstring): W decides admissibility."""
    for table in _row_tables(k, ln, [lane], w, indexed):
        rw, rn, diff = _both(k, ln, lane, w, table, premises=True)
        if rw is not None and rn is None and diff is None:
            run.rejected += 1
            continue
        run.lanes += 1
        run.index_values += bool(table)
        diff = diff or _accesses_differ(rw, rn)
        if diff is not None:
            return lane, f"at index values {table}: {diff}"
    return None


def _candidates(probe, w, t: kir.IntType, direct: bool, shifts: set[int]) -> list[int]:
    """The values of an index tensor tried at a lane (W then decides which the premise admits):

    * always the loaded type's four extreme values;
    * where no premise's mask holds (the premise claims nothing there): every value of the model's int32
      and ``[-H-2, H+2]``, ``H`` the largest bound;
    * an index asserted as loaded (``lo <= v < hi``): ``[lo - 1, hi]``;
    * otherwise (a ``tl.where``-wrapped index): ``[-H-2, H+2]`` and that window shifted by each uniform term
      of the premise's value (``[lo - u - 1, hi - u]``, ``[lo + u - 1, hi + u]``)."""
    t = w.wide.map_type(t)
    prem = probe.premises if probe else ()
    bounds = [p[1:3] for p in prem]
    out = {t.min, t.min + 1, t.max - 1, t.max}
    h = max([abs(x) for b in bounds for x in b if isinstance(x, int)] or [2])
    if not any(p[3] for p in prem):
        i32 = kir.IntType(w.wide.int32)
        out |= set(range(i32.min, i32.max + 1)) | set(range(-h - 2, h + 3))
    elif direct and bounds and all(isinstance(x, int) for b in bounds for x in b):
        lo, hi = min(b[0] for b in bounds), max(b[1] for b in bounds)  # a superset for several premises
        out |= set(range(lo - 1, hi + 1))
    else:
        out |= set(range(-h - 2, h + 3))
        lo = min([b[0] for b in bounds if isinstance(b[0], int)] or [-h])
        hi = max([b[1] for b in bounds if isinstance(b[1], int)] or [h])
        for u in shifts:
            out |= set(range(lo - u - 1, hi - u + 1)) | set(range(lo + u - 1, hi + u + 1))
    return sorted({t.wrap(v) for v in out})


__all__ = ["Sides", "index_pointers", "loop_steps", "pointwise_launch", "reads_carried", "reduction_launch"]
