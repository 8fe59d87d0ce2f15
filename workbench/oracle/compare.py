"""Comparing what the wide and the narrowed kernel did in one program, lane by lane and step by step.

Stage: oracle. The claim checked is the checker's per-lane theorem restricted to what can be observed: on
every lane where an access is active (its mask is true) in *either* kernel, both kernels perform it, at the
same address, and a store writes the same bits. A lane active in one kernel and not the other is a
disagreement; lanes inactive in both are not compared (their addresses may legitimately differ — rotary's
narrowed kernel computes an offset of 2**31 there), but such differences are counted for the report, and
those on lanes whose index is below numel on every axis (``in_range``) are kept apart: the checker's *strict*
mode claims every intermediate fits int32 there, so for a strict-certified kernel they contradict it.

Order: accesses are matched by their position in the program's execution order, and each carries where it
ran (:attr:`~workbench.oracle.memory.Access.tag`: source line, reduction loop, ``r0_offset``). Pointwise
kernels are straight-line code; a reduction's loops run the same steps in both kernels (``r0_numel`` is never
narrowed). Both kernels must perform the same sequence — same kinds at the same lines and the same steps —
or the first difference is a ``count`` disagreement.

Premises (device asserts, :mod:`workbench.oracle.asserts`): a lane where the oracle's own evaluation of the
*wide* kernel's assert fails is an input outside the checker's premise (an index out of range): it is not
compared, and is counted apart (``outside_premise``). For reductions the whole x row is set apart (its
accumulators combine every r lane). On a lane inside the premise, the narrowed kernel's assert must hold too
(as Triton computes it), or that is an ``assert`` disagreement. Where Triton's evaluation of the wide assert
differs from the oracle's own, the oracle's reading of the assert is wrong: an ``assert_errors`` entry, and the
kernel's verdict is ``error``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Callable

import numpy as np

from workbench.oracle.memory import Access, AssertEvent

MAX_PER_PROGRAM = 8  # disagreements kept per program (all are counted)


class Differs(StrEnum):
    """What differs between the two kernels at one lane (or for one launch)."""

    ADDRESS = "address"  # active in both, different addresses
    MASK = "mask"  # active in one kernel only
    VALUE = "value"  # same address, different stored bits; or a narrowed argument that does not fit int32
    COUNT = "count"  # different sequences of loads and stores (or of asserts, or loop steps)
    MASKED_ADDRESS = "masked address"  # masked off in both, below numel, different addresses (strict mode)
    ASSERT = "assert"  # inside the premise (the wide assert holds) the narrowed kernel's assert fails


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One lane of one access where the two kernels differ: what differs and both sides' values."""

    access: str  # "load 2" / "store 0 (loop 1, r0_offset 2048)" / "access count"
    what: Differs
    lane: tuple[int, ...]  # position in the block: (x,), (y, x) or (x, r)
    wide: tuple  # (address, mask, stored bits or None)
    narrowed: tuple
    tag: tuple = (0, None, None)


@dataclass(slots=True)
class Comparison:
    """Counts for one program (or a sum of programs) and the first disagreements found."""

    lanes: int = 0  # lane positions executed (in each kernel)
    active_lanes: int = 0  # lanes where some access is active in either kernel
    accesses: int = 0  # (access, lane) pairs active in either kernel: each one compared (an access's lanes are
    # its own elements: an [XBLOCK, 1] store in an [XBLOCK, R0_BLOCK] tile has XBLOCK of them)
    disagreement_count: int = 0
    inactive_differences: int = 0  # (access, lane) pairs inactive in both whose addresses differ (not compared)
    masked_differences: int = 0  # ... of which the lane's index is below numel (strict mode's active lanes)
    outside_premise: int = 0  # lanes set apart: the wide kernel's device assert fails there
    outside_differences: int = 0  # (access, lane) pairs on those lanes where the kernels differ (not compared)
    asserts: int = 0  # (assert, lane) pairs inside the premise whose narrowed assert was compared
    disagreements: list[Disagreement] = field(default_factory=list)
    masked: list[Disagreement] = field(default_factory=list)  # the first masked differences (what="masked address")
    assert_errors: list[str] = field(default_factory=list)

    def add(self, other: Comparison, keep: int) -> None:
        for name in ("lanes", "active_lanes", "accesses", "disagreement_count", "inactive_differences",
                     "masked_differences", "outside_premise", "outside_differences", "asserts"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.disagreements.extend(other.disagreements[: max(0, keep - len(self.disagreements))])
        self.masked.extend(other.masked[: max(0, keep - len(self.masked))])
        self.assert_errors.extend(e for e in other.assert_errors if e not in self.assert_errors)


def _lane(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.unravel_index(flat, shape)) if shape else ()


def _side(a: Access, flat: int, shape: tuple[int, ...]) -> tuple:
    addr = int(np.broadcast_to(a.address, shape).reshape(-1)[flat])
    mask = bool(np.broadcast_to(a.mask, shape).reshape(-1)[flat])
    bits = None if a.bits is None else int(np.broadcast_to(a.bits, shape).reshape(-1)[flat])
    return (addr, mask, bits)


def _fit(mask: np.ndarray, shape: tuple[int, ...], block: tuple[int, ...], how) -> np.ndarray:
    """A block-shaped lane mask seen from an access of ``shape`` (``[XBLOCK, 1]`` in an ``[XBLOCK, R0_BLOCK]``
    tile): combined with ``how`` (``np.all``/``np.any``) over the axes the access does not span; flattened."""
    m = np.broadcast_to(mask, block)
    if len(shape) != len(block):  # an access of another rank (not Inductor's layout): all lanes as one
        return np.broadcast_to(how(m), shape).reshape(-1)
    axes = tuple(i for i, (s, b) in enumerate(zip(shape, block)) if s == 1 and b > 1)
    if axes:
        m = how(m, axis=axes, keepdims=True)
    return np.broadcast_to(m, shape).reshape(-1)


def _labels(trace: list[Access]) -> list[str]:
    """``load k`` / ``store k``: k is the rank of the access's source line among that kind's lines (in a
    straight-line kernel the k-th access of its kind), plus the loop and ``r0_offset`` inside a loop."""
    lines: dict[str, list[int]] = {"load": [], "store": []}
    counters = {"load": 0, "store": 0}
    out = []
    for a in trace:
        kind = a.kind.value
        if a.tag[0] and a.tag[0] not in lines[kind]:
            lines[kind].append(a.tag[0])
        rank = lines[kind].index(a.tag[0]) if a.tag[0] else counters[kind]  # untagged: execution order
        counters[kind] += 1
        label = f"{kind} {rank}"
        if a.tag[1] is not None:
            label += f" (loop {a.tag[1]}, r0_offset {a.tag[2]})"
        out.append(label)
    return out


def premise(events: list[AssertEvent], block: tuple[int, ...], rows: bool) -> tuple[np.ndarray | None, list[str]]:
    """Lanes outside the premise (the wide kernel's asserts by the oracle's own evaluation; whole x rows when
    ``rows``) and the asserts the oracle could not evaluate or evaluates differently from Triton."""
    if not events:
        return None, []
    fail = np.zeros(block, dtype=bool)
    errors = []
    for e in events:
        if e.own is None:
            errors.append(f"cannot evaluate the assert `{e.text}`: {e.error}")
            continue
        own = np.broadcast_to(e.own, block)
        if e.premise:
            fail |= ~own
        differ = int((np.broadcast_to(e.triton, block) != own).sum())
        if differ:
            errors.append(f"the oracle's evaluation of `{e.text}` differs from Triton's on {differ} lanes")
    if rows and fail.ndim == 2:
        fail = np.broadcast_to(fail.any(axis=1, keepdims=True), block)
    return fail, errors


def compare_asserts(wide: list[AssertEvent], narrowed: list[AssertEvent], block: tuple[int, ...],
                    outside: np.ndarray | None, out: Comparison) -> None:
    """Inside the premise, every assert of the narrowed kernel must evaluate as the wide kernel's does (a
    premise assert holds there in W, so it must hold in N)."""
    if [e.tag for e in wide] != [e.tag for e in narrowed]:
        out.disagreement_count += 1
        out.disagreements.append(Disagreement("assert count", Differs.COUNT, (), tuple(e.tag for e in wide),
                                              tuple(e.tag for e in narrowed)))
        return
    inside = np.ones(block, dtype=bool) if outside is None else ~np.broadcast_to(outside, block)
    for i, (w, n) in enumerate(zip(wide, narrowed)):
        shape = tuple(np.broadcast_shapes(w.triton.shape, n.triton.shape))
        flat_inside = _fit(inside, shape, block, np.all)  # the assert's own lanes ([XBLOCK, 1] has XBLOCK)
        out.asserts += int(flat_inside.sum())
        # inside the premise a premise assert holds in W, so this asks it of N; an assert that is no premise
        # (on an index expression alone) must come out the same in both kernels
        differs = np.broadcast_to(w.triton, shape) != np.broadcast_to(n.triton, shape)
        bad = np.flatnonzero(flat_inside & differs.reshape(-1))
        out.disagreement_count += int(bad.size)
        for flat in bad[: max(0, MAX_PER_PROGRAM - len(out.disagreements))]:
            out.disagreements.append(Disagreement(f"assert {i} `{w.text}`", Differs.ASSERT, _lane(int(flat), shape),
                                                  (None, True, None), (None, False, None), w.tag))


def compare(wide: list[Access], narrowed: list[Access], block: tuple[int, ...],
            in_range: np.ndarray | Callable[[Access], np.ndarray | None] | None = None,
            outside: np.ndarray | None = None) -> Comparison:
    """Compare two programs' access traces (same program id, same shape) on every lane of the block;
    ``in_range`` (block-shaped, or per access) marks lanes whose index is below numel on every axis;
    ``outside`` marks lanes outside the premise (never compared, counted apart)."""
    lanes = int(np.prod(block)) if block else 1
    out = Comparison(lanes=lanes)
    if len(wide) != len(narrowed) or any(w.kind != n.kind or w.tag != n.tag for w, n in zip(wide, narrowed)):
        out.disagreement_count += 1
        kinds = [tuple((a.kind.value, *a.tag) for a in trace) for trace in (wide, narrowed)]
        first = next((i for i, (a, b) in enumerate(zip(*kinds)) if a != b), min(map(len, kinds)))
        out.disagreements.append(Disagreement(f"access count (first difference at access {first})", Differs.COUNT,
                                              (), kinds[0][first:first + 3], kinds[1][first:first + 3]))
        return out
    keep_block = np.ones(block, dtype=bool) if outside is None else ~np.broadcast_to(outside, block)
    out.outside_premise = lanes - int(keep_block.sum())
    active_any = np.zeros(block, dtype=bool)
    for w, n, label in zip(wide, narrowed, _labels(wide)):
        shape = tuple(np.broadcast_shapes(w.address.shape, n.address.shape))
        keep = _fit(keep_block, shape, block, np.all)
        flat = lambda x: np.broadcast_to(x, shape).reshape(-1)  # noqa: E731
        wa, na, wm, nm = flat(w.address), flat(n.address), flat(w.mask), flat(n.mask)
        active = (wm | nm) & keep
        if len(shape) == len(block):
            active_any |= np.broadcast_to(active.reshape(shape), block)
        out.accesses += int(active.sum())
        differ = (wm != nm) | (wa != na)
        if w.bits is not None and n.bits is not None:
            differ |= flat(w.bits) != flat(n.bits)
        out.outside_differences += int(((wm | nm) & ~keep & differ).sum())
        differ_inactive = (~(wm | nm)) & keep & (wa != na)
        out.inactive_differences += int(differ_inactive.sum())
        rng = in_range(w) if callable(in_range) else in_range
        if rng is not None:
            hits = np.flatnonzero(differ_inactive & _fit(np.broadcast_to(rng, block), shape, block, np.any))
            out.masked_differences += int(hits.size)
            for i in hits[: max(0, MAX_PER_PROGRAM - len(out.masked))]:
                out.masked.append(Disagreement(label, Differs.MASKED_ADDRESS, _lane(int(i), shape),
                                               _side(w, int(i), shape), _side(n, int(i), shape), w.tag))
        bad = [(Differs.MASK, active & (wm != nm)), (Differs.ADDRESS, active & wm & nm & (wa != na))]
        if w.bits is not None and n.bits is not None:
            bad.append((Differs.VALUE, active & wm & nm & (wa == na) & (flat(w.bits) != flat(n.bits))))
        for what, where in bad:
            hits = np.flatnonzero(where)
            out.disagreement_count += int(hits.size)
            for i in hits[: max(0, MAX_PER_PROGRAM - len(out.disagreements))]:
                out.disagreements.append(Disagreement(label, what, _lane(int(i), shape), _side(w, int(i), shape),
                                                      _side(n, int(i), shape), w.tag))
    out.active_lanes = int(active_any.sum())
    return out
