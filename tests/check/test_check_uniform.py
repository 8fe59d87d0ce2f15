"""Lane-uniform conditions (check/trusted/uniform.py): dead branches decided by the premises (DEAD_BRANCH),
empty lane classes, case splits on uniform atoms, the floor-atom quotient rule, and floors by a size
(``floor(16*s35/s21)``, premises' floordiv atoms).

Named examples on real zoo records (``tests/check/data/uniform``), tampered certificates (the certificate
may only choose; a wrong choice is refused by the trusted re-check), and Hypothesis soundness properties: a
generated kernel that the checker certifies agrees, wide against narrowed, on every lane of every shape of
its small-width model (``check/soundness.py``), and each new definition agrees with exact evaluation.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbench import kir
from workbench.capture import load
from workbench.capture.record import Numel, ShapeSymbol, SizeArg
from workbench.check.api import check_certificate, check_kernel, ir_hash
from workbench.check.certificate import Certificate
from workbench.check.checker import Widths
from workbench.check.errors import CertificateError
from workbench.check.poly import Poly
from workbench.check.premises import premises_of
from workbench.check.sidecond import Reason, Status
from workbench.check.soundness import agreement, shapes, small_record
from workbench.paths import KERNELS

DATA = Path(__file__).parent / "data" / "uniform"
MEAN2 = DATA / "triton_red_fused_convolution_mean_2.json"  # mobilenet_v3_small
MEAN41 = DATA / "triton_red_fused_convolution_mean_silu_41.json"  # efficientnet_b0
POOL1 = DATA / "triton_poi_fused__native_batch_norm_legit_no_training_max_pool2d_with_indices_relu_1.json"  # resnet18
MAX15 = DATA / "triton_poi_fused_add_addmm_convolution_mul_native_layer_norm_permute_view_15.json"  # convnext_tiny
MAX0 = DATA / "triton_red_fused_convolution_native_layer_norm_permute_0.json"  # convnext_tiny
FLOOR12 = DATA / "triton_poi_fused_clone_permute_view_12.json"  # transformer_decoder_layer
BITS = 6
SMALL = Widths(BITS, 2 * BITS)
C, R = "certified", "refused"


def _dead(v):
    return [d for d in v.discharged if d.condition.reason is Reason.DEAD_BRANCH]


def _tampered(cert: Certificate, **choices) -> Certificate:
    got = dict(cert.choices)
    got.update(choices)
    return replace(cert, choices=tuple(sorted(got.items())))


def _recheck_refuses(rec, cert) -> bool:
    """The trusted re-check does not accept ``cert``: a condition fails, or a choice it needs is missing."""
    try:
        out, _ = check_certificate(kir.parse(rec), premises_of(rec), cert)
    except CertificateError:
        return True
    return any(d.status is not Status.PROVED for d in out)


def _symbols(rec, **lower):
    return replace(rec, symbols=tuple(replace(s, lower=lower.get(s.name, s.lower)) for s in rec.symbols))


def _live_branch(rec):
    rec = _symbols(rec, s65=0)
    return replace(rec, guards=tuple(g for g in rec.guards if "s65" not in g or "<= 2147483647" in g))


# -- real records -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path,expected", [
    (MEAN2, (C, C)), (MEAN41, (C, C)), (POOL1, (R, C)), (MAX15, (C, C)), (MAX0, (C, C)), (FLOOR12, (C, C)),
], ids=lambda x: x.stem[:40] if isinstance(x, Path) else "")
def test_zoo_records_refused_before_are_certified(path, expected):
    """Before issue 13's reach work every one of these was refused in observable mode with no
    counterexample (data/zoo/zoo.json: 'no bound', 'z3 not tried (budget)', 'z3 has no meaning')."""
    rec = load(path)
    got = tuple(check_kernel(rec, m, counterexample=False).verdict for m in ("strict", "observable"))
    assert got == expected


def test_the_dead_branch_of_div_floor_integer_is_a_discharged_side_condition():
    v = check_kernel(load(MEAN2), "observable", counterexample=False)
    assert v.certified, v.reason
    dead = _dead(v)
    assert dead and all(d.status is Status.PROVED for d in dead)
    # (-1 + ks1) < 0 is false: lo(-1 + ks1) - hi(0) = s65 - 1 >= 0, from the lower bound s65 >= 2
    claims = {d.condition.claim for d in dead}
    assert Poly.sym("s65") - 1 in claims and Poly.sym("s54") - 1 in claims
    # visible in the certificate: the choice (which value) and the condition (its claim and reason)
    decisions = {k: c for k, c in v.certificate.choices if c in ("true", "false")}
    assert decisions and set(decisions.values()) == {"false"}
    assert any(sc[2] == Reason.DEAD_BRANCH.value for sc in v.certificate.side_conditions)


def test_a_decision_the_premises_do_not_show_is_refused():
    rec = load(MEAN2)
    v = check_kernel(rec, "observable", counterexample=False)
    k, p = kir.parse(rec), premises_of(rec)
    key = next(k_ for k_, c in v.certificate.choices if c == "false")
    out, _ = check_certificate(k, p, _tampered(v.certificate, **{key: "true"}))
    bad = [d for d in out if d.condition.reason is Reason.DEAD_BRANCH and d.status is not Status.PROVED]
    assert bad and bad[0].status is Status.REFUTED  # z3 finds a shape where the comparison is false


def test_an_open_decision_leaves_the_dead_branch_to_be_bounded():
    rec = load(MEAN2)
    v = check_kernel(rec, "observable", counterexample=False)
    opened = {k_: "open" for k_, c in v.certificate.choices if c == "false"}
    # the branch is analysed now: its quotient rules were never chosen, so the certificate lacks them
    with pytest.raises(CertificateError, match="no quotient choice|no remainder choice"):
        check_certificate(kir.parse(rec), premises_of(rec), _tampered(v.certificate, **opened))


def test_a_decision_may_rest_on_a_guard():
    # convnext's Max(1, ks3 // 16) with the lower bound of s54 hand-edited from 64 to 16: 1 >= ks3 // 16 is no
    # longer decided by the lower bounds (ks3 // 16 >= 1 only); Inductor's guard (s54//16) >= 2 decides it
    rec = _symbols(load(MAX15), s54=16)
    v = check_kernel(rec, "observable", counterexample=False)
    assert v.certified, v.reason
    dead = [d for d in _dead(v) if d.condition.origin.subexpression == "(1 >= (ks3 // 16))"]
    assert dead and all(d.status is Status.PROVED and d.guards for d in dead)
    assert set(dead[0].guards) <= set(v.certificate.premises.guards_used)


def test_a_dead_branch_live_for_an_admissible_shape_is_refused():
    """Mutant: the lower bound of s65 hand-edited to 0 and the guards that imply s65 >= 3 (the pooled sizes'
    ``Ne``/``<`` guards) dropped: at s65 = 0, (-1 + ks1) < 0 holds and the branch called dead is taken."""
    good = load(MEAN2)
    bad = _live_branch(good)
    assert not check_kernel(bad, "observable", counterexample=False).certified
    assert not check_kernel(bad, "strict", counterexample=False).certified
    # the certificate issued for the real record, re-checked against the mutant's premises
    cert = check_kernel(good, "observable", counterexample=False).certificate
    out, _ = check_certificate(kir.parse(bad), premises_of(bad), cert)
    failed = [d for d in out if d.status is not Status.PROVED]
    assert any(d.condition.reason is Reason.DEAD_BRANCH for d in failed)  # the branch called dead is not
    # (z3's round stops at its first refutation, which need not be the dead branch's: api._smt_pass)
    refuted = [d for d in failed if d.status is Status.REFUTED]
    assert refuted and dict(refuted[0].model)["s65"] <= 0


def test_decisions_are_per_uniform_comparison_only():
    """A certificate entry deciding a lane-dependent comparison is never consulted: the trusted analysis asks
    for decisions of uniform comparisons only. Honoured, "xindex < xnumel is false" would empty every class of
    the refused mutant above and certify it."""
    bad = _live_branch(load(MEAN2))
    v = check_kernel(bad, "observable", counterexample=False)
    assert not v.certified
    k, p = kir.parse(bad), premises_of(bad)
    _, a = check_certificate(k, p, v.certificate)
    forged = _tampered(v.certificate, **{f"{a.key[id(x)]}@all": "false" for x in a.range_atoms})
    out, a2 = check_certificate(k, p, forged)
    assert any(d.status is not Status.PROVED for d in out)
    assert not any(f"{a.key[id(x)]}@all" in a2.choices for x in a.range_atoms)


# -- Max(1, e): case splits ----------------------------------------------------------------------------------


def _max_undecided():
    """convnext's Max(1, ks3 // 16) with lower bounds 16 (ks3 // 16 >= 1, but 1 >= ks3 // 16 undecided) and
    only the numel guard on the floors: the loose bound Max(1, e) <= 1 + e is 4x too weak, the exact one
    (e on e > 1, 1 otherwise) fits."""
    rec = _symbols(load(MAX15), s54=16, s65=16)
    keep = "384*s21*((s54//16))*((s65//16)) <= 2147483647"
    guards = tuple(g for g in rec.guards if ("s54" not in g and "s65" not in g) or g == keep)
    return replace(rec, guards=guards + ("((s54//16)) >= 1", "((s65//16)) >= 1"))


def test_max_of_one_is_certified_by_a_case_split_on_its_uniform_condition():
    rec = _max_undecided()
    v = check_kernel(rec, "observable", counterexample=False)
    assert v.certified, v.reason
    splits = {k_: c for k_, c in v.certificate.choices if k_.startswith("agree:") and c != "none"}
    assert splits
    # without the split the same choices are refused (the intervals of each part are needed)
    assert _recheck_refuses(rec, _tampered(v.certificate, **{k_: "none" for k_ in splits}))


def test_a_split_may_only_choose_a_uniform_comparison():
    rec = _max_undecided()
    v = check_kernel(rec, "observable", counterexample=False)
    k = kir.parse(rec)
    key = next(k_ for k_, c in v.certificate.choices if k_.startswith("agree:") and c != "none")
    from workbench.check.checker import Analysis

    a = Analysis(k, premises_of(rec), "observable", lambda *x: x[2][0])
    lane_atom = a.key[id(a.range_atoms[0])]  # xindex < xnumel: lane-dependent
    with pytest.raises(CertificateError, match="not one of"):
        check_certificate(k, premises_of(rec), _tampered(v.certificate, **{key: lane_atom}))


def test_lean_proves_a_case_split_by_cases():
    """The certificate's split reaches Lean (issue 13, item 3): the instance proves the offset's agreement by
    cases on the split comparison (`by_cases` on its narrowed value), nested as the certificate splits
    (tests/lean/test_lean_uniform.py has the mirror and the mutants)."""
    from workbench.lean.adapter import from_certificate
    from workbench.lean.emit import emit_instance

    rec = _max_undecided()
    v = check_kernel(rec, "observable", counterexample=False)
    inst = from_certificate(v.certificate, "test", record=rec, verify_hash=False)
    assert inst.splits
    text = emit_instance(inst)
    assert "by_cases hu" in text and "Expr.lt_of_cmp_ge_not_ne_zero" in text


def test_lean_bounds_a_dead_branch_by_its_live_branch():
    """DEAD_BRANCH reaches Lean: the decided condition is a `Bounded.cmp_const` whose claim is a side condition,
    the integer where takes its live branch's interval (`Bounded.select_false`)."""
    from workbench.lean.adapter import from_certificate
    from workbench.lean.emit import emit_instance

    rec = load(MEAN2)
    v = check_kernel(rec, "observable", counterexample=False)
    text = emit_instance(from_certificate(v.certificate, "test", record=rec))
    assert "Bounded.select_false" in text and "Bounded.cmp_const" in text


# -- floors: the atom rule and floors by a size ---------------------------------------------------------------


def test_a_uniform_floor_division_is_the_premises_atom():
    v = check_kernel(load(MEAN2), "observable", counterexample=False)
    assert any(c == "atom" for _, c in v.certificate.choices)
    fits = [d for d in v.discharged if d.condition.reason is Reason.FITS_NARROW
            and d.condition.origin.subexpression == "((-1 + ks1) // 4)"]
    assert fits and all(d.condition.claim.symbols() <= {"_a1"} for d in fits)  # _a1 = floor(s65/4 - 1/4)


def test_floor_by_a_size_is_an_atom_with_its_definition():
    p = premises_of(load(FLOOR12))
    atom = next(a for a in p.atoms if a.text == "floor(16*s35/s21)")
    assert atom.kind == "floordiv" and dict(p.lower)[atom.name] == 0
    f = Poly.sym(atom.name)
    facts = {x.poly for x in p.facts if x.name.startswith(f"def:{atom.name}:")}
    s21, s35 = Poly.sym("s21"), Poly.sym("s35")
    assert facts == {16 * s35 - s21 * f, s21 * f + s21 - 1 - 16 * s35}


def test_floor_by_a_size_that_may_be_zero_has_no_definition():
    """Mutant: the divisor's lower bound hand-edited to 0: floor(16*s35/0) has no meaning, so the atom gets
    no facts and the size arguments built from it cannot be shown to fit."""
    rec = _symbols(load(FLOOR12), s21=0)
    p = premises_of(rec)
    atom = next(a for a in p.atoms if a.text == "floor(16*s35/s21)")
    assert not [x for x in p.facts if x.name.startswith(f"def:{atom.name}:")] and atom.name not in dict(p.lower)
    for m in ("strict", "observable"):
        assert not check_kernel(rec, m, counterexample=False).certified


@settings(max_examples=200, deadline=None)
@given(st.integers(-60, 60), st.integers(1, 12), st.integers(-5, 5))
def test_floordiv_facts_hold_exactly_and_pin_the_value(n, d, f_off):
    """For den >= 1 the defining facts hold at f = n // d (Python's floor) and at no other integer."""
    from workbench.check.premises import _AtomTable

    table = _AtomTable({"a": -100, "b": 1})
    f = table.floordiv(Poly.sym("a"), Poly.sym("b"), "floor(a/b)")
    facts = [x.poly for x in table.facts]
    name = next(iter(f.symbols()))
    for cand in (n // d, n // d + f_off):
        ok = all(x.evaluate({"a": n, "b": d, name: cand}) >= 0 for x in facts)
        assert ok == (cand == n // d)


@settings(max_examples=200, deadline=None)
@given(st.integers(-50, 50), st.integers(-9, 9).filter(lambda x: x != 0))
def test_z3_floordiv_is_sympy_floor_of_the_quotient(n, d):
    import sympy
    import z3

    from workbench.check.discharge import sympy_floordiv

    ctx = z3.Context()
    s = z3.Solver(ctx=ctx)
    q = z3.Int("q", ctx)
    s.add(q == sympy_floordiv(z3.IntVal(n, ctx), z3.IntVal(d, ctx), ctx))
    assert s.check() == z3.sat
    assert s.model()[q].as_long() == int(sympy.floor(sympy.Rational(n, d))) == n // d


# -- Hypothesis: generated kernels certified => small-model agreement ----------------------------------------

_TEMPLATE = '''def kgen(in_ptr0, out_ptr0, ks0, ks1, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + ({offset}), xmask, other=0.0)
    tl.store(out_ptr0 + (xindex), tmp0, xmask)
'''


def _generated(offset: str, lower0: int, lower1: int, guards: tuple[str, ...], numel: str = "s77"):
    base = load(KERNELS / "tile" / "triton_poi_fused_repeat_0.json")
    return replace(
        base, program="hypothesis", name="kgen", source=_TEMPLATE.format(offset=offset),
        signature={"in_ptr0": "*fp32", "out_ptr0": "*fp32", "ks0": "i64", "ks1": "i64", "xnumel": "i32",
                   "XBLOCK": "constexpr"},
        size_args=(SizeArg("ks0", "s27", "i64"), SizeArg("ks1", "s77", "i64")),
        numels=(Numel("xnumel", numel, "i32"),),
        symbols=(ShapeSymbol("s27", lower0, None, ()), ShapeSymbol("s77", lower1, None, ())),
        guards=("s27 <= 2147483647",) + guards,
    )


def _agrees(rec) -> bool:
    """Check the small record in both modes; when certified, every lane of every shape must agree."""
    rec = small_record(rec, BITS)
    vs = [check_kernel(rec, m, widths=SMALL, smt=False, counterexample=False) for m in ("strict", "observable")]
    if not any(v.certified for v in vs):
        return False
    sh, _ = shapes(rec, BITS, limit=200)
    lanes, diff = agreement(rec, SMALL, sh)
    assert diff is None, f"certified but the kernels differ: {diff}"
    return True


# a uniform condition, a branch that overflows the narrowed kernel (ks0*ks1*ks1*ks0 leaves 6 bits) and one
# that fits; the condition's value depends on the symbols' lower bounds and guards
conds = st.sampled_from(["((-1 + ks0) < 0) != 0", "ks0 < 3", "(ks0 - ks1) >= 2", "(ks1 // 2) > 1",
                         "ks0 == ks1", "(ks0 % 2) != 0", "1 >= (ks1 // 4)"])


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(conds, st.booleans(), st.integers(0, 5), st.integers(1, 5), st.sampled_from([(), ("s27 >= 3",), ("s77 >= 4",)]))
def test_generated_dead_branches_certified_implies_agreement(cond, big_first, lower0, lower1, extra):
    big, small_ = "x0 + ks0*ks1*ks1*ks0", "x0"
    a, b = (big, small_) if big_first else (small_, big)
    rec = _generated(f"tl.where({cond}, {a}, {b})", lower0, lower1, ("s77 <= 2147483647",) + extra)
    _agrees(rec)


def test_generated_dead_branch_example_is_certified_and_its_mutant_is_not():
    # ks0 >= 3: (ks0 < 3) is false on every lane, the overflowing branch is dead
    offset = "tl.where(ks0 < 3, x0 + ks0*ks1*ks1*ks0, x0)"
    assert _agrees(_generated(offset, 3, 1, ("s77 <= 2147483647",)))
    # lower bound 2: the branch is live at s27 = 2, where it overflows the 6-bit narrowed kernel
    assert not _agrees(_generated(offset, 2, 1, ("s77 <= 2147483647",)))


MAXES = st.sampled_from(["((1) * ((1) >= (ks0 // {d})) + (ks0 // {d}) * ((ks0 // {d}) > (1)))",
                         "((ks0 // {d}) * ((ks0 // {d}) >= (1)) + (1) * ((1) > (ks0 // {d})))"])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MAXES, st.sampled_from([1, 2, 4]), st.integers(0, 9), st.integers(1, 3), st.booleans())
def test_generated_max_products_certified_implies_agreement(form, d, lower0, lower1, tight):
    m = form.format(d=d)
    guards = ("s77 <= 2147483647", f"s77*((s27//{d})) <= 2147483647") if tight else ("s77 <= 2147483647",)
    _agrees(_generated(f"x0 * {m}", lower0, lower1, guards))


def test_generated_max_product_needs_and_gets_the_split():
    m = "((1) * ((1) >= (ks0 // 2)) + (ks0 // 2) * ((ks0 // 2) > (1)))"
    rec = _generated(f"x0 * {m}", 0, 1, ("s77 <= 2147483647", "s77*((s27//2)) <= 2147483647"))
    assert _agrees(rec)
    small = small_record(rec, BITS)
    v = check_kernel(small, "observable", widths=SMALL, smt=False, counterexample=False)
    assert any(k_.startswith("agree:") and c != "none" for k_, c in v.certificate.choices)
    # the same kernel without the guard on the product is refused (x0 * Max(1, s27//2) leaves int32)
    assert not _agrees(_generated(f"x0 * {m}", 0, 1, ("s77 <= 2147483647",)))


def test_rechecking_is_deterministic_and_independent_of_earlier_queries():
    """z3 runs under a resource limit in a fresh context: the same question gets the same answer before and
    after other queries (and on a loaded machine: no clock is read)."""
    from workbench.check.discharge import smt_check

    p = premises_of(load(FLOOR12))
    claim = Poly.const(2**31 - 1) - p.size_value("ks2")
    first = smt_check(claim, p)
    for other in range(5):
        smt_check(Poly.const(other) - p.size_value("ks0"), p)
    assert smt_check(claim, p) == first and first.status == "proved"
    v1, v2 = (check_kernel(load(MEAN41), "observable", counterexample=False) for _ in range(2))
    assert [d.to_json() for d in v1.discharged] == [d.to_json() for d in v2.discharged]
    assert v1.certificate.to_json() == v2.certificate.to_json()
    assert v1.certificate.ir_hash == ir_hash(kir.parse(load(MEAN41)))
