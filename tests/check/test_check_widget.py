"""SideConditionView logic without a browser: it shows the package's verdict and re-renders on changes."""

from workbench.capture import load
from workbench.check import variants as V
from workbench.paths import KERNELS
from workbench.widgets.side_condition_view import SideConditionView


def test_view_shows_verdict_and_switches_mode():
    view = SideConditionView(program="rotary", mode="observable", smt=False)
    assert view.verdict.certified and "CERTIFIED" in view.body.value
    view.mode.value = "strict"
    assert view.verdict.verdict == "refused"
    assert "Counterexample" not in view.body.value or "2147483648" in view.body.value
    assert "intermediate fits int32" in view.body.value


def test_view_shows_a_variant_counterexample():
    view = SideConditionView(program="tile", smt=True)
    rec = V.without_total_width(V.at_least_one(load(KERNELS / "nested_cat_add" / "triton_poi_fused_add_cat_0.json")))
    view.show(rec)
    assert view.verdict.counterexample is not None
    assert "Counterexample" in view.body.value and "ks1 + ks2" in view.body.value
