"""Lane-uniform conditions in Lean (issue 13, item 3), without Lean: a `tl.where` whose condition is decided
(the checker's DEAD_BRANCH: `Bounded.select_true`/`select_false`), the hull of an undecided one, case splits on a
uniform comparison (`by_cases` in the generated proof), floors by a size as the premises' atom, and one-row
kernels. The lemmas' statements on the Python mirror (Hypothesis), the zoo instances that use them (structure
checks and mutated files), and mutated inputs each rule must refuse."""

from __future__ import annotations

import dataclasses
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
import sympy
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from workbench import kir
from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import check_kernel
from workbench.errors import WorkbenchError
from workbench.lean.adapter import from_certificate
from workbench.lean.emit import emit_instance, module_name
from workbench.lean.from_kir import kernel_terms
from workbench.lean.instance import Symbol, Term, TermOp, arange, block, program_id, size, strong, weak, where
from workbench.lean.model import NARROW, WIDE, Lane, agree, evaluate, fits32, observe, safe, same_wrap, ty
from workbench.lean.paths import INSTANCES, PROJECT
from workbench.lean.structure import check_structure, declarations, expected_kernel_text
from workbench.paths import KERNELS

HERE = Path(__file__).parent
ZOO = HERE / "data" / "zoo"
MEAN2 = ZOO / "triton_red_fused_convolution_mean_2.json"  # mobilenet_v3_small: div_floor_integer's dead branch
MEAN41 = ZOO / "triton_red_fused_convolution_mean_silu_41.json"  # efficientnet_b0
MAX15 = ZOO / "triton_poi_fused_add_addmm_convolution_mul_native_layer_norm_permute_view_15.json"  # convnext Max
FLOOR12 = ZOO / "triton_poi_fused_clone_permute_view_12.json"  # transformer_decoder_layer: floor(16*s35/s21)
POOL1 = ZOO / "triton_poi_fused__native_batch_norm_legit_no_training_max_pool2d_with_indices_relu_1.json"
XENT_1 = KERNELS / "cross_entropy" / "triton_red_fused__log_softmax_nll_loss_forward_1.json"
X = program_id() * block() + arange()


def _code(path: Path) -> str:
    return re.sub(r"--.*", "", re.sub(r"/-.*?-/", "", path.read_text(), flags=re.S))


def _instance(path: Path, rec=None):
    rec = rec or load(path)
    v = check_kernel(rec, "observable", smt=False, counterexample=False)
    assert v.certified, v.reason
    return from_certificate(v.certificate, path.name, record=rec, verify_hash=False), v.certificate


# ------------------------------------------------------------------ the lemmas, as text and on the mirror


def test_lean_dead_branch_lemmas_ask_nothing_of_the_dead_branch():
    decls = declarations(_code(PROJECT / "Narrowing" / "Uniform.lean"))
    for name, live, dead in (("Bounded.select_true", "hA", "b"), ("Bounded.select_false", "hB", "a")):
        stmt = " ".join(decls[name].split(":=", 1)[0].split())
        assert f"({live} : Bounded S L" in stmt and f"Bounded S L {dead} " not in stmt, name
        assert ("(hC : Bounded S L c 1 1)" if name.endswith("true") else "(hC : Bounded S L c 0 0)") in stmt
    hull = " ".join(decls["Bounded.select"].split(":=", 1)[0].split())
    assert "(hA : Bounded S L a la ha) (hB : Bounded S L b lb hb)" in hull


BIG = st.one_of(st.integers(-5, 5), st.integers(2**31 - 5, 2**31 + 5), st.integers(-(2**40), 2**40))
LEAF = st.sampled_from([X, size(0), size(1), size(2, "i32"), weak(2), weak(-3), strong(7, "i64"), arange()])
TERM = st.recursive(LEAF, lambda c: st.tuples(st.sampled_from(["+", "*", "-"]), c, c).map(
    lambda x: {"+": x[1] + x[2], "*": x[1] * x[2], "-": x[1] - x[2]}[x[0]]), max_leaves=5)
CMP = st.sampled_from([TermOp.LT, TermOp.LE, TermOp.GT, TermOp.GE, TermOp.EQ, TermOp.NE])
LANES = st.builds(Lane.x, st.integers(0, 2**10), st.integers(0, 127), st.just(128), st.tuples(BIG, BIG, BIG))


def _wrap_ok(tw: str, tn: str, v: int) -> bool:
    """`WrapOK tw tn v v` on the mirror (the value itself: the lemmas apply it to the branch's value)."""
    from workbench.lean.model import wrap

    return same_wrap(tw, tn, v) and wrap(tn, v) == v


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(CMP, TERM, TERM, TERM, TERM, LANES)
def test_lean_select_lemmas_on_the_mirror(op, ca, cb, a, b, lane):
    """`Bounded.select_true` / `select_false` / `select`'s statements: a condition that agrees and is 1 (0)
    and a live branch that agrees, whose value fits the select's types, make the select agree with the live
    branch's value, whatever the dead branch does; the hull needs both branches."""
    c = Term(op, (ca, cb))
    t = where(c, a, b)
    mode = NARROW
    assume(agree(lane, c))  # vacuity guard: Hypothesis fails as Unsatisfiable if no example meets the premises
    cv = evaluate(mode, lane, c)
    live = a if cv != 0 else b
    assume(agree(lane, live) and _wrap_ok(ty(WIDE, t), ty(mode, t), evaluate(mode, lane, live)))
    assert agree(lane, t)
    assert evaluate(mode, lane, t) == evaluate(mode, lane, live) == evaluate(WIDE, lane, t)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(CMP, TERM, TERM, LANES)
def test_lean_comparisons_known_false_on_the_mirror(op, a, b, lane):
    """`Expr.ge_of_cmp_lt_not_ne_zero` and its kind: a comparison evaluating to 0 bounds its operands the other
    way (what the `¬ u` part of a case split uses)."""
    t = Term(op, (a, b))
    va, vb = evaluate(NARROW, lane, a), evaluate(NARROW, lane, b)
    assume(evaluate(NARROW, lane, t) == 0)  # vacuity guard: Hypothesis fails as Unsatisfiable if none is 0
    assert {TermOp.LT: vb <= va, TermOp.LE: vb < va, TermOp.GT: va <= vb, TermOp.GE: va < vb,
            TermOp.EQ: va != vb, TermOp.NE: va == vb}[op]


# ------------------------------------------------------------------ DEAD_BRANCH on the zoo


@pytest.mark.parametrize("path", [MEAN2, MEAN41], ids=lambda p: p.stem[:40])
def test_lean_dead_branch_instances_and_mutated_files(path):
    """div_floor_integer((-1) + ks, c): the condition `(ks - 1 < 0) != 0` is decided false by a side condition
    (`ks ≥ 2`), the where takes its live branch's interval (`Bounded.select_false`); the dead branch (whose
    `(ks - 1) % c` would need a non-negative dividend) is never bounded. A file that drops the decision's
    side condition, or takes the dead branch, fails the structure check."""
    inst, _ = _instance(path)
    text = (INSTANCES / f"{module_name(inst)}.lean").read_text()
    assert text == emit_instance(inst)
    kernel = expected_kernel_text(inst)
    assert check_structure(text, inst, kernel) == []
    assert "Bounded.select_false" in text and "Bounded.cmp_const" in text
    safe_proof = declarations(text)["kernel_safe"]
    decision = re.search(r"Bounded\.cmp_const \S+ \S+ false \(by intro x y h1 h2 h3 h4; have := (side_\d+) ", safe_proof)
    assert decision, "the decision is proved from a side condition"
    side = decision.group(1)
    others = sorted({int(n) for n in re.findall(r"\bside_(\d+)\b", safe_proof)} - {int(side[5:])})
    dropped = text.replace(safe_proof, safe_proof.replace(f"{side} ", f"side_{others[0]} "))
    assert any(f"`{side}` is not used" in p for p in check_structure(dropped, inst, kernel))
    flipped = text.replace("(.select (.cmp .ne (.cmp .lt e2 (.weak 0)) (.weak 0))",
                           "(.select (.cmp .eq (.cmp .lt e2 (.weak 0)) (.weak 0))")
    assert flipped != text and any("kernel term differs" in p for p in check_structure(flipped, inst, kernel))


def test_lean_dead_branch_is_not_assumed_when_the_premises_leave_it_live():
    """The rule's mutant. `tile` with the offset `tl.where(ks0 - 1 < 0, (-1 - ks0) % 4, x)`: with `s27 ≥ 2`
    (`ks0 = 2 * s27`) the condition is decided false by a side condition and the dead branch, whose remainder
    of a negative dividend has no interval rule, is never bounded (`Bounded.select_false`). With `s27 ≥ 0`
    the branch is live (`ks0 = 0`): nothing decides the condition, the hull needs the dead branch's interval,
    and the kernel is refused by name instead of emitted."""
    from workbench.lean.hand_built import tile

    inst = tile()
    ks0 = size(0)
    dead = where(Term(TermOp.LT, (ks0 - 1, weak(0))), Term(TermOp.MOD, (weak(-1) - ks0, weak(4))), X)
    inst2 = replace(inst, loads=(dataclasses.replace(inst.loads[0], offset=dead),) + inst.loads[1:])
    text = emit_instance(inst2)
    assert "Bounded.select_false" in text and "Bounded.cmp_const" in text
    assert check_structure(text, inst2, expected_kernel_text(inst2)) == []
    live = replace(inst2, symbols=tuple(Symbol(s.name, 0) for s in inst2.symbols))
    with pytest.raises(WorkbenchError, match="dividend >= 0|premises do not order"):
        emit_instance(live)
    # The mirror says why: at s27 = 0 the branch is taken, and its value is the remainder of -1 (a lane the
    # premises of the first instance exclude).
    lane = Lane.x(0, 0, 128, (0, 0, 0))
    assert evaluate(NARROW, lane, dead) == -1


def test_lean_undecided_integer_where_takes_the_hull():
    """`tl.where(x < ks0, x, ks0 - 1)` in an offset: undecided (it depends on the lane), both branches bounded,
    the hull `[0, hi]` (`Bounded.select`); the mirror's `Safe` holds on sampled lanes and both widths agree."""
    from workbench.lean.hand_built import tile

    inst = tile()
    x0 = inst.loads[0].offset
    hull = where(X.lt(size(0)), X, size(0) - 1)
    ld = dataclasses.replace(inst.loads[0], offset=hull)
    inst2 = replace(inst, loads=(ld,) + inst.loads[1:])
    text = emit_instance(inst2)
    assert "Bounded.select " in text and x0 is not None
    assert check_structure(text, inst2, expected_kernel_text(inst2)) == []
    for s27, s77, x in ((2, 2, 3), (1000, 1000, 999_999), (2**15, 2**15 - 1, 2**30 - 5)):
        values = (2 * s27, s27, 2 * s27 * s77)
        lane = Lane.x(x // 128, x % 128, 128, values)
        assert safe(lane, inst2)
        assert observe(WIDE, lane, inst2) == observe(NARROW, lane, inst2)


# ------------------------------------------------------------------ case splits


def _max_undecided():
    """convnext's Max(1, ks3 // 16) with lower bounds 16 (ks3 // 16 >= 1, but 1 >= ks3 // 16 undecided) and
    only the numel guard on the floors (tests/check/test_check_uniform.py builds the same record): the loose
    bound 1 + e is too weak, the checker splits on the uniform comparison."""
    rec = load(MAX15)
    rec = replace(rec, symbols=tuple(replace(s, lower={"s54": 16, "s65": 16}.get(s.name, s.lower)) for s in rec.symbols))
    keep = "384*s21*((s54//16))*((s65//16)) <= 2147483647"
    guards = tuple(g for g in rec.guards if ("s54" not in g and "s65" not in g) or g == keep)
    return replace(rec, guards=guards + ("((s54//16)) >= 1", "((s65//16)) >= 1"))


@pytest.fixture(scope="module")
def split():
    rec = _max_undecided()
    v = check_kernel(rec, "observable", counterexample=False)
    assert v.certified, v.reason
    return rec, v.certificate, from_certificate(v.certificate, "split", record=rec, verify_hash=False)


def test_lean_case_split_is_proved_by_cases(split):
    """The certificate's splits (`agree:<offset>@<class>` -> the uniform comparison) become nested `by_cases`
    on the comparisons' narrowed values around the offset's agreement; each part refines with the comparison
    known true (`Expr.ge_of_cmp_ne_zero`) or known false (`Expr.lt_of_cmp_ge_not_ne_zero`), and decides
    `Max(1, e)`'s comparisons there (`Bounded.cmp_const`). Structure checks pass."""
    rec, cert, inst = split
    assert inst.splits and all(len(us) == 2 for _, us in inst.splits)
    text = emit_instance(inst)
    assert check_structure(text, inst, expected_kernel_text(inst)) == []
    cases = re.findall(r"by_cases (hu\d+) : Expr\.eval \(\.narrow kernel\.sizeArgs\) L \(\.cmp \.ge \(\.weak 1\) (e\d+)\) ≠ 0",
                       text)
    assert len(cases) == 3  # the outer split and the inner one in each of its parts
    assert "Expr.lt_of_cmp_ge_not_ne_zero hu" in text and "Expr.ge_of_cmp_ne_zero hu" in text
    assert text.count("Bounded.cmp_const") >= 8


def test_lean_case_split_is_needed_and_read_from_the_certificate(split):
    """Without the certificate's split choices the same kernel has no derivation (the loose bound of `Max`
    needs a claim with no certificate): the split is what makes the instance, and the adapter takes it from
    the certificate, never invents it."""
    rec, cert, inst = split
    plain = replace(cert, choices=tuple((k, "none" if k.startswith("agree:") else c) for k, c in cert.choices))
    flat = from_certificate(plain, "no split", record=rec, verify_hash=False)
    assert flat.splits == ()
    with pytest.raises(WorkbenchError, match="no certificate"):
        emit_instance(flat)


def test_lean_case_split_instance_holds_on_the_mirror(split):
    """The split instance's kernel on sampled lanes at shapes where the mutant's guards hold (both sides of
    `ks3 // 16 > 1`): `Kernel.Safe` holds and both widths observe the same."""
    rec, cert, inst = split
    k = kir.parse(rec)
    names = kernel_terms(k).scalars
    checked = 0
    for s21, s54, s65 in ((2, 16, 16), (2, 31, 16), (3, 64, 48), (1, 16, 160)):
        ln = kir.launch(k, {"s21": s21, "s54": s54, "s65": s65})
        args = dict(ln.args)
        xb = dict(ln.blocks)["XBLOCK"]
        values = tuple(args[n] for n in names)
        for x in sorted({0, args["xnumel"] - 1, args["xnumel"], ln.grid[0] * xb - 1}):
            lane = Lane.x(x // xb, x % xb, xb, values, ln.grid[0])
            assert safe(lane, inst), (s21, s54, s65, x)
            assert observe(WIDE, lane, inst) == observe(NARROW, lane, inst)
            checked += 1
    assert checked >= 12


def test_lean_strict_mode_splits_stay_refused_by_name(split):
    rec, cert, inst = split
    strict = replace(cert, choices=cert.choices + (("fits:n1@all", "n2"),))
    with pytest.raises(WorkbenchError, match="no Lean counterpart for the checker's strict-mode case split"):
        from_certificate(strict, "strict split", record=rec, verify_hash=False)


# ------------------------------------------------------------------ floors by a size, one-row kernels, what is listed


def test_lean_floor_by_a_size_is_the_premises_atom():
    """`ks0 = floor(16*s35/s21)` (transformer_decoder_layer): the size argument is the checker's atom `aux_a0`,
    its defining inequalities among the guards; dropping one of them fails the structure check."""
    inst, _ = _instance(FLOOR12)
    text = (INSTANCES / f"{module_name(inst)}.lean").read_text()
    kernel = expected_kernel_text(inst)
    assert check_structure(text, inst, kernel) == []
    assert "L.sizes 0 = aux_a0" in text
    definition = "0 ≤ (aux_a0 * s21) + s21 - 16 * s35 - 1"  # aux_a0 * s21 > 16 * s35 - s21: the floor's upper side
    assert definition in declarations(text)["Guards"]
    weaker = text.replace(definition + " ∧ ", "")
    assert weaker != text and any("`Guards` states" in p for p in check_structure(weaker, inst, kernel))


def test_lean_one_row_kernel_and_its_other_form():
    """cross-entropy's `_1` kernel: `xnumel = 1`, no x mask (`tl.full([XBLOCK], True, tl.int1)`), `other=0.0`
    on an `*i64` index load (Triton converts it to the integer 0: `Expr.load … (some 0)`), the device_assert
    premise at every step lane; a non-integral `other=` is refused by name."""
    rec = load(XENT_1)
    inst, _ = _instance(XENT_1, rec)
    text = (INSTANCES / f"{module_name(inst)}.lean").read_text()
    assert check_structure(text, inst, expected_kernel_text(inst)) == []
    assert '(some 0)' in text and 'other := "to:i64(0.0)"' in text and "Asserts (L.step j r)" in text
    body = jit_function_text(rec.source, rec.name)
    old = "tmp0 = tl.load(in_ptr0 + (r0_0), r0_mask, eviction_policy='evict_first', other=0.0)"
    assert old in body
    bad = replace(rec, source=rec.source.replace(body, body.replace(old, old.replace("other=0.0", "other=0.5"))))
    with pytest.raises(WorkbenchError, match="other= of this form is not modelled"):
        kernel_terms(kir.parse(bad))


def test_lean_kernels_without_an_instance_are_listed_with_the_reason():
    index = (PROJECT / "Instances.lean").read_text()
    listed = re.findall(r"^\* (.+)$", index.split("Kernels without an instance")[1], re.M)
    assert any(line.startswith("upsample_nearest/") and "out-of-class" in line for line in listed)
    pool = [line for line in listed if line.startswith("resnet18/") and POOL1.stem in line]
    assert pool and "certified, no Lean counterpart" in pool[0] and "has no certificate" in pool[0]
    # and the six integer-data corpus programs (tests/lean/test_lean_corpus_table.py gives each its reason)
    assert len(listed) == 8 and sum(line.startswith("int_") for line in listed) == 6, listed
