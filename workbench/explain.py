"""Explanations the widgets show: a kernel's source and IR line by line, its guards with their origin and use,
and a verdict's side conditions grouped, reduced and linked to the source.

Stage: presentation (reads records, the IR, the checker's verdicts and premises; decides nothing). The
widgets (``KernelView``, ``SideConditionView``) only hold state and render what these functions return, so
everything here is tested without a browser.

* :func:`aligned` pairs each source line of the ``@triton.jit`` function with the IR of what that line binds,
  written with the source's own names (``tmp17``, ``x1``), not the renderer's numbering.
* :func:`guards` lists each distinct guard once with how many times Inductor recorded it, where it comes
  from (an int32 indexing guard on an element count or an input's size, or a shape specialization Dynamo
  made while tracing), and how the checker used it (used by the certificate, a premise not needed, unusable).
* :func:`side_conditions` groups a verdict's conditions by subexpression and source line, folds trivial
  (constant) claims, clears fractions (``(1/2)*s27 + (4294967295/2) >= 0`` -> ``s27 + 4294967295 >= 0``, the
  same claim: a positive multiple), explains the auxiliary atoms (``_a0 = floor(s27/2)``) and places a
  counterexample's lane on its source line.
Limits: a guard's origin is read from its form (the record keeps no provenance beyond the text).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

INT32_MAX = 2**31 - 1


# -- source and IR, line by line ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AlignedLine:
    """One source line and the IR of what it binds ("" when the line binds nothing the IR keeps)."""

    line: int  # 1 = the ``def`` line
    source: str
    ir: str


def aligned(record) -> tuple[AlignedLine, ...]:
    """The jit function's lines beside their IR (raises the IR's refusal for kernels outside its class)."""
    from workbench import kir
    from workbench.kir import renderer
    from workbench.kir.ops import Op

    k = kir.parse(record)
    names: dict[int, str] = {}
    for b in k.bindings:
        names.setdefault(id(b.node), b.name)

    def ref(n) -> str:
        if id(n) in names:
            return names[id(n)]
        if renderer._is_inline(n):
            return renderer._inline(n, k, ref)
        return f"({renderer._expression(n, k, ref)})"

    def text_of(n) -> str:
        if n.op is Op.ASSUME:  # Inductor's bounds check: a statement, as the renderer writes it
            return renderer._device_assert(n, ref)
        if n.op is Op.STORE:
            offset, value, mask = n.args
            m = "" if renderer._is_true(mask) else f", {ref(mask)}"
            return f"tl.store({n.attr} + ({ref(offset)}), {ref(value)}{m})"
        if renderer._is_inline(n):
            return renderer._inline(n, k, ref)
        return renderer._expression(n, k, ref)

    by_line: dict[int, list[str]] = {}
    for b in k.bindings:
        body = text_of(b.node)
        alias = names[id(b.node)]
        rhs = alias if alias != b.name else body
        by_line.setdefault(b.line, []).append(body if b.node.op is Op.ASSUME and alias == b.name
                                              else f"{b.name} = {rhs}  # {b.node.type}")
    for node, line in zip(k.stores, k.store_lines):
        by_line.setdefault(line, []).append(text_of(node))
    lines = record.jit_source.rstrip("\n").splitlines()
    return tuple(AlignedLine(i, src, "; ".join(by_line.get(i, ()))) for i, src in enumerate(lines, start=1))


# -- guards ---------------------------------------------------------------------------------------------------


class GuardUse(StrEnum):
    USED = "used by the certificate"
    PREMISE = "a premise, not needed"
    UNUSABLE = "not usable by the checker"


@dataclass(frozen=True, slots=True)
class GuardRow:
    text: str
    count: int  # how many times the record lists it (Inductor and Dynamo repeat guards)
    origin: str
    use: GuardUse
    detail: str = ""


def _canonical_guard(text: str) -> str:
    from workbench.errors import WorkbenchError
    from workbench.symexpr import parse_any

    try:
        return str(parse_any(text, "guard"))
    except WorkbenchError:
        return text.replace(" ", "")


def _origin(text: str, record) -> str:
    import sympy

    from workbench.errors import WorkbenchError
    from workbench.symexpr import parse_any, parse_expr

    m = re.fullmatch(r"\s*(.+?)\s*<=\s*2147483647\s*", text)
    if m:
        try:
            lhs = parse_expr(m.group(1), "guard")
            for n in record.numels:
                if sympy.simplify(parse_expr(n.expr, "numel") - lhs) == 0:
                    return f"Inductor: int32 indexing guard on {n.name} (numel <= 2**31-1, re-checked every call)"
            sizes = {}
            for s in record.symbols:
                for src in s.sources:
                    arg = src.split(".size(")[0]
                    sizes.setdefault(arg, sympy.Integer(1))
                    sizes[arg] *= sympy.Symbol(s.name)
            for arg, prod in sizes.items():
                if sympy.simplify(prod - lhs) == 0:
                    return f"Inductor: int32 indexing guard on input {arg}'s element count"
        except WorkbenchError:
            pass
        return "Inductor: int32 indexing guard on an index expression"
    try:
        rel = parse_any(text, "guard")
    except WorkbenchError:
        return "Dynamo: shape guard (not parsed)"
    if isinstance(rel, (sympy.Eq, sympy.Ne)) or rel.has(sympy.floor, sympy.Mod):
        return "Dynamo: shape specialization made while tracing (view, reshape or divisibility)"
    return "Dynamo: size guard (sizes 0 and 1 are specialized, so dynamic sizes are >= 2)"


def guards(record, certificate=None) -> tuple[GuardRow, ...]:
    """Each distinct guard once, in first-seen order, with origin and use (``certificate``: the checker's
    certificate for this record, or ``None`` when there is none)."""
    from workbench.check.api import premises_for
    from workbench.errors import WorkbenchError

    try:
        premises = premises_for(record)
        unusable = {u.split("  (")[0]: u.split("  (", 1)[1].rstrip(")") for u in premises.unused_guards}
    except WorkbenchError as exc:
        unusable = {g: str(exc) for g in record.guards}
    used = {_canonical_guard(g) for g in (certificate.premises.guards_used if certificate else ())}
    rows: dict[str, list] = {}
    for g in record.guards:
        key = _canonical_guard(g)
        if key in rows:
            rows[key][1] += 1
        else:
            rows[key] = [g, 1]
    out = []
    for key, (text, count) in rows.items():
        if key in used:
            use, detail = GuardUse.USED, ""
        elif text in unusable:
            use, detail = GuardUse.UNUSABLE, unusable[text]
        else:
            use, detail = GuardUse.PREMISE, ""
        out.append(GuardRow(text, count, _origin(text, record), use, detail))
    return tuple(out)


# -- side conditions ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConditionRow:
    claim: str  # reduced: integer coefficients, divided by their gcd
    status: str
    prover: str
    reason: str
    lane_class: str
    facts: str  # the facts (guards, bounds, definitions) and multipliers the proof used


@dataclass(frozen=True, slots=True)
class ConditionGroup:
    """The conditions of one subexpression, on its source line (0: an inner subexpression of no line)."""

    subexpression: str
    line: int
    source: str
    rows: tuple[ConditionRow, ...]
    trivial: int  # constant claims that hold (folded)


@dataclass(frozen=True, slots=True)
class AuxAtom:
    name: str
    stands_for: str
    meaning: str


@dataclass(frozen=True, slots=True)
class SideConditionReport:
    verdict: str
    mode: str
    reason: str
    groups: tuple[ConditionGroup, ...]
    atoms: tuple[AuxAtom, ...]
    counterexample: tuple[tuple[str, str], ...]  # (label, value) rows, empty when none
    total: int
    trivial: int


def _flat(text: str) -> str:
    """Text without parentheses, spaces and slice suffixes: the checker and the IR renderer parenthesize
    differently (``-1 * ks0`` vs ``(-1) * ks0``)."""
    return re.sub(r"[()\s]|\[:\]", "", text)


def reduce_claim(claim) -> str:
    """``claim >= 0`` with fractions cleared and the integer coefficients divided by their gcd (a positive
    multiple, so the same condition)."""
    if claim is None:
        return "no bound"
    terms = claim.terms
    if not terms:
        return "0 >= 0"
    den = math.lcm(*(Fraction(c).denominator for c in terms.values()))
    scaled = claim * den
    g = math.gcd(*(int(c) for c in scaled.terms.values()))
    return f"{scaled * Fraction(1, g) if g > 1 else scaled} >= 0"


def _meaning(atom) -> str:
    match atom.kind:
        case "floor":
            return f"the integer quotient {atom.text}, bounded by its definition (D*{atom.name} <= P < D*{atom.name} + D)"
        case "floordiv":
            return (f"the integer quotient {atom.text} by a size, bounded by its definition "
                    f"(D*{atom.name} <= P < D*{atom.name} + D, given when the divisor D >= 1 by lower bounds)")
        case "min":
            return f"{atom.text}: at most each argument"
        case "mod":
            return f"the remainder {atom.text}: 0 <= {atom.name} < divisor"
        case "max":
            return f"{atom.text}: at least each argument"
        case "opaque":
            return f"{atom.text}: not modelled; only guards that state it give facts about it"
    raise ValueError(f"unknown atom kind {atom.kind!r}")


def side_conditions(verdict, record) -> SideConditionReport:
    """Group ``verdict``'s discharged conditions (a :class:`workbench.check.api.Verdict`) for display."""
    from workbench.check.api import premises_for
    from workbench.errors import WorkbenchError

    lines = record.jit_source.splitlines()
    try:
        ir_lines = aligned(record)
    except WorkbenchError:
        ir_lines = ()

    def home(sub: str, line: int) -> int:
        """The source line of a subexpression: its own, else the first line whose IR contains it."""
        if line:
            return line
        flat = _flat(sub)
        if not re.search(r"[-+*/%<>&]", flat):
            return 0  # a bare name or literal would match anywhere
        return next((a.line for a in ir_lines if flat in _flat(a.ir)), 0)

    def fact_text(name: str) -> str:
        m = re.fullmatch(r"guard:(\d+)(?::\d+)?", name)
        return f"guard {record.guards[int(m.group(1))]}" if m and int(m.group(1)) < len(record.guards) else name

    groups: dict[tuple[str, int], list] = {}
    trivial = 0
    for d in verdict.discharged:
        c, o = d.condition, d.condition.origin
        g = groups.setdefault((o.subexpression, home(o.subexpression, o.line)), [{}, 0])
        if c.claim is not None and c.claim.is_const() and d.status.value == "proved":
            g[1] += 1
            trivial += 1
            continue
        facts = ", ".join(f"{lam}·({fact_text(name)})" for name, lam in d.multipliers)
        key = (reduce_claim(c.claim), d.status.value, d.prover or "-", c.reason.value, facts)
        g[0].setdefault(key, []).append(o.lane_class)  # the same claim on several lane classes: one row
    ordered = sorted(groups.items(), key=lambda kv: (kv[0][1] == 0, kv[0][1], kv[0][0]))
    out = tuple(
        ConditionGroup(sub, line, lines[line - 1].strip() if 0 < line <= len(lines) else "",
                       tuple(ConditionRow(claim, status, prover, reason, " | ".join(dict.fromkeys(lanes)), facts)
                             for (claim, status, prover, reason, facts), lanes in rows.items()), folded)
        for (sub, line), (rows, folded) in ordered
    )
    try:
        atoms = premises_for(record).atoms
    except WorkbenchError:
        atoms = ()
    used = " ".join(r.claim + " " + r.facts for g in out for r in g.rows)
    explained = tuple(AuxAtom(a.name, a.text, _meaning(a)) for a in atoms
                      if re.search(rf"\b{a.name}\b", used) or verdict.verdict != "certified")
    cex: tuple[tuple[str, str], ...] = ()
    if verdict.counterexample is not None:
        x = verdict.counterexample
        line = next((g.line for g in out if g.subexpression == x.subexpression and g.line), 0)
        line = line or home(x.subexpression, 0)
        where = f"line {line}: {lines[line - 1].strip()}" if line else "no source line"
        cex = (("shape", ", ".join(f"{k}={v}" for k, v in x.shape)),
               ("lane", ", ".join(f"{k}={v}" for k, v in x.lane) or "any"),
               ("subexpression", f"{x.subexpression} ({where})"),
               ("wide / narrowed", f"{x.wide} / {x.narrowed}"),
               ("observable", x.disagree or "no access differs at this lane"))
    return SideConditionReport(verdict.verdict, verdict.mode, verdict.reason, out, explained, cex,
                               len(verdict.discharged), trivial)
