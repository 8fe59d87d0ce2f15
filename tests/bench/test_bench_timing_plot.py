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


def test_dry_run_records_show_a_plain_message():
    rec = fixture.synthetic_record(PLAN)
    rec["timing_claims"], rec["mode"] = False, "dry-run"
    tp = TimingPlot([("dry", rec)])
    assert "nothing was timed" in tp.table.value and tp.comparison() is None


def test_no_records():
    assert "No run records" in TimingPlot([]).table.value
