"""The derivation's bookkeeping: scopes of tactic lines, interval facts, side conditions, and ``Expr.ty``
(stage: prove; pure data, no Lean).

A ``Scope`` is a block of tactic lines with the mask atoms and facts known there; a ``Fact`` is a
``have name : Bounded … lo hi`` already written in some scope; a ``Side`` is one side condition ``0 ≤ claim``.
``_ty`` is ``Narrowing.Expr.ty`` (``lean/Narrowing/Expr.lean``) in Python. Every rule mixin (``agreement``,
``indirect``, ``branches``) and both derivations (``derive``, ``rderive``) build on this module; it imports
none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from workbench.errors import UnsupportedError
from workbench.lean.terms import Term, TermOp

IMAX = 2**31 - 1
POLY_TAC = "narrowing_poly"  # Narrowing/Tactic.lean: omega, then distribute products and omega, then grind


@dataclass(frozen=True, slots=True)
class Fact:
    """A ``have name : Bounded σ L term lo hi`` already emitted in some scope."""

    name: str
    lo: sympy.Expr
    hi: sympy.Expr


@dataclass
class Scope:
    """A block of tactic lines with the mask atoms known to hold there."""

    indent: str
    parent: Scope | None = None
    # (comparison atom known to hold, Lean term proving its inequality: `Expr.lt_of_cmp_ne_zero hk3`, or for a
    # comparison known false, the opposite atom with `Expr.ge_of_cmp_lt_not_ne_zero hu4`: branches.py)
    atoms: tuple[tuple[Term, str], ...] = ()
    own: tuple[Term, ...] = ()  # atoms added by this scope (not by its parents)
    facts: dict = field(default_factory=dict)
    lines: list = field(default_factory=list)
    known: tuple[tuple[Term, str], ...] = ()  # masks known set here: (mask, hypothesis `mask.eval … ≠ 0`)

    def child(self, extra: str = "  ") -> Scope:
        return Scope(self.indent + extra, self, self.atoms, known=self.known)

    def w(self, text: str) -> None:
        self.lines.append(self.indent + text)

    def bullet(self, child: Scope) -> None:
        """Append ``child``'s lines as one ``·`` block (its first line carries the bullet)."""
        first, *rest = child.lines
        self.lines.append(self.indent + "· " + first[len(child.indent):])
        self.lines.extend(rest)


@dataclass(frozen=True, slots=True)
class Side:
    """One side condition ``0 ≤ claim`` and why the derivation needs it."""

    index: int
    claim: sympy.Expr
    reasons: tuple[str, ...]


def _strip(t: Term) -> Term:
    while t.op is TermOp.CAST:
        t = t.args[0]
    return t


def _subterms(t: Term):
    yield t
    for a in t.args:
        yield from _subterms(a)


def _ty(t: Term, narrowed: frozenset[int] | None) -> str:
    """``Expr.ty``: ``narrowed`` is None for the wide kernel, else the size arguments declared int32."""
    match t.op:
        case TermOp.PROGRAM_ID | TermOp.NUM_PROGRAMS | TermOp.ARANGE | TermOp.LOOP_OFFSET:
            return "i32"
        case TermOp.BLOCK | TermOp.WEAK:
            return "weak"
        case TermOp.SIZE:
            return "i32" if narrowed is not None and t.value in narrowed else t.ty
        case TermOp.STRONG | TermOp.CAST | TermOp.LOAD | TermOp.FCONV:
            return t.ty
        case TermOp.ASSUME | TermOp.ABS:
            return _ty(t.args[0], narrowed)
        case TermOp.ADD | TermOp.SUB | TermOp.MUL | TermOp.FLOORDIV | TermOp.MOD:
            return _promote(_ty(t.args[0], narrowed), _ty(t.args[1], narrowed))
        case TermOp.WHERE:
            return _promote(_ty(t.args[1], narrowed), _ty(t.args[2], narrowed))
        case TermOp.LT | TermOp.LE | TermOp.GT | TermOp.GE | TermOp.EQ | TermOp.NE | TermOp.AND | TermOp.OR:
            return "i1"
    raise UnsupportedError(f"no type rule for {t.op}")  # pragma: no cover - every op is matched


def _promote(a: str, b: str) -> str:
    if a == "weak":
        return b
    if b == "weak":
        return a
    for t in ("i64", "i32"):
        if t in (a, b):
            return t
    return "i1"
