"""Products and quotients in a Lean derivation: ``Bounded.mul_*``, ``Bounded.floordiv`` with a ``Quot`` rule and
``Bounded.mod`` with a ``Rem`` rule (stage: prove; text only, no Lean).

A mixin of :class:`workbench.lean.derive.Derivation` (which provides ``bounded``, ``close``, ``wrap_ok``,
``e``, ``render``, the certificate's ``rules`` and the symbols). One law per method: a product by a point
(either side, a negative literal point), of non-negative factors; a quotient by the certificate's recorded
rule first (``exact``, ``const``, ``literal`` with a pinned floor, ``numerator``), a remainder by ``divisor`` or
``numerator``. An endpoint with a ``floor`` inside a product is refused by name: it is no polynomial.
"""

from __future__ import annotations

import sympy

from workbench.errors import UnsupportedError
from workbench.lean.polytext import side_plan
from workbench.lean.scope import Fact
from workbench.lean.terms import TermOp


class ProductRules:
    """``mul``, ``divmod`` (with ``rem_rule``, ``quot_rule``, ``literal``, ``pin``) and ``plannable``."""

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

        claim = sympy.expand(claim)
        if claim.is_number:
            return bool(claim >= 0)
        try:
            side_plan(claim, self.inst, f"{self.where} quotient")
        except WorkbenchError:
            return False
        return True
