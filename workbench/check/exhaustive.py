"""Exhaustive small-width model runs of reduction and indirect-indexing kernels: the checker in a few-bit
"int32", and every admissible shape, program, (x, r) lane, step and loaded index value evaluated in both
widths.

Stage: check (the soundness suite's oracle; nothing here is trusted, nothing certifies). :func:`model_run`
takes a captured record and the modes the checker certifies at 32 bits, and

* picks the smallest width ``bits`` in :data:`BITS` (from 6) at which the record's literals fit, some shape
  satisfies the scaled guards (:func:`~workbench.check.soundness.small_record`: ``2**31-1`` becomes
  ``2**(bits-1)-1``) and the checker certifies the same modes with ``Widths(bits, 2*bits)``;
* enumerates every shape satisfying the scaled guards (:func:`admissible_shapes`, exact: guards whose
  left side is monotone in the symbols only prune the enumeration) and keeps one shape per distinct launch
  (the kernel sees its arguments, not the shape symbols);
* runs each launch with ``XBLOCK = 4`` (tail lanes included) and, for reductions, every ``R0_BLOCK`` in
  ``{1, 2, 4, 8}`` the small checker admits (``<= r_block_max``), the persistent launch's
  ``next_pow2(r0_numel)`` when admitted, or the block the body fixes;
* evaluates ``kir.evaluate`` wide and narrowed on every program, every lane of the block, at every step of
  the loop, and for kernels with ``tl.device_assert`` premises on every loaded index value the premise
  admits at that lane (candidates: the index type's four extreme values, and ``[lo - 1, hi]`` for an index
  asserted as loaded, ``[-H-2, H+2]`` otherwise (a ``tl.where``-wrapped index), ``H`` the largest asserted
  bound there; a candidate outside the premise, evaluated in W, is counted and skipped; a lane that
  performs no load of an index tensor is evaluated once);
* compares on every access the mask, and the offset and stored value term where the mask holds; on every
  x lane in range (and on a tail x lane where an access that reads an accumulator or a reduction is
  active) each accumulator's init and update and each reduction's operands, on every r lane and step.

Launches are taken in van der Corput order (spread over the list) until ``budget`` evaluations are spent;
the :class:`ModelRun` says how many of how many ran. Limits: 1-D grids only for reductions; index tensors
are constant per pointer at a lane (an address reads one index element per load; two loads of one index
tensor at different offsets see the same value).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workbench import kir
from workbench.capture.record import CapturedKernel
from workbench.check.checker import Widths
from workbench.check.lanecompare import WidthRun, pointwise_launch, reads_carried, reduction_launch
from workbench.check.soundness import small_record
from workbench.check.trusted.reduction import r_block_limit
from workbench.errors import UnsupportedError

BITS = tuple(range(6, 25))
XBLOCK = 4
R_BLOCKS = (1, 2, 4, 8)
MODES = ("strict", "observable")


class TooManyShapes(UnsupportedError):
    """More admissible shapes at a width than the enumeration's limit."""


@dataclass
class ModelRun:
    """One kernel's model runs (one per width, smallest first) and the first difference found."""

    program: str
    kernel: str
    modes: tuple[str, ...] = ()  # the modes certified at 32 bits, all certified at each width run
    narrows: bool = True  # the kernel has a size argument to narrow (else W = N by construction)
    widths: list[WidthRun] = field(default_factory=list)
    difference: tuple | None = None
    why_not: str = ""  # why no width ran

    @property
    def lanes(self) -> int:
        return sum(x.lanes for x in self.widths)

    @property
    def shapes(self) -> int:
        return sum(x.shapes for x in self.widths)

    @property
    def index_values(self) -> int:
        return sum(x.index_values for x in self.widths)

    @property
    def complete(self) -> bool:
        return bool(self.widths) and all(x.complete for x in self.widths)

    def summary(self) -> str:
        parts = [f"{x.bits} bits: {x.shapes} shapes, {x.launches_run}/{x.launches} launches, {x.lanes} lanes"
                 + (f" ({x.index_values} index values, {x.rejected} outside the premise)" if x.index_values else "")
                 for x in self.widths]
        return "; ".join(parts) or f"no width ran ({self.why_not})"


# -- shapes ----------------------------------------------------------------------------------------------------


def _monotone(e) -> bool:
    """Whether sympy ``e`` is non-decreasing in every symbol over non-negative integers (built from
    non-negative constants, symbols, ``+``, ``*``, powers by positive integers, floor/ceiling, Max, Min)."""
    import sympy

    if e.is_Symbol:
        return True
    if e.is_Number:
        return bool(e >= 0)
    if isinstance(e, (sympy.Add, sympy.Mul, sympy.Max, sympy.Min, sympy.floor, sympy.ceiling)):
        return all(_monotone(a) for a in e.args)
    if isinstance(e, sympy.Pow):
        return e.exp.is_Integer and e.exp > 0 and _monotone(e.base)
    return False


def admissible_shapes(k: CapturedKernel, bits: int, limit: int = 200_000) -> list[dict[str, int]]:
    """Every shape (symbol values >= their lower bounds, <= the scaled cap) of the *small* record ``k``
    that satisfies all of its guards (symbols of other kernels at 0, as the checker's premises allow), in
    lexicographic order. A guard ``lhs <= c`` / ``lhs < c`` with ``lhs`` monotone prunes: once it fails with
    the remaining symbols at their lower bounds, no larger value of the current symbol satisfies it. More
    than ``limit`` shapes is an error (the caller picks a smaller width)."""
    import math
    import re

    import sympy

    from workbench.symexpr import parse_any

    cap = 2 ** (bits - 1) - 1
    names = [s.name for s in k.symbols]
    lows = [max(s.lower or 0, 0) for s in k.symbols]
    highs = [cap if s.upper is None else min(s.upper, cap) for s in k.symbols]
    foreign = sorted({f for g in k.guards for f in re.findall(r"\b(?:s|u|ps)\d+\b", g)} - set(names))
    syms = [sympy.Symbol(n) for n in names + foreign]
    mods = [{"floor": math.floor, "ceiling": math.ceil, "Max": max, "Min": min, "Mod": lambda a, b: a % b}, "math"]
    full, prune = [], []
    for g in k.guards:
        e = parse_any(g, where="small-model guard")
        full.append(sympy.lambdify(syms, e, modules=mods))
        if isinstance(e, (sympy.LessThan, sympy.StrictLessThan, sympy.GreaterThan, sympy.StrictGreaterThan)):
            lhs, rhs = (e.lhs, e.rhs) if isinstance(e, (sympy.LessThan, sympy.StrictLessThan)) else (e.rhs, e.lhs)
            if rhs.is_Number and _monotone(lhs):
                strict = isinstance(e, (sympy.StrictLessThan, sympy.StrictGreaterThan))
                prune.append((sympy.lambdify(syms, lhs, modules=mods), rhs, strict))
    for n in k.numels:  # every element count fits the scaled int32 (Inductor's numel guards, always present)
        e = parse_any(n.expr, where="small-model numel")
        if _monotone(e):
            prune.append((sympy.lambdify(syms, e, modules=mods), sympy.Integer(cap), False))
    zeros = [0] * len(foreign)
    found: list[dict[str, int]] = []

    def holds(vals) -> bool:
        for f in full:
            try:
                if not bool(f(*vals, *zeros)):
                    return False
            except (ZeroDivisionError, TypeError, ValueError):
                return False
        return True

    def pruned(vals) -> bool:
        rest = vals + lows[len(vals):]
        for f, c, strict in prune:
            try:
                v = f(*rest, *zeros)
            except (ZeroDivisionError, TypeError, ValueError):
                continue
            if v > c or (strict and v >= c):
                return True
        return False

    def rec(vals: list[int]) -> None:
        i = len(vals)
        if i == len(names):
            if holds(vals):
                found.append(dict(zip(names, vals)))
                if len(found) > limit:
                    raise TooManyShapes(f"{k.name}: more than {limit} shapes at {bits} bits; use a smaller width")
            return
        for v in range(lows[i], highs[i] + 1):
            if pruned(vals + [v]):
                break
            rec(vals + [v])

    rec([])
    return found


def _launches(kernel: kir.Kernel, shapes: list[dict[str, int]]) -> list[tuple[dict[str, int], kir.Launch]]:
    """One shape per distinct launch (argument values), in shape order."""
    seen: dict[tuple, tuple[dict[str, int], kir.Launch]] = {}
    for sizes in shapes:
        try:
            ln = kir.launch(kernel, sizes, {b: XBLOCK for b, _ in kernel.blocks})
        except kir.EvaluationError:
            continue
        seen.setdefault(ln.args, (sizes, ln))
    return list(seen.values())


def spread(n: int) -> list[int]:
    """``range(n)`` in van der Corput order: any prefix is spread evenly over the list."""
    if n <= 1:
        return list(range(n))
    width = (n - 1).bit_length()
    order = [int(format(i, f"0{width}b")[::-1], 2) for i in range(2**width)]
    return [i for i in order if i < n]


# -- the run ---------------------------------------------------------------------------------------------------


def model_run(record: CapturedKernel, modes: tuple[str, ...], budget: int = 100_000,
              bits_range: tuple[int, ...] = BITS, max_widths: int = 3, min_launches: int = 8) -> ModelRun:
    """Run the model (module docstring) at the smallest widths of ``bits_range`` where the checker certifies
    ``modes`` and some shape exists, smallest first, until ``min_launches`` launches have run (a width with
    one admissible shape is followed by the next), at most ``max_widths`` widths, while fewer than ``budget``
    lane evaluations (each in both widths) are spent."""
    from workbench.check.api import check_kernel

    run = ModelRun(record.program, record.name, modes=tuple(modes), narrows=bool(record.size_args))
    reasons = []
    for bits in bits_range:
        ran = sum(x.launches_run for x in run.widths)
        if len(run.widths) >= max_widths or ran >= min_launches or run.lanes >= budget or run.difference is not None:
            break
        small = small_record(record, bits)
        w = Widths(bits, 2 * bits)
        try:  # the cheap question first
            shapes = admissible_shapes(small, bits)
        except TooManyShapes as exc:
            reasons.append(str(exc))
            break
        if not shapes:
            reasons.append(f"{bits} bits: no shape satisfies the scaled guards")
            continue
        verdicts = {m: check_kernel(small, m, widths=w, counterexample=False) for m in modes}
        if not all(v.certified for v in verdicts.values()):
            reasons.append(f"{bits} bits: " + "; ".join(f"{m} {v.verdict}: {v.reason[:160]}"
                                                       for m, v in verdicts.items() if not v.certified))
            continue
        at = WidthRun(bits, shapes=len(shapes))
        run.widths.append(at)
        _run_at(run, at, small, w, shapes, budget - run.lanes)
    if not run.widths:
        run.why_not = " | ".join(reasons[-2:])
    return run


def _blocks(kernel: kir.Kernel, ln: kir.Launch, r_block_max: int) -> list[dict[str, int]]:
    red = kernel.reduction
    if red is None:
        return [{b: XBLOCK for b, _ in kernel.blocks}]
    if red.static_block is not None:
        return [{"XBLOCK": XBLOCK}]
    numel = ln.arg(red.numel) if red.numel is not None else red.static_numel
    rbs = {rb for rb in R_BLOCKS if rb <= r_block_max}
    if red.persistent:
        p2 = 1 << max(0, numel - 1).bit_length()
        if p2 <= r_block_max:
            rbs.add(p2)
    return [{"XBLOCK": XBLOCK, red.block: rb} for rb in sorted(rbs)]


def _run_at(run: ModelRun, at: WidthRun, small: CapturedKernel, w: Widths, shapes, budget: int) -> None:
    k = kir.parse(small)
    if k.reduction is not None and k.grid != "1d":
        raise NotImplementedError("small model of 2-D reduction grids")
    r_block_max = r_block_limit(w.int32)  # the small checker's R0_BLOCK bound (a premise it reasons under)
    work = []
    for sizes, ln0 in _launches(k, shapes):
        for blocks in _blocks(k, ln0, r_block_max):
            work.append((sizes, kir.launch(k, sizes, blocks)))
    at.launches = len(work)
    reads = reads_carried(k)
    for i in spread(len(work)):
        if at.lanes >= budget:
            break
        sizes, ln = work[i]
        at.launches_run += 1
        diff = (reduction_launch if k.reduction is not None else pointwise_launch)(at, k, w, ln, reads)
        if diff is not None:
            run.difference = (at.bits, sizes, dict(ln.blocks), *diff)
            return


__all__ = ["BITS", "ModelRun", "WidthRun", "admissible_shapes", "model_run", "spread"]
