"""`bench report` on report 1's imported L4 record reproduces the published numbers with the workbench's own
statistics (seeded numpy bootstrap, cross-checked with scipy), and its validity checks catch broken records."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from workbench.bench import records, report, stats, validity

RUN = Path("data/runs/report1-l4-confirm.json")


@pytest.fixture(scope="module")
def run() -> dict:
    return json.loads(RUN.read_text())


@pytest.fixture(scope="module")
def plan(run):
    return records.verify(run)


@pytest.mark.parametrize("wide, narrow, published", [
    ("B0", "N1", (1.349, 1.344, 1.358)),
    ("N", "N1", (1.090, 1.082, 1.094)),
])
def test_reproduces_the_published_ratio_and_ci_to_three_decimals(run, plan, wide, narrow, published):
    s = stats.compare(run, plan, wide, narrow).sequence
    assert (round(s.median, 3), round(s.lo, 3), round(s.hi, 3)) == published and s.n == 24


@pytest.mark.parametrize("seed", [0, 1, 12345])
def test_interval_is_scipys_percentile_bootstrap_and_stable_across_seeds(run, seed):
    x = stats.ratios(run, "B0", "N1")
    ours = stats.bootstrap_ci(x, np.median, 10_000, 0.95, seed)
    ref = scipy.stats.bootstrap((x,), np.median, n_resamples=10_000, confidence_level=0.95, method="percentile",
                                rng=np.random.default_rng(seed), vectorized=True)
    assert ours == pytest.approx((ref.confidence_interval.low, ref.confidence_interval.high), abs=1e-12)
    assert (round(ours[0], 3), round(ours[1], 3)) == (1.344, 1.358)


def test_small_shape_medians_match_the_authors(run, plan):
    c = stats.compare(run, plan, "N", "N1")
    authors = run["provenance"]["authors_analysis"]["small"]
    assert [k for k, _ in c.shapes] == list(authors)
    for k, s in c.shapes:
        assert s.median == pytest.approx(authors[k]["median_rS"], abs=1e-12)
    verdict = stats.decide(c, plan.decision)
    assert verdict.adopt and len(verdict.criteria) == 12


def test_validity_checks_pass_and_catch_each_defect(run):
    assert all(c.passed for c in validity.checks(run))
    bad = copy.deepcopy(run)
    bad["correctness"][5]["bitwise_equal"] = False
    bad["processes"][1]["compiles_during_measurement"] = 2
    for b in bad["blocks"]:
        if (b["process"], b["round"]) == (0, 0):
            b["order"] = ["B0", "N", "N1"]
    got = {c.name.split(" (")[0]: c.passed for c in validity.checks(bad)}
    assert got == {"bitwise equal to eager": False, "no compilation during measured blocks": False,
                   "balanced orders": False, "every round has a block of every variant": True}


def test_position_effect_and_telemetry_show_the_power_cap_and_N1s_lower_clock(run):
    pm = validity.position_means(run, "sequence_wall_s")
    assert set(pm) == {"B0", "N", "N1"} and all(set(d) == {0, 1, 2} for d in pm.values())
    t = validity.telemetry_by_variant(run)
    assert t["N1"]["sm_clock_mhz"] == 945.0 and t["B0"]["sm_clock_mhz"] == 1110.0
    assert all(v["power_cap_share"] == 1.0 and v["blocks"] == 24 for v in t.values())


def test_report_text_and_figures_are_labelled(tmp_path):
    r = report.report(RUN, tmp_path)
    assert "report 1's L4 data, measured by the report's authors" in r.text
    assert "8976d70c0c87f6d09462643d70bc636ce52a968a" in r.text
    assert "| T(B0)/T(N1) | 1.349 (1.344 – 1.358) | 1.349 (1.344 – 1.358) |" in r.text
    assert "| T(N)/T(N1) | 1.090 (1.082 – 1.094) | 1.090 (1.082 – 1.094) |" in r.text
    assert "pass: balanced orders" in r.text and "**ADOPT** N1 over N" in r.text
    assert "| N1 | 945 |" in r.text
    names = sorted(p.name for p in r.figures)
    assert {"report1-l4-triple-ratios.png", "report1-l4-shape-times.png", "report1-l4-telemetry.png"} <= set(names)
    assert all(p.stat().st_size > 10_000 for p in r.figures)
    # golden: the committed table is exactly what the report writes today (regenerate with
    # `workbench bench report data/runs/report1-l4-confirm.json --out figures` and review the diff)
    assert r.text == Path("figures/bench-report1-l4-confirm-gpu.md").read_text()
    doc = report.to_document(RUN, r)
    assert doc["schema"] == "workbench.bench.report/1" and doc["decision"]["adopt"] is True
    assert round(doc["comparisons"][1]["sequence"]["median"], 3) == 1.349
