"""The interval type and the arithmetic laws on it, as pure functions.

Stage: check (trusted). An :class:`Interval` is a pair of bounds, each a polynomial in the shape symbols or
``None`` for an infinite end (no bound known: the only fallback, never a guess). Every law below holds for
all values of the symbols: ``iadd`` and ``isub`` are interval addition and subtraction, ``scale`` multiplies
by a rational constant (swapping the ends when it is negative; callers do that), ``as_le`` restates a
comparison as ``L <= R + delta`` for refinement.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from workbench import kir
from workbench.check.poly import Poly
from workbench.kir import Node, Op
from workbench.kir.ops import MAY_OVERFLOW

# The integer operations whose exact value may leave the result type (kir.ops.MAY_OVERFLOW without casts,
# which have their own rule): each must be shown to fit the narrowed type for the kernels to agree.
INTEGER_OPS = MAY_OVERFLOW - {Op.CAST}

LaneClass = frozenset  # of (node key, polarity): a conjunction of mask atoms
# The class with no lane (a conjunction with a decided-false uniform atom, trusted/uniform.py): every
# obligation on it holds vacuously. No node key has this form ("n<i>").
EMPTY: LaneClass = frozenset({("empty", False)})


@dataclass(frozen=True, slots=True)
class Interval:
    """``[lo, hi]`` with ``None`` as an infinite end. Iterates as ``(lo, hi)`` so rules read ``lo, hi = ...``."""

    lo: Poly | None
    hi: Poly | None

    def __iter__(self) -> Iterator[Poly | None]:
        yield self.lo
        yield self.hi

    @property
    def point(self) -> Poly | None:
        return self.lo if self.lo is not None and self.lo == self.hi else None


TOP = Interval(None, None)


def bits(n: Node) -> int | None:
    """The width of an integer node's type, ``None`` for floats and pointers."""
    return n.type.bits if isinstance(n.type, kir.IntType) else None


def iadd(x: Poly | None, y: Poly | None) -> Poly | None:
    return None if x is None or y is None else x + y


def isub(x: Poly | None, y: Poly | None) -> Poly | None:
    return None if x is None or y is None else x - y


def iabs(x: Interval, nonneg) -> Interval:
    """The exact ``|v|`` for ``v`` in ``x`` (before any wrap: Op.ABS's FITS_NARROW asks that it fit).
    ``nonneg(p)`` proves ``p >= 0`` for every value of the symbols. ``lo >= 0``: ``[lo, hi]``; ``hi <= 0``:
    ``[-hi, -lo]``; otherwise ``|v| = max(v, -v) <= max(hi, -lo)`` whatever the signs, so ``[0, hi]`` when
    ``hi >= -lo`` is shown, ``[0, -lo]`` when ``-lo >= hi`` is, ``[0, hi - lo]`` when ``hi >= 0`` and
    ``lo <= 0`` are (then ``max(hi, -lo) <= hi + (-lo)``), else no upper bound."""
    lo, hi = x
    zero = Poly.const(0)
    if lo is not None and nonneg(lo):
        return Interval(lo, hi)
    if hi is not None and nonneg(-hi):
        return Interval(-hi, None if lo is None else -lo)
    if lo is None or hi is None:
        return Interval(zero, None)
    if nonneg(hi + lo):
        return Interval(zero, hi)
    if nonneg(-lo - hi):
        return Interval(zero, -lo)
    if nonneg(hi) and nonneg(-lo):
        return Interval(zero, hi - lo)
    return Interval(zero, None)


def scale(x: Poly | None, k: Fraction) -> Poly | None:
    return None if x is None else x * k


def as_le(op: Op, left: Node, right: Node) -> list[tuple[Node, Node, int]]:
    """``left op right`` (integers) as a list of ``(L, R, delta)`` meaning ``L <= R + delta``."""
    match op:
        case Op.LT:
            return [(left, right, -1)]
        case Op.LE:
            return [(left, right, 0)]
        case Op.GT:
            return [(right, left, -1)]
        case Op.GE:
            return [(right, left, 0)]
        case Op.EQ:
            return [(left, right, 0), (right, left, 0)]
    return []
