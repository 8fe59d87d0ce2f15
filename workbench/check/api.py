"""Checking a kernel end to end: search (untrusted) -> certificate -> trusted check -> verdict, and the
counterexample that explains a rejection.

Stage: check. :func:`check_kernel` is the entry point used by the CLI, the widget, the notebook and the
benchmark. It parses the captured kernel with ``workbench.kir``, builds the premises, lets
:func:`search` propose choices and multipliers, then :func:`check_certificate` recomputes everything from
the certificate alone and discharges each side condition (exact procedure with the certificate's
multipliers; z3 as cross-check and as a second prover). A rejection carries, whenever one exists and is
found, a concrete counterexample: a shape satisfying every captured guard, a lane, and the subexpression's
value in the wide and in the narrowed kernel (evaluated by ``workbench.kir``'s semantics), plus whether an
access or the stored value differs there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache

from workbench import kir
from workbench.capture.record import CapturedKernel, validate
from workbench.check import classes
from workbench.check.asserts import assert_premises
from workbench.check.certificate import CertPremises, Certificate
from workbench.check.checker import Analysis, Widths, retyped
from workbench.check.counterexample import Counterexample  # the record lives below the search (re-exported)
from workbench.check.discharge import SMT_RLIMIT, contradiction, find_multipliers, guards_hold, smt_check, smt_refute
from workbench.check.trusted.analysis import MODES as trusted_modes
from workbench.check.trusted.launch import X_BLOCK_MAX, Y_BLOCK_MAX
from workbench.check.trusted.recheck import recheck
from workbench.check.errors import CertificateError, OutOfClassError
from workbench.check.poly import Poly
from workbench.check.premises import Premises, premises_of
from workbench.check.sidecond import Discharged, Reason, SideCondition, Status
from workbench.errors import UnsupportedError

MODES = ("strict", "observable")  # the two N modes: what "both modes" and the corpus table run
ALL_MODES = trusted_modes  # every mode a check may ask for (the trusted analysis's list, partial included)
SMT_BUDGET = 12  # distinct z3 queries per kernel on conditions the exact procedure fails (each SMT_RLIMIT units)
CEX_ATTEMPTS = 4
_NOT_ASKED = "exact procedure failed; z3 not asked: the kernel is refused already"
_NOT_TRIED = "exact procedure failed; z3 not tried"
_REASON_ORDER = {Reason.SIZE_ARG_FITS: 0, Reason.FITS_NARROW: 1, Reason.FITS_INT32: 2, Reason.DIVISOR: 3}  # failed conditions tried for a concrete counterexample

_HASHES: dict[int, tuple[kir.Kernel, str]] = {}


def ir_hash(k: kir.Kernel) -> str:
    """``kir.canonical_hash``, memoised per parsed kernel (it renames shape symbols canonically, which costs
    seconds on the seven-symbol kernels)."""
    got = _HASHES.get(id(k))
    if got is None or got[0] is not k:
        if len(_HASHES) > 512:
            _HASHES.clear()
        got = _HASHES[id(k)] = (k, kir.canonical_hash(k))
    return got[1]


@dataclass(frozen=True, slots=True)
class Verdict:
    kernel: str
    program: str
    mode: str
    verdict: str  # "certified" | "refused" | "out-of-class"
    reason: str
    narrowable: tuple[str, ...]
    certificate: Certificate | None
    discharged: tuple[Discharged, ...] = ()
    counterexample: Counterexample | None = None
    seconds: float = 0.0
    size_args: tuple[tuple[str, str], ...] = field(default=())

    @property
    def certified(self) -> bool:
        return self.verdict == "certified"

    def failed(self) -> tuple[Discharged, ...]:
        return tuple(d for d in self.discharged if d.status is not Status.PROVED)

    def to_json(self) -> dict:
        return {
            "kernel": self.kernel,
            "program": self.program,
            "mode": self.mode,
            "verdict": self.verdict,
            "reason": self.reason,
            "size_args": [list(x) for x in self.size_args],
            "narrowable_size_args": list(self.narrowable),
            "side_conditions": [d.to_json() for d in self.discharged],
            "counterexample": None if self.counterexample is None else self.counterexample.to_json(),
            "certificate": None if self.certificate is None else self.certificate.to_json(),
        }


# -- search (untrusted) ------------------------------------------------------------------------------------


def _search_oracle(kind, key, options, works):
    for o in options:
        if works(o):
            return o
    return options[0]


@lru_cache(maxsize=65536)
def _multipliers_cached(p: Poly, premises: Premises):
    # keyed by the premises' value (not identity: a recycled id must never return another kernel's result)
    return find_multipliers(p, premises)


def clear_caches() -> None:
    """Forget memoised search and z3 results (the benchmark measures cold runs)."""
    from workbench.check import checker, discharge, premises

    _multipliers_cached.cache_clear()
    discharge._shifted_facts.cache_clear()
    discharge.contradiction.cache_clear()
    discharge._SHAPES.clear()
    discharge._floor_parts.cache_clear()
    premises._parse_text.cache_clear()
    _smt_cached.cache_clear()
    _refute_cached.cache_clear()
    checker._PROVABLE.clear()


def search(kernel: kir.Kernel, premises: Premises, mode: str, widths: Widths = Widths()):
    """Propose choices (first option whose look-ahead passes) and multipliers for each side condition."""
    a = Analysis(kernel, premises, mode, _search_oracle, widths)
    a.run()
    mults = {}
    for key, sc in a.conditions.items():
        if sc.claim is None:
            continue
        m = _multipliers_cached(sc.claim, premises)
        if m:
            mults[key] = tuple((f, str(lam)) for f, lam in m)
    return dict(a.choices), mults


# -- the trusted check --------------------------------------------------------------------------------------


def check_certificate(
    kernel: kir.Kernel, premises: Premises, cert: Certificate, smt: bool = True, widths: Widths | None = None
) -> tuple[tuple[Discharged, ...], dict[str, tuple]]:
    """Recompute every interval and side condition from the certificate's choices and discharge them.

    Returns the discharged conditions and, per condition key, ``(node, lane class)`` for explanations.
    Raises :class:`CertificateError` if the certificate names another kernel or lacks a choice."""
    if cert.ir_hash != ir_hash(kernel):
        raise CertificateError(
            f"certificate for IR hash {cert.ir_hash[:12]} does not match kernel {kernel.name} "
            f"({ir_hash(kernel)[:12]}); re-run `workbench check`", "ir_hash")
    stated = assert_premises(kernel)
    if cert.premises.asserts != stated:
        # The premises on the inputs are part of what was proved: a certificate must state the kernel's own.
        raise CertificateError(
            f"certificate for {kernel.name} states the device_assert premises "
            f"{[a.text() for a in cert.premises.asserts]}, the kernel assumes {[a.text() for a in stated]}; "
            "re-run `workbench check`", "premises.asserts")
    w = widths or Widths(*cert.widths)
    a, exact = recheck(kernel, premises, cert, w, retyped(kernel, w))
    unchecked = sorted(set(cert.narrowed) - a.partial_checked) if cert.mode == "partial" else []
    if unchecked:
        # P rewrites exactly the sites its certificate names: each must be a site the analysis checked.
        raise CertificateError(
            f"certificate for {kernel.name} names P's sites {unchecked}, which the analysis did not check as "
            "int64 // or % sites; re-run `workbench check --mode partial`", "narrowed")
    mults = cert.multiplier_map()
    keys = sorted(a.conditions)
    out = {key: _discharge(a.conditions[key], premises, mults.get(key, ()), False, exact[key]) for key in keys}
    if smt:
        out = _smt_pass(a, keys, out, premises, mults)
    out = [out[k] for k in keys]
    if len(out) != len(a.generated):  # invariant: every generated obligation is discharged
        raise AssertionError(f"{kernel.name}: {len(a.generated)} side conditions generated, {len(out)} discharged")
    return tuple(out), a


def _smt_pass(a, keys, out: dict, premises: Premises, mults: dict) -> dict:
    """z3 on the conditions the exact procedure failed, fewest lane-class atoms first, within a budget.

    The budget counts distinct claims (the same polynomial on several lane classes is one query) and each
    query runs under z3's deterministic resource limit: the verdict never depends on load. Two facts save
    queries without changing which kernels are certified (every condition proved, as before):

    - claims ``q + K >= 0`` that differ only in the constant ``K`` (the same address at offsets -1, 0, +1)
      are ordered: a proof for ``K`` proves every larger constant, a refuting shape for ``K`` refutes every
      smaller one (``q + K' <= q + K < 0`` there);
    - once z3 refutes one condition the kernel is refused whatever the others say, so the rest are not
      asked (they stay unproved, with that reason in their detail);
    - once z3 leaves one condition undecided (its resource limit spent) the kernel is refused as well, so
      the rest are not asked to prove anything: each gets only a quick refutation attempt
      (:func:`workbench.check.discharge.smt_refute`, whose shape z3 itself confirms), which can explain the
      refusal with a counterexample and stops the round like any refutation. Before this, squeezenet1_0's
      max-pool kernel spent 18 of its 22 s of checking on eleven more queries that each ran out of budget.

    Which kernels are certified is decided before any of the last rule applies: every condition proved, as
    before, or the first one that is not."""
    todo = [k for k in keys if out[k].status is not Status.PROVED and a.conditions[k].claim is not None]
    todo.sort(key=lambda k: (len(a.where[k][1]), _REASON_ORDER.get(a.conditions[k].reason, 9), k))
    asked: set[Poly] = set()
    tried = []
    for key in todo:
        claim = a.conditions[key].claim
        if claim in asked or len(asked) < SMT_BUDGET:
            asked.add(claim)
            tried.append(key)
        else:
            out[key] = replace(out[key], detail=f"{_NOT_TRIED} (budget of {SMT_BUDGET} distinct queries per kernel "
                                                "spent)")
    family: dict[Poly, list] = {}
    for key in tried:
        claim = a.conditions[key].claim
        family.setdefault(claim - claim.const_value(), []).append(key)
    settled: set = set()
    decided = None  # the first condition z3 left undecided: the kernel is refused from there on
    for i, key in enumerate(tried):
        if key in settled:
            continue
        sc = a.conditions[key]
        if decided is None:
            d = _discharge(sc, premises, mults.get(key, ()), True, False)
        else:
            r = _refute_cached(sc.claim, premises)
            if r is None:
                out[key] = replace(out[key], detail=f"{_NOT_ASKED} (z3 cannot decide {decided} within its budget); "
                                                    "no quick refutation either")
                settled.add(key)
                continue
            d = Discharged(sc, Status.REFUTED, "z3", model=r.model)
        out[key] = d
        settled.add(key)
        k0 = sc.claim.const_value()
        for other in family[sc.claim - k0]:
            if other in settled:
                continue
            k1 = a.conditions[other].claim.const_value()
            if d.status is Status.PROVED and k1 >= k0:
                why = (f"z3 proves the same claim for {key}" if k1 == k0 else
                       f"z3 proves {key}, the same polynomial with constant {k0} <= {k1}")
                out[other] = replace(d, condition=a.conditions[other], multipliers=(), detail=why)
                settled.add(other)
            elif d.status is Status.REFUTED and k1 <= k0:
                why = (f"z3 refutes the same claim for {key}" if k1 == k0 else
                       f"z3's shape refuting {key} (constant {k0} >= {k1}) refutes it too")
                out[other] = replace(d, condition=a.conditions[other], multipliers=(), detail=why)
                settled.add(other)
        if d.status is Status.REFUTED:
            for other in tried[i + 1:]:
                if other not in settled:
                    out[other] = replace(out[other], detail=f"{_NOT_ASKED} (z3 refutes {key})")
            break
        if d.status is not Status.PROVED and decided is None:
            decided = key
    return out


def _discharge(sc: SideCondition, premises: Premises, mult, smt: bool, exact: bool) -> Discharged:
    """A discharged condition: ``exact`` is the trusted re-checker's answer (the exact procedure with the
    certificate's multipliers); z3 (``smt``) is tried only where it failed."""
    if sc.claim is None:
        return Discharged(sc, Status.UNKNOWN, "", detail=_no_bound_detail(sc))
    m_text = tuple((f, str(v)) for f, v in mult)
    facts = {f.name: f for f in premises.facts}
    used = tuple(sorted({facts[f].origin for f, _ in mult if f in facts and f.startswith("guard:")}))
    if not smt:
        return Discharged(sc, Status.PROVED if exact else Status.UNKNOWN, "exact" if exact else "", m_text,
                          guards=used if exact else ())
    if exact:
        return Discharged(sc, Status.PROVED, "exact", m_text, guards=used)
    r = _smt_cached(sc.claim, premises)
    if r.status == "proved":
        return Discharged(sc, Status.PROVED, "z3", guards=r.guards_used)
    if r.status == "refuted":
        return Discharged(sc, Status.REFUTED, "z3", model=r.model)
    return Discharged(sc, Status.UNKNOWN, "", detail=f"exact procedure failed; z3: {r.detail or 'unknown'}")


@lru_cache(maxsize=65536)
def _smt_cached(p: Poly, premises: Premises):
    return smt_check(p, premises)


@lru_cache(maxsize=65536)
def _refute_cached(p: Poly, premises: Premises):
    return smt_refute(p, premises)


def _no_bound_detail(sc: SideCondition) -> str:
    match sc.reason:
        case Reason.TAIL_MASKED:
            return "the access's mask does not contain the launch-range mask, so tail lanes may touch memory"
        case Reason.DEFINED_VALUE:
            return "a load without other= may be masked off where its value reaches the store"
        case Reason.PAYLOAD_TYPE:
            return ("data combined with a narrowed size argument is computed in another type in the narrowed "
                    "kernel (integer payload, or a reduction, scan or tuple helper over such operands), and more "
                    "than the low bits of an integer store depend on it")
        case _:
            return "the interval analysis found no bound for this subexpression on this lane class"


# -- the whole question -------------------------------------------------------------------------------------


def premises_for(record: CapturedKernel) -> Premises:
    return premises_of(record)


def check_kernel(
    record: CapturedKernel,
    mode: str = "observable",
    *,
    smt: bool = True,
    counterexample: bool = True,
    widths: Widths = Widths(),
) -> Verdict:
    """Search, certify and check one captured kernel in ``mode``; explain a rejection."""
    t0 = time.perf_counter()
    validate(record, check_hash=False)  # one jit function, signature agreement, declared types (InputError)
    size_args = tuple((a.name, a.expr) for a in record.size_args)
    try:
        _declared_types(record)
        k = kir.parse(record)
        premises = premises_of(record)
        if premises.index_dtype not in ("tl.int32", "int32"):
            raise OutOfClassError(classes.int64_reason(record))
    except (UnsupportedError, OutOfClassError) as exc:
        return Verdict(record.name, record.program, mode, "out-of-class", str(exc), (), None,
                       seconds=time.perf_counter() - t0, size_args=size_args)
    vacuous = contradiction(premises, smt)
    if vacuous:
        return Verdict(record.name, record.program, mode, "refused",
                       f"premises are contradictory (no shape satisfies them): {vacuous}", (), None,
                       seconds=time.perf_counter() - t0, size_args=size_args)
    try:
        if mode != "partial":  # P keeps W's types; its own literals are checked by OPERAND_FITS
            kir.instantiate(k, widths.narrow)
    except UnsupportedError as exc:
        # Triton would reject the narrowed kernel (a literal that fits the wide operand but not int32).
        return Verdict(record.name, record.program, mode, "refused",
                       f"the narrowed kernel does not type-check under Triton's rules: {exc}", (), None,
                       seconds=time.perf_counter() - t0, size_args=size_args)
    try:
        choices, mults = search(k, premises, mode, widths)
    except (UnsupportedError, OutOfClassError) as exc:
        return Verdict(record.name, record.program, mode, "out-of-class", str(exc), (), None,
                       seconds=time.perf_counter() - t0, size_args=size_args)
    cert = _certificate(record, k, premises, mode, choices, mults, (), "", widths)
    discharged, analysis = check_certificate(k, premises, cert, smt=smt, widths=widths)
    failed = [d for d in discharged if d.status is not Status.PROVED]
    narrowed = _narrowed(k, mode, widths, analysis, record)
    cex = None
    # A counterexample compares W with N; for P the refusal names the failed site condition instead.
    if failed and counterexample and mode != "partial":
        cex = find_counterexample(record, k, premises, analysis, failed, widths)
    if failed:
        first = _first_failure(failed)
        if cex is not None:
            first = next(d for d in failed if d.condition.key == cex.condition)
        reason = (f"cannot show safety: {first.condition.reason.value} fails for "
                  f"{first.condition.origin.subexpression} on {first.condition.origin.lane_class}"
                  f" ({_status_text(first)})")
        if cex is not None:
            reason += f"; counterexample {cex.text()}"
        else:
            reason += "; no counterexample found (the bound may be loose, or none exists)"
        verdict = "refused"
        if mode == "observable" and not narrowed and cex is None:
            # Nothing to narrow: N is W, text for text, and observable mode asks only that they agree. The
            # analysis's conditions keep its intervals exact for narrowed kernels; unproved here, they are
            # kept in the verdict (and a Lean instance is refused for them), but they cannot make N differ.
            reason = ("certified by identity: nothing to narrow (no size argument), so the narrowed kernel is the "
                      "wide kernel, text for text, and observable mode asks only that they agree; the interval "
                      f"analysis alone did not show it ({reason.removeprefix('cannot show safety: ')})")
            verdict = "certified"
    else:
        reason = f"all {len(discharged)} side conditions discharged by the checker (exact / z3)"
        verdict = "certified"
    reason += classes.premises_note(k)
    if analysis.launch_premise:
        reason += (f"; premise on the launch (Inductor's launcher, not checked here): XBLOCK <= {X_BLOCK_MAX} "
                   "(TRITON_MAX_BLOCK['X'] of torch/_inductor/runtime/hints.py), so xnumel, a multiple of it in "
                   "the shape symbols, leaves no tail lane although the kernel has no range mask")
    if "y" in analysis.launch_premises:
        reason += (f"; premise on the launch (Inductor's launcher, not checked here): YBLOCK <= {Y_BLOCK_MAX} "
                   "(TRITON_MAX_BLOCK['Y']), so ynumel, a multiple of it, launches no y lane past it (Grid2D) "
                   "although the kernel has no y range mask")
    cert = _certificate(record, k, premises, mode, choices, mults, discharged, reason, widths, verdict, narrowed)
    return Verdict(record.name, record.program, mode, verdict, reason, narrowed if verdict == "certified" else (),
                   cert, discharged, cex, time.perf_counter() - t0, size_args)


def _narrowed(k: kir.Kernel, mode: str, widths: Widths, analysis=None, record=None) -> tuple[str, ...]:
    """What the mode narrows: the size arguments (N), or P's sites (``n7`` = node key of each int64 ``//``
    or ``%``, in walk order over the kernel's roots: the keys certificates use).

    P's sites are the int64 division nodes that (a) the analysis checked as sites (``partial_site``: operand
    fits int32 and divisor in [1, 2**31-1] on the lanes that need the value; a site no lane needs is left
    wide) and (b) are written as ``//``/``%`` in the kernel's own text (kir's spans), so the text generator
    can compute exactly these in int32 and nothing else (a helper's divisions, payload divisions on data
    and unchecked ones stay as emitted). Before the analysis ran (``analysis=None``) the list is empty."""
    if mode != "partial":
        return tuple(p.name for p in k.params if p.kind == "size")
    if analysis is None or record is None:
        return ()
    from workbench.kir.spans import division_nodes, division_spans, node_keys

    k2, spans = division_spans(record)
    keys = node_keys(k2)
    written = {keys[id(n)] for n in spans.values() if id(n) in keys}
    return tuple(s for s in division_nodes(k2, widths.int64) if s in written and s in analysis.partial_checked)


def _declared_types(record: CapturedKernel) -> None:
    """The checked class's declared types: size arguments exactly ``i64`` (the narrowing candidates; an
    ``i16`` or ``i32`` one is not a size this question is about) and element counts ``i32`` (int32-indexed
    kernels). Anything else is refused by name."""
    for a in record.size_args:
        if a.type != "i64":
            raise OutOfClassError(f"{record.name}: size argument {a.name} is declared {a.type!r}; only size "
                                  "arguments declared i64 are narrowing candidates (narrowing a narrower one "
                                  "would widen it)")
    for n in record.numels:
        if n.type == "constexpr" and str(n.expr).isdigit():
            continue  # ``xnumel = 1``: a one-row kernel passes its extent as a constexpr and the body fixes it
        if n.type not in ("i32", None):
            raise OutOfClassError(f"{record.name}: element count {n.name} is declared {n.type!r}; the checker "
                                  "covers int32-indexed kernels (element counts i32)")


def _status_text(d: Discharged) -> str:
    if d.status is Status.REFUTED:
        return "z3 finds shapes satisfying every guard where the bound is violated"
    return d.status.value + (": " + d.detail if d.detail else "")


def _first_failure(failed):
    # A refuted condition, else an unproved one z3 was asked about (the one that decided the refusal) or had no
    # claim to ask, before those z3 was not asked about (the kernel refused already, or the budget spent).
    order = {Status.REFUTED: 0, Status.UNKNOWN: 1, Status.CONFLICT: 0}
    skipped = (_NOT_ASKED, _NOT_TRIED)
    return sorted(failed, key=lambda d: (order[d.status], d.detail.startswith(skipped),
                                         d.condition.reason.name != "SIZE_ARG_FITS", d.condition.key))[0]


def _certificate(record, k, premises, mode, choices, mults, discharged, reason, widths, verdict="refused",
                 narrowed=None):
    facts = {f.name: f for f in premises.facts}
    # Every guard a proof relies on: the exact procedure's multipliers and z3's unsat cores. The compiler
    # rule requires each of them among the live guards.
    used = sorted({facts[f].origin for m in mults.values() for f, _ in m if f in facts and f.startswith("guard:")}
                  | {g for d in discharged if d.status is Status.PROVED for g in d.guards})
    return Certificate(
        kernel=record.name,
        program=record.program,
        ir_hash=ir_hash(k),
        mode=mode,
        premises=CertPremises(
            size_args=tuple((a.name, a.expr, a.type) for a in record.size_args),
            numels=tuple((n.name, n.expr, str(n.type)) for n in record.numels),
            lower_bounds=tuple(sorted((s.name, int(s.lower)) for s in record.symbols if s.lower is not None)),
            guards_used=tuple(used),
            guards=tuple(record.guards),
            index_dtype=record.index_dtype,
            grid_type=record.grid_type,
            asserts=assert_premises(k),
        ),
        narrowed=_narrowed(k, mode, widths) if narrowed is None else narrowed,
        choices=tuple(sorted(choices.items())),
        multipliers=tuple(sorted(mults.items())),
        side_conditions=tuple(
            (d.condition.key, d.condition.text(), d.condition.reason.value, d.status.value, d.prover) for d in discharged
        ),
        verdict=verdict,
        reason=reason,
        widths=(widths.int32, widths.int64),
    )


def cross_check(record: CapturedKernel, verdict: Verdict, rlimit: int = SMT_RLIMIT) -> list[tuple[Discharged, str]]:
    """Ask z3 about every condition the exact procedure proved: a refutation there contradicts a sound
    procedure, so it exposes a bug in the premises' encoding (returned as ``(condition, detail)``)."""
    premises = premises_of(record)
    conflicts = []
    for d in verdict.discharged:
        if d.status is Status.PROVED and d.prover == "exact" and d.condition.claim is not None:
            r = smt_check(d.condition.claim, premises, rlimit=rlimit)
            if r.status == "refuted":
                conflicts.append((d, f"z3 refutes an exactly proved condition at {dict(r.model)}"))
    return conflicts


def check_all_modes(record: CapturedKernel, **kw) -> dict[str, Verdict]:
    return {m: check_kernel(record, m, **kw) for m in MODES}


# -- counterexamples ----------------------------------------------------------------------------------------


def _with_other_kernels_symbols(shape: dict[str, int], premises: Premises) -> dict[str, int]:
    """Guards of the graph may name sizes this kernel never reads (another input's ``s95``): they get 2, the
    smallest size Dynamo leaves dynamic, so the shape is one Inductor compiles for; the kernel ignores them."""
    import re

    out = dict(shape)
    for g in premises.guards:
        for sym in re.findall(r"\b(?:s|u|ps)\d+\b", g):
            out.setdefault(sym, 2)
    return out


def find_counterexample(record, k, premises, analysis: Analysis, failed, widths: Widths = Widths()):
    """For the failed conditions (refuted first): a shape from z3 that satisfies every guard, a lane where
    the subexpression leaves the narrowed range (z3 with the shape fixed), and both kernels' values there."""
    from workbench.check.counterexample import witness

    attempts = 0
    order = _REASON_ORDER
    # Fewest lane-class atoms first (uniform subexpressions, then range-masked lanes): their lanes are easy
    # to find; then by reason.
    for d in sorted(failed, key=lambda d: (len(analysis.where.get(d.condition.key, (None, ()))[1]),
                                           d.status is not Status.REFUTED,
                                           order.get(d.condition.reason, 9), d.condition.key)):
        if d.condition.claim is None or attempts >= CEX_ATTEMPTS:
            continue
        attempts += 1
        model = d.model
        if not model and d.detail.startswith(_NOT_ASKED):
            continue  # the check stopped at a refutation: that condition's shape is tried instead
        if not model:
            r = _smt_cached(d.condition.claim, premises)
            if r.status != "refuted":
                continue
            model = r.model
        shape = _with_other_kernels_symbols(dict(model), premises)
        ok, _ = guards_hold(premises, shape)
        if not ok:
            continue
        got = witness(record, k, premises, analysis, d.condition, shape, widths)
        if got is not None:
            return got
    return None


__all__ = [
    "ALL_MODES", "MODES", "Counterexample", "Verdict", "check_all_modes", "check_certificate", "check_kernel", "find_counterexample",
    "search", "Fraction",
]
