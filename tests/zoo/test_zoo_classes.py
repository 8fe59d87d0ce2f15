"""The zoo table's by-class section (issue 13): one classification (workbench.check.classes) for the zoo and the
corpus tables; results recorded before classes existed are classified from name, index dtype and reason."""

from __future__ import annotations

from workbench.check.classes import KernelClass, outcome_class
from workbench.zoo import report
from workbench.zoo.runner import KernelOutcome, ModelResult


def _k(name, strict, observable, ooc="", dtype="tl.int32", cls=""):
    return KernelOutcome(name, 0, dtype, not ooc, ooc, strict, observable, False, "", 0.1, cls)


def _model(kernels):
    return ModelResult("m", "torch.nn", "", tuple(kernels), 1, (), ("x.size(0)",), 2.0, 1.0)


def test_the_zoo_table_counts_each_class():
    kernels = [
        _k("triton_poi_fused_add_0", "certified", "certified", cls="pointwise"),
        _k("triton_poi_fused_mul_1", "refused", "certified", cls="pointwise"),
        _k("triton_poi_fused_embedding_2", "certified", "certified", cls="indirect indexing"),
        _k("triton_red_fused_sum_3", "out-of-class", "out-of-class", "reduction"),  # recorded before classes
        _k("triton_per_fused_softmax_4", "out-of-class", "out-of-class", "reduction"),
        _k("triton_poi_fused_cat_5", "out-of-class", "out-of-class", "int64 indexing", dtype="tl.int64"),
        _k("triton_poi_fused_index_6", "out-of-class", "out-of-class", "device assert"),  # old, no source
    ]
    doc = report.build({"m": _model(kernels)}, {})
    got = {r["class"]: (r["kernels"], r["in_class"], r["strict"], r["observable"]) for r in doc["totals"]["by_class"]}
    assert got == {"pointwise": (2, 2, 1, 2), "indirect indexing": (2, 1, 1, 1), "reduction": (1, 0, 0, 0),
                   "persistent reduction": (1, 0, 0, 0), "int64-indexed": (1, 0, 0, 0)}
    assert [r["class"] for r in doc["totals"]["by_class"]] == [
        "pointwise", "indirect indexing", "reduction", "persistent reduction", "int64-indexed"]
    assert doc["models"][0]["by_class"] == doc["totals"]["by_class"]
    assert {k["kernel_class"] for k in doc["models"][0]["kernels_detail"]} >= {"pointwise", "reduction"}
    md = report.markdown(doc)
    assert "## By kernel class" in md and "| indirect indexing | 2 | 1 | 1 | 1 |" in md


def test_an_old_document_without_classes_still_renders():
    doc = report.build({"m": _model([_k("triton_poi_fused_add_0", "certified", "certified")])}, {})
    del doc["totals"]["by_class"]
    assert "## By kernel class" not in report.markdown(doc)


def test_outcome_class_prefers_the_recorded_class():
    assert outcome_class("triton_poi_x", "tl.int32", "", "indirect indexing") is KernelClass.INDIRECT
    assert outcome_class("triton_poi_x", "tl.int32", "indirect indexing") is KernelClass.INDIRECT
    assert outcome_class("triton_poi_x", "tl.int64", "int64 indexing") is KernelClass.INT64
