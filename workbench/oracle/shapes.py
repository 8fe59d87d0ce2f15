"""Boundary shapes: symbol values that satisfy every guard of a record and sit where narrowing could break.

Stage: oracle. A shape is valid when every symbol is within its recorded range, every guard holds (evaluated
exactly by :mod:`workbench.oracle.symbolic`), every numel is at least 1 and every size argument evaluates.
The search, per record:

* **lower bounds** — every symbol at its recorded lower bound (nudged upward until valid);
* **max <symbol>** — one symbol as large as the guards allow, the others at their lower bounds: with
  Inductor's product guards this puts numel next to 2**31-1 and makes the product guards tight;
* **tight <guard>** — for each inequality guard, each of its symbols saturated in turn from a few small bases,
  keeping the shape with the least slack (0 when an integer solution hits the bound, e.g. ``2*s*t <= 2**31-1``
  can only reach slack 1);
* **balanced** — the numel's symbols grown together, then the last one saturated (large rows *and* columns);
* **random** — a few valid shapes drawn log-uniformly under a random bit budget (seeded; a draw that repeats
  a kept shape is drawn again, up to :data:`RANDOM_REDRAWS` times).

Saturation is a binary search for the largest value whose 8-value window ending there holds a valid shape,
then a scan down to the valid one: that tolerates parity and ``Ne`` guards (``Eq(s, 2*(s//2))``) while
assuming the guards bound each symbol from above monotonically, as Inductor's do. Duplicates are dropped.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

from workbench.oracle.corpus import Record
from workbench.oracle.symbolic import Fact, Undefined, slack

INT32_MAX = (1 << 31) - 1
CAP = 1 << 62  # the largest value tried for a symbol the guards leave unbounded
WINDOW = 8
BASES = 3  # small bases tried per (guard, symbol) when tightening


@dataclass(frozen=True, slots=True)
class Shape:
    label: str
    values: tuple[tuple[str, int], ...]  # sorted (symbol, value)

    def as_dict(self) -> dict[str, int]:
        return dict(self.values)


def valid(rec: Record, values: dict[str, int]) -> bool:
    for s in rec.symbols:
        v = values[s.name]
        if v < s.lower or (s.upper is not None and v > s.upper):
            return False
    if not all(g.holds(values) for g in rec.guards):
        return False
    try:
        if any(f.value(values) < 1 for _, f in rec.numels):
            return False
        for _, f in rec.size_args:
            f.value(values)
    except Undefined:
        return False
    return True


def numel(rec: Record, values: dict[str, int]) -> int:
    out = 1
    for _, f in rec.numels:
        out *= f.value(values)
    return out


def _repair(rec: Record, values: dict[str, int]) -> dict[str, int] | None:
    """A valid shape just above ``values``: one symbol raised by d, else all raised by d, for d = 1, 2, ..."""
    if valid(rec, values):
        return values
    names = [s.name for s in rec.symbols]
    for d in range(1, 65):
        for n in names:
            trial = dict(values, **{n: values[n] + d})
            if valid(rec, trial):
                return trial
        trial = {k: v + d for k, v in values.items()}
        if valid(rec, trial):
            return trial
    return None


def saturate(rec: Record, values: dict[str, int], name: str) -> dict[str, int] | None:
    """``values`` with ``name`` as large as the guards allow (others fixed), or None if none is valid."""
    sym = next(s for s in rec.symbols if s.name == name)
    hi = sym.upper if sym.upper is not None else CAP

    def window(v: int) -> int | None:
        for k in range(WINDOW):
            if v - k < sym.lower:
                break
            if valid(rec, dict(values, **{name: v - k})):
                return v - k
        return None

    lo = values[name]
    if window(lo) is None:
        return None
    if window(hi) is not None:
        return dict(values, **{name: window(hi)})  # type: ignore[dict-item]
    while hi - lo > 1:  # invariant: window(lo) valid, window(hi) not
        mid = (lo + hi) // 2
        if window(mid) is not None:
            lo = mid
        else:
            hi = mid
    best = window(lo)
    return None if best is None else dict(values, **{name: best})


def _slacks(rec: Record) -> list[tuple[Fact, Fact]]:
    out = []
    for g in rec.guards:
        s = slack(g.text, f"{rec.path}: guard")
        if s is not None:
            out.append((g, s))
    return out


RANDOM_REDRAWS = 8  # draws per random shape before it is given up


def _random(rec: Record, rng: random.Random, tries: int = 300) -> dict[str, int] | None:
    names = [s.name for s in rec.symbols]
    for _ in range(tries):
        budget = rng.uniform(2, 31)
        cuts = sorted(rng.uniform(0, budget) for _ in range(len(names) - 1))
        bits = [b - a for a, b in zip([0.0] + cuts, cuts + [budget])]
        values = {}
        for s, b in zip(rec.symbols, bits):
            values[s.name] = max(s.lower, int(2 ** b))
        if valid(rec, values):
            return values
    return None


def search(rec: Record, seed: int = 0, randoms: int = 3, limit: int = 14) -> list[Shape]:
    """Valid boundary shapes for ``rec`` (at most ``limit``, in the order listed in the module docstring)."""
    rng = random.Random(f"{seed}:{rec.key}")
    found: list[Shape] = []
    seen: set[tuple[tuple[str, int], ...]] = set()

    def keep(label: str, values: dict[str, int] | None) -> bool:
        if values is None or len(found) >= limit:
            return False
        key = tuple(sorted(values.items()))
        if key not in seen and valid(rec, values):
            seen.add(key)
            found.append(Shape(label, key))
            return True
        return False

    memo: dict[tuple, dict[str, int] | None] = {}

    def sat(values: dict[str, int], name: str) -> dict[str, int] | None:
        key = (tuple(sorted(values.items())), name)
        if key not in memo:
            memo[key] = saturate(rec, values, name)
        return memo[key]

    base = _repair(rec, {s.name: s.lower for s in rec.symbols})
    if base is None:
        return []
    keep("lower bounds", base)
    saturated = {s.name: sat(base, s.name) for s in rec.symbols}
    for name, values in saturated.items():
        keep(f"max {name}", values)
    for g, sl in _slacks(rec):
        best: tuple[Fraction | int, dict[str, int]] | None = (sl.number(base), base)  # a lower-bound guard is tightest here
        for name in sorted(g.symbols):
            for bump in range(BASES):
                start = _repair(rec, {k: v + (bump if k != name else 0) for k, v in base.items()})
                cand = sat(start, name) if start else None
                if cand is not None:
                    gap = sl.number(cand)
                    if best is None or gap < best[0]:
                        best = (gap, cand)
        if best is not None:
            keep(f"tight {g.text} (slack {best[0]})", best[1])
    numel_syms = [s.name for s in rec.symbols if any(s.name in f.symbols for _, f in rec.numels)]
    if numel_syms:
        values = dict(base)
        grown = True
        while grown:
            grown = False
            for name in numel_syms:
                trial = dict(values, **{name: values[name] * 2})
                if valid(rec, trial):
                    values, grown = trial, True
        keep("balanced", sat(values, numel_syms[-1]))
    for i in range(randoms):  # a draw that repeats a kept shape (likely with one small symbol) is drawn again
        any(keep(f"random {i}", _random(rec, rng)) for _ in range(RANDOM_REDRAWS))
    return found
