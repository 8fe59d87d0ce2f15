"""Derive ``Kernel.Safe`` node by node: the Lean proof text of an instance's ``kernel_safe`` (stage: prove).

For one ``LeanInstance`` this module writes the tactic proof of

    kernel_safe : ∀ s, Bounds s → Guards s → ∀ L, LaneOK L → SizesAt s L → kernel.Safe L

as a sequence of applications of the interval lemmas proved once in ``lean/Narrowing/Interval.lean``
(``Bounded.add``, ``Bounded.floordiv`` with a quotient rule, ``Bounded.le_of_le`` with a mask atom, ...).
Each lemma computes a node's interval from its children's; every premise on an endpoint that is not plain
linear arithmetic becomes a *side condition* ``0 ≤ claim`` over the shape symbols (a polynomial, possibly
with ``/ c`` by a literal), proved as its own theorem ``side_k`` and cited by the step that needs it. So
the safety proof uses every ``side_k``, and deleting one breaks it.

The rules mirror the checker's (``workbench/check/checker.py``): launch indices ``[0, 2^31-1]`` from
``LaneOK``; size arguments are points; ``+ -`` and ``*`` by a point or of non-negative factors; ``//``
by the ``exact`` (point divisor dividing ``hi + 1``), ``const`` (literal divisor; ``literal`` when a symbol
pinned by the guards replaces each ``floor`` of its endpoints, so that products with the quotient stay
polynomials) or ``numerator`` rule;
``%`` by the ``divisor`` rule; casts keep the interval when it fits; a set mask atom ``a < b`` (``<=``,
``>``, ``>=``, also through ``.to(int32)`` of both sides) bounds ``a``. The rule at each node is picked
here by that order (the certificate's recorded choices are not read yet: any rule is sound, Lean checks
the premises). What this module cannot derive is refused by name (``UnsupportedError``) and the
instance is not emitted.

Nothing here runs Lean: the text is a proof only once ``lake build`` accepts it (docs/lean.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import sympy

from workbench.errors import UnsupportedError
from workbench.lean.agreement import _CMP_LEMMA, RINDEX, XINDEX, YINDEX, YINDEX_2D, AgreementRules
from workbench.lean.branches import BranchRules
from workbench.lean.indirect import IndirectRules
from workbench.lean.instance import LeanInstance, Term, TermOp, arange, assumes_in

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


class Derivation(AgreementRules, IndirectRules, BranchRules):
    """Builds the side conditions and the proof of ``kernel_safe`` for one instance."""

    def __init__(self, inst: LeanInstance, render, poly_text, side_args: str) -> None:
        self.inst = inst
        self.render = render  # Term -> Lean text (shared subterms by name)
        self.poly_text = poly_text  # sympy expr -> Lean text
        self.side_args = side_args  # "s27 s77 h_s27 h_s77 g0 g1"
        self.names = inst.symbol_names()
        self.syms = {n: sympy.Symbol(n, integer=True) for n in self.names}
        self.narrowed = frozenset(a.index for a in inst.size_args if a.narrowed)
        self.sizes = {a.index: a.expr.subs({sympy.Symbol(n): s for n, s in self.syms.items()}) for a in inst.size_args}
        self.sides: dict[str, Side] = {}
        self.counter = 0
        self.where = inst.kernel
        self.active: set[Term] = set()
        self.rules = dict(inst.rules)  # the certificate's quotient/remainder rule per division node
        self.splits = dict(inst.splits)  # the certificate's case splits: offset term -> uniform atoms to split on
        self.splitting: set[Term] = set()  # atoms split on along the current path
        self.rule_use: list[tuple[str | None, str]] = []  # (certificate's rule, rule applied) per node
        # The lane the current facts are about, its `LaneOK` proof, and (reduction kernels) its
        # `StepLaneOK` proof; `workbench.lean.rderive` moves them to the lanes of each reduction step.
        self.lane, self.lane_ok, self.step_ok = "L", "hL", None
        # The device_assert premises (``workbench.lean.indirect``): one hypothesis `a{i}` per assume node.
        from workbench.lean.emit import term_roots

        self.assumes = assumes_in(term_roots(inst))
        self.premises = {t: f"a{i}" for i, t in enumerate(self.assumes)}

    # -- side conditions -----------------------------------------------------------------------------------
    def need(self, claim: sympy.Expr, reason: str) -> str | None:
        """Register ``0 ≤ claim``; return the ``side_k ...`` term proving it, or None for a true constant."""
        claim = sympy.expand(claim)
        if claim.is_number:
            if claim < 0:
                raise UnsupportedError(f"{self.where}: {reason} needs 0 <= {claim}, which is false")
            return None
        key = str(claim)
        got = self.sides.get(key)
        if got is None:
            got = Side(len(self.sides), claim, (reason,))
        elif reason not in got.reasons:
            got = Side(got.index, got.claim, got.reasons + (reason,))
        self.sides[key] = got
        return f"side_{got.index} {self.side_args}"

    def close(self, lhs: sympy.Expr, rhs: sympy.Expr, reason: str, nonlinear: bool = False) -> str:
        """A Lean term proving ``lhs ≤ rhs`` from its side condition (or by arithmetic alone)."""
        ref = self.need(rhs - lhs, reason)
        tac = POLY_TAC if nonlinear else "omega"
        return f"(by have := {ref}; {tac})" if ref else f"(by {tac})"

    def fresh(self, prefix: str = "b") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def e(self, x: sympy.Expr) -> str:
        return f"({self.poly_text(sympy.expand(x))})"

    # -- types and wrapping -----------------------------------------------------------------------------
    def wrap_ok(self, tw: str, tn: str, lo: sympy.Expr, hi: sympy.Expr, reason: str) -> str:
        if tw == tn == "weak":
            return "WrapOK.weak"
        if tw == tn == "i64":
            return (f"(WrapOK.of_same64 {self.close(sympy.Integer(-(2**63)), lo, reason)} "
                    f"{self.close(hi, sympy.Integer(2**63 - 1), reason)})")
        if tw == tn == "i1":
            return f"(WrapOK.mask {self.close(sympy.Integer(0), lo, reason)} {self.close(hi, sympy.Integer(1), reason)})"
        if "i1" in (tw, tn):
            raise UnsupportedError(f"{self.where}: a mask used as an integer has no interval rule in Lean")
        return (f"(WrapOK.of_fits32 (by decide) (by decide) {self.close(sympy.Integer(-(2**31)), lo, reason)} "
                f"{self.close(hi, sympy.Integer(IMAX), reason)})")

    def types(self, t: Term) -> tuple[str, str]:
        return _ty(t, None), _ty(t, self.narrowed)

    # -- intervals ----------------------------------------------------------------------------------------
    def lookup(self, t: Term, scope: Scope) -> Fact | None:
        s: Scope | None = scope
        sub = set(_subterms(t))
        while s is not None:
            if t in s.facts:
                return s.facts[t]
            if any(_strip(side) in sub for atom in s.own for side in atom.args):
                return None  # this scope's atoms may refine t: derive it here
            s = s.parent
        return None

    def bounded(self, t: Term, scope: Scope) -> Fact:
        got = self.lookup(t, scope)
        if got is not None:
            return got
        if t in self.active:
            raise UnsupportedError(f"{self.where}: the mask atoms bound {self.render(t)[:80]} by itself")
        self.active.add(t)
        try:
            proof, lo, hi = self.rule(t, scope)
            name = self.fresh()
            scope.w(f"have {name} : Bounded kernel.sizeArgs {self.lane} {self.render(t)} {self.e(lo)} {self.e(hi)} :=")
            scope.w(f"  {proof}")
            fact = Fact(name, lo, hi)
            scope.facts[t] = fact
            fact = self.refine(t, fact, scope)
            scope.facts[t] = fact
        finally:
            self.active.discard(t)
        return fact

    def rule(self, t: Term, scope: Scope) -> tuple[str, sympy.Expr, sympy.Expr]:
        tw, tn = self.types(t)
        reason = f"intermediate fits {tn}: {self.render(t)[:70]}"
        if t == XINDEX:
            return f"Bounded.xindex {self.lane_ok}", sympy.Integer(0), sympy.Integer(IMAX)
        if t == YINDEX:
            return f"Bounded.yindex {self.lane_ok}", sympy.Integer(0), sympy.Integer(IMAX)
        if t == YINDEX_2D:
            return f"Bounded.yindex2d {self.lane_ok}", sympy.Integer(0), sympy.Integer(IMAX)
        if t == RINDEX or t.op is TermOp.LOOP_OFFSET or t == arange(2):
            if self.step_ok is None:
                raise UnsupportedError(f"{self.where}: {self.render(t)} outside a reduction step")
            static = getattr(self.inst.reduction, "static_block", None)
            if t == arange(2) and static is not None:  # R0_BLOCK fixed by the kernel: the premise hB
                return f"Bounded.rpos_block {self.step_ok} hB", sympy.Integer(0), sympy.Integer(static - 1)
            rule = "rindex" if t == RINDEX else "loopOffset" if t.op is TermOp.LOOP_OFFSET else "rpos"
            return f"Bounded.{rule} {self.step_ok}", sympy.Integer(0), sympy.Integer(IMAX)
        match t.op:
            case TermOp.WEAK:
                c = sympy.Integer(t.value)
                return f"(Bounded.weak ({t.value}))", c, c
            case TermOp.SIZE:
                if t.value not in self.sizes:
                    raise UnsupportedError(f"{self.where}: size argument {t.value} has no recorded expression")
                v = self.sizes[t.value]
                why = f"size argument {t.value} fits int32"
                return f"(Bounded.size z{t.value} {self.wrap_ok(t.ty, tn, v, v, why)})", v, v
            case TermOp.ADD | TermOp.SUB:
                fa, fb = self.bounded(t.args[0], scope), self.bounded(t.args[1], scope)
                if t.op is TermOp.ADD:
                    lo, hi, name = fa.lo + fb.lo, fa.hi + fb.hi, "add"
                else:
                    lo, hi, name = fa.lo - fb.hi, fa.hi - fb.lo, "sub"
                lo, hi = sympy.expand(lo), sympy.expand(hi)
                return (f"(Bounded.{name} {fa.name} {fb.name} {self.wrap_ok(tw, tn, lo, hi, reason)} (by omega) (by omega))",
                        lo, hi)
            case TermOp.MUL:
                return self.mul(t, scope, tw, tn, reason)
            case TermOp.FLOORDIV | TermOp.MOD:
                return self.divmod(t, scope, tw, tn, reason)
            case TermOp.STRONG:
                c = sympy.Integer(t.value)
                if t.ty == "i1" or not -(2**31) <= t.value <= IMAX:
                    raise UnsupportedError(f"{self.where}: constant {t.value} of type {t.ty} has no Lean interval rule")
                return "(Bounded.strong (by decide) (And.intro (by omega) (by omega)))", c, c
            case TermOp.LT | TermOp.LE | TermOp.GT | TermOp.GE | TermOp.EQ | TermOp.NE:
                fa, fb = self.bounded(t.args[0], scope), self.bounded(t.args[1], scope)
                decided = self.decide_cmp(t.op, fa, fb)
                if decided is not None:
                    return self.cmp_const(t, fa, fb, *decided)
                return f"(Bounded.cmp {fa.name}.agree {fb.name}.agree)", sympy.Integer(0), sympy.Integer(1)
            case TermOp.CAST:
                fa = self.bounded(t.args[0], scope)
                return f"(Bounded.cast {fa.name} {self.wrap_ok(t.ty, t.ty, fa.lo, fa.hi, reason)})", fa.lo, fa.hi
            case TermOp.ASSUME:
                return self.assume_rule(t, scope)
            case TermOp.LOAD:
                raise UnsupportedError(f"{self.where}: a loaded index {self.render(t)[:60]} has no interval (only an "
                                       "asserted one is bounded, by its device_assert premise)")
            case TermOp.WHERE:
                # A decided condition (the checker's DEAD_BRANCH): the live branch; else the hull (branches.py).
                return self.select_rule(t, scope, tw, tn, reason)
            case TermOp.ABS:
                return self.abs_rule(t, scope, tw, tn, reason)
            case TermOp.BLOCK:
                return self.block_rule(t)
            case TermOp.FCONV:
                raise UnsupportedError(f"{self.where}: the integer {self.render(t)[:60]} computed in floating point has "
                                       "no interval (only its agreement is derived; an assert may bound a value built "
                                       "from it)")
        raise UnsupportedError(f"{self.where}: no Lean interval rule for {t.op.value} in {self.render(t)[:80]}")

    def mul(self, t, scope, tw, tn, reason):
        fa, fb = self.bounded(t.args[0], scope), self.bounded(t.args[1], scope)
        floors = lambda x: bool(x.atoms(sympy.floor))  # noqa: E731 - a product with a floor is not a polynomial
        if fa.lo == fa.hi:
            p = fa.lo
            if p.is_number and p < 0:
                lo, hi = sympy.expand(p * fb.hi), sympy.expand(p * fb.lo)
                return (f"(Bounded.mul_npoint_left {fa.name} {fb.name} (by decide) {self.wrap_ok(tw, tn, lo, hi, reason)} "
                        f"(by omega) (by omega))", lo, hi)
            if not p.is_number and (floors(p) or floors(fb.lo) or floors(fb.hi)):
                raise UnsupportedError(f"{self.where}: product of {self.render(t)[:80]} involves a floor")
            lo, hi = sympy.expand(p * fb.lo), sympy.expand(p * fb.hi)
            nl = not p.is_number
            hp = self.close(sympy.Integer(0), p, "point factor >= 0")
            return (f"(Bounded.mul_point_left {fa.name} {fb.name} {hp} {self.wrap_ok(tw, tn, lo, hi, reason)} "
                    f"{self.close(lo, p * fb.lo, 'product expansion', nl)} {self.close(p * fb.hi, hi, 'product expansion', nl)})",
                    lo, hi)
        if fb.lo == fb.hi and (fb.lo.is_number and fb.lo >= 0 or not floors(fa.lo) and not floors(fa.hi) and not floors(fb.lo)):
            p = fb.lo
            lo, hi = sympy.expand(fa.lo * p), sympy.expand(fa.hi * p)
            nl = not p.is_number
            hp = self.close(sympy.Integer(0), p, "point factor >= 0")
            return (f"(Bounded.mul_point_right {fa.name} {fb.name} {hp} {self.wrap_ok(tw, tn, lo, hi, reason)} "
                    f"{self.close(lo, fa.lo * p, 'product expansion', nl)} {self.close(fa.hi * p, hi, 'product expansion', nl)})",
                    lo, hi)
        if any(floors(x) for x in (fa.lo, fa.hi, fb.lo, fb.hi)):
            raise UnsupportedError(f"{self.where}: product of {self.render(t)[:80]} involves a floor")
        lo, hi = sympy.expand(fa.lo * fb.lo), sympy.expand(fa.hi * fb.hi)
        return (f"(Bounded.mul_nonneg {fa.name} {fb.name} {self.close(sympy.Integer(0), fa.lo, 'factor >= 0')} "
                f"{self.close(sympy.Integer(0), fb.lo, 'factor >= 0')} {self.wrap_ok(tw, tn, lo, hi, reason)} "
                f"{self.close(lo, fa.lo * fb.lo, 'product expansion', True)} {self.close(fa.hi * fb.hi, hi, 'product expansion', True)})",
                lo, hi)

    def divmod(self, t, scope, tw, tn, reason):
        """``//`` and ``%``: the certificate's rule for this node first (``inst.rules``), then the others."""
        x, d = t.args
        fx, fd = self.bounded(x, scope), self.bounded(d, scope)
        hx0 = self.close(sympy.Integer(0), fx.lo, "dividend >= 0")
        hd1 = self.close(sympy.Integer(1), fd.lo, "divisor >= 1")
        want = self.rules.get(t)
        if t.op is TermOp.MOD:
            order = ["divisor", "numerator"]
        else:
            order = ["exact", "const", "numerator"]
        if want in order:
            order.remove(want)
            order.insert(0, want)
        for rule in order:
            got = self.rem_rule(rule, fx, fd, hx0, hd1) if t.op is TermOp.MOD else self.quot_rule(rule, fx, fd, hx0, hd1)
            if got is None:
                continue
            rule_text, lo, hi = got
            self.rule_use.append((want, rule))
            name = "Bounded.mod" if t.op is TermOp.MOD else "Bounded.floordiv"
            return (f"({name} {fx.name} {fd.name} {hx0} {hd1} {rule_text} "
                    f"{self.wrap_ok(tw, tn, lo, hi, reason)} (by omega) (by omega))", lo, hi)
        raise UnsupportedError(f"{self.where}: no quotient rule applies to {self.render(t)[:80]}")  # pragma: no cover

    def rem_rule(self, rule, fx, fd, hx0, hd1):
        if rule == "divisor":
            return f"(Rem.divisor {hd1})", sympy.Integer(0), sympy.expand(fd.hi - 1)
        return f"(Rem.numerator {hx0} {hd1})", sympy.Integer(0), fx.hi

    def quot_rule(self, rule, fx, fd, hx0, hd1):
        point = fd.lo == fd.hi
        if rule == "const" and point and fd.lo.is_number:
            c = int(fd.lo)
            lo, hi = sympy.floor(fx.lo / c), sympy.floor(fx.hi / c)
            if lo.atoms(sympy.floor) or hi.atoms(sympy.floor):
                got = self.literal(c, fx, lo, hi)
                if got is not None:
                    return got
            return f"(Quot.const {c} (by decide))", lo, hi
        if rule == "exact" and point and not fx.hi.atoms(sympy.floor) and not fd.lo.atoms(sympy.floor) \
                and not fd.lo.is_number:
            q, r = sympy.div(sympy.Poly(fx.hi + 1, *self.syms.values()), sympy.Poly(fd.lo, *self.syms.values()))
            if r.is_zero and all(c.is_integer for c in q.coeffs()):
                qe = q.as_expr()
                hq = self.close(fx.hi + 1, qe * fd.lo, "exact quotient", True)
                return f"(Quot.exact {self.e(qe)} {hx0} {hd1} {hq})", sympy.Integer(0), sympy.expand(qe - 1)
            return None
        if rule == "numerator":
            return f"(Quot.numerator {hx0} {hd1})", sympy.Integer(0), fx.hi
        return None

    def literal(self, c: int, fx: Fact, lo: sympy.Expr, hi: sympy.Expr):
        """``Quot.literal``: the quotient by a literal ``c`` with each ``floor(A)`` of its endpoints replaced by
        a symbol that the lower bounds and guards pin to it (``q ≤ A < q + 1``, both with a certificate: the
        checker's auxiliary atom for ``floor(s27/2)``), so that the interval stays a polynomial and a product
        with it has a rule. None when some floor has no such symbol (``Quot.const`` keeps the floor)."""
        qlo, qhi = self.pin(lo), self.pin(hi)
        if qlo is None or qhi is None:
            return None
        claims = (sympy.expand(fx.lo - c * qlo), sympy.expand((qhi + 1) * c - 1 - fx.hi))
        if not all(self.plannable(x) for x in claims):
            return None
        hlo = self.close(c * qlo, fx.lo, "quotient's lower endpoint")
        hhi = self.close(fx.hi + 1, (qhi + 1) * c, "quotient's upper endpoint")
        return f"(Quot.literal {c} {self.e(qlo)} {self.e(qhi)} (by decide) {hlo} {hhi})", sympy.expand(qlo), sympy.expand(qhi)

    def pin(self, endpoint: sympy.Expr) -> sympy.Expr | None:
        """``endpoint`` with every ``floor(A)`` replaced by the first symbol ``q`` (by name) with certificates
        for ``q ≤ A`` and ``A ≤ q + 1 - 1/den`` (``den`` clears ``A``'s denominators), or None."""
        out = endpoint
        for f in sorted(endpoint.atoms(sympy.floor), key=str):
            arg = f.args[0]
            if arg.atoms(sympy.floor):
                return None
            den = sympy.fraction(sympy.together(arg))[1]
            if not den.is_number:
                return None
            for name in sorted(self.syms):
                q = self.syms[name]
                if self.plannable(sympy.expand(den * arg - den * q)) and \
                        self.plannable(sympy.expand(den * q + den - 1 - den * arg)):
                    out = out.subs(f, q)
                    break
            else:
                return None
        return sympy.expand(out)

    def plannable(self, claim: sympy.Expr) -> bool:
        """``0 ≤ claim`` is a true constant or has a certificate (``polytext.side_plan``)."""
        from workbench.errors import WorkbenchError
        from workbench.lean.emit import side_plan

        claim = sympy.expand(claim)
        if claim.is_number:
            return bool(claim >= 0)
        try:
            side_plan(claim, self.inst, f"{self.where} quotient")
        except WorkbenchError:
            return False
        return True

    def refine(self, t: Term, fact: Fact, scope: Scope) -> Fact:
        """Tighten ``t``'s interval by the comparison atoms known to hold in this scope (a constant is a point
        already: refining it would only put the other side's interval on it)."""
        if t.op in (TermOp.WEAK, TermOp.STRONG):
            return fact
        for atom, proof in scope.atoms:
            if atom.op not in _CMP_LEMMA:
                continue
            a, b = atom.args
            for side, other, upper in ((a, b, atom.op in (TermOp.LT, TermOp.LE)), (b, a, atom.op in (TermOp.GT, TermOp.GE))):
                if _strip(side) != t or t in set(_subterms(other)) or _strip(other) in self.active:
                    continue
                fo = self.bounded(other, scope)
                facts = [f"have h1 := {proof}", f"have h2 := {fo.name}.le" if upper else f"have h2 := {fo.name}.ge"]
                facts += self.cast_eqs(side, fact)
                strict = atom.op in (TermOp.LT, TermOp.GT)
                name = self.fresh()
                if upper:
                    new = sympy.expand(fo.hi - (1 if strict else 0))
                    scope.w(f"have {name} : Bounded kernel.sizeArgs {self.lane} {self.render(t)} {self.e(fact.lo)} {self.e(new)} :=")
                    scope.w(f"  {fact.name}.le_of_le (by {'; '.join(facts)}; omega)")
                    fact = Fact(name, fact.lo, new)
                else:
                    new = sympy.expand(fo.lo + (1 if strict else 0))
                    scope.w(f"have {name} : Bounded kernel.sizeArgs {self.lane} {self.render(t)} {self.e(new)} {self.e(fact.hi)} :=")
                    scope.w(f"  {fact.name}.ge_of_ge (by {'; '.join(facts)}; omega)")
                    fact = Fact(name, new, fact.hi)
        return fact

    def cast_eqs(self, side: Term, fact: Fact) -> list[str]:
        """``(.cast t a).eval = a.eval`` for each cast around the atom's side, innermost first (``fact``
        bounds the innermost ``a``; every cast keeps its interval)."""
        layers = []
        while side.op is TermOp.CAST:
            layers.append(side)
            side = side.args[0]
        out, cur = [], fact.name
        for layer in reversed(layers):
            wrap = self.wrap_ok(layer.ty, layer.ty, fact.lo, fact.hi, "cast in a mask atom fits")
            out.append(f"have := Bounded.cast_eval (t := .{layer.ty}) {cur} {wrap}")
            nxt = self.fresh("c")
            out.append(f"have {nxt} := Bounded.cast (t := .{layer.ty}) {cur} {wrap}")
            cur = nxt
        return out

    # -- the whole proof ----------------------------------------------------------------------------------
    def safe_proof(self) -> list[str]:
        """The tactic lines of ``kernel_safe`` after the premises are unpacked."""
        top = Scope("  ")
        inst = self.inst
        for i, ld in enumerate(inst.loads):
            s = top.child("  ")
            top.w(f"have A{i} : load{i}.Agree kernel.sizeArgs L := by")
            self.access(ld.mask, ld.offset, s)
            top.lines.extend(s.lines)
        fits = []
        for a in sorted(inst.size_args, key=lambda a: a.index):
            if a.narrowed:
                v = self.sizes[a.index]
                fits.append(f"(And.intro {self.close(sympy.Integer(-(2**31)), v, f'size argument {a.index} fits int32')} "
                            f"{self.close(v, sympy.Integer(IMAX), f'size argument {a.index} fits int32')})")
        chain = "True.intro"
        for f in reversed(fits):
            chain = f"(And.intro {f} {chain})"
        loads = "True.intro"
        for i in reversed(range(len(inst.loads))):
            loads = f"(And.intro A{i} {loads})"
        top.w("refine ⟨SizesFit.fits_of_mem (ns := kernel.sizeArgs) " + chain + ", Loads.agree_of_mem (ls := kernel.loads) "
              + loads + ", ?_, ?_, ?_⟩")
        st = inst.store
        s = top.child("  ")
        self.agree(st.mask, s)
        top.bullet(s)
        for part in ("offset", "value"):
            s = top.child("  ")
            hm = self.fresh("hm")
            s.w(f"intro {hm}")
            self.split(st.mask, hm, s)
            if part == "offset":
                self.agree(st.offset, s)
            else:
                self.agree_payload(st.value, s)
            top.bullet(s)
        return top.lines


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


__all__ = ["Derivation", "Side", "relax_floors", "XINDEX", "YINDEX"]
