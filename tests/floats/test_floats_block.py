"""The block level (issue 25 items 3-4): answers whose threads share data, checked over the reals, over
float32 and for shared-memory safety. Each test decides at small explicit shapes (one or two blocks) so that
the file runs in seconds; the corpus table (data/floats/kernelbench-block/verdicts.json) holds the verdicts at
the shapes the level chooses itself.

The float32 witness is checked against two oracles that share nothing with the interpreter: the kernel's
order rewritten in numpy (strided partial sums, then the shared-memory tree), and torch.sum on the CPU.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from workbench.floats.block import BlockOptions, FloatStatus, HazardKind, RealStatus, check_block, wants_block
from workbench.floats.block.domains import Float32
from workbench.floats.cuda.literals import round_fraction
from workbench.floats.ir import Ty

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "data/floats/kernelbench-block"
EXAMPLES = ROOT / "data/floats/kernelbench/examples"
LEVEL1 = ROOT.parent / "shared/kernelbench/level1"
SUM = LEVEL1 / "47_Sum_reduction_over_a_dimension.py"
MATMUL = LEVEL1 / "2_Standard_matrix_multiplication_.py"
needs_level1 = pytest.mark.skipif(not LEVEL1.is_dir(), reason="KernelBench level 1 is not at ../shared/kernelbench")


def _line(path: Path, text: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if text in ln)


def _check(ref, name, shapes, trials=2, **kw):
    return check_block(ref, CORPUS / name, BlockOptions(trials=trials, shapes=shapes, **kw))


@needs_level1
def test_off_by_one_is_not_equivalent_over_the_reals_with_the_missed_element():
    v = _check(SUM, "47_sum__wrong_off_by_one.py", ((1, 259, 1),))
    assert v.reals.status is RealStatus.NOT_EQUIVALENT
    assert v.reals.witness.output == (0, 0, 0)
    assert "kernel - spec = -x[0, 258, 0]" in v.reals.text  # the last element of the reduced dim is missed
    assert v.reals.witness.kernel_value != v.reals.witness.spec_value
    assert "not for all shapes" in v.reals.text and v.reals.shapes == ((1, 259, 1),)
    assert v.safety.safe and v.verdict.value == "not-equivalent"


def _tree_sum(col: np.ndarray, threads: int = 256) -> np.float32:
    """The shared-tree answer's order in numpy: thread t sums r = t, t + 256, ...; then the halving tree."""
    part = np.zeros(threads, dtype=np.float32)
    for t in range(threads):
        for r in range(t, col.size, threads):
            part[t] = np.float32(part[t] + col[r])
    s = threads // 2
    while s:
        part[:s] = part[:s] + part[s:2 * s]
        s //= 2
    return part[0]


@needs_level1
def test_shared_tree_sum_differs_from_the_cpu_cascade_sum_with_a_confirmed_witness():
    import torch

    v = _check(SUM, "47_sum__shared_tree.py", ((1, 259, 1),), trials=8)
    assert v.reals.status is RealStatus.EQUIVALENT
    f = v.float32
    assert f.status is FloatStatus.NOT_EQUIVALENT and "equivalent over float32" not in f.text.replace("not equivalent", "")
    w = f.witness
    assert "DID NOT" not in w.confirmed_by and w.kernel != w.spec and w.ulp >= 1 and f.worst_ulp >= w.ulp
    x = np.array(w.inputs[0], dtype=np.uint32).view(np.float32)
    assert int(np.array(_tree_sum(x)).view(np.uint32)) == w.kernel  # independent oracle of the kernel's order
    spec = torch.sum(torch.from_numpy(x.reshape(1, 259, 1)), dim=1, keepdim=True)
    assert int(spec.numpy().view(np.uint32).reshape(-1)[0]) == w.spec
    assert "SumKernel.cpp" in f.decided_by and "spec device cpu" in f.semantics and "fma=on" in f.semantics
    assert v.safety.hazards == ()


@needs_level1
def test_spec_device_cuda_is_undecided_over_float32_never_equivalent():
    v = _check(SUM, "47_sum__shared_tree.py", ((1, 5, 1),), spec_device="cuda")
    assert v.float32.status is FloatStatus.UNDECIDED and "Reduce.cuh" in v.float32.decided_by


@needs_level1
def test_missing_syncthreads_is_a_race_between_barriers():
    path = CORPUS / "47_sum__wrong_missing_syncthreads.py"
    v = _check(SUM, path.name, ((1, 259, 1),))
    races = [h for h in v.safety.hazards if h.kind is HazardKind.RACE]
    assert races and not v.safety.safe and v.verdict.value == "unsafe"
    line = _line(path, "sdata[tid] += sdata[tid + s];")
    h = races[0]
    assert h.array == "sdata" and h.lines == (line, line) and len(h.threads) == 2 and h.threads[0] != h.threads[1]
    assert "no __syncthreads between" in h.text


@needs_level1
@pytest.mark.parametrize("name, shapes, kind, where", [
    ("47_sum__wrong_early_return.py", ((1, 5, 1),), HazardKind.DIVERGENT_BARRIER, "__syncthreads();"),
    ("47_sum__wrong_uninitialised_shared.py", ((1, 5, 1),), HazardKind.UNINITIALISED_READ, "sdata[tid] += sdata[tid + s];"),
    ("47_sum__wrong_tree_out_of_bounds.py", ((1, 5, 1),), HazardKind.SHARED_OUT_OF_BOUNDS, "sdata[tid] += sdata[tid + s];"),
])
def test_shared_memory_hazards_have_thread_level_witnesses(name, shapes, kind, where):
    v = _check(SUM, name, shapes)
    found = [h for h in v.safety.hazards if h.kind is kind]
    assert found, v.safety.summary()
    assert _line(CORPUS / name, where) in found[0].lines and found[0].threads
    assert not v.safety.safe and v.verdict.value == "unsafe"


@needs_level1
def test_out_of_bounds_shared_read_names_the_address():
    v = _check(SUM, "47_sum__wrong_tree_out_of_bounds.py", ((1, 5, 1),))
    h = next(h for h in v.safety.hazards if h.kind is HazardKind.SHARED_OUT_OF_BOUNDS)
    assert h.array == "sdata" and h.address == 256 and "outside its 256 elements" in h.text


@needs_level1
def test_warp_shuffles_sum_right_and_a_wrong_offset_doubles_lanes():
    assert _check(SUM, "47_sum__warp_shuffle.py", ((1, 40, 1),)).reals.status is RealStatus.EQUIVALENT
    v = _check(SUM, "47_sum__wrong_shuffle_offset.py", ((1, 40, 1),))
    assert v.reals.status is RealStatus.NOT_EQUIVALENT and v.safety.safe


@needs_level1
def test_a_shuffle_mask_that_leaves_out_active_lanes_is_a_hazard():
    v = _check(LEVEL1 / "53_Min_reduction_over_a_dimension.py", "53_min__wrong_shuffle_mask.py", ((1, 5, 1),))
    assert any(h.kind is HazardKind.SHUFFLE and "0x0000FFFF" in h.text for h in v.safety.hazards)


@needs_level1
def test_kernelbench_tiled_matmul_example_checks_without_editing():
    ref, ans = EXAMPLES / "model_ex_tiled_matmul.py", EXAMPLES / "model_new_ex_tiled_matmul.py"
    assert wants_block(ref, ans)
    v = check_block(ref, ans, BlockOptions(trials=3, shapes=((17, 19), (19, 3))))
    assert v.reals.status is RealStatus.EQUIVALENT and v.safety.hazards == ()
    assert v.float32.status in (FloatStatus.NOT_EQUIVALENT, FloatStatus.NOT_SHOWN)
    assert v.kernel == "tiled_matmul_kernel"


@needs_level1
def test_tiled_matmul_without_the_second_barrier_races_on_the_tiles():
    path = CORPUS / "2_matmul__wrong_missing_second_sync.py"
    v = check_block(MATMUL, path, BlockOptions(trials=2, shapes=((1, 17), (17, 3))))  # one block, two K tiles
    races = [h for h in v.safety.hazards if h.kind is HazardKind.RACE]
    assert races and {h.array for h in races} <= {"As", "Bs"}
    assert _line(path, "acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];") in races[0].lines


def test_only_pairs_that_share_data_or_reduce_go_to_the_block_level():
    assert not wants_block(EXAMPLES / "model_ex_add.py", EXAMPLES / "model_new_ex_add.py")
    assert not wants_block(EXAMPLES / "model_ex_fuse_gelu.py", EXAMPLES / "model_new_ex_fuse_gelu.py")
    assert wants_block(EXAMPLES / "model_ex_tiled_matmul.py", EXAMPLES / "model_new_ex_tiled_matmul.py")
    assert wants_block(EXAMPLES / "model_ex_tiled_matmul.py", EXAMPLES / "model_new_ex_add.py")  # `a@b` in forward


def test_float32_fma_rounds_once():
    rng = np.random.default_rng(0)
    a, b = (rng.standard_normal(2000).astype(np.float32) for _ in range(2))
    c = (rng.standard_normal(2000) * 1e-4).astype(np.float32)
    a[:2] = b[:2] = np.float32(1 + 2 ** -12)  # a*b = 1 + 2**-11 + 2**-24: c decides the rounding
    c[:2] = np.float32(2 ** -60), np.float32(-(2 ** -60))
    got = Float32(2000).fma(a, b, c, "f32")
    want = np.array([round_fraction(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)), Ty.F32)
                     for x, y, z in zip(a, b, c)], dtype=np.float32)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_committed_table_never_says_equivalent_over_float32_and_wrong_answers_are_not_accepted():
    rows = json.loads((CORPUS / "verdicts.json").read_text())["rows"]
    names = {Path(r["answer"]).name for r in rows}
    assert {p.name for p in CORPUS.glob("*.py")} <= names
    for r in rows:
        assert r["float32"] != "equivalent over float32"
        if r["intent"].startswith("wrong"):
            assert r["verdict"] not in ("equivalent", "ok"), r["answer"]
            assert r["reals"] != "equivalent over the reals" or r["hazards"], r["answer"]
        if r["intent"].startswith("correct over the reals"):
            assert r["reals"] == "equivalent over the reals", r["answer"]


@needs_level1
def test_cli_gives_both_levels_as_json_and_bad_input_is_one_line_exit_2(capsys):
    from workbench.cli import main

    argv = ["floats", "check", str(SUM), str(CORPUS / "47_sum__wrong_off_by_one.py"), "--spec-device", "cpu",
            "--trials", "2", "--no-progress", "--json"]
    assert main(argv + ["--shapes", "1x9x1"]) == 1
    d = json.loads(capsys.readouterr().out)
    assert d["schema"] == "workbench.floats-block/1" and d["verdict"] == "not-equivalent"
    assert d["reals"]["witness"]["output"] == [0, 0, 0] and d["float32"]["semantics"].startswith("float32")
    assert main(argv + ["--shapes", "1xnine"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--shapes '1xnine'" in err and "2x259x3" in err
