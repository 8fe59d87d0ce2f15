"""Every captured corpus kernel's way to Lean, written down (issue 13, item 3): an instance (shipped in
``lean/Instances`` with a golden), *certified but no Lean counterpart* (with the emitter's named reason), or
not certified (the checker's verdict). The test recomputes each kernel's row (``workbench.check``, then the
emitter) and fails when a kernel moves between rows without this table being updated on purpose, so no
kernel is skipped silently: a new op another stage learns (a scan, say) shows up here as a changed row."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import workbench.check.certificate  # noqa: E402,F401 - an import error fails, never skips

from workbench.errors import WorkbenchError  # noqa: E402
from workbench.lean.adapter import corpus_instances  # noqa: E402
from workbench.lean.emit import emit_instance, module_name, term_roots  # noqa: E402
from workbench.lean.instance import assumes_in  # noqa: E402
from workbench.lean.paths import INSTANCES  # noqa: E402

GOLDEN = Path(__file__).parent / "golden"

# Instance kinds: the Lean model each uses (pointwise `Kernel`, `Grid2D` lanes, the device_assert premise
# `Asserts L`, reduction `RKernel`).
POINTWISE, GRID2D, INDIRECT, REDUCTION = ("instance", "pointwise"), ("instance", "grid2d"), ("instance", "indirect"), \
    ("instance", "reduction")


def NO_LEAN(reason: str) -> tuple[str, str]:
    """Certified by the checker, refused by the Lean emitter with ``reason`` (a part of its message)."""
    return ("certified, no Lean counterpart", reason)


def OUT_OF_CLASS(reason: str) -> tuple[str, str]:
    return ("out-of-class", reason)


def REFUSED(reason: str) -> tuple[str, str]:
    """Refused by the checker (observable mode), with ``reason`` (a part of its message)."""
    return ("refused", reason)


def NOT_EMITTED(reason: str) -> tuple[str, str]:
    """Certified, but the adapter has no Lean terms for it, with ``reason`` (a part of its message)."""
    return ("certified, not emitted", reason)


TABLE = {
    # integer index accumulators (maximum_with_index / minimum_with_index): index values as data, RPayload.int
    "argmax_last/triton_red_fused_argmax_0": REDUCTION,
    "argmin_dim0/triton_red_fused_argmin_0": REDUCTION,
    "broadcast_add/triton_poi_fused_add_0": POINTWISE,
    # integer data divided by a size (commit 61dfcc7's corpus programs): the checker refuses the observable
    # mode (the size argument is a value, `tmp1 = ks0`, that must fit int32 on every lane); the gather by a
    # quotient of loaded data is certified but its payload division has no Lean term yet.
    "int_div_floor/triton_poi_fused_div_0": REFUSED("size argument fits int32 fails for tmp1 = ks0"),
    "int_div_sum/triton_red_fused_div_sum_0": REFUSED("size argument fits int32 fails for tmp1 = ks1"),
    "int_div_trunc/triton_poi_fused_div_0": REFUSED("size argument fits int32 fails for tmp1 = ks0"),
    "int_fmod/triton_poi_fused_fmod_0": REFUSED("size argument fits int32 fails for tmp1 = ks0"),
    "int_gather_div/triton_poi_fused_floor_divide_index_0": NOT_EMITTED("PAYLOAD node on loaded data has no Lean"),
    "int_remainder/triton_poi_fused_remainder_0": REFUSED("size argument fits int32 fails for tmp1 = ks0"),
    "broadcast_col/triton_poi_fused_add_unsqueeze_0": POINTWISE,
    "broadcast_outer/triton_poi_fused_mul_unsqueeze_0": POINTWISE,
    "cat2/triton_poi_fused_cat_0": POINTWISE,
    "cat3/triton_poi_fused_cat_0": POINTWISE,
    "cat4/triton_poi_fused_cat_0": POINTWISE,
    "cat_3d_last/triton_poi_fused_cat_0": POINTWISE,
    "cat_3d_middle/triton_poi_fused_cat_0": POINTWISE,
    "cat_add/triton_poi_fused_add_cat_0": POINTWISE,
    "cat_cast/triton_poi_fused__to_copy_cat_0": POINTWISE,
    "cat_dim0/triton_poi_fused_cat_0": POINTWISE,
    "cat_stack/triton_poi_fused_cat_stack_view_0": POINTWISE,
    "causal_fill/triton_poi_fused_arange_gt_unsqueeze_where_zeros_like_0": POINTWISE,
    "chunk_add/triton_poi_fused_add_split_0": POINTWISE,
    # a one-row kernel (xnumel = 1, no x mask) with a device_assert premise and `other=0.0` on an *i64 load
    "cross_entropy/triton_red_fused__log_softmax_nll_loss_forward_1": REDUCTION,
    "cross_entropy/triton_red_fused_prepare_softmax_online_0": REDUCTION,
    # tl.associative_scan (RPayload.scan) and select_one (RPayload.reduce), looped and persistent
    "cumsum_last/triton_red_fused_cumsum_0": REDUCTION,
    "cumsum_rows8/triton_per_fused_cumsum_0": REDUCTION,
    "embedding/triton_poi_fused_embedding_0": INDIRECT,
    "expand_add/triton_poi_fused_add_expand_0": POINTWISE,
    "expand_reshape/triton_poi_fused__unsafe_view_clone_expand_mul_unsqueeze_0": POINTWISE,
    "flip_last/triton_poi_fused_flip_0": POINTWISE,
    "gather_last/triton_poi_fused_gather_0": INDIRECT,
    "index_select/triton_poi_fused_index_select_0": INDIRECT,
    "index_tensor/triton_poi_fused_index_0": INDIRECT,
    "layer_norm/triton_red_fused_native_layer_norm_0": REDUCTION,
    "log_softmax_last/triton_red_fused__log_softmax_prepare_softmax_online_0": REDUCTION,
    "max_with_index_last/triton_red_fused_max_0": REDUCTION,
    "mean_dim0/triton_red_fused_mean_0": REDUCTION,
    "mean_last/triton_red_fused_mean_0": REDUCTION,
    "movedim/triton_poi_fused_clone_permute_0": POINTWISE,
    "movedim_last_first/triton_poi_fused_mul_permute_0": POINTWISE,
    "narrow_cat/triton_poi_fused_cat_slice_0": POINTWISE,
    "nested_cat_add/triton_poi_fused_add_cat_0": POINTWISE,
    "nested_cat_add_distinct/triton_poi_fused_add_cat_0": POINTWISE,
    "pad_2d/triton_poi_fused_constant_pad_nd_0": POINTWISE,
    "pad_last/triton_poi_fused_constant_pad_nd_0": POINTWISE,
    "permute_3d/triton_poi_fused_clone_permute_0": POINTWISE,
    "permute_flatten/triton_poi_fused__unsafe_view_add_clone_permute_0": POINTWISE,
    "pixel_shuffle_like/triton_poi_fused__unsafe_view_clone_transpose_view_1": POINTWISE,
    "pixel_shuffle_like/triton_poi_fused_clone_transpose_view_0": POINTWISE,
    "repeat/triton_poi_fused_repeat_0": POINTWISE,
    "rms_norm/triton_red_fused_add_mean_mul_pow_rsqrt_0": REDUCTION,
    # roll's assert bounds an index expression (no loaded data): kir drops it (sound), no premise is needed.
    "roll_last/triton_poi_fused_roll_0": POINTWISE,
    "rotary/triton_poi_fused_add_cat_mul_neg_slice_0": POINTWISE,
    "slice_add/triton_poi_fused_add_slice_0": POINTWISE,
    "slice_step/triton_poi_fused_mul_slice_0": POINTWISE,
    "softmax_last/triton_red_fused__softmax_prepare_softmax_online_0": REDUCTION,
    "stack/triton_poi_fused_stack_0": POINTWISE,
    "stack3/triton_poi_fused_stack_0": POINTWISE,
    "stack_dim0/triton_poi_fused_mul_stack_0": POINTWISE,
    "sum_dim0/triton_red_fused_sum_0": REDUCTION,
    "sum_last/triton_red_fused_sum_0": REDUCTION,
    "tile/triton_poi_fused_repeat_0": POINTWISE,
    "tile_rows/triton_poi_fused_repeat_0": POINTWISE,
    "transpose_contig/triton_poi_fused_clone_t_0": POINTWISE,
    "transpose_static/triton_poi_fused_clone_t_0": GRID2D,
    "triangular_mask/triton_poi_fused_triu_0": POINTWISE,
    "tril_mask/triton_poi_fused_tril_0": POINTWISE,
    "unsqueeze_cat/triton_poi_fused_cat_unsqueeze_0": POINTWISE,
    "upsample_nearest/triton_poi_fused__to_copy__unsafe_index_add_arange_unsqueeze_0": OUT_OF_CLASS(
        "float arithmetic"),
    "where_select/triton_poi_fused_gt_where_0": POINTWISE,
}


def _kind(inst, record_grid: str) -> tuple[str, str]:
    if inst.reduction is not None:
        return REDUCTION
    if assumes_in(term_roots(inst)):
        return INDIRECT
    return GRID2D if record_grid == "Grid2D" else POINTWISE


@pytest.fixture(scope="module")
def rows():
    """``program/kernel -> (row, detail)`` as the checker and the emitter decide it now."""
    from workbench.capture.record import load as load_record
    from workbench.lean.adapter import record_path

    out = {}
    for e in corpus_instances():
        key = f"{e.program}/{e.kernel}"
        if e.instance is None:
            out[key] = (e.verdict, e.reason)
            continue
        try:
            emit_instance(e.instance)
        except WorkbenchError as exc:
            out[key] = ("certified, no Lean counterpart", str(exc))
            continue
        out[key] = (*_kind(e.instance, load_record(record_path(e.program, e.kernel)).grid_type), module_name(e.instance))
    return out


def test_lean_corpus_table_names_every_captured_kernel(rows):
    missing, extra = sorted(set(rows) - set(TABLE)), sorted(set(TABLE) - set(rows))
    assert not missing and not extra, f"kernels not in the table: {missing}; table rows without a kernel: {extra}"


@pytest.mark.parametrize("key", sorted(TABLE))
def test_lean_corpus_kernel_is_in_its_row(rows, key):
    want, got = TABLE[key], rows[key]
    if want[0] == "instance":
        assert got[:2] == want, f"{key}: expected a {want[1]} instance, got {got[0]}: {got[1][:200]}; update TABLE on purpose"
    else:
        assert got[0] == want[0] and want[1] in got[1], \
            f"{key}: expected {want[0]} ({want[1]}), got {got[0]}: {got[1][:200]}; update TABLE on purpose"


def test_lean_corpus_table_matches_the_shipped_files(rows):
    """Each instance row has its certificate and golden and is shipped; every other kernel is listed in
    ``lean/Instances.lean`` with its reason (nothing dropped without a word)."""
    shipped = {p.stem for p in INSTANCES.glob("*.lean")}
    certs = {p.stem for p in (GOLDEN / "certificates").glob("*.json")}
    index = (INSTANCES.parent / "Instances.lean").read_text()
    for key, got in rows.items():
        program, kernel = key.split("/")
        if got[0] == "instance":
            module = got[2]
            assert module in shipped and (GOLDEN / "corpus" / f"{module}.lean").exists(), key
            assert f"{program}__{kernel}" in certs, key
            assert f"* {key}:" not in index, key
        else:
            assert f"* {key}: " in index, f"{key} has no instance and is not listed in lean/Instances.lean"
            assert f"{program}__{kernel}" not in certs or got[0] != "out-of-class", key
    counts = {}
    for got in rows.values():
        counts[got[:2] if got[0] == "instance" else got[0]] = counts.get(got[:2] if got[0] == "instance" else got[0], 0) + 1
    # 63 certified corpus kernels, all with an instance: the 42 pointwise ones of before and roll, 1 Grid2D,
    # 4 indirect, 15 reductions (the 9 of before, argmax/argmin/max-with-index, the two cumsum scans and
    # cross-entropy's one-row kernel); 1 kernel out of the checker's class (upsample_nearest).
    # Then the six integer-data programs: five refused by the checker, one certified without Lean terms.
    assert counts == {POINTWISE: 43, GRID2D: 1, INDIRECT: 4, REDUCTION: 15, "out-of-class": 1, "refused": 5,
                      "certified, not emitted": 1}, counts


# Shipped instances with a device_assert premise: the four indirect pointwise corpus kernels, cross-entropy's
# one-row reduction (corpus) and the zoo's embedding + layer norm and T5 relative-position reductions.
WITH_PREMISE = ("Embedding", "Gather", "IndexSelect", "IndexTensor", "CrossEntropy_RedFusedLogSoftmaxNllLossForward1",
                "T5Encoder_")


def test_lean_corpus_indirect_instances_state_the_premise():
    """The indirect corpus kernels' shipped instances take `Asserts L` (the device_assert premise) and no
    `Safe` hypothesis, as do the zoo's embedding + layer norm and T5 reductions (at every step lane); every
    other shipped instance has no premise on the inputs."""
    for path in sorted(INSTANCES.glob("*.lean")):
        text = path.read_text()
        final = text[text.index("theorem narrowing_exact"):]
        final = final[:final.index(":=")]
        assert "Safe" not in final, path.name
        has = "(hA : Asserts L)" in final or "→ Asserts (L.step j r))" in final
        assert has == any(k in path.stem for k in WITH_PREMISE), path.name
    data = [json.loads(p.read_text()) for p in (GOLDEN / "certificates").glob("*.json")]
    assert sum(1 for d in data if d["premises"]["asserts"]) == 5
