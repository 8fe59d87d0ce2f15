"""Reduction kernels in Lean (issue 13, item 3), without Lean: the structure of `Narrowing/Reduction.lean`
(the fold over steps and its theorem, read as text) and its Python mirror (`workbench.lean.rmodel`) on a
hand-made row sum and on random reduction kernels (Hypothesis): the generic theorem's statement holds where
its premise does, and the premise is not vacuous."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from workbench.lean.instance import Load, Store, TermOp, arange, block, loop_offset, program_id, size, strong, weak
from workbench.lean.instance import load_value, pbin, pconst, pwhere
from workbench.lean.model import NARROW, WIDE, Lane
from workbench.lean.paths import PROJECT
from workbench.lean.reduction import RCarry, RKernelTerms, RLoad, RStore, acc, reduce
from workbench.lean.rmodel import observe, safe, step_row
from workbench.lean.emit import emit_instance, module_name
from workbench.lean.hand_built import REDUCTIONS, row_sum
from workbench.lean.structure import check_structure, declarations, expected_kernel_text

sys.path.insert(0, str(Path(__file__).parent))
from lean_helpers import random_big, random_term  # noqa: E402

RED = PROJECT / "Narrowing" / "Reduction.lean"


def _code(text: str) -> str:
    return re.sub(r"--.*", "", re.sub(r"/-.*?-/", "", text, flags=re.S))


# ------------------------------------------------------------------ the Lean file, read as text


def test_lean_reduction_theorem_states_equal_observations_under_safe():
    decls = declarations(_code(RED.read_text()))
    stmt = " ".join(decls["RKernel.narrowing_exact_of_safe"].split(":=", 1)[0].split())
    assert "(h : k.Safe L rs js) : k.observe .wide L rs js = k.observe (.narrow k.sizeArgs) L rs js" in stmt
    # Safe (a structure) quantifies over every loop's steps, the inits and the accesses after the loops.
    text = " ".join(_code(RED.read_text()).split())
    fields = text[text.index("structure RKernel.Safe"):text.index("theorem RStore.observe")]
    for f in ("sizes : ∀ i ∈ k.sizeArgs, Fits32 (L.sizes i)",
              "steps : ∀ ℓ, 1 ≤ ℓ → ℓ ≤ k.loops → ∀ j ∈ js, k.StepSafe rs ℓ (L.step j)",
              "inits : ∀ r ∈ rs, ∀ c ∈ k.carries,", "after : k.StepSafe rs 0 (L.step 0)"):
        assert f in fields, f


def test_lean_reduction_semantics_is_a_fold_over_steps_proved_by_induction():
    code = _code(RED.read_text())
    decls = declarations(code)
    trace = " ".join(decls["RKernel.loopTrace"].split())
    # One observation per step (every r position), then the step's update threads the accumulators.
    assert "| A, j :: js => (rs.map fun r => k.observeAt m rs ℓ A (L.step j) r) :: k.loopTrace m rs L ℓ (k.step m rs L ℓ A j) js" in trace
    assert "js.foldl (k.step m rs L ℓ) A" in decls["RKernel.loopState"]
    assert "((j : Int) * L.block 2)" in decls["Lane.step"]  # r0_offset = j * R0_BLOCK
    for name in ("RKernel.loopTrace_wide_eq_narrow_of_safe", "RKernel.loopState_wide_eq_narrow_of_safe"):
        body = decls[name].split(":=", 1)[1]
        assert "induction js with" in body and "| cons j js ih =>" in body, name
    assert "induction c with" in decls["RKernel.runLoops_wide_eq_narrow_of_safe"]
    observe = " ".join(decls["RKernel.observe"].split())
    assert "k.runLoops m rs L js 1 k.loops RKernel.initial" in observe
    # The final theorem is proved from the loop lemmas, not assumed.
    final = decls["RKernel.narrowing_exact_of_safe"].split(":=", 1)[1]
    assert "RKernel.runLoops_wide_eq_narrow_of_safe" in final and "observeAt_wide_eq_narrow_of_safe" in final


def test_lean_reduction_lane_carries_the_step():
    expr = _code((PROJECT / "Narrowing" / "Expr.lean").read_text())
    assert re.search(r"^\s+roff : Int$", expr, re.M)
    assert "| .loopOffset => L.roff" in expr and "| .loopOffset => .i32" in expr
    decls = declarations(_code(RED.read_text()))
    assert "pos := fun b => if b = 2 then r else L.pos b, roff := off" in " ".join(decls["Lane.atR"].split())
    assert TermOp.LOOP_OFFSET.value == "loopOffset"


# ------------------------------------------------------------------ the mirror on a row sum

X = program_id() * block() + arange()
R = loop_offset() + arange(2)
XMASK, RMASK = X.lt(size(1, "i32")), R.lt(size(2, "i32"))


def _row_sum(loops: int = 1) -> RKernelTerms:
    """`out[x] = sum_r in[x * ks0 + r]` (`triton_red_fused_sum_0`), ks0 (size 0) narrowed to int32."""
    ld = Load(0, R + size(0) * X, RMASK & XMASK, "0.0")
    carry = RCarry(1, pconst("0.0"), pwhere(RMASK & XMASK, pbin("add", acc(0), load_value(0)), acc(0)))
    out = Store(1, X, XMASK, reduce("sum", acc(0)))
    return RKernelTerms(loops, (RLoad(ld, 1),), (RStore(out, 0),), (carry,))


def _lane(x: int, sizes: tuple[int, ...], rblock: int = 4) -> Lane:
    return Lane((x // 8, 0, 0), (x // 8 + 1, 1, 1), (x % 8, 0, 0), (8, 1, rblock), sizes)


def test_lean_reduction_mirror_row_sum_agrees_within_int32():
    k, narrowed = _row_sum(), frozenset({0})
    lane, rs, js = _lane(5, (10, 64, 10)), range(4), range(3)  # ks0 = 10, xnumel = 64, r0_numel = 10
    assert safe(k, narrowed, lane, rs, js)
    wide, narrow = observe(k, WIDE, lane, rs, js), observe(k, (NARROW, narrowed), lane, rs, js)
    assert wide == narrow
    loops, after = wide
    # Step 2 covers r0_index 8..11: the tail lanes 10, 11 are masked off and load nothing.
    assert [o[0] for o in loops[0][2]] == [((0, 58),), ((0, 59),), (None,), (None,)]
    # The store after the loop writes the row's reduction of every r position's accumulator.
    (ptr, off, value), = after[0][1]
    assert (ptr, off) == (1, 5) and value[0] == "bin" and value[1] == "sum" and "mem" in repr(value)


def test_lean_reduction_mirror_premise_is_not_vacuous():
    """ks0 * x beyond int32: the narrowed kernel's offset wraps; `Safe` fails and the observations differ."""
    k, narrowed = _row_sum(), frozenset({0})
    lane, rs, js = _lane(3000, (2**20, 4096, 8)), range(4), range(2)
    assert not safe(k, narrowed, lane, rs, js)
    assert observe(k, WIDE, lane, rs, js) != observe(k, (NARROW, narrowed), lane, rs, js)


def test_lean_reduction_mirror_dropped_reduction_mask_is_caught():
    """A mutant whose accumulator update forgets `r0_mask`: the tail lanes of the last step add their
    `other` value, and the row's reduction differs from the masked kernel's; both widths still agree with
    each other (narrowing is a different question from masking)."""
    k = _row_sum()
    bad_carry = RCarry(1, pconst("0.0"), pwhere(XMASK, pbin("add", acc(0), load_value(0)), acc(0)))
    bad = RKernelTerms(1, k.loads, k.stores, (bad_carry,))
    lane, rs, js = _lane(5, (10, 64, 10)), range(4), range(3)
    assert observe(bad, WIDE, lane, rs, js) != observe(k, WIDE, lane, rs, js)
    assert observe(bad, WIDE, lane, rs, js) == observe(bad, (NARROW, frozenset({0})), lane, rs, js)


def test_lean_reduction_mirror_persistent_kernel_is_one_step():
    """`triton_per_*`: no loop (`loops = 0`), the row reduced directly from the loads."""
    r = arange(2)
    ld = Load(0, r + size(0) * X, r.lt(size(2, "i32")) & XMASK, "0.0")
    out = Store(1, X, XMASK, reduce("max", pwhere(r.lt(size(2, "i32")), load_value(0), pconst("-inf"))))
    k = RKernelTerms(0, (RLoad(ld, 0),), (RStore(out, 0),), ())
    lane = _lane(2, (6, 64, 6), rblock=8)
    wide = observe(k, WIDE, lane, range(8), [0])
    assert wide[0] == [] and safe(k, frozenset({0}), lane, range(8), [0])
    assert wide == observe(k, (NARROW, frozenset({0})), lane, range(8), [0])
    assert step_row(lane, 5)(3).roff == 5 * 8 and step_row(lane, 5)(3).position(2) == 3


# ------------------------------------------------------------------ the mirror on random kernels

BIG = st.one_of(st.integers(0, 64), st.integers(2**31 - 40, 2**31 + 40), st.integers(2**20, 2**40))
LEAF = st.sampled_from([X, R, loop_offset(), arange(2), size(0), size(1, "i32"), weak(3), block(2), strong(2, "i64")])
TERM = st.recursive(LEAF, lambda c: st.tuples(st.sampled_from(["+", "*", "-", "//", "%"]), c, c).map(
    lambda x: {"+": x[1] + x[2], "*": x[1] * x[2], "-": x[1] - x[2], "//": x[1] // x[2], "%": x[1] % x[2]}[x[0]]),
    max_leaves=5)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(TERM, TERM, TERM, st.integers(0, 63), st.tuples(BIG, st.integers(1, 80), st.integers(1, 40)),
       st.sampled_from([1, 2, 4]), st.integers(1, 3))
def test_lean_reduction_mirror_safe_implies_same_observations(off, cond, out_off, x, sizes, rblock, steps):
    """`RKernel.narrowing_exact_of_safe`'s statement on random one-loop kernels: a load and an in-loop
    store at random offsets, an accumulator whose update is selected by a random condition, a store of the
    row's reduction after the loop; lanes with `ks0` up to 2**40 (narrowed)."""
    ld = Load(0, off, RMASK & XMASK, "0.0")
    carry = RCarry(1, pconst("0.0"), pwhere(cond.lt(weak(5)), pbin("add", acc(0), load_value(0)), acc(0)))
    inner = Store(1, out_off, RMASK & XMASK, pbin("mul", load_value(0), acc(0)))
    after = Store(2, out_off, XMASK, reduce("sum", acc(0)))
    k = RKernelTerms(1, (RLoad(ld, 1),), (RStore(inner, 1), RStore(after, 0)), (carry,))
    lane, rs, js = _lane(x, sizes, rblock), range(rblock), range(steps)
    assume(safe(k, frozenset({0}), lane, rs, js))  # never vacuous: Unsatisfiable if no kernel is safe
    assert observe(k, WIDE, lane, rs, js) == observe(k, (NARROW, frozenset({0})), lane, rs, js)


def _one_loop_kernel(off, cond, out_off) -> RKernelTerms:
    ld = Load(0, off, RMASK & XMASK, "0.0")
    carry = RCarry(1, pconst("0.0"), pwhere(cond.lt(weak(5)), pbin("add", acc(0), load_value(0)), acc(0)))
    inner = Store(1, out_off, RMASK & XMASK, pbin("mul", load_value(0), acc(0)))
    after = Store(2, out_off, XMASK, reduce("sum", acc(0)))
    return RKernelTerms(1, (RLoad(ld, 1),), (RStore(inner, 1), RStore(after, 0)), (carry,))


def test_lean_reduction_mirror_property_counts_its_cases(capsys):
    """The property above, on 300 kernels drawn with a fixed seed (the same leaves, ops and sizes): it asserts
    only on safe kernels, so this counts them and fails if too few were safe, or if no unsafe kernel
    differed (then `Safe` would not be shown to matter). The counts in docs/lean.md come from this test
    (`pytest tests/lean/test_lean_reduction.py -k counts -s`)."""
    rng = random.Random(26)
    leaves = [X, R, loop_offset(), arange(2), size(0), size(1, "i32"), weak(3), block(2), strong(2, "i64")]
    big = [(0, 64), (2**31 - 40, 2**31 + 40), (2**20, 2**40)]
    tally = {"safe": 0, "unsafe, differs": 0, "unsafe, same": 0}
    for _ in range(300):
        off, cond, out_off = (random_term(rng, leaves, "+*-/%") for _ in range(3))
        x, sizes = rng.randint(0, 63), (random_big(rng, big), rng.randint(1, 80), rng.randint(1, 40))
        rblock, steps = rng.choice([1, 2, 4]), rng.randint(1, 3)
        k = _one_loop_kernel(off, cond, out_off)
        lane, rs, js = _lane(x, sizes, rblock), range(rblock), range(steps)
        same = observe(k, WIDE, lane, rs, js) == observe(k, (NARROW, frozenset({0})), lane, rs, js)
        if safe(k, frozenset({0}), lane, rs, js):
            tally["safe"] += 1
            assert same, (off, cond, out_off, x, sizes, rblock, steps)
        else:
            tally["unsafe, differs" if not same else "unsafe, same"] += 1
    print(f"reduction mirror, 300 seeded kernels: {tally}")
    assert tally["safe"] >= 60 and tally["unsafe, differs"] >= 5, tally


# ------------------------------------------------------------------ the emitted instance of a reduction kernel

GOLDEN = Path(__file__).parent / "golden" / "reduction"


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_lean_reduction_instance_matches_golden(name):
    inst = REDUCTIONS[name]()
    text = emit_instance(inst)
    path = GOLDEN / f"{module_name(inst)}.lean"
    if os.environ.get("WORKBENCH_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"{path} differs: review the diff; regenerate with scripts/lean-regen.sh"
    assert "Lean check: NOT RUN" in text


def test_lean_reduction_instance_structure_and_its_mutants():
    """The row sum's instance: no `Safe` hypothesis, every `side_k` cited, premises exactly the captured ones
    plus the row and the loop's steps; each check fails on a mutated file."""
    inst = row_sum()
    text = emit_instance(inst)
    kernel = expected_kernel_text(inst)
    assert check_structure(text, inst, kernel) == []
    decls = declarations(text)
    safe_proof = decls["kernel_safe"].split(":=", 1)[1]
    # Every step lane is launched and within the loop's int32 range; the r index has its own rule.
    assert "StepLaneOK.of_row hL hrs hjs hr hj" in safe_proof and "Bounded.rindex" in safe_proof
    assert "StepLaneOK.of_after hL hrs hr" in safe_proof  # the store after the loop, at r0_offset = 0
    assert "intro r70 hr71" in safe_proof or re.search(r"intro r\d+ hr\d+", safe_proof)  # tl.sum over the row
    with_safe = text.replace("(hjs : StepsOK L js) :\n    kernel.observe",
                             "(hjs : StepsOK L js) (h : kernel.Safe L rs js) :\n    kernel.observe")
    assert with_safe != text and any("takes a `Safe` hypothesis" in p for p in check_structure(with_safe, inst, kernel))
    no_steps = text.replace("(hrs : RowOK L rs) (hjs : StepsOK L js) :\n    kernel.observe", "(hrs : RowOK L rs) :\n    kernel.observe")
    assert no_steps != text and any("RowOK, StepsOK" in p for p in check_structure(no_steps, inst, kernel))
    two_loops = text.replace("  loops := 1\n", "  loops := 2\n")
    assert any("loop(s)" in p for p in check_structure(two_loops, inst, kernel))
    unused = text.replace(decls["kernel_safe"], decls["kernel_safe"].replace("side_6 ", "side_5 "))
    assert any("`side_6` is not used" in p for p in check_structure(unused, inst, kernel))


def test_lean_reduction_instance_agrees_with_the_mirror_on_sampled_lanes():
    """The instance's kernel, run by the mirror at shapes within the guard (s0 * s1 <= 2**31 - 1) and at the
    last rows and steps: `Safe` holds and both widths observe the same, as `kernel_safe` claims."""
    inst = row_sum()
    for s0, s1 in ((2, 2), (3, 7), (2**15, 2**16 - 1), (2, 2**30 - 1)):
        x = s0 - 1
        lane = _lane(x, (s1, s0, s1), rblock=4)
        steps = range(max(0, (s1 + 3) // 4 - 2), (s1 + 3) // 4)  # the last two steps of the loop
        assert safe(inst.reduction, frozenset({0}), lane, range(4), steps)
        assert observe(inst.reduction, WIDE, lane, range(4), steps) == \
            observe(inst.reduction, (NARROW, frozenset({0})), lane, range(4), steps)


def test_lean_reduction_instance_has_no_json_form_yet():
    from workbench.lean.errors import InstanceError

    with pytest.raises(InstanceError, match="reduction instances have no workbench.lean_instance/1 form"):
        row_sum().to_json()
