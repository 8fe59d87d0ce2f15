"""TimingPlot's logic without a browser: state follows the controls, numbers come from the stats module."""

from __future__ import annotations

from workbench.bench import fixture, records, stats
from workbench.widgets.timing_plot import TimingPlot

PLAN = "data/plans/nested_cat_add-confirm.json"


def test_defaults_to_the_plans_decision_pair_and_all_shapes():
    rec = fixture.synthetic_record(PLAN, seed=1)
    tp = TimingPlot([("synthetic", rec)])
    assert (tp.wide.value, tp.narrow.value) == ("N", "N1")
    assert len(tp.shapes.value) == 11 and tp.shapes.value[0] == "sequence"
    c = tp.comparison()
    assert c.sequence == stats.compare(rec, records.verify(rec), "N", "N1").sequence
    assert tp.image.value[:4] == b"\x89PNG" and "1.0" in tp.table.value


def test_choosing_variants_and_shapes_updates_the_view():
    tp = TimingPlot([("synthetic", fixture.synthetic_record(PLAN, seed=2))])
    tp.wide.value = "B0"
    assert tp.comparison().wide == "B0"
    tp.shapes.value = ("rows=1536,q=2048,k=256,v=256",)
    c = tp.comparison()
    assert c.sequence is None and [k for k, _ in c.shapes] == ["rows=1536,q=2048,k=256,v=256"]
    tp.narrow.value = "B0"
    assert tp.comparison() is None and "two different variants" in tp.table.value
    # an invalid choice hides the image instead of showing an empty (broken) one
    assert tp.image.layout.display == "none" and tp.image.value == b""
    tp.narrow.value = "N1"
    assert tp.image.layout.display is None and tp.image.value[:4] == b"\x89PNG"


def test_dry_run_records_say_not_timed_and_show_no_image():
    rec = fixture.synthetic_record(PLAN)
    rec["timing_claims"], rec["mode"] = False, "dry-run"
    tp = TimingPlot([("dry", rec)])
    assert "not timed" in tp.table.value and tp.comparison() is None
    assert tp.image.layout.display == "none" and tp.verdict.value == "" and tp.times.value == ""


def test_report1_l4_record_shows_source_verdict_thresholds_and_per_call_times():
    tp = TimingPlot(["data/runs/report1-l4-confirm.json"])
    assert "report 1&#x27;s L4 data, measured by the report&#x27;s authors" in tp.source.value
    assert "8976d70c0c87" in tp.source.value
    assert "Pre-registered decision: <b>ADOPT</b> N1 over N" in tp.verdict.value
    assert tp.verdict.value.count("<li>pass") == 12
    times = dict((k, (a, b)) for k, a, b, _ in tp.per_call_times())
    assert times["2048xissue"] == (226.8671989440918, 202.53695487976074)
    assert "<th>N1</th>" in tp.times.value
    tp.wide.value = "B0"  # not the decision pair: no verdict, ratios still shown
    assert tp.verdict.value == "" and tp.decision() is None and "1.349" in tp.table.value


def test_no_records():
    assert "No run records" in TimingPlot([]).table.value
