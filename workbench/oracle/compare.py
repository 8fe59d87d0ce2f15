"""Comparing what the wide and the narrowed kernel did in one program, lane by lane.

Stage: oracle. The claim checked is the checker's per-lane theorem restricted to what can be observed: on
every lane where an access is active (its mask is true) in *either* kernel, both kernels perform it, at the
same address, and a store writes the same bits. A lane active in one kernel and not the other is a
disagreement; lanes inactive in both are not compared (their addresses may legitimately differ — rotary's
narrowed kernel computes an offset of 2**31 there), but such differences are counted for the report, and
those on lanes whose index is below numel on every axis (``in_range``) are kept apart: the checker's *strict*
mode claims every intermediate fits int32 there, so for a strict-certified kernel they contradict it.

Accesses are matched by their position in the program's execution order; pointwise kernels are straight-line
code, so both kernels execute the same sequence of loads and stores. A different count is a disagreement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np

from workbench.oracle.memory import Access

MAX_PER_PROGRAM = 8  # disagreements kept per program (all are counted)


class Differs(StrEnum):
    """What differs between the two kernels at one lane (or for one launch)."""

    ADDRESS = "address"  # active in both, different addresses
    MASK = "mask"  # active in one kernel only
    VALUE = "value"  # same address, different stored bits; or a narrowed argument that does not fit int32
    COUNT = "count"  # different sequences of loads and stores
    MASKED_ADDRESS = "masked address"  # masked off in both, below numel, different addresses (strict mode)


@dataclass(frozen=True, slots=True)
class Disagreement:
    """One lane of one access where the two kernels differ: what differs and both sides' values."""

    access: str  # "load 2" / "store 0" / "access count"
    what: Differs
    lane: tuple[int, ...]  # position in the block: (x,) or (y, x)
    wide: tuple  # (address, mask, stored bits or None)
    narrowed: tuple


@dataclass(slots=True)
class Comparison:
    """Counts for one program (or a sum of programs) and the first disagreements found."""

    lanes: int = 0  # lane positions executed (in each kernel)
    active_lanes: int = 0  # lanes where some access is active in either kernel
    accesses: int = 0  # (access, lane) pairs active in either kernel: each one compared
    disagreement_count: int = 0
    inactive_differences: int = 0  # (access, lane) pairs inactive in both whose addresses differ (not compared)
    masked_differences: int = 0  # ... of which the lane's index is below numel (strict mode's active lanes)
    disagreements: list[Disagreement] = field(default_factory=list)
    masked: list[Disagreement] = field(default_factory=list)  # the first masked differences (what="masked address")

    def add(self, other: Comparison, keep: int) -> None:
        self.lanes += other.lanes
        self.active_lanes += other.active_lanes
        self.accesses += other.accesses
        self.disagreement_count += other.disagreement_count
        self.inactive_differences += other.inactive_differences
        self.masked_differences += other.masked_differences
        self.disagreements.extend(other.disagreements[: max(0, keep - len(self.disagreements))])
        self.masked.extend(other.masked[: max(0, keep - len(self.masked))])


def _lane(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(int(i) for i in np.unravel_index(flat, shape)) if shape else ()


def _side(a: Access, flat: int) -> tuple:
    addr = int(a.address.reshape(-1)[flat])
    mask = bool(a.mask.reshape(-1)[flat])
    bits = None if a.bits is None else int(a.bits.reshape(-1)[flat])
    return (addr, mask, bits)


def compare(wide: list[Access], narrowed: list[Access], block: tuple[int, ...],
            in_range: np.ndarray | None = None) -> Comparison:
    """Compare two programs' access traces (same program id, same shape) on every lane of the block;
    ``in_range`` (block-shaped, optional) marks lanes whose index is below numel on every axis."""
    lanes = int(np.prod(block)) if block else 1
    out = Comparison(lanes=lanes)
    if len(wide) != len(narrowed) or any(w.kind != n.kind for w, n in zip(wide, narrowed)):
        out.disagreement_count += 1
        kinds = [tuple(a.kind.value for a in trace) for trace in (wide, narrowed)]
        out.disagreements.append(Disagreement("access count", Differs.COUNT, (), *kinds))
        return out
    active_any = np.zeros(lanes, dtype=bool)
    inside = None if in_range is None else np.broadcast_to(in_range, block).reshape(-1)
    counters = {"load": 0, "store": 0}
    for w, n in zip(wide, narrowed):
        label = f"{w.kind.value} {counters[w.kind.value]}"
        counters[w.kind.value] += 1
        wa, na = np.broadcast_to(w.address, block).reshape(-1), np.broadcast_to(n.address, block).reshape(-1)
        wm, nm = np.broadcast_to(w.mask, block).reshape(-1), np.broadcast_to(n.mask, block).reshape(-1)
        active = wm | nm
        active_any |= active
        out.accesses += int(active.sum())
        differ_inactive = (~active) & (wa != na)
        out.inactive_differences += int(differ_inactive.sum())
        if inside is not None:
            hits = np.flatnonzero(differ_inactive & inside)
            out.masked_differences += int(hits.size)
            for flat in hits[: max(0, MAX_PER_PROGRAM - len(out.masked))]:
                out.masked.append(Disagreement(label, Differs.MASKED_ADDRESS, _lane(int(flat), block),
                                               _side(_flat(w, block), int(flat)), _side(_flat(n, block), int(flat))))
        bad = [(Differs.MASK, active & (wm != nm)), (Differs.ADDRESS, wm & nm & (wa != na))]
        if w.bits is not None and n.bits is not None:
            wb, nb = np.broadcast_to(w.bits, block).reshape(-1), np.broadcast_to(n.bits, block).reshape(-1)
            bad.append((Differs.VALUE, wm & nm & (wa == na) & (wb != nb)))
        for what, where in bad:
            hits = np.flatnonzero(where)
            out.disagreement_count += int(hits.size)
            for flat in hits[: max(0, MAX_PER_PROGRAM - len(out.disagreements))]:
                out.disagreements.append(Disagreement(label, what, _lane(int(flat), block),
                                                      _side(_flat(w, block), int(flat)),
                                                      _side(_flat(n, block), int(flat))))
    out.active_lanes = int(active_any.sum())
    return out


def _flat(a: Access, block: tuple[int, ...]) -> Access:
    bits = None if a.bits is None else np.broadcast_to(a.bits, block)
    return Access(a.kind, a.element, np.broadcast_to(a.address, block), np.broadcast_to(a.mask, block), bits)
