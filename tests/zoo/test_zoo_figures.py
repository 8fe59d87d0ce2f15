"""The zoo figures draw from a zoo document: the verdict mix of the shipped run, and the out-of-class histogram
both with reasons and with none (an empty chart says so in words rather than drawing empty axes)."""

import json
from pathlib import Path

from workbench.zoo import figures

ROOT = Path(__file__).resolve().parents[2]


def _doc() -> dict:
    return json.loads((ROOT / "data" / "zoo" / "zoo.json").read_text())


def test_the_verdict_mix_of_the_shipped_run_is_drawn(tmp_path):
    out = figures.verdict_mix(_doc(), tmp_path / "mix.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 10_000


def test_the_out_of_class_histogram_with_reasons_and_with_none(tmp_path):
    doc = _doc()
    doc["totals"] = dict(doc["totals"], out_of_class={})
    empty = figures.out_of_class_histogram(doc, tmp_path / "none.png")
    doc["totals"]["out_of_class"] = {"float arithmetic in an index": 2, "scan": 1}
    some = figures.out_of_class_histogram(doc, tmp_path / "some.png")
    assert empty.stat().st_size > 1000 and some.stat().st_size > 1000
    assert empty.read_bytes() != some.read_bytes()
