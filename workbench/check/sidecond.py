"""Side conditions: typed obligations ``claim >= 0`` the checker emits, and how each was discharged.

Stage: check. A :class:`SideCondition` is ``(claim, reason, origin)`` (STYLE guideline 6): ``claim`` is a
polynomial in the shape symbols that must be non-negative under the premises; ``reason`` says which part of
the safety question needs it; ``origin`` names the subexpression, its source line and the lane class.
``claim`` is ``None`` when the interval analysis found no bound at all (the obligation cannot hold as
stated; the rejection says which subexpression had no bound).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from workbench.check.poly import Poly


class Reason(Enum):
    SIZE_ARG_FITS = "size argument fits int32"  # passing ks* as int32 is exact
    NUMEL_FITS = "element count fits its declared type"  # xnumel's value equals its expression
    FITS_NARROW = "intermediate fits the narrowed type"  # narrowed arithmetic computes the exact value
    FITS_INT32 = "intermediate fits int32 (strict mode)"
    OPERAND_FITS = "operand of an int64 // or % fits int32 (partial mode)"  # the site's cast is exact
    DIVISOR = "divisor >= 1"  # // and % are undefined for 0 (LLVM sdiv/srem); both widths
    QUOTIENT = "quotient bound"  # the premise of the chosen quotient rule
    TAIL_MASKED = "access masked off on the tail lanes"  # structural, claim None when violated
    DEFINED_VALUE = "no unspecified masked-off value reaches the store"  # structural
    PAYLOAD_TYPE = "integer payload computed in the same type in both kernels"  # structural (trusted/payload)
    LOOP_BOUND = "reduction loop's offset cannot wrap int32"  # r0_numel <= 2**31 - 2**20 (trusted/reduction)
    DEAD_BRANCH = "uniform condition decided by the premises"  # a where's other branch is dead (trusted/uniform)
    LAUNCH_BOUND = "y launch index cannot pass int32"  # ynumel <= 2**31 - 2**22 (Grid2DWithYZOverflow, trusted/launch)


class Status(Enum):
    PROVED = "proved"
    REFUTED = "refuted"  # z3 found a shape satisfying the premises where the claim is negative
    UNKNOWN = "unknown"  # neither prover could show it
    CONFLICT = "conflict"  # the exact procedure and z3 disagree: a bug; the kernel is refused


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a side condition comes from: the node (stable key in the kernel's walk order), its rendered
    subexpression, the source line (1 = ``def``; 0 if none) and the lane class it must hold on."""

    node: str
    subexpression: str
    line: int
    lane_class: str
    bound: str = ""  # "upper" | "lower" | "" (which end of the interval)
    lane: str = ""  # the lane class structurally (mask-atom node keys and polarities): identity, not display


@dataclass(frozen=True, slots=True)
class SideCondition:
    claim: Poly | None
    reason: Reason
    origin: Origin

    @property
    def key(self) -> str:
        """Stable identifier, structural: reason, node key, interval end and the lane class as node keys
        (never rendered text, which two different values can share); certificates attach their multiplier
        choices to it."""
        o = self.origin
        return f"{self.reason.name}|{o.node}|{o.bound}|{o.lane}"

    def text(self) -> str:
        return "no bound" if self.claim is None else f"{self.claim} >= 0"


@dataclass(frozen=True, slots=True)
class Discharged:
    """A side condition with its status, the prover that settled it and the multipliers used."""

    condition: SideCondition
    status: Status
    prover: str  # "exact" | "z3" | "structural" | ""
    multipliers: tuple[tuple[str, str], ...] = ()  # (fact name, lambda as text)
    model: tuple[tuple[str, int], ...] = ()  # refuting shape, when z3 found one
    detail: str = ""
    guards: tuple[str, ...] = ()  # the guards (verbatim) the proof used: multipliers' guards, or z3's core

    def to_json(self) -> dict:
        c, o = self.condition, self.condition.origin
        return {
            "claim": c.text(),
            "reason": c.reason.value,
            "subexpression": o.subexpression,
            "node": o.node,
            "line": o.line,
            "lane_class": o.lane_class,
            "bound": o.bound,
            "status": self.status.value,
            "prover": self.prover,
            "multipliers": [list(m) for m in self.multipliers],
            "model": dict(self.model),
            "detail": self.detail,
            "guards_used": list(self.guards),
        }
