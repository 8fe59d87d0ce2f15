"""Reductions, scans and device asserts before Triton runs: the body check admits exactly Inductor's loop (and
refuses anything else by construct and line), block sizes and steps are planned within budget, asserts are read
and evaluated by the oracle's own code, index tables are drawn inside (and, for the control, outside) the range."""

from __future__ import annotations

import ast
import glob
import json
import random
from pathlib import Path

import numpy as np
import pytest

from workbench.oracle import reduction
from workbench.oracle.asserts import AssertModelError, evaluate, find, tables
from workbench.oracle.corpus import load_record
from workbench.oracle.launch import plan
from workbench.oracle.memory import index_categories, index_values
from workbench.oracle.run import _Planned, _prepare
from workbench.oracle.corpus import Target
from workbench.oracle.source import NotTritonLanguage, OracleInputError, read

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "data" / "kernels"
SOFTMAX = KERNELS / "softmax_last" / "triton_red_fused__softmax_prepare_softmax_online_0.json"
CUMSUM = KERNELS / "cumsum_last" / "triton_red_fused_cumsum_0.json"
EMBEDDING = KERNELS / "embedding" / "triton_poi_fused_embedding_0.json"
INDEX_SELECT = KERNELS / "index_select" / "triton_poi_fused_index_select_0.json"
PERSISTENT = ROOT / "tests" / "kir" / "data" / "reduction" / "triton_per_fused_native_group_norm_1.json"
LOOP = "    for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n"
FIRST = "        r0_index = r0_offset + r0_base\n"


def _source(path: Path) -> tuple[str, str]:
    d = json.loads(path.read_text())
    return d["source"], d["name"]


def _fn(path: Path) -> ast.FunctionDef:
    src, name = _source(path)
    text = read(src, name)
    fn = ast.parse(text.function).body[0]
    assert isinstance(fn, ast.FunctionDef)
    return fn


# -- the body check ------------------------------------------------------------------------------------------


def test_every_captured_reduction_and_scan_body_is_admitted():
    paths = [p for p in glob.glob(str(KERNELS / "*" / "*.json")) if "/triton_red" in p or "/triton_per" in p]
    paths += glob.glob(str(ROOT / "tests" / "kir" / "data" / "reduction" / "*.json"))
    assert len(paths) >= 17
    for p in paths:
        src, name = _source(Path(p))
        text = read(src, name, p)
        assert text.name == name
    assert len(read(*_source(CUMSUM)).helpers) == 1  # the scan's combine function travels with the kernel


@pytest.mark.parametrize("edit, match", [
    (lambda s: s.replace(LOOP, "    for r0_offset in range(0, r0_numel, R0_BLOCK):\n", 1), "a loop other than"),
    (lambda s: s.replace(LOOP, "    for r0_offset in tl.range(0, r0_numel, R0_BLOCK, num_stages=2):\n", 1),
     "a loop other than"),
    (lambda s: s.replace(LOOP, "    for r0_offset in tl.range(1, r0_numel, R0_BLOCK):\n", 1), "a loop other than"),
    (lambda s: s.replace(LOOP, "    for r0_offset in tl.range(0, ks0, R0_BLOCK):\n", 1), "a loop other than"),
    (lambda s: s.replace(LOOP, "    for r0_offset in tl.static_range(0, r0_numel, R0_BLOCK):\n", 1),
     "a loop other than"),
    (lambda s: s.replace(LOOP, "    for i in tl.range(0, r0_numel, R0_BLOCK):\n", 1), "a loop other than"),
    (lambda s: s.replace(LOOP + FIRST, LOOP + "        for j in tl.range(0, r0_numel, R0_BLOCK):\n            pass\n"
                         + FIRST, 1), "a For statement inside the reduction loop"),
    (lambda s: s.replace(LOOP + FIRST, LOOP + FIRST + "        r0_offset = 0\n", 1), "the loop variable 'r0_offset'"),
    (lambda s: s.replace(LOOP + FIRST, LOOP + "        if r0_offset > 0:\n            pass\n" + FIRST, 1),
     "a If statement inside the reduction loop"),
    (lambda s: s.replace(LOOP, "    while xnumel > 0:\n", 1), "a While statement"),
    (lambda s: s.replace(LOOP + FIRST, LOOP + FIRST + "        k = __import__('os')\n", 1), "the name '__import__'"),
    (lambda s: s.replace('float("-inf")', 'float("1e3")', 1), r"float\(\.\.\.\) other than"),
    (lambda s: s.replace("triton_helpers.maximum", "triton_helpers.x_grid_barrier", 1),
     "triton_helpers.x_grid_barrier"),
    (lambda s: s.replace("libdevice.exp", "libdevice.nextafter", 1), "libdevice.nextafter"),
    (lambda s: s.replace("    RBLOCK: tl.constexpr = R0_BLOCK\n", "    RBLOCK: int = R0_BLOCK\n", 1),
     "an annotated assignment other than"),
])
def test_loops_and_calls_other_than_inductors_are_refused_by_construct_and_line(edit, match):
    src, name = _source(SOFTMAX)
    edited = edit(src)
    assert edited != src
    with pytest.raises(NotTritonLanguage, match=match) as err:
        read(edited, name)
    assert "line " in str(err.value)


def test_a_helper_jit_function_passes_the_same_check():
    src, name = _source(CUMSUM)
    bad = src.replace("    tmp0 = arg0_0 + arg1_0\n", "    tmp0 = arg0_0 + arg1_0\n    import os\n", 1)
    with pytest.raises(NotTritonLanguage, match="_triton_helper_fn_add0: a Import statement"):
        read(bad, name)
    other = src.replace("def _triton_helper_fn_add0(", "def helper_add0(", 1)
    with pytest.raises(OracleInputError, match="exactly one @triton.jit function"):
        read(other, name)


# -- reduction facts, blocks and steps ---------------------------------------------------------------------


def test_reduction_facts_are_read_from_the_text():
    f = reduction.facts(_fn(SOFTMAX))
    assert f.reduction and f.loops == 3 and not f.persistent
    p = reduction.facts(_fn(PERSISTENT))
    assert p.persistent and p.fixed("r0_numel") == 6 and p.fixed("R0_BLOCK") == 8
    assert not reduction.facts(_fn(EMBEDDING)).reduction


def test_looped_blocks_rotate_and_fit_the_step_budget():
    f = reduction.facts(_fn(SOFTMAX))
    pairs = [reduction.blocks(f, 1000, i, ("XBLOCK", "R0_BLOCK")) for i in range(4)]
    assert [(b["XBLOCK"], b["R0_BLOCK"]) for b, _, _ in pairs] == list(reduction.LOOPED_BLOCKS)
    assert all(loop == "full" and n == reduction.PIDS_REDUCTION for _, loop, n in pairs)
    # 46340 r lanes: (64, 64) would need 725 steps per loop; the largest legal R0_BLOCK makes it 23
    b, loop, n = reduction.blocks(f, 46340, 2, ("XBLOCK", "R0_BLOCK"))
    assert (b, loop) == ({"XBLOCK": 1, "R0_BLOCK": 2048}, "full") and 3 * 23 * n <= reduction.STEP_BUDGET
    # a long row runs fewer programs (down to first and last), a huge one sampled loops
    b, loop, n = reduction.blocks(f, 600_000, 0, ("XBLOCK", "R0_BLOCK"))
    assert loop == "full" and n == reduction.MIN_PIDS
    b, loop, n = reduction.blocks(f, 2**30, 0, ("XBLOCK", "R0_BLOCK"))
    assert loop == "sampled" and b["R0_BLOCK"] == reduction.MAX_R0_BLOCK


def test_persistent_blocks_cover_the_row_and_keep_inductors_tile_limit():
    p = reduction.facts(_fn(PERSISTENT))
    for i in range(8):
        b, loop, _ = reduction.blocks(p, 6, i, ("XBLOCK",))
        assert loop == "none" and "R0_BLOCK" not in b and (b["XBLOCK"] == 1 or b["XBLOCK"] * 8 <= 4096)
    assert "R0_BLOCK 8 < r0_numel 9" in reduction.blocks(reduction.Facts(True, 0, (("R0_BLOCK", 8),)), 9, 0, ())


def test_sampled_steps_hold_the_ends_the_tail_and_the_marks():
    n, block = 2**30 // 2048 + 3, 2048
    marks = reduction.marks(n * block - 5, [123456789])
    steps = reduction.chosen_steps(n, block, marks, random.Random(0), sampled=True)
    assert len(steps) == reduction.SAMPLED_STEPS and steps == sorted(set(steps))
    assert {0, 1, n - 2, n - 1} <= set(steps) and (2**30) // block in steps and 123456789 // block in steps
    assert steps == reduction.chosen_steps(n, block, marks, random.Random(0), sampled=True)  # same in W and N
    assert reduction.chosen_steps(40, block, marks, random.Random(0), sampled=False) == list(range(40))


def test_a_reduction_launch_is_inductors_1d_grid_with_first_and_last_programs():
    rec = load_record(SOFTMAX)
    f = reduction.facts(_fn(SOFTMAX))
    params = ("in_ptr0", "out_ptr2", "ks0", "xnumel", "r0_numel", "XBLOCK", "R0_BLOCK")
    launch = plan(rec, {"s27": 46340, "s77": 46341}, 2, random.Random(0), params, ("XBLOCK", "R0_BLOCK"),
                  ("in_ptr0", "out_ptr2"), None, f)
    assert dict(launch.constexprs) == {"XBLOCK": 1, "R0_BLOCK": 2048} and launch.grid == (46341, 1, 1)
    xs = [p[0] for p in launch.pids]
    assert 0 in xs and 46340 in xs and launch.loop == "full"
    assert dict(launch.reduction) == {"XBLOCK": 1, "R0_BLOCK": 2048, "xnumel": 46341, "r0_numel": 46340}


# -- device asserts and index tables -------------------------------------------------------------------------


def test_index_asserts_name_their_table_bound_and_wrap():
    (emb,) = find(_fn(EMBEDDING), frozenset({"in_ptr0", "in_ptr1", "out_ptr0"}))
    assert (emb.var, ast.unparse(emb.bound), emb.pointers, emb.negative) == ("tmp0", "ks1", ("in_ptr0",), False)
    (sel,) = find(_fn(INDEX_SELECT), frozenset({"in_ptr0", "in_ptr1", "out_ptr0"}))
    assert (sel.var, sel.pointers, sel.negative) == ("tmp4", ("in_ptr0",), True)
    assert tables((emb,), {"ks0": 7, "ks1": 1000, "xnumel": 70}) == {"in_ptr0": (1000, False)}


def test_the_oracles_evaluator_is_exact_and_truncates_like_triton():
    cond = ast.parse("((0 <= t) & (t < b)) | ~(m)", mode="eval").body
    t = np.array([-1, 0, 5, 2**40, 9], dtype=object)
    m = np.array([True, True, True, True, False])
    assert evaluate(cond, {"t": t, "b": 2**40, "m": m}).tolist() == [False, True, True, False, True]
    div = ast.parse("a // b", mode="eval").body
    mod = ast.parse("a % b", mode="eval").body
    assert evaluate(div, {"a": -7, "b": 2}) == -3 and evaluate(mod, {"a": -7, "b": 2}) == -1  # C semantics
    with pytest.raises(AssertModelError, match="Call"):
        evaluate(ast.parse("f(t)", mode="eval").body, {"t": 1})


def test_index_tables_cover_both_ends_and_the_wrap_in_every_entry():
    addr = np.uint64(1 << 56) + 8 * np.arange(2, dtype=np.uint64)  # a two-entry table
    off = np.arange(2)
    draws = index_categories(True, False)
    seen = {int(v) for s in range(draws) for v in index_values(addr, off, "i64", 1000, True, False, s)}
    assert {0, 999, 500, -1000, -1} <= seen and all(-1000 <= v < 1000 for v in seen)
    inside = np.concatenate([index_values(addr, off, "i64", 1000, False, False, s) for s in range(4)])
    assert inside.dtype == np.int64 and ((0 <= inside) & (inside < 1000)).all()
    outside = np.concatenate([index_values(addr, off, "i32", 2**31 - 1, False, True, s) for s in range(7)])
    assert outside.dtype == np.int32 and (outside < 0).any()  # -1, and the top clipped to the table's type


def test_planning_draws_index_tables_at_the_launchs_bounds():
    rec = load_record(EMBEDDING)
    p = _prepare(0, Target(rec, ("strict",), ("ks0", "ks1")), None, 0)
    assert isinstance(p, _Planned)
    for run, launch in zip(p.job["runs"], p.launches):
        assert run["index"] == {"in_ptr0": [dict(launch.scalars)["ks1"], False]} and run["draw"] == "inside"


def test_guards_naming_other_inputs_sizes_get_dynamos_dynamic_range():
    from workbench.oracle.shapes import search, valid

    rec = load_record(PERSISTENT)  # groupnorm's guards name s54 and s65, sizes of the graph's other inputs
    ranges = {s.name: (s.lower, s.upper) for s in rec.symbols}
    assert ranges["s54"] == (2, None) and ranges["s65"] == (2, None)
    shapes = search(rec)
    assert shapes and all(valid(rec, s.as_dict()) for s in shapes)


def test_libdevice_tanh_runs_as_a_composition_and_the_zoo_gelu_kernels_agree():
    """bert's and gpt2's tanh-GELU kernels call ``libdevice.tanh``, which has no ``tl.math`` namesake: the
    oracle runs it as ``1 - 2/(exp(2x) + 1)`` in both kernels (the comparison is between the two runs), so
    these certified zoo kernels are compared instead of being out of class."""
    import numpy as np

    from workbench.oracle.body import LIBDEVICE_COMPOSED
    from workbench.oracle.corpus import parse_record
    from workbench.oracle.run import check as oracle_check
    from workbench.oracle.corpus import Target

    assert "tanh" in LIBDEVICE_COMPOSED
    root = Path(__file__).resolve().parents[2] / "data" / "zoo" / "records"
    rec = parse_record(json.loads((root / "bert" / "triton_poi_fused_addmm_tanh_8.json").read_text()), "bert tanh")
    [res] = oracle_check([Target(rec, ("strict", "observable"), ())])
    assert res.verdict.value == "ok", (res.verdict, res.findings[:2])
    assert res.disagreements == 0 and np.isfinite(res.lanes) and res.lanes > 0


def test_an_assert_on_an_index_expression_alone_sets_no_lane_apart():
    """gpt2's position-embedding kernels assert ``x0 < 512`` (a shape condition missing from the guards, not a
    bound on loaded data): it is no premise of the checker, so lanes where it fails are compared, and the
    narrowed kernel's assert must come out as the wide one's there; a premise assert (index form, fed by a
    load) still sets its failing lanes apart."""
    from workbench.oracle.compare import Comparison, compare_asserts, premise
    from workbench.oracle.memory import AssertEvent

    fails = np.array([True, False, True, False])
    shape_only = AssertEvent((0, None, None), "x0 < 512", fails, fails, premise=False)
    outside, errors = premise([shape_only], (4,), rows=False)
    assert not errors and not outside.any()
    data = AssertEvent((0, None, None), "(0 <= tmp0) & (tmp0 < 1000)", fails, fails, premise=True)
    outside, _ = premise([data], (4,), rows=False)
    assert outside.tolist() == [False, True, False, True]
    # the narrowed kernel's shape-only assert evaluates differently on lane 1: a disagreement
    narrowed = AssertEvent((0, None, None), "x0 < 512", np.array([True, True, True, False]), None, premise=False)
    c = Comparison()
    compare_asserts([shape_only], [narrowed], (4,), None, c)
    assert c.disagreement_count == 1
