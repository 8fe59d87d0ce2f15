"""Small-width models for the soundness suite: the same kernel and facts with int32 scaled down to a few
bits, every shape in range enumerated, every lane of the launch grid evaluated in both widths.

Stage: check. ``small_record(k, bits)`` rewrites the guards' and bounds' ``2**31-1`` into ``2**(bits-1)-1``;
the checker then runs with ``Widths(bits, 2*bits)`` (narrowed = ``bits``-bit size arguments, wide =
``2*bits``-bit int64), and :func:`agreement` evaluates both with ``kir.evaluate`` on every lane (tail lanes
included, blocks of 4) of every enumerated shape. A certified kernel must agree everywhere: on each load and
store the mask, the offset where the mask holds, and the stored value term. With ``partial=True`` the second
kernel is P (``workbench.rule.partial.partial_kernel``: the int64 ``//``/``%`` sites in ``bits``-bit
"int32") evaluated at the wide widths, the partial mode's question.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from workbench import kir
from workbench.capture.record import CapturedKernel
from workbench.check.checker import Widths

BIG = "2147483647"


def small_record(k: CapturedKernel, bits: int) -> CapturedKernel:
    """The record at ``bits``-bit "int32": the guards' and bounds' ``2**31-1`` become ``2**(bits-1)-1``, and so
    does the literal ``2147483647`` in the kernel's text (Inductor's int32 index sentinel,
    ``tl.full([XBLOCK, R0_BLOCK], 2147483647, tl.int32)`` for argmax: int32's largest value, so the model's
    int32's largest value)."""
    import re

    from workbench.capture.record import jit_function_text, source_hash

    cap = str(2 ** (bits - 1) - 1)
    body = jit_function_text(k.source, k.name)
    scaled = re.sub(rf"(?<![\w.]){BIG}(?![\w.])", cap, body)
    source = k.source if scaled == body else k.source.replace(body, scaled)
    return replace(
        k,
        source=source,
        source_hash=k.source_hash if scaled == body else source_hash(source, k.name),
        guards=tuple(g.replace(BIG, cap) for g in k.guards),
        symbols=tuple(replace(s, upper=None if s.upper is None else min(s.upper, int(cap))) for s in k.symbols),
    )


def _fn(expr: str, names: list[str]):
    import math

    import sympy

    from workbench.symexpr import parse_any

    e = parse_any(expr, where="small-model fact")
    syms = [sympy.Symbol(n) for n in names]
    mods = [{"floor": math.floor, "Max": max, "Min": min, "Mod": lambda a, b: a % b}, "math"]
    return sympy.lambdify(syms, e, modules=mods)


def _with_foreign_zero(g: str, names: list[str]):
    """A guard as a function of this kernel's symbols; symbols of other kernels of the graph (no bound is
    known for them, so the checker's premises let them be 0) are set to 0."""
    import re

    foreign = sorted(set(re.findall(r"\b(?:s|u|ps)\d+\b", g)) - set(names))
    f = _fn(g, names + foreign)
    return (lambda *v: f(*v, *([0] * len(foreign)))) if foreign else f


def shapes(k: CapturedKernel, bits: int, limit: int = 40) -> tuple[list[dict[str, int]], int]:
    """Every shape (symbol values >= lower bounds) satisfying all guards of the small record, and how many
    there are; more than ``limit`` are subsampled evenly (deterministic)."""
    cap = 2 ** (bits - 1) - 1
    names = [s.name for s in k.symbols]
    lows = [max(s.lower or 0, 0) for s in k.symbols]
    numels = [_fn(n.expr, names) for n in k.numels]
    guards = []
    for g in k.guards:
        try:
            guards.append(_with_foreign_zero(g, names))
        except Exception:  # noqa: BLE001 - a guard lambdify cannot express is evaluated with sympy below
            guards.append(None)
    found: list[dict[str, int]] = []

    def ok_partial(vals):
        full = list(vals) + lows[len(vals):]
        return all(int(f(*full)) <= cap for f in numels)

    def rec(vals):
        if len(vals) == len(names):
            full = dict(zip(names, vals))
            for g, text in zip(guards, k.guards):
                try:
                    good = bool(g(*vals)) if g is not None else True
                except (ZeroDivisionError, TypeError, ValueError):
                    good = False
                if not good:
                    return
            found.append(full)
            return
        v = lows[len(vals)]
        while v <= cap and ok_partial(vals + [v]):
            rec(vals + [v])
            v += 1

    rec([])
    total = len(found)
    if total > limit:
        step = total / limit
        found = [found[int(i * step)] for i in range(limit)]
    return found, total


def agreement(record: CapturedKernel, widths: Widths, shape_list, block: int = 4, partial: bool = False):
    """Evaluate both widths (or W and P) on every lane of every shape; return (lanes checked, first
    difference or None)."""
    k = kir.parse(record)
    if partial:
        from workbench.rule.partial import partial_kernel

        other, other_mode = partial_kernel(k), widths.wide
    else:
        other, other_mode = k, widths.narrow
    blocks = {b: block for b, _ in k.blocks}
    if k.reduction is not None:
        # a one-row (x-uniform) kernel reads no x arange, but its launch still has XBLOCK lanes
        blocks.setdefault("XBLOCK", block)
        return _reduction_agreement(k, other, other_mode, widths, shape_list, blocks)
    lanes = 0
    for sizes in shape_list:
        try:
            ln = kir.launch(k, sizes, blocks)
        except kir.EvaluationError:
            continue
        for data in _index_contents(k, ln):
            lanes, diff = _agree_at(k, other, other_mode, widths, ln, sizes, block, data, lanes)
            if diff is not None:
                return lanes, diff
    return lanes, None


def _index_contents(k, ln):
    """The index tensors' contents to try at a launch: none for kernels without device_assert premises;
    otherwise every value the premises allow (``kir.crosscheck.index_data``: ``[0, hi)``, or ``[-hi, hi)``
    for a ``tl.where``-wrapped index), each as a constant tensor. An address depends on one index element
    per load, so per lane this covers every admissible value (not every pair across two index tensors)."""
    from workbench.kir.crosscheck import index_data

    spec = index_data(k, ln)
    if not spec:
        return [None]
    values = sorted({v for lo, span in spec.values() for v in range(lo, lo + span)})
    return [lambda p, o, v=v: v for v in values]


def _agree_at(k, other, other_mode, widths, ln, sizes, block, data, lanes):
    """Both kernels on every lane of one launch with one index content: (lanes so far, first difference)."""
    gx, gy, gz = ln.grid
    ys = [(0, 0)] if k.grid == "1d" else [(py, pz) for pz in range(max(gz, 1)) for py in range(max(gy, 1))]
    for px, (py, pz) in itertools.product(range(gx), ys):
        positions = [(("XBLOCK", i),) for i in range(block)] if k.grid == "1d" else [
            (("XBLOCK", i), ("YBLOCK", j)) for i in range(block) for j in range(block)]
        for pos in positions:
            lane = kir.Lane((px, py, pz), pos, (gx, max(gy, 1), max(gz, 1)))
            lanes += 1
            try:
                rw = kir.evaluate(k, ln, lane, widths.wide, data=data)
            except kir.EvaluationError as exc:
                return lanes, (sizes, lane, f"wide kernel undefined: {exc}")
            try:
                rn = kir.evaluate(other, ln, lane, other_mode, data=data)
            except kir.EvaluationError as exc:
                return lanes, (sizes, lane, f"narrowed kernel undefined: {exc}")
            for a, b in zip(rw.loads + rw.stores, rn.loads + rn.stores):
                if a.mask != b.mask or (a.mask and (a.offset != b.offset or a.value != b.value)):
                    return lanes, (sizes, lane, f"{a} vs {b}")
    return lanes, None


def _reduction_agreement(k, other, other_mode, widths: Widths, shape_list, blocks: dict[str, int]):
    """Reduction kernels: every (x, r) lane of every program at every step of the loop (1-D grids), compared
    as :mod:`workbench.check.exhaustive` compares them (accesses; accumulators' inits and updates and
    reductions' operands on every row that is in range or read by an active access)."""
    from workbench.check.lanecompare import Sides, WidthRun, reads_carried, reduction_launch

    if k.grid != "1d":
        raise NotImplementedError("small model of 2-D reduction grids")
    run = WidthRun(widths.int32)
    reads = reads_carried(k)
    pair = Sides(widths.wide, other_mode, other)
    for sizes in shape_list:
        try:
            ln = kir.launch(k, sizes, blocks)
        except kir.EvaluationError:
            continue
        diff = reduction_launch(run, k, pair, ln, reads)
        if diff is not None:
            return run.lanes, (sizes, *diff)
    return run.lanes, None

