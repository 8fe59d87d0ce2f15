"""Derive ``Kernel.Safe`` node by node: the Lean proof text of an instance's ``kernel_safe`` (stage: prove).

For one ``LeanInstance`` this module writes the tactic proof of

    kernel_safe : ∀ s, Bounds s → Guards s → ∀ L, LaneOK L → SizesAt s L → kernel.Safe L

as a sequence of applications of the interval lemmas stated once in ``lean/Narrowing/Interval.lean``
(``Bounded.add``, ``Bounded.floordiv`` with a quotient rule, ``Bounded.le_of_le`` with a mask atom, ...).
Each lemma computes a node's interval from its children's; every premise on an endpoint that is not plain
linear arithmetic becomes a *side condition* ``0 ≤ claim`` over the shape symbols (a polynomial, possibly
with ``/ c`` by a literal), stated as its own theorem ``side_k`` and cited by the step that needs it. So
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

import sympy

from workbench.errors import UnsupportedError
from workbench.lean.agreement import _CMP_LEMMA, RINDEX, XINDEX, YINDEX, YINDEX_2D, AgreementRules
from workbench.lean.branches import BranchRules
from workbench.lean.indirect import IndirectRules
from workbench.lean.instance import LeanInstance, Term, TermOp, arange, assumes_in
from workbench.lean.polytext import relax_floors  # noqa: F401 - re-exported
from workbench.lean.products import ProductRules
from workbench.lean.scope import IMAX, POLY_TAC, Fact, Scope, Side, _promote, _strip, _subterms, _ty  # noqa: F401 - re-exported

class Derivation(AgreementRules, IndirectRules, BranchRules, ProductRules):
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
        from workbench.lean.render import term_roots

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


__all__ = ["Derivation", "Side", "relax_floors", "XINDEX", "YINDEX"]
