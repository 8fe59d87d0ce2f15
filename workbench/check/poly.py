"""Polynomials over shape symbols with exact rational coefficients: the language of bounds and side conditions.

Stage: check. Interval bounds (``vmin``/``vmax``) and side conditions are polynomials in Inductor's shape
symbols (``s27``, ``s77``) and in auxiliary symbols that stand for non-polynomial atoms of the captured facts
(``floor(s27/2)``, ``Max(1, s27)``); see :mod:`workbench.check.premises`. Coefficients are
:class:`fractions.Fraction`, so a bound such as ``s27/2`` for ``s27 // 2`` is exact.

This is a small dedicated type rather than sympy because the checker builds thousands of them per corpus
run (sympy's ``expand`` costs about a millisecond each); sympy is used only to parse the captured text and to
print. Limits: no division by polynomials, no negative exponents.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from fractions import Fraction

Monomial = tuple[tuple[str, int], ...]  # sorted (symbol, exponent) pairs; () is the constant monomial

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


def _mono_mul(a: Monomial, b: Monomial) -> Monomial:
    if not a:
        return b
    if not b:
        return a
    d = dict(a)
    for s, e in b:
        d[s] = d.get(s, 0) + e
    return tuple(sorted(d.items()))


class Poly:
    """An immutable polynomial ``sum(coeff * monomial)`` with Fraction coefficients (zero terms dropped)."""

    __slots__ = ("_terms", "_key", "_hash")

    def __init__(self, terms: Mapping[Monomial, Fraction | int] | None = None):
        self._terms = {m: c if type(c) is Fraction else Fraction(c) for m, c in (terms or {}).items() if c != 0}
        self._key = None  # sorted terms, computed on first comparison, hash or print
        self._hash = None

    @classmethod
    def _of(cls, terms: dict[Monomial, Fraction]) -> Poly:
        """Internal constructor: ``terms`` already has Fraction coefficients (zeros are dropped here)."""
        p = object.__new__(cls)
        p._terms = {m: c for m, c in terms.items() if c}
        p._key = None
        p._hash = None
        return p

    def _sorted(self) -> tuple:
        if self._key is None:
            self._key = tuple(sorted(self._terms.items()))
        return self._key

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def const(cls, c: int | Fraction) -> Poly:
        return cls({(): c})

    @classmethod
    def sym(cls, name: str) -> Poly:
        return cls({((name, 1),): 1})

    # -- views ---------------------------------------------------------------------------------------
    @property
    def terms(self) -> dict[Monomial, Fraction]:
        return dict(self._terms)

    def symbols(self) -> frozenset[str]:
        return frozenset(s for m in self._terms for s, _ in m)

    def is_const(self) -> bool:
        return all(m == () for m in self._terms)

    def const_value(self) -> Fraction:
        """The constant term (the value when every symbol is 0)."""
        return self._terms.get((), Fraction(0))

    def degree(self) -> int:
        return max((sum(e for _, e in m) for m in self._terms), default=0)

    # -- arithmetic ----------------------------------------------------------------------------------
    def __add__(self, other: Poly | int | Fraction) -> Poly:
        other = _lift(other)
        t = dict(self._terms)
        for m, c in other._terms.items():
            t[m] = t[m] + c if m in t else c
        return Poly._of(t)

    __radd__ = __add__

    def __neg__(self) -> Poly:
        return Poly._of({m: -c for m, c in self._terms.items()})

    def __sub__(self, other: Poly | int | Fraction) -> Poly:
        return self + (-_lift(other))

    def __rsub__(self, other: Poly | int | Fraction) -> Poly:
        return _lift(other) - self

    def __mul__(self, other: Poly | int | Fraction) -> Poly:
        other = _lift(other)
        t: dict[Monomial, Fraction] = {}
        for m1, c1 in self._terms.items():
            for m2, c2 in other._terms.items():
                m = _mono_mul(m1, m2)
                t[m] = t[m] + c1 * c2 if m in t else c1 * c2
        return Poly._of(t)

    __rmul__ = __mul__

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (int, Fraction)):
            other = Poly.const(other)
        if not isinstance(other, Poly):
            return False
        if self._terms.keys() != other._terms.keys():
            return False
        return self._terms == other._terms

    def __hash__(self) -> int:
        if self._hash is None:  # immutable: hashed once (polynomials key every cache of the checker)
            self._hash = hash(self._sorted())
        return self._hash

    def substitute(self, values: Mapping[str, Poly]) -> Poly:
        """Replace symbols by polynomials (symbols not in ``values`` stay)."""
        out = Poly()
        for m, c in self._terms.items():
            term = Poly.const(c)
            for s, e in m:
                base = values.get(s, Poly.sym(s))
                for _ in range(e):
                    term = term * base
            out = out + term
        return out

    def shift(self, lower: Mapping[str, int | Fraction]) -> Poly:
        """``p(L + t)``: each symbol ``s`` replaced by ``lower[s] + s`` (the new ``s`` ranges over ``t >= 0``),
        expanded by the binomial theorem: ``(L + s)**e = sum_k C(e, k) L**(e-k) s**k``, one monomial at a time
        (the same polynomial as :meth:`substitute`, without building intermediate polynomials). With integer
        lower bounds the expansion is done in integers over the coefficients' common denominator."""
        if any(type(lower[s]) is not int for s in self.symbols() if s in lower):
            return self.substitute({s: Poly.sym(s) + lower[s] for s in self.symbols() if s in lower})
        den = 1
        for c in self._terms.values():
            den = den * c.denominator // math.gcd(den, c.denominator)
        out: dict[Monomial, int] = {}
        for m, c in self._terms.items():
            parts: dict[Monomial, int] = {(): c.numerator * (den // c.denominator)}  # this monomial, times den
            for s, e in m:
                low = lower.get(s)
                if not low:
                    parts = {_mono_mul(pm, ((s, e),)): pc for pm, pc in parts.items()}
                    continue
                nxt: dict[Monomial, int] = {}
                for k in range(e + 1):
                    w = math.comb(e, k) * low ** (e - k)
                    for pm, pc in parts.items():
                        nm = _mono_mul(pm, ((s, k),)) if k else pm
                        nxt[nm] = nxt.get(nm, 0) + pc * w
                parts = nxt
            for pm, pc in parts.items():
                out[pm] = out.get(pm, 0) + pc
        return Poly._of({pm: Fraction(v, den) for pm, v in out.items() if v})

    def evaluate(self, values: Mapping[str, int | Fraction]) -> Fraction:
        total = Fraction(0)
        for m, c in self._terms.items():
            v = c
            for s, e in m:
                v *= Fraction(values[s]) ** e
            total += v
        return total

    def divide_exact(self, d: Poly) -> Poly | None:
        """``self / d`` when ``d`` divides ``self`` exactly, else ``None`` (multivariate division by leading
        terms in graded-lex order, a monomial order, so an exact quotient is always found)."""
        if not d._terms:
            return None
        syms = sorted(self.symbols() | d.symbols())

        def key(m: Monomial):
            md = dict(m)
            return (sum(md.values()), tuple(md.get(s, 0) for s in syms))

        lead = max(d._terms, key=key)
        lc = d._terms[lead]
        rem, quo = self, Poly()
        for _ in range(4 * (len(self._terms) + 4)):
            if not rem._terms:
                return quo
            m = max(rem._terms, key=key)
            q = _mono_div(m, lead)
            if q is None:
                return None
            step = Poly({q: rem._terms[m] / lc})
            quo = quo + step
            rem = rem - step * d
        return None

    # -- printing ------------------------------------------------------------------------------------
    def __str__(self) -> str:
        if not self._terms:
            return "0"
        parts = []
        for m, c in sorted(self._terms.items(), key=lambda mc: (-sum(e for _, e in mc[0]), mc[0])):
            mono = "*".join(s if e == 1 else f"{s}**{e}" for s, e in m)
            if not mono:
                parts.append(_fmt(c))
            elif c == 1:
                parts.append(mono)
            elif c == -1:
                parts.append("-" + mono)
            else:
                parts.append(f"{_fmt(c)}*{mono}")
        text = " + ".join(parts)
        return text.replace("+ -", "- ")

    def __repr__(self) -> str:
        return f"Poly({str(self)!r})"

    def to_sympy(self):
        """The polynomial as a sympy expression, built term by term (no text is parsed)."""
        import sympy

        total = sympy.Integer(0)
        for m, c in self._sorted():
            term = sympy.Rational(c.numerator, c.denominator)
            for sym, e in m:
                term = term * sympy.Symbol(sym) ** e
            total = total + term
        return total

    def to_z3(self, env: Mapping[str, object], ctx=None):
        """A z3 integer/real term (``env`` maps symbol names to z3 Int constants of context ``ctx``, the
        default context when None). Rational coefficients are kept exact by scaling: callers compare
        ``den * p`` against 0, see :meth:`scaled_integral`."""
        import z3

        total = z3.IntVal(0, ctx)
        for m, c in self._sorted():
            assert c.denominator == 1, "scale to integer coefficients before z3 (scaled_integral)"
            term = z3.IntVal(int(c), ctx)
            for s, e in m:
                for _ in range(e):
                    term = term * env[s]
            total = total + term
        return total

    def scaled_integral(self) -> Poly:
        """A positive multiple of ``self`` with integer coefficients (same sign everywhere)."""
        import math

        den = 1
        for c in self._terms.values():
            den = den * c.denominator // math.gcd(den, c.denominator)
        return self * den


def _mono_div(m: Monomial, d: Monomial) -> Monomial | None:
    md = dict(m)
    for s, e in d:
        if md.get(s, 0) < e:
            return None
        md[s] -= e
    return tuple(sorted((s, e) for s, e in md.items() if e))


def _fmt(c: Fraction) -> str:
    return str(c.numerator) if c.denominator == 1 else f"({c.numerator}/{c.denominator})"


def _lift(x: Poly | int | Fraction) -> Poly:
    if isinstance(x, Poly):
        return x
    return Poly.const(x)


def nonneg_after_shift(p: Poly, lower: Mapping[str, int | Fraction]) -> bool:
    """The cheap exact test: with every symbol ``s >= lower[s]``, substitute ``s = lower[s] + t`` and require
    every coefficient of the result to be ``>= 0`` (then ``p >= 0`` for all ``t >= 0``, reals included).
    Symbols without a lower bound make the test fail unless they do not occur."""
    if any(s not in lower for s in p.symbols()):
        return False
    return all(c >= 0 for c in p.shift(lower).terms.values())


def poly_sum(items: Iterable[Poly]) -> Poly:
    out = Poly()
    for p in items:
        out = out + p
    return out
