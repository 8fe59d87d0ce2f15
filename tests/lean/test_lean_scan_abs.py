"""Scans, select_one, integer abs and integers computed in floating point in Lean (issue 13, item 3), without
Lean: the constructors in `Narrowing/Reduction.lean` and `Narrowing/Expr.lean` read as text, their Python mirror
(`workbench.lean.rmodel`, `workbench.lean.model`) on hand-made kernels and random ones (Hypothesis), the corpus
and zoo instances that use them, and the inputs that break each rule (a scan operand that agrees only at its own
r position; `|INT_MIN|` in the narrowed type)."""

from __future__ import annotations

import json
import random
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from workbench import kir
from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import check_kernel
from workbench.errors import UnsupportedError
from workbench.lean.adapter import from_certificate
from workbench.lean.emit import emit_instance, module_name
from workbench.lean.from_kir import kernel_terms
from workbench.lean.instance import Load, Store, Term, TermOp, arange, block, loop_offset, program_id, size, weak
from workbench.lean.instance import load_value, pbin, pconst
from workbench.lean.model import NARROW, WIDE, Lane, agree, evaluate, iabs, wrap
from workbench.lean.paths import INSTANCES, PROJECT
from workbench.lean.reduction import RCarry, RKernelTerms, RLoad, RStore, acc, reduce, scan
from workbench.lean.rmodel import observe, pagree, peval, safe, step_row
from workbench.lean.structure import check_structure, declarations, expected_kernel_text
from workbench.paths import KERNELS

sys.path.insert(0, str(Path(__file__).parent))
from lean_helpers import random_big, random_term  # noqa: E402

HERE = Path(__file__).parent
CUMSUM = KERNELS / "cumsum_last" / "triton_red_fused_cumsum_0.json"
CUMSUM_PER = KERNELS / "cumsum_rows8" / "triton_per_fused_cumsum_0.json"
FLIP = KERNELS / "flip_last" / "triton_poi_fused_flip_0.json"
T5 = next((HERE / "data" / "zoo").glob("triton_red_fused__safe_softmax__to_copy_abs_*.json"))
X = program_id() * block() + arange()
R = loop_offset() + arange(2)
XMASK, RMASK = X.lt(size(1, "i32")), R.lt(size(2, "i32"))


def _code(path: Path) -> str:
    return re.sub(r"--.*", "", re.sub(r"/-.*?-/", "", path.read_text(), flags=re.S))


def _lane(x: int, sizes: tuple[int, ...], rblock: int = 4) -> Lane:
    return Lane((x // 8, 0, 0), (x // 8 + 1, 1, 1), (x % 8, 0, 0), (8, 1, rblock), sizes)


# ------------------------------------------------------------------ scans: the Lean text and the mirror


def test_lean_scan_is_a_prefix_fold_whose_operand_agrees_on_the_whole_row():
    decls = declarations(_code(PROJECT / "Narrowing" / "Reduction.lean"))
    ev = " ".join(decls["RPayload.eval"].split())
    assert "| .scan f a, r => ((rs.filter fun r' => decide (r' ≤ r)).map fun r' => RPayload.eval m loads A rs row a r').foldl (Val.bin f) (.const f)" in ev
    ag = " ".join(decls["RPayload.Agree"].split())
    assert "| .scan _ a, _ => ∀ r', r' ∈ rs → RPayload.Agree S loads rs row a r'" in ag
    proof = decls["RPayload.eval_wide_eq_eval_narrow_of_agree"]
    assert "| scan f a ih =>" in proof and "List.mem_filter.mp hr'" in proof


def test_lean_scan_mirror_folds_the_positions_up_to_r():
    lane, rs = _lane(3, (10, 64, 10)), [0, 1, 2, 3]
    ld = Load(0, R + size(0) * X, RMASK & XMASK, "0.0")
    row = step_row(lane, 0)
    p = scan("add", load_value(0))
    at2 = peval(WIDE, [ld], {}, rs, row, p, 2)
    cells = [("mem", 0, 30 + r) for r in (0, 1, 2)]  # x = 3, ks0 = 10: offsets 30, 31, 32
    want = ("const", "add")
    for c in cells:
        want = ("bin", "add", want, c)
    assert at2 == want
    assert peval(WIDE, [ld], {}, rs, row, p, 0) == ("bin", "add", ("const", "add"), cells[0])


def _scan_kernel(offset: Term) -> RKernelTerms:
    """A looped cumsum as Inductor writes it (`cumsum_last`): the in-loop store writes the step's scan plus the
    running prefix, the running prefix takes the scan's last element (`select_one`)."""
    ld = Load(0, offset, RMASK & XMASK, "0.0")
    s = scan("add", load_value(0))
    last = reduce("select_one", pbin("row", s, pconst("mask")))
    carry = RCarry(1, pconst("nan"), pbin("add", acc(0), last))
    out = Store(1, R + size(0) * X, RMASK & XMASK, pbin("add", acc(0), s))
    return RKernelTerms(1, (RLoad(ld, 1),), (RStore(out, 1),), (carry,))


def test_lean_scan_mirror_within_int32_observes_the_same():
    k, narrowed = _scan_kernel(R + size(0) * X), frozenset({0})
    lane, rs, js = _lane(5, (10, 64, 10)), range(4), range(3)
    assert safe(k, narrowed, lane, rs, js)
    assert observe(k, WIDE, lane, rs, js) == observe(k, (NARROW, narrowed), lane, rs, js)


def test_lean_scan_operand_agreeing_only_at_its_own_position_is_not_enough():
    """The rule's mutant: the operand's address overflows int32 at r position 0 only (`(1 - r) * ks0 * ks0`).
    At r = 1 the operand agrees, but the scan there folds position 0 too, so the narrowed kernel stores a
    different value: agreement on every r position of the row (what `RPayload.Agree` and the checker ask) is
    needed, agreement at the scan's own position is not enough."""
    offset = (weak(1) - arange(2)) * size(0) * size(0)
    k, narrowed = _scan_kernel(offset), frozenset({0})
    lane, rs, js = _lane(1, (2**16 + 3, 64, 4)), [0, 1], [0]
    mode = (NARROW, narrowed)
    lds = [ld.load for ld in k.loads]
    row = step_row(lane, 0)
    assert pagree(mode, lds, rs, row, load_value(0), 1) and not pagree(mode, lds, rs, row, load_value(0), 0)
    assert not safe(k, narrowed, lane, rs, js)
    wide, narrow = observe(k, WIDE, lane, rs, js), observe(k, mode, lane, rs, js)
    assert wide[0][0][0][1][1] != narrow[0][0][0][1][1]  # step 0, r = 1: the stored value differs


BIG = st.one_of(st.integers(0, 64), st.integers(2**15, 2**17), st.integers(2**31 - 40, 2**31 + 40))
LEAF = st.sampled_from([X, R, arange(2), size(0), size(1, "i32"), weak(3), block(2)])
TERM = st.recursive(LEAF, lambda c: st.tuples(st.sampled_from(["+", "*", "-"]), c, c).map(
    lambda x: {"+": x[1] + x[2], "*": x[1] * x[2], "-": x[1] - x[2]}[x[0]]), max_leaves=5)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(TERM, st.integers(0, 63), st.tuples(BIG, st.integers(1, 80), st.integers(1, 40)), st.sampled_from([1, 2, 4]),
       st.integers(1, 3))
def test_lean_scan_mirror_safe_implies_same_observations(off, x, sizes, rblock, steps):
    """`RKernel.narrowing_exact_of_safe`'s statement on random looped scans (a scan of a load at a random
    offset, the running prefix through `select_one`), `ks0` up to beyond int32 (narrowed)."""
    k = _scan_kernel(off)
    lane, rs, js = _lane(x, sizes, rblock), range(rblock), range(steps)
    assume(safe(k, frozenset({0}), lane, rs, js))  # never vacuous: Unsatisfiable if no kernel is safe
    assert observe(k, WIDE, lane, rs, js) == observe(k, (NARROW, frozenset({0})), lane, rs, js)


def test_lean_scan_mirror_property_counts_its_cases():
    """The scan property on 300 kernels drawn with a fixed seed: counts the safe ones (the property asserts
    only on them) and the unsafe ones whose observations differ; fails if either is too rare."""
    rng = random.Random(26)
    leaves = [X, R, arange(2), size(0), size(1, "i32"), weak(3), block(2)]
    big = [(0, 64), (2**15, 2**17), (2**31 - 40, 2**31 + 40)]
    tally = {"safe": 0, "unsafe, differs": 0, "unsafe, same": 0}
    for _ in range(300):
        k = _scan_kernel(random_term(rng, leaves, "+-*"))
        x, sizes = rng.randint(0, 63), (random_big(rng, big), rng.randint(1, 80), rng.randint(1, 40))
        rblock, steps = rng.choice([1, 2, 4]), rng.randint(1, 3)
        lane, rs, js = _lane(x, sizes, rblock), range(rblock), range(steps)
        same = observe(k, WIDE, lane, rs, js) == observe(k, (NARROW, frozenset({0})), lane, rs, js)
        if safe(k, frozenset({0}), lane, rs, js):
            tally["safe"] += 1
            assert same
        else:
            tally["unsafe, differs" if not same else "unsafe, same"] += 1
    print(f"scan mirror, 300 seeded kernels: {tally}")
    assert tally["safe"] >= 60 and tally["unsafe, differs"] >= 5, tally


# ------------------------------------------------------------------ scans: the corpus instances


@pytest.mark.parametrize("path", [CUMSUM, CUMSUM_PER], ids=lambda p: p.parent.name)
def test_lean_corpus_scan_instances_and_a_mutated_file(path):
    rec = load(path)
    v = check_kernel(rec, "observable", smt=False, counterexample=False)
    inst = from_certificate(v.certificate, path.name, record=rec)
    text = (INSTANCES / f"{module_name(inst)}.lean").read_text()
    assert text == emit_instance(inst)
    kernel = expected_kernel_text(inst)
    assert check_structure(text, inst, kernel) == []
    assert '(.scan "_triton_helper_fn_add0#0:fp32"' in text
    if path == CUMSUM:  # select_one's mask rbase == RBLOCK - 1 and the running prefix
        assert '(.reduce "triton_helpers.select_one#0:fp32"' in text and "Bounded.rblock" in text
    # A scan emitted as a row reduction (or the other way round) is another kernel: the structure check says so.
    mutated = text.replace('(.scan "', '(.reduce "')
    assert mutated != text and any("kernel term differs" in p for p in check_structure(mutated, inst, kernel))


def test_lean_scan_helper_must_be_pure_to_reach_lean():
    """The combine helper is read by kir and must be pure payload: one reading a kernel argument (a size) is
    refused before Lean (the scan's name then could not stand for one function in both kernels)."""
    rec = load(CUMSUM)
    bad = rec.source.replace("    tmp0 = arg0_0 + arg1_0\n", "    tmp0 = arg0_0 + arg1_0 + ks0\n")
    assert bad != rec.source
    with pytest.raises(Exception, match="scan combine function"):
        kernel_terms(kir.parse(replace(rec, source=bad)))


# ------------------------------------------------------------------ integer abs


def test_lean_abs_is_two_complement_abs_in_the_lean_text():
    expr = " ".join(_code(PROJECT / "Narrowing" / "Expr.lean").split())
    assert "| .abs a => ((Expr.abs a).ty m).wrap (iabs (a.eval m L))" in expr
    assert "| .abs a => a.Agree S L ∧ SameWrap ((Expr.abs a).ty .wide) ((Expr.abs a).ty (.narrow S)) (iabs (a.eval (.narrow S) L))" in expr
    assert "def iabs (v : Int) : Int := if v < 0 then -v else v" in _code(PROJECT / "Narrowing" / "Int.lean")
    absl = declarations(_code(PROJECT / "Narrowing" / "Abs.lean"))
    assert {"Bounded.abs", "Bounded.abs_nonneg", "Bounded.abs_nonpos"} <= set(absl)


def test_lean_abs_of_int_min_wraps_and_breaks_agreement():
    """`|INT_MIN|` is `INT_MIN` again in `int32` (`llvm.abs` with `is_int_min_poison = false`, as kir's ABS),
    `2^31` in `int64`: the narrowed and wide kernels differ there, and `Agree` (hence `Bounded.abs`'s fit
    premise) fails, so no instance can claim that lane."""
    from workbench.kir.types import IntType

    assert wrap("i32", iabs(-(2**31))) == -(2**31) == IntType(32).wrap(abs(-(2**31)))
    t = Term(TermOp.ABS, (X - size(0),))
    lane = Lane.x(0, 0, 1, (2**31,))  # xindex = 0, ks0 = 2^31: 0 - ks0 = INT_MIN in int32
    assert evaluate(WIDE, lane, t) == 2**31 and evaluate(NARROW, lane, t) == -(2**31)
    assert not agree(lane, t)


@settings(max_examples=500, deadline=None)
@given(st.integers(-(2**33), 2**33), st.integers(0, 2**33), st.data())
def test_lean_abs_interval_statements(lo, width, data):
    """`Bounded.abs_nonneg`, `abs_nonpos` and `abs`'s arithmetic on integers: for every v in [lo, hi], |v| lies
    in the interval each rule concludes when its premises hold (`iabs_le`: any M ≥ max(hi, -lo))."""
    hi = lo + width
    v = data.draw(st.integers(lo, hi))
    m = data.draw(st.integers(max(hi, -lo), max(hi, -lo) + 5))
    assert 0 <= iabs(v) <= m
    if lo >= 0:
        assert lo <= iabs(v) <= hi
    if hi <= 0:
        assert -hi <= iabs(v) <= -lo


def _abs_variant(old: str, new: str):
    rec = load(FLIP)
    body = jit_function_text(rec.source, rec.name)
    assert old in body
    return replace(rec, source=rec.source.replace(body, body.replace(old, new)))


FLIP_OFFSET = "(-1) + ks0 + ((-1)*x0) + ks0*x1"


@pytest.mark.parametrize("offset,rule", [
    ("tl_math.abs((-1) + ks0 + ((-1)*x0)) + ks0*x1", "Bounded.abs_nonneg"),  # [0, ks0 - 1]
    ("tl_math.abs(x0 + ((-1)*ks0)) + ks0*x1", "Bounded.abs_nonpos"),  # [-ks0, -1]
    ("tl_math.abs(2*x0 + ((-1)*ks0)) + ks0*x1", "Bounded.abs "),  # both signs, [-ks0, ks0 - 2]: [0, -lo]
])
def test_lean_abs_instances_of_a_real_kernel_variant(offset, rule):
    """`flip_last` with its offset through `tl_math.abs` (each sign case): certified by the checker, emitted
    with the matching rule, structure checks pass, and the mirror's terms agree with kir's evaluator."""
    rec = _abs_variant(FLIP_OFFSET, offset)
    v = check_kernel(rec, "observable", smt=False, counterexample=False)
    assert v.certified, v.reason
    inst = from_certificate(v.certificate, "abs variant", record=rec)
    text = emit_instance(inst)
    assert rule in text and "(.abs " in text
    assert check_structure(text, inst, expected_kernel_text(inst)) == []
    k = kir.parse(rec)
    for s27, s77, x in ((3, 5, 7), (2**15, 2**15 - 1, 2**30 - 1), (2**20, 3, 2**21 - 5)):
        ln = kir.launch(k, {"s27": s27, "s77": s77})
        args = dict(ln.args)
        xb = dict(ln.blocks)["XBLOCK"]
        values = tuple(args[n] for n in kernel_terms(k).scalars)
        klane, lane = kir.Lane.x(x // xb, x % xb, ln.grid[0]), Lane.x(x // xb, x % xb, xb, values, ln.grid[0])
        for mode, kmode in ((WIDE, kir.WIDE), (NARROW, kir.NARROW)):
            res = kir.evaluate(k, ln, klane, kmode)
            assert evaluate(mode, lane, inst.loads[0].offset) == res.loads[0].offset


# ------------------------------------------------------------------ integers computed in floating point (T5)


def test_lean_t5_bucket_is_a_float_function_of_the_abs_value():
    """T5's relative-position bucket: `|r - x0|` (integer abs) converted to float, `log`, scaled, back to int64,
    clamped by an integer `minimum` (a `tl.where`), under the device_assert premise `0 <= tmp24 < 32`."""
    rec = load(T5)
    terms = kernel_terms(kir.parse(rec))
    text = (HERE / "golden" / "zoo").glob("T5Encoder_*.lean").__next__().read_text()
    assert '(.fconv "mul:fp32(mul:fp32(tl_math.log:fp32(mul:fp32(to:fp32(x), 0.125))' in text and "(.abs e4)" in text
    assert "(.select (.cmp .lt e7 (.strong .i64 15)) e7 (.strong .i64 15))" in text  # triton_helpers.minimum
    assert "Bounded.abs " in text and "(hA : ∀ (j : Nat) (r : Int), j ∈ js ∨ j = 0 → r ∈ rs → Asserts (L.step j r))" in text
    assert terms.reduction is not None


def test_lean_float_chains_outside_the_model_are_refused_by_name():
    rec = load(T5)
    body = jit_function_text(rec.source, rec.name)
    # a float chain reading a float load (tmp0) is not a function of the index value alone
    bad = body.replace("tmp13 = tmp11 * tmp12", "tmp13 = tmp11 * tmp0", 1)
    assert bad != body
    k = kir.parse(replace(rec, source=rec.source.replace(body, bad)))
    with pytest.raises(UnsupportedError, match="in a float computation of an index value has no Lean counterpart"):
        kernel_terms(k)


def test_lean_float_function_mirror_agrees_when_its_input_does():
    """`Expr.fconv`: the same function of the same value in both kernels (its input agrees), a different
    result where the input does not (the narrowed input wrapped)."""
    from workbench.lean.instance import fconv

    t = fconv("log:fp32(to:fp32(x)):i64", "i64", X + size(0))
    fn = lambda name, v: v // 3  # noqa: E731 - any function of the value
    ok = replace(Lane.x(0, 5, 8, (100,)), fn=fn)
    assert agree(ok, t) and evaluate(WIDE, ok, t) == evaluate(NARROW, ok, t) == 35
    far = replace(Lane.x(0, 5, 8, (2**31 + 1,)), fn=fn)
    assert not agree(far, t) and evaluate(WIDE, far, t) != evaluate(NARROW, far, t)


def test_lean_zoo_certificates_are_stored_beside_their_instances():
    certs = sorted((HERE / "golden" / "zoo" / "certificates").glob("*.json"))
    goldens = sorted((HERE / "golden" / "zoo").glob("*.lean"))
    assert len(certs) == len(goldens) >= 7
    kinds = {json.loads(c.read_text())["kernel"].split("_")[1] for c in certs}
    assert kinds == {"poi", "red"}
