"""The corpus table's by-class rows (``workbench check --all``): counted from the records, in class order."""

from __future__ import annotations

from workbench.capture.record import load
from workbench.check.api import check_kernel
from workbench.check.table import to_json, to_markdown
from workbench.paths import KERNELS

PATHS = [KERNELS / "tile" / "triton_poi_fused_repeat_0.json",
         KERNELS / "embedding" / "triton_poi_fused_embedding_0.json",
         KERNELS / "sum_last" / "triton_red_fused_sum_0.json"]


def test_the_corpus_table_has_a_row_per_class():
    records = [load(p) for p in PATHS]
    rows = [{m: check_kernel(r, m, counterexample=False) for m in ("strict", "observable")} for r in records]
    doc = to_json(rows, records)
    got = {r["class"]: (r["kernels"], r["in_class"], r["strict"], r["observable"]) for r in doc["by_class"]}
    assert got == {"pointwise": (1, 1, 1, 1), "indirect indexing": (1, 1, 1, 1), "reduction": (1, 1, 1, 1)}  # merged with red: reductions are in class
    md = to_markdown(rows, records)
    assert "| kernel class | kernels | in class | certified strict | certified observable |" in md
    assert "| indirect indexing | 1 | 1 | 1 | 1 |" in md
    emb = next(k for k in doc["kernels"] if k["program"] == "embedding")
    assert "assumes 0 <= tmp0 < ks1 where xmask from device_assert at line 9" in emb["observable"]["reason"]
