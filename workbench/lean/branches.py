"""Decided conditions, integer ``tl.where``, integer abs and ``R0_BLOCK`` in the Lean derivation (stage: prove).

A mixin of :class:`workbench.lean.derive.Derivation`; each method writes the application of one lemma stated
once in ``lean/Narrowing/Uniform.lean``, ``Abs.lean`` or ``ReductionLanes.lean`` and returns the node's
interval (nothing here runs Lean):

* **decided comparisons** (the checker's DEAD_BRANCH, ``workbench/check/trusted/uniform.py``): a comparison
  whose operands' intervals decide it is a point (``Bounded.cmp_const``), its claims ``side_k`` theorems
  (``<``/``<=``/``>``/``>=`` one claim; ``==``/``!=`` two claims when both operands are the same point, one
  when their intervals are disjoint). Inductor's ``div_floor_integer`` compares a comparison with ``0``
  (``(ks1 - 1 < 0) != 0``), which is decided once its operand is;
* **integer ``tl.where``**: a decided condition takes its live branch's interval and asks nothing of the
  dead one (``Bounded.select_true`` / ``select_false``: the dead branch may have no bound at all, like
  ``div_floor_integer``'s branch under ``ks1 - 1 < 0``); an undecided one takes the hull of both branches
  (``Bounded.select``), each bounded in the current scope;
* **integer abs** (``tl_math.abs``, two's complement: ``|INT_MIN|`` wraps to ``INT_MIN``): ``[lo, hi]`` when
  ``lo >= 0``, ``[-hi, -lo]`` when ``hi <= 0``, else ``[0, M]`` with ``M`` the first of ``hi``, ``-lo``,
  ``hi - lo`` whose premises have a certificate (the checker's ``iabs``); the node's fit condition asks the
  exact ``|v|`` to fit the narrowed type (``Bounded.abs*``);
* **``R0_BLOCK``** (``RBLOCK - 1`` in ``select_one``'s mask): ``[1, 2^31]`` on a step lane
  (``Bounded.rblock``), or the point ``B`` when the kernel fixes ``R0_BLOCK: tl.constexpr = B``;
* **case splits** (the checker's ``agree:`` choices, ``LeanInstance.splits``): an access offset's agreement is
  derived by ``by_cases hu : u.eval (.narrow kernel.sizeArgs) L ≠ 0`` on each uniform comparison ``u`` the
  certificate split it on, nested in the certificate's order; the ``u`` part knows ``u`` (a mask atom: it
  refines its operands and decides the comparisons it settles, as ``Max(1, e)``'s ``1 >= e`` on ``e > 1``),
  the ``¬ u`` part knows the opposite comparison (``Expr.ge_of_cmp_lt_not_ne_zero`` and its kind). Every lane
  is in one part, so both parts together prove the agreement on every lane: Lean needs no agreement of
  ``u`` itself, which the checker asks so that both kernels put a lane in the same part.

What has no rule is refused by name (``UnsupportedError``).
"""

from __future__ import annotations

import sympy

from workbench.errors import UnsupportedError
from workbench.lean.instance import Term, TermOp

# A comparison known false, as the opposite comparison and the lemma proving it (lean/Narrowing/Uniform.lean).
_NOT = {TermOp.LT: (TermOp.GE, "ge_of_cmp_lt_not_ne_zero"), TermOp.LE: (TermOp.GT, "gt_of_cmp_le_not_ne_zero"),
        TermOp.GT: (TermOp.LE, "le_of_cmp_gt_not_ne_zero"), TermOp.GE: (TermOp.LT, "lt_of_cmp_ge_not_ne_zero")}


class BranchRules:
    """Mixin: needs ``bounded``, ``close``, ``wrap_ok``, ``plannable``, ``agree_have``, ``render``, ``where``,
    ``step_ok``, ``inst``."""

    # -- decided comparisons ------------------------------------------------------------------------------
    def decide_cmp(self, op: TermOp, fa, fb) -> tuple[bool, tuple[sympy.Expr, ...]] | None:
        """``(result, claims ≥ 0)`` when the intervals decide ``a op b`` and every claim has a certificate."""
        lt = sympy.expand(fb.lo - fa.hi - 1)  # a < b everywhere
        le = sympy.expand(fb.lo - fa.hi)  # a <= b
        gt = sympy.expand(fa.lo - fb.hi - 1)  # a > b
        ge = sympy.expand(fa.lo - fb.hi)  # a >= b
        options = {
            TermOp.LT: ((True, (lt,)), (False, (ge,))),
            TermOp.LE: ((True, (le,)), (False, (gt,))),
            TermOp.GT: ((True, (gt,)), (False, (le,))),
            TermOp.GE: ((True, (ge,)), (False, (lt,))),
            # a == b everywhere: both are the same point; a != b everywhere: the intervals are disjoint.
            TermOp.EQ: ((True, (le, ge)), (False, (lt,)), (False, (gt,))),
            TermOp.NE: ((False, (le, ge)), (True, (lt,)), (True, (gt,))),
        }[op]
        for r, claims in options:
            if all(self.plannable(c) for c in claims):
                return r, tuple(c for c in claims if not c.is_number)
        return None

    def cmp_const(self, t: Term, fa, fb, r: bool, claims) -> tuple[str, sympy.Expr, sympy.Expr]:
        refs = [self.need(c, "comparison decided by intervals") for c in claims]
        have = "".join(f"have := {ref}; " for ref in refs if ref)
        v = sympy.Integer(1 if r else 0)
        return (f"(Bounded.cmp_const {fa.name} {fb.name} {'true' if r else 'false'} (by intro x y h1 h2 h3 h4; "
                f"{have}first | (simp [Cmp.holds] <;> omega) | omega))", v, v)

    # -- integer tl.where -----------------------------------------------------------------------------------
    def select_rule(self, t: Term, scope, tw: str, tn: str, reason: str) -> tuple[str, sympy.Expr, sympy.Expr]:
        c, a, b = t.args
        if c.op in (TermOp.LT, TermOp.LE, TermOp.GT, TermOp.GE, TermOp.EQ, TermOp.NE):
            fc = self.bounded(c, scope)
            if fc.lo == fc.hi and fc.lo.is_number:
                live = a if fc.lo != 0 else b
                fl = self.bounded(live, scope)
                lemma = "select_true" if fc.lo != 0 else "select_false"
                return (f"(Bounded.{lemma} {fc.name} {fl.name} {self.wrap_ok(tw, tn, fl.lo, fl.hi, reason)} "
                        "(by omega) (by omega))", fl.lo, fl.hi)
        hc = self.agree_have(c, scope)
        fa, fb = self.bounded(a, scope), self.bounded(b, scope)
        lo = self._extreme(fa.lo, fb.lo, lower=True)
        hi = self._extreme(fa.hi, fb.hi, lower=False)
        if lo is None or hi is None:
            raise UnsupportedError(f"{self.where}: the integer select {self.render(t)[:80]} has branches whose "
                                   "intervals the premises do not order (no hull without min/max)")
        hl1, hl2 = self.close(lo, fa.lo, "select hull"), self.close(lo, fb.lo, "select hull")
        hh1, hh2 = self.close(fa.hi, hi, "select hull"), self.close(fb.hi, hi, "select hull")
        return (f"(Bounded.select {hc} {fa.name} {fb.name} {self.wrap_ok(tw, tn, lo, hi, reason)} "
                f"{hl1} {hl2} {hh1} {hh2})", lo, hi)

    def _extreme(self, x: sympy.Expr, y: sympy.Expr, lower: bool) -> sympy.Expr | None:
        """The smaller (``lower``) or larger of two endpoints when the premises order them, else None."""
        if sympy.expand(x - y) == 0:
            return x
        first, second = (x, y) if lower else (y, x)
        if self.plannable(sympy.expand(second - first)):  # first <= second
            return first if lower else second
        if self.plannable(sympy.expand(first - second)):
            return second if lower else first
        return None

    # -- integer abs ----------------------------------------------------------------------------------------
    def abs_rule(self, t: Term, scope, tw: str, tn: str, reason: str) -> tuple[str, sympy.Expr, sympy.Expr]:
        fa = self.bounded(t.args[0], scope)
        zero = sympy.Integer(0)
        if self.plannable(fa.lo):
            lo, hi = fa.lo, fa.hi
            return (f"(Bounded.abs_nonneg {fa.name} {self.close(zero, fa.lo, 'abs operand >= 0')} "
                    f"{self.wrap_ok(tw, tn, lo, hi, reason)} (by omega) (by omega))", lo, hi)
        if self.plannable(-fa.hi):
            lo, hi = sympy.expand(-fa.hi), sympy.expand(-fa.lo)
            return (f"(Bounded.abs_nonpos {fa.name} {self.close(fa.hi, zero, 'abs operand <= 0')} "
                    f"{self.wrap_ok(tw, tn, lo, hi, reason)} (by omega) (by omega))", lo, hi)
        for hi, claims in ((fa.hi, (fa.hi + fa.lo,)), (-fa.lo, (-fa.lo - fa.hi,)), (fa.hi - fa.lo, (fa.hi, -fa.lo))):
            hi = sympy.expand(hi)
            if all(self.plannable(sympy.expand(c)) for c in claims):
                h1 = self.close(fa.hi, hi, "abs bound: hi <= max")
                h2 = self.close(-fa.lo, hi, "abs bound: -lo <= max")
                return (f"(Bounded.abs {fa.name} {self.wrap_ok(tw, tn, zero, hi, reason)} (by omega) {h1} {h2})",
                        zero, hi)
        raise UnsupportedError(f"{self.where}: abs of {self.render(t.args[0])[:80]} has no upper bound the premises "
                               "show (max(hi, -lo) of its operand's interval)")

    # -- case splits ----------------------------------------------------------------------------------------
    def case_split(self, t: Term, scope) -> bool:
        """Prove ``t.Agree`` by cases on the first of its split atoms not split on yet (each part then proves
        it with the atom known, recursively); False when ``t`` has none left."""
        todo = [u for u in self.splits.get(t, ()) if u not in self.splitting]
        if not todo:
            return False
        u = todo[0]
        if u.op not in _NOT:
            raise UnsupportedError(f"{self.where}: a case split on {self.render(u)[:60]} ({u.op.value}) has no Lean "
                                   "rule (splits on <, <=, > and >= only)")
        hu = self.fresh("hu")
        scope.w(f"by_cases {hu} : Expr.eval (.narrow kernel.sizeArgs) {self.lane} {self.render(u)} ≠ 0")
        self.splitting.add(u)
        try:
            for holds in (True, False):
                part = scope.child("  ")
                if holds:
                    self.split(u, hu, part)
                else:
                    op, lemma = _NOT[u.op]
                    part.atoms = part.atoms + ((Term(op, u.args), f"Expr.{lemma} {hu}"),)
                    part.own = part.own + (u,)
                self.agree(t, part)
                scope.bullet(part)
        finally:
            self.splitting.discard(u)
        return True

    # -- R0_BLOCK -------------------------------------------------------------------------------------------
    def block_rule(self, t: Term) -> tuple[str, sympy.Expr, sympy.Expr]:
        if t.value != 2 or self.step_ok is None:
            raise UnsupportedError(f"{self.where}: the block constexpr {self.render(t)} used as a value has no Lean "
                                   "interval rule (only R0_BLOCK, at a reduction step)")
        static = getattr(self.inst.reduction, "static_block", None)
        if static is not None:
            v = sympy.Integer(static)
            return "(Bounded.rblock_fixed hB)", v, v
        return f"(Bounded.rblock {self.step_ok})", sympy.Integer(1), sympy.Integer(2**31)


__all__ = ["BranchRules"]
