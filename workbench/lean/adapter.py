"""From files to ``LeanInstance``: our own JSON, and the checker's certificates.

Stage: prove. ``instance_from_file`` dispatches on the file's ``schema``:

* ``workbench.lean_instance/1``: read by ``workbench.lean.instance.from_json``;
* ``workbench.certificate/1`` (``workbench.check``): mapped by ``from_certificate``;
* ``workbench.captured_kernel/*``: checked first through ``workbench.check.check_kernel`` (observable
  mode); a certified kernel is mapped by ``from_certificate``, any other verdict is refused with its reason.

``from_certificate`` takes the kernel's terms from its captured record parsed by ``workbench.kir`` (bound by
the certificate's ``ir_hash``), the symbols, lower bounds and facts from ``workbench.check``'s premises of
that record, and the checker's side conditions (kept as notes and counts). The Lean derivation
(``workbench.lean.derive``) re-derives every interval and emits its own side conditions; it picks the
quotient/remainder rules itself and does not read the certificate's recorded choices (docs/lean.md).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from workbench.errors import UsageError
from workbench.lean.errors import InstanceError
from workbench.lean.instance import SCHEMA, LeanInstance, from_json, parse_poly, parse_size


def instance_from_file(path: Path) -> LeanInstance:
    try:
        from workbench.jsonfile import loads

        data = loads(Path(path).read_text())  # with the readers' limits (workbench.jsonfile)
    except json.JSONDecodeError as exc:
        raise InstanceError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno}); give a lean_instance or certificate file") from exc
    schema = str(data.get("schema", "")) if isinstance(data, dict) else ""
    if schema == SCHEMA:
        return from_json(data, str(path))
    if schema.startswith("workbench.certificate"):
        return from_certificate(data, str(path))
    if schema.startswith("workbench.captured_kernel"):
        from workbench.capture.record import load as load_record
        from workbench.check import check_kernel

        rec = load_record(Path(path))
        verdict = check_kernel(rec, "observable", smt=False, counterexample=False)
        if not verdict.certified:
            raise InstanceError(f"{path}: {rec.name} is not certified by workbench.check ({verdict.verdict}: "
                                f"{verdict.reason}); only certified kernels get Lean instances")
        return from_certificate(verdict.certificate, str(path), record=rec)
    raise InstanceError(f"{path}: schema {schema!r} is neither {SCHEMA!r} nor a workbench.check certificate")


GRID_2D_NOTE = (
    "Grid2DWithYZOverflow: a lane is the position (x, y) with x = program_id(0) * XBLOCK + arange(XBLOCK) "
    "(`.programId 0`, `.block 0`, `.arange 0`) and y = (program_id(1) + program_id(2) * num_programs(1)) * YBLOCK "
    "+ arange(YBLOCK) (`.programId 1`, `.programId 2`, `.numPrograms 1`, `.block 1`, `.arange 1`), as the kernel's "
    "own terms compute them; `narrowing_exact` holds for every such lane where `kernel.Safe` does."
)


FCONV_NOTE = (
    "An index value goes through floating point (`Expr.fconv`: `x.to(tl.float32)`, float math, back to an integer): "
    "an uninterpreted function of the integer value, the same in both kernels; an out-of-range float-to-integer "
    "conversion is modelled as some value, the same in both (a modelling choice, docs/lean.md)."
)


def _has_fconv(terms) -> bool:
    from workbench.lean.instance import TermOp

    seen: set = set()

    def visit(t) -> bool:
        if t in seen:
            return False
        seen.add(t)
        return t.op is TermOp.FCONV or any(visit(a) for a in t.args)

    return any(visit(t) for t in terms.by_node.values())


def _lean_names(text: str) -> str:
    """The checker's auxiliary atoms ``_a0, _a1, ...`` as Lean-friendly names ``aux_a0, ...``."""
    return re.sub(r"(?<![A-Za-z0-9_])_a(\d+)", r"aux_a\1", text)


def _poly_text(text: str, names: tuple[str, ...], where: str):
    """A checker polynomial (``Poly.__str__`` text, possibly with rational coefficients) as an integer-
    coefficient sympy polynomial with the same sign everywhere (scaled by the denominators' lcm)."""
    import math

    import sympy

    expr = parse_poly(_lean_names(text), tuple(_lean_names(n) for n in names), where)
    names = tuple(_lean_names(n) for n in names)
    poly = sympy.Poly(expr, *[sympy.Symbol(n, integer=True) for n in names]) if names else None
    if poly is None:
        return expr
    den = 1
    for c in poly.coeffs():
        den = den * int(sympy.fraction(c)[1]) // math.gcd(den, int(sympy.fraction(c)[1]))
    return sympy.expand(expr * den)


def record_path(program: str, kernel: str, data: Path | None = None) -> Path:
    from workbench.lean.paths import REPO

    return (data or REPO / "data" / "kernels") / program / f"{kernel}.json"


def from_certificate(data, where: str, *, record=None, verify_hash: bool = True) -> LeanInstance:
    """Map a ``workbench.check`` certificate (JSON dict or ``Certificate``) onto a ``LeanInstance``.

    The kernel's terms come from parsing its captured record with ``workbench.kir`` (the certificate binds
    them by ``ir_hash``, which is verified); symbols, lower bounds and facts (guards, upper bounds) from the
    checker's premises of that record; side conditions from the certificate, one Lean theorem per distinct
    non-constant claim (constant claims are checked here). Refused by name: uncertified certificates, a
    stale hash, facts or claims over auxiliary atoms (``floor``/``Max``/``Mod`` of symbols), kernels outside
    the Lean model (grids other than Grid1D / Grid2DWithYZOverflow, several stores)."""
    import sympy

    from workbench import kir
    from workbench.capture.record import load as load_record
    from workbench.check.api import premises_for
    from workbench.check.certificate import Certificate
    from workbench.check.errors import CertificateError
    from workbench.lean.from_kir import kernel_terms
    from workbench.lean.instance import SideCondition, SizeArg, Symbol

    try:
        cert = data if isinstance(data, Certificate) else Certificate.from_json(data)
    except CertificateError as exc:
        raise InstanceError(f"{where}: {exc}") from None
    if not cert.certified:
        raise InstanceError(f"{where}: {cert.kernel} is not certified ({cert.verdict}: {cert.reason}); only certified kernels get Lean instances")
    strict_splits = sorted(k for k, v in cert.choices if k.startswith("fits:") and v != "none")
    if strict_splits:  # a strict-mode split of an intermediate's fit condition: Lean's instances are observable
        raise InstanceError(f"{where}: {cert.kernel}: no Lean counterpart for the checker's strict-mode case split "
                            f"({', '.join(strict_splits[:3])}); Lean instances state the observable theorem")
    if record is None:
        path = record_path(cert.program, cert.kernel)
        if not path.exists():
            raise InstanceError(f"{where}: captured kernel {path} not found; capture {cert.program} first (`workbench capture`)")
        record = load_record(path)
    k = kir.parse(record)
    if verify_hash and kir.canonical_hash(k) != cert.ir_hash:
        raise InstanceError(
            f"{where}: {cert.kernel}'s IR hash is {kir.canonical_hash(k)}, the certificate was issued for {cert.ir_hash}; "
            "re-run `workbench check` on the current capture")
    terms = kernel_terms(k)
    premises = premises_for(record)
    names = tuple(n for n, _ in premises.lower)
    symbols = tuple(Symbol(_lean_names(n), lo) for n, lo in premises.lower)
    guards = []
    # The checker's status word for its own discharge is not Lean's: in Lean text it reads "discharged by the
    # checker (exact / z3)" (issue 26).
    reason = re.sub(r"\bproved\b", "discharged by the checker (exact / z3)", cert.reason)
    notes = [f"Issued by workbench.check ({cert.schema}, mode {cert.mode}): {reason}."]
    if k.grid == "2d":
        notes.append(GRID_2D_NOTE)
    if _has_fconv(terms):
        notes.append(FCONV_NOTE)
    for a in premises.atoms:
        notes.append(f"{_lean_names(a.name)} stands for {a.text}; its defining inequalities are among the guards, "
                     "so each side condition holds for every value satisfying them, the true one included.")
    for f in premises.facts:
        if not f.poly.symbols() <= set(names):
            notes.append(f"Fact {f.name} ({f.origin}) left out: it uses a symbol without a lower bound.")
            continue
        guards.append(_poly_text(str(f.poly), names, f"{where}: fact {f.name}"))
    groups: dict[str, list[tuple[str, str]]] = {}
    for key, claim, reason, status, prover in cert.side_conditions:
        if status != "proved":
            raise InstanceError(f"{where}: side condition {key} is {status}, not discharged by the checker; the certificate cannot be emitted")
        if not claim.endswith(">= 0"):
            raise InstanceError(f"{where}: side condition {key} has no polynomial claim ({claim!r})")
        groups.setdefault(claim[: -len(">= 0")].strip(), []).append((key, reason))
    sides = []
    constants = 0
    for text in sorted(groups, key=lambda t: (len(t), t)):
        expr = _poly_text(text, names, f"{where}: side condition {groups[text][0][0]}")
        if expr.free_symbols:
            keys = groups[text]
            reasons = sorted({r for _, r in keys})
            sides.append(SideCondition(expr, "; ".join(reasons), f"{len(keys)} checker condition(s): " + ", ".join(k for k, _ in keys[:3]) + (" ..." if len(keys) > 3 else "")))
        elif expr < 0:
            raise InstanceError(f"{where}: constant side condition {text} >= 0 is false")
        else:
            constants += 1
    if constants:
        notes.append(f"{constants} constant side condition(s) (e.g. 2147483648 >= 0) hold by evaluation and are not restated.")
    size_args = []
    lean_names = tuple(_lean_names(n) for n in names)
    # A size written with floor(...) of symbols uses the checker's auxiliary atom for it (its defining
    # inequalities are among the guards), so that every size is a polynomial in the instance's symbols.
    aux = {}
    for a in premises.atoms:
        try:
            aux[parse_size(_lean_names(a.text), lean_names, f"{where}: atom {a.name}")] = sympy.Symbol(_lean_names(a.name), integer=True)
        except InstanceError:
            continue
    for name, expr, poly, typ in (*premises.size_args, *premises.numels):
        if name in terms.scalars:
            value = _size_value(name, expr, poly, lean_names, aux, where)
            size_args.append(SizeArg(name, terms.scalars.index(name), value, str(typ or "i32"), name in cert.narrowed))
    return LeanInstance(
        rules=_rules(k, terms, cert), splits=_splits(k, terms, cert, where),
        kernel=cert.kernel, program=cert.program, hash=cert.ir_hash, symbols=symbols, guards=tuple(guards),
        size_args=tuple(sorted(size_args, key=lambda a: a.index)), side_conditions=tuple(sides),
        loads=terms.loads, store=terms.store, mode=cert.mode, source=f"certificate {cert.schema}", notes=tuple(notes),
        reduction=terms.reduction,
    )


def _size_value(name: str, expr: str, poly, names: tuple[str, ...], aux: dict, where: str):
    """A size argument's value over the instance's symbols: its recorded expression (a polynomial or built from
    ``floor(P / c)``, each floor replaced by the checker's auxiliary atom for it), or else the premises' value
    ``poly`` over the symbols and atoms (a floor by a size, ``floor(16*s35/s21)``, is the atom ``_a0`` whose
    defining inequalities are among the guards). Integer coefficients only: the value is exact, never scaled."""
    import sympy

    try:
        value = parse_size(_lean_names(expr), names, f"{where}: size argument {name}")
        return sympy.expand(value.subs(aux)) if aux else value
    except InstanceError as exc:
        first = exc
    value = parse_poly(_lean_names(str(poly)), names, f"{where}: size argument {name} (premises' value {poly})")
    syms = [sympy.Symbol(n, integer=True) for n in names]
    if value.free_symbols and not all(c.is_integer for c in sympy.Poly(value, *syms).coeffs()) \
            or not value.free_symbols and not value.is_integer:
        raise first
    return value


def _splits(k, terms, cert, where: str) -> tuple:
    """The certificate's case splits (``agree:<offset node>@<class>`` -> the uniform comparison's node key,
    ``check/trusted/uniform.py``) per access offset term: the atoms split on, outermost first (a nested
    split's class carries the outer atom, so it has more atoms). The Lean derivation splits on each of them in
    that order in every part (splitting a part more than the certificate did is only more cases)."""
    nodes = list(k.nodes()) if hasattr(k, "nodes") else list(kir_walk(k))
    found: dict = {}
    for key, choice in sorted(cert.choices, key=lambda kv: (kv[0].count(","), kv[0])):
        m = re.fullmatch(r"agree:n(\d+)@.*", key)
        if not m or choice == "none":
            continue
        u = re.fullmatch(r"n(\d+)", choice)
        if not u or int(m.group(1)) >= len(nodes) or int(u.group(1)) >= len(nodes):
            raise InstanceError(f"{where}: case split {key} -> {choice!r} names no node of the kernel")
        offset, atom = (terms.by_node.get(id(nodes[int(x)])) for x in (m.group(1), u.group(1)))
        if offset is None or atom is None:
            raise InstanceError(f"{where}: case split {key} -> {choice}: the Lean terms have no node for it")
        got = found.setdefault(offset, [])
        if atom not in got:
            got.append(atom)
    return tuple((t, tuple(us)) for t, us in found.items())


def kir_walk(k):
    from workbench import kir

    return kir.walk(*k.loads, *k.stores)


def _rules(k, terms, cert) -> tuple:
    """The certificate's quotient/remainder rule of each division node whose lane classes all chose the same
    one, keyed by the node's term (choice keys are ``n<i>@<class>``, nodes numbered in
    ``kir.walk(*loads, *stores)`` order as the checker numbers them)."""
    from workbench import kir

    nodes = list(k.nodes()) if hasattr(k, "nodes") else list(kir.walk(*k.loads, *k.stores))
    seen: dict = {}
    for key, rule in dict(cert.choices).items():
        if rule not in ("exact", "const", "numerator", "divisor"):
            continue
        m = re.fullmatch(r"n(\d+)@.*", key)
        if not m or int(m.group(1)) >= len(nodes):
            continue
        term = terms.by_node.get(id(nodes[int(m.group(1))]))
        if term is not None:
            seen.setdefault(term, set()).add(rule)
    return tuple((t, next(iter(r))) for t, r in seen.items() if len(r) == 1)


@dataclass(frozen=True, slots=True)
class CorpusEntry:
    """One captured kernel's way to Lean: the checker's verdict and either an instance or why there is none."""

    program: str
    kernel: str
    verdict: str
    instance: LeanInstance | None
    certificate: object | None
    reason: str


def corpus_instances(data: Path | None = None, mode: str = "observable", programs: tuple[str, ...] = ()) -> list[CorpusEntry]:
    """Run ``workbench.check`` on every captured kernel under ``data`` (default ``data/kernels``) and map each
    certified one to a ``LeanInstance``; kernels outside the checker's or the Lean model's class are listed
    with the reason. Deterministic order (program, kernel)."""
    from workbench.capture.record import load_dir
    from workbench.check.api import check_kernel
    from workbench.errors import WorkbenchError
    from workbench.lean.paths import REPO

    root = data or REPO / "data" / "kernels"
    out: list[CorpusEntry] = []
    for prog_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        if programs and prog_dir.name not in programs:
            continue
        for rec in sorted(load_dir(prog_dir), key=lambda r: r.name):
            verdict = check_kernel(rec, mode, smt=False, counterexample=False)
            if not verdict.certified:
                out.append(CorpusEntry(rec.program, rec.name, verdict.verdict, None, verdict.certificate, verdict.reason))
                continue
            try:
                inst = from_certificate(verdict.certificate, f"{rec.program}/{rec.name}", record=rec)
            except WorkbenchError as exc:
                out.append(CorpusEntry(rec.program, rec.name, "certified, not emitted", None, verdict.certificate, str(exc)))
                continue
            out.append(CorpusEntry(rec.program, rec.name, "certified", inst, verdict.certificate, verdict.reason))
    return out
