"""The exact non-negativity procedure the trusted checker relies on (multipliers given, only verified).

Stage: check (trusted). Given multipliers ``lam_i >= 0`` for premises ``f_i >= 0``, let
``r = p - sum(lam_i * f_i)``; substitute every symbol ``s`` by ``lower(s) + t_s`` and expand; if every
coefficient of ``r`` is ``>= 0`` then ``r >= 0`` for all ``t >= 0``, hence ``p = r + sum(lam_i * f_i) >= 0``
wherever the premises hold. Sound over the reals, so over the integers; incomplete (the multipliers are a
certificate's choice, found by an untrusted search in ``workbench.check.discharge``).
"""

from __future__ import annotations

from fractions import Fraction

from workbench.check.poly import Poly
from workbench.check.premises import Premises

Multipliers = tuple[tuple[str, Fraction], ...]  # (fact name, lambda >= 0)


def residual(p: Poly, premises: Premises, multipliers: Multipliers) -> Poly:
    r = p
    facts = {f.name: f for f in premises.facts}
    for name, lam in multipliers:
        r = r - facts[name].poly * lam
    return r


def exact_nonneg(p: Poly, premises: Premises, multipliers: Multipliers) -> bool:
    """The procedure above. Unknown fact names, negative multipliers or a symbol without a lower bound fail."""
    names = {f.name for f in premises.facts}
    if any(n not in names or lam < 0 for n, lam in multipliers):
        return False
    r = residual(p, premises, multipliers)
    lower = premises.lower_map
    if any(s not in lower for s in r.symbols()):
        return False
    return all(c >= 0 for c in r.shift(lower).terms.values())
