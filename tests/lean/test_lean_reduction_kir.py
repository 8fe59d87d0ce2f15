"""Reduction kernels from captures to Lean instances (issue 13, item 3): the four certified zoo reductions
kept as test data (``tests/lean/data/reduction``: a looped softmax with three loops, a looped mean, two
persistent norms) are converted to ``Narrowing.RKernel`` terms, checked against ``workbench.kir``'s evaluator
step by step (wide and narrowed), and emitted from their stored certificates as golden instances whose
structure passes the checks (no ``Safe`` hypothesis; the row and the loop's steps as the only new
premises). Nothing here runs Lean."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from workbench import kir  # noqa: E402 - an import error fails, never skips
if not hasattr(kir.Op, "ROFFSET"):
    pytest.skip("workbench.kir has no reduction IR in this tree", allow_module_level=True)

from workbench.capture.record import load as load_record  # noqa: E402
from workbench.errors import WorkbenchError  # noqa: E402
from workbench.lean.adapter import from_certificate  # noqa: E402
from workbench.lean.emit import emit_instance, module_name  # noqa: E402
from workbench.lean.from_kir import kernel_terms  # noqa: E402
from workbench.lean.model import NARROW, WIDE, Lane, evaluate  # noqa: E402
from workbench.lean.structure import check_structure, expected_kernel_text  # noqa: E402

HERE = Path(__file__).parent
DATA = HERE / "data" / "reduction"
GOLDEN = HERE / "golden" / "reduction"
CERTS = sorted((GOLDEN / "certificates").glob("*.json"))
RECORDS = sorted(DATA.glob("*.json"))
# The zoo reductions kept for the checker's newer constructs (tests/lean/data/zoo: dead branches, floors, a looped
# int64 scan, T5's integer abs under a device_assert); their goldens are in tests/lean/golden/zoo.
ZOO = sorted((HERE / "data" / "zoo").glob("triton_[rp]e[dr]_*.json"))
# The corpus's reduction kernels (data/kernels, triton_red_* / triton_per_*) that workbench.kir parses: their
# terms are compared with kir's evaluator like the zoo ones (their instances are corpus goldens).
CORPUS = Path(__file__).resolve().parents[2] / "data" / "kernels"


def _corpus_reductions():
    out = []
    for path in sorted(CORPUS.glob("*/triton_[rp]e[dr]_*.json")):
        try:
            if kir.parse(load_record(path)).reduction is not None:
                out.append(path)
        except WorkbenchError:
            continue  # out of the IR's class (a scan): tests/kir says why
    return out


CORPUS_REDUCTIONS = _corpus_reductions()


def _record(cert: Path):
    data = json.loads(cert.read_text())
    return data, load_record(DATA / f"{data['kernel']}.json")


def test_lean_reduction_test_data_is_certified_and_emitted():
    assert len(RECORDS) == 5 and len(CERTS) == 5  # every certified reduction of the test data has an instance
    loops = sorted(json.loads(c.read_text())["kernel"].split("_")[1] for c in CERTS)
    assert loops == ["per", "per", "per", "red", "red"]


def test_lean_reduction_with_a_device_assert_states_the_premise_at_every_step_lane():
    """embedding + layer norm: the index `tmp0 < 1000` is assumed at every step lane of the theorem (`hA`),
    unpacked at each lane the derivation works on and used by `Bounded.assume` there."""
    cert = next(c for c in CERTS if "embedding" in c.stem)
    data, rec = _record(cert)
    inst = from_certificate(data, cert.name, record=rec, verify_hash=True)
    text = emit_instance(inst)
    assert check_structure(text, inst, expected_kernel_text(inst)) == []
    assert "(hA : ∀ (j : Nat) (r : Int), j ∈ js ∨ j = 0 → r ∈ rs → Asserts (L.step j r))" in text
    assert "def Asserts (L : Lane) : Prop := AssertHolds L (.load 0 .i64 e0 e1 none) e1 (.weak 0) (.weak 1000) true true" in text
    assert text.count("Bounded.assume pa") >= 2 and ":= hA 0 r (Or.inr rfl) hr" in text
    dropped = text.replace(" (hA : ∀ (j : Nat) (r : Int), j ∈ js ∨ j = 0 → r ∈ rs → Asserts (L.step j r)) :\n"
                           "    kernel.observe", " :\n    kernel.observe")
    assert dropped != text and any("premises are not exactly" in p for p in check_structure(dropped, inst, expected_kernel_text(inst)))


@pytest.mark.parametrize("cert", CERTS, ids=lambda p: p.stem)
def test_lean_reduction_instance_matches_golden_and_structure(cert):
    data, rec = _record(cert)
    inst = from_certificate(data, cert.name, record=rec, verify_hash=True)
    assert inst.reduction is not None and inst.store is None
    text = emit_instance(inst)
    path = GOLDEN / f"{module_name(inst)}.lean"
    if os.environ.get("WORKBENCH_UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"{path} differs: regenerate with scripts/lean-regen.sh and review"
    assert check_structure(text, inst, expected_kernel_text(inst)) == []
    k = kir.parse(rec)
    assert f"  loops := {k.reduction.loops}" in text
    if k.reduction.static_block is not None:  # a persistent kernel that fixes R0_BLOCK is launched with it
        assert f"(hB : L.block 2 = {k.reduction.static_block})" in text


def _lanes(k, ln, rng):
    """(pid, x position, r position, r0_offset) picks: random ones, then first/last of each."""
    xb, rb = dict(ln.blocks)["XBLOCK"], dict(ln.blocks)["R0_BLOCK"]
    numel = dict(ln.args).get("r0_numel", k.reduction.static_numel)
    steps = max(1, -(-numel // rb)) if k.reduction.loops else 1
    picks = [(rng.randrange(ln.grid[0]), rng.randrange(xb), rng.randrange(rb), rng.randrange(steps) * rb)
             for _ in range(6)]
    for bits in range(16):
        picks.append((ln.grid[0] - 1 if bits & 1 else 0, xb - 1 if bits & 2 else 0, rb - 1 if bits & 4 else 0,
                      (steps - 1) * rb if bits & 8 else 0))
    return picks, xb, rb


def test_lean_reduction_corpus_kernels_are_compared():
    assert len(CORPUS_REDUCTIONS) >= 9, CORPUS_REDUCTIONS  # the corpus's certified reductions among them


def _contents(pointer: str, offset: int) -> int:
    """Index tensors' contents (``kir.evaluate``'s ``data``, the mirror's ``Lane.mem``): small indices, some
    negative, some far out of every bound (evaluation is unchecked; the device_assert premise is the theorem's)."""
    h = (offset * 2654435761 + len(pointer)) % 1009
    return h - 300 if h < 1000 else 2**40 + h


def _through_float(n) -> bool:
    """Whether an IR node's value goes through a floating-point computation (kir has no float semantics)."""
    from workbench.kir.types import FloatType

    return (n.payload and isinstance(n.type, FloatType)) or any(_through_float(a) for a in n.args)


def _without_float_addresses(k):
    """``k`` with only the loads whose address kir can evaluate (T5's bucket index is computed in floating point:
    ``Expr.fconv``, an uninterpreted function in Lean's model), and their positions among ``k.loads``."""
    import dataclasses

    keep = [i for i, ld in enumerate(k.loads) if not _through_float(ld.args[0])]
    pick = lambda t: tuple(t[i] for i in keep) if t else t  # noqa: E731
    return dataclasses.replace(k, loads=pick(k.loads), load_lines=pick(k.load_lines), load_loops=pick(k.load_loops)), keep


@pytest.mark.parametrize("path", RECORDS + ZOO + CORPUS_REDUCTIONS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_lean_reduction_terms_agree_with_kir_evaluator_per_step(path):
    """`Narrowing.RKernel`'s terms (mirror) against `workbench.kir.evaluate` at every picked (x, r, step):
    the same load and store offsets and masks, wide and narrowed, including shapes beyond int32; kernels with
    index tensors (one-row cross-entropy, T5) with their contents shared by kir (``data=``) and the mirror
    (``Lane.mem``)."""
    import dataclasses

    rec = load_record(path)
    k = kir.parse(rec)
    terms = kernel_terms(k)
    rk = terms.reduction
    kk, keep = _without_float_addresses(k)
    rng = random.Random(7)
    compared = active = 0
    for sizes in ({s.name: max(2, s.lower or 2) for s in rec.symbols},
                  {s.name: rng.randint(2, 300) for s in rec.symbols},
                  {s.name: rng.choice([3, 70_000, 2**31 - 3]) for s in rec.symbols}):
        ln = kir.launch(k, sizes)
        if ln.grid[0] == 0:
            continue  # no x lane at this shape (a floor of a small size is 0: the zoo's guards exclude it)
        values = tuple(dict(ln.args).get(n, 0) for n in terms.scalars)
        picks, xb, rb = _lanes(k, ln, rng)
        for pid, i, r, off in picks:
            klane = kir.Lane((pid, 0, 0), (("XBLOCK", i), ("R0_BLOCK", r)), (ln.grid[0], 1, 1), off)
            lane = Lane((pid, 0, 0), (ln.grid[0], 1, 1), (i, 0, r), (xb, 1, rb), values, off)
            lane = dataclasses.replace(lane, mem=lambda p, a: _contents(terms.pointers[p], a))
            for mode, kmode in ((WIDE, kir.WIDE), (NARROW, kir.NARROW)):
                try:
                    res = kir.evaluate(kk, ln, klane, kmode, data=_contents)
                except WorkbenchError:
                    continue  # undefined behaviour in kir (a divisor wrapped to 0); Lean's tdiv is total
                for ours, theirs in zip([rk.loads[j].load for j in keep], res.loads):
                    assert (evaluate(mode, lane, ours.mask) != 0) == theirs.mask, (path.stem, mode, pid, i, r, off)
                    if theirs.mask:
                        active += 1
                        assert evaluate(mode, lane, ours.offset) == theirs.offset, (path.stem, mode, pid, i, r, off)
                for ours, theirs in zip([st.store for st in rk.stores], res.stores):
                    assert (evaluate(mode, lane, ours.mask) != 0) == theirs.mask
                    if theirs.mask:
                        assert evaluate(mode, lane, ours.offset) == theirs.offset
                compared += 1
    assert compared >= 40 and active >= 20  # lanes compared, active loads among them


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_lean_reduction_safe_holds_on_sampled_lanes(path):
    """The mirror of `RKernel.Safe` at shapes where the captured guards hold (lower bounds, then larger
    ones) on the first and last x lanes, the whole row and the first and last steps: what `kernel_safe`
    derives from the side conditions; both widths then observe the same (`narrowing_exact`)."""
    import dataclasses

    from workbench.lean.rmodel import asserts, observe, safe

    rec = load_record(path)
    k = kir.parse(rec)
    terms = kernel_terms(k)
    narrowed = frozenset(terms.narrowed)
    for scale in (0, 1):
        sizes = {s.name: max(2, s.lower or 2) + 3 * scale for s in rec.symbols}
        ln = kir.launch(k, sizes)
        values = tuple(dict(ln.args).get(n, 0) for n in terms.scalars)
        xb, rb = dict(ln.blocks)["XBLOCK"], dict(ln.blocks)["R0_BLOCK"]
        numel = dict(ln.args).get("r0_numel", k.reduction.static_numel)
        steps = max(1, -(-numel // rb)) if k.reduction.loops else 1
        js = sorted({0, steps - 1})
        # The theorem holds for every row `rs` of positions (RowOK); a few positions keep the mirror's nested
        # row reductions (O(len(rs)) per level) fast.
        rs = sorted({0, 1, rb - 1})
        for pid, i in ((0, 0), (ln.grid[0] - 1, xb - 1)):
            # Index tensors (embedding + layer norm) holding a valid row, the last one, and one past the table.
            for cell in (0, 999, 1000):
                lane = dataclasses.replace(Lane((pid, 0, 0), (ln.grid[0], 1, 1), (i, 0, 0), (xb, 1, rb), values),
                                           mem=lambda p, a, c=cell: c)
                if not asserts(terms.reduction, lane, rs, js):
                    assert cell == 1000  # the premise says nothing about this input
                    continue
                assert safe(terms.reduction, narrowed, lane, rs, js), (path.stem, sizes, pid, i)
                assert observe(terms.reduction, WIDE, lane, rs, js) == \
                    observe(terms.reduction, (NARROW, narrowed), lane, rs, js)
    if narrowed:  # not vacuous: a narrowed size argument beyond int32 breaks the premise
        ln = kir.launch(k, {s.name: 2**31 + 5 for s in rec.symbols})
        values = tuple(dict(ln.args).get(n, 0) for n in terms.scalars)
        lane = Lane((0, 0, 0), (1, 1, 1), (0, 0, 0), (1, 1, 1), values)
        assert not safe(terms.reduction, narrowed, lane, [0], [0])
