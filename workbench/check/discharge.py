"""Discharging side conditions ``p >= 0``: an exact built-in procedure, an SMT cross-check, and a search for
shapes that refute a condition.

Stage: check. The exact procedure (:func:`exact_nonneg`) is the one the trusted checker relies on:

    given multipliers ``lam_i >= 0`` for premises ``f_i >= 0``, let ``r = p - sum(lam_i * f_i)``; substitute
    every symbol ``s`` by ``lower(s) + t_s`` and expand; if every coefficient of ``r`` is ``>= 0`` then
    ``r >= 0`` for all ``t >= 0``, hence ``p = r + sum(lam_i * f_i) >= 0`` wherever the premises hold.

It is sound over the reals, so it is sound over the integers; it is incomplete (it needs the multipliers,
and a non-negative polynomial can have negative shifted coefficients). Multipliers are *choices*: the
certificate search (:func:`find_multipliers`, untrusted) proposes them and the checker only verifies the
coefficients. Example, the tile kernel: ``p = 2147483647 - (s27*s77 - 1)`` with the guard
``f = 2147483647 - 2*s27*s77`` and ``lam = 1`` leaves ``r = s27*s77 + 1``, all coefficients positive.

The SMT cross-check (:func:`smt_check`) asks z3 for an integer shape satisfying the premises where
``p < 0``: ``unsat`` proves the condition independently, a model is a counterexample shape, ``unknown``
(nonlinear integer arithmetic, resource limit) proves nothing. z3 runs under a *resource* limit
(``rlimit``, z3's count of basic steps: deterministic for one z3 build), never a wall-clock timeout, and
each query in a fresh z3 context (so its answer does not depend on which queries ran before in the
process): the same record gives the same verdict on an idle and on a loaded machine. Every guard Inductor recorded is asserted, including
those the exact procedure cannot use (``Ne``, ``Mod``, ``Max``), so a counterexample shape is one Inductor
would actually compile for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from workbench.check.poly import Poly
from workbench.check.premises import Premises, is_aux
from workbench.check.trusted.exact import Multipliers, exact_nonneg, residual

__all__ = ["Multipliers", "SmtResult", "contradiction", "exact_nonneg", "find_multipliers", "guards_hold", "residual", "smt_check"]



def find_multipliers(p: Poly, premises: Premises) -> Multipliers | None:
    """Untrusted search for multipliers that make :func:`exact_nonneg` succeed: none, then each single fact
    (its multiplier solved exactly: an interval of feasible values per fact), then a linear program over all
    facts (scipy), rounded to small rationals. The search works in shifted coordinates (each fact shifted
    once per premises); every answer is re-verified by the trusted procedure."""
    lower = premises.lower_map
    if any(s not in lower for s in p.symbols()):
        return None  # no fact can remove a symbol without a lower bound (facts with one are not usable)
    ps = p.shift(lower).terms
    if all(c >= 0 for c in ps.values()):
        return () if exact_nonneg(p, premises, ()) else None
    usable = _shifted_facts(premises)
    for f, fs in usable:
        lam = _single_multiplier(ps, fs)
        if lam is not None and exact_nonneg(p, premises, ((f.name, lam),)):
            return ((f.name, lam),)
    return _lp_multipliers(p, premises, ps, usable)


@lru_cache(maxsize=64)
def _shifted_facts(premises: Premises):
    """The usable facts (every symbol has a lower bound) with their shifted terms, once per premises."""
    lower = premises.lower_map
    return tuple((f, f.poly.shift(lower).terms) for f in premises.facts
                 if all(s in lower for s in f.poly.symbols()))


def _single_multiplier(ps: dict, fs: dict) -> Fraction | None:
    """The multiplier ``lam > 0`` with every coefficient of ``ps - lam*fs`` non-negative (1 when feasible, else
    the smallest feasible value), or None. Per monomial: ``fs[m] > 0`` bounds ``lam`` above by
    ``ps[m]/fs[m]``, ``fs[m] < 0`` bounds it below by the same ratio."""
    lo, hi = Fraction(0), None
    for m in set(ps) | set(fs):
        c, f = ps.get(m, Fraction(0)), fs.get(m, Fraction(0))
        if f == 0:
            if c < 0:
                return None
        elif f > 0:
            if c < 0:
                return None
            hi = c / f if hi is None else min(hi, c / f)
        elif c < 0:
            lo = max(lo, c / f)
    if lo == 0 or (hi is not None and lo > hi):
        return None  # lam = 0 changes nothing (ps has a negative coefficient)
    return Fraction(1) if lo <= 1 and (hi is None or hi >= 1) else lo


def _lp_multipliers(p: Poly, premises: Premises, ps: dict, usable) -> Multipliers | None:
    if not usable:
        return None
    try:
        from scipy.optimize import linprog
    except ImportError:  # pragma: no cover - scipy is in requirements
        return None
    fs = [t for _, t in usable]
    monos = sorted(set(ps) | {m for t in fs for m in t})
    # residual coefficient on m: ps[m] - sum lam_i fs_i[m] >= 0  <=>  sum lam_i fs_i[m] <= ps[m]
    a_ub = [[float(t.get(m, 0)) for t in fs] for m in monos]
    b_ub = [float(ps.get(m, 0)) for m in monos]
    res = linprog(c=[1.0] * len(fs), A_ub=a_ub, b_ub=b_ub, bounds=[(0, None)] * len(fs), method="highs")
    if not res.success:
        return None
    # The LP's optimum is a vertex with rational coordinates (1/324 for a guard with coefficient 72*4.5);
    # floating point returns an approximation. Recover it as the nearest fraction of small denominator
    # (``limit_denominator``) and also try rounding up on a power-of-two grid (a multiplier slightly too
    # large only costs slack in the constant); every candidate is re-verified exactly.
    tried = set()
    for den in (1, 8, 64, 1024, 2**20):
        for rounding in ("nearest", "fraction", "up"):
            mult = tuple((f.name, lam) for (f, _), x in zip(usable, res.x)
                         if (lam := _rationalise(float(x), den, rounding)) != 0)
            if mult in tried:
                continue
            tried.add(mult)
            if exact_nonneg(p, premises, mult):
                return mult
    return None


def _rationalise(x: float, den: int, rounding: str) -> Fraction:
    if x <= 0:
        return Fraction(0)
    if rounding == "nearest":
        return Fraction(round(x * den), den)
    if rounding == "fraction":
        return Fraction(x).limit_denominator(den)
    return Fraction(math.ceil(x * den - 1e-9), den)


@dataclass(frozen=True, slots=True)
class SmtResult:
    status: str  # "proved" | "refuted" | "unknown"
    model: tuple[tuple[str, int], ...] = ()  # a refuting shape (shape symbols only), when refuted
    detail: str = ""
    guards_used: tuple[str, ...] = ()  # when proved: the guards (verbatim) in z3's unsat core


SMT_RLIMIT = 4_000_000  # z3 resource units per query (about 1-3 s of z3 on the shared 2-core machine)


REFUTE_RLIMIT = 1_000_000  # z3 resource units for a quick refutation attempt (smt_refute)


def smt_refute(p: Poly, premises: Premises, rlimit: int = REFUTE_RLIMIT) -> SmtResult | None:
    """A shape that refutes ``p >= 0`` under the premises, found quickly, or ``None``.

    z3's nonlinear-arithmetic tactic (``qfnia``) finds models that its default solver, within
    :data:`SMT_RLIMIT`, often does not (resnet18's max-pool kernel: 0.4 s against 3.6 s). Only its *model* is
    used, never its "unsat": the shape is checked by :func:`smt_check` itself, with every shape symbol fixed to
    the model's value (the very assertions a proof would rest on; no search), and only that check's
    refutation is returned. So a refutation from here is one :func:`smt_check` gives; the caller uses it to
    explain a kernel already refused, never to decide one."""
    import z3

    ctx = z3.Context()
    names = _shape_symbols(premises)
    try:
        solver = z3.Tactic("qfnia", ctx=ctx).solver()
        solver.set("rlimit", rlimit)
        env = _z3_env(premises, solver, ctx)
        for term, _ in _premise_terms(premises, env, ctx):
            solver.add(term)
        if not p.symbols() <= set(env):
            return None
        solver.add(p.scaled_integral().to_z3(env, ctx) < 0)
        if solver.check() != z3.sat:
            return None
        m = solver.model()
        shape = {s: m.eval(env[s], model_completion=True).as_long() for s in names}
    except z3.Z3Exception:
        return None
    r = smt_check(p, premises, extra=_pinned(names, shape))
    return r if r.status == "refuted" else None


def _shape_symbols(premises: Premises) -> list[str]:
    """The shape symbols a z3 model reports (those with a lower bound; auxiliary atoms excluded)."""
    return [s for s, _ in premises.lower if not is_aux(s)]


def _pinned(names, shape: dict[str, int]) -> tuple[Poly, ...]:
    """Facts fixing each named symbol to its value in ``shape`` (``s - v >= 0`` and ``v - s >= 0``)."""
    return tuple(q for s in names for q in (Poly.sym(s) - shape[s], Poly.const(shape[s]) - Poly.sym(s)))


def _premise_terms(premises: Premises, env, ctx):
    """What z3 is told the premises say, as ``(term, guard)``: every translatable guard and every fact whose
    symbols z3 knows; ``guard`` is the captured guard text a term comes from (tracked for unsat cores), or
    ``None`` for a bound or an atom's definition. ``smt_check`` and ``smt_refute`` assert exactly these."""
    for g in premises.guards:
        term = _z3_guard(g, env, ctx)
        if term is not None:
            yield term, g
    for f in premises.facts:
        if all(s in env for s in f.poly.symbols()):
            yield f.poly.scaled_integral().to_z3(env, ctx) >= 0, f.origin if f.name.startswith("guard:") else None


def smt_check(p: Poly, premises: Premises, rlimit: int = SMT_RLIMIT, extra: tuple[Poly, ...] = ()) -> SmtResult:
    """Ask z3 whether ``p >= 0`` follows from the premises (all guards asserted; see module docstring).
    ``extra`` are further facts ``e >= 0`` to assume (used by the counterexample search). ``rlimit`` bounds
    z3's work deterministically (module docstring); when it is spent the answer is "unknown".

    Every assertion that comes from a guard is tracked, so a proof reports the guards it used (z3's unsat
    core): a certificate records them and the compiler rule requires them in the live compilation."""
    import z3

    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("rlimit", rlimit)
    solver.set("unsat_core", True)
    env = _z3_env(premises, solver, ctx)
    tracked: dict[str, str] = {}

    def track(term, guard: str) -> None:
        label = f"guard{len(tracked)}"
        tracked[label] = guard
        solver.assert_and_track(term, z3.Bool(label, ctx))

    for term, guard in _premise_terms(premises, env, ctx):
        if guard is not None:
            track(term, guard)
        else:
            solver.add(term)
    untranslated = sorted((p.symbols() | {s for e in extra for s in e.symbols()}) - set(env))
    if untranslated:
        atoms = {a.name: a.text for a in premises.atoms}
        names = ", ".join(f"{s} = {atoms[s]}" if s in atoms else s for s in untranslated)
        return SmtResult("unknown", detail=f"z3 has no meaning for {names}")
    for e in extra:
        solver.add(e.scaled_integral().to_z3(env, ctx) >= 0)
    solver.add(p.scaled_integral().to_z3(env, ctx) < 0)
    got = solver.check()
    if got == z3.unsat:
        core = {str(c) for c in solver.unsat_core()}
        return SmtResult("proved", guards_used=tuple(sorted({tracked[c] for c in core if c in tracked})))
    if got == z3.sat:
        m = solver.model()
        model = tuple((s, m.eval(env[s], model_completion=True).as_long()) for s in _shape_symbols(premises))
        return SmtResult("refuted", model)
    why = str(solver.reason_unknown())
    if why == "canceled":  # what z3 5.x reports when the resource limit is spent
        why = f"resource limit ({rlimit} units) spent"
    return SmtResult("unknown", detail=why)


@lru_cache(maxsize=1024)
def contradiction(premises: Premises, smt: bool = True) -> str:
    """Why no shape satisfies the premises ("" when some may): a symbol whose lower bound exceeds its upper
    bound, or (``smt``) z3 proving ``-1 >= 0`` from them (the guards of its unsat core are named). Conditions
    proved from contradictory premises hold vacuously; a checker must say so instead of certifying."""
    lower = premises.lower_map
    for s, hi in premises.upper:
        if s in lower and lower[s] > hi:
            return f"{s} >= {lower[s]} and {s} <= {hi}"
    if not smt:
        return ""
    if any(_satisfies(premises, shape) for shape in _SHAPES):
        return ""
    r = smt_check(Poly.const(-1), premises)
    if r.status == "proved":
        return "z3 finds no shape satisfying " + ("; ".join(r.guards_used) if r.guards_used else "the bounds")
    if r.status == "refuted":
        _SHAPES.insert(0, dict(r.model))
        del _SHAPES[_SHAPES_KEPT:]
    return ""


# Shapes z3 found satisfying some kernel's premises. The kernels of one graph share its guards, so a shape that
# satisfied one kernel's premises often satisfies the next one's: z3 confirms that with every shape symbol fixed
# (no search), where finding a shape from nothing costs it about a second on a CNN's two hundred guards. The
# answer is the same either way: a shape satisfying the very assertions ``smt_check`` makes shows that they are
# satisfiable, so z3 could not prove ``-1 >= 0`` from them; when no kept shape does, z3 searches as before.
_SHAPES: list[dict[str, int]] = []
_SHAPES_KEPT = 8


def _satisfies(premises: Premises, shape: dict[str, int]) -> bool:
    names = _shape_symbols(premises)
    if not names or any(s not in shape for s in names):
        return False
    return smt_check(Poly.const(-1), premises, extra=_pinned(names, shape)).status == "refuted"


def sympy_mod(a, b):
    """sympy's ``Mod(a, b)`` in z3: the sign of the divisor (``Mod(2, -3) == -1``), where z3's ``%`` (SMT-LIB
    ``mod``) is never negative. ``Mod(a, 0)`` is undefined in sympy (nan: no guard holds), so any value is
    sound there."""
    import z3

    return z3.If(b >= 0, a % b, -((-a) % (-b)))


def sympy_floordiv(n, d, ctx):
    """sympy's ``floor(n / d)`` in z3 for a divisor that is a term: SMT-LIB ``div`` is floor division for a
    positive divisor, and ``floor(n/d) == floor((-n)/(-d))`` for a negative one. ``floor(n/0)`` is undefined in
    sympy (no guard holds there), so it is a fresh unconstrained value: any value is sound."""
    import z3

    return z3.If(d > 0, n / d, z3.If(d < 0, (-n) / (-d), z3.FreshInt("undefined_floor", ctx)))


def _z3_env(premises: Premises, solver, ctx):
    import z3

    env = {}
    for s, lo in premises.lower:
        if is_aux(s):
            continue
        env[s] = z3.Int(s, ctx)
        solver.add(env[s] >= lo)
    for s, hi in premises.upper:
        if s in env:
            solver.add(env[s] <= hi)
    # Symbols without a lower bound (free symbols of weakened variants) are still integers.
    for _, _, v, _ in premises.size_args + premises.numels:
        for s in v.symbols():
            if s not in env and not is_aux(s):
                env[s] = z3.Int(s, ctx)
    for a in premises.atoms:
        if not a.integer:
            continue  # not integer-valued in general (premises.Atom.integer): facts mentioning it are not asserted
        env[a.name] = z3.Int(a.name, ctx)
        args = [x.scaled_integral().to_z3(env, ctx) if all(s in env for s in x.symbols()) else None for x in a.args]
        if a.kind == "floor" and args[0] is not None:
            # z3's integer division is floor division for a positive divisor.
            solver.add(env[a.name] == args[0] / a.denominator)
        elif a.kind == "max" and all(x is not None for x in args):
            for x in args:
                solver.add(env[a.name] >= x)
            solver.add(z3.Or(*[env[a.name] == x for x in args]))
        elif a.kind == "min" and all(x is not None for x in args):
            for x in args:
                solver.add(env[a.name] <= x)
            solver.add(z3.Or(*[env[a.name] == x for x in args]))
        elif a.kind == "mod" and all(x is not None for x in args):
            solver.add(env[a.name] == sympy_mod(args[0], args[1]))
        elif a.kind == "floordiv" and all(x is not None for x in args):
            solver.add(env[a.name] == sympy_floordiv(args[0], args[1], ctx))
    return env


@lru_cache(maxsize=16384)
def _floor_parts(arg):
    """``floor(arg)``'s argument as (numerator, denominator), each expanded: a pure function of the sympy
    expression, computed once per expression (every z3 query translates the kernel's guards again)."""
    import sympy

    num, den = sympy.fraction(sympy.together(arg))
    return sympy.expand(num), sympy.expand(den)


def _z3_guard(text: str, env, ctx):
    """Translate a guard's sympy text to z3 (integer semantics); ``None`` when it uses something untranslated."""
    import sympy
    import z3

    from workbench.check.premises import _parse_fact

    def tr(e):
        if e.is_Integer:
            return z3.IntVal(int(e), ctx)
        if e.is_Rational:
            return None
        if e.is_Symbol:
            return env.get(e.name)
        if e.is_Add or e.is_Mul:
            # a rational coefficient (s/2) has no integer meaning: the guard is not asserted (dropping a
            # premise is sound; the exact procedure still reads it as a polynomial fact)
            parts = []
            for a in e.args:
                t = tr(a)
                if t is None:
                    return None
                parts.append(t)
            out = parts[0]
            for t in parts[1:]:
                out = out + t if e.is_Add else out * t
            return out
        if e.is_Pow and e.exp.is_Integer and int(e.exp) > 0:
            b = tr(e.base)
            if b is None:
                return None
            out = b
            for _ in range(int(e.exp) - 1):
                out = out * b
            return out
        if isinstance(e, sympy.floor):
            num, den = _floor_parts(e.args[0])
            n, d = tr(num), tr(den)
            if n is None or d is None:
                return None
            if not den.is_number:  # a quotient by a term: floor(16*s35/s21)
                return sympy_floordiv(n, d, ctx)
            if not den.is_Integer:
                return None
            return n / d
        if isinstance(e, sympy.Mod):
            a, b = tr(e.args[0]), tr(e.args[1])
            return None if a is None or b is None else sympy_mod(a, b)
        if isinstance(e, (sympy.Max, sympy.Min)):
            xs = [tr(a) for a in e.args]
            if any(x is None for x in xs):
                return None
            out = xs[0]
            for x in xs[1:]:
                out = z3.If(x > out, x, out) if isinstance(e, sympy.Max) else z3.If(x < out, x, out)
            return out
        return None

    from workbench.errors import InputError

    try:
        rel = _parse_fact(text)
    except InputError:  # outside the restricted grammar: not asserted (dropping a premise is sound)
        return None
    if rel is sympy.true:
        return None
    ops = {
        sympy.Le: lambda a, b: a <= b, sympy.Lt: lambda a, b: a < b, sympy.Ge: lambda a, b: a >= b,
        sympy.Gt: lambda a, b: a > b, sympy.Eq: lambda a, b: a == b, sympy.Ne: lambda a, b: a != b,
    }
    for cls, fn in ops.items():
        if isinstance(rel, cls):
            a, b = tr(rel.lhs), tr(rel.rhs)
            if a is None or b is None:
                return None
            return fn(a, b)
    return None


def guards_hold(premises: Premises, values: dict[str, int]) -> tuple[bool, str]:
    """Evaluate every captured guard at a concrete shape with sympy (integer semantics); ``(False, guard)``
    names the first that fails. Used to confirm that a counterexample shape is one Inductor compiles for."""
    import sympy

    from workbench.check.premises import _parse_fact

    for s, lo in premises.lower:
        if s in values and values[s] < lo:
            return False, f"{s} >= {lo}"
    for g in premises.guards:
        rel = _parse_fact(g)
        subs = {sympy.Symbol(k): sympy.Integer(v) for k, v in values.items()}
        try:
            got = rel.subs(subs)
        except ZeroDivisionError:  # a Mod/floor by a size that is 0 here: not a shape the guards describe
            return False, g
        if got not in (sympy.true, True):
            return False, g
    return True, ""
