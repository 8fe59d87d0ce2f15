"""Reduction kernels through the kernel IR: parsing (loops, accumulators, reductions), refusals by name,
per-step evaluation, the canonical hash, and the cross-check against Triton's interpreter (every loop step).

Data: real kernels captured with torch 2.13.0 / triton 3.7.1 (``workbench capture``), under
``tests/kir/data/reduction``; mutants are edits of those texts.
"""

from dataclasses import replace
from pathlib import Path

import pytest

from workbench import kir
from workbench.capture import load
from workbench.capture.record import jit_function_text
from workbench.kir.errors import RefusedConstruct

DATA = Path(__file__).parent / "data" / "reduction"
SOFTMAX = DATA / "triton_red_fused__softmax_prepare_softmax_online_0.json"  # 3 loops, dynamic r0_numel
LAYERNORM = DATA / "triton_per_fused_add_addmm_native_layer_norm_view_11.json"  # persistent, r0_numel = 64
GROUPNORM_RED = DATA / "triton_red_fused_native_group_norm_0.json"  # welford_combine in a loop
GROUPNORM_PER = DATA / "triton_per_fused_native_group_norm_1.json"  # persistent, r0_numel = 6 < R0_BLOCK = 8
MEAN = DATA / "triton_red_fused_add_addmm_mean_mul_permute_view_32.json"
CUMSUM = DATA / "triton_red_fused_cumsum_ne_slice_sub_5.json"


def mutate(path, old, new, count=1):
    rec = load(path)
    body = jit_function_text(rec.source, rec.name)
    assert old in body, old
    return replace(rec, source=rec.source.replace(body, body.replace(old, new, count)))


def test_looped_softmax_parses_with_three_loops_and_two_accumulators():
    k = kir.parse(load(SOFTMAX))
    assert k.reduction == kir.nodes.Reduction("r0_numel", "R0_BLOCK", 3)
    assert [(c.name, c.loop) for c in k.carries] == [("_tmp2", 1), ("_tmp8", 2)]
    assert k.load_loops == (1, 2, 3) and k.store_loops == (3,)
    ops = {n.op for n in k.nodes()}
    assert {kir.Op.ROFFSET, kir.Op.ACC, kir.Op.REDUCE} <= ops
    reduces = sorted(n.attr for n in k.nodes() if n.op is kir.Op.REDUCE)
    assert reduces == [("tl.sum", 0), ("triton_helpers.max2", 0)]
    assert ("R0_BLOCK", "r") in k.blocks


def test_persistent_kernels_fix_numel_and_block_in_the_body():
    k = kir.parse(load(LAYERNORM))
    assert k.reduction.persistent and (k.reduction.static_numel, k.reduction.static_block) == (64, 64)
    assert not k.carries and kir.Op.ROFFSET not in {n.op for n in k.nodes()}
    k6 = kir.parse(load(GROUPNORM_PER))
    assert (k6.reduction.static_numel, k6.reduction.static_block) == (6, 8)
    welford = sorted(n.attr for n in k6.nodes() if n.op is kir.Op.REDUCE)
    assert welford == [("triton_helpers.welford", 0), ("triton_helpers.welford", 1)]  # the weight is never stored


def test_welford_accumulators_in_a_loop_are_three_carries():
    k = kir.parse(load(GROUPNORM_RED))
    assert [c.name for c in k.carries] == ["tmp13_mean", "tmp13_m2", "tmp13_weight"]
    for c in k.carries:
        assert c.update.op is kir.Op.WHERE and c.update.args[2].op is kir.Op.ACC


@pytest.mark.parametrize("path, old, new, construct", [
    (CUMSUM, "tl.associative_scan((tmp7,), 1, _triton_helper_fn_add0)", "tl.cumsum(tmp7, 1)", "scan"),
    (CUMSUM, "tl.associative_scan((tmp7,), 1, _triton_helper_fn_add0)",
     "tl.associative_scan((tmp7,), 1, _triton_helper_fn_add0, reverse=True)", "scan"),
    (CUMSUM, "tl.associative_scan((tmp7,), 1, _triton_helper_fn_add0)",
     "tl.associative_scan((tmp7,), 0, _triton_helper_fn_add0)", "scan"),
    (SOFTMAX, "tl.range(0, r0_numel, R0_BLOCK)", "tl.range(0, ks0, R0_BLOCK)", "loop"),
    (SOFTMAX, "tl.range(0, r0_numel, R0_BLOCK)", "tl.range(0, r0_numel, 2 * R0_BLOCK)", "loop"),
    (SOFTMAX, "        r0_1 = r0_index\n        tmp0", "        for r0_offset in tl.range(0, r0_numel, R0_BLOCK):\n            pass\n        r0_1 = r0_index\n        tmp0", "loop"),
    (SOFTMAX, "        tmp1 = tl.broadcast_to", "        x0 = x0 + 1\n        tmp1 = tl.broadcast_to", "loop-carried index"),
    (SOFTMAX, "tl.sum(_tmp8, 1)", "tl.sum(_tmp8, 0)", "reduction"),
    (SOFTMAX, "tl.sum(_tmp8, 1)", "tl.reduce(_tmp8, 1, combine)", "reduction"),
])
def test_refused_by_name(path, old, new, construct):
    rec = load(path) if old is None else mutate(path, old, new)
    with pytest.raises(RefusedConstruct) as info:
        kir.parse(rec)
    assert info.value.construct == construct


def test_canonical_hash_sees_the_accumulator_update_not_its_name():
    base = kir.canonical_hash(kir.parse(load(SOFTMAX)))
    renamed = mutate(SOFTMAX, "_tmp2", "_tmp99", count=-1)
    assert kir.canonical_hash(kir.parse(renamed)) == base
    changed = mutate(SOFTMAX, "tmp3 = triton_helpers.maximum(_tmp2, tmp1)", "tmp3 = triton_helpers.minimum(_tmp2, tmp1)")
    assert kir.canonical_hash(kir.parse(changed)) != base


def test_evaluation_per_step_reads_the_step_offset():
    k = kir.parse(load(SOFTMAX))
    ln = kir.launch(k, {"ks0": 37, "xnumel": 5, "r0_numel": 37}, {"XBLOCK": 2, "R0_BLOCK": 8})
    for step in (0, 8, 32):
        lane = kir.Lane((1, 0, 0), (("XBLOCK", 1), ("R0_BLOCK", 3)), ln.grid, step=step)
        for mode in (kir.WIDE, kir.NARROW):
            r = kir.evaluate(k, ln, lane, mode)
            assert [a.offset for a in r.loads] == [3 + step + 37 * 3] * 3
            assert [a.mask for a in r.loads] == [3 + step < 37] * 3
            assert [name for name, _ in r.carries] == [("_tmp2", 1), ("_tmp8", 2)]


@pytest.mark.slow
def test_interpreter_crosscheck_every_step_wide_and_narrowed():
    from workbench.kir.crosscheck import crosscheck

    reports = crosscheck([load(p) for p in (SOFTMAX, LAYERNORM, GROUPNORM_RED, GROUPNORM_PER)], lanes=64)
    assert all(r.status == "compared" for r in reports), [r.status for r in reports]
    for r in reports:
        assert r.lanes >= 16 and set(r.lanes_by_mode) == {"declared", "size args i32"}, r.kernel
        assert not r.mismatches, r.mismatches[:3]


@pytest.mark.slow
def test_interpreter_crosscheck_bites_on_a_wrong_evaluator():
    """Control: the evaluator with 8-bit size arguments against the interpreter's declared kernel."""
    from workbench.kir.crosscheck import crosscheck

    reports = crosscheck([load(SOFTMAX)], lanes=16, control=True)
    assert reports[0].mismatches


INTEGER_HELPER_KERNEL = '''
def k(in_ptr0: '*fp32', out_ptr0: '*fp32', ks0: 'i64', xnumel: 'i32', XBLOCK : tl.constexpr):
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex - 20
    x1 = triton_helpers.div_floor_integer(x0, ks0)
    x2 = triton_helpers.remainder_integer(x0, ks0)
    tmp0 = tl.load(in_ptr0 + (x1), xmask)
    tl.store(out_ptr0 + (x2), tmp0, xmask)
'''


@pytest.mark.parametrize("mode", [kir.WIDE, kir.NARROW])
def test_integer_helpers_on_indices_are_python_floor_division(mode):
    """triton_helpers.div_floor_integer / remainder_integer (mobilenet's and resnet's mean kernels) expand to
    their jit bodies; on every lane they compute Python's // and % (floor semantics)."""
    k = kir.parse(INTEGER_HELPER_KERNEL)
    for ks0 in (1, 3, 7):
        ln = kir.launch(k, {"ks0": ks0, "xnumel": 40}, {"XBLOCK": 64})
        for i in range(40):
            r = kir.evaluate(k, ln, kir.Lane.x(0, i), mode)
            assert r.loads[0].offset == (i - 20) // ks0 and r.stores[0].offset == (i - 20) % ks0


def test_captured_mean_kernel_with_floor_division_on_sizes_parses():
    """A mean over a strided convolution's output: its offsets use div_floor_integer((-1) + ks0, 2)."""
    k = kir.parse(load(DATA / "triton_red_fused_mean_0.json"))
    assert k.reduction.loops == 1 and [c.name for c in k.carries] == ["_tmp2"]
    ln = kir.launch(k, {"ks0": 9, "ks1": 7, "xnumel": 6, "r0_numel": 12}, {"XBLOCK": 2, "R0_BLOCK": 4})
    lane = kir.Lane((1, 0, 0), (("XBLOCK", 1), ("R0_BLOCK", 2)), ln.grid, step=4)
    x0, r = 3, 6
    want = r + x0 + x0 * (8 // 2) + x0 * (6 // 2) + x0 * (8 // 2) * (6 // 2)
    assert [a.offset for a in kir.evaluate(k, ln, lane, kir.NARROW).loads] == [want]
