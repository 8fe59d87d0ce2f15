"""Re-checking a certificate from its choices and multipliers alone.

Stage: check (trusted). :func:`recheck` runs the analysis with the certificate's recorded choices (a missing
or foreign choice is an error: the certificate names another kernel), recomputes every side condition, and
verifies each with the exact procedure and the certificate's multipliers. It returns the analysis and, per
condition key, whether the exact procedure proved it; a caller may try a second prover (z3) on the rest.
The certificate asserts no bound: every interval is recomputed here.
"""

from __future__ import annotations

from fractions import Fraction

from workbench.check.certificate import Certificate
from workbench.check.errors import CertificateError
from workbench.check.premises import Premises
from workbench.check.trusted.analysis import Analysis, Widths
from workbench.check.trusted.exact import exact_nonneg
from workbench.kir import Kernel, Node


def recheck(kernel: Kernel, premises: Premises, cert: Certificate, widths: Widths | None = None,
            retyped: tuple[dict[int, Node], dict[int, Node]] | None = None) -> tuple[Analysis, dict[str, bool]]:
    """The analysis under ``cert``'s choices and, per side-condition key, whether the exact procedure with
    ``cert``'s multipliers proves it. Raises :class:`CertificateError` when a choice is missing, and
    ``AssertionError`` if a generated condition was not recorded (an internal invariant)."""
    recorded = cert.choice_map()

    def oracle(kind, key, options, works):
        if key not in recorded:
            raise CertificateError(f"certificate has no {kind} choice for {key}; re-run the search", key)
        return recorded[key]

    a = Analysis(kernel, premises, cert.mode, oracle, widths or Widths(*cert.widths), retyped)
    a.run()
    if len(a.generated) != len(a.conditions):  # invariant: no emitted obligation is dropped by a key
        raise AssertionError(f"{kernel.name}: {len(a.generated)} side conditions generated, "
                             f"{len(a.conditions)} recorded")
    mults: dict[str, tuple[tuple[str, Fraction], ...]] = cert.multiplier_map()
    proved = {key: sc.claim is not None and exact_nonneg(sc.claim, premises, mults.get(key, ()))
              for key, sc in a.conditions.items()}
    return a, proved
