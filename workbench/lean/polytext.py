"""Polynomials as Lean text, and the linear certificates that close side conditions (stage: prove).

``render_poly``/``render_expr`` write a polynomial (plus integer multiples of ``floor(P / c)``, rendered
``((P) / c)``) with one parenthesised atom per monomial, so that ``omega`` reads ``s27 * s77`` as one atom
everywhere. ``plan_discharge`` finds the certificate ``p(lb + t) = Σ λ_j g_j(lb + t) + Σ c_m t^m`` with
``λ, c ≥ 0`` (a small linear program) or refuses the claim by name; ``_hint_lines`` states the product facts
``0 ≤ ∏ (x - lb)`` it uses, expanded by ``shift_mul2``/``shift_mul3`` of ``Narrowing/Interval.lean``.
Deterministic: sorted symbols and monomials. No Lean is run here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import sympy
from scipy.optimize import linprog

from workbench.errors import UnsupportedError
from workbench.lean.errors import InstanceError
from workbench.lean.instance import LeanInstance


def _doc(s: str) -> str:
    """Text safe inside a Lean comment (a `-/` would end it)."""
    return s.replace("-/", "- /").replace("/-", "/ -")


def _poly(expr: sympy.Expr, names: tuple[str, ...]) -> sympy.Poly:
    gens = [sympy.Symbol(n, integer=True) for n in names]
    expr = expr.subs({sympy.Symbol(n): g for n, g in zip(names, gens)})
    try:
        poly = sympy.Poly(sympy.expand(expr), *gens) if gens else sympy.Poly(sympy.expand(expr), sympy.Symbol("_"))
    except sympy.PolynomialError as exc:
        raise InstanceError(f"{expr} is not a polynomial in {list(names)}") from exc
    for c in poly.coeffs():
        if not c.is_integer:
            raise InstanceError(f"{expr} has a non-integer coefficient {c}; side conditions are over integers")
    return poly


def _monomial_text(names: tuple[str, ...], exps: tuple[int, ...], lower: dict[str, int] | None = None) -> str:
    """``s12 * s66`` (or ``(s12 - 1) * (s66 - 1)`` when ``lower`` shifts); repeated factors for powers."""
    factors = []
    for n, e in zip(names, exps):
        lb = lower.get(n, 0) if lower else 0
        f = n if lb == 0 else (f"({n} - {lb})" if lb > 0 else f"({n} + {-lb})")
        factors += [f] * e
    return " * ".join(factors)


def render_poly(expr: sympy.Expr, names: tuple[str, ...]) -> str:
    """Lean text of an integer polynomial: ``c * (x * y)`` terms, highest degree first, lex order.

    Monomials are always parenthesised the same way so that ``omega`` sees one atom per monomial."""
    poly = _poly(expr, names)
    # Positive terms first (so bounds read `2147483647 - 2 * (s * w)`), each group by degree then lex.
    terms = sorted(poly.terms(), key=lambda t: (int(t[1]) < 0, -sum(t[0]), tuple(-e for e in t[0])))
    if not terms:
        return "0"
    out = ""
    for i, (exps, coeff) in enumerate(terms):
        c = int(coeff)
        mono = _monomial_text(names, exps) if any(exps) else ""
        mag = abs(c)
        if mono:
            atom = f"({mono})" if " * " in mono else mono
            body = atom if mag == 1 else f"{mag} * {atom}"
        else:
            body = str(mag)
        if i == 0:
            out = f"-{body}" if c < 0 else body
        else:
            out += f" - {body}" if c < 0 else f" + {body}"
    return out


def _expr_text(expr: sympy.Expr, names: tuple[str, ...]) -> str:
    """A size argument's expression: as a Lean polynomial when it is one, else sympy's text."""
    try:
        return render_poly(expr, names)
    except (InstanceError, sympy.PolynomialError, TypeError):
        return _doc(str(expr))


@dataclass(frozen=True, slots=True)
class Discharge:
    """How ``narrowing_side`` closes one side condition: the product facts added before it, and the
    nonnegative multipliers of the guards found by the emitter's linear-program check."""

    hints: tuple[tuple[int, ...], ...]  # exponent vectors over the symbols, in t = x - lb
    guard_multipliers: tuple[float, ...]


def plan_discharge(claim: sympy.Expr, inst: LeanInstance, where: str) -> Discharge:
    """Find a certificate ``p(lb+t) = Σ λ_j g_j(lb+t) + Σ c_m t^m`` with ``λ, c ≥ 0``, or refuse.

    Every monomial ``t^m`` is nonnegative because every ``t_i = x_i - lb_i ≥ 0``; the certificate is what
    ``grind``'s linear arithmetic needs once the degree->=2 monomial facts are in context."""
    names = inst.symbol_names()
    gens = [sympy.Symbol(n, integer=True) for n in names]
    ts = [sympy.Symbol(f"_t_{n}", integer=True) for n in names]
    shift = {g: s.lower + t for g, s, t in zip(gens, inst.symbols, ts)}

    def shifted(e: sympy.Expr) -> dict[tuple[int, ...], int]:
        e = e.subs({sympy.Symbol(n): g for n, g in zip(names, gens)}).subs(shift)
        poly = sympy.Poly(sympy.expand(e), *ts) if ts else sympy.Poly(sympy.expand(e), sympy.Symbol("_"))
        return {tuple(m): int(c) for m, c in poly.terms()}

    p = shifted(claim)
    gs = [shifted(g) for g in inst.guards]
    monos = sorted(set(p).union(*[set(g) for g in gs]) if gs else set(p))
    # Equality per monomial: p_m - Σ λ_j g_{j,m} = c_m >= 0  <=>  Σ λ_j g_{j,m} <= p_m.
    if gs:
        a_ub = np.array([[float(g.get(m, 0)) for g in gs] for m in monos])
        b_ub = np.array([float(p.get(m, 0)) for m in monos])
        res = linprog(np.ones(len(gs)), A_ub=a_ub, b_ub=b_ub, bounds=[(0, None)] * len(gs), method="highs")
        ok, lam = res.status == 0, tuple(round(float(x), 9) for x in (res.x if res.status == 0 else []))
    else:
        ok, lam = all(c >= 0 for c in p.values()), ()
    if not ok:
        worst = min(monos, key=lambda m: p.get(m, 0))
        raise InstanceError(
            f"{where}: side condition 0 <= {claim} has no certificate from the lower bounds and guards "
            f"(after x = lb + t the coefficient of {_monomial_text(names, worst) or '1'} cannot be made nonnegative); "
            "the checker must not have certified it: re-run `workbench check` and inspect this condition"
        )
    # Product facts: the nonlinear monomials of p and of the guards the certificate actually uses.
    used = set(p).union(*[set(g) for g, l in zip(gs, lam) if l > 1e-9]) if gs else set(p)
    hints = tuple(m for m in monos if sum(m) >= 2 and m in used)
    return Discharge(hints, lam)


def render_expr(expr: sympy.Expr, names: tuple[str, ...]) -> str:
    """Lean text of a polynomial plus constant multiples of ``floor(P / c)`` (rendered ``(P) / c``: Lean's
    ``/`` on ``Int`` is Euclidean, which is the floor for ``c > 0``)."""
    expr = sympy.expand(expr)
    floors = sorted(expr.atoms(sympy.floor), key=str)
    if not floors:
        return render_poly(expr, names)
    dummies = [sympy.Dummy(f"f{i}") for i in range(len(floors))]
    e = sympy.expand(expr.subs(dict(zip(floors, dummies))))
    base = sympy.expand(e.subs({d: 0 for d in dummies}))
    out = render_poly(base, names) if base != 0 else ""
    for f, d in zip(floors, dummies):
        coeff = e.coeff(d)
        if not (coeff.is_number and coeff.is_integer):
            raise InstanceError(f"{expr}: floor term {f} has coefficient {coeff}; only integer multiples are rendered")
        arg = f.args[0]
        gens = sorted(arg.free_symbols, key=str)
        den = math.lcm(*[int(sympy.fraction(c)[1]) for c in sympy.Poly(arg, *gens).coeffs()]) if gens else 1
        # Parenthesised whole: Lean parses `-a / 2` as `(-a) / 2`, which is not `-(a / 2)`.
        text = f"(({render_poly(sympy.expand(arg * den), names)}) / {den})"
        c = int(coeff)
        body = text if abs(c) == 1 else f"{abs(c)} * ({text})"
        out = (f"-{body}" if c < 0 else body) if not out else out + (f" - {body}" if c < 0 else f" + {body}")
    return out


def _hint_lines(exps: tuple[int, ...], names: tuple[str, ...], lower: dict[str, int], k: int) -> str:
    """One product fact ``0 ≤ ∏ (x - lb)``, expanded by ``shift_mul2``/``shift_mul3`` of Narrowing/Interval.lean
    so that ``omega`` reads each monomial as one atom; higher degrees by ``Int.mul_nonneg`` (closed by
    ``grind`` then)."""
    factors = [n for n, e in zip(names, exps) for _ in range(e)]
    if len(factors) in (2, 3):
        args = " ".join(f"h_{n}" for n in factors)
        return f"  have m{k} := shift_mul{len(factors)} {args}"
    proof = "Int.mul_nonneg (by omega) (by omega)"
    for _ in range(len(factors) - 2):
        proof = f"Int.mul_nonneg ({proof}) (by omega)"
    return f"  have m{k} : 0 ≤ {_monomial_text(names, exps, lower)} := {proof}"


def relax_floors(claim: sympy.Expr) -> sympy.Expr:
    """A polynomial lower bound of ``claim`` (each ``floor(P/c)`` by ``(P - c + 1)/c`` or ``P/c`` by the
    sign of its constant coefficient), scaled to integer coefficients: what the product facts and the
    guards must certify; ``omega`` knows the exact floor facts, so the relaxation is implied in Lean."""
    floors = sorted(claim.atoms(sympy.floor), key=str)
    if not floors:
        return claim
    dummies = [sympy.Dummy(f"f{i}") for i in range(len(floors))]
    e = sympy.expand(claim.subs(dict(zip(floors, dummies))))
    out = e
    for f, dmy in zip(floors, dummies):
        coeff = sympy.expand(e).coeff(dmy)
        if not coeff.is_number or coeff.free_symbols or sympy.expand(e).coeff(dmy, 2) != 0:
            raise UnsupportedError(f"side condition 0 <= {claim}: {f} has a non-constant coefficient")
        arg = f.args[0]
        den = math.lcm(*[int(sympy.fraction(c)[1]) for c in sympy.Poly(arg, *sorted(arg.free_symbols, key=str)).coeffs()]) \
            if arg.free_symbols else 1
        low = arg - sympy.Rational(den - 1, den)
        out = out.subs(dmy, low if coeff > 0 else arg)
    out = sympy.expand(out)
    dens = [int(sympy.fraction(c)[1]) for c in sympy.Poly(out, *sorted(out.free_symbols, key=str)).coeffs()] if out.free_symbols else [1]
    return sympy.expand(out * math.lcm(*dens))


def side_plan(claim: sympy.Expr, inst: LeanInstance, where: str) -> Discharge:
    """The discharge plan of a side condition: floors relaxed to a polynomial (``relax_floors``).
    Plans are memoised by content (the claim, the symbols with their bounds, the guards), never by identity."""
    key = (str(sympy.expand(claim)), tuple((s.name, s.lower) for s in inst.symbols), tuple(str(g) for g in inst.guards))
    got = _PLANS.get(key)
    if got is None:
        try:
            got = plan_discharge(relax_floors(claim), inst, where)
        except InstanceError as exc:
            got = str(exc)[len(where):]  # plan_discharge's messages start with `where`; keep the rest
        if len(_PLANS) > 20_000:
            _PLANS.clear()
        _PLANS[key] = got
    if isinstance(got, str):
        raise InstanceError(where + got)
    return got


_PLANS: dict[tuple, Discharge | str] = {}  # a plan, or the refusal's message after its `where`
