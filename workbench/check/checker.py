"""The checker, as the search and the reports use it: the trusted analysis (``workbench.check.trusted``)
with the two things that do not belong there, a look-ahead for the search and caches across runs.

Stage: check. The soundness argument, the interval rules and what a certificate may choose are stated in
:mod:`workbench.check.trusted.analysis`; this module adds

* :class:`Analysis`: the trusted analysis whose ``lookahead`` (called only by the search's oracle) probes
  whether an access's offset would agree on a lane class, with the exact procedure and the search's
  multipliers (cached by value: a recycled id must never return another kernel's result);
* the W/N instantiation maps cached per parsed kernel (a pure function of the kernel and the widths, passed
  into the trusted analysis as data).

Nothing here can make a certificate pass: :func:`workbench.check.api.check_certificate` re-runs the trusted
analysis from the certificate's choices alone.
"""

from __future__ import annotations

from workbench.check.poly import Poly
from workbench.check.premises import Premises
from workbench.check.trusted import analysis as trusted
from workbench.check.trusted.analysis import (
    ACCESS_RULES,
    AND_ORDERS,
    QUOTIENT_RULES,
    REMAINDER_RULES,
    Oracle,
    Widths,
    retype,
)
from workbench.check.trusted.interval import Interval, LaneClass
from workbench.kir import Kernel, Mode, Node

__all__ = ["ACCESS_RULES", "AND_ORDERS", "Analysis", "Interval", "LaneClass", "QUOTIENT_RULES",
           "REMAINDER_RULES", "Widths", "retype", "retyped"]

_RETYPED: dict[tuple[int, Mode], tuple[Kernel, dict[int, Node]]] = {}


def _retyped(kernel: Kernel, mode: Mode) -> dict[int, Node]:
    got = _RETYPED.get((id(kernel), mode))
    if got is None or got[0] is not kernel:  # the entry holds the kernel, so its id is not recycled
        if len(_RETYPED) > 256:
            _RETYPED.clear()
        got = (kernel, retype(kernel, mode))
        _RETYPED[(id(kernel), mode)] = got
    return got[1]


def retyped(kernel: Kernel, widths: Widths) -> tuple[dict[int, Node], dict[int, Node]]:
    """The W and N instantiation maps of ``kernel`` (cached per parsed kernel)."""
    return _retyped(kernel, widths.wide), _retyped(kernel, widths.narrow)


_PROVABLE: dict = {}


class Analysis(trusted.Analysis):
    """The trusted analysis with cached instantiation maps and the search's look-ahead."""

    def __init__(self, kernel: Kernel, premises: Premises, mode: str, oracle: Oracle, widths: Widths = Widths()):
        super().__init__(kernel, premises, mode, oracle, widths, retyped(kernel, widths))

    def lookahead(self, offset: Node, c: LaneClass) -> bool:
        """Would the offset's conditions on ``c`` all pass the exact procedure with found multipliers?"""
        probe = Analysis(self.k, self.p, self.mode, self.oracle, self.w)
        probe.cases("agree", offset, c)
        return probe.all_provable()

    def split_works(self, what: str, n: Node, c: LaneClass, option: str, depth: int) -> bool:
        """Would the obligations of ``n`` on ``c``, split by ``option``, all pass the exact procedure?"""
        probe = Analysis(self.k, self.p, self.mode, self.oracle, self.w)
        probe.split(what, n, c, option, depth)
        return probe.all_provable()

    def provable(self, claims: tuple[Poly | None, ...]) -> bool:
        return all(p is not None and self.nonneg_with_facts(p) for p in claims)

    def all_provable(self) -> bool:
        return all(sc.claim is not None and self.nonneg_with_facts(sc.claim) for sc in self.conditions.values())

    def nonneg_with_facts(self, p: Poly) -> bool:
        if p.is_const():  # a constant claim needs no premise (and no linear program)
            return p.const_value() >= 0
        key = (p, self.p)  # by value: ids of discarded premises are recycled
        got = _PROVABLE.get(key)
        if got is None:
            from workbench.check.discharge import find_multipliers

            got = _PROVABLE[key] = find_multipliers(p, self.p) is not None
        return got
