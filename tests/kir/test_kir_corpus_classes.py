"""The shipped corpus by kernel class: the records the corpus-wide IR tests skip (``kir.table.readable``) are
exactly the ones refused by name for their class, so no kernel leaves those tests silently."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from workbench import kir
from workbench.capture.record import load
from workbench.check.classes import KernelClass, int64_reason, kernel_class, record_class
from workbench.kir.table import readable
from workbench.paths import KERNELS

ALL = sorted(KERNELS.glob("*/*.json"))
# construct each unreadable record is refused with, by program (upsample's source index is computed in fp32:
# a float -> int conversion of float arithmetic on an index; scans and cross-entropy's ``xnumel = 1`` kernel
# are read since issue 13's scan work)
EXPECTED_REFUSAL = {
    "upsample_nearest": "float arithmetic in an index",
}


def test_the_corpus_has_every_class_the_issue_names():
    classes = Counter(record_class(load(p)) for p in ALL)
    assert classes[KernelClass.POINTWISE] >= 43 and classes[KernelClass.INDIRECT] == 5  # int_gather_div: t[idx // 3]
    assert classes[KernelClass.REDUCTION] + classes[KernelClass.PERSISTENT] >= 11
    programs = {p.parent.name for p in ALL}
    assert {"softmax_last", "layer_norm", "rms_norm", "log_softmax_last", "cross_entropy", "sum_dim0", "sum_last",
            "mean_dim0", "mean_last", "cumsum_last", "cumsum_rows8", "argmax_last", "argmin_dim0",
            "max_with_index_last", "embedding", "index_select", "gather_last", "roll_last",
            "upsample_nearest"} <= programs


def test_every_indirect_kernel_is_read_and_every_other_refusal_is_named():
    ok = set(readable(ALL))
    assert len(ok) >= 63
    for p in ALL:
        rec = load(p)
        cls = record_class(rec)
        if p in ok:
            continue
        assert cls is not KernelClass.INDIRECT, p
        with pytest.raises(kir.RefusedConstruct) as err:
            kir.parse(rec)
        assert err.value.construct == EXPECTED_REFUSAL[p.parent.name], (p, err.value)


@pytest.mark.parametrize("name,dtype,source,want", [
    ("triton_poi_fused_add_0", "tl.int32", "tl.store(out_ptr0 + (x0), tmp0, xmask)", KernelClass.POINTWISE),
    ("triton_poi_fused_embedding_0", "tl.int32",
     'tl.device_assert(((0 <= tmp0) & (tmp0 < ks1)) | ~(xmask), "index out of bounds")', KernelClass.INDIRECT),
    ("triton_poi_fused_roll_0", "tl.int32",
     'tl.device_assert((((x0 + 3) % ks0) < ks0) | ~(xmask), "index out of bounds")', KernelClass.POINTWISE),
    ("triton_red_fused_sum_0", "tl.int32", "", KernelClass.REDUCTION),
    ("triton_per_fused_sum_0", "tl.int32", "", KernelClass.PERSISTENT),
    ("triton_per_fused_sum_0", "tl.int64", "", KernelClass.INT64),
    ("triton_poi_fused_add_0", "tl.int64", "", KernelClass.INT64),
    ("my_kernel", "tl.int32", "", KernelClass.OTHER),
])
def test_kernel_class(name, dtype, source, want):
    assert kernel_class(name, dtype, source) is want


def test_the_int64_reason_names_the_missing_guard():
    from dataclasses import replace

    rec = load(KERNELS / "embedding" / "triton_poi_fused_embedding_0.json")
    numel = rec.numels[0].expr
    wide = replace(rec, index_dtype="tl.int64", guards=tuple(g for g in rec.guards if not g.startswith(numel + " <=")))
    text = int64_reason(wide)
    assert f"xnumel = {numel}: `{numel} <= 2147483647` is not among Inductor's guards" in text
    assert text.startswith("index dtype tl.int64") and "stays wide" in text

    from workbench.check.api import check_kernel

    v = check_kernel(wide, "observable")
    assert v.verdict == "out-of-class" and "is not among Inductor's guards" in v.reason
    # a record that claims int64 with the guard present says so (it cannot be Inductor's own choice)
    assert "re-capture it" in int64_reason(replace(rec, index_dtype="tl.int64"))
