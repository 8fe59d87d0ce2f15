"""The narrowing checker: certificates, side conditions and verdicts on which size arguments can be int32.

Stage: check (after ``kir``, before ``rule`` and ``lean``). Public API (see ``docs/check.md``):

* :func:`check_kernel` (captured kernel, mode) -> :class:`Verdict` (verdict, reason, side conditions,
  counterexample, :class:`Certificate`);
* :func:`check_certificate` (kernel IR, premises, certificate): the trusted re-check;
* :class:`SideCondition`, :class:`Certificate`, :func:`premises_of`, :class:`Poly`.
"""

from __future__ import annotations

from workbench.check.api import Counterexample, Verdict, check_all_modes, check_certificate, check_kernel, search
from workbench.check.certificate import Certificate, CertPremises
from workbench.check.poly import Poly
from workbench.check.premises import Premises, premises_of
from workbench.check.sidecond import Discharged, Origin, Reason, SideCondition, Status

__all__ = [
    "CertPremises", "Certificate", "Counterexample", "Discharged", "Origin", "Poly", "Premises", "Reason",
    "SideCondition", "Status", "Verdict", "check_all_modes", "check_certificate", "check_kernel", "premises_of",
    "search",
]
