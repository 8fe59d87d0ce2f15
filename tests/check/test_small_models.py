"""Small-width exhaustive models of every reduction and indirect-indexing kernel the checker certifies
(issue 13): ``workbench.check.exhaustive`` runs the checker at a few-bit "int32" and, where it certifies the
modes certified at 32 bits, evaluates every admissible shape (one per distinct launch), every program, every
(x, r) lane at every step, and every loaded index value the premise admits, wide against narrowed.

The kernel list is read from data: every record under ``data/kernels``, ``tests/kir/data/reduction``,
``tests/lean/data/reduction`` and ``tests/check/data/families`` whose class is reduction, persistent reduction
or indirect indexing, or whose text has a ``tl.device_assert`` (roll). A kernel certified at 32 bits without
a model run fails; one not certified is skipped with its verdict (visible in ``-ra``). Controls show that the
comparison bites: an accumulator init and an update that overflow only in int32, a reduction read on tail
rows, an index product under a weak premise.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path

import pytest

from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.check.api import check_kernel
from workbench.check.classes import KernelClass, kernel_class
from workbench.check.exhaustive import admissible_shapes, model_run, spread
from workbench.paths import KERNELS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = (KERNELS, ROOT / "tests/kir/data/reduction", ROOT / "tests/lean/data/reduction",
           ROOT / "tests/check/data/families")
CLASSES = (KernelClass.REDUCTION, KernelClass.PERSISTENT, KernelClass.INDIRECT)
MODES = ("strict", "observable")


def _records() -> list[Path]:
    seen, out = set(), []
    for d in SOURCES:
        for p in sorted(d.glob("**/*.json")):
            data = json.loads(p.read_text())
            if data.get("schema") != "workbench.captured_kernel/1":
                continue
            if kernel_class(data["name"], data["index_dtype"], data["source"]) not in CLASSES \
                    and "tl.device_assert" not in data["source"]:
                continue
            digest = hashlib.sha256(p.read_bytes()).hexdigest()
            if digest not in seen:  # tests/lean/data/reduction copies tests/kir/data/reduction
                seen.add(digest)
                out.append(p)
    return out


RECORDS = _records()


def _certified(rec) -> tuple[tuple[str, ...], dict]:
    verdicts = {m: check_kernel(rec, m, counterexample=False) for m in MODES}
    return tuple(m for m, v in verdicts.items() if v.certified), verdicts


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem[:40]}")
def test_every_certified_kernel_agrees_in_its_small_model(path):
    rec = load(path)
    modes, verdicts = _certified(rec)
    if not modes:
        v = verdicts["observable"]
        pytest.skip(f"not certified at 32 bits ({v.verdict}: {v.reason[:160]})")
    run = model_run(rec, modes)
    assert run.widths, f"{rec.program}/{rec.name} is certified ({modes}) but has no small-model run: {run.why_not}"
    assert run.difference is None, f"certified but the small model differs: {run.difference} ({run.summary()})"
    if rec.name in PARTIAL:
        # named, not silent: the first width is not run in full within the budget (see PARTIAL)
        assert run.lanes > 0 and not run.widths[0].complete, (PARTIAL[rec.name], run.summary())
        return
    assert run.widths[0].complete and run.lanes > 0, run.summary()


# Certified records whose smallest admissible width cannot be run in full within the model's budget; each runs
# as far as the budget goes (every lane evaluated is compared) and is covered in full by the oracle instead.
PARTIAL = {
    "triton_per_fused_embedding_native_layer_norm_0":
        "the zoo's Embedding(1000, 64) + LayerNorm: the assert's literal table bound 1000 is not scaled with the "
        "model, so the first admissible width is 17 bits and each launch enumerates 1000 index values per lane "
        "(1 of 850 launches fits the 100,000-lane budget); the oracle runs it at 32 bits (docs/oracle.md)",
    "triton_poi_fused_floor_divide_index_0":
        "int_gather_div's t[idx // 3]: each lane enumerates every index value the assert admits (44,202 of "
        "100,275 outside the premise at 6 bits), so 200 of 380 launches fit the 100,000-lane budget; every lane "
        "run agrees, and the oracle runs the kernel at 32 bits in every certified mode (tests/oracle)",
}


REDTEAM = ROOT / "tests" / "adversarial" / "redteam"
# red-team records of reductions and indirect indexing that the checker certifies (probes kept as regressions)
PROBE_RECORDS = [p for p in sorted(REDTEAM.glob("probe-red-*/*.json")) + sorted(REDTEAM.glob("probe-assert-*/*.json"))]


@pytest.mark.parametrize("path", PROBE_RECORDS, ids=lambda p: p.parent.name)
def test_certified_redteam_records_agree_in_their_small_model(path):
    """The red-team probes of reductions and indirect indexing that are certified: the model (with a lane
    budget; launches in spread order) finds no difference. Probes that are refused are skipped visibly."""
    rec = load(path)
    modes, verdicts = _certified(rec)
    if not modes:
        pytest.skip(f"refused or out of class at 32 bits ({verdicts['observable'].verdict})")
    run = model_run(rec, modes, budget=20_000)
    assert run.widths, f"{path.parent.name}: certified but no small-model run: {run.why_not}"
    assert run.difference is None, f"{path.parent.name}: {run.difference} ({run.summary()})"


def test_the_list_holds_every_certified_reduction_and_indirect_kernel_of_the_corpus_table():
    """A certified reduction or indirect kernel of the shipped table without a record in the list above
    would have no model run."""
    table = json.loads((ROOT / "data/check/results.json").read_text())
    names = {(json.loads(p.read_text())["program"], p.stem) for p in RECORDS}
    for row in table["kernels"]:
        cls = row.get("class", "")
        if row["observable"]["verdict"] == "certified" and cls in ("reduction", "persistent reduction",
                                                                     "indirect indexing"):
            assert (row["program"], row["kernel"]) in names, row["kernel"]
    assert len(RECORDS) >= 20


def test_the_families_are_all_in_the_list():
    got = {(json.loads(p.read_text())["program"]) for p in RECORDS}
    for name in ("amin_last", "argmax_last", "argmin_dim1", "softmax_dim1_64", "embedding", "index_select",
                 "gather_last", "index_tensor", "roll_last", "cross_entropy"):
        assert name in got, name


# -- the enumeration ----------------------------------------------------------------------------------------


def test_shapes_are_every_assignment_satisfying_the_guards():
    """Against brute force over the whole box (every symbol in [lower, 31]): pruning by monotone guards and
    element counts loses nothing."""
    import itertools

    import sympy

    from workbench.check.soundness import small_record
    from workbench.symexpr import parse_any

    rec = small_record(load(KERNELS / "embedding" / "triton_poi_fused_embedding_0.json"), 6)
    got = admissible_shapes(rec, 6)
    names = [s.name for s in rec.symbols]
    syms = [sympy.Symbol(n) for n in names]
    facts = [sympy.lambdify(syms, parse_any(g)) for g in rec.guards]
    facts += [sympy.lambdify(syms, parse_any(n.expr) <= 31) for n in rec.numels]
    want = [dict(zip(names, vals))
            for vals in itertools.product(*(range(max(s.lower or 0, 0), 32) for s in rec.symbols))
            if all(f(*vals) for f in facts)]
    assert got == want and len(got) == 380


def test_spread_is_a_permutation_whose_prefixes_are_spread():
    for n in (1, 2, 5, 16, 37):
        assert sorted(spread(n)) == list(range(n))
    assert spread(8)[:2] == [0, 4]


# -- controls: the comparison bites ----------------------------------------------------------------------------

SUM_LAST = KERNELS / "sum_last" / "triton_red_fused_sum_0.json"
LOOP = "    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n"


def _mutate(path, old, new):
    rec = load(path)
    body = jit_function_text(rec.source, rec.name)
    assert old in body, old
    return replace(rec, source=rec.source.replace(body, body.replace(old, new, 1)))


def _differs_in_small_model(rec, bits=6):
    from workbench.check.checker import Widths
    from workbench.check.exhaustive import WidthRun, _run_at, ModelRun
    from workbench.check.soundness import small_record

    small = small_record(rec, bits)
    run = ModelRun(rec.program, rec.name)
    at = WidthRun(bits)
    _run_at(run, at, small, Widths(bits, 2 * bits), admissible_shapes(small, bits), 10**6)
    return run.difference, small


def _mutate_all(path, *edits):
    rec = load(path)
    body = jit_function_text(rec.source, rec.name)
    new = body
    for old, repl in edits:
        assert old in new, old
        new = new.replace(old, repl, 1)
    return replace(rec, source=rec.source.replace(body, new))


UPDATE = "        _tmp2 = tl.where(r0_mask & xmask, tmp3, _tmp2)\n"
STORE = "    tl.store(out_ptr0 + (x0), tmp2, xmask)"


def test_control_an_accumulator_init_that_overflows_only_in_int32():
    """``_tmp90`` starts at ``ks0*ks0*ks0`` (int64 in W, wrapping int32 in N) and counts up; only its row
    sum is stored. Every update term is the same function of the accumulator in both widths, so the
    difference is in the init, which the model compares; the checker refuses."""
    rec = _mutate_all(SUM_LAST,
                      (LOOP, "    _tmp90 = tl.full([XBLOCK, R0_BLOCK], 0, tl.int64) + ks0*ks0*ks0\n" + LOOP),
                      (UPDATE, UPDATE + "        _tmp90 = tl.where(r0_mask & xmask, _tmp90 + 1, _tmp90)\n"),
                      (STORE, STORE + "\n    tmp91 = tl.sum(_tmp90, 1)[:, None]\n"
                                      "    tl.store(out_ptr0 + (x0), tmp91.to(tl.float32), xmask)"))
    diff, _ = _differs_in_small_model(rec)
    assert diff is not None and "accumulator" in diff[-1], diff
    assert not check_kernel(rec, "observable", counterexample=False).certified


def test_control_a_reduction_operand_that_differs_on_tail_rows_only():
    """A row sum whose operand (``ks0**3`` as a float) wraps in N only on tail rows and r lanes >= 1, stored on every row at
    r lane 0: the stored term (the operand at r lane 0) agrees; the row's other r lanes do not, and the
    model compares them because an active access reads the reduction."""
    rec = _mutate_all(SUM_LAST, (STORE, STORE + "\n    tmp95 = tl.sum(tl.where(xmask | (r0_base < 1), 0.0, (ks0*ks0*ks0).to(tl.float32)), 1)[:, None]"
                                                "\n    tl.store(out_ptr0 + (x0*0), tmp95.to(tl.float32), r0_base < 1)"))
    diff, _ = _differs_in_small_model(rec)
    assert diff is not None and "reduction" in diff[-1], diff
    assert not check_kernel(rec, "observable", counterexample=False).certified
