"""The device_assert premise in Lean (issue 13): the captured embedding kernel with an ``*i32`` index tensor
(where the narrowed product ``ks0 * tmp0`` is int32, so the asserted bound is what keeps it in range) gets an
instance whose proof bounds the index by the premise (``Bounded.assume``); in the Python mirror, lanes whose
index tensor holds an index within the asserted bounds satisfy ``Kernel.Safe`` and observe the same thing in
both widths, and a lane whose index breaks the premise makes the two kernels read different addresses (the
theorem would be false without its premise). The derivation refuses, by name, what it cannot justify. Lean
did not check any of this (docs/lean.md)."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest
import sympy

import workbench.check.certificate  # noqa: E402,F401 - an import error fails, never skips
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "adversarial"))

from adv_records import materialise, signature  # noqa: E402

from workbench.capture.record import load as load_record  # noqa: E402
from workbench.check.api import check_kernel  # noqa: E402
from workbench.errors import UnsupportedError  # noqa: E402
from workbench.lean.adapter import from_certificate  # noqa: E402
from workbench.lean.emit import emit_instance, term_roots  # noqa: E402
from workbench.lean.instance import Term, TermOp, assumes_in, strong  # noqa: E402
from workbench.lean.model import NARROW, WIDE, Lane, asserts, observe, safe  # noqa: E402
from workbench.lean.structure import check_structure, expected_kernel_text  # noqa: E402

EMB = "embedding/triton_poi_fused_embedding_0.json"


@pytest.fixture(scope="module")
def int32_index(tmp_path_factory):
    path = materialise(EMB, signature("in_ptr0", "*i32", sizes=False), tmp_path_factory.mktemp("i32"))
    rec = load_record(path)
    verdict = check_kernel(rec, "observable", smt=False, counterexample=False)
    assert verdict.certified, verdict.reason
    return from_certificate(verdict.certificate, path.name, record=rec)


def test_lean_int32_index_instance_uses_the_premise(int32_index):
    inst = int32_index
    text = emit_instance(inst)
    assert check_structure(text, inst, expected_kernel_text(inst)) == []
    assert "(.load 0 .i32 e1 e2 none)" in text and "(hA : Asserts L)" in text
    assert "(Bounded.assume a0 " in text
    # The product with the asserted index is int32 in the narrowed kernel: it must fit, from the premise's bound.
    mul = next(line for line in text.splitlines() if "Bounded.mul_point_left" in line and "WrapOK.of_fits32" in line)
    assert "side_" in mul


def _lane(inst, env, x, index):
    """Lane ``x`` of the 1-D launch (XBLOCK 1024) at shape ``env``, every index-tensor cell holding ``index``."""
    subs = {sympy.Symbol(k, integer=True): v for k, v in env.items()}
    vals = [0] * (1 + max(a.index for a in inst.size_args))
    for a in inst.size_args:
        vals[a.index] = int(a.expr.subs(subs))
    xnumel = next(vals[a.index] for a in inst.size_args if a.name == "xnumel")
    lane = Lane.x(x // 1024, x % 1024, 1024, tuple(vals), max(-(-xnumel // 1024), x // 1024 + 1))
    return dataclasses.replace(lane, mem=lambda p, a: index)


def test_lean_int32_index_premise_is_what_makes_the_widths_agree(int32_index):
    inst = int32_index
    # ks0 = s85 = 2**16 columns, a table of s36 = 2**15 - 1 rows (s36 * s85 <= 2**31 - 1), 3 lookups.
    s36, s85 = 2**15 - 1, 2**16
    env = {"s36": s36, "s85": s85, "s95": 3}
    for index in (0, 1, s36 // 2, s36 - 1):
        for x in (0, 1, s85 - 1, s85, 3 * s85 - 1):
            lane = _lane(inst, env, x, index)
            assert asserts(lane, inst) and safe(lane, inst), (index, x)
            assert observe(WIDE, lane, inst) == observe(NARROW, lane, inst), (index, x)
    # An index the assert forbids (>= the table's rows): ks0 * index = 2**32 wraps in int32 only.
    lane = _lane(inst, env, 5, 2**16)
    assert not asserts(lane, inst) and not safe(lane, inst)
    assert observe(WIDE, lane, inst) != observe(NARROW, lane, inst)
    # Masked off (a tail lane), the assert claims nothing and nothing is observed in either kernel.
    tail = _lane(inst, env, 3 * s85, 2**16)
    assert asserts(tail, inst) and observe(WIDE, tail, inst) == observe(NARROW, tail, inst)


def _with_assume(inst, change):
    """``inst`` with its (only) assume node replaced by ``change(node)`` everywhere in the terms."""
    (node,) = assumes_in(term_roots(inst))
    new = change(node)

    def sub(t: Term) -> Term:
        if t == node:
            return new
        return dataclasses.replace(t, args=tuple(sub(a) for a in t.args)) if t.args else t

    loads = tuple(dataclasses.replace(ld, offset=sub(ld.offset), mask=sub(ld.mask)) for ld in inst.loads)
    return dataclasses.replace(inst, loads=loads)


def test_lean_derivation_refuses_an_assume_outside_its_mask(int32_index):
    """The premise holds where the assert's mask does; used under a mask that does not imply it, the derivation
    has no bound for the index and refuses by name (as the checker refuses the mutant `~(x0 < 1)`)."""
    other = _with_assume(int32_index, lambda n: dataclasses.replace(
        n, args=(n.args[0], Term(TermOp.LT, (n.args[0].args[0], strong(1, "i32"))), *n.args[2:])))
    with pytest.raises(UnsupportedError, match="is used where its mask .* is not known to hold"):
        emit_instance(other)


def test_lean_derivation_refuses_a_one_sided_assume(int32_index):
    upper = _with_assume(int32_index, lambda n: dataclasses.replace(n, value=2))
    with pytest.raises(UnsupportedError, match="one-sided device_assert \\(upper bound only\\)"):
        emit_instance(upper)


def test_lean_grid2d_instance_uses_its_own_launch_rule():
    """`Grid2D` (no z programs): y = program_id(1) * YBLOCK + arange(YBLOCK) is bounded by `Bounded.yindex2d`."""
    from workbench.lean.paths import INSTANCES

    text = (INSTANCES / "TransposeStatic_PoiFusedCloneT0.lean").read_text()
    assert "Bounded.yindex2d hL" in text and "Bounded.yindex hL" not in text
    assert "(.add (.mul (.programId 1) (.block 1)) (.arange 1))" in text
