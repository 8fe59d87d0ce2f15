"""Exact integer evaluation of a record's symbolic facts (guards, numels, size-argument expressions).

Stage: oracle. Text is parsed by the shared restricted parser (:mod:`workbench.symexpr`, never evaluated as
Python); the resulting tree is compiled here, node by node, into a closure over a shape (symbol -> int) that
computes with Python integers and ``fractions.Fraction`` — exact, no floating point, no sympy evaluation, and
no code shared with the checker. ``a // b`` arrives as ``floor(a/b)`` and ``a % b`` as ``Mod(a, b)`` (Python's
floor semantics, as the parser documents).

Limits: only the node kinds the parser can build are compiled (numbers, symbols, ``+ * **``, ``floor``,
``ceiling``, ``Min``, ``Max``, ``Mod``, ``Abs``, comparisons, ``Eq``/``Ne``, and/or/not); anything else is
an input error naming the text. Division by zero while evaluating makes the fact false/undefined at that
shape (:class:`Undefined`), which the shape search treats as "not a valid shape".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Mapping

import sympy

from workbench.oracle.source import OracleInputError
from workbench.symexpr import parse_any, parse_relation

Shape = Mapping[str, int]
Num = int | Fraction


class Undefined(ArithmeticError):
    """The fact has no value at this shape (a division by zero)."""


def _norm(v: Num) -> Num:
    # Keep integers as ``int``: Fraction arithmetic is ~20x slower and most intermediate values are integral.
    if isinstance(v, Fraction) and v.denominator == 1:
        return v.numerator
    return v


def _div_floor(a: Num, b: Num) -> int:
    if b == 0:
        raise Undefined("division by zero")
    return math.floor(Fraction(a) / Fraction(b))


def _ratio(node, c) -> Callable[[Shape], tuple[Num, Num]]:
    """The value of ``node`` as (numerator, denominator) built from integer arithmetic only: sums and products
    of rational constants, ``x**-1`` factors and integer-valued subterms (how the parser spells ``a // b``
    and ``(s + 1)//2``). Exact, and far faster than Fractions."""
    if isinstance(node, sympy.Rational):
        p, q = int(node.p), int(node.q)
        return lambda s: (p, q)
    if isinstance(node, sympy.Pow) and node.args[1] == -1:
        inner = _ratio(node.args[0], c)

        def inverse(s: Shape) -> tuple[Num, Num]:
            n, d = inner(s)
            return d, n
        return inverse
    if isinstance(node, sympy.Mul):
        parts = [_ratio(a, c) for a in node.args]

        def product(s: Shape) -> tuple[Num, Num]:
            n, d = 1, 1
            for f in parts:
                a, b = f(s)
                n, d = n * a, d * b
            return n, d
        return product
    if isinstance(node, sympy.Add):
        parts = [_ratio(a, c) for a in node.args]

        def total(s: Shape) -> tuple[Num, Num]:
            n, d = 0, 1
            for f in parts:
                a, b = f(s)
                n, d = (n * b + a * d, d * b) if b != d else (n + a, d)
            return n, d
        return total
    value = c(node)
    return lambda s: (value(s), 1)


def _quotient(arg, floor: bool, c) -> Callable[[Shape], object]:
    """``floor``/``ceiling`` of ``arg`` as numerator // denominator (see :func:`_ratio`)."""
    ratio = _ratio(arg, c)

    def quotient(s: Shape) -> Num:
        n, d = ratio(s)
        if d == 0:
            raise Undefined("division by zero")
        if isinstance(n, int) and isinstance(d, int):
            return n // d if floor else -(-n // d)
        q = Fraction(n) / Fraction(d)
        return math.floor(q) if floor else math.ceil(q)
    return quotient


def _compile(node, text: str, where: str) -> Callable[[Shape], object]:
    c = lambda n: _compile(n, text, where)  # noqa: E731
    if node is sympy.true or node is sympy.false:
        value = bool(node)
        return lambda s: value
    if isinstance(node, sympy.Integer):
        iv = int(node)
        return lambda s: iv
    if isinstance(node, sympy.Rational):
        fv = Fraction(int(node.p), int(node.q))
        return lambda s: fv
    if isinstance(node, sympy.Symbol):
        name = node.name

        def symbol(s: Shape) -> int:
            if name not in s:
                raise OracleInputError(f"{where}: {text!r} uses symbol {name!r}, which the record does not list "
                                       "among its symbols; re-capture the kernel")
            return s[name]
        return symbol
    args = [c(a) for a in node.args]
    match node.func:
        case sympy.Add:
            return lambda s: _norm(sum((f(s) for f in args), 0))
        case sympy.Mul:
            coeff, rest = node.as_coeff_Mul()  # the numeric factor, folded once
            const = Fraction(int(coeff.p), int(coeff.q)) if isinstance(coeff, sympy.Rational) else None
            factors = [c(a) for a in sympy.Mul.make_args(rest)] if const is not None else args
            const = _norm(const) if const is not None else 1

            def mul(s: Shape) -> Num:
                out: Num = const
                for f in factors:
                    out *= f(s)
                return _norm(out)
            return mul
        case sympy.Pow:
            base, exp = args
            if not isinstance(node.args[1], sympy.Integer):
                raise OracleInputError(f"{where}: {text!r} has a non-integer exponent; fix the record")

            def power(s: Shape) -> Num:
                b, e = base(s), exp(s)
                if b == 0 and e < 0:
                    raise Undefined("0 to a negative power")
                return _norm(Fraction(b) ** e) if e < 0 else b**e
            return power
        case sympy.floor | sympy.ceiling:
            return _quotient(node.args[0], node.func is sympy.floor, c)
        case sympy.Abs:
            return lambda s: abs(args[0](s))
        case sympy.Min:
            return lambda s: min(f(s) for f in args)
        case sympy.Max:
            return lambda s: max(f(s) for f in args)
        case sympy.Mod:
            a, b = args

            def mod(s: Shape) -> Num:
                x, y = a(s), b(s)
                return _norm(x - y * _div_floor(x, y))
            return mod
        case sympy.LessThan:
            return lambda s: args[0](s) <= args[1](s)
        case sympy.StrictLessThan:
            return lambda s: args[0](s) < args[1](s)
        case sympy.GreaterThan:
            return lambda s: args[0](s) >= args[1](s)
        case sympy.StrictGreaterThan:
            return lambda s: args[0](s) > args[1](s)
        case sympy.Equality:
            return lambda s: args[0](s) == args[1](s)
        case sympy.Unequality:
            return lambda s: args[0](s) != args[1](s)
        case sympy.And:
            return lambda s: all(f(s) for f in args)
        case sympy.Or:
            return lambda s: any(f(s) for f in args)
        case sympy.Not:
            return lambda s: not args[0](s)
        case _:
            raise OracleInputError(f"{where}: {text!r} contains {node.func.__name__}, which the oracle's evaluator "
                                   "does not model; fix the record or extend workbench/oracle/symbolic.py")


@dataclass(frozen=True, slots=True)
class Fact:
    """One symbolic fact: its text and its compiled evaluator."""

    text: str
    fn: Callable[[Shape], object]
    symbols: frozenset[str] = frozenset()

    def value(self, shape: Shape) -> int:
        """Integer value at ``shape`` (a size or numel); a non-integer is an input error."""
        try:
            v = self.fn(shape)
        except ZeroDivisionError:
            raise Undefined(f"{self.text}: division by zero") from None
        if isinstance(v, Fraction):
            if v.denominator != 1:
                raise OracleInputError(f"{self.text!r} is {v} at {dict(shape)}, not an integer; fix the record")
            v = v.numerator
        return int(v)  # type: ignore[arg-type]

    def number(self, shape: Shape) -> Fraction | int:
        """Exact value at ``shape``, integer or not (a guard's slack over atoms like ``s/3``)."""
        try:
            v = self.fn(shape)
        except ZeroDivisionError:
            raise Undefined(f"{self.text}: division by zero") from None
        return v if isinstance(v, Fraction) else int(v)  # type: ignore[arg-type]

    def holds(self, shape: Shape) -> bool:
        """Truth of a guard at ``shape``; undefined counts as false (the shape is not valid)."""
        try:
            return bool(self.fn(shape))
        except (Undefined, ZeroDivisionError):
            return False


def _fact(text: str, tree, where: str) -> Fact:
    return Fact(text, _compile(tree, text, where), frozenset(s.name for s in tree.free_symbols))


def expression(text: str, where: str) -> Fact:
    """A size or numel expression. (``parse_any`` plus our own check, so a bare symbol is an expression
    whichever ``symexpr`` version is installed: a sympy ``Symbol`` is also a ``Boolean``, which an early
    ``parse_expr`` mistook for a comparison.)"""
    tree = parse_any(text, where)
    if isinstance(tree, (sympy.core.relational.Relational, sympy.logic.boolalg.BooleanAtom)) or (
            isinstance(tree, sympy.logic.boolalg.BooleanFunction)):
        raise OracleInputError(f"{where}: {text!r} is a comparison where a size expression was expected; "
                               "fix the record")
    return _fact(text, tree, where)


def relation(text: str, where: str) -> Fact:
    """A guard."""
    return _fact(text, parse_relation(text, where), where)


def slack(text: str, where: str) -> Fact | None:
    """For an inequality guard, the integer ``rhs - lhs`` oriented so that the guard holds iff it is >= 0
    (``a < b`` gives ``b - a - 1``); ``None`` for ``Eq``/``Ne`` and folded guards. Zero means the guard is tight.
    Over atoms that need not be integers (``Max(1, s/3)``) the slack is a fraction (read it with
    :meth:`Fact.number`; ``- 1`` then only ranks shapes, it is no longer the exact gap)."""
    rel = parse_relation(text, where)
    match rel.func:
        case sympy.LessThan:
            diff = rel.rhs - rel.lhs
        case sympy.StrictLessThan:
            diff = rel.rhs - rel.lhs - 1
        case sympy.GreaterThan:
            diff = rel.lhs - rel.rhs
        case sympy.StrictGreaterThan:
            diff = rel.lhs - rel.rhs - 1
        case _:
            return None
    return _fact(f"slack of {text}", diff, where)
