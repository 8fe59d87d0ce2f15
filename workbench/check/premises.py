"""Premises: what the checker may assume about a kernel's sizes, read from the captured symbolic facts.

Stage: check. From a :class:`~workbench.capture.record.CapturedKernel` this builds

* each shape symbol's lower (and, if Inductor recorded one, upper) bound;
* each size argument's and element count's value as a :class:`~workbench.check.poly.Poly` in the symbols;
* *facts* ``f >= 0``: the guards that are polynomial inequalities or equalities (``2*s27*s77 <= 2**31-1``
  becomes ``2147483647 - 2*s27*s77 >= 0``), the symbols' upper bounds, and the defining inequalities of
  auxiliary symbols.

Non-polynomial atoms in the facts (``floor(s27/2)``, ``(s27+1)//2``, ``Max(1, s27)``, ``Mod(a, b)``) become
auxiliary symbols ``_a0, _a1, ...`` with their defining inequalities as facts (for ``f = floor(P/D)`` with
integer-coefficient ``P``: ``P - D*f >= 0`` and ``D*f - P + D - 1 >= 0``) and a lower bound when one follows
from the symbols' lower bounds. Guards the checker cannot use (``Ne``, atoms it does not model) are kept
verbatim and listed as unused: dropping a premise is always sound, it can only cost a certificate.

Example sizes are never premises (STYLE: Inductor's ``backed_var_to_val`` is not evidence).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import sympy

from workbench.capture.record import CapturedKernel
from workbench.check.errors import FactError
from workbench.check.poly import Poly


@dataclass(frozen=True, slots=True)
class Fact:
    """A premise ``poly >= 0``; ``origin`` says where it comes from (a guard's text, a bound, a definition)."""

    name: str
    poly: Poly
    origin: str


@dataclass(frozen=True, slots=True)
class Atom:
    """An auxiliary symbol standing for a non-polynomial atom of the facts."""

    name: str
    kind: str  # "floor" | "floordiv" | "max" | "min" | "mod" | "opaque"
    text: str  # the sympy text it stands for
    args: tuple[Poly, ...]  # floordiv: (numerator, divisor), both integer-valued polynomials
    denominator: int  # for floor: value = floor(args[0] / denominator); args[0] has integer coefficients
    # Its value is an integer at every integer point of the symbols: floor and floordiv always; Max, Min and
    # Mod when their arguments are integer-valued (integer coefficients, atoms that are integers); opaque never.
    integer: bool = True


@dataclass(frozen=True, slots=True)
class Premises:
    """Everything the checker assumes about one kernel's sizes (see module docstring)."""

    kernel: str
    lower: tuple[tuple[str, int], ...]  # shape symbols and auxiliary symbols with a known lower bound
    upper: tuple[tuple[str, int], ...]
    size_args: tuple[tuple[str, str, Poly, str], ...]  # (name, expr text, value, declared type)
    numels: tuple[tuple[str, str, Poly, str | None], ...]
    facts: tuple[Fact, ...]
    atoms: tuple[Atom, ...]
    guards: tuple[str, ...]  # every captured guard, verbatim
    unused_guards: tuple[str, ...]  # guards that gave no fact (and why)
    index_dtype: str
    grid_type: str

    @property
    def lower_map(self) -> dict[str, int]:
        return dict(self.lower)

    def size_value(self, name: str) -> Poly:
        for n, _, v, _ in self.size_args:
            if n == name:
                return v
        for n, _, v, _ in self.numels:
            if n == name:
                return v
        raise KeyError(name)

    def fact(self, name: str) -> Fact:
        for f in self.facts:
            if f.name == name:
                return f
        raise KeyError(name)

    def symbol_names(self) -> tuple[str, ...]:
        return tuple(sorted({s for s, _ in self.lower} | {a.name for a in self.atoms}))


class _AtomTable:
    def __init__(self, lower: dict[str, int]):
        self.lower = lower
        self.atoms: dict[tuple, Atom] = {}
        self.facts: list[Fact] = []
        self.polys: dict[sympy.Expr, Poly] = {}  # to_poly's memo (sympy expressions compare structurally)

    def _new(self, key, kind, text, args, den, facts, lo, integer: bool) -> Poly:
        if key in self.atoms:
            return Poly.sym(self.atoms[key].name)
        name = f"{AUX_PREFIX}{len(self.atoms)}"
        atom = Atom(name, kind, text, tuple(args), den, integer)
        self.atoms[key] = atom
        a = Poly.sym(name)
        for i, f in enumerate(facts(a)):
            self.facts.append(Fact(f"def:{name}:{i}", f, f"{name} = {text}"))
        if lo is not None:
            self.lower[name] = lo
        return a

    def opaque_names(self) -> set[str]:
        return {a.name for a in self.atoms.values() if a.kind == "opaque"}

    def nonint_names(self) -> set[str]:
        """Atoms that need not be integers (:attr:`Atom.integer`)."""
        return {a.name for a in self.atoms.values() if not a.integer}

    def integer_valued(self, p: Poly) -> bool:
        """``p`` is an integer at every integer point: integer coefficients and only atoms that are integers
        (``Max(1, s/3)`` has integer coefficients but is not an integer at ``s = 2``)."""
        return all(c.denominator == 1 for c in p.terms.values()) and not (p.symbols() & self.nonint_names())

    def floor(self, q: Poly, text: str) -> Poly:
        """``f = floor(q)``. With ``q = p/den`` (``p`` of integer coefficients): ``den*f <= p < den*f + den``.
        For an integer-valued ``p`` the strict side is ``den*f - p + den - 1 >= 0`` (and ``floor(p) = p`` when
        ``den == 1``); a ``p`` that mentions an atom that need not be an integer (``floor(Max(1, s/3))``) only
        gives ``den*f - p + den >= 0`` (dropping the strictness is sound, assuming integrality is not: red team
        ``red2-floor-of-nonint-max``)."""
        if q.symbols() & self.opaque_names():
            # floor of something not integer-valued polynomial: nothing known.
            return self._new(("opaque", text), "opaque", text, (), 1, lambda a: (), None, False)
        den = 1
        for c in q.terms.values():
            den = den * c.denominator // math.gcd(den, c.denominator)
        p = q * den
        if p.is_const():
            return Poly.const(math.floor(p.const_value() / den))
        exact = self.integer_valued(p)
        if den == 1 and exact:
            return p
        if ("floor", p, den) in self.atoms:
            return Poly.sym(self.atoms[("floor", p, den)].name)
        lo = None
        shifted = p.shift(self.lower)
        if p.symbols() <= set(self.lower) and all(c >= 0 for m, c in shifted.terms.items() if m):
            # p is monotone above its symbols' lower bounds: its least value is there
            lo = math.floor(shifted.const_value() / den)
        slack = den - 1 if exact else den
        return self._new(
            ("floor", p, den), "floor", text, (p,), den,
            lambda a: (p - a * den, a * den - p + slack), lo, True,
        )

    def floordiv(self, num: Poly, den: Poly, text: str) -> Poly:
        """``f = floor(num / den)`` for a divisor that is a polynomial in the symbols (``floor(16*s35/s21)``).

        For integers and ``den >= 1``: ``f <= num/den < f + 1`` iff ``den*f <= num <= den*f + den - 1``, the
        two defining facts (polynomial: the product ``den*f`` is a monomial term). They are given only when
        ``den >= 1`` follows from the symbols' constant lower bounds and both sides are integer-valued
        (integer coefficients, no atom that need not be an integer); otherwise the atom has no facts (any
        value is consistent with them, which is sound). Lower bound 0 when also ``num >= 0`` that way."""
        if (num.symbols() | den.symbols()) & self.nonint_names() or any(
                c.denominator != 1 for x in (num, den) for c in x.terms.values()):
            return self._new(("opaque", text), "opaque", text, (), 1, lambda a: (), None, False)
        lo_den, lo_num = _const_lower(den, self.lower), _const_lower(num, self.lower)
        positive = lo_den is not None and lo_den >= 1
        facts = (lambda f: (num - den * f, den * f - num + den - 1)) if positive else (lambda f: ())
        lo = 0 if positive and lo_num is not None and lo_num >= 0 else None
        return self._new(("floordiv", num, den), "floordiv", text, (num, den), 1, facts, lo, True)

    def max(self, args: list[Poly], text: str) -> Poly:
        if any(a.symbols() & self.opaque_names() for a in args):
            return self._new(("opaque", text), "opaque", text, (), 1, lambda a: (), None, False)
        integer = all(self.integer_valued(a) for a in args)
        los = [v for v in (_const_lower(a, self.lower) for a in args) if v is not None]
        lo = max(los) if los else None
        if lo is not None:  # round up only when the value is an integer (integer-valued arguments)
            lo = math.ceil(lo) if integer else math.floor(lo)
        key = ("max", tuple(sorted(args, key=str)))
        return self._new(key, "max", text, args, 1, lambda a: tuple(a - x for x in args), lo, integer)

    def min(self, args: list[Poly], text: str) -> Poly:
        """``m = Min(args)``: ``x - m >= 0`` for every argument (that it equals one of them is not needed for
        soundness: an upper bound by each is all the facts claim). A lower bound when every argument has one."""
        if any(a.symbols() & self.opaque_names() for a in args):
            return self._new(("opaque", text), "opaque", text, (), 1, lambda a: (), None, False)
        integer = all(self.integer_valued(a) for a in args)
        los = [_const_lower(a, self.lower) for a in args]
        lo = math.floor(min(los)) if los and all(v is not None for v in los) else None
        key = ("min", tuple(sorted(args, key=str)))
        return self._new(key, "min", text, args, 1, lambda a: tuple(x - a for x in args), lo, integer)

    def mod(self, a: Poly, b: Poly, text: str) -> Poly:
        if (a.symbols() | b.symbols()) & self.opaque_names():
            return self._new(("opaque", text), "opaque", text, (), 1, lambda r: (), None, False)
        # sympy's Mod(a, b) takes the divisor's sign: [0, b) for b >= 1, (b, 0] for b <= -1. Only a divisor
        # proved >= 1 (its constant lower bound) gives the facts and the lower bound 0; otherwise nothing. The
        # remainder is an integer, and at most b - 1, only for integer-valued a and b: Mod(s/2, 1) is 1/2 at
        # odd s, so there only r <= b holds (red team red2-mod-of-rational-args).
        lo = _const_lower(b, self.lower)
        positive = lo is not None and lo >= 1
        integer = self.integer_valued(a) and self.integer_valued(b)
        top = 1 if integer else 0
        facts = (lambda r: (r, b - top - r)) if positive else (lambda r: ())
        return self._new(("mod", a, b), "mod", text, (a, b), 1, facts, 0 if positive else None, integer)

    def opaque(self, expr: sympy.Expr) -> Poly:
        return self._new(("opaque", sympy.srepr(expr)), "opaque", str(expr), (), 1, lambda a: (), None, False)


def _const_lower(p: Poly, lower: dict[str, int]) -> Fraction | None:
    """A constant lower bound of ``p`` when it is monotone in the symbols' lower bounds, else ``None``."""
    if any(s not in lower for s in p.symbols()):
        return None
    sh = p.shift(lower)
    if all(c >= 0 for m, c in sh.terms.items() if m):
        return sh.const_value()
    return None


AUX_PREFIX = "_a"  # auxiliary atoms: a leading underscore, which no record symbol may use (capture.record)


def is_aux(name: str) -> bool:
    """An auxiliary atom's name (never a shape symbol: records are validated to use none of these)."""
    return name.startswith("_")


MAX_DEGREE = 64  # of a fact as a polynomial: expanding ((a+b)**64)**64 would take minutes


def _degree(e) -> int:
    """The degree ``e`` would have once expanded (an upper bound, from the tree alone: never expands)."""
    if e.is_Symbol:
        return 1
    if getattr(e, "is_Number", False) or not getattr(e, "args", ()):
        return 0
    if getattr(e, "is_Pow", False) and e.exp.is_Integer:
        return _degree(e.base) * abs(int(e.exp))
    if getattr(e, "is_Mul", False):
        return sum(_degree(a) for a in e.args)
    return max(_degree(a) for a in e.args)


@lru_cache(maxsize=16384)
def _parse_text(text: str) -> sympy.Expr:
    """The restricted parser's expression for ``text`` (a pure function of the text: the kernels of one graph
    share its guards, so each is parsed once, not once per kernel). A parse error is not cached."""
    from workbench.symexpr import parse_any

    return parse_any(text, where="symbolic fact")


def _parse_fact(text: str, where: str = "symbolic fact") -> sympy.Expr:
    """Parse symbolic text from a record with the restricted parser (never evaluated); symbols in the
    checker's reserved namespace are an input error."""
    from workbench.errors import WorkbenchError
    from workbench.symexpr import parse_any

    try:
        e = _parse_text(text)
    except WorkbenchError:
        parse_any(text, where=where)  # the same error, naming the place
        raise
    deg = _degree(e)
    if deg > MAX_DEGREE:
        raise FactError(f"{where}: symbolic fact {text!r} has degree {deg} (nested powers multiply their exponents); "
                        f"the checker reads facts of degree at most {MAX_DEGREE}, which Inductor's guards are; "
                        "re-capture the kernel")
    bad = sorted(str(x) for x in getattr(e, "free_symbols", ()) if is_aux(str(x)))
    if bad:
        raise FactError(f"{where}: symbolic fact {text!r} uses {', '.join(bad)}: names with a leading underscore are "
                        "reserved for the checker's auxiliary atoms; re-capture the kernel")
    return e


def to_poly(expr: sympy.Expr, table: _AtomTable) -> Poly:
    """Convert a sympy expression to a Poly, replacing non-polynomial atoms by auxiliary symbols (memoised per
    table: Inductor's guards repeat the same sub-expressions dozens of times)."""
    got = table.polys.get(expr)
    if got is None:
        got = table.polys[expr] = _to_poly(expr, table)
    return got


def _to_poly(expr: sympy.Expr, table: _AtomTable) -> Poly:
    if expr.is_Integer or expr.is_Rational:
        return Poly.const(Fraction(int(expr.p), int(expr.q)))
    if expr.is_Symbol:
        return Poly.sym(expr.name)
    if expr.is_Add:
        out = Poly()
        for a in expr.args:
            out = out + to_poly(a, table)
        return out
    if expr.is_Mul:
        out = Poly.const(1)
        for a in expr.args:
            out = out * to_poly(a, table)
        return out
    if expr.is_Pow and expr.exp.is_Integer and int(expr.exp) >= 0:
        base = to_poly(expr.base, table)
        out = Poly.const(1)
        for _ in range(int(expr.exp)):
            out = out * base
        return out
    if isinstance(expr, sympy.floor):
        num, den = sympy.fraction(sympy.together(expr.args[0]))
        if not den.is_number:  # a quotient by a polynomial in the symbols: floor(16*s35/s21)
            return table.floordiv(to_poly(sympy.expand(num), table), to_poly(sympy.expand(den), table), str(expr))
        return table.floor(to_poly(expr.args[0], table), str(expr))
    if isinstance(expr, sympy.Max):
        return table.max([to_poly(a, table) for a in expr.args], str(expr))
    if isinstance(expr, sympy.Min):
        return table.min([to_poly(a, table) for a in expr.args], str(expr))
    if isinstance(expr, sympy.Mod):
        return table.mod(to_poly(expr.args[0], table), to_poly(expr.args[1], table), str(expr))
    return table.opaque(expr)


def premises_of(kernel: CapturedKernel) -> Premises:
    """Build the premises of a captured kernel (see module docstring)."""
    lower = {s.name: int(s.lower) for s in kernel.symbols if s.lower is not None}
    upper = {s.name: int(s.upper) for s in kernel.symbols if s.upper is not None}
    table = _AtomTable(lower)
    size_args = tuple(
        (a.name, a.expr, to_poly(_parse_fact(a.expr, f"{kernel.name}: size argument {a.name}"), table), a.type)
        for a in kernel.size_args
    )
    numels = tuple((n.name, n.expr, to_poly(_parse_fact(n.expr, f"{kernel.name}: element count {n.name}"), table),
                    n.type) for n in kernel.numels)
    facts: list[Fact] = []
    unused: list[str] = []
    for i, g in enumerate(kernel.guards):
        rel = _parse_fact(g, f"{kernel.name}: guard {i}")  # text outside the restricted grammar is an input error naming it
        got = _guard_facts(rel, table)
        if got is None:
            unused.append(f"{g}  ({_unused_reason(rel)})")
            continue
        for j, p in enumerate(got):
            facts.append(Fact(f"guard:{i}" + (f":{j}" if len(got) > 1 else ""), p, g))
    for s, u in sorted(upper.items()):
        facts.append(Fact(f"upper:{s}", Poly.const(u) - Poly.sym(s), f"{s} <= {u}"))
    facts.extend(table.facts)
    return Premises(
        kernel=kernel.name,
        lower=tuple(sorted(lower.items())),
        upper=tuple(sorted(upper.items())),
        size_args=size_args,
        numels=numels,
        facts=tuple(facts),
        atoms=tuple(table.atoms.values()),
        guards=tuple(kernel.guards),
        unused_guards=tuple(unused),
        index_dtype=kernel.index_dtype,
        grid_type=kernel.grid_type,
    )


def _unused_reason(rel) -> str:
    from workbench.symexpr import float_outside_integers

    if float_outside_integers(rel):
        return "compares float values, whose rounding exact arithmetic does not model"
    if isinstance(rel, (sympy.Or, sympy.Not)):
        return "a disjunction or negation gives no inequality that always holds"
    return "not an inequality or equality of polynomials"


def _guard_facts(rel, table: _AtomTable) -> tuple[Poly, ...] | None:
    """The facts ``f >= 0`` a guard gives, or ``None`` when it gives none the checker can use. A conjunction
    (Inductor prints ``(a >= 1) & (b >= 1)``) gives every fact of each conjunct that gives any (each conjunct
    holds when the guard does); a disjunction or negation gives none; a comparison of float values (a decimal
    or ``ToFloat`` outside every integer-valued function) gives none."""
    from workbench.symexpr import float_outside_integers

    if rel is sympy.true or rel is True:
        return ()
    if isinstance(rel, sympy.And):
        parts = [_guard_facts(a, table) for a in rel.args]
        got = tuple(f for p in parts if p is not None for f in p)
        return got if got or all(p is not None for p in parts) else None
    if float_outside_integers(rel):
        return None
    if isinstance(rel, (sympy.Le, sympy.Lt, sympy.Ge, sympy.Gt)):
        lhs, rhs = to_poly(rel.lhs, table), to_poly(rel.rhs, table)
        if isinstance(rel, (sympy.Le, sympy.Ge)):
            return (rhs - lhs,) if isinstance(rel, sympy.Le) else (lhs - rhs,)
        d = (rhs - lhs) if isinstance(rel, sympy.Lt) else (lhs - rhs)  # the relation says d > 0
        if table.nonint_names() & d.symbols():
            return (d,)  # not integer-valued: only d >= 0 (implied by d > 0) is sound
        # Integers: d > 0 iff d - 1 >= 0, but only when d is integer-valued; with rational coefficients
        # (s/2 < 5) scale by the denominators' lcm first: D*d is an integer and D*d > 0 iff D*d - 1 >= 0.
        den = 1
        for c in d.terms.values():
            den = den * c.denominator // math.gcd(den, c.denominator)
        return (d * den - 1,)
    if isinstance(rel, sympy.Eq):
        lhs, rhs = to_poly(rel.lhs, table), to_poly(rel.rhs, table)
        return (lhs - rhs, rhs - lhs)
    return None
